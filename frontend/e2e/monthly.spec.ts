import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { registeredMember } from './accounts';
import { mailBody, waitForMails } from './mail';
import {
  CARDS,
  STRIPE_API_BASE,
  answerThreeDSecure,
  chooseMethod,
  customerOf,
  expectStep,
  fillInfoStep,
  registerCard,
  returnCard,
  yen,
} from './payment';

/**
 * Monthly support (issue #10) against the demo's サポーターズクラブ on takasaki-daruma (1,000円 税別 = 1,100円 a
 * month): back it through the five steps, see each month in the history after the local payment server is moved
 * on by its test helper, stop it from my page.
 */

const PROJECT = 'takasaki-daruma';
const CLUB = 'サポーターズクラブ（毎月のご支援）';
const STRIPE_AUTH = { Authorization: 'Bearer sk_test_local' };

const definition = (scope: Page | Locator, term: string): Locator =>
  scope.locator('dt', { hasText: new RegExp(`^${term}$`) }).locator('xpath=following-sibling::dd[1]');

/** The member's subscription at the local payment server (found through their customer). */
const providerSubscription = async (email: string): Promise<string> => {
  const customer = await customerOf(email);
  const response = await fetch(`${STRIPE_API_BASE}v1/subscriptions?customer=${customer}`, { headers: STRIPE_AUTH });
  const body = (await response.json()) as { data: { id: string }[] };
  const first = body.data[0];
  if (!first) throw new Error(`no subscription for ${email}`);
  return first.id;
};

/** Plays one period passing at the provider: the next month is charged to the card. */
const advance = async (subscription: string): Promise<void> => {
  const response = await fetch(`${STRIPE_API_BASE}_test/subscriptions/${subscription}/advance`, {
    method: 'POST',
    headers: STRIPE_AUTH,
  });
  expect(response.status, await response.clone().text()).toBe(200);
};

test('a member backs the supporters club monthly, sees each month in the history and stops it', async ({ page }) => {
  const member = await registeredMember(page, 'monthly');

  await page.goto(`/projects/${PROJECT}/`);
  const card = returnCard(page, CLUB);
  await expect(card.getByText('毎月のご支援', { exact: true })).toBeVisible();
  await expect(card.getByText(`${yen(1_100)}/月（税込）`)).toBeVisible();
  await card.getByRole('button', { name: 'このリターンで支援する' }).click();
  await fillInfoStep(page, {
    displayname: '高崎の会員',
    additional: { label: '職人へのメッセージ', answer: '毎月応援しています' },
  });

  // Step 2: card only.
  await expect(page.getByText('毎月のご支援はクレジットカードでのお支払いのみご利用いただけます。')).toBeVisible();
  await expect(page.getByRole('radio', { name: /^銀行振込/ })).toHaveCount(0);
  await chooseMethod(page, 'クレジットカード');

  // Step 3: a saved card, registered first.
  await expectStep(page, 3, 'お支払い情報');
  await registerCard(page, CARDS.visa);
  const select = page.getByRole('dialog', { name: 'お支払いに使うカードを選択' });
  await select.getByRole('button', { name: 'このカードで支払う' }).click();
  await page.getByRole('button', { name: '次へ' }).click();

  // Step 4: charged monthly, confirmed in a dialog.
  await expectStep(page, 4, '確認');
  await expect(definition(page, '毎月のお支払い（税込）')).toHaveText(`${yen(1_100)}/月`);
  await page.getByRole('button', { name: `毎月${yen(1_100)}の支援を申し込む` }).click();
  const confirm = page.getByRole('dialog', { name: 'お支払いの確定' });
  await expect(confirm.getByText('お支払いを確定します。よろしいですか？')).toBeVisible();
  await confirm.getByRole('button', { name: 'キャンセル' }).click();
  await expect(confirm).toBeHidden();
  await page.getByRole('button', { name: `毎月${yen(1_100)}の支援を申し込む` }).click();
  await confirm.getByRole('button', { name: '確定する' }).click();

  await expect(page).toHaveURL(/\/payment\/complete\//);
  await expect(page.getByText('お支払い情報の登録が完了しました。')).toBeVisible();

  // Two more months at the provider: each is its own entry in the history.
  const subscription = await providerSubscription(member.email);
  await advance(subscription);
  await advance(subscription);
  await expect
    .poll(
      async () => {
        await page.goto('/edit/payment-list');
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        return page.getByRole('listitem').filter({ hasText: CLUB }).count();
      },
      { timeout: 15_000 },
    )
    .toBe(3);
  // Activation, thanks for the first month, and one mail per later month.
  const mails = await waitForMails(member.email, 4);
  expect(mails.filter((m) => m.subject.includes('お支払いが完了しました'))).toHaveLength(2);

  // My page: the monthly support with its amount, next charge and card; stopped after a confirmation.
  await page.goto('/account/');
  const list = page.getByRole('region', { name: '毎月のご支援' });
  const item = list.getByRole('article', { name: '高崎だるま 若手職人育成プロジェクト' });
  await expect(definition(item, '金額')).toHaveText(`${yen(1_100)}/月（税込）`);
  await expect(definition(item, '次回のお支払い')).toHaveText(/^\d{4}年\d{1,2}月\d{1,2}日$/);
  await expect(definition(item, 'お支払いカード')).toHaveText('Visa 末尾4242');
  await item.getByRole('button', { name: 'この毎月のご支援を停止する' }).click();
  const stop = page.getByRole('dialog', { name: '毎月のご支援の停止' });
  await expect(stop.getByText(/への毎月のご支援を停止します。よろしいですか？/)).toBeVisible();
  await stop.getByRole('button', { name: '停止する' }).click();
  await expect(list.getByText(/毎月のご支援の停止を承りました。/)).toBeVisible();
  await expect(definition(item, '状態')).toHaveText('停止手続き済み');
  await expect(item.getByRole('button', { name: 'この毎月のご支援を停止する' })).toHaveCount(0);
});

test('a visitor is asked to log in before backing a monthly return', async ({ page }) => {
  await page.goto(`/projects/${PROJECT}/`);
  await returnCard(page, CLUB).getByRole('button', { name: 'このリターンで支援する' }).click();
  const dialog = page.getByRole('dialog', { name: 'ログインが必要です' });
  await expect(dialog.getByText('毎月のご支援にはログインが必要です。')).toBeVisible();
  await expect(page.getByRole('dialog', { name: '支援方法を選択してください' })).toHaveCount(0);
});

test('a 3-D Secure card starts a monthly support, and a renewal its bank wants authenticated is completed from the mail', async ({
  page,
}) => {
  const member = await registeredMember(page, 'monthly-3ds');
  await page.goto(`/projects/${PROJECT}/`);
  await returnCard(page, CLUB).getByRole('button', { name: 'このリターンで支援する' }).click();
  await fillInfoStep(page, {
    displayname: '本人認証の会員',
    additional: { label: '職人へのメッセージ', answer: '毎月応援しています' },
  });
  await chooseMethod(page, 'クレジットカード');
  await expectStep(page, 3, 'お支払い情報');
  // Set up with 3-D Secure: its months are then charged with nobody present.
  await registerCard(page, CARDS.threeDSecure);
  await page.getByRole('dialog', { name: 'お支払いに使うカードを選択' }).getByRole('button', { name: 'このカードで支払う' }).click();
  await page.getByRole('button', { name: '次へ' }).click();
  await page.getByRole('button', { name: `毎月${yen(1_100)}の支援を申し込む` }).click();
  await page.getByRole('dialog', { name: 'お支払いの確定' }).getByRole('button', { name: '確定する' }).click();
  await expect(page.getByText('お支払い情報の登録が完了しました。')).toBeVisible();

  // The member moves the support to a card whose bank asks on every charge: a new card, the old one deleted.
  await page.goto('/edit/payment');
  await registerCard(page, CARDS.alwaysAuthenticate);
  const cards = page.getByRole('group', { name: '登録済みのクレジットカード' });
  await cards.getByRole('radio', { name: /^Visa 末尾3155/ }).check();
  await page.getByRole('button', { name: '選択したカードを削除する' }).click();
  await page.getByRole('dialog', { name: 'クレジットカードの削除' }).getByRole('button', { name: '削除する' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'クレジットカードを削除しました。' })).toBeVisible();

  // The next month waits for authentication: the support is past due and the mail links the page.
  await advance(await providerSubscription(member.email));
  let asked: Awaited<ReturnType<typeof waitForMails>>[number] | undefined;
  await expect
    .poll(
      async () => {
        asked = (await waitForMails(member.email, 1)).find((mail) => mail.subject.includes('本人認証が必要です'));
        return asked !== undefined;
      },
      { timeout: 30_000, message: 'the mail asking for authentication' },
    )
    .toBe(true);
  const link = /\/account\/monthly\/\d+\/authenticate/.exec(mailBody(asked!))?.[0];
  expect(link).toBeTruthy();

  await page.goto(link!);
  await expect(page.getByRole('heading', { level: 1, name: '毎月のご支援の本人認証' })).toBeVisible();
  await expect(page.getByText(`${yen(1_100)}（税込）`)).toBeVisible();
  await page.getByRole('button', { name: '本人認証してお支払いを完了する' }).click();
  await answerThreeDSecure(page, true);
  await expect(page.getByText('本人認証が完了し、今月分のお支払いが完了しました。ご支援ありがとうございます。')).toBeVisible();

  await page.goto('/account/');
  const item = page.getByRole('region', { name: '毎月のご支援' }).getByRole('article', { name: '高崎だるま 若手職人育成プロジェクト' });
  await expect(definition(item, '状態')).toHaveText('継続中');
  await expect(definition(item, 'お支払いカード')).toHaveText('Visa 末尾3184');
});
