import { http, HttpResponse } from 'msw';

const url = (path: string): string => new URL(`/v1${path}`, 'http://localhost:3000/').toString();

/**
 * Answers that the chrome of every page needs (the footer's sponsor wall), and my page's monthly supports (none).
 * Tests that care override them with `server.use(...)`; everything else still fails when unhandled.
 */
export const defaultHandlers = [
  // The not-found page lists the open projects; none unless a test says otherwise.
  http.get(url('/helper/get/master'), () => HttpResponse.json({ master: { projects: [], env: { name: 'local', flag: false } } })),
  http.get(url('/sponsors/get/footer'), () =>
    HttpResponse.json({ hidden: false, tiers: { LL: [], L: [], M: [], S: [] } }),
  ),
  http.get(url('/stripe/subscription/get/list'), () => HttpResponse.json({ subscriptions: [] })),
];
