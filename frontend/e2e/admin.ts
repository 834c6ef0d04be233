import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expect } from './fixtures';

/** The demo's administrator (demo data). */
export const ADMIN = 'demo-admin@example.jp';
export const DEMO_PASSWORD = 'demo-password-1';

/** The public pages read a catalogue cache: a change shows within a second, so checks reload and poll. */
export const PUBLIC_POLL = { timeout: 15_000, intervals: [300, 500, 1_000] };

/** `YYYY-MM-DD` in Tokyo, `days` from today. */
export const tokyoDay = (days: number): string =>
  new Date(Date.now() + days * 86_400_000 + 9 * 3_600_000).toISOString().slice(0, 10);

export interface ProjectCopy {
  /** The slug's prefix; a unique suffix keeps each run's project apart from the demo and earlier runs. */
  slugPrefix: string;
  title: string;
  lead: string;
  story: string;
  goal: number;
  /** Its one return, bought by card, unlimited, no address. */
  ret: { title: string; description: string; price: number };
}

/** A published project with one return, made through the admin API, for specs about another admin screen. */
export const publishedProject = async (
  request: APIRequestContext,
  copy: ProjectCopy,
): Promise<{ id: number; slug: string }> => {
  const signIn = await request.post('/v1/user/login', { data: { email: ADMIN, password: DEMO_PASSWORD } });
  expect(signIn.ok()).toBeTruthy();
  const { token } = (await signIn.json()) as { token: string };
  const headers = { Authorization: `Bearer ${token}` };
  const slug = `${copy.slugPrefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const created = await request.post('/v1/admin/projects', {
    headers,
    data: {
      slug,
      title: copy.title,
      lead: copy.lead,
      story: copy.story,
      goal: copy.goal,
      periodEnd: tokyoDay(40),
      fundingModel: 'all_in',
      taxHandling: 'inclusive',
      acceptsCard: true,
      acceptsBankTransfer: false,
    },
  });
  expect(created.ok(), await created.text()).toBeTruthy();
  const { id } = (await created.json()) as { id: number };
  const withReturn = await request.post(`/v1/admin/projects/${id}/returns`, {
    headers,
    data: {
      title: copy.ret.title,
      description: copy.ret.description,
      price: copy.ret.price,
      returnType: 0,
      stockLimit: null,
      lotFixed: false,
      addressRequired: false,
      addressLabel: null,
      disabled: false,
      disabledComment: null,
      hidden: false,
      deliveryMonth: null,
    },
  });
  expect(withReturn.ok(), await withReturn.text()).toBeTruthy();
  const published = await request.post(`/v1/admin/projects/${id}/publish`, { headers, data: { publishAt: null } });
  expect(published.ok(), await published.text()).toBeTruthy();
  return { id, slug };
};

/** A page of a fresh browser context, logged in as nobody; it waits for the app as the `page` fixture does. */
export const visitorPage = async (browser: Browser): Promise<Page> => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  const ready = async <R>(response: R) => {
    await page.locator('html[data-app-ready]').waitFor({ state: 'attached' });
    return response;
  };
  page.goto = async (url, options) => ready(await goto(url, options));
  page.reload = async (options) => ready(await reload(options));
  return page;
};
