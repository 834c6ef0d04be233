import type { FetchArgs } from '@reduxjs/toolkit/query';

/**
 * API responses the server embedded in the page it sent (docs/architecture.md,
 * "First paint"), keyed by the request path under /v1 and its query string.
 * Each one answers the first request for it, then the network takes over.
 */
export const PREFETCHED_ELEMENT_ID = 'prefetched-responses';

const pending = new Map<string, unknown>();

/** Moves a newly embedded payload, if any, into `pending` (and out of the DOM). */
function collectEmbedded(): void {
  const element = document.getElementById(PREFETCHED_ELEMENT_ID);
  if (!element) return;
  element.remove();
  try {
    const parsed: unknown = JSON.parse(element.textContent ?? '');
    if (typeof parsed !== 'object' || parsed === null) return;
    for (const [key, body] of Object.entries(parsed)) pending.set(key, body);
  } catch {
    // A damaged payload only costs the shortcut: the app fetches instead.
  }
}

/** The embedded response for `key`, once; `undefined` when there is none (left). */
export function takePrefetched(key: string): unknown {
  collectEmbedded();
  const body = pending.get(key);
  pending.delete(key);
  return body;
}

/** The key a GET request has in the embedded payload: `url` plus its query string. */
export function requestKey(args: string | FetchArgs): string | null {
  if (typeof args === 'string') return args;
  if (args.method && args.method.toUpperCase() !== 'GET') return null;
  const params = Object.entries((args.params ?? {}) as Record<string, unknown>)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => [name, String(value)]);
  const query = new URLSearchParams(params).toString();
  return query ? `${args.url}?${query}` : args.url;
}
