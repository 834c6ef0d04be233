import { http, HttpResponse } from 'msw';

const url = (path: string): string => new URL(`/v1${path}`, 'http://localhost:3000/').toString();

/** `GET /v1/project/get/areas` in tests: a few of Gunma's municipalities and of the categories. */
export const TAXONOMY = {
  areas: [
    { id: 1, slug: 'maebashi', name: '前橋市' },
    { id: 2, slug: 'takasaki', name: '高崎市' },
    { id: 3, slug: 'kiryu', name: '桐生市' },
  ],
  categories: [
    { id: 1, slug: 'food-agriculture', name: '食・農業' },
    { id: 2, slug: 'culture-arts', name: '文化・芸術' },
  ],
};

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
  // A member's お気に入り (the cards' buttons, my page) and supported projects (my page): none.
  http.get(url('/user/favourites'), () => HttpResponse.json({ favourites: [], limit: 500 })),
  http.get(url('/user/supports'), () => HttpResponse.json({ projects: [], total: 0, page: 1, perPage: 20 })),
  // My page's mail about kept projects: off until chosen.
  http.get(url('/user/favouriteMail'), () => HttpResponse.json({ enabled: false })),
  // The areas and categories (the project form's selects, the list's filters).
  http.get(url('/project/get/areas'), () => HttpResponse.json(TAXONOMY)),
];
