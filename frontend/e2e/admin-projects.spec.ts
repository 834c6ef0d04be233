import { execFileSync } from 'node:child_process';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { login } from './accounts';
import { ADMIN, DEMO_PASSWORD, tokyoDay, visitorPage } from './admin';

/**
 * The operator's project screens end to end: a project is created with two
 * returns, previewed, published, found by a visitor, edited and paused, and a supporter's comment on it is hidden
 * and shown again, against the running site. Every run makes its own project (a unique slug), so runs never
 * collide and the demo projects stay as they are.
 */

/** The supporter whose comment the moderation step writes (demo data). */
const MEMBER = 'demo-taro@example.jp';

/**
 * One statement against the e2e server's database (E2E_DATABASE_URL, set by app-server/dev/test.sh), as
 * late-transfer.spec.ts does: a supporter's comment is written there, since a comment comes with a support.
 * The statement's text goes as UTF-8 whatever the locale.
 */
const sql = (statement: string): string => {
  const url = process.env.E2E_DATABASE_URL;
  if (!url) throw new Error('E2E_DATABASE_URL is not set: run the browser tests through app-server/dev/test.sh e2e');
  return execFileSync('psql', [url, '-qAtX', '-v', 'ON_ERROR_STOP=1', '-c', statement], {
    encoding: 'utf8',
    env: { ...process.env, PGCLIENTENCODING: 'UTF8' },
  }).trim();
};

/** The public pages read a catalogue cache of up to 3 s: a change shows after it, so checks reload and poll. */
const PUBLIC_CACHE_POLL = { timeout: 20_000, intervals: [500, 1_000, 1_000, 2_000] };

const tokenOf = async (request: APIRequestContext, email: string): Promise<string> => {
  const response = await request.post('/v1/user/login', { data: { email, password: DEMO_PASSWORD } });
  expect(response.ok(), `login of ${email}`).toBeTruthy();
  return ((await response.json()) as { token: string }).token;
};

/** The id in the address of an edit page (`/admin/projects/{id}/`). */
const projectIdOf = (page: Page): number => {
  const match = /\/admin\/projects\/(\d+)\/$/.exec(new URL(page.url()).pathname);
  expect(match, `an edit page: ${page.url()}`).toBeTruthy();
  return Number(match![1]);
};

/** Opens the return form, fills it and saves; the return then shows in the list. */
const addReturn = async (page: Page, ret: { title: string; description: string; price: number; stock?: number }) => {
  await page.getByRole('button', { name: 'リターンを追加' }).click();
  const form = page.getByRole('region', { name: 'リターンを追加' });
  await expect(form).toBeVisible();
  await form.getByLabel('タイトル', { exact: true }).fill(ret.title);
  await form.getByLabel('内容', { exact: true }).fill(ret.description);
  await form.getByLabel('金額（円）', { exact: true }).fill(String(ret.price));
  await form.getByLabel('種類', { exact: true }).selectOption({ label: '個人' });
  if (ret.stock !== undefined) await form.getByLabel(/^在庫数/).fill(String(ret.stock));
  await form.getByRole('button', { name: 'リターンを保存する' }).click();
  await expect(form).toHaveCount(0);
  await expect(page.getByText('リターンを保存しました。')).toBeVisible();
  return returnItem(page, ret.title);
};

const returnItem = (page: Page, title: string): Locator =>
  page.getByRole('list', { name: 'リターン（表示順）' }).getByRole('article', { name: title, exact: true });

const publicReturn = (page: Page, title: string): Locator =>
  page.locator('#returns').getByRole('article', { name: title, exact: true });

test('the operator creates, previews and publishes a project; a visitor finds it; later edits and moderation reach the public page', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  const stamp = Date.now();
  const slug = `e2e-${stamp}`;
  const title = `E2Eテスト 桐生織の工房を次の世代へ ${stamp}`;
  const story = `百年続く工房の織機を直し、若い職人が織り続けられるようにします。${stamp}`;
  const letter = { title: 'お礼のお手紙', description: '職人からのお手紙を郵送でお届けします。', price: 3000, stock: 100 };
  const tour = { title: '工房見学ツアー', description: '工房をご案内します。日程はメールでご相談します。', price: 20000 };
  let id = 0;

  await test.step('the operator creates a draft from the project list', async () => {
    await login(page, ADMIN, DEMO_PASSWORD);
    await page.goto('/admin/');
    await page.getByRole('navigation', { name: '管理メニュー' }).getByRole('link', { name: 'プロジェクト管理' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'プロジェクト管理' })).toBeVisible();
    await expect(page).toHaveTitle(/^プロジェクト管理 \| /);
    await page.getByRole('link', { name: '新しいプロジェクトを作成' }).click();

    await expect(page.getByRole('heading', { level: 1, name: '新しいプロジェクト' })).toBeVisible();
    await page.getByLabel('タイトル', { exact: true }).fill(title);
    await page.getByLabel('URL（/projects/◯◯/ の◯◯）').fill(slug);
    await page.getByLabel('リード文').fill('群馬・桐生の織物工房を、次の世代へつなぐプロジェクトです。');
    const editor = page.getByRole('textbox', { name: '本文' });
    await editor.click();
    await page.keyboard.type(story);
    await page.getByLabel('目標金額（円）').fill('500000');
    await page.getByLabel('終了日').fill(tokyoDay(30));
    await page.getByRole('radio', { name: 'All-in（実施確約）' }).check();
    await page.getByRole('radio', { name: '税込' }).check();
    await expect(page.getByRole('checkbox', { name: 'クレジットカード' })).toBeChecked();
    await expect(page.getByRole('checkbox', { name: '銀行振込' })).toBeChecked();
    await page.getByRole('button', { name: '保存する', exact: true }).click();

    await expect(page.getByRole('heading', { level: 1, name: 'プロジェクトの編集' })).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/projects\/\d+\/$/);
    id = projectIdOf(page);
    await expect(page.getByRole('status').filter({ hasText: '保存しました。' })).toBeVisible();
    await expect(page.getByText('下書き', { exact: true })).toBeVisible();
  });

  await test.step('the operator adds two returns', async () => {
    await expect(page.getByText('リターンはまだありません。')).toBeVisible();
    const first = await addReturn(page, letter);
    await expect(first.getByText('3,000円')).toBeVisible();
    await expect(first.getByText('0 / 100')).toBeVisible();
    const second = await addReturn(page, tour);
    await expect(second.getByText('20,000円')).toBeVisible();
    await expect(second.getByText('0 / 無制限')).toBeVisible();
    const list = page.getByRole('list', { name: 'リターン（表示順）' });
    await expect(list.getByRole('heading', { level: 3 })).toHaveText([letter.title, tour.title]);
  });

  await test.step('the operator previews the draft: the public page under the preview banner', async () => {
    await page.getByRole('link', { name: 'プレビュー', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/projects/${id}/preview$`));
    await expect(page.getByText('プレビュー：このページはまだ公開されていません')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(page.getByText(story)).toBeVisible();
    await expect(publicReturn(page, letter.title)).toBeVisible();
    await expect(publicReturn(page, tour.title)).toBeVisible();
    // The banner stays at the top while the page scrolls.
    await page.locator('#returns').scrollIntoViewIfNeeded();
    await expect(page.getByText('プレビュー：このページはまだ公開されていません')).toBeInViewport();

    await page.getByRole('link', { name: '編集に戻る' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'プロジェクトの編集' })).toBeVisible();
  });

  await test.step('a visitor cannot open the draft yet', async () => {
    const response = await request.get(`/v1/project/get/detail?slug=${slug}`);
    expect(response.ok(), 'the public detail of a draft').toBeFalsy();
  });

  await test.step('the operator publishes it now', async () => {
    await page.getByRole('button', { name: '公開する', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: '公開の確認' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('radio', { name: '今すぐ公開' }).check();
    await dialog.getByRole('button', { name: '公開する', exact: true }).click();

    await expect(dialog).toHaveCount(0);
    await expect(page.getByText('公開しました。')).toBeVisible();
    await expect(page.getByText('公開中', { exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: '公開ページを見る' })).toHaveAttribute('href', `/projects/${slug}/`);
    await expect(page.getByRole('link', { name: 'プレビュー', exact: true })).toHaveCount(0);

    await page.goto('/admin/projects/?state=open');
    await expect(page.getByRole('combobox', { name: '状態' })).toHaveValue('open');
    const row = page.getByRole('row', { name: new RegExp(String(stamp)) });
    await expect(row.getByText('募集中')).toBeVisible();
    await expect(row.getByRole('link', { name: title })).toHaveAttribute('href', `/admin/projects/${id}/`);
  });

  const visitor = await visitorPage(browser);

  await test.step('a visitor finds it on the home page and opens it', async () => {
    const card = visitor.getByRole('list', { name: 'プロジェクト' }).getByRole('article', { name: title });
    await expect
      .poll(async () => {
        await visitor.goto('/');
        return card.count();
      }, PUBLIC_CACHE_POLL)
      .toBe(1);
    await card.getByRole('link', { name: title, exact: true }).click();

    await expect(visitor).toHaveURL(new RegExp(`/projects/${slug}/$`));
    await expect(visitor.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(visitor.getByText(story)).toBeVisible();
    await expect(publicReturn(visitor, letter.title).getByRole('button', { name: 'このリターンで支援する' })).toBeEnabled();
    await expect(publicReturn(visitor, tour.title).getByRole('button', { name: 'このリターンで支援する' })).toBeEnabled();
  });

  await test.step('the operator edits the story and the public page shows the new text', async () => {
    const added = `活動報告：織機の修理が始まりました。${stamp}`;
    await page.goto(`/admin/projects/${id}/`);
    const editor = page.getByRole('textbox', { name: '本文' });
    await expect(editor).toContainText(story);
    await editor.click();
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type(added);
    await page.getByRole('button', { name: '保存する', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: '保存しました。' })).toBeVisible();

    await expect
      .poll(async () => {
        await visitor.goto(`/projects/${slug}/`);
        return visitor.getByText(added).count();
      }, PUBLIC_CACHE_POLL)
      .toBe(1);
    await expect(visitor.getByText(story)).toBeVisible();
  });

  await test.step('the goal cannot change after publication', async () => {
    const goal = page.getByLabel('目標金額（円）');
    await expect(goal).toBeDisabled();
    await expect(goal).toHaveValue('500000');
    await expect(goal).toHaveAccessibleDescription(/公開後は変更できません/);
    await expect(page.getByRole('radio', { name: 'All-in（実施確約）' })).toBeDisabled();
    await expect(page.getByRole('radio', { name: '税込' })).toBeDisabled();

    // The server refuses it too, whatever a client sends.
    const token = await tokenOf(request, ADMIN);
    const headers = { Authorization: `Bearer ${token}` };
    const current = await request.get(`/v1/admin/projects/${id}`, { headers });
    expect(current.ok()).toBeTruthy();
    const project = (await current.json()) as Record<string, unknown>;
    const input = Object.fromEntries(
      ['slug', 'title', 'lead', 'story', 'goal', 'periodEnd', 'fundingModel', 'taxHandling', 'acceptsCard', 'acceptsBankTransfer'].map(
        (key) => [key, project[key]],
      ),
    );
    const refused = await request.post(`/v1/admin/projects/${id}`, { headers, data: { ...input, goal: 600000 } });
    expect(refused.ok()).toBeFalsy();
    expect(((await refused.json()) as { message: string }).message).toContain('公開後は目標金額を変更できません');
  });

  await test.step('the operator pauses a return and the public page shows it as not selectable', async () => {
    const comment = `準備が整いしだい再開します ${stamp}`;
    await returnItem(page, letter.title).getByRole('button', { name: '編集' }).click();
    const form = page.getByRole('region', { name: /リターンを編集/ });
    await expect(form).toBeVisible();
    await form.getByRole('checkbox', { name: '受付を停止する' }).check();
    await form.getByLabel(/^停止中の表示文/).fill(comment);
    await form.getByRole('button', { name: 'リターンを保存する' }).click();
    await expect(form).toHaveCount(0);
    await expect(returnItem(page, letter.title).getByText('受付停止', { exact: true })).toBeVisible();

    await expect
      .poll(async () => {
        await visitor.goto(`/projects/${slug}/`);
        return publicReturn(visitor, letter.title).getByRole('button', { name: 'このリターンで支援する' }).count();
      }, PUBLIC_CACHE_POLL)
      .toBe(0);
    const paused = publicReturn(visitor, letter.title);
    await expect(paused.getByRole('button', { name: '受付停止中' })).toBeDisabled();
    await expect(paused.getByText(comment)).toBeVisible();
    // The other return can still be chosen.
    await expect(publicReturn(visitor, tour.title).getByRole('button', { name: 'このリターンで支援する' })).toBeEnabled();
  });

  await test.step('the operator hides a supporter’s comment with a reason, then shows it again', async () => {
    const text = `工房の再生を応援しています。${stamp}`;
    const reason = `E2Eの確認のため ${stamp}`;
    sql(
      `INSERT INTO comments (project_id, user_id, comment, flag) ` +
        `VALUES (${id}, (SELECT id FROM users WHERE email = '${MEMBER}'), '${text}', 1)`,
    );

    // The visitor's comments tab: reloaded until its list has the comment (each load is a whole page load).
    await visitor.goto(`/projects/${slug}/#comments`);
    const publicComments = visitor.getByRole('tabpanel', { name: /応援コメント/ });
    await expect(async () => {
      await visitor.reload();
      await expect(publicComments.getByText(text, { exact: true })).toBeVisible({ timeout: 2_000 });
    }).toPass(PUBLIC_CACHE_POLL);

    await page.goto(`/admin/projects/${id}/`);
    const comments = page.getByRole('region', { name: '応援コメント', exact: true });
    const card = comments.getByRole('article').filter({ hasText: text });
    await expect(card).toBeVisible();
    await expect(card.getByText(MEMBER, { exact: true })).toBeVisible();
    await expect(card.getByText('公開中', { exact: true })).toBeVisible();

    await card.getByRole('button', { name: '非表示にする' }).click();
    const dialog = page.getByRole('dialog', { name: 'コメントを非表示にする' });
    await expect(dialog).toBeVisible();
    const reasonField = dialog.getByLabel('非表示の理由', { exact: true });
    await expect(reasonField).toBeFocused();
    // Without a reason the server refuses, and its message shows under the field.
    await dialog.getByRole('button', { name: '非表示にする' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('非表示の理由を入力してください。');
    await expect(reasonField).toHaveAttribute('aria-invalid', 'true');
    await reasonField.fill(reason);
    await dialog.getByRole('button', { name: '非表示にする' }).click();

    await expect(dialog).toHaveCount(0);
    await expect(comments.getByRole('status')).toHaveText('コメントを非表示にしました。');
    await expect(card.getByText('非表示', { exact: true })).toBeVisible();
    await expect(card.getByText(`非表示の理由：${reason}`, { exact: true })).toBeVisible();
    await expect(card.getByRole('button', { name: '再表示する' })).toBeFocused();

    // The visitor's list no longer has it: the project's only comment, so the tab says there is none.
    await expect(async () => {
      await visitor.reload();
      await expect(publicComments.getByText('まだコメントはありません。')).toBeVisible({ timeout: 2_000 });
    }).toPass(PUBLIC_CACHE_POLL);
    await expect(publicComments.getByText(text, { exact: true })).toHaveCount(0);

    await card.getByRole('button', { name: '再表示する' }).click();
    await expect(comments.getByRole('status')).toHaveText('コメントを再表示しました。');
    await expect(card.getByText('公開中', { exact: true })).toBeVisible();
    await expect(card.getByText(/非表示の理由/)).toHaveCount(0);
    await expect(card.getByRole('button', { name: '非表示にする' })).toBeFocused();

    await expect(async () => {
      await visitor.reload();
      await expect(publicComments.getByText(text, { exact: true })).toBeVisible({ timeout: 2_000 });
    }).toPass(PUBLIC_CACHE_POLL);
  });

  await test.step('the operator changes the published address, and the old one leads to the new', async () => {
    await page.goto(`/admin/projects/${id}/`);
    const address = page.getByLabel('URL（/projects/◯◯/ の◯◯）');
    await expect(address).toHaveAccessibleDescription(/これまでのURLは新しいURLへ転送されます/);
    await address.fill(`${slug}-kobo`);
    await page.getByRole('button', { name: '保存する', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: '保存しました。' })).toBeVisible();
    await expect(page.getByRole('link', { name: '公開ページを見る' })).toHaveAttribute('href', `/projects/${slug}-kobo/`);

    // A bookmark of the old address lands on the project's new page (the public read follows within a second).
    await expect(async () => {
      await visitor.goto(`/projects/${slug}/`);
      await expect(visitor).toHaveURL(new RegExp(`/projects/${slug}-kobo/$`), { timeout: 2_000 });
    }).toPass(PUBLIC_CACHE_POLL);
    await expect(visitor.getByRole('heading', { level: 1, name: title })).toBeVisible();
  });

  await visitor.context().close();
});
