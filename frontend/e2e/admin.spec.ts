import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { PASSWORD, linksTo, login, storedToken, uniqueEmail } from './accounts';
import { mailBody, waitForMails } from './mail';

// Demo accounts seeded by `app-server seed-demo` (password `demo-password-1`).
const DEMO_PASSWORD = 'demo-password-1';
const MEMBER = 'demo-taro@example.jp';
const ADMIN = 'demo-admin@example.jp';
const PROJECT_SLUG = 'maebashi-rose-garden';

/** Every admin route of spec 001 §2, and our payout screens, with sample ids. */
const ADMIN_ROUTES = [
  '/admin/',
  '/admin/resendRegisterMail/',
  '/admin/mail/',
  '/admin/mail/register/',
  '/admin/mail/1/',
  '/admin/refund/',
  `/admin/refund/${PROJECT_SLUG}`,
  '/admin/payouts/',
  '/admin/payouts/1/',
];

const expectNotFound = async (page: Page, route: string) => {
  await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' }), route).toBeVisible();
  expect(new URL(page.url()).pathname, route).toBe(route);
  await expect(page.getByRole('navigation', { name: '管理メニュー' })).toHaveCount(0);
};

test('a visitor sees Not Found on every admin route and is not sent to the login page', async ({ page }) => {
  for (const route of ADMIN_ROUTES) {
    await page.goto(route);
    await expectNotFound(page, route);
  }
  expect(await storedToken(page)).toBeNull();
});

test('a member sees Not Found on every admin route and stays logged in', async ({ page }) => {
  await login(page, MEMBER, DEMO_PASSWORD);
  const token = await storedToken(page);

  for (const route of ADMIN_ROUTES) {
    await page.goto(route);
    await expectNotFound(page, route);
    expect(await storedToken(page), route).toBe(token);
  }
  await expect(page.getByRole('alertdialog')).toHaveCount(0);

  await page.goto('/account/');
  await expect(page.getByRole('heading', { level: 1, name: 'マイページ' })).toBeVisible();
});

test('the administrator’s dashboard shows the public totals, a readable chart and the admin menu', async ({ page, request }) => {
  await login(page, ADMIN, DEMO_PASSWORD);
  const detail = (await (await request.get(`/v1/project/get/detail?slug=${PROJECT_SLUG}`)).json()) as {
    project: { id: number; title: string };
  };
  const sum = (await (await request.get(`/v1/sales/get/sum?type=project&id=${detail.project.id}`)).json()) as {
    result: { amount: number; lot: number };
  };

  await page.goto('/admin/');

  await expect(page.getByRole('heading', { level: 1, name: '管理画面' })).toBeVisible();
  const menu = page.getByRole('navigation', { name: '管理メニュー' });
  await expect(menu.getByRole('link', { name: '登録メールの再送' })).toHaveAttribute('href', '/admin/resendRegisterMail/');
  await expect(menu.getByRole('link', { name: '送信メール一覧' })).toHaveAttribute('href', '/admin/mail/');
  await expect(menu.getByRole('link', { name: '返金' })).toHaveAttribute('href', '/admin/refund/');
  const project = page.getByRole('article', { name: detail.project.title });
  const yen = (amount: number) => `${amount.toLocaleString('ja-JP')}円`;
  await expect(project.locator('dt', { hasText: '集まった金額' }).locator('+ dd')).toContainText(yen(sum.result.amount));
  await expect(project.locator('dt', { hasText: '支援者数' }).locator('+ dd')).toHaveText(`${sum.result.lot}人`);
  const chart = project.getByRole('img', { name: new RegExp(`${detail.project.title}の累計支援額の推移`) });
  await expect(chart).toBeVisible();
  await expect(chart).toHaveAccessibleName(new RegExp(`累計${yen(sum.result.amount)}です。`));
  await project.getByText('日ごとの金額を表で見る').click();
  await expect(project.getByRole('table').getByRole('row').last()).toContainText(yen(sum.result.amount));
  await expect(page.getByRole('region', { name: '振込待ちの銀行振込' })).toBeVisible();
  await expect(page.getByRole('region', { name: '送信に失敗したメール' })).toBeVisible();
  await expect(page.getByRole('region', { name: '最近の管理操作' })).toBeVisible();

  await menu.getByRole('link', { name: '登録メールの再送' }).click();
  await expect(page).toHaveURL(/\/admin\/resendRegisterMail\/$/);
  await expect(page.getByRole('heading', { level: 1, name: '登録メールの再送' })).toBeVisible();
});

test('the administrator resends a registration mail: new link works, old one does not, and it is logged', async ({ page }) => {
  // Someone signs up and does not finish.
  const email = uniqueEmail('resend');
  await page.goto('/signup/');
  await page.getByLabel('メールアドレス').fill(email);
  await page.getByRole('checkbox', { name: '利用規約とプライバシーポリシーに同意する' }).check();
  await page.getByRole('button', { name: '確認メールを送信する' }).click();
  const [first] = linksTo(mailBody((await waitForMails(email, 1))[0]!), '/signup/password/?activate=');
  expect(first).toBeTruthy();

  await login(page, ADMIN, DEMO_PASSWORD);
  await page.goto('/admin/resendRegisterMail/');
  const field = page.getByLabel('再送先のメールアドレス');
  const send = page.getByRole('button', { name: '再送する' });
  // The spec's e-mail messages.
  await field.focus();
  await field.blur();
  await expect(page.getByText('メールアドレスを入力してください')).toBeVisible();
  await field.fill('taro@');
  await field.blur();
  await expect(page.getByText('正しいメールアドレスの形式で入力してください')).toBeVisible();
  await expect(send).toBeDisabled();
  // A member needs no mail.
  await field.fill(MEMBER);
  await send.click();
  await expect(page.getByText('このメールアドレスはすでに本登録済みの会員のものです。登録メールは送信していません。')).toBeVisible();
  // An unknown address is told, not signed up.
  await field.fill(uniqueEmail('nobody'));
  await send.click();
  await expect(page.getByText('このメールアドレスで登録されたアカウントはありません。登録メールは送信していません。')).toBeVisible();

  await field.fill(email);
  await send.click();

  await expect(page.getByText('再送処理完了')).toBeVisible();
  await expect(field).toHaveValue('');
  const mails = await waitForMails(email, 2);
  const [second] = linksTo(mailBody(mails[mails.length - 1]!), '/signup/password/?activate=');
  expect(second).toBeTruthy();
  expect(second).not.toBe(first);
  // Logged on the dashboard.
  await page.goto('/admin/');
  await expect(page.getByRole('region', { name: '最近の管理操作' }).getByText(`登録メールの再送：${email}`)).toBeVisible();

  // The person opens the old link first, then the new one.
  await page.evaluate(() => window.localStorage.clear());
  for (const [link, works] of [
    [first!, false],
    [second!, true],
  ] as const) {
    await page.goto(link);
    await page.getByLabel('パスワード', { exact: true }).fill(PASSWORD);
    await page.getByLabel('パスワード（確認用）').fill(PASSWORD);
    await page.getByRole('button', { name: 'パスワードを設定する' }).click();
    if (works) {
      await expect(page).toHaveURL(/\/login\/\?isRegist=1$/);
    } else {
      await expect(page.getByText('アクティベートキーが無効です。', { exact: false })).toBeVisible();
    }
  }
});
