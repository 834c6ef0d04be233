import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { SITE_DESCRIPTION, formatPageTitle } from '@/config/site';

export interface PageMeta {
  title: string;
  description?: string;
  /** OGP type: `website` on the home page, `article` elsewhere. */
  type?: 'website' | 'article';
}

const setMeta = (attribute: 'name' | 'property', key: string, content: string): void => {
  let element = document.head.querySelector<HTMLMetaElement>(`meta[${attribute}="${key}"]`);
  if (!element) {
    element = document.createElement('meta');
    element.setAttribute(attribute, key);
    document.head.appendChild(element);
  }
  element.setAttribute('content', content);
};

/** Writes the document title, meta description and OGP tags. */
export const applyPageMeta = (meta: PageMeta, url: string): void => {
  const title = formatPageTitle(meta.title);
  const description = meta.description ?? SITE_DESCRIPTION;
  document.title = title;
  setMeta('name', 'description', description);
  setMeta('property', 'og:title', title);
  setMeta('property', 'og:description', description);
  setMeta('property', 'og:type', meta.type ?? 'article');
  setMeta('property', 'og:url', url);
};

type Override = PageMeta | null;
const OverrideContext = createContext<{
  override: Override;
  setOverride: (meta: Override) => void;
} | null>(null);

/** Lets a page replace the meta of its route (a project page, or a not-found view inside a route). */
export function PageMetaProvider({ children }: { children: ReactNode }) {
  const [override, setOverride] = useState<Override>(null);
  return <OverrideContext.Provider value={{ override, setOverride }}>{children}</OverrideContext.Provider>;
}

/** The meta a page set with `usePageMetaOverride`, if any. */
export const usePageMetaOverrideValue = (): Override => useContext(OverrideContext)?.override ?? null;

/** Replaces the route's meta while the calling component is mounted. */
export const usePageMetaOverride = (meta: PageMeta): void => {
  const setOverride = useContext(OverrideContext)?.setOverride;
  const { title, description, type } = meta;
  useEffect(() => {
    if (!setOverride) return undefined;
    setOverride({ title, description, type });
    return () => setOverride(null);
  }, [setOverride, title, description, type]);
};
