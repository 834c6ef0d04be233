import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { registeredMember } from './accounts';
import { CARDS, chooseMethod, expectStep, expectThanks, payButton, registerCard, startSupport } from './payment';

/**
 * 上乗せ支援 in a browser against the real server and the local payment server: a new member adds an amount on
 * top of a return at step 1 (a fraction is refused with the server's message), sees it as its own line and the
 * server's total on step 4, pays that total, and finds it on the thanks page, in the payment history and on the
 * receipt, outside consumption tax.
 */

const ROSE = 'maebashi-rose-garden';
const ROSE_TITLE = '前橋ばら園 花壇よみがえりプロジェクト';
const THANKS_MAIL = 'お礼のメール（何口でも）';

const definition = (scope: Page | Locator, term: string | RegExp): Locator =>
  scope.locator('dt', { hasText: term }).locator('xpath=following-sibling::dd[1]');

test('a member backs with an extra amount and sees it on step 4, after paying, in the history and on the receipt', async ({
  page,
}) => {
  await registeredMember(page, 'extra');
  await startSupport(page, ROSE, THANKS_MAIL);
  await expectStep(page, 1, 'ご支援内容');
  await page.getByRole('combobox', { name: '口数' }).selectOption('2');
  const extra = page.getByRole('textbox', { name: /上乗せ支援額/ });
  await extra.fill('12.5');
  await extra.blur();
  await expect(page.getByText('上乗せ支援額は0円から1,000,000円までの整数（円単位）で入力してください。')).toBeVisible();
  await extra.fill('1,500');
  await expect(page.getByText('上乗せ支援額は0円から1,000,000円までの整数（円単位）で入力してください。')).toHaveCount(0);
  await page.getByRole('textbox', { name: '表示名' }).fill('上乗せの会員');
  await page.getByRole('checkbox', { name: '利用規約に同意する' }).check();
  await page.getByRole('checkbox', { name: '反社会的勢力ではないことを確認する' }).check();
  await page.getByRole('button', { name: '次へ' }).click();
  await expectStep(page, 2, 'お支払い方法');
  await chooseMethod(page, 'クレジットカード');
  await expectStep(page, 3, 'お支払い情報');
  await registerCard(page, CARDS.visa);
  await page.getByRole('dialog', { name: 'お支払いに使うカードを選択' }).getByRole('button', { name: 'このカードで支払う' }).click();
  await page.getByRole('button', { name: '次へ' }).click();

  // Step 4: 3,000 yen x 2 (税込) and the extra on its own line; the total is the server's.
  await expectStep(page, 4, '確認');
  const figures = page.getByRole('region', { name: 'お支払い金額' });
  await expect(definition(figures, /^上乗せ支援/)).toHaveText('1,500円');
  await expect(definition(figures, /^合計/)).toHaveText('7,500円');
  await expect(payButton(page)).toHaveText('7,500円を支払う');
  await payButton(page).click();
  await expectThanks(page);
  await expect(definition(page, /^上乗せ支援$/)).toHaveText('1,500円');
  await expect(definition(page, /^お支払い金額$/)).toContainText('7,500円');

  await page.goto('/edit/payment-list');
  const sale = page.getByRole('listitem').filter({ hasText: ROSE_TITLE }).filter({ hasText: THANKS_MAIL });
  await expect(definition(sale, /^うち上乗せ支援$/)).toHaveText('1,500円');
  await expect(definition(sale, /^お支払い金額$/)).toContainText('7,500円');

  await sale.getByRole('link', { name: `${ROSE_TITLE}の領収書` }).click();
  const receipt = page.getByRole('article', { name: /^領収書/ });
  await expect(receipt.getByTestId('receipt-amount')).toHaveText('￥7,500-');
  const extraLine = receipt.getByRole('table', { name: '内訳' }).getByRole('row', { name: /上乗せ支援/ });
  await expect(extraLine).toContainText('対象外');
  await expect(extraLine).toContainText('1,500円');
  // The tax is still what the 6,000 yen return contains.
  await expect(receipt.getByRole('table', { name: '税率ごとの合計と消費税額' }).getByRole('row', { name: /10%対象/ }))
    .toContainText('545円');
});
