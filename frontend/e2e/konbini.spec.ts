import { execFileSync } from 'node:child_process';
import { expect, test } from './fixtures';
import { registeredMember } from './accounts';
import { STRIPE_API_BASE, chooseMethod, expectStep, fillInfoStep, raisedTotal, startSupport } from './payment';

/**
 * Konbini (docs/decisions.md, "Konbini payment"): a member backs by konbini and sees the voucher on step 5 and in
 * the history; the local payment server plays the store (its test hooks pay or expire the voucher) and the sale
 * is paid and counted, or cancelled with its lots back. The payment id is read from the e2e server's database
 * (E2E_DATABASE_URL, set by app-server/dev/test.sh).
 */

const ROSE = 'maebashi-rose-garden';
const ROSE_TITLE = '前橋ばら園 花壇よみがえりプロジェクト';
const THANKS_MAIL = 'お礼のメール（何口でも）';

const sql = (statement: string): string => {
  const url = process.env.E2E_DATABASE_URL;
  if (!url) throw new Error('E2E_DATABASE_URL is not set: run the browser tests through app-server/dev/test.sh e2e');
  return execFileSync('psql', [url, '-qAtX', '-v', 'ON_ERROR_STOP=1', '-c', statement], { encoding: 'utf8' }).trim();
};

/** Plays the store: `pay` or `expire` the voucher of the member's only sale. */
const atTheStore = async (email: string, action: 'pay' | 'expire'): Promise<void> => {
  const address = email.replace(/'/g, "''");
  const intent = sql(`SELECT s.intent_id FROM sales s JOIN users u ON u.id = s.user_id WHERE u.email = '${address}'`);
  const response = await fetch(`${STRIPE_API_BASE}_test/konbini/${intent}/${action}`, {
    method: 'POST',
    headers: { Authorization: 'Bearer sk_test_local' },
  });
  expect(response.status, await response.clone().text()).toBe(200);
};

const lotsTaken = (): number =>
  Number(
    sql(
      `SELECT r.lots_taken FROM returns r JOIN projects p ON p.id = r.project_id WHERE p.slug = '${ROSE}' AND r.title = '${THANKS_MAIL}'`,
    ),
  );

/** Backs two units by konbini through the five steps; the complete page's voucher. */
const backByKonbini = async (page: import('@playwright/test').Page, name: string) => {
  await startSupport(page, ROSE, THANKS_MAIL);
  await fillInfoStep(page, { displayname: name, lot: 2 });
  await chooseMethod(page, 'コンビニ決済');
  await expectStep(page, 4, '確認');
  await expect(page.getByText('コンビニ決済', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: '申し込む', exact: true }).click();
  await expect(page).toHaveURL(/\/payment\/complete\//);
  return page.getByRole('group', { name: 'コンビニでのお支払い方法' });
};

test('a member backs by konbini, sees the voucher, pays at the store and the totals rise', async ({ page }) => {
  test.setTimeout(120_000);
  const member = await registeredMember(page, 'konbini-paid');
  const raisedBefore = await raisedTotal(page, ROSE);

  const voucher = await backByKonbini(page, 'コンビニで払う会員');
  await expect(page.getByText('お申し込みを受け付けました。以下の方法でコンビニエンスストアでお支払いください。')).toBeVisible();
  for (const chain of ['ファミリーマート', 'ローソン', 'ミニストップ', 'セイコーマート']) {
    await expect(voucher.getByRole('region', { name: chain })).toBeVisible();
  }
  await expect(voucher.getByRole('region', { name: 'ローソン' }).getByText(/^\d{12}$/)).toBeVisible();
  await expect(voucher.getByText(/^\d{4}年\d{1,2}月\d{1,2}日（[月火水木金土日]）23:59$/)).toBeVisible();
  await expect(voucher.getByRole('link', { name: /払込票/ })).toHaveAttribute('href', /^https:\/\//);
  const total = Number(
    sql(`SELECT s.total FROM sales s JOIN users u ON u.id = s.user_id WHERE u.email = '${member.email.replace(/'/g, "''")}'`),
  );

  const history = page.getByRole('listitem').filter({ hasText: ROSE_TITLE }).filter({ hasText: THANKS_MAIL });
  await page.goto('/edit/payment-list');
  await expect(history).toContainText('支払い待ち（コンビニ）');
  await expect(history.getByRole('group', { name: 'コンビニでのお支払い方法' })).toBeVisible();

  await atTheStore(member.email, 'pay');

  // The provider's webhook (or the reconciler) marks it paid.
  await expect(async () => {
    await page.reload();
    await expect(history).toContainText('支払い済み', { timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  await expect(history.getByRole('group', { name: 'コンビニでのお支払い方法' })).toHaveCount(0);
  expect(await raisedTotal(page, ROSE)).toBe(raisedBefore + total);
});

test('a voucher that expires unpaid cancels the support and its lots return', async ({ page }) => {
  test.setTimeout(120_000);
  const member = await registeredMember(page, 'konbini-expired');
  const lotsBefore = lotsTaken();

  await backByKonbini(page, 'コンビニで払わない会員');
  expect(lotsTaken()).toBe(lotsBefore + 2);

  await atTheStore(member.email, 'expire');

  const history = page.getByRole('listitem').filter({ hasText: ROSE_TITLE }).filter({ hasText: THANKS_MAIL });
  await expect(async () => {
    await page.goto('/edit/payment-list');
    await expect(history).toContainText('キャンセル', { timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  expect(lotsTaken()).toBe(lotsBefore);
});
