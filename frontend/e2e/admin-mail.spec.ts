import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { login } from './accounts';

const ADMIN = 'demo-admin@example.jp';
const MEMBER = 'demo-taro@example.jp';
const DEMO_PASSWORD = 'demo-password-1';

const loginAs = async (page: Page, email: string) => login(page, email, DEMO_PASSWORD);

const editor = (page: Page) => page.getByRole('textbox', { name: '本文' });

test('the mail form asks for a title and a body', async ({ page }) => {
  await loginAs(page, ADMIN);
  await page.goto('/admin/mail/register/');
  await expect(page.getByRole('heading', { level: 1, name: 'メールの作成' })).toBeVisible();
  await expect(editor(page)).toBeVisible();

  await page.getByRole('button', { name: '確認画面へ' }).click();

  await expect(page.getByText('タイトルを入力してください。')).toBeVisible();
  await expect(page.getByText('内容を入力してください。')).toBeVisible();
  await expect(page.getByRole('heading', { name: '送信内容の確認' })).toHaveCount(0);
});

test('an administrator writes, confirms and sends a mail, watches it go out, and finds it in the list', async ({ page }) => {
  const title = `e2eお知らせ ${Date.now()}`;
  const body = '支援者の皆さまへ。活動報告会を開催します。'.repeat(6);
  await loginAs(page, ADMIN);
  await page.goto('/admin/mail/register/');

  // A project's supporters: the preview shows how many will receive it.
  const select = page.getByLabel('送信先');
  const option = select.locator('option', { hasText: 'の支援者' }).first();
  await select.selectOption({ label: (await option.textContent()) ?? '' });
  await expect(page.getByText(/^送信予定：[1-9]\d*件$/)).toBeVisible();
  const count = Number((await page.getByText(/^送信予定：\d+件$/).textContent())?.match(/\d+/)?.[0]);

  await page.getByLabel('タイトル').fill(title);
  await editor(page).click();
  await page.getByRole('button', { name: '太字' }).click();
  await page.keyboard.type(body);
  await page.getByRole('button', { name: '確認画面へ' }).click();

  await expect(page.getByRole('heading', { name: '送信内容の確認' })).toBeVisible();
  await expect(page.getByText(title)).toBeVisible();
  await expect(page.getByText(`この内容で ${count} 件に送信します。よろしいですか？`)).toBeVisible();
  await page.getByRole('button', { name: '送信する' }).click();

  await expect(page.getByRole('progressbar', { name: '送信の進み具合' })).toBeVisible();
  await expect(page.getByText('メール送信が完了しました。')).toBeVisible({ timeout: 30_000 });
  const addresses = page.getByRole('list', { name: '送信先のメールアドレス' }).getByRole('listitem');
  await expect(addresses).toHaveCount(count);
  await expect(addresses.first()).toContainText('@');
  await expect(page.getByText(`送信済み ${count} 件 / 失敗 0 件 / 全 ${count} 件`, { exact: false })).toBeVisible();
  // The form is empty again.
  await expect(page.getByLabel('タイトル')).toHaveValue('');

  // Reopening the page keeps the progress (it follows the job on the server).
  await page.reload();
  await expect(page.getByText('メール送信が完了しました。')).toBeVisible();

  await page.goto('/admin/mail/');
  const entry = page.getByRole('article').filter({ hasText: title });
  await expect(entry).toBeVisible();
  const excerpt = body.slice(0, 95);
  await expect(entry.getByText(`${excerpt}…`)).toBeVisible();

  await entry.getByRole('link', { name: title }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.getByText(ADMIN).first()).toBeVisible();
  await expect(page.locator('.admin-mail__body strong')).toContainText('活動報告会を開催します。');
  await expect(page.getByRole('cell', { name: '送信済み' })).toHaveCount(count);
});

test('an unknown mail shows the not-found page', async ({ page }) => {
  await loginAs(page, ADMIN);
  await page.goto('/admin/mail/987654321/');
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
});

test('a member gets the not-found page on every mail screen', async ({ page }) => {
  await loginAs(page, MEMBER);
  for (const path of ['/admin/mail/', '/admin/mail/register/', '/admin/mail/1/']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'メールの作成' })).toHaveCount(0);
  }
});

test('the opt-out page explains a link that is not genuine', async ({ page }) => {
  await page.goto('/mail/optout/?token=not-a-real-token');
  await expect(page.getByRole('heading', { level: 1, name: 'お知らせメールの配信停止' })).toBeVisible();
  await page.getByRole('button', { name: '配信を停止する' }).click();
  await expect(page.getByRole('alert')).toContainText('配信停止のリンクが正しくありません。');
});
