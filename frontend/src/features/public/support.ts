import { paths } from '@/config/paths';

/** Local storage key of the support start (spec 000 §3): JSON `{ loginRef, supportType }`. */
export const SUPPORT_STORAGE_KEY = 'fk';

export type SupportType = 'login' | 'guest';

export interface SupportStart {
  /** Where to go after login or signup: the payment page of the chosen return. */
  loginRef: string;
  supportType: SupportType;
}

export const paymentInfoHref = (projectSlug: string, returnSlug: string): string =>
  paths.paymentInfo.getHref(projectSlug, returnSlug);

/** Remembers the chosen return and how the visitor supports, for the login and payment pages. */
export const storeSupportStart = (start: SupportStart): void => {
  window.localStorage.setItem(SUPPORT_STORAGE_KEY, JSON.stringify(start));
};
