import { test as base, type Page, type Response } from '@playwright/test';

export { expect } from '@playwright/test';

/**
 * `test` whose page waits, after each full page load of the site, until the app has taken the page over
 * (`<html data-app-ready>`, set by `App`): `/` and project pages arrive rendered by the server, and their
 * buttons answer only once the app runs. A reader would wait for the page to respond; so do the tests.
 */
export const test = base.extend<{ page: Page }>({
  page: async ({ page, baseURL }, use) => {
    const ready = async (response: Response | null) => {
      const isSitePage =
        response?.headers()['content-type']?.startsWith('text/html') && response.url().startsWith(baseURL ?? '');
      if (isSitePage) await page.locator('html[data-app-ready]').waitFor({ state: 'attached' });
      return response;
    };
    const goto = page.goto.bind(page);
    const reload = page.reload.bind(page);
    page.goto = async (url, options) => ready(await goto(url, options));
    page.reload = async (options) => ready(await reload(options));
    await use(page);
  },
});
