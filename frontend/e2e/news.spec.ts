import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { login, registeredMember } from './accounts';
import { expect, test } from './fixtures';
import { mailBody, waitForMails } from './mail';

/**
 * News (活動報告) end to end: an operator writes an item on a demo project and publishes it with the mail box
 * ticked; the public page shows it at once and the supporter's mail arrives in the mail catcher. A supporters-only
 * item is a locked teaser for a guest and readable for the supporter. Every run uses its own titles.
 */

const ADMIN = 'demo-admin@example.jp';
/** A paying supporter of the project (demo data). */
const SUPPORTER = 'demo-taro@example.jp';
const DEMO_PASSWORD = 'demo-password-1';
const SLUG = 'maebashi-rose-garden';
const LOCKED = 'この活動報告は支援者限定です。支援された方はログインすると読めます。';

const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

const projectId = async (request: APIRequestContext): Promise<number> => {
  const response = await request.get(`/v1/project/get/detail?slug=${SLUG}`);
  expect(response.ok()).toBeTruthy();
  return ((await response.json()) as { project: { id: number } }).project.id;
};

const tokenOf = async (request: APIRequestContext, email: string): Promise<string> => {
  const response = await request.post('/v1/user/login', { data: { email, password: DEMO_PASSWORD } });
  expect(response.ok(), `login of ${email}`).toBeTruthy();
  return ((await response.json()) as { token: string }).token;
};

/** A fresh browser context that nobody is logged in to, waiting for the app like the `page` fixture. */
const guestPage = async (browser: Browser): Promise<Page> => {
  const page = await (await browser.newContext()).newPage();
  const goto = page.goto.bind(page);
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    await page.locator('html[data-app-ready]').waitFor({ state: 'attached' });
    return response;
  };
  return page;
};

/** The project page's news block shows `text` (reloaded until it does: the public cache lives up to a second). */
const expectNews = async (page: Page, text: string) => {
  await page.goto(`/projects/${SLUG}/`);
  await expect
    .poll(
      async () => {
        if ((await page.getByText(text).count()) > 0) return true;
        await page.reload();
        await page.locator('html[data-app-ready]').waitFor({ state: 'attached' });
        return (await page.getByText(text).count()) > 0;
      },
      { timeout: 10_000, intervals: [300, 500, 1_000] },
    )
    .toBe(true);
};

test.describe('news (活動報告)', () => {
  test('an operator publishes an item with mail: the public page shows it and the supporter is mailed', async ({
    page,
    browser,
    request,
  }) => {
    const id = await projectId(request);
    const title = unique('バラの苗が届きました');
    await login(page, ADMIN, DEMO_PASSWORD);
    await page.goto(`/admin/projects/${id}/`);
    const section = page.getByRole('region', { name: '活動報告' });
    await section.getByRole('button', { name: '活動報告を書く' }).click();
    const form = page.getByRole('form', { name: '新しい活動報告' });

    // A title is required: the message shows under the field.
    await form.getByRole('button', { name: '公開する' }).click();
    await expect(form.getByText('タイトルを入力してください。')).toBeVisible();

    await form.getByLabel('タイトル', { exact: true }).fill(title);
    await form.getByRole('textbox', { name: '本文' }).click();
    await page.keyboard.type('200本の苗を植えました。');
    await expect(form.getByRole('radio', { name: 'すぐに公開' })).toBeChecked();
    await form.getByRole('checkbox', { name: '支援者にメールで知らせる' }).check();
    await form.getByRole('button', { name: '公開する' }).click();

    await expect(section.getByText('活動報告を公開しました。支援者へのメールを送信予約しました。')).toBeVisible();
    const item = section.getByRole('listitem').filter({ hasText: title });
    await expect(item.getByText('公開中')).toBeVisible();
    await expect(item.getByText('メール送信済み')).toBeVisible();

    const guest = await guestPage(browser);
    await expectNews(guest, title);
    await expect(guest.getByText('200本の苗を植えました。').first()).toBeVisible();

    const mails = await waitForMails(SUPPORTER, 1);
    await expect
      .poll(async () => (await waitForMails(SUPPORTER, 1)).filter((m) => m.subject.includes(title)).length, {
        timeout: 30_000,
      })
      .toBe(1);
    const mail = (await waitForMails(SUPPORTER, mails.length)).find((m) => m.subject.includes(title))!;
    expect(mailBody(mail)).toContain('200本の苗を植えました。');
    expect(mailBody(mail)).toContain('/mail/optout/?token=');
    await guest.context().close();
  });

  test('a supporters-only item is locked for a guest and read in full by the supporter', async ({
    page,
    browser,
    request,
  }) => {
    const id = await projectId(request);
    const title = unique('支援者の皆さまへ');
    const admin = await tokenOf(request, ADMIN);
    const created = await request.post(`/v1/admin/projects/${id}/news`, {
      headers: { Authorization: `Bearer ${admin}` },
      data: {
        title,
        body: '<p>見学会の合言葉はローズです。</p>',
        audience: 'supporters',
        returnIds: [],
        publish: true,
        publishAt: null,
        mailSupporters: false,
      },
    });
    expect(created.ok(), await created.text()).toBeTruthy();

    const guest = await guestPage(browser);
    await expectNews(guest, title);
    const teaser = guest.getByRole('listitem').filter({ hasText: title }).first();
    await expect(teaser.getByText(LOCKED)).toBeVisible();
    await expect(teaser.getByText('支援者限定', { exact: true })).toBeVisible();
    await expect(guest.getByText('見学会の合言葉はローズです。')).toHaveCount(0);
    await guest.context().close();

    await login(page, SUPPORTER, DEMO_PASSWORD);
    await expectNews(page, title);
    await expect(page.getByText('見学会の合言葉はローズです。').first()).toBeVisible();
  });
});

test.describe('mail about kept projects (お気に入り)', () => {
  test('a member opts in on my page and the choice stays after a reload', async ({ page }) => {
    await registeredMember(page, 'follow-mail');
    const section = page.getByRole('region', { name: 'お気に入り' });
    const box = section.getByRole('checkbox', { name: 'お気に入りのプロジェクトについてメールで受け取る' });
    await expect(box).not.toBeChecked();
    await box.click();
    await expect(box).toBeChecked();
    await expect(section.getByText('お気に入りのメールを受け取る設定にしました。')).toBeVisible();
    await page.reload();
    await expect(
      page.getByRole('region', { name: 'お気に入り' }).getByRole('checkbox', { name: 'お気に入りのプロジェクトについてメールで受け取る' }),
    ).toBeChecked();
  });
});
