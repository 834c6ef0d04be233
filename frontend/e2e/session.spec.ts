import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { login, storedToken } from './accounts';

// Demo accounts seeded by `app-server seed-demo` (password `demo-password-1`).
const DEMO_PASSWORD = 'demo-password-1';
const MEMBER = 'demo-taro@example.jp';
const ADMIN = 'demo-admin@example.jp';

/** A return of the demo's Maebashi project, as the server lists it. */
const purchasableReturn = async (request: APIRequestContext): Promise<{ slug: string; title: string }> => {
  const response = await request.get('/v1/project/get/detail?slug=maebashi-rose-garden');
  const { project } = (await response.json()) as {
    project: { returns: Array<{ slug: string; title: string; purchasable: boolean }> };
  };
  const ret = project.returns.find((candidate) => candidate.purchasable);
  expect(ret, 'the Maebashi demo project has a purchasable return').toBeTruthy();
  return ret!;
};

test('reloading a payment page keeps the member logged in', async ({ page, request }) => {
  const ret = await purchasableReturn(request);
  await login(page, MEMBER, DEMO_PASSWORD);
  const token = await storedToken(page);
  const path = `/payment/info/maebashi-rose-garden/${ret.slug}/`;

  // The flow starts from the return's button (a payment page opened without it is Not Found, spec 001 §2).
  await page.goto('/projects/maebashi-rose-garden/');
  await page
    .locator('#returns')
    .getByRole('article', { name: ret.title, exact: true })
    .getByRole('button', { name: 'このリターンで支援する' })
    .click();
  await expect(page).toHaveURL(new RegExp(`${path}$`));
  const check = page.waitForResponse((r) => new URL(r.url()).pathname === '/v1/user/loginCheck');
  await page.reload();
  expect((await check).status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: 'ご支援内容の入力' })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${path}$`));
  expect(await storedToken(page)).toBe(token);

  await page.goto('/account/');
  await expect(page).toHaveURL(/\/account\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'マイページ' })).toBeVisible();
});

test('a member who opens /admin/ sees Not Found and stays logged in', async ({ page }) => {
  await login(page, MEMBER, DEMO_PASSWORD);
  const token = await storedToken(page);

  await page.goto('/admin/');
  await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/$/);
  expect(await storedToken(page)).toBe(token);
  await expect(page.getByRole('alertdialog')).toHaveCount(0);

  await page.goto('/account/');
  await expect(page.getByRole('heading', { level: 1, name: 'マイページ' })).toBeVisible();
});

test('an administrator reloading /admin/ sees the admin page', async ({ page }) => {
  await login(page, ADMIN, DEMO_PASSWORD);

  await page.goto('/admin/');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: '管理画面' })).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/$/);
  expect(await storedToken(page)).not.toBeNull();
});
