/**
 * The operator hides a supporter's public name (terms 第18条) on a demo project, with a reason: the project page's
 * sponsor wall then shows 匿名 instead, until the operator shows the name again (restored at the end, so the demo
 * data is as it was for the other specs).
 */
import { expect, test } from './fixtures';
import { login } from './accounts';

const ADMIN = 'demo-admin@example.jp';
const DEMO_PASSWORD = 'demo-password-1';
const SLUG = 'maebashi-rose-garden';
const NAME = '群馬 太郎';
/** The public pages read a catalogue cache of up to 1 s: a change shows after it, so checks reload and poll. */
const PUBLIC_CACHE_POLL = { timeout: 20_000, intervals: [500, 1_000, 1_000, 2_000] };

test('an operator shows a supporter as 匿名 with a reason, and the name comes back when shown again', async ({
  page,
  browser,
  request,
}) => {
  const master = (await (await request.get('/v1/helper/get/master')).json()) as {
    master: { projects: { id: number; slug: string }[] };
  };
  const project = master.master.projects.find((p) => p.slug === SLUG);
  expect(project, `the demo project ${SLUG}`).toBeTruthy();

  const visitor = await (await browser.newContext()).newPage();
  const personalNames = visitor.getByRole('list', { name: '個人の支援者' });
  const reloadUntil = async (shown: boolean) => {
    await expect(async () => {
      await visitor.goto(`/projects/${SLUG}/`);
      await expect(personalNames).toBeVisible({ timeout: 2_000 });
      await expect(personalNames.getByText(NAME, { exact: true })).toHaveCount(shown ? 1 : 0, { timeout: 2_000 });
    }).toPass(PUBLIC_CACHE_POLL);
  };
  await reloadUntil(true);

  await login(page, ADMIN, DEMO_PASSWORD);
  await page.goto(`/admin/projects/${project!.id}/`);
  const names = page.getByRole('region', { name: '支援者の表示名' });
  const card = names.getByRole('article', { name: NAME });
  await expect(card.getByText('名前を公開中')).toBeVisible();

  await test.step('a reason is required, then the name is hidden', async () => {
    await card.getByRole('button', { name: '匿名にする' }).click();
    const dialog = page.getByRole('dialog', { name: '支援者の名前を匿名にする' });
    await expect(dialog).toContainText(`${NAME}さんの名前を、このプロジェクトの公開ページで「匿名」と表示します。`);
    await dialog.getByRole('button', { name: '非表示にする' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('非表示の理由を入力してください。');
    await dialog.getByLabel('非表示の理由', { exact: true }).fill('E2E：不適切な表示名の確認');
    await dialog.getByRole('button', { name: '非表示にする' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(names.getByRole('status')).toHaveText(`${NAME}さんの名前を匿名にしました。`);
    await expect(card.getByText('匿名（運営が非表示）')).toBeVisible();
    await expect(card.getByText(/非表示の理由：E2E：不適切な表示名の確認/)).toBeVisible();
    await reloadUntil(false);
  });

  await test.step('shown again with one tap', async () => {
    await card.getByRole('button', { name: '名前を再表示する' }).click();
    await expect(names.getByRole('status')).toHaveText(`${NAME}さんの名前を再表示しました。`);
    await expect(card.getByText('名前を公開中')).toBeVisible();
    await reloadUntil(true);
  });
  await visitor.context().close();
});
