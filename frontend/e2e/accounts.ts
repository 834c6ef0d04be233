import { expect, type Page } from '@playwright/test';
import { mailBody, waitForMails } from './mail';

/** A fresh address per call, so runs never collide. */
export const uniqueEmail = (label: string): string =>
  `e2e-${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.jp`;

export const PASSWORD = 'gunma-pass-2026';

/** Links of a mail that lead to `pathPrefix` (such as `/reset-password/?secret=`), as paths of this site. */
export const linksTo = (body: string, pathPrefix: string): string[] => {
  const escaped = pathPrefix.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const pattern = new RegExp(`https?://[^\\s"'<>]*${escaped}[^\\s"'<>&]+`, 'g');
  return (body.match(pattern) ?? []).map((link) => {
    const url = new URL(link);
    return `${url.pathname}${url.search}`;
  });
};

/** The newest link to `pathPrefix` in the mails to `address`, waiting for the `count`-th mail. */
export const mailedLink = async (address: string, pathPrefix: string, count = 1): Promise<string> => {
  const mails = await waitForMails(address, count);
  for (const mail of [...mails].reverse()) {
    const [link] = linksTo(mailBody(mail), pathPrefix);
    if (link) return link;
  }
  throw new Error(`no link to ${pathPrefix} in the mails to ${address}`);
};

/** Signs up `email`, opens the activation link and sets `password`; ends on /login/?isRegist=1. */
export const register = async (page: Page, email: string, password = PASSWORD): Promise<void> => {
  await page.goto('/signup/');
  await page.getByLabel('メールアドレス').fill(email);
  await page.getByRole('checkbox', { name: '利用規約とプライバシーポリシーに同意する' }).check();
  await page.getByRole('button', { name: '確認メールを送信する' }).click();
  await expect(page.getByText('ご登録のメールアドレスに確認メールを送信しました。', { exact: false })).toBeVisible();

  await page.goto(await mailedLink(email, '/signup/password/?activate='));
  await expect(page.getByRole('heading', { level: 1, name: 'パスワード設定' })).toBeVisible();
  await page.getByLabel('パスワード', { exact: true }).fill(password);
  await page.getByLabel('パスワード（確認用）').fill(password);
  await page.getByRole('button', { name: 'パスワードを設定する' }).click();

  await expect(page).toHaveURL(/\/login\/\?isRegist=1$/);
  await expect(page.getByText('パスワードの設定が完了しました。ログインしてください。')).toBeVisible();
};

/** Fills and sends the login form of the current page (which must be /login/). */
export const submitLogin = async (page: Page, email: string, password: string): Promise<void> => {
  await page.getByLabel('メールアドレス').fill(email);
  await page.getByLabel('パスワード', { exact: true }).fill(password);
  await Promise.all([
    page.waitForResponse((response) => new URL(response.url()).pathname === '/v1/user/login'),
    page.getByRole('button', { name: 'ログインする' }).click(),
  ]);
};

/** Logs in from /login/ and waits for my page. */
export const login = async (page: Page, email: string, password = PASSWORD): Promise<void> => {
  await page.goto('/login/');
  await submitLogin(page, email, password);
  await expect(page).toHaveURL(/\/account\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'マイページ' })).toBeVisible();
};

/** A registered, logged-in member on my page. */
export const registeredMember = async (page: Page, label: string): Promise<{ email: string; password: string }> => {
  const email = uniqueEmail(label);
  await register(page, email);
  await login(page, email);
  return { email, password: PASSWORD };
};

/** The stored session token, as the site keeps it in local storage `jwt`. */
export const storedToken = (page: Page): Promise<string | null> =>
  page.evaluate(() => window.localStorage.getItem('jwt'));
