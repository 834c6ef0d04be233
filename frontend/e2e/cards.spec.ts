import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { login, registeredMember } from './accounts';
import {
  answerThreeDSecure,
  CARDS,
  chooseMethod,
  expectStep,
  expectThanks,
  fillInfoStep,
  payButton,
  registerCard,
  startSupport,
  typeCard,
  yen,
} from './payment';

/**
 * Saved cards (`/edit/payment`) against the real server and the local payment server (localstripe and its fake
 * Stripe.js). Every member is new, so runs never collide.
 */

const ROSE = 'maebashi-rose-garden';
const THANKS_MAIL = 'お礼のメール（何口でも）';

const cardList = (page: Page): Locator => page.getByRole('group', { name: '登録済みのクレジットカード' });
const registerDialog = (page: Page): Locator => page.getByRole('dialog', { name: 'クレジットカードの登録' });

/** My page → お支払い方法の管理. */
const openCardsFromMyPage = async (page: Page): Promise<void> => {
  await page.goto('/account/');
  await page.getByRole('link', { name: 'お支払い方法の管理' }).click();
  await expect(page).toHaveURL(/\/edit\/payment$/);
  await expect(page.getByRole('heading', { level: 1, name: 'お支払い方法の管理' })).toBeVisible();
};

test.describe.serial('a member manages saved cards from my page', () => {
  let member: { email: string; password: string };

  test('sees the empty state, then registers a first card once number, expiry and CVC are complete', async ({ page }) => {
    member = await registeredMember(page, 'cards');
    await openCardsFromMyPage(page);
    await expect(page.getByText('登録済みのクレジットカードはありません。')).toBeVisible();
    await expect(page.getByRole('radio')).toHaveCount(0);

    await page.getByRole('button', { name: '新しいカードを登録する' }).click();
    const dialog = registerDialog(page);
    const register = dialog.getByRole('button', { name: '登録する' });
    const group = dialog.getByRole('group', { name: /^カード情報/ });
    await expect(register).toBeDisabled();
    await group.getByRole('textbox', { name: 'number' }).fill(CARDS.visa);
    await group.getByRole('textbox', { name: 'exp_month' }).fill('12');
    await group.getByRole('textbox', { name: 'exp_year' }).fill('34');
    await expect(register).toBeDisabled();
    await group.getByRole('textbox', { name: 'cvc' }).fill('12');
    await expect(register).toBeDisabled();
    await group.getByRole('textbox', { name: 'cvc' }).fill('123');
    await expect(register).toBeEnabled();
    await register.click();

    await expect(dialog).toBeHidden();
    await expect(page.getByRole('status').filter({ hasText: 'クレジットカードの登録が完了しました。' })).toBeVisible();
    await expect(cardList(page).getByRole('radio', { name: 'Visa 末尾4242 有効期限 12/34 デフォルト' })).toBeChecked();
  });

  test('registers the 3-D Secure card, makes it the default and deletes the other after the confirmation', async ({ page }) => {
    await login(page, member.email, member.password);
    await openCardsFromMyPage(page);

    // The set-up asks for 3-D Secure, answered in the provider's box.
    await registerCard(page, CARDS.threeDSecure);
    const secure = cardList(page).getByRole('radio', { name: /^Visa 末尾3155 有効期限 12\/34/ });
    await expect(secure).toHaveAccessibleName('Visa 末尾3155 有効期限 12/34');
    await expect(page.getByRole('radio')).toHaveCount(2);

    await secure.check();
    await page.getByRole('button', { name: '選択したカードをデフォルトに設定する' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'デフォルトのクレジットカードを変更しました。' })).toBeVisible();
    await expect(secure).toHaveAccessibleName('Visa 末尾3155 有効期限 12/34 デフォルト');
    await expect(page.getByRole('button', { name: '選択したカードをデフォルトに設定する' })).toBeDisabled();

    await cardList(page).getByRole('radio', { name: /^Visa 末尾4242/ }).check();
    await page.getByRole('button', { name: '選択したカードを削除する' }).click();
    const confirm = page.getByRole('dialog', { name: 'クレジットカードの削除' });
    await expect(confirm).toContainText('以下のカードを削除します。よろしいですか？');
    await expect(confirm).toContainText('Visa 末尾4242（有効期限 12/34）');
    await confirm.getByRole('button', { name: 'キャンセル' }).click();
    await expect(confirm).toBeHidden();
    await expect(page.getByRole('radio')).toHaveCount(2);

    await page.getByRole('button', { name: '選択したカードを削除する' }).click();
    await confirm.getByRole('button', { name: '削除する' }).click();
    await expect(confirm).toBeHidden();
    await expect(page.getByRole('status').filter({ hasText: 'クレジットカードを削除しました。' })).toBeVisible();
    await expect(page.getByRole('radio')).toHaveCount(1);

    // What the provider holds now, after a reload.
    await page.reload();
    await expect(cardList(page).getByRole('radio')).toHaveCount(1);
    await expect(cardList(page).getByRole('radio', { name: 'Visa 末尾3155 有効期限 12/34 デフォルト' })).toBeChecked();
  });

  test('an invalid number and a card the provider declines show their messages and save nothing', async ({ page }) => {
    await login(page, member.email, member.password);
    await openCardsFromMyPage(page);
    await page.getByRole('button', { name: '新しいカードを登録する' }).click();
    const dialog = registerDialog(page);

    await typeCard(dialog, '4242424242424241');
    await expect(dialog.getByRole('alert')).toHaveText('カード番号が無効です。');
    await expect(dialog.getByRole('button', { name: '登録する' })).toBeDisabled();

    await typeCard(dialog, '4000000000000002');
    await expect(dialog.getByText('カード番号が無効です。')).toHaveCount(0);
    await dialog.getByRole('button', { name: '登録する' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('カードが承認されませんでした。別のカードをお試しください。');
    await expect(page.getByText('クレジットカードの登録が完了しました。')).toHaveCount(0);

    await dialog.getByRole('button', { name: '閉じる' }).click();
    await expect(page.getByRole('radio')).toHaveCount(1);
  });

  test('a 3-D Secure card whose authentication fails is not saved, and passes on a second try', async ({ page }) => {
    await login(page, member.email, member.password);
    await openCardsFromMyPage(page);
    await page.getByRole('button', { name: '新しいカードを登録する' }).click();
    const dialog = registerDialog(page);
    await typeCard(dialog, CARDS.alwaysAuthenticate);
    await dialog.getByRole('button', { name: '登録する' }).click();

    await answerThreeDSecure(page, false);
    await expect(dialog.getByRole('alert')).toHaveText(
      'カードの本人認証が完了しませんでした。別のカードをお試しいただくか、再度お試しください。',
    );
    await expect(page.getByText('クレジットカードの登録が完了しました。')).toHaveCount(0);

    await dialog.getByRole('button', { name: '登録する' }).click();
    await answerThreeDSecure(page, true);
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('status').filter({ hasText: 'クレジットカードの登録が完了しました。' })).toBeVisible();
    await expect(cardList(page).getByRole('radio', { name: /^Visa 末尾3184 有効期限 12\/34$/ })).toBeVisible();
    await expect(page.getByRole('radio')).toHaveCount(2);
  });
});

test('a card registered at step 3 asks for 3-D Secure when set up and when it pays, and is on the cards screen', async ({ page }) => {
  await registeredMember(page, 'cards-step3');
  await startSupport(page, ROSE, THANKS_MAIL);
  await fillInfoStep(page, { displayname: '本人認証の会員' });
  await chooseMethod(page, 'クレジットカード');
  await expectStep(page, 3, 'お支払い情報');

  await registerCard(page, CARDS.alwaysAuthenticate);
  const select = page.getByRole('dialog', { name: 'お支払いに使うカードを選択' });
  await select.getByRole('button', { name: 'このカードで支払う' }).click();
  await page.getByRole('button', { name: '次へ' }).click();
  await expectStep(page, 4, '確認');
  await expect(payButton(page)).toHaveText(`${yen(3_000)}を支払う`);
  await payButton(page).click();
  await answerThreeDSecure(page, true);
  await expectThanks(page);

  await openCardsFromMyPage(page);
  await expect(cardList(page).getByRole('radio', { name: 'Visa 末尾3184 有効期限 12/34 デフォルト' })).toBeChecked();
});
