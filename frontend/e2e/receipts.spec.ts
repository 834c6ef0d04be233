import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { linksTo, registeredMember } from './accounts';
import { mailBody, waitForMails } from './mail';
import {
  CARDS,
  chooseMethod,
  expectStep,
  expectThanks,
  fillInfoStep,
  payButton,
  registerCard,
  startSupport,
} from './payment';

/**
 * Receipts (領収書) against the real server and the local payment server: a new member pays by card, opens the
 * receipt from the payment history, issues it with another addressee (the print dialog opens), issues it again
 * (再発行), and the thanks mail's link opens the same receipt without logging in.
 */

const ROSE = 'maebashi-rose-garden';
const ROSE_TITLE = '前橋ばら園 花壇よみがえりプロジェクト';
const THANKS_MAIL = 'お礼のメール（何口でも）';

/** Counts `window.print()` instead of opening the dialog (headless chromium has none to close). */
const countPrints = async (page: Page): Promise<void> => {
  await page.addInitScript(() => {
    const counted = window as unknown as { printed: number };
    counted.printed = 0;
    window.print = () => {
      counted.printed += 1;
    };
  });
};

const printed = (page: Page): Promise<number> => page.evaluate(() => (window as unknown as { printed: number }).printed);

const sheet = (page: Page): Locator => page.getByRole('article', { name: /^領収書/ });

test.describe.serial('a member’s receipt', () => {
  let member: { email: string; password: string };
  let receiptPath = '';

  test('pays by card, opens the receipt from the payment history, issues it to a company, then reissues it', async ({
    page,
  }) => {
    await countPrints(page);
    member = await registeredMember(page, 'receipt');
    await startSupport(page, ROSE, THANKS_MAIL);
    await fillInfoStep(page, { displayname: '前橋の会員', lot: 2 });
    await chooseMethod(page, 'クレジットカード');
    await expectStep(page, 3, 'お支払い情報');
    await registerCard(page, CARDS.visa);
    const select = page.getByRole('dialog', { name: 'お支払いに使うカードを選択' });
    await select.getByRole('button', { name: 'このカードで支払う' }).click();
    await page.getByRole('button', { name: '次へ' }).click();
    await expectStep(page, 4, '確認');
    await payButton(page).click();
    await expectThanks(page);

    await page.goto('/edit/payment-list');
    const sale = page.getByRole('listitem').filter({ hasText: ROSE_TITLE }).filter({ hasText: THANKS_MAIL });
    await sale.getByRole('link', { name: `${ROSE_TITLE}の領収書` }).click();
    await expect(page).toHaveURL(/\/account\/receipts\/\d+$/);
    receiptPath = new URL(page.url()).pathname;

    // Not issued yet: a sample, addressed to the name given at the support, for what was paid.
    const receipt = sheet(page);
    await expect(receipt.getByRole('heading', { level: 2 })).toHaveText('領収書');
    await expect(receipt.getByText('見本：この領収書はまだ発行されていません', { exact: false })).toBeVisible();
    await expect(receipt.getByTestId('receipt-amount')).toHaveText('￥6,000-');
    await expect(receipt.getByText(`「${ROSE_TITLE}」へのご支援として`)).toBeVisible();
    await expect(receipt.getByRole('table', { name: '税率ごとの合計と消費税額' }).getByRole('row', { name: /10%対象/ }))
      .toContainText('545円');
    // No issuer set on the demo project: no registration number line.
    await expect(receipt.getByText(/登録番号/)).toHaveCount(0);
    const addressee = page.getByRole('textbox', { name: '宛名' });
    await expect(addressee).toHaveValue('前橋の会員');

    await addressee.fill('株式会社上毛商事');
    await page.getByRole('button', { name: '領収書を発行する' }).click();

    await expect(page.getByText('領収書を発行しました。', { exact: false })).toBeVisible();
    await expect(receipt.getByTestId('receipt-addressee')).toHaveText('株式会社上毛商事');
    await expect(receipt.getByText('見本：', { exact: false })).toHaveCount(0);
    await expect.poll(() => printed(page)).toBe(1);

    // On paper only the sheet: the site's header, the form and its button stay on screen.
    await page.emulateMedia({ media: 'print' });
    await expect(receipt).toBeVisible();
    await expect(page.getByRole('button', { name: '領収書を発行する' })).toBeHidden();
    await expect(page.locator('.site-header')).toBeHidden();
    await page.emulateMedia({ media: 'screen' });

    // Every later issue says 再発行, so two originals never exist.
    await page.getByRole('button', { name: '領収書を発行する' }).click();
    await expect(receipt.getByRole('heading', { level: 2 })).toHaveText('領収書（再発行）');
    await expect(receipt.getByText(/^R\d{8}-2$/)).toBeVisible();
    await expect(receipt.getByTestId('receipt-addressee')).toHaveText('株式会社上毛商事');
    await expect.poll(() => printed(page)).toBe(2);

    // Read again from the server: the reissue was recorded.
    await page.reload();
    await expect(sheet(page).getByRole('heading', { level: 2 })).toHaveText('領収書（再発行）');
  });

  test('the thanks mail’s link opens the same receipt without logging in', async ({ browser, baseURL }) => {
    const mails = await waitForMails(member.email, 1);
    const link = mails.flatMap((mail) => linksTo(mailBody(mail), '/receipt/'))[0];
    expect(link, 'a receipt link in the thanks mail').toBeTruthy();

    const visitor = await browser.newContext({ baseURL, locale: 'ja-JP', timezoneId: 'Asia/Tokyo' });
    const page = await visitor.newPage();
    await page.goto(link!);
    await expect(page.getByRole('heading', { level: 1, name: '領収書' })).toBeVisible();
    await expect(sheet(page).getByRole('heading', { level: 2 })).toHaveText('領収書（再発行）');
    await expect(sheet(page).getByTestId('receipt-addressee')).toHaveText('株式会社上毛商事');
    expect(receiptPath).toMatch(/^\/account\/receipts\/\d+$/);

    // A link altered by one character opens nothing.
    await page.goto(`${link!.slice(0, -3)}AAA`);
    await expect(page.getByText('この領収書は表示できません。')).toBeVisible();
    await visitor.close();
  });
});
