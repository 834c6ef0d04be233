import { readFile } from 'node:fs/promises';
import type { Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { login, registeredMember } from './accounts';
import { mailBody, MAILDEV_URL, type CaughtMail } from './mail';
import {
  CARDS,
  chooseMethod,
  expectStep,
  expectThanks,
  fillInfoStep,
  payButton,
  projectDetail,
  registerCard,
  startSupport,
} from './payment';

/**
 * Shipping the returns end to end: a new member backs the rose garden's seedling (a return with a delivery address)
 * by card; the operator opens the project's delivery list, filters it to that return and 未発送, marks the sale
 * shipped with a tracking note, downloads the CSV and reads its columns; the member's payment history says 発送済み
 * with the note, and the shipping mail arrives in the mail catcher.
 */

const ADMIN = 'demo-admin@example.jp';
const DEMO_PASSWORD = 'demo-password-1';
const ROSE = 'maebashi-rose-garden';
const ROSE_TITLE = '前橋ばら園 花壇よみがえりプロジェクト';
const SEEDLING = 'ばらの苗木 1鉢（数量限定・配送あり）';

const CSV_HEADER = [
  '支援ID', '支援日', '会員ID', 'リターンID', 'リターン', '口数', '表示名', 'メールアドレス', 'お届け先氏名', '電話番号',
  '郵便番号', '都道府県', '市区町村', '番地', '建物名', '追加質問', '追加質問の回答', '支払い状況', '発送状況',
  '発送日・発送メモ',
];

/** A page of a fresh browser context that waits for the app after each load, as the `page` fixture does. */
const operatorPage = async (browser: Browser, baseURL: string | undefined): Promise<Page> => {
  const context = await browser.newContext({ baseURL, locale: 'ja-JP', timezoneId: 'Asia/Tokyo' });
  const page = await context.newPage();
  const goto = page.goto.bind(page);
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    await page.locator('html[data-app-ready]').waitFor({ state: 'attached' });
    return response;
  };
  return page;
};

/** Picks the option of `label`'s select whose text starts with `text` (the options carry counts after the title). */
const chooseOption = async (page: Page, label: string, text: string): Promise<void> => {
  const select = page.getByLabel(label, { exact: true });
  const option = select.locator('option').filter({ hasText: text }).first();
  await select.selectOption({ label: (await option.textContent()) ?? text });
};

/** The shipping mail to `address` whose body holds `note`, once it has arrived. */
const shippingMail = async (address: string, note: string): Promise<CaughtMail> => {
  let found: CaughtMail | undefined;
  await expect
    .poll(
      async () => {
        const response = await fetch(`${MAILDEV_URL}/api/email`);
        const mails = (await response.json()) as CaughtMail[];
        found = mails.find(
          (mail) =>
            mail.to.some((to) => to.address.toLowerCase() === address.toLowerCase()) && mailBody(mail).includes(note),
        );
        return found !== undefined;
      },
      { timeout: 30_000, intervals: [250, 500, 1_000], message: `shipping mail to ${address}` },
    )
    .toBe(true);
  return found!;
};

test('the operator marks a paid support shipped, the CSV lists it, and the supporter sees 発送済み and gets the mail', async ({
  page,
  browser,
  baseURL,
  request,
}) => {
  // The supporter backs the seedling by card, with a delivery address.
  const member = await registeredMember(page, 'delivery');
  await startSupport(page, ROSE, SEEDLING);
  await fillInfoStep(page, { displayname: '発送を待つ会員', address: true });
  await chooseMethod(page, 'クレジットカード');
  await expectStep(page, 3, 'お支払い情報');
  await registerCard(page, CARDS.visa);
  await page.getByRole('dialog', { name: 'お支払いに使うカードを選択' }).getByRole('button', { name: 'このカードで支払う' }).click();
  await page.getByRole('button', { name: '次へ' }).click();
  await expectStep(page, 4, '確認');
  await payButton(page).click();
  await expectThanks(page);

  await page.goto('/edit/payment-list');
  const sale = page.getByRole('listitem').filter({ hasText: ROSE_TITLE }).filter({ hasText: SEEDLING });
  await expect(sale.getByText('発送状況').locator('xpath=following-sibling::dd[1]')).toHaveText('未発送');

  // The operator opens the project's delivery list from its edit page and narrows it.
  const project = await projectDetail(request, ROSE);
  const operator = await operatorPage(browser, baseURL);
  await login(operator, ADMIN, DEMO_PASSWORD);
  await operator.goto(`/admin/projects/${project.id}/`);
  await operator.getByRole('link', { name: 'リターンの発送（支援者の一覧・CSV）' }).click();
  await expect(operator).toHaveURL(new RegExp(`/admin/projects/${project.id}/deliveries$`));
  await expect(operator.getByRole('heading', { level: 1, name: 'リターンの発送' })).toBeVisible();
  await chooseOption(operator, 'リターン', SEEDLING);
  await operator.getByLabel('発送状況', { exact: true }).selectOption({ label: '未発送' });

  const list = operator.getByRole('region', { name: '発送の一覧（横にスクロールできます）' });
  const row = list.getByRole('row').filter({ hasText: member.email });
  await expect(row).toContainText('発送を待つ会員');
  await expect(row).toContainText('〒3710023');
  await expect(row).toContainText('群馬県前橋市本町1-1-1');
  await expect(row).toContainText('支払い済み');
  await expect(row).toContainText('未発送');
  const saleId = Number(await row.getByRole('rowheader').textContent());

  // Marked shipped with a tracking note: it leaves the 未発送 list and shows under 発送済み.
  const note = `ヤマト運輸 ${Date.now()}`;
  await row.getByRole('button', { name: /を発送済みにする$/ }).click();
  const dialog = operator.getByRole('dialog', { name: '発送済みにする' });
  await expect(dialog).toContainText(`発送を待つ会員さん（支援ID ${saleId}）を発送済みにします。`);
  await dialog.getByLabel('発送メモ・追跡番号（任意）').fill(note);
  await dialog.getByRole('button', { name: '発送済みとして登録する' }).click();
  await expect(operator.getByText('1件を発送済みにしました。お知らせメールを1件送信します。')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(row).toHaveCount(0);
  await operator.getByLabel('発送状況', { exact: true }).selectOption({ label: '発送済み' });
  await expect(row).toContainText('発送済み');
  await expect(row).toContainText(note);

  // The CSV of that filter: the byte-order mark, CRLF, the columns, and the sale with its note.
  const [download] = await Promise.all([
    operator.waitForEvent('download'),
    operator.getByRole('button', { name: 'CSVをダウンロード' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`deliveries-${project.id}.csv`);
  const bytes = await readFile((await download.path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.subarray(3).toString('utf8').split('\r\n');
  expect(lines[0]).toBe(CSV_HEADER.map((column) => `"${column}"`).join(','));
  const line = lines.find((l) => l.startsWith(`"${saleId}",`));
  expect(line, 'the shipped sale is in the CSV').toBeDefined();
  expect(line).toContain(`"${member.email}"`);
  expect(line).toContain('"3710023","群馬県","前橋市","本町1-1-1"');
  expect(line).toContain(`"発送済み","`);
  expect(line).toContain(` ${note}"`);
  await operator.context().close();

  // The supporter's history says 発送済み with the note, and the mail arrives.
  await page.reload();
  const delivery = sale.getByText('発送状況').locator('xpath=following-sibling::dd[1]');
  await expect(delivery).toContainText('発送済み');
  await expect(delivery).toContainText(`発送メモ：${note}`);
  const mail = await shippingMail(member.email, note);
  expect(mail.subject).toMatch(/リターンを発送しました$/);
  expect(mailBody(mail)).toContain(`リターン：${SEEDLING}`);
});
