import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { login, registeredMember, uniqueEmail } from './accounts';
import { chooseMethod, expectStep, fillInfoStep, placeGuestSupport, projectDetail, returnOf, startSupport } from './payment';

/**
 * How the screens lay out at a narrow phone's width (360 px) and a desktop's (1280 px): values typed by hand never
 * break, Japanese wraps only between words, admin tables scroll rather than break numbers. Measured in the
 * browser from where each character is drawn. Each test makes its own data.
 */

const PHONE = { width: 360, height: 780 };
const DESKTOP = { width: 1280, height: 900 };
const ROSE = 'maebashi-rose-garden';
const ROSE_TITLE = '前橋ばら園 花壇よみがえりプロジェクト';
const THANKS_MAIL = 'お礼のメール（何口でも）';
const DEMO_PASSWORD = 'demo-password-1';
const ADMIN = 'demo-admin@example.jp';

/** The element's text, one string per drawn line (from the position of every character). */
const linesOf = (locator: Locator): Promise<string[]> =>
  locator.evaluate((element) => {
    const lines: { top: number; text: string }[] = [];
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (let i = 0; i < text.length; i += 1) {
        if (text[i]!.trim() === '') continue;
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = range.getBoundingClientRect();
        if (rect.width === 0 && rect.height === 0) continue;
        const line = lines.find((candidate) => Math.abs(candidate.top - rect.top) < rect.height / 2);
        if (line) line.text += text[i];
        else lines.push({ top: rect.top, text: text[i]! });
      }
    }
    return lines.sort((a, b) => a.top - b.top).map((line) => line.text);
  });

/** Fails when a line ends inside `word` (e.g. '花壇よみが' | 'えり'). */
const expectWhole = async (locator: Locator, words: string[]): Promise<void> => {
  const lines = await linesOf(locator);
  const joined = lines.join('|');
  for (const word of words) {
    for (let cut = 1; cut < word.length; cut += 1) {
      expect(joined, `"${word}" is broken across lines: ${JSON.stringify(lines)}`).not.toContain(
        `${word.slice(0, cut)}|${word.slice(cut)}`,
      );
    }
  }
};

/** The value beside a term of a definition list. */
const definition = (scope: Page | Locator, term: string): Locator =>
  scope.locator('dt', { hasText: new RegExp(`^${term}$`) }).locator('xpath=following-sibling::dd[1]');

const HAND_COPIED = ['お振込金額', '口座番号', 'お振込人名の前に付ける番号', 'お振込期限'] as const;

/** Every value a supporter copies by hand is on one line, and its copy button puts it on the clipboard. */
const expectCopyableBankDetails = async (page: Page, scope: Locator): Promise<void> => {
  for (const term of HAND_COPIED) {
    const value = definition(scope, term).locator('.copyable__value');
    await expect(value).toBeVisible();
    expect(await linesOf(value), `${term} on one line`).toHaveLength(1);
  }
  await expect(definition(scope, '口座番号').locator('.copyable__value')).toHaveText(/^\d{7}$/);
  await expectWhole(definition(scope, '金融機関'), [(await definition(scope, '金融機関').innerText()).trim()]);

  const number = (await definition(scope, '口座番号').locator('.copyable__value').innerText()).trim();
  await scope.getByRole('button', { name: '口座番号をコピー' }).click();
  await expect(definition(scope, '口座番号').getByRole('status')).toHaveText('コピーしました');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(number);

  const reference = definition(scope, 'お振込人名の前に付ける番号').locator('.copyable__value');
  await scope.getByRole('button', { name: 'お振込人名の前に付ける番号をコピー' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe((await reference.innerText()).trim());
};

test.describe('on a phone', () => {
  test.use({ viewport: PHONE, permissions: ['clipboard-read', 'clipboard-write'] });

  test('bank details stay whole with copy buttons on the complete page and in the history; steps and titles wrap between words', async ({ page }) => {
    await registeredMember(page, 'screens-bank');

    await page.goto(`/projects/${ROSE}/`);
    await expectWhole(page.getByRole('heading', { level: 1, name: ROSE_TITLE }), ['よみがえり', 'プロジェクト']);

    await startSupport(page, ROSE, THANKS_MAIL);
    await expect(page.getByRole('heading', { level: 1, name: 'ご支援内容の入力' })).toBeVisible();
    await fillInfoStep(page, { displayname: '画面を確かめる会員' });
    await expect(page.getByRole('heading', { level: 1, name: 'お支払い方法の選択' })).toBeVisible();
    const steps = page.getByRole('list', { name: 'お申し込みの手順' });
    await expectWhole(steps, ['ご支援内容', 'お支払い', '方法', '情報', '確認', '完了']);
    await expectWhole(page.locator('.payment-summary__project'), ['よみがえり', 'プロジェクト']);

    await chooseMethod(page, '銀行振込');
    await expectStep(page, 4, '確認');
    await expect(page.getByRole('heading', { level: 1, name: 'ご支援内容の確認' })).toBeVisible();
    await expect(page.getByRole('button', { name: /を支払う/ })).toHaveCount(0);
    await page.getByRole('button', { name: '申し込む', exact: true }).click();

    await expectStep(page, 5, '完了');
    await expect(page.getByRole('heading', { level: 1, name: 'お申し込み完了' })).toBeVisible();
    await expect(definition(page, 'ご注文番号')).toHaveText(/^\d+$/);
    await expectCopyableBankDetails(page, page.getByRole('group', { name: 'お振込先' }));

    await page.goto('/edit/payment-list/');
    const history = page.getByRole('list', { name: 'お支払い履歴の一覧' });
    const awaited = history.getByRole('listitem').filter({ hasText: '入金待ち（銀行振込）' }).first();
    await expectCopyableBankDetails(page, awaited.getByRole('group', { name: 'お振込先' }));
  });

  test('the refund table scrolls sideways, by keyboard too, and never breaks an amount', async ({ page, request }) => {
    const project = await projectDetail(request, ROSE);
    const placed = await placeGuestSupport(request, project, returnOf(project, 'thanks-mail'), 1, uniqueEmail('screens-phone'));
    expect(placed.status(), await placed.text()).toBe(200);
    await login(page, ADMIN, DEMO_PASSWORD);
    await page.goto(`/admin/refund/${ROSE}/`);

    const region = page.getByRole('region', { name: '支援一覧（横にスクロールできます）' });
    await expect(region.getByRole('row').nth(1)).toBeVisible();
    const sizes = await region.evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth }));
    expect(sizes.scroll).toBeGreaterThan(sizes.client);
    for (const cell of await region.locator('td.admin-num').all()) expect(await linesOf(cell)).toHaveLength(1);

    await region.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => region.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);

    await page.goto('/admin/');
    const transfers = page.getByRole('region', { name: '振込待ちの銀行振込' });
    await expect(transfers.locator('.admin-list__item').first()).toBeVisible();
    for (const time of await transfers.locator('.nowrap').all()) expect(await linesOf(time)).toHaveLength(1);
  });
});

test.describe('on a desktop', () => {
  test.use({ viewport: DESKTOP });

  test('admin screens use the width; the refund table shows whole amounts and the whole amount field', async ({ page, request }) => {
    const project = await projectDetail(request, ROSE);
    const placed = await placeGuestSupport(request, project, returnOf(project, 'thanks-mail'), 1, uniqueEmail('screens-desk'));
    expect(placed.status(), await placed.text()).toBe(200);
    await login(page, ADMIN, DEMO_PASSWORD);
    await page.goto(`/admin/refund/${ROSE}/`);

    const region = page.getByRole('region', { name: '支援一覧（横にスクロールできます）' });
    await expect(region.getByRole('row').nth(1)).toBeVisible();
    const page_ = page.locator('section.page--admin');
    expect((await page_.boundingBox())!.width).toBeGreaterThan(1000);
    const sizes = await region.evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth }));
    expect(sizes.scroll).toBeLessThanOrEqual(sizes.client);
    for (const cell of await region.locator('td.admin-num').all()) expect(await linesOf(cell)).toHaveLength(1);
    for (const field of await region.getByRole('spinbutton').all()) {
      const [box, cell] = [await field.boundingBox(), await field.locator('xpath=ancestor::td[1]').boundingBox()];
      expect(box!.width).toBeGreaterThanOrEqual(120);
      expect(box!.x + box!.width).toBeLessThanOrEqual(cell!.x + cell!.width + 1);
    }
  });
});
