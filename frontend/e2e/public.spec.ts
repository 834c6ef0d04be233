import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';

/**
 * The public pages against the demo data the backend seeds. Slugs are discovered from
 * GET /v1/helper/get/master at run time; nothing about the demo projects is hard-coded.
 */

const SITE = 'ぐんまクラウドファンディング';

interface Card {
  id: number;
  slug: string;
  title: string;
  isOpen: boolean;
  hasAnonymousBank: boolean;
}

interface Return {
  id: number;
  slug: string;
  title: string;
  purchasable: boolean;
  blockReason: string | null;
}

interface Detail extends Card {
  slider: Array<{ src: string }>;
  returns: Return[];
  anonymousBank: null | { bankAccount: string; number: string };
}

const yen = (amount: number) => `${amount.toLocaleString('ja-JP')}円`;

const getJson = async <T>(request: APIRequestContext, url: string): Promise<T> => {
  const response = await request.get(url);
  expect(response.ok(), `${url} answered ${response.status()}`).toBeTruthy();
  return (await response.json()) as T;
};

const projects = async (request: APIRequestContext): Promise<Card[]> =>
  (await getJson<{ master: { projects: Card[] } }>(request, '/v1/helper/get/master')).master.projects;

const details = async (request: APIRequestContext): Promise<Detail[]> => {
  const all = await projects(request);
  return Promise.all(
    all.map(async (project) =>
      (await getJson<{ project: Detail }>(request, `/v1/project/get/detail?slug=${encodeURIComponent(project.slug)}`)).project,
    ),
  );
};

// Demo accounts seeded by `app-server seed-demo` (docs: README, demo data).
const DEMO_PASSWORD = 'demo-password-1';

const tokenOf = async (request: APIRequestContext, email: string): Promise<string> => {
  const response = await request.post('/v1/user/login', { data: { email, password: DEMO_PASSWORD } });
  expect(response.ok(), `login of ${email}`).toBeTruthy();
  return ((await response.json()) as { token: string }).token;
};

/** Paths under /v1 the page asks for while it is open. */
const apiCallsOf = (page: Page): string[] => {
  const seen: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/v1/')) seen.push(url.pathname);
  });
  return seen;
};

const returnsSection = (page: Page) => page.locator('#returns');

const openSupportModal = async (page: Page, project: Detail, ret: Return) => {
  await page.goto(`/projects/${project.slug}/`);
  const article = returnsSection(page).getByRole('article', { name: ret.title, exact: true });
  await article.getByRole('button', { name: /このリターンで支援する/ }).click();
  const dialog = page.getByRole('dialog', { name: '支援方法を選択してください' });
  await expect(dialog).toBeVisible();
  return dialog;
};

const firstPurchasable = (all: Detail[], predicate: (project: Detail) => boolean = () => true) => {
  for (const project of all.filter(predicate)) {
    const ret = project.returns.find((candidate) => candidate.purchasable);
    if (ret) return { project, ret };
  }
  return null;
};

test.describe('home', () => {
  test('lists open projects before ended ones, in the API order, under the totals', async ({ page, request }) => {
    const all = await projects(request);
    expect(all.length).toBeGreaterThanOrEqual(6);
    const firstEnded = all.findIndex((project) => !project.isOpen);
    if (firstEnded >= 0) expect(all.slice(firstEnded).every((project) => !project.isOpen)).toBe(true);

    const { result } = await getJson<{ result: { amount: number; lot: number } }>(request, '/v1/sales/get/allSum');

    await page.goto('/');
    await expect(page).toHaveTitle(`地域の挑戦を応援するクラウドファンディング | ${SITE}`);
    const hero = page.getByRole('region', { name: /地域の「やりたい」/ });
    await expect(hero.getByText(yen(result.amount), { exact: true })).toBeVisible();
    await expect(hero.getByText(`${result.lot.toLocaleString('ja-JP')}人`, { exact: true })).toBeVisible();
    await expect(hero.getByRole('button', { name: 'メニューを開く' })).toBeVisible();

    const list = page.getByRole('list', { name: 'プロジェクト' });
    await expect(list.getByRole('heading', { level: 3 })).toHaveCount(all.length);
    await expect(list.getByRole('heading', { level: 3 })).toHaveText(all.map((project) => project.title));

    const first = list.getByRole('article').first();
    await expect(first.getByRole('link', { name: 'リターンを見る' })).toHaveAttribute('href', `/projects/${all[0]!.slug}/#returns`);
    await expect(first.getByText(/^残り\d+日$|^終了$/)).toBeVisible();
    await expect(first.getByText(/^\d+\.\d%$/)).toBeVisible();
  });
});

test.describe('first paint', () => {
  test('home and project pages draw their first screen from the page itself, without asking the API', async ({ page, request }) => {
    const [first] = await details(request);
    const calls = apiCallsOf(page);

    await page.goto('/');
    await expect(page.getByRole('list', { name: 'プロジェクト' }).getByRole('heading', { level: 3 }).first()).toHaveText(first!.title);
    await page.goto(`/projects/${first!.slug}/`);
    await expect(page.getByRole('heading', { level: 1, name: first!.title })).toBeVisible();

    expect(calls).not.toContain('/v1/helper/get/master');
    expect(calls).not.toContain('/v1/sales/get/allSum');
    expect(calls).not.toContain('/v1/project/get/detail');
  });

  test('the HTML arrives as the finished first screen, readable before any script runs', async ({ browser, request }) => {
    const [first] = await details(request);
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();

    await page.goto('/');
    await expect(page.getByRole('list', { name: 'プロジェクト' }).getByRole('heading', { level: 3 }).first()).toHaveText(first!.title);
    await expect(page.getByRole('link', { name: 'ログイン' }).first()).toBeVisible();
    await page.goto(`/projects/${first!.slug}/`);
    await expect(page.getByRole('heading', { level: 1, name: first!.title })).toBeVisible();
    await expect(returnsSection(page).getByRole('article').first()).toBeVisible();
    await context.close();
  });

  test('the browser takes the rendered screen over without an error and it responds', async ({ page, request }) => {
    const [first] = await details(request);
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));

    // The heading the server sent is marked before the app starts; a screen rendered afresh would lose the mark.
    await page.addInitScript(() =>
      document.addEventListener('DOMContentLoaded', () => document.querySelector('main h1')?.setAttribute('data-from-server', '')),
    );
    for (const path of ['/', `/projects/${first!.slug}/`]) {
      await page.goto(path);
      await page.getByRole('button', { name: 'メニューを開く' }).first().click();
      await expect(page.getByRole('navigation', { name: 'メニュー' })).toBeVisible();
      await expect(page.locator('[data-from-server]')).toHaveCount(1);
      await page.keyboard.press('Escape');
    }
    expect(errors).toEqual([]);
  });

  test('a logged-in visitor still gets the returns meant for them', async ({ page, request }) => {
    const token = await tokenOf(request, 'demo-vip@example.jp');
    const asVip = async (slug: string) => {
      const response = await request.get(`/v1/project/get/detail?slug=${encodeURIComponent(slug)}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      return ((await response.json()) as { project: Detail }).project;
    };
    const restricted = [];
    for (const anonymous of await details(request)) {
      const extra = (await asVip(anonymous.slug)).returns.filter((r) => !anonymous.returns.some((a) => a.id === r.id));
      if (extra.length > 0) restricted.push({ slug: anonymous.slug, extra });
    }
    expect(restricted.length, 'the demo data has a return restricted to demo-vip').toBeGreaterThan(0);

    // A visitor's page shows neither the restricted returns nor the hidden one (flag 900 and above).
    const { slug: restrictedSlug, extra: restrictedReturns } = restricted[0]!;
    await page.goto(`/projects/${restrictedSlug}/`);
    await expect(returnsSection(page).getByRole('article').first()).toBeVisible();
    for (const ret of restrictedReturns) {
      await expect(returnsSection(page).getByRole('article', { name: ret.title, exact: true })).toHaveCount(0);
    }
    await expect(page.getByText('関係者用（非表示）')).toHaveCount(0);

    await page.goto('/login/');
    await page.evaluate((stored) => localStorage.setItem('jwt', stored), JSON.stringify({ type: 'Bearer', token }));
    const { slug, extra } = restricted[0]!;
    await page.goto(`/projects/${slug}/`);
    for (const ret of extra) {
      await expect(returnsSection(page).getByRole('article', { name: ret.title, exact: true })).toBeVisible();
    }
  });
});

test.describe('project page', () => {
  test('has three tabs that switch panels', async ({ page, request }) => {
    const [project] = await projects(request);
    await page.goto(`/projects/${project!.slug}/`);
    await expect(page.getByRole('heading', { level: 1, name: project!.title })).toBeVisible();
    await expect(page).toHaveTitle(`${project!.title} | ${SITE}`);

    const tabs = page.getByRole('tab');
    await expect(tabs).toHaveText(['プロジェクト紹介', /^活動報告 \d+件$/, /^応援コメント \d+件$/]);
    await expect(page.getByRole('tab', { name: 'プロジェクト紹介' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tabpanel', { name: 'プロジェクト紹介' }).getByRole('heading', { name: '支援者の皆さま' })).toBeVisible();

    await page.getByRole('tab', { name: '活動報告' }).click();
    await expect(page.getByRole('tab', { name: '活動報告' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tabpanel', { name: '活動報告' })).toBeVisible();

    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('tab', { name: '応援コメント' })).toBeFocused();
    await expect(page.getByRole('tabpanel', { name: '応援コメント' })).toBeVisible();
  });

  test('scrolls to a hash anchor after arrival', async ({ page, request }) => {
    const [project] = await projects(request);
    await page.goto(`/projects/${project!.slug}/#returns`);
    await expect(returnsSection(page)).toBeInViewport();
  });

  // The hero's button starts below the first screen here and the scroll jumps over it: the button must still count
  // as passed although it was never on screen.
  test('on a tablet, a floating button leads to the returns once the hero button has scrolled away', async ({ page, request }) => {
    const [project] = await projects(request);
    // Phones get the support bar instead (project-page.spec.ts); from 1100 px the returns sit beside the tabs.
    await page.setViewportSize({ width: 900, height: 800 });
    await page.goto(`/projects/${project!.slug}/`);
    const floating = page.getByRole('button', { name: 'リターンを確認する' });
    const heroButton = page.getByRole('button', { name: /^リターン(を選ぶ|一覧を見る)$/ });
    // At 900 px the hero image is full width, so its button may sit just below the first screen.
    await expect(heroButton).toBeVisible();
    await expect(floating).toHaveCount(0);

    // Just past the hero's button (scrolled out of the screen), the returns still below.
    await heroButton.evaluate((button) => {
      window.scrollTo(0, window.scrollY + button.getBoundingClientRect().bottom + 20);
    });
    await expect(floating).toBeVisible();
    // One call to action: the phones' support bar stays hidden.
    await expect(page.getByRole('region', { name: '支援のご案内' })).toBeHidden();

    await floating.click();
    await expect(returnsSection(page)).toBeInViewport();
    await expect(floating).toHaveCount(0);
  });

  test('shows 支援上限に達しました on a sold-out return', async ({ page, request }) => {
    const all = await details(request);
    const soldOut = all
      .flatMap((project) => project.returns.map((ret) => ({ project, ret })))
      .find(({ ret }) => ret.blockReason === 'sold_out');
    expect(soldOut, 'the demo data has a sold-out return').toBeTruthy();

    await page.goto(`/projects/${soldOut!.project.slug}/`);
    const article = returnsSection(page).getByRole('article', { name: soldOut!.ret.title, exact: true });
    await expect(article.getByText('支援上限に達しました')).toBeVisible();
    await expect(article.getByRole('button')).toBeDisabled();
  });

  test('slides through the images with buttons, thumbnails and keys', async ({ page, request }) => {
    const all = await details(request);
    const project = all.find((candidate) => candidate.slider.length > 1);
    expect(project, 'the demo data has a project with slider images').toBeTruthy();

    await page.goto(`/projects/${project!.slug}/`);
    const thumbs = page.getByRole('button', { name: /^画像\d+を表示$/ });
    await expect(thumbs).toHaveCount(project!.slider.length);
    await expect(thumbs.nth(0)).toHaveAttribute('aria-current', 'true');

    await page.getByRole('button', { name: '次の画像' }).click();
    await expect(thumbs.nth(1)).toHaveAttribute('aria-current', 'true');

    await thumbs.nth(0).click();
    await expect(thumbs.nth(0)).toHaveAttribute('aria-current', 'true');

    await page.locator('.slider__viewport').focus();
    await page.keyboard.press('ArrowRight');
    await expect(thumbs.nth(1)).toHaveAttribute('aria-current', 'true');
    await page.keyboard.press('ArrowLeft');
    await expect(thumbs.nth(0)).toHaveAttribute('aria-current', 'true');
    await page.getByRole('button', { name: '前の画像' }).click();
    await expect(thumbs.nth(project!.slider.length - 1)).toHaveAttribute('aria-current', 'true');
  });

  test('an unknown slug shows Page Not Found', async ({ page }) => {
    await page.goto(`/projects/no-such-project-${Date.now()}/`);
    await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
  });

  test('the served HTML carries the project OGP tags', async ({ request }) => {
    const [project] = await projects(request);
    const response = await request.get(`/projects/${project!.slug}/`);
    expect(response.ok()).toBeTruthy();
    const html = await response.text();
    const escaped = project!.title
      .replaceAll('&', '&amp;')
      .replaceAll('<', '&lt;')
      .replaceAll('>', '&gt;')
      .replaceAll('"', '&quot;');
    const found = [project!.title, escaped].some((title) => html.includes(`<meta property="og:title" content="${title}`));
    expect(found, 'og:title meta with the project title').toBe(true);
  });
});

test.describe('support start', () => {
  test('offers the support choices and remembers a login choice', async ({ page, request }) => {
    const chosen = firstPurchasable(await details(request));
    expect(chosen, 'the demo data has a purchasable return').toBeTruthy();
    const { project, ret } = chosen!;

    const dialog = await openSupportModal(page, project, ret);
    await expect(dialog.getByRole('button', { name: 'ログインして支援する' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: '新規会員登録して支援する' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'ゲストとして支援する' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: '閉じる' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: '匿名で銀行振込の情報を見る' })).toHaveCount(project.hasAnonymousBank ? 1 : 0);

    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    const again = await openSupportModal(page, project, ret);
    await again.getByRole('button', { name: 'ログインして支援する' }).click();
    await expect(page).toHaveURL(/\/login\/$/);
    const stored = await page.evaluate(() => window.localStorage.getItem('fk'));
    expect(JSON.parse(stored ?? 'null')).toEqual({
      loginRef: `/payment/info/${project.slug}/${ret.slug}/`,
      supportType: 'login',
    });
  });

  test('a guest goes straight to the payment page', async ({ page, request }) => {
    const chosen = firstPurchasable(await details(request));
    expect(chosen, 'the demo data has a purchasable return').toBeTruthy();
    const { project, ret } = chosen!;

    const dialog = await openSupportModal(page, project, ret);
    await dialog.getByRole('button', { name: 'ゲストとして支援する' }).click();
    await expect(page).toHaveURL(new RegExp(`/payment/info/${project.slug}/${ret.slug}/$`));
    const stored = await page.evaluate(() => window.localStorage.getItem('fk'));
    expect(JSON.parse(stored ?? 'null')).toEqual({
      loginRef: `/payment/info/${project.slug}/${ret.slug}/`,
      supportType: 'guest',
    });
  });

  test('shows the anonymous bank details where the project has them', async ({ page, request }) => {
    const chosen = firstPurchasable(await details(request), (project) => project.hasAnonymousBank && !!project.anonymousBank);
    expect(chosen, 'the demo data has a project with anonymous bank transfer').toBeTruthy();
    const { project, ret } = chosen!;

    const dialog = await openSupportModal(page, project, ret);
    await dialog.getByRole('button', { name: '匿名で銀行振込の情報を見る' }).click();
    await expect(dialog.getByText(project.anonymousBank!.number, { exact: true })).toBeVisible();
  });
});

test.describe('legal pages', () => {
  test('privacy policy, terms and commercial notice', async ({ page }) => {
    await page.goto('/policy/');
    await expect(page.getByRole('heading', { level: 1, name: 'プライバシーポリシー' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: /^第\d+条/ })).toHaveCount(16);

    await page.goto('/terms/');
    await expect(page.getByRole('heading', { level: 1, name: '利用規約' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: /^第\d+条/ })).toHaveCount(25);
    await expect(page.getByRole('heading', { level: 2, name: /^特約\d/ })).toHaveCount(3);

    await page.goto('/commercial/');
    await expect(page.getByRole('heading', { level: 1, name: '特定商取引法に基づく表記' })).toBeVisible();
    await expect(page.getByRole('rowheader', { name: '販売事業者' })).toBeVisible();
    await expect(page.getByRole('rowheader', { name: 'お支払い方法' })).toBeVisible();
  });
});

test.describe('comments', () => {
  const AUTHOR = 'demo-taro@example.jp';
  const OTHER = 'demo-hanako@example.jp';

  interface CommentJson {
    id: number;
    user_id: number;
    comment: string;
  }


  /** A project where the author has a comment, with that comment. */
  const authorsComment = async (request: APIRequestContext, authorId: number) => {
    for (const project of await projects(request)) {
      const { comments } = await getJson<{ comments: CommentJson[] }>(request, `/v1/comment/get/list?project_id=${project.id}`);
      const own = comments.find((comment) => comment.user_id === authorId);
      if (own) return { project, own, others: comments.filter((comment) => comment.user_id !== authorId) };
    }
    throw new Error('the demo data has no comment by the author');
  };

  test('only the author can edit a comment, in the page and on the server', async ({ page, request }) => {
    const token = await tokenOf(request, AUTHOR);
    const check = await request.get('/v1/user/loginCheck', { headers: { Authorization: `Bearer ${token}` } });
    const authorId = ((await check.json()) as { data: { userId: number } }).data.userId;
    const { project, own, others } = await authorsComment(request, authorId);

    await page.goto('/login/');
    await page.evaluate((stored) => localStorage.setItem('jwt', stored), JSON.stringify({ type: 'Bearer', token }));
    await page.goto(`/projects/${project.slug}/`);
    await page.getByRole('tab', { name: '応援コメント' }).click();
    const panel = page.getByRole('tabpanel', { name: '応援コメント' });
    const mine = panel.getByRole('listitem').filter({ hasText: own.comment });
    await expect(mine).toBeVisible();
    await expect(panel.getByRole('button', { name: '編集する' })).toHaveCount(1);
    for (const other of others) {
      await expect(panel.getByRole('listitem').filter({ hasText: other.comment }).getByRole('button', { name: '編集する' })).toHaveCount(0);
    }

    await mine.getByRole('button', { name: '編集する' }).click();
    const edited = `${own.comment}（追記：${Date.now()}）`;
    await panel.getByRole('textbox', { name: 'コメント' }).fill('   ');
    await panel.getByRole('button', { name: '登録する' }).click();
    await expect(panel.getByRole('alert')).toHaveText('コメントを入力してください。');
    await panel.getByRole('textbox', { name: 'コメント' }).fill(edited);
    await panel.getByRole('button', { name: '登録する' }).click();
    await expect(panel.getByText(edited)).toBeVisible();

    const intruder = await tokenOf(request, OTHER);
    const refused = await request.post('/v1/comment/set/update', {
      headers: { Authorization: `Bearer ${intruder}` },
      data: { id: own.id, comment: '書き換え' },
    });
    expect(refused.status()).toBe(403);
    const after = await getJson<{ comments: CommentJson[] }>(request, `/v1/comment/get/list?project_id=${project.id}`);
    expect(after.comments.find((comment) => comment.id === own.id)?.comment).toBe(edited);
  });
});
