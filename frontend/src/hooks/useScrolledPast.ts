import { useEffect, useState, type RefObject } from 'react';

/**
 * Whether the element has scrolled up and out of view: entirely above the top of the viewport, or
 * under a sticky header `topInset` pixels tall. Without IntersectionObserver (jsdom) it stays false.
 */
export const useScrolledPast = (ref: RefObject<Element | null>, topInset = 0): boolean => {
  const [scrolledPast, setScrolledPast] = useState(false);

  useEffect(() => {
    const element = ref.current;
    if (!element || typeof window === 'undefined' || !('IntersectionObserver' in window)) return undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        const entry = entries[entries.length - 1];
        if (!entry) return;
        const top = entry.rootBounds?.top ?? topInset;
        setScrolledPast(!entry.isIntersecting && entry.boundingClientRect.bottom <= top);
      },
      { rootMargin: `-${topInset}px 0px 0px 0px` },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, topInset]);

  return scrolledPast;
};
