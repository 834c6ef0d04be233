import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { mailBody, waitForMails } from './mail';

const SITE = 'ぐんまクラウドファンディング';
const CONFIRMATION_SENT =
  'ご登録のメールアドレスに確認メールを送信しました。メールに記載されたURLからパスワードを設定してください。';

const submitSignup = async (page: Page, email: string) => {
  await page.goto('/signup/');
  await page.getByLabel('メールアドレス').fill(email);
  await page.getByRole('checkbox', { name: '利用規約とプライバシーポリシーに同意する' }).check();
  await page.getByRole('button', { name: '確認メールを送信する' }).click();
};

/** The activation links of a mail: URLs that lead to `/signup/password/?activate=...`. */
const activationLinks = (body: string): string[] =>
  body.match(/https?:\/\/[^\s"'<>]*\/signup\/password\/\?activate=[^\s"'<>&]+/g) ?? [];

test('signup validates the e-mail address before it can be sent', async ({ page }) => {
  await page.goto('/signup/');
  await expect(page).toHaveTitle(`新規会員登録 | ${SITE}`);
  const input = page.getByLabel('メールアドレス');
  const submit = page.getByRole('button', { name: '確認メールを送信する' });

  await expect(submit).toBeDisabled();
  await input.focus();
  await input.blur();
  await expect(page.getByText('メールアドレスを入力してください')).toBeVisible();

  await input.fill('not-an-address');
  await expect(page.getByText('正しいメールアドレスの形式で入力してください')).toBeVisible();
  await expect(submit).toBeDisabled();

  await input.fill('taro@example.jp');
  await expect(page.getByText('正しいメールアドレスの形式で入力してください')).toBeHidden();
  // The agreement to the terms and the privacy policy comes before sending.
  await expect(submit).toBeDisabled();
  await page.getByRole('checkbox', { name: '利用規約とプライバシーポリシーに同意する' }).check();
  await expect(submit).toBeEnabled();
});

test('a new address receives an activation mail, and signing up again sends a new one', async ({ page }) => {
  const email = `e2e-${Date.now()}@example.jp`;

  await submitSignup(page, email);
  await expect(page.getByText(CONFIRMATION_SENT)).toBeVisible();

  const firstMails = await waitForMails(email, 1);
  expect(firstMails).toHaveLength(1);
  const firstLinks = activationLinks(mailBody(firstMails[0]!));
  expect(firstLinks, `activation link in: ${firstMails[0]!.subject}`).toHaveLength(1);

  // A provisional account that signs up again gets a fresh mail and the same answer.
  await submitSignup(page, email);
  await expect(page.getByText(CONFIRMATION_SENT)).toBeVisible();

  const mails = await waitForMails(email, 2);
  expect(mails).toHaveLength(2);
  const newestLinks = activationLinks(mailBody(mails[1]!));
  expect(newestLinks).toHaveLength(1);
  // A fresh key, not the first mail sent again.
  expect(newestLinks[0]).not.toBe(firstLinks[0]);
});

test('an unknown path shows the not-found page', async ({ page }) => {
  await page.goto(`/no-such-page-${Date.now()}/`);

  await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
  await expect(page.getByText('お探しのページが見つかりませんでした。')).toBeVisible();
  await expect(page).toHaveTitle(`お探しのページが見つかりませんでした | ${SITE}`);
  await page.getByRole('link', { name: 'トップページへ戻る' }).click();
  await expect(page).toHaveURL(/\/$/);
});
