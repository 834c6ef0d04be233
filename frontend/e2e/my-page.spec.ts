import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { registeredMember } from './accounts';
import {
  chooseMethod,
  expectStep,
  expectThanks,
  fillInfoStep,
  payButton,
  projectDetail,
  registerCard,
  startSupport,
  CARDS,
} from './payment';

/**
 * My page's 支援したプロジェクト on a phone: a new member backs the rose garden's seedling by card; the operator marks
 * the support 発送済み and publishes news for the seedling's supporters, then (newer) news for another return's and
 * a public item for tomorrow. The member's line shows the return 発送済み with the day and links the news they
 * may read, never the other two.
 */

const ADMIN = 'demo-admin@example.jp';
const DEMO_PASSWORD = 'demo-password-1';
const ROSE = 'maebashi-rose-garden';
const ROSE_TITLE = '前橋ばら園 花壇よみがえりプロジェクト';
const SEEDLING = 'ばらの苗木 1鉢（数量限定・配送あり）';

const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** Today in Tokyo, as YYYY-MM-DD and as the screen writes it. */
const tokyoToday = (): { iso: string; ja: string } => {
  const [year, month, day] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(new Date()).split('-');
  return { iso: `${year}-${month}-${day}`, ja: `${Number(year)}年${Number(month)}月${Number(day)}日` };
};

const tokenOf = async (request: APIRequestContext, email: string, password: string): Promise<string> => {
  const response = await request.post('/v1/user/login', { data: { email, password } });
  expect(response.ok(), `login of ${email}`).toBeTruthy();
  return ((await response.json()) as { token: string }).token;
};

const publishNews = async (
  request: APIRequestContext,
  admin: string,
  projectId: number,
  title: string,
  audience: { audience: 'public' | 'supporters'; returnIds: number[] },
  publishAt: string | null = null,
): Promise<void> => {
  const response = await request.post(`/v1/admin/projects/${projectId}/news`, {
    headers: { Authorization: `Bearer ${admin}` },
    data: { title, body: '<p>ご支援ありがとうございます。</p>', ...audience, publish: true, publishAt, mailSupporters: false },
  });
  expect(response.ok(), await response.text()).toBeTruthy();
};

test.use({ viewport: { width: 390, height: 844 } });

test('a member sees their return 発送済み and the news they may read on my page at 390 px', async ({ page, request }) => {
  const account = await registeredMember(page, 'mypage');
  await startSupport(page, ROSE, SEEDLING);
  await fillInfoStep(page, { displayname: 'マイページの会員', address: true });
  await chooseMethod(page, 'クレジットカード');
  await expectStep(page, 3, 'お支払い情報');
  await registerCard(page, CARDS.visa);
  await page.getByRole('dialog', { name: 'お支払いに使うカードを選択' }).getByRole('button', { name: 'このカードで支払う' }).click();
  await page.getByRole('button', { name: '次へ' }).click();
  await expectStep(page, 4, '確認');
  await payButton(page).click();
  await expectThanks(page);

  // Before shipping: 未発送.
  await page.goto('/account/');
  const region = page.getByRole('region', { name: '支援したプロジェクト' });
  const line = region.getByRole('article', { name: ROSE_TITLE });
  await expect(line.getByText(`${SEEDLING} × 1口`)).toBeVisible();
  await expect(line.getByText('未発送', { exact: true })).toBeVisible();

  // The operator ships it and writes news: for the seedling's supporters, then for another return's (newer), and a
  // public item for tomorrow.
  const member = await tokenOf(request, account.email, account.password);
  const supports = await request.get('/v1/user/supports', { headers: { Authorization: `Bearer ${member}` } });
  const body = (await supports.json()) as { projects: { slug: string; saleIds: number[] }[] };
  const saleId = body.projects.find((p) => p.slug === ROSE)!.saleIds[0];
  const project = await projectDetail(request, ROSE);
  const seedling = project.returns.find((r) => r.title === SEEDLING)!.id;
  const other = project.returns.find((r) => r.title !== SEEDLING)!.id;
  const admin = await tokenOf(request, ADMIN, DEMO_PASSWORD);
  const today = tokyoToday();
  const shipped = await request.post(`/v1/admin/projects/${project.id}/deliveries`, {
    headers: { Authorization: `Bearer ${admin}` },
    data: { saleIds: [saleId], state: 'shipped', shippedOn: today.iso, note: null },
  });
  expect(shipped.ok(), await shipped.text()).toBeTruthy();
  const mine = unique('苗木をお届けしました');
  const notMine = unique('ほかのリターンの方へ');
  const tomorrow = unique('明日のお知らせ');
  await publishNews(request, admin, project.id, mine, { audience: 'supporters', returnIds: [seedling] });
  await publishNews(request, admin, project.id, notMine, { audience: 'supporters', returnIds: [other] });
  const later = new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString();
  await publishNews(request, admin, project.id, tomorrow, { audience: 'public', returnIds: [] }, later);

  await page.reload();
  await expect(line.getByText('発送済み', { exact: true })).toBeVisible();
  await expect(line).toContainText(`（${today.ja} 発送）`);
  await expect(line.getByText('未発送', { exact: true })).toHaveCount(0);
  const news = line.getByRole('link', { name: mine });
  await expect(news).toHaveAttribute('href', `/projects/${ROSE}/#news`);
  await expect(line.getByText(today.ja).last()).toBeVisible();
  await expect(page.getByText(notMine)).toHaveCount(0);
  await expect(page.getByText(tomorrow)).toHaveCount(0);
  await expect(line.getByRole('link', { name: 'お支払い履歴' })).toBeVisible();
  await expect(line.getByRole('link', { name: '領収書' })).toBeVisible();
  // Nothing wider than the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // The link opens the project's news, where the item is readable.
  await news.click();
  await expect(page).toHaveURL(new RegExp(`/projects/${ROSE}/#news$`));
  await expect(page.getByRole('heading', { name: mine }).first()).toBeVisible();
});
