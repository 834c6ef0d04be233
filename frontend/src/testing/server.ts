import { setupServer } from 'msw/node';
import { defaultHandlers } from './handlers';

/**
 * The request mock server of every test. Tests add handlers with `server.use(...)`;
 * a request nobody handles fails the test (`onUnhandledRequest: 'error'` in setup).
 * The footer's sponsor wall has a default (empty) answer, see `handlers.ts`.
 */
export const server = setupServer(...defaultHandlers);

/** Absolute URL of an API path, as the browser under test resolves `/v1/...`. */
export const apiUrl = (path: string): string => new URL(`/v1${path}`, window.location.origin).toString();
