import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';

/**
 * Issue #13: what the project page, the home page and the site frame offer a visitor, at a phone's
 * 390 px and a desktop's 1280 px, against the demo data (discovered through the API, not hard-coded).
 */

interface Return {
  slug: string;
  title: string;
  total: number;
  purchasable: boolean;
  limit: number | null;
  remaining: number | null;
  imageSrc: string | null;
}

interface Project {
  slug: string;
  title: string;
  isOpen: boolean;
  achieved: boolean;
  period: string;
  sum: { amount: number; lot: number };
  progress: { ring: number; card: number; capped: number };
  returns: Return[];
}

const yen = (amount: number) => `${amount.toLocaleString('ja-JP')}円`;

const cards = async (request: APIRequestContext): Promise<Project[]> => {
  const response = await request.get('/v1/helper/get/master');
  expect(response.ok()).toBeTruthy();
  return ((await response.json()) as { master: { projects: Project[] } }).master.projects;
};

const detail = async (request: APIRequestContext, slug: string): Promise<Project> => {
  const response = await request.get(`/v1/project/get/detail?slug=${encodeURIComponent(slug)}`);
  expect(response.ok()).toBeTruthy();
  return ((await response.json()) as { project: Project }).project;
};

const count = async (request: APIRequestContext, path: string, key: string): Promise<number> =>
  (((await (await request.get(path)).json()) as Record<string, unknown[]>)[key] ?? []).length;

/** An open project with news and comments, the one the demo lists first. */
const openProject = async (request: APIRequestContext): Promise<Project> => {
  const open = (await cards(request)).filter((p) => p.isOpen);
  expect(open.length).toBeGreaterThan(0);
  return detail(request, open[0]!.slug);
};

/** Text that sticks out of the viewport horizontally (what a reader would see cut off or scroll for). */
const overflowingText = (page: Page) =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent?.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const rect of Array.from(range.getClientRects())) {
        if (rect.width > 0 && (rect.right > width + 1 || rect.left < -1)) out.push(node.textContent.trim().slice(0, 30));
      }
    }
    return { out, scrollWidth: document.documentElement.scrollWidth, width };
  });

for (const viewport of [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
] as const) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('the support bar shows the lowest price on phones and leads to the returns', async ({ page, request }) => {
      const project = await openProject(request);
      const lowest = Math.min(...project.returns.filter((r) => r.purchasable).map((r) => r.total));
      await page.goto(`/projects/${project.slug}/`);
      const heroButton = page.getByRole('button', { name: 'リターンを選ぶ' });
      await expect(heroButton).toBeInViewport();
      const bar = page.getByRole('region', { name: '支援のご案内' });
      await expect(bar).toHaveCount(0);
      // Just past the hero's own button (under the sticky header), the returns still far below.
      await heroButton.evaluate((button) => {
        window.scrollTo(0, window.scrollY + button.getBoundingClientRect().bottom - 40);
      });

      if (viewport.name === 'desktop') {
        await expect(bar).toBeHidden();
        return;
      }
      await expect(bar).toBeVisible();
      await expect(bar).toContainText(`最低支援額${yen(lowest)}〜`);
      const box = await bar.boundingBox();
      expect(box!.y + box!.height).toBeCloseTo(viewport.height, 0);
      await bar.getByRole('button', { name: '支援する' }).click();
      await expect(page.locator('#returns')).toBeInViewport();
    });

    test('share buttons carry the project page address, and copying says so', async ({ page, request, context, baseURL }) => {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
      const project = await openProject(request);
      await page.goto(`/projects/${project.slug}/#news`);
      const url = new URL(`/projects/${project.slug}/`, baseURL).toString();
      const share = page.getByRole('group', { name: 'このプロジェクトをシェアする' });

      const href = async (name: string) => new URL((await share.getByRole('link', { name }).getAttribute('href'))!);
      const line = await href('LINEで送る');
      expect(line.origin + line.pathname).toBe('https://social-plugins.line.me/lineit/share');
      expect(line.searchParams.get('url')).toBe(url);
      const x = await href('Xでポスト');
      expect(x.origin + x.pathname).toBe('https://x.com/intent/post');
      expect(x.searchParams.get('url')).toBe(url);
      expect(x.searchParams.get('text')).toBe(project.title);
      const facebook = await href('Facebookでシェア');
      expect(facebook.origin + facebook.pathname).toBe('https://www.facebook.com/sharer/sharer.php');
      expect(facebook.searchParams.get('u')).toBe(url);
      for (const name of ['LINEで送る', 'Xでポスト', 'Facebookでシェア']) {
        await expect(share.getByRole('link', { name })).toHaveAttribute('target', '_blank');
      }

      await share.getByRole('button', { name: 'リンクをコピー' }).click();
      await expect(share.getByRole('status')).toHaveText('リンクをコピーしました');
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    });

    test('tabs show their counts, change the URL, and a linked tab opens', async ({ page, request }) => {
      const project = await openProject(request);
      const id = ((await (await request.get(`/v1/project/get/detail?slug=${project.slug}`)).json()) as { project: { id: number } }).project.id;
      const news = await count(request, `/v1/information/get/list?project_id=${id}`, 'resInformation');
      const comments = await count(request, `/v1/comment/get/list?project_id=${id}`, 'comments');
      await page.goto(`/projects/${project.slug}/`);

      await expect(page.getByRole('tab', { name: `活動報告 ${news}件` })).toBeVisible();
      await page.getByRole('tab', { name: `応援コメント ${comments}件` }).click();
      await expect(page).toHaveURL(new RegExp(`/projects/${project.slug}/#comments$`));
      await expect(page.getByRole('tabpanel', { name: /応援コメント/ })).toBeVisible();
      await page.getByRole('tab', { name: /活動報告/ }).click();
      await expect(page).toHaveURL(/#news$/);

      await page.goto(`/projects/${project.slug}/#comments`);
      await expect(page.getByRole('tab', { name: /応援コメント/ })).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByRole('tabpanel', { name: /応援コメント/ })).toBeVisible();
      // The intro does not offer logged-out visitors an edit link for comments they did not write.
      await expect(page.getByRole('button', { name: '自分のコメントを編集する' })).toHaveCount(0);
      await expect(page.getByRole('button', { name: '編集する' })).toHaveCount(0);
    });

    test('an ended project shows its result and a disabled 募集終了, on the page and on its home card', async ({ page, request }) => {
      const ended = (await cards(request)).filter((p) => !p.isOpen);
      expect(ended.some((p) => p.achieved) && ended.some((p) => !p.achieved), 'the demo has both results').toBeTruthy();

      for (const card of ended) {
        await page.goto(`/projects/${card.slug}/`);
        const banner = page.getByRole('region', { name: '募集結果' });
        await expect(banner).toBeVisible();
        await expect(banner).toContainText(card.achieved ? '達成' : '未達成');
        if (card.achieved) await expect(banner).not.toContainText('未達成');
        await expect(banner).toContainText(yen(card.sum.amount));
        await expect(banner).toContainText(`${card.sum.lot.toLocaleString('ja-JP')}人`);
        await expect(page.locator('.project-hero').getByRole('button', { name: '募集終了' })).toBeDisabled();
        await expect(page.getByRole('button', { name: /支援する$/ })).toHaveCount(0);
      }

      await page.goto('/');
      const article = page.getByRole('article', { name: ended[0]!.title });
      await expect(article.getByRole('button', { name: '募集終了' })).toBeDisabled();
      await expect(article.getByRole('link', { name: /支援する/ })).toHaveCount(0);
      // Still legible, not faded out.
      expect(await article.getByRole('button', { name: '募集終了' }).evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
    });

    test('money reads 10,000円 and the percentages come from one figure: one decimal on cards, two on the ring', async ({ page, request }) => {
      const project = await openProject(request);

      await page.goto('/');
      const article = page.getByRole('article', { name: project.title });
      await expect(article.getByRole('img', { name: `達成率 ${project.progress.card.toFixed(1)}%` })).toBeVisible();
      await expect(article).toContainText(yen(project.sum.amount));
      await page.goto(`/projects/${project.slug}/`);
      await expect(page.getByRole('img', { name: `達成率 ${project.progress.ring.toFixed(2)}%` })).toBeVisible();
      await expect(page.locator('.project-hero')).toContainText(yen(project.sum.amount));
      for (const path of ['/', `/projects/${project.slug}/`]) {
        await page.goto(path);
        expect(await page.locator('body').innerText()).not.toMatch(/[￥¥]/);
      }
    });

    test('the returns come in the operator order with backers, stock and their own image', async ({ page, request }) => {
      const project = await openProject(request);
      await page.goto(`/projects/${project.slug}/`);
      const titles = page.locator('#returns').getByRole('heading', { level: 3 });
      await expect(titles).toHaveText(project.returns.map((r) => r.title));
      const limited = project.returns.find((r) => r.limit !== null)!;
      const card = page.locator('#returns').getByRole('article', { name: limited.title, exact: true });
      await expect(card).toContainText(`残り${limited.remaining} / 限定${limited.limit}`);
      await expect(card).toContainText('支援者');
      const images = project.returns.map((r) => r.imageSrc).filter((src): src is string => src !== null);
      expect(new Set(images).size).toBe(images.length);
    });

    test('the header stays reachable, with the account links on desktop and ログアウト last', async ({ page }) => {
      await page.goto('/');
      await page.mouse.wheel(0, 3000);
      await expect(page.getByRole('button', { name: 'メニューを開く' })).toBeInViewport();
      const account = page.getByRole('navigation', { name: 'アカウント' });
      if (viewport.name === 'desktop') {
        await expect(account.getByRole('link', { name: 'ログイン' })).toHaveAttribute('href', '/login/');
        await expect(account.getByRole('link', { name: '新規登録' })).toHaveAttribute('href', '/signup/');
      } else {
        await expect(account).toBeHidden();
      }

      await page.goto('/login/');
      await page.getByLabel('メールアドレス').fill('demo-taro@example.jp');
      await page.getByLabel('パスワード', { exact: true }).fill('demo-password-1');
      await page.getByRole('button', { name: 'ログイン' }).click();
      await expect(page).toHaveURL(/\/account\/$/);
      if (viewport.name === 'desktop') {
        await expect(page.getByRole('navigation', { name: 'アカウント' }).getByRole('link', { name: 'マイページ' })).toBeVisible();
      }
      await page.getByRole('button', { name: 'メニューを開く' }).click();
      const entries = page.getByRole('navigation', { name: 'メニュー' }).getByRole('listitem');
      await expect(entries.last()).toHaveText('ログアウト');
    });

    test('sign-up asks for agreement to the terms and the privacy policy', async ({ page, request }) => {
      await page.goto('/signup/');
      await expect(page.getByRole('link', { name: '利用規約' }).first()).toHaveAttribute('href', '/terms/');
      await expect(page.getByRole('link', { name: 'プライバシーポリシー' }).first()).toHaveAttribute('href', '/policy/');
      await page.getByLabel('メールアドレス').fill(`agree-${viewport.width}-${Date.now()}@example.jp`);
      const submit = page.getByRole('button', { name: '確認メールを送信する' });
      const agreement = page.getByRole('checkbox', { name: '利用規約とプライバシーポリシーに同意する' });
      await expect(submit).toBeDisabled();
      await agreement.check();
      await agreement.uncheck();
      await expect(page.getByText('利用規約とプライバシーポリシーに同意してください。')).toBeVisible();
      await agreement.check();
      await submit.click();
      await expect(page.getByText('ご登録のメールアドレスに確認メールを送信しました。', { exact: false })).toBeVisible();

      // The server checks it too.
      const refused = await request.post('/v1/user/register', {
        data: { flag: 100, email: `agree-no-${viewport.width}-${Date.now()}@example.jp`, agreeTerms: false },
      });
      expect(refused.status()).toBe(400);
    });

    test('home lists open projects first, each group latest end first, with tap targets of 44 px', async ({ page, request }) => {
      const list = await cards(request);
      const open = list.filter((p) => p.isOpen);
      const ended = list.filter((p) => !p.isOpen);
      expect(list.map((p) => p.slug)).toEqual([...open, ...ended].map((p) => p.slug));
      for (const group of [open, ended]) {
        expect(group.map((p) => p.period)).toEqual([...group.map((p) => p.period)].sort().reverse());
      }
      await page.goto('/');
      await expect(page.getByRole('list', { name: 'プロジェクト' }).getByRole('heading', { level: 3 })).toHaveText(
        list.map((p) => p.title),
      );
      for (const link of await page.locator('.project-card__links a').all()) {
        expect((await link.boundingBox())!.height).toBeGreaterThanOrEqual(44);
      }
    });

    test('the not-found page is in Japanese and links to the open projects', async ({ page, request }) => {
      const open = (await cards(request)).filter((p) => p.isOpen);
      await page.goto('/no-such-page/');
      await expect(page.getByText('お探しのページが見つかりませんでした。')).toBeVisible();
      const projects = page.getByRole('region', { name: '募集中のプロジェクト' });
      await expect(projects.getByRole('link')).toHaveText(open.map((p) => p.title));
    });
  });
}

test.describe('at 360 px', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('no text overflows horizontally on home and on a project page', async ({ page, request }) => {
    const project = await openProject(request);
    for (const path of ['/', `/projects/${project.slug}/`]) {
      // Nearing the footer loads its sponsor wall (named logos: text too). The wait starts before the page loads,
      // so a request made at once (a short page) is caught as well.
      const footerSponsors = page.waitForResponse((r) => new URL(r.url()).pathname === '/v1/sponsors/get/footer');
      await page.goto(path);
      await expect(page.locator('h1').first()).toBeVisible();
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      const answer = await footerSponsors;
      expect(answer.ok(), path).toBeTruthy();
      const { hidden, tiers } = (await answer.json()) as { hidden: boolean; tiers: Record<string, unknown[]> };
      const wall = page.getByRole('heading', { name: '応援企業・団体' });
      if (!hidden && Object.values(tiers).some((tier) => tier.length > 0)) await expect(wall).toBeVisible();
      else await expect(wall).toHaveCount(0);
      const { out, scrollWidth, width } = await overflowingText(page);
      expect(out, path).toEqual([]);
      expect(scrollWidth, path).toBeLessThanOrEqual(width);
    }
  });
});

test('a project title is split into phrases by a worker, off the page thread', async ({ page, request }) => {
  const project = await openProject(request);
  const workers: string[] = [];
  page.on('worker', (worker) => workers.push(worker.url()));
  await page.goto(`/projects/${project.slug}/`);
  const title = page.locator('h1 .phrase--split');
  await expect(title).toHaveCount(1);
  // The phrases, between <wbr>s, joined give back the title.
  const phrases = await title.evaluate((span) =>
    Array.from(span.childNodes)
      .map((node) => (node.nodeName === 'WBR' ? '|' : node.textContent))
      .join('')
      .split('|'),
  );
  expect(phrases.join('')).toBe(project.title);
  expect(phrases.length).toBeGreaterThan(1);
  expect(workers.some((url) => /\/assets\/phrases\.[0-9a-f]+\.chunk\.js$/.test(url))).toBe(true);
});
