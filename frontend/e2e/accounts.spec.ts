import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  PASSWORD,
  login,
  mailedLink,
  register,
  registeredMember,
  storedToken,
  submitLogin,
  uniqueEmail,
} from './accounts';

const SITE = 'ぐんまクラウドファンディング';

test('a new member registers from the mailed link, logs in and reaches my page', async ({ page }) => {
  const email = uniqueEmail('register');

  await register(page, email);
  await submitLogin(page, email, PASSWORD);

  await expect(page).toHaveURL(/\/account\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'マイページ' })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await expect(page).toHaveTitle(`マイページ | ${SITE}`);
  const token = JSON.parse((await storedToken(page)) ?? 'null') as { type: string; token: string } | null;
  expect(token?.type).toBe('Bearer');
  expect(token?.token.length).toBeGreaterThan(0);
});

test('login explains a wrong password and an unknown address', async ({ page }) => {
  const email = uniqueEmail('wrong');
  await register(page, email);

  await submitLogin(page, email, 'not-the-password');
  await expect(page.getByRole('alert')).toContainText('パスワードが間違っています');
  await expect(page).toHaveURL(/\/login\//);

  await submitLogin(page, uniqueEmail('nobody'), PASSWORD);
  await expect(page.getByRole('alert')).toContainText('登録されていないメールアドレスです。');
  await expect(page).toHaveURL(/\/login\//);
});

test('ten wrong passwords lock the account, and then even the right one is refused', async ({ page }) => {
  const email = uniqueEmail('lockout');
  await register(page, email);

  for (let attempt = 1; attempt <= 10; attempt += 1) {
    await submitLogin(page, email, `wrong-password-${attempt}`);
  }
  await expect(page.getByRole('alert')).toContainText('までログインが制限されています');

  await submitLogin(page, email, PASSWORD);
  await expect(page.getByRole('alert')).toContainText('までログインが制限されています');
  await expect(page).toHaveURL(/\/login\//);
  expect(await storedToken(page)).toBeNull();
});

test('a forgotten password is reset through the mailed link', async ({ page }) => {
  const email = uniqueEmail('reset');
  const newPassword = 'fresh-pass-2026';
  await register(page, email);

  await page.goto('/forgot-password/');
  await page.getByLabel('メールアドレス').fill(email);
  await page.getByRole('button', { name: '再設定メールを送信する' }).click();
  await expect(page.getByText('パスワード再設定用のメールを送信しました。', { exact: false })).toBeVisible();

  // The first mail is the activation; the second carries the reset link.
  await page.goto(await mailedLink(email, '/reset-password/?secret=', 2));
  await page.getByLabel('新しいパスワード', { exact: true }).fill(newPassword);
  await page.getByLabel('新しいパスワード（確認用）').fill(newPassword);
  await page.getByRole('button', { name: 'パスワードを再設定する' }).click();

  await expect(page).toHaveURL(/\/login\/\?isResetPass=1$/);
  await expect(page.getByText('パスワードを再設定しました。新しいパスワードでログインしてください。')).toBeVisible();
  await submitLogin(page, email, PASSWORD);
  await expect(page.getByRole('alert')).toContainText('パスワードが間違っています');
  await submitLogin(page, email, newPassword);
  await expect(page).toHaveURL(/\/account\/$/);
});

test('my page asks a visitor to log in and comes back after login', async ({ page }) => {
  const email = uniqueEmail('protected');
  await register(page, email);

  await page.goto('/account/');
  const dialog = page.getByRole('alertdialog', { name: 'ログインが必要です' });
  await expect(dialog).toContainText('このページを表示するにはログインが必要です。');
  await dialog.getByRole('button', { name: '閉じる' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/login\/$/);
  const saved = await page.evaluate(() => window.localStorage.getItem('fk'));
  expect(JSON.parse(saved ?? '{}')).toMatchObject({ loginRef: '/account/' });

  await page.goto('/edit/profile/');
  await expect(page).toHaveURL(/\/login\/$/);
  await page.getByRole('alertdialog', { name: 'ログインが必要です' }).getByRole('button', { name: '閉じる' }).click();
  await submitLogin(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/edit\/profile\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'プロフィール編集' })).toBeVisible();
});

test('a member edits the profile after confirming it', async ({ page }) => {
  await registeredMember(page, 'profile');

  await page.goto('/edit/profile');
  await page.getByLabel('ユーザー名').fill('jomo-taro');
  await page.getByLabel('表示名').fill('上州太郎');
  await page.getByLabel('自己紹介').fill('前橋で地域の祭りを応援しています。');
  await page.getByLabel('年代').selectOption('30代');
  await page.getByRole('button', { name: '確認する' }).click();
  await expect(page.getByText('上州太郎')).toBeVisible();
  await page.getByRole('button', { name: '登録する' }).click();

  await expect(page.getByText('プロフィールを更新しました。')).toBeVisible();
  await page.goto('/account/');
  await expect(page.getByText('上州太郎 さん')).toBeVisible();
});

test('changing the password replaces the token and the old one is refused', async ({ page }) => {
  const { email } = await registeredMember(page, 'password');
  const newPassword = 'changed-pass-2026';
  const oldToken = await storedToken(page);

  await page.goto('/edit/password');
  await page.getByLabel('現在のパスワード').fill(PASSWORD);
  await page.getByLabel('新しいパスワード', { exact: true }).fill(newPassword);
  await page.getByLabel('新しいパスワード（確認用）').fill(newPassword);
  await page.getByRole('button', { name: 'パスワードを変更する' }).click();

  await expect(page.getByText('パスワードを更新しました。')).toBeVisible();
  await expect(page.getByRole('button', { name: 'パスワードを変更する' })).toBeDisabled();
  const newToken = await storedToken(page);
  expect(newToken).not.toBe(oldToken);

  // The new token keeps the member logged in.
  await page.reload();
  await expect(page.getByLabel('現在のパスワード')).toBeVisible();

  // The old token no longer works: reloading with it ends on the login page.
  await page.evaluate((token) => window.localStorage.setItem('jwt', token ?? ''), oldToken);
  await page.reload();
  await expect(page).toHaveURL(/\/login\/\?expired=1$/);
  const expired = page.getByRole('alertdialog', { name: 'ログインの有効期限切れ' });
  await expect(expired).toContainText('ログイン有効期限が切れました。お手数ですが再度ログインしなおしてください。');
  await expired.getByRole('button', { name: '閉じる' }).click();
  await expect(page.getByText('ログイン有効期限が切れました。お手数ですが再度ログインしなおしてください。')).toBeVisible();

  await submitLogin(page, email, newPassword);
  await expect(page).toHaveURL(/\/edit\/password$/);
});

// The server's e-mail change contract: the current password in updateEmail, a new token from updateLoginEmail.
test('the e-mail address changes through the mailed link, after the current password', async ({ page }) => {
  const { email } = await registeredMember(page, 'email-old');
  const newEmail = uniqueEmail('email-new');

  await page.goto('/edit/email');
  await page.getByLabel('新しいメールアドレス').fill(newEmail);
  const password = page.getByLabel('現在のパスワード');
  await expect(password).toHaveAttribute('type', 'password');
  // [server contract #8] a wrong current password is refused with the reissue link.
  await password.fill('not-my-password');
  await page.getByRole('button', { name: '確認メールを送信する' }).click();
  await expect(page.getByRole('alert')).toContainText('現在のパスワードが正しくありません。');
  await expect(page.getByRole('link', { name: 'パスワードをお忘れの方はこちら' })).toBeVisible();

  await password.fill(PASSWORD);
  await page.getByRole('button', { name: '確認メールを送信する' }).click();
  await expect(
    page.getByText('ご入力のメールアドレスに確認メールを送信しました。メールに記載されたURLを開くまで変更は完了しません。'),
  ).toBeVisible();

  const tokenBefore = await storedToken(page);
  await page.goto(await mailedLink(newEmail, '/edit/email/updated?activate='));
  await expect(page.getByText('メールアドレスの変更が完了しました。')).toBeVisible();
  await expect(page.getByText(newEmail)).toBeVisible();
  // [server contract #8] every other session ends; this one continues with the answer's new token.
  expect(await storedToken(page)).not.toBe(tokenBefore);
  await page.goto('/account/');
  await expect(page.getByRole('heading', { level: 1, name: 'マイページ' })).toBeVisible();
  await expect(page.getByText(newEmail)).toBeVisible();

  await page.getByRole('button', { name: 'メニューを開く' }).click();
  await page.getByRole('button', { name: 'ログアウト' }).click();
  await expect(page).toHaveURL(/\/login\/$/);
  await submitLogin(page, email, PASSWORD);
  await expect(page.getByRole('alert')).toContainText('登録されていないメールアドレスです。');
  await submitLogin(page, newEmail, PASSWORD);
  await expect(page).toHaveURL(/\/account\/$/);
  await expect(page.getByText(newEmail)).toBeVisible();
});

test('a delivery address is filled from the zip code and registered', async ({ page }) => {
  await registeredMember(page, 'address');

  await page.goto('/edit/addresses');
  await page.getByLabel('お名前').fill('上州太郎');
  await page.getByLabel('電話番号').fill('0272000000');
  await page.getByLabel('都道府県').selectOption('東京都');
  await page.getByLabel('郵便番号').fill('3710023');

  await expect(page.getByLabel('都道府県')).toHaveValue('群馬県');
  await expect(page.getByLabel('市区町村')).toHaveValue('前橋市');
  await expect(page.getByLabel('番地')).toHaveValue(/^本町/);

  await page.getByLabel('番地').fill('本町2-12-1');
  await page.getByRole('button', { name: '確認する' }).click();
  await page.getByRole('button', { name: '登録する' }).click();
  await expect(page.getByText('お届け先を登録しました')).toBeVisible();

  await page.goto('/account/');
  await expect(page.getByText(/〒3710023 群馬県前橋市本町2-12-1/)).toBeVisible();
});

test('a new member has no payment history yet', async ({ page }) => {
  await registeredMember(page, 'history');

  await page.goto('/edit/payment-list');

  await expect(page.getByRole('heading', { level: 1, name: 'お支払い履歴' })).toBeVisible();
  await expect(page.getByText('現在お支払いの履歴はございません。')).toBeVisible();
});

test('logging in again after logout needs the password', async ({ page }) => {
  const { email } = await registeredMember(page, 'logout');

  await page.getByRole('button', { name: 'メニューを開く' }).click();
  await page.getByRole('button', { name: 'ログアウト' }).click();

  await expect(page).toHaveURL(/\/login\/$/);
  expect(await storedToken(page)).toBeNull();
  await login(page, email);
});

/** An 8 x 8 PNG: the server decodes uploads, so it must be a real image. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR4nGM4IWeDFTEMLQkAd2xIgco4MNEAAAAASUVORK5CYII=',
  'base64',
);

/** Chooses `name` through the visible 画像を選択する button (by keyboard) and returns the uploaded image's URL. */
const uploadThroughButton = async (page: Page, group: string, name: string): Promise<string> => {
  const button = page.getByRole('group', { name: group }).getByRole('button', { name: '画像を選択する' });
  await expect(button).toBeVisible();
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    button.focus().then(() => page.keyboard.press('Enter')),
  ]);
  const [response] = await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === '/v1/user/set/uploadfile'),
    chooser.setFiles({ name, mimeType: 'image/png', buffer: PNG }),
  ]);
  expect(response.ok()).toBeTruthy();
  return ((await response.json()) as { data: { uploaded: { url: string } } }).data.uploaded.url;
};

test('a second icon upload is the one shown after a reload, on the edit screen and my page', async ({ page }) => {
  await registeredMember(page, 'icon');
  await page.goto('/edit/profile');

  const first = await uploadThroughButton(page, 'プロフィールアイコン', 'first.png');
  await expect(page.getByText('プロフィールアイコンを登録しました。')).toBeVisible();
  const second = await uploadThroughButton(page, 'プロフィールアイコン', 'second.png');
  expect(second).not.toBe(first);

  await page.reload();
  await expect(page.getByRole('img', { name: 'プロフィールアイコン' })).toHaveAttribute('src', second);
  await page.goto('/account/');
  await expect(page.getByRole('img', { name: 'プロフィールアイコン' })).toHaveAttribute('src', second);
});

test('the company logo is chosen through the visible button and shown after a reload', async ({ page }) => {
  await registeredMember(page, 'logo');
  await page.goto('/edit/corporate');

  await uploadThroughButton(page, '企業ロゴ', 'logo-1.png');
  const newest = await uploadThroughButton(page, '企業ロゴ', 'logo-2.png');
  await expect(page.getByText('企業ロゴを登録しました。')).toBeVisible();

  await page.reload();
  await expect(page.getByRole('img', { name: '企業ロゴ' })).toHaveAttribute('src', newest);
});
