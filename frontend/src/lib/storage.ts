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
