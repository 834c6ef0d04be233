import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { login } from './accounts';

/**
 * Payouts end to end: the demo's successful ended project (桐生織, `kiryu-textile`) shows in 精算 once the server's
 * closing sweep has decided it (its first run is at start-up), its printable statement adds up, and the operator
 * marks it paid; the demo's failed all-or-nothing project (`numata-apple`) says so on its public page.
 */

// Demo accounts seeded by `app-server seed-demo`.
const ADMIN = 'demo-admin@example.jp';
const DEMO_PASSWORD = 'demo-password-1';
const KIRYU = '桐生織 機場（はたば）再生プロジェクト';
const NUMATA = 'numata-apple';

/** The closing sweep runs at the server's start; the list and the public page show its decision then. */
const CLOSE_POLL = { timeout: 30_000, intervals: [1_000, 2_000] };

/** A phone at the width the site is designed from. */
const PHONE = { width: 360, height: 780 };

/** `295,340円` → 295340. */
const yen = (text: string | null): number => {
  const digits = (text ?? '').replace(/[^0-9]/g, '');
  expect(digits, `an amount: ${text}`).not.toBe('');
  return Number(digits);
};

/** The amount on the statement's line headed `label`. */
const amountOn = async (figures: Locator, label: string): Promise<number> =>
  yen(await figures.locator('tr', { has: figures.page().getByRole('rowheader', { name: label, exact: true }) }).getByRole('cell').textContent());

/** Nothing on the page is wider than the screen (a table scrolls inside its own box). */
const fitsTheScreen = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

test.describe('on a phone', () => {
  test.use({ viewport: PHONE });

  test('the administrator finds the successful project in 精算, checks its statement and marks it paid', async ({ page }) => {
    await login(page, ADMIN, DEMO_PASSWORD);
    await page.goto('/admin/');
    await page.getByRole('navigation', { name: '管理メニュー' }).getByRole('link', { name: '精算', exact: true }).click();
    await expect(page).toHaveURL(/\/admin\/payouts\/$/);
    await expect(page.getByRole('heading', { level: 1, name: '精算' })).toBeVisible();

    const list = page.getByRole('region', { name: '精算の一覧（横にスクロールできます）' });
    const row = list.getByRole('row').filter({ has: page.getByRole('link', { name: KIRYU }) });
    await expect(async () => {
      await page.reload();
      await expect(row).toBeVisible({ timeout: 1_000 });
    }).toPass(CLOSE_POLL);
    await expect(row).toContainText('未精算');
    expect(await fitsTheScreen(page)).toBe(true);
    // The table scrolls sideways by keyboard.
    await list.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => list.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);

    // The export comes with the token and is saved as payouts.csv.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'CSVをダウンロード' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('payouts.csv');
    const csv = await readFile((await download.path())!);
    expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(csv.toString('utf8')).toContain(KIRYU);

    await row.getByRole('link', { name: KIRYU }).click();
    await expect(page).toHaveURL(/\/admin\/payouts\/\d+\/$/);
    await expect(page.getByRole('heading', { level: 1, name: '精算書' })).toBeVisible();
    await expect(page.getByText(KIRYU)).toBeVisible();
    await expect(page.getByText('（募集終了月の翌々月第3営業日）')).toBeVisible();
    expect(await fitsTheScreen(page)).toBe(true);

    const figures = page.getByRole('table', { name: '精算内容（税込）' });
    const confirmed = await amountOn(figures, '確定金額（支援額－返金）');
    const fee = await amountOn(figures, '手数料（20%・税込）');
    const transferFee = await amountOn(figures, '振込手数料');
    const payout = await amountOn(figures, '今回のお支払額');
    expect(confirmed).toBeGreaterThan(0);
    expect(payout).toBe(confirmed - fee - transferFee);
    expect(await amountOn(figures, 'うちクレジットカード') + (await amountOn(figures, 'うち銀行振込'))).toBe(confirmed);

    // Printed: the statement alone, without the site's header and footer or the form.
    await expect(page.locator('.site-header')).toBeVisible();
    await page.emulateMedia({ media: 'print' });
    await expect(figures).toBeVisible();
    await expect(page.locator('.site-header')).toBeHidden();
    await expect(page.locator('.site-footer')).toBeHidden();
    await expect(page.getByRole('region', { name: '支払済みにする' })).toBeHidden();
    await expect(page.getByRole('button', { name: '印刷する' })).toBeHidden();
    await page.emulateMedia({ media: 'screen' });

    const form = page.getByRole('region', { name: '支払済みにする' });
    const reference = `e2e 振込控 ${Date.now()}`;
    await form.getByLabel('振込の控え番号・メモ').fill(reference);
    await form.getByRole('button', { name: '支払済みとして登録する' }).click();
    const dialog = page.getByRole('dialog', { name: '支払済みの登録の確認' });
    await expect(dialog).toContainText(`今回のお支払額 ${payout.toLocaleString('ja-JP')}円`);
    await dialog.getByRole('button', { name: '登録する' }).click();

    await expect(page.getByRole('status').filter({ hasText: '支払済みとして登録しました。' })).toBeVisible();
    await expect(page.getByText('精算済み：この精算書の金額はすべて支払済みです。')).toBeVisible();
    await expect(form).toHaveCount(0);
    const history = page.getByRole('region', { name: '支払済みの精算' });
    const first = history.getByRole('row').filter({ hasText: '第1回' });
    await expect(first).toContainText(reference);
    await expect(first).toContainText(`${payout.toLocaleString('ja-JP')}円`);

    await page.getByRole('link', { name: '精算の一覧へ' }).click();
    await expect(row).toContainText('精算済み');
  });
});

test('the failed all-or-nothing project says so on its page, and that every payment is refunded', async ({ page }) => {
  const banner = page.getByRole('region', { name: '募集結果' });
  await expect(async () => {
    await page.goto(`/projects/${NUMATA}/`);
    await expect(banner).toContainText('プロジェクトは不成立となりました。', { timeout: 1_000 });
  }).toPass(CLOSE_POLL);
  await expect(banner).toContainText('未達成');
  await expect(banner).toContainText('お支払いいただいた支援金は全額返金します。');
  await expect(banner).toContainText(/返金の状況：(返金手続き中（残り\d+件）|すべての返金手続きを行いました。)/);
  await expect(banner).not.toContainText('集計中');
});
