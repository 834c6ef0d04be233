import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { server } from './server';

// Node's fetch has no page to resolve "/v1/..." against; the browser resolves it against the origin.
const NodeRequest = globalThis.Request;
globalThis.Request = class extends NodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, window.location.origin) : input, init);
  }
} as typeof Request;

// jsdom does not implement scrolling.
window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
Element.prototype.scrollIntoView = vi.fn();

// The first test of a file also loads its lazy route chunk; on a busy 2-core machine that alone can
// take over the default 1 s of `findBy...`.
configure({ asyncUtilTimeout: 3_000 });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
  window.localStorage.clear();
});
afterAll(() => server.close());

// jsdom has no native dialogs; the site shows its own (role alertdialog), so tests can assert none was used.
window.alert = vi.fn();
