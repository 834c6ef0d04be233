/** Local storage key of the session token, as in the specs: JSON `{ type, token }`. */
export const JWT_STORAGE_KEY = 'jwt';

export interface StoredToken {
  type: string;
  token: string;
}

const isStoredToken = (value: unknown): value is StoredToken =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as StoredToken).token === 'string' &&
  (value as StoredToken).token.length > 0;

/** The stored token, or `null` when absent or unreadable. */
export const readToken = (): StoredToken | null => {
  try {
    const raw = window.localStorage.getItem(JWT_STORAGE_KEY);
    if (!raw) return null;
    const parsed: unknown = JSON.parse(raw);
    return isStoredToken(parsed) ? parsed : null;
  } catch {
    return null;
  }
};

export const writeToken = (token: StoredToken): void => {
  window.localStorage.setItem(JWT_STORAGE_KEY, JSON.stringify(token));
};

export const clearToken = (): void => {
  window.localStorage.removeItem(JWT_STORAGE_KEY);
};

/**
 * Local storage key of the support record (spec 000 §3): JSON `{ loginRef, supportType }`.
 * `loginRef` is the path to return to after login.
 */
export const FK_STORAGE_KEY = 'fk';

/** Local storage key of the number of units chosen in the payment flow. */
export const LOT_STORAGE_KEY = 'lot';

type SupportRecord = Record<string, unknown> & { loginRef?: string; supportType?: string };

const readSupportRecord = (): SupportRecord => {
  try {
    const raw = window.localStorage.getItem(FK_STORAGE_KEY);
    if (!raw) return {};
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as SupportRecord) : {};
  } catch {
    return {};
  }
};

/** Only paths of this site: `/account/`, never `//evil.example` or `https://...`. */
const isLocalPath = (value: unknown): value is string =>
  typeof value === 'string' && value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\');

/** The saved path to return to after login, or `null`. */
export const readLoginRef = (): string | null => {
  const { loginRef } = readSupportRecord();
  return isLocalPath(loginRef) ? loginRef : null;
};

/** Saves the path to return to after login, keeping the rest of the support record. */
export const saveLoginRef = (path: string): void => {
  if (!isLocalPath(path)) return;
  window.localStorage.setItem(FK_STORAGE_KEY, JSON.stringify({ ...readSupportRecord(), loginRef: path }));
};

/** Forgets the return path, keeping the rest of the support record (such as `supportType`). */
export const clearLoginRef = (): void => {
  const { loginRef: _dropped, ...rest } = readSupportRecord();
  if (Object.keys(rest).length === 0) window.localStorage.removeItem(FK_STORAGE_KEY);
  else window.localStorage.setItem(FK_STORAGE_KEY, JSON.stringify(rest));
};

/** Forgets the chosen lot: the legacy `lot` key and the support record's `lot` (spec 001 §3). */
export const clearLot = (): void => {
  window.localStorage.removeItem(LOT_STORAGE_KEY);
  const { lot: _dropped, ...rest } = readSupportRecord();
  if (Object.keys(rest).length === 0) window.localStorage.removeItem(FK_STORAGE_KEY);
  else window.localStorage.setItem(FK_STORAGE_KEY, JSON.stringify(rest));
};
