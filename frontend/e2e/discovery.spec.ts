import type { Locator, Page } from '@playwright/test';
import { registeredMember } from './accounts';
import { expect, test } from './fixtures';

/**
 * Finding projects (issue #23) at a phone's 390 px and a desktop's 1280 px, against the demo data: the list's
 * filters, order and keyword search, the address that reopens the same list, the empty state, the menu's ways
 * in (for a guest and for a member), keeping a project from the list and finding it on my page, and the related
 * projects at the end of a project page. Other suites may have published projects of their own, so lists are
 * checked for what the demo guarantees, not for exact lengths.
 */

const ROSE = '前橋ばら園 花壇よみがえりプロジェクト';
const DARUMA = '高崎だるま 若手職人育成プロジェクト';
const KIRYU = '桐生織 機場（はたば）再生プロジェクト';
const TOMIOKA = '富岡 シルクのまち歩きマップ';
const SHOKUDO = 'いせさき こども食堂 応援基金';
const OTA = '太田 ものづくり少年団 ロボット工房';

const results = (page: Page): Locator => page.getByRole('list', { name: '検索結果' });
const titlesOf = (page: Page) => results(page).getByRole('heading', { level: 3 });
const countOf = (page: Page) => page.locator('.list-count');

/**
 * The list's titles once `holds` is true of them, retried: while the next list loads the last one stays on screen
 * (marked `aria-busy`), and reading it at that moment once read an older list.
 */
const titlesWhen = async (page: Page, holds: (titles: string[]) => boolean): Promise<string[]> => {
  let titles: string[] = [];
  await expect
    .poll(async () => {
      const busy = await page.locator('div[aria-busy="true"]').filter({ has: results(page) }).count();
      titles = await titlesOf(page).allTextContents();
      return busy === 0 && holds(titles);
    })
    .toBe(true);
  return titles;
};

for (const viewport of [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
] as const) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('the home page leads to the list, which filters by area and by category', async ({ page }) => {
      await page.goto('/');
      await page.getByRole('link', { name: 'すべてのプロジェクトを見る' }).click();
      await expect(page).toHaveURL(/\/projects\/$/);
      await expect(titlesOf(page).first()).toBeVisible();

      await page.getByRole('combobox', { name: '地域' }).selectOption({ label: '高崎市' });
      await expect(page).toHaveURL(/\/projects\/\?area=takasaki$/);
      await expect(page.getByRole('heading', { level: 1 })).toContainText('高崎市のプロジェクト');
      await expect(titlesOf(page)).toHaveText([DARUMA]);
      await expect(countOf(page)).toHaveText('1件のプロジェクト');

      await page.getByRole('combobox', { name: '地域' }).selectOption({ label: 'すべての地域' });
      await page.getByRole('combobox', { name: 'カテゴリー' }).selectOption({ label: '文化・芸術' });
      await expect(page).toHaveURL(/\/projects\/\?category=culture-arts$/);
      const culture = await titlesWhen(page, (titles) => [DARUMA, KIRYU, TOMIOKA].every((t) => titles.includes(t)));
      expect(culture).not.toContain(ROSE);
      for (const place of await results(page).locator('.project-card__place').allTextContents()) {
        expect(place).toContain('文化・芸術');
      }

      // The choice is the address's: the radio shows it once the page has moved there, so click, then wait.
      await page.getByRole('radio', { name: '募集中' }).click();
      await expect(page.getByRole('radio', { name: '募集中' })).toBeChecked();
      await expect(page).toHaveURL(/state=open/);
      await expect(titlesOf(page)).not.toContainText([KIRYU]);
      await expect(results(page).getByRole('article', { name: TOMIOKA })).toBeVisible();
      // The list fits the screen: nothing wider than the viewport.
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(scrollWidth).toBeLessThanOrEqual(viewport.width);
    });

    test('the orders put first what their labels say', async ({ page, request }) => {
      await page.goto('/projects/?category=children-education');
      await expect(titlesOf(page).first()).toBeVisible();

      await page.getByRole('combobox', { name: '並び順' }).selectOption({ label: '終了が近い順' });
      await expect(page).toHaveURL(/category=children-education&sort=ending/);
      // Ota ends in a few days, Isesaki in two months.
      await expect(titlesOf(page).nth(0)).toHaveText(OTA);
      await expect(titlesOf(page).nth(1)).toHaveText(SHOKUDO);

      await page.getByRole('combobox', { name: '並び順' }).selectOption({ label: '支援額が多い順' });
      await expect(page).toHaveURL(/category=children-education&sort=raised/);
      // The most raised first: the page shows the API's order, whose totals never rise.
      const answer = await request.get('/v1/project/get/list?category=children-education&sort=raised');
      const cards = ((await answer.json()) as { projects: Array<{ title: string; sum: { amount: number } }> }).projects;
      const amounts = cards.map((card) => card.sum.amount);
      expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
      await expect(titlesOf(page)).toHaveText(cards.map((card) => card.title));
    });

    test('katakana finds a title written in hiragana, and so does a half-width query', async ({ page }) => {
      await page.goto('/projects/');
      const box = page.getByRole('searchbox', { name: 'キーワード' });

      await box.fill('バラ');
      await page.getByRole('button', { name: '検索' }).click();
      await expect(page).toHaveURL(/\?q=%E3%83%90%E3%83%A9$/);
      await expect(titlesOf(page).first()).toHaveText(ROSE);
      await expect(page.getByRole('heading', { level: 1 })).toContainText('「バラ」の検索結果');

      await box.fill('ｺﾄﾞﾓ 食堂');
      await box.press('Enter');
      await expect(titlesOf(page)).toHaveText([SHOKUDO]);
      await expect(countOf(page)).toHaveText('1件のプロジェクト');
    });

    test('the address of a filtered list reopens the same list', async ({ page, context }) => {
      await page.goto('/projects/');
      await page.getByRole('combobox', { name: 'カテゴリー' }).selectOption({ label: '文化・芸術' });
      // The choice is the address's: the radio shows it once the page has moved there, so click, then wait.
      await page.getByRole('radio', { name: '募集中' }).click();
      await expect(page.getByRole('radio', { name: '募集中' })).toBeChecked();
      await page.getByRole('combobox', { name: '並び順' }).selectOption({ label: '終了が近い順' });
      await expect(page).toHaveURL(/\/projects\/\?category=culture-arts&state=open&sort=ending$/);
      // Ending sooner first: the daruma project (20 days left) before the silk walk (90).
      const shown = await titlesWhen(
        page,
        (titles) => titles.includes(DARUMA) && titles.indexOf(DARUMA) < titles.indexOf(TOMIOKA),
      );

      const shared = await context.newPage();
      await shared.goto(page.url());
      await expect(titlesOf(shared).first()).toBeVisible();
      await expect(titlesOf(shared)).toHaveText(shown);
      await expect(shared.getByRole('combobox', { name: 'カテゴリー' })).toHaveValue('culture-arts');
      await expect(shared.getByRole('combobox', { name: '並び順' })).toHaveValue('ending');
      await expect(shared.getByRole('radio', { name: '募集中' })).toBeChecked();
      await shared.close();

      // Back returns to the list before the last change.
      await page.goBack();
      await expect(page).toHaveURL(/\/projects\/\?category=culture-arts&state=open$/);
      await expect(page.getByRole('combobox', { name: '並び順' })).toHaveValue('new');
    });

    test('a search that matches nothing says so and leads back to every project', async ({ page }) => {
      await page.goto('/projects/?q=%E3%81%B6%E3%81%A9%E3%81%86%E7%8B%A9%E3%82%8A');

      await expect(page.getByText('条件に合うプロジェクトはありません。')).toBeVisible();
      await expect(page.getByRole('searchbox', { name: 'キーワード' })).toHaveValue('ぶどう狩り');
      await page.getByRole('link', { name: 'すべてのプロジェクトを見る' }).click();
      await expect(page).toHaveURL(/\/projects\/$/);
      await expect(titlesOf(page).first()).toBeVisible();
    });

    test('the menu leads to the list, the areas, the categories and the legal pages', async ({ page }) => {
      await page.goto('/terms/');
      const openMenu = () => page.getByRole('button', { name: 'メニューを開く' }).click();
      const menu = page.getByRole('navigation', { name: 'メニュー' });

      await openMenu();
      await expect(menu.getByRole('link', { name: '利用規約' })).toHaveAttribute('href', '/terms/');
      await expect(menu.getByRole('link', { name: 'プライバシーポリシー' })).toHaveAttribute('href', '/policy/');
      await expect(menu.getByRole('link', { name: '特定商取引法に基づく表記' })).toHaveAttribute('href', '/commercial/');
      await menu.getByRole('region', { name: 'カテゴリーから探す' }).getByRole('link', { name: 'まちづくり' }).click();
      await expect(page).toHaveURL(/\/projects\/\?category=community$/);
      await expect(menu).toBeHidden();
      await expect(results(page).getByRole('article', { name: ROSE })).toBeVisible();

      await openMenu();
      await menu.getByRole('region', { name: '地域から探す' }).getByRole('link', { name: '富岡市' }).click();
      await expect(page).toHaveURL(/\/projects\/\?area=tomioka$/);
      await expect(titlesOf(page)).toHaveText([TOMIOKA]);

      await openMenu();
      await menu.getByRole('link', { name: 'プロジェクトを探す' }).click();
      await expect(page).toHaveURL(/\/projects\/$/);
      await expect(page.getByRole('combobox', { name: '地域' })).toHaveValue('');
    });

    test('a member keeps a project from a filtered list, the menu leads on as for a guest, and my page holds it', async ({
      page,
    }) => {
      await registeredMember(page, `discover-${viewport.name}`);
      await page.goto('/projects/?area=tomioka');
      const tomioka = results(page).getByRole('article', { name: TOMIOKA });
      const keep = tomioka.getByRole('button', { name: 'お気に入りに追加' });
      await expect(keep).not.toHaveAttribute('aria-busy', 'true');
      await keep.click();
      await expect(tomioka.getByRole('button', { name: 'お気に入りから外す' })).toHaveAttribute('aria-pressed', 'true');

      // Logged in, the menu still leads to the list, the areas, the categories and the legal pages, and to my page.
      await page.getByRole('button', { name: 'メニューを開く' }).click();
      const menu = page.getByRole('navigation', { name: 'メニュー' });
      await expect(menu.getByRole('link', { name: 'ログイン' })).toHaveCount(0);
      await expect(menu.getByRole('link', { name: 'プロジェクトを探す' })).toHaveAttribute('href', '/projects/');
      await expect(menu.getByRole('link', { name: '利用規約' })).toHaveAttribute('href', '/terms/');
      await expect(menu.getByRole('link', { name: 'プライバシーポリシー' })).toHaveAttribute('href', '/policy/');
      await expect(menu.getByRole('link', { name: '特定商取引法に基づく表記' })).toHaveAttribute('href', '/commercial/');
      await expect(
        menu.getByRole('region', { name: 'カテゴリーから探す' }).getByRole('link', { name: 'まちづくり' }),
      ).toHaveAttribute('href', '/projects/?category=community');
      await expect(
        menu.getByRole('region', { name: '地域から探す' }).getByRole('link', { name: '富岡市' }),
      ).toHaveAttribute('href', '/projects/?area=tomioka');
      await menu.getByRole('link', { name: 'マイページ' }).click();

      await expect(page).toHaveURL(/\/account\/$/);
      const kept = page.getByRole('region', { name: 'お気に入り' });
      await expect(kept.getByRole('article', { name: TOMIOKA })).toBeVisible();
      await expect(kept.getByRole('article')).toHaveCount(1);
    });

    test('a project page ends with open projects of its area or category', async ({ page }) => {
      await page.goto('/projects/takasaki-daruma/');
      const related = page.getByRole('region', { name: '関連するプロジェクト' });
      await related.scrollIntoViewIfNeeded();
      await expect(related.getByRole('article', { name: TOMIOKA })).toBeVisible();
      await expect(related.getByRole('article', { name: KIRYU })).toHaveCount(0);
      await related.getByRole('article', { name: TOMIOKA }).getByRole('link', { name: '詳しく見る' }).click();
      await expect(page).toHaveURL(/\/projects\/tomioka-silk-walk\/$/);
    });
  });
}
