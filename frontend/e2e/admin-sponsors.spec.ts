import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { login } from './accounts';
import { ADMIN, DEMO_PASSWORD, PUBLIC_POLL, publishedProject } from './admin';

/**
 * An operator keeps a project's manual sponsor list: switches the list on, is refused an entry without a name or
 * a logo with each field's message, adds a course A sponsor with a logo through the real upload pipeline, and the
 * project's public sponsor wall shows it. Each run makes its own project (a unique slug), so the demo stays as it is.
 */

const FIXTURES = path.join(__dirname, 'fixtures');

/** This spec's project: one return, published, made through the admin API. */
const project = (request: APIRequestContext) =>
  publishedProject(request, {
    slugPrefix: 'sponsors',
    title: '沼田の城下町に灯りを',
    lead: '城下町の夜道に行灯を並べます。',
    story: '<p>行灯を作り、毎年の祭りで並べるための資金を募ります。</p>',
    goal: 300_000,
    ret: { title: '行灯に名入れ', description: '行灯の一つにお名前を書き入れます（発送はありません）。', price: 5000 },
  });

test('an operator adds a course A sponsor with a logo and the public sponsor wall shows it', async ({
  page,
  request,
}) => {
  const { id, slug } = await project(request);
  await login(page, ADMIN, DEMO_PASSWORD);
  await page.goto(`/admin/projects/${id}/`);
  const sponsors = page.getByRole('region', { name: 'スポンサー一覧（手動の名簿）' });
  await expect(sponsors.getByText('スポンサーはまだ登録されていません。')).toBeVisible();
  await expect(sponsors.getByText(/オフのため、この名簿は公開ページに表示されません/)).toBeVisible();

  // The switch is on the settings section; the list's hint follows it.
  const settings = page.getByRole('region', { name: 'プロジェクトの設定（追加質問・振込先・スポンサー）' });
  await settings.getByRole('checkbox', { name: 'スポンサー一覧を手動の名簿で表示する' }).check();
  await settings.getByRole('button', { name: 'プロジェクトの設定を保存する' }).click();
  await expect(settings.getByText('プロジェクトの設定を保存しました。')).toBeVisible();
  await expect(sponsors.getByText(/この名簿がプロジェクトページのスポンサー欄に表示されます/)).toBeVisible();

  // An entry without a name or a logo is refused with each field's message, and nothing is added.
  await sponsors.getByRole('button', { name: 'スポンサーを追加' }).click();
  const form = sponsors.getByRole('form', { name: 'スポンサーを追加' });
  await form.getByLabel(/リンク先/).fill('ftp://example.jp');
  await form.getByRole('button', { name: 'スポンサーを保存する' }).click();
  await expect(form.getByText('スポンサー名を入力してください。')).toBeVisible();
  await expect(form.getByText('A・B・Cコースにはロゴ画像が必要です。画像を選択してください。')).toBeVisible();
  await expect(form.getByText('リンク先はhttp://またはhttps://で始まるURLを入力してください。')).toBeVisible();
  await expect(form.getByLabel('スポンサー名')).toHaveAttribute('aria-invalid', 'true');

  // A file that is not an image is refused whatever its name says.
  await form.getByLabel('スポンサー名').fill('利根沼田信用組合');
  await form.getByLabel(/リンク先/).fill('https://tone-numata.example.jp/');
  await form.getByLabel('ロゴ画像').setInputFiles(path.join(FIXTURES, 'not-an-image.png'));
  await form.getByRole('button', { name: 'スポンサーを保存する' }).click();
  await expect(form.getByText('jpg、jpeg、png、gif形式の画像を選択してください。')).toBeVisible();

  await form.getByLabel('ロゴ画像').setInputFiles(path.join(FIXTURES, 'rose.png'));
  await form.getByRole('button', { name: 'スポンサーを保存する' }).click();
  await expect(sponsors.getByText('スポンサーを追加しました。')).toBeVisible();
  const courseA = sponsors.getByRole('list', { name: 'Aコース（ロゴ大）（表示順）' });
  const adminLogo = courseA.getByRole('img', { name: '利根沼田信用組合のロゴ' });
  await expect(adminLogo).toHaveAttribute('src', new RegExp(`^/media/projects/${id}/sponsors/\\w+\\.png$`));
  const logoSrc = await adminLogo.getAttribute('src');

  await page.goto(`/projects/${slug}/`);
  const wall = page.getByRole('list', { name: 'Aコース協賛' });
  await expect(async () => {
    await page.reload();
    await expect(wall.getByRole('img', { name: '利根沼田信用組合' })).toBeVisible({ timeout: 1_000 });
  }).toPass(PUBLIC_POLL);
  await expect(wall.getByRole('img', { name: '利根沼田信用組合' })).toHaveAttribute('src', logoSrc ?? '');
  await expect(wall.getByRole('link')).toHaveAttribute('href', 'https://tone-numata.example.jp/');
});
