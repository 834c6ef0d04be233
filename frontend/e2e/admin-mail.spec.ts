import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { linksTo, login, register, uniqueEmail } from './accounts';
import { mailBody, waitForMails } from './mail';

const ADMIN = 'demo-admin@example.jp';
const MEMBER = 'demo-taro@example.jp';
const DEMO_PASSWORD = 'demo-password-1';

const loginAs = async (page: Page, email: string) => login(page, email, DEMO_PASSWORD);

const editor = (page: Page) => page.getByRole('textbox', { name: '本文' });

/** Writes a mail to every member on the form and opens its confirmation; returns the preview's count. */
const writeToAllMembers = async (page: Page, title: string, body: string): Promise<number> => {
  await page.getByLabel('送信先').selectOption({ label: '全会員（配信停止の会員を除く）' });
  const preview = page.getByText(/^送信予定：\d+件$/);
  await expect(preview).toBeVisible();
  const count = Number((await preview.textContent())?.match(/\d+/)?.[0]);
  await page.getByLabel('タイトル').fill(title);
  await editor(page).click();
  await page.keyboard.type(body);
  await page.getByRole('button', { name: '確認画面へ' }).click();
  await expect(page.getByRole('heading', { name: '送信内容の確認' })).toBeVisible();
  return count;
};

/** The addresses the finished mail reached, as the success message lists them (opened when folded). */
const sentAddresses = async (page: Page) => {
  const list = page.getByRole('list', { name: '送信先のメールアドレス' });
  if (!(await list.isVisible())) await page.getByText(/^送信先（\d+件）$/).click();
  await expect(list).toBeVisible();
  return list.getByRole('listitem');
};

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

test('a send the server fails says 登録に失敗しました。 and sends nothing', async ({ page }) => {
  const title = `e2e送信失敗 ${Date.now()}`;
  await loginAs(page, ADMIN);
  await page.goto('/admin/mail/register/');
  // Only this failure is played in the browser: the server answers as it does to an unexpected error.
  await page.route('**/v1/mail/set/register', (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ error: 'internal_error', message: 'エラーが発生しました。しばらく時間をおいて再度お試しください。' }),
    }),
  );
  await writeToAllMembers(page, title, '届かないお知らせです。');
  await page.getByRole('button', { name: '送信する' }).click();

  await expect(page.getByRole('alert')).toHaveText(
    '登録に失敗しました。（エラーが発生しました。しばらく時間をおいて再度お試しください。）',
  );
  await expect(page.getByRole('progressbar')).toHaveCount(0);
  await expect(page.getByText('メール送信が完了しました。')).toHaveCount(0);
  // The draft is kept for another try.
  await expect(page.getByRole('heading', { name: '送信内容の確認' })).toBeVisible();
  await expect(page.getByText(title)).toBeVisible();

  await page.unroute('**/v1/mail/set/register');
  await page.goto('/admin/mail/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('article').filter({ hasText: title })).toHaveCount(0);
});

test('a mail to all members skips a member who opted out through the link of an earlier one', async ({ page }) => {
  // Two mails to every member of the suite's database.
  test.setTimeout(180_000);
  const stays = uniqueEmail('mail-stays');
  const leaves = uniqueEmail('mail-leaves');
  await register(page, stays);
  await register(page, leaves);
  await loginAs(page, ADMIN);

  const first = `e2e全会員へのお知らせ ${Date.now()}`;
  await page.goto('/admin/mail/register/');
  await writeToAllMembers(page, first, '秋のイベントのお知らせです。');
  await page.getByRole('button', { name: '送信する' }).click();
  await expect(page.getByText('メール送信が完了しました。', { exact: true })).toBeVisible({ timeout: 60_000 });

  // The mail to every member carries the opt-out link; the member who leaves uses it.
  const [mail] = (await waitForMails(leaves)).filter((caught) => caught.subject === first);
  expect(mail, 'the first mail reached the member who leaves').toBeTruthy();
  const [optOut] = linksTo(mailBody(mail!), '/mail/optout/?token=');
  expect(optOut, 'the mail has an opt-out link').toBeTruthy();
  await page.goto(optOut!);
  await page.getByRole('button', { name: '配信を停止する' }).click();
  await expect(page.getByRole('status')).toHaveText(
    '配信停止を受け付けました。今後、全会員向けのお知らせメールはお送りしません。',
  );

  const second = `e2e全会員へのお知らせ（2通目） ${Date.now()}`;
  await page.goto('/admin/mail/register/');
  const count = await writeToAllMembers(page, second, '冬のイベントのお知らせです。');
  await page.getByRole('button', { name: '送信する' }).click();
  await expect(page.getByText('メール送信が完了しました。', { exact: true })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText(`送信済み ${count} 件 / 失敗 0 件 / 全 ${count} 件`, { exact: false })).toBeVisible();

  const addresses = await sentAddresses(page);
  await expect(addresses).toHaveCount(count);
  await expect(addresses.filter({ hasText: stays })).toHaveText([stays]);
  await expect(addresses.filter({ hasText: leaves })).toHaveCount(0);

  // The mail itself: the one who stays gets it, the one who left does not.
  await expect.poll(async () => (await waitForMails(stays)).map((caught) => caught.subject)).toContain(second);
  const toLeaver = (await waitForMails(leaves)).filter((caught) => caught.subject === second);
  expect(toLeaver).toEqual([]);
});
