import { execFileSync } from 'node:child_process';
import { expect, test } from './fixtures';
import { registeredMember } from './accounts';
import { chooseMethod, expectStep, fillInfoStep, fundBankTransfer, startSupport } from './payment';

/**
 * A bank transfer that arrives after its deadline (docs/decisions.md, "A transfer that arrives after its
 * deadline"): the deadline sweep cancels the sale but leaves the provider's payment open, so the money sent late
 * still pays it and the sale is paid after all. The deadline is moved into the past in the e2e server's database
 * (E2E_DATABASE_URL, set by app-server/dev/test.sh), the one thing a browser cannot do.
 */

const ROSE = 'maebashi-rose-garden';
const ROSE_TITLE = '前橋ばら園 花壇よみがえりプロジェクト';
const THANKS_MAIL = 'お礼のメール（何口でも）';

/** One value from SQL against the e2e server's database. */
const sql = (statement: string): string => {
  const url = process.env.E2E_DATABASE_URL;
  if (!url) throw new Error('E2E_DATABASE_URL is not set: run the browser tests through app-server/dev/test.sh e2e');
  return execFileSync('psql', [url, '-qAtX', '-v', 'ON_ERROR_STOP=1', '-c', statement], { encoding: 'utf8' }).trim();
};

test('a member whose transfer arrives after the deadline sees the support cancelled, then paid', async ({ page }) => {
  // Two sweeps and a webhook delivered in turn to every server the local provider knows: more than the default.
  test.setTimeout(120_000);
  const member = await registeredMember(page, 'late-transfer');
  await startSupport(page, ROSE, THANKS_MAIL);
  await fillInfoStep(page, { displayname: '遅れて振り込む会員' });
  await chooseMethod(page, '銀行振込');
  await expectStep(page, 4, '確認');
  await page.getByRole('button', { name: '申し込む', exact: true }).click();
  await expect(page).toHaveURL(/\/payment\/complete\//);
  await expect(page.getByText('お申し込みを受け付けました。以下の口座へお振り込みください。')).toBeVisible();

  const history = page.getByRole('listitem').filter({ hasText: ROSE_TITLE }).filter({ hasText: THANKS_MAIL });
  await page.goto('/edit/payment-list');
  await expect(history).toHaveCount(1);
  await expect(history).toContainText('入金待ち（銀行振込）');

  const email = member.email.replace(/'/g, "''");
  const [sale, total] = sql(
    `SELECT s.id || ' ' || s.total FROM sales s JOIN users u ON u.id = s.user_id WHERE u.email = '${email}'`,
  ).split(' ');
  sql(`UPDATE sales SET transfer_deadline = current_date - 2 WHERE id = ${sale}`);

  // The deadline sweep runs every few seconds (PAYMENT_SWEEP_SECONDS of the e2e server).
  await expect(async () => {
    await page.reload();
    await expect(history).toContainText('キャンセル', { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });

  await fundBankTransfer(member.email, Number(total));

  await expect(async () => {
    await page.reload();
    await expect(history).toContainText('支払い済み', { timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  expect(sql(`SELECT status || ' ' || refund_required FROM sales WHERE id = ${sale}`)).toBe('succeeded false');
});
