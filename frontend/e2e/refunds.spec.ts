import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { login, uniqueEmail } from './accounts';
import {
  CARDS,
  STRIPE_API_BASE,
  fundBankTransfer,
  placeGuestSupport,
  projectDetail,
  returnOf,
  setUpGuestCard,
  type ProjectDetail,
} from './payment';

// Demo accounts seeded by `app-server seed-demo` (password `demo-password-1`).
const DEMO_PASSWORD = 'demo-password-1';
const ADMIN = 'demo-admin@example.jp';
const MEMBER = 'demo-taro@example.jp';
const SINGLE_PROJECT = 'maebashi-rose-garden';
// A project whose returns ask no additional data, so the API can place supports for it.
const BULK_PROJECT = 'maebashi-rose-garden';

/** A guest's card payment placed through the API, as another supporter would: a sale paid at the provider. */
const paidCardSale = async (request: APIRequestContext, project: ProjectDetail): Promise<{ id: number; total: number }> => {
  // A return without a delivery address, so the guest's support needs nothing more.
  const ret = project.returns.find(
    (candidate) => candidate.purchasable && !(candidate as { addressLabel?: string | null }).addressLabel,
  );
  expect(ret, `${project.slug} has a purchasable return`).toBeTruthy();
  const email = uniqueEmail('refund');
  const registered = await request.post('/v1/user/register', { data: { email, isGuest: true } });
  expect(registered.ok()).toBeTruthy();
  const response = await request.post('/v1/payment/set/support', {
    data: {
      projectId: project.id,
      returnId: ret!.id,
      lot: 1,
      paymentType: 1,
      idempotencyKey: `e2e-${Date.now()}-${Math.random().toString(36).slice(2)}`,
      displayname: '返金 テスト',
      anonymous: false,
      agreeTerms: true,
      notAntisocial: true,
      guestEmail: email,
      card: { paymentMethod: await setUpGuestCard(request, CARDS.visa) },
    },
  });
  const body = (await response.json()) as { sale: { id: number; total: number; status: string } };
  expect(response.status(), JSON.stringify(body)).toBe(200);
  expect(body.sale.status).toBe('succeeded');
  return { id: body.sale.id, total: body.sale.total };
};

const openRefundTable = async (page: Page, title: string) => {
  await page.goto('/admin/refund/');
  await expect(page.getByRole('heading', { level: 1, name: '返金' })).toBeVisible();
  await page.getByRole('link', { name: title }).click();
  await expect(page.getByRole('heading', { level: 1, name: `返金：${title}` })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: '支援者名' })).toBeVisible();
};

const saleRow = (page: Page, saleId: number) => page.locator(`tr[data-sale-id="${saleId}"]`);

test('a member gets the not-found page on both refund screens', async ({ page }) => {
  await login(page, MEMBER, DEMO_PASSWORD);
  for (const path of ['/admin/refund/', `/admin/refund/${SINGLE_PROJECT}`]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(0);
  }
});

test('an administrator refunds one sale with the checks, the confirmation and the provider answers', async ({
  page,
  request,
}) => {
  const project = await projectDetail(request, SINGLE_PROJECT);
  const sale = await paidCardSale(request, project);
  await login(page, ADMIN, DEMO_PASSWORD);
  await openRefundTable(page, project.title);

  const row = saleRow(page, sale.id);
  const amount = row.getByPlaceholder('返金額を入力');
  const button = row.getByRole('button', { name: /の支援を返金する$/ });
  await expect(button).toBeDisabled();
  await amount.fill('0');
  await expect(button).toBeDisabled();

  await amount.fill(String(sale.total + 1));
  await button.click();
  await expect(page.getByRole('alert')).toHaveText('返金額が協賛金額の合計を超えています');

  // Cancelling the confirmation changes nothing.
  await amount.fill('1000');
  await button.click();
  const dialog = page.getByRole('dialog', { name: '返金の確認' });
  await expect(dialog).toContainText('1,000円を返金します。よろしいですか？');
  await dialog.getByRole('button', { name: 'キャンセル' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(button).toBeVisible();

  await button.click();
  await page.getByRole('dialog', { name: '返金の確認' }).getByRole('button', { name: '返金する' }).click();
  await expect(page.getByRole('status').filter({ hasText: '返金が完了しました。' })).toBeVisible();
  await expect(row).toContainText('1,000円返金済み');
  await expect(row.getByRole('button')).toHaveCount(0);

  // The demo's sales were never paid at the local provider: it refuses, the sale stays refundable with the reason.
  const demoRow = page.locator('tr[data-sale-id]').filter({ has: page.getByPlaceholder('返金額を入力') }).last();
  await demoRow.getByPlaceholder('返金額を入力').fill('100');
  await demoRow.getByRole('button', { name: /の支援を返金する$/ }).click();
  await page.getByRole('dialog', { name: '返金の確認' }).getByRole('button', { name: '返金する' }).click();
  await expect(page.getByRole('alert')).toContainText('返金に失敗しました');
  await expect(page.getByRole('alert')).toContainText('理由：');
  await expect(demoRow.getByRole('button', { name: /の支援を返金する$/ })).toBeVisible();
  await expect(demoRow).toContainText('返金に失敗しました：');
});

test('an administrator runs a full bulk refund through both confirmations and sees its progress and results', async ({
  page,
  request,
}) => {
  const project = await projectDetail(request, BULK_PROJECT);
  const first = await paidCardSale(request, project);
  const second = await paidCardSale(request, project);
  await login(page, ADMIN, DEMO_PASSWORD);
  await openRefundTable(page, project.title);

  const mode = page.getByLabel('返金方法');
  const bulkButton = page.getByRole('button', { name: '一括返金', exact: true });
  await expect(bulkButton).toBeDisabled();

  // The select fills the refundable rows: half of each amount, then a specified amount.
  await mode.selectOption({ label: '半額' });
  await expect(saleRow(page, first.id).getByPlaceholder('返金額を入力')).toHaveValue(String(Math.floor(first.total / 2)));
  await mode.selectOption({ label: '金額を指定' });
  await expect(saleRow(page, first.id).getByPlaceholder('返金額を入力')).toHaveValue('');
  await page.getByLabel('1件あたりの返金額（円）').fill(String(first.total * 100));
  await expect(saleRow(page, second.id).getByPlaceholder('返金額を入力')).toHaveValue(String(first.total * 100));
  await bulkButton.click();
  await expect(page.getByRole('alert')).toHaveText('返金額が協賛金額を超えています。');

  await mode.selectOption({ label: '全額' });
  await expect(page.getByRole('note')).toContainText('決済手数料の差額分をあらかじめ');
  await expect(saleRow(page, first.id).getByPlaceholder('返金額を入力')).toHaveValue(String(first.total));

  // First confirmation (fee difference), cancelled: nothing starts.
  await bulkButton.click();
  const fee = page.getByRole('dialog', { name: '決済手数料の差額の確認' });
  await expect(fee).toContainText('決済手数料の差額分を入金済みであることを確認しましたか？');
  await fee.getByRole('button', { name: 'キャンセル' }).click();
  await expect(page.getByRole('progressbar')).toHaveCount(0);

  await bulkButton.click();
  await page.getByRole('dialog', { name: '決済手数料の差額の確認' }).getByRole('button', { name: '確認した' }).click();
  const balance = page.getByRole('dialog', { name: '決済事業者の残高の確認' });
  await expect(balance).toContainText('残高が返金の合計額に足りていることを確認しましたか？');
  await balance.getByRole('button', { name: '確認した・一括返金する' }).click();

  await expect(page.getByRole('progressbar', { name: '一括返金の進み具合' })).toBeVisible();
  // The spec's 一括返金が完了しました only when nothing failed; otherwise how many were refunded and how many failed.
  const done = page.getByText(/^一括返金が(完了しました|終わりました。\d+件を返金し、\d+件は返金に失敗しました。)/);
  await expect(done).toBeVisible({ timeout: 30_000 });
  const closing = await done.innerText();
  await expect(saleRow(page, first.id)).toContainText(`${first.total.toLocaleString('ja-JP')}円返金済み`);
  await expect(saleRow(page, second.id)).toContainText(`${second.total.toLocaleString('ja-JP')}円返金済み`);

  // The run is kept: reopening the page shows its progress and the per-row results (the demo's sales, never paid
  // at the local provider, failed and stay refundable with the reason).
  await page.reload();
  await expect(page.getByRole('heading', { name: '直近の一括返金' })).toBeVisible();
  const progress = page.getByRole('progressbar', { name: '一括返金の進み具合' });
  const total = Number(await progress.getAttribute('aria-valuemax'));
  await expect(progress).toHaveAttribute('aria-valuenow', String(total));
  // Other tests may have paid for this project too: both of ours succeeded, and no row is counted twice
  // (others may wait for bank details or have been skipped).
  const summary = page.getByText(new RegExp(`${total} / ${total} 件処理済み（成功 \\d+件・失敗 \\d+件）`));
  await expect(summary).toBeVisible();
  const [, succeeded = NaN, failed = NaN] = (await summary.innerText()).match(/成功 (\d+)件・失敗 (\d+)件/)!.map(Number);
  expect(succeeded).toBeGreaterThanOrEqual(2);
  expect(succeeded + failed).toBeLessThanOrEqual(total);
  if (failed > 0) {
    expect(closing).not.toContain('完了しました');
    const failures = page.locator('.refund-bulk__failures');
    await expect(failures.getByText('返金に失敗した支援（返金可能のまま残っています）：')).toBeVisible();
    // Why, in Japanese: never the provider's English.
    await expect(failures.getByRole('listitem').first()).not.toContainText('PaymentIntent');
  } else {
    expect(closing).toBe('一括返金が完了しました');
  }
});

/** The refund waiting for `email`'s bank account at the local payment server (Stripe mails the supporter). */
const refundAwaitingBankDetails = async (email: string): Promise<string> => {
  let id: string | undefined;
  await expect
    .poll(async () => {
      const response = await fetch(`${STRIPE_API_BASE}v1/refunds?limit=100`, {
        headers: { Authorization: 'Bearer sk_test_local' },
      });
      const list = (await response.json()) as {
        data: Array<{ id: string; status: string; next_action?: { display_details?: { email_sent?: { email_sent_to?: string } } } }>;
      };
      id = list.data.find(
        (refund) =>
          refund.status === 'requires_action' && refund.next_action?.display_details?.email_sent?.email_sent_to === email,
      )?.id;
      return id;
    })
    .toBeTruthy();
  return id!;
};

test('a bank-transfer refund waits for the supporter\'s bank account, then is paid', async ({ page, request }) => {
  // The server asks the provider about a waiting refund again after 30 s, on its 15 s sweep.
  test.setTimeout(150_000);
  const project = await projectDetail(request, SINGLE_PROJECT);
  const email = uniqueEmail('refund-bank');
  const placed = await placeGuestSupport(request, project, returnOf(project, 'thanks-mail'), 1, email);
  const { sale, receipt } = (await placed.json()) as { sale: { id: number; total: number }; receipt: string };
  expect(placed.status()).toBe(200);
  await fundBankTransfer(email, sale.total);
  await expect
    .poll(async () => {
      const status = await request.get(`/v1/payment/get/status?receipt=${encodeURIComponent(receipt)}`);
      return ((await status.json()) as { sale: { status: string } }).sale.status;
    })
    .toBe('succeeded');

  await login(page, ADMIN, DEMO_PASSWORD);
  await openRefundTable(page, project.title);
  const row = saleRow(page, sale.id);
  await expect(row.getByRole('rowheader')).toContainText('銀行振込');
  await row.getByPlaceholder('返金額を入力').fill('1000');
  await row.getByRole('button', { name: /の支援を返金する$/ }).click();
  await page.getByRole('dialog', { name: '返金の確認' }).getByRole('button', { name: '返金する' }).click();

  await expect(page.getByRole('status').filter({ hasText: '返金を受け付けました。' })).toHaveText(
    '返金を受け付けました。支援者へ返金先口座の入力をお願いするメールが送られ、入力され次第返金されます。',
  );
  const waiting = row.getByText('口座情報の入力待ち', { exact: true });
  await expect(waiting).toBeVisible();
  await expect(waiting).toHaveAttribute('title', '銀行振込の返金は、支援者がメールで案内された返金先口座を入力すると完了します。');
  await expect(row.getByRole('button')).toHaveCount(0);
  await expect(row.getByRole('cell').last()).toHaveText('1,000円');
  // Still waiting after a reload: the state comes from the server.
  await page.reload();
  await expect(saleRow(page, sale.id).getByText('口座情報の入力待ち', { exact: true })).toBeVisible();

  // The supporter names an account (the local payment server plays them): the refund is paid.
  const refund = await refundAwaitingBankDetails(email);
  const answered = await fetch(`${STRIPE_API_BASE}_test/refunds/${refund}/bank_details`, {
    method: 'POST',
    headers: { Authorization: 'Bearer sk_test_local' },
  });
  expect(answered.status, await answered.clone().text()).toBe(200);
  await expect(async () => {
    await page.reload();
    await expect(saleRow(page, sale.id)).toContainText('1,000円返金済み', { timeout: 2_000 });
  }).toPass({ timeout: 110_000, intervals: [5_000] });
  await expect(saleRow(page, sale.id).getByText('口座情報の入力待ち')).toHaveCount(0);
});
