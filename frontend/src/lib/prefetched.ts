/**
 * The API answers the server embedded in the page it sent (docs/architecture.md, "First paint"):
 * `{"<path under /v1>?<query>": <response body>}` in a JSON script element.
 */
export const PREFETCHED_ELEMENT_ID = 'prefetched-responses';

/**
 * The embedded answers, read once: the element is removed, so a later call (or a later page of the app)
 * never sees stale ones. A damaged payload reads as none; the app then fetches as usual.
 */
export function takeEmbeddedResponses(): Map<string, unknown> {
  const element = document.getElementById(PREFETCHED_ELEMENT_ID);
  if (!element) return new Map();
  element.remove();
  try {
    const parsed: unknown = JSON.parse(element.textContent ?? '');
    return typeof parsed === 'object' && parsed !== null ? new Map(Object.entries(parsed)) : new Map();
  } catch {
    return new Map();
  }
}
