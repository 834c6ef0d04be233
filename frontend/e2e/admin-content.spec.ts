import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { login } from './accounts';
import { ADMIN, DEMO_PASSWORD, PUBLIC_POLL, publishedProject } from './admin';

/**
 * An operator fills a project page around its campaign: main and slider images (with alternative text) through the
 * real upload pipeline, the owner's profile and an FAQ entry, and the public page shows them. A file that is not an
 * image is refused with its message. Each run makes its own project (a unique slug), so the demo stays as it is.
 */

const FIXTURES = path.join(__dirname, 'fixtures');

/** This spec's project: one return, published, made through the admin API. */
const project = (request: APIRequestContext) =>
  publishedProject(request, {
    slugPrefix: 'content',
    title: '高崎だるま市の夜店を灯す',
    lead: '夜店の灯りを絶やさない。',
    story: '<p>毎年の夜店を続けるための資金を募ります。</p>',
    goal: 200_000,
    ret: { title: '提灯に名入れ', description: '夜店の提灯にお名前を入れます（発送はありません）。', price: 3000 },
  });

test('an operator uploads images, writes the owner and an FAQ entry, and the public page shows them', async ({
  page,
  request,
}) => {
  const { id, slug } = await project(request);
  await login(page, ADMIN, DEMO_PASSWORD);
  await page.goto(`/admin/projects/${id}/`);
  const content = page.getByRole('region', { name: 'ページの内容（画像・実行者・よくある質問）' });
  await expect(content.getByText('メイン画像は未登録です。')).toBeVisible();

  // A file that is not an image is refused, whatever its name says.
  const mainPicker = content.getByLabel(/メイン画像を選ぶ/);
  await mainPicker.setInputFiles(path.join(FIXTURES, 'not-an-image.png'));
  await expect(content.getByText('jpg、jpeg、png、gif形式の画像を選択してください。')).toBeVisible();
  await expect(mainPicker).toHaveAttribute('aria-invalid', 'true');

  await mainPicker.setInputFiles(path.join(FIXTURES, 'rose.png'));
  const mainImage = content.getByRole('img', { name: '現在のメイン画像' });
  await expect(mainImage).toHaveAttribute('src', new RegExp(`^/media/projects/${id}/main/\\w+\\.png$`));
  const mainSrc = await mainImage.getAttribute('src');

  await content.getByLabel('追加するスライダー画像').setInputFiles(path.join(FIXTURES, 'rose.png'));
  await content.getByLabel(/追加する画像の代替テキスト/).fill('夜店に並ぶ赤いだるま');
  await content.getByRole('button', { name: 'スライダーに追加する' }).click();
  await expect(content.getByLabel(/1枚目の代替テキスト/)).toHaveValue('夜店に並ぶ赤いだるま');

  await content.getByLabel(/^実行者名/).fill('だるま市夜店の会');
  await content.getByLabel(/^実行者の紹介文/).fill('地元の商店主が集まって夜店を運営しています。');
  await content.getByRole('button', { name: /リンクを追加する/ }).click();
  await content.getByLabel('リンク1の表示名').fill('会のサイト');
  await content.getByLabel('リンク1のURL').fill('https://yomise.example.jp/');
  await content.getByRole('button', { name: /質問を追加する/ }).click();
  await content.getByLabel('質問1').fill('雨の日も開きますか？');
  await content.getByLabel('回答1').fill('小雨なら開きます。');
  await content.getByRole('button', { name: 'ページの内容を保存する' }).click();
  await expect(content.getByText('ページの内容を保存しました。')).toBeVisible();

  // With the owner saved, a logo can be added; it is kept whole inside a square.
  const ownerPicker = content.getByLabel(/実行者の画像を選ぶ/);
  await expect(ownerPicker).toBeEnabled();
  await ownerPicker.setInputFiles(path.join(FIXTURES, 'rose.png'));
  await expect(content.getByRole('img', { name: '現在の実行者の画像' })).toBeVisible();

  await page.goto(`/projects/${slug}/`);
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole('heading', { name: 'プロジェクト実行者' })).toBeVisible({ timeout: 500 });
  }).toPass(PUBLIC_POLL);
  await expect(page.getByText('だるま市夜店の会')).toBeVisible();
  await expect(page.getByRole('link', { name: '会のサイト' })).toHaveAttribute('href', 'https://yomise.example.jp/');
  await expect(page.getByText('雨の日も開きますか？')).toBeVisible();
  const hero = page.getByRole('img', { name: '夜店に並ぶ赤いだるま' });
  await expect(hero).toHaveAttribute('src', new RegExp(`^/media/projects/${id}/slider/\\w+\\.png$`));
  await expect(page.locator('meta[property="og:image"]')).toHaveAttribute('content', new RegExp(`${mainSrc}$`));
});
