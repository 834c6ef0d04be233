import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';

/** The local payment server (localstripe with our bank-transfer emulation). */
export const STRIPE_API_BASE = process.env.STRIPE_API_BASE ?? 'http://127.0.0.1:8420/';
const STRIPE_AUTH = { Authorization: 'Bearer sk_test_local' };

export const DEMO_MEMBER = { email: 'demo-taro@example.jp', password: 'demo-password-1' };

/** Test cards of the fake Stripe.js / localstripe. */
export const CARDS = {
  visa: '4242424242424242',
  mastercard: '5555555555554444',
  declined: '4000000000000341',
  threeDSecure: '4000002500003155',
  /** Asks for 3-D Secure on every set-up and payment. */
  alwaysAuthenticate: '4000002760003184',
} as const;

export const yen = (amount: number): string => `${amount.toLocaleString('ja-JP')}円`;

/** The figure in a text such as '1,234,000円'. */
export const yenValue = (text: string): number => Number(text.replace(/[^\d]/g, ''));

export interface ProjectReturn {
  id: number;
  slug: string;
  title: string;
  total: number;
  remaining: number | null;
  purchasable: boolean;
}

export interface ProjectDetail {
  id: number;
  slug: string;
  title: string;
  returns: ProjectReturn[];
  anonymousBank: null | { bankAccount: string; branch: string; kinds: string; number: string; nominee: string };
}

export const projectDetail = async (request: APIRequestContext, slug: string): Promise<ProjectDetail> => {
  const response = await request.get(`/v1/project/get/detail?slug=${encodeURIComponent(slug)}`);
  expect(response.ok(), `project ${slug} answered ${response.status()}`).toBeTruthy();
  return ((await response.json()) as { project: ProjectDetail }).project;
};

export const returnOf = (project: ProjectDetail, slug: string): ProjectReturn => {
  const found = project.returns.find((ret) => ret.slug === slug);
  if (!found) throw new Error(`${project.slug} has no return ${slug}`);
  return found;
};

/** A return's card on its project page. */
export const returnCard = (page: Page, title: string): Locator =>
  page.locator('#returns').getByRole('article', { name: title, exact: true });

/** Project page → the return's support button. A visitor gets the support-type modal, a member step 1. */
export const startSupport = async (page: Page, projectSlug: string, returnTitle: string): Promise<void> => {
  await page.goto(`/projects/${projectSlug}/`);
  await returnCard(page, returnTitle).getByRole('button', { name: 'このリターンで支援する' }).click();
};

export const supportTypeDialog = (page: Page): Locator => page.getByRole('dialog', { name: '支援方法を選択してください' });

/** Project page → support button → 'ゲストとして支援する': ends on step 1. */
export const startGuestSupport = async (page: Page, projectSlug: string, returnTitle: string): Promise<void> => {
  await startSupport(page, projectSlug, returnTitle);
  await supportTypeDialog(page).getByRole('button', { name: 'ゲストとして支援する' }).click();
  await expectStep(page, 1, 'ご支援内容');
};

/** The step counter shows `step` as the current one. */
export const expectStep = async (page: Page, step: number, label: string): Promise<void> => {
  const steps = page.getByRole('list', { name: 'お申し込みの手順' });
  await expect(steps).toBeVisible();
  await expect(steps.getByRole('listitem')).toHaveCount(5);
  await expect(steps.locator('[aria-current="step"]')).toHaveText(`${step}${label}`);
};

export interface InfoStep {
  displayname: string;
  email?: string;
  comment?: string;
  lot?: number;
  additional?: { label: string; answer: string };
  address?: boolean;
}

/** Types a delivery address that the address rules accept. */
export const fillAddress = async (page: Page): Promise<void> => {
  const region = page.getByRole('region', { name: 'お届け先' });
  await region.getByRole('textbox', { name: 'お名前' }).fill('上州 太郎');
  await region.getByRole('textbox', { name: '電話番号' }).fill('0272000000');
  await region.getByRole('textbox', { name: '郵便番号' }).fill('3710023');
  await region.getByRole('combobox', { name: '都道府県' }).selectOption('群馬県');
  await region.getByRole('textbox', { name: '市区町村' }).fill('前橋市');
  await region.getByRole('textbox', { name: '番地' }).fill('本町1-1-1');
};

/** Step 1: what the supporter types, both agreements, then 次へ (ends on step 2). */
export const fillInfoStep = async (page: Page, info: InfoStep): Promise<void> => {
  await expectStep(page, 1, 'ご支援内容');
  if (info.email !== undefined) await page.getByRole('textbox', { name: 'メールアドレス' }).fill(info.email);
  if (info.lot !== undefined) await page.getByRole('combobox', { name: '口数' }).selectOption(String(info.lot));
  await page.getByRole('textbox', { name: '表示名' }).fill(info.displayname);
  if (info.comment) await page.getByRole('textbox', { name: /応援コメント/ }).fill(info.comment);
  if (info.additional) await page.getByRole('textbox', { name: info.additional.label }).fill(info.additional.answer);
  if (info.address) await fillAddress(page);
  await page.getByRole('checkbox', { name: '利用規約に同意する' }).check();
  await page.getByRole('checkbox', { name: '反社会的勢力ではないことを確認する' }).check();
  await page.getByRole('button', { name: '次へ' }).click();
  await expectStep(page, 2, 'お支払い方法');
};

/** Step 2: the method, then 次へ. */
export const chooseMethod = async (page: Page, method: 'クレジットカード' | '銀行振込' | 'コンビニ決済'): Promise<void> => {
  await page.getByRole('radio', { name: new RegExp(`^${method}`) }).check();
  await page.getByRole('button', { name: '次へ' }).click();
};

/**
 * Types a card into the card field. The fake Stripe.js renders plain inputs named by their placeholders
 * (number, exp_month, exp_year as two digits, cvc, postal_code) inside our labelled group.
 */
export const typeCard = async (scope: Page | Locator, number: string): Promise<void> => {
  const group = scope.getByRole('group', { name: /^カード情報/ });
  await group.getByRole('textbox', { name: 'number' }).fill(number);
  await group.getByRole('textbox', { name: 'exp_month' }).fill('12');
  await group.getByRole('textbox', { name: 'exp_year' }).fill('34');
  await group.getByRole('textbox', { name: 'cvc' }).fill('123');
  await group.getByRole('textbox', { name: 'postal_code' }).fill('37100');
};

const asksForAuthentication = (number: string): boolean =>
  number === CARDS.threeDSecure || number === CARDS.alwaysAuthenticate;

/** The fake Stripe.js's 3-D Secure box, answered. */
export const answerThreeDSecure = async (page: Page, complete: boolean): Promise<void> => {
  await expect(page.getByText(/Do you want to confirm or cancel\?/)).toBeVisible();
  await page.getByRole('button', { name: complete ? 'Complete authentication' : 'Fail authentication' }).click();
};

/** Step 3 of a member: registers a card in the modal (3-D Secure passed when it asks); the card-select modal opens next. */
export const registerCard = async (page: Page, number: string): Promise<void> => {
  await page.getByRole('button', { name: '新しいカードを登録する' }).click();
  const modal = page.getByRole('dialog', { name: 'クレジットカードの登録' });
  await typeCard(modal, number);
  await modal.getByRole('button', { name: '登録する' }).click();
  if (asksForAuthentication(number)) await answerThreeDSecure(page, true);
  await expect(page.getByText('クレジットカードの登録が完了しました。')).toBeVisible();
};

/** Step 3 of a guest: the card for this payment only (3-D Secure passed when it asks), then 次へ (ends on step 4). */
export const enterGuestCard = async (page: Page, number: string): Promise<void> => {
  await expectStep(page, 3, 'お支払い情報');
  await typeCard(page, number);
  await page.getByRole('button', { name: '次へ' }).click();
  if (asksForAuthentication(number)) await answerThreeDSecure(page, true);
  await expectStep(page, 4, '確認');
};

/** Step 4's confirm button: '{total}円を支払う'. */
export const payButton = (page: Page): Locator => page.getByRole('button', { name: /円を支払う$/ });

export const expectThanks = async (page: Page): Promise<void> => {
  await expect(page).toHaveURL(/\/payment\/complete\//);
  await expectStep(page, 5, '完了');
  await expect(page.getByRole('status').filter({ hasText: 'ご支援ありがとうございました。' })).toBeVisible();
};

/** The project page's raised total (支援総額). */
export const raisedTotal = async (page: Page, projectSlug: string): Promise<number> => {
  await page.goto(`/projects/${projectSlug}/`);
  const figure = page.locator('dt', { hasText: /^支援総額$/ }).locator('xpath=following-sibling::dd[1]');
  await expect(figure).toHaveText(/\d円$/);
  return yenValue(await figure.innerText());
};

/** The provider customer of a supporter, found by e-mail on the local payment server (unique addresses only). */
export const customerOf = async (email: string): Promise<string> => {
  let id: string | undefined;
  await expect
    .poll(async () => {
      const response = await fetch(`${STRIPE_API_BASE}v1/customers?email=${encodeURIComponent(email)}&limit=2`, {
        headers: STRIPE_AUTH,
      });
      const list = (await response.json()) as { data: Array<{ id: string }> };
      expect(list.data.length, `one customer for ${email}`).toBeLessThanOrEqual(1);
      id = list.data[0]?.id;
      return id;
    })
    .toBeTruthy();
  return id!;
};

/** Plays a bank transfer arriving at the supporter's account (Stripe's test helper). */
export const fundBankTransfer = async (email: string, amount: number): Promise<void> => {
  const customer = await customerOf(email);
  const response = await fetch(`${STRIPE_API_BASE}v1/test_helpers/customers/${customer}/fund_cash_balance`, {
    method: 'POST',
    headers: { ...STRIPE_AUTH, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ amount: String(amount), currency: 'jpy' }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
};

/**
 * A guest's card set up as the card form does it: the site starts a set-up, and what Stripe.js's
 * `confirmCardSetup` does follows at the local payment server. The PaymentMethod to pay with.
 */
export const setUpGuestCard = async (request: APIRequestContext, number: string): Promise<string> => {
  const started = await request.post('/v1/stripe/set/cardSetup');
  expect(started.ok(), `card set-up answered ${started.status()}`).toBeTruthy();
  const { clientSecret } = (await started.json()) as { clientSecret: string };
  const setupId = clientSecret.split('_secret_')[0];
  const response = await fetch(`${STRIPE_API_BASE}v1/setup_intents/${setupId}/confirm`, {
    method: 'POST',
    headers: { ...STRIPE_AUTH, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_secret: clientSecret,
      'payment_method_data[type]': 'card',
      'payment_method_data[card][number]': number,
      'payment_method_data[card][exp_month]': '12',
      'payment_method_data[card][exp_year]': '2031',
      'payment_method_data[card][cvc]': '123',
    }).toString(),
  });
  const setup = (await response.json()) as { status: string; payment_method: string };
  expect(setup.status, JSON.stringify(setup)).toBe('succeeded');
  return setup.payment_method;
};

/** A guest's support through the API: by bank transfer, or (`by: 'card'`) paid at once with a good card. */
export const placeGuestSupport = async (
  request: APIRequestContext,
  project: ProjectDetail,
  ret: ProjectReturn,
  lot: number,
  email: string,
  by: 'transfer' | 'card' = 'transfer',
) => {
  const registered = await request.post('/v1/user/register', { data: { email, isGuest: true } });
  expect(registered.ok(), `guest registration answered ${registered.status()}`).toBeTruthy();
  const card = by === 'card' ? { card: { paymentMethod: await setUpGuestCard(request, CARDS.visa) } } : {};
  return request.post('/v1/payment/set/support', {
    data: {
      ...card,
      projectId: project.id,
      returnId: ret.id,
      lot,
      paymentType: by === 'card' ? 1 : 2,
      idempotencyKey: `e2e-${Date.now()}-${Math.random().toString(36).slice(2)}`,
      displayname: '別の支援者',
      anonymous: false,
      agreeTerms: true,
      notAntisocial: true,
      guestEmail: email,
    },
  });
};
