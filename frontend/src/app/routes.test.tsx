import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { JWT_STORAGE_KEY } from '@/lib/storage';
import { renderApp } from '@/testing/render';
import { loginAs, makeUser } from '@/testing/session';
import { apiUrl, server } from '@/testing/server';
import { detail, ret } from '@/features/public/testing/fixtures';

const SITE = 'ぐんまクラウドファンディング';

/** The project the payment steps of these tests are about. */
const servePaymentProject = (): void => {
  server.use(
    http.get(apiUrl('/project/get/detail'), () =>
      HttpResponse.json({
        project: { ...detail({ slug: 'fes', returns: [ret({ slug: 'gold' })] }), paymentTypes: [1, 2], additionalData: null },
      }),
    ),
  );
};

describe('router', () => {
  it.each([
    // Step 1 has its own title; the later steps, reached without step 1's lot, show the Invalid page.
    ['/payment/info/fes/gold/', 'ご支援内容の入力'],
    ['/payment/method/fes/gold/', 'ご支援内容の確認'],
    ['/payment/card/fes/gold/', 'ご支援内容の確認'],
    ['/payment/bank/fes/gold/', 'ご支援内容の確認'],
    ['/payment/confirm/fes/gold/?paymentType=1', 'ご支援内容の確認'],
    ['/payment/complete/fes/gold/', 'ご支援内容の確認'],
  ])('renders the payment step %s titled %s', async (path, title) => {
    window.localStorage.setItem('fk', JSON.stringify({ supportType: 'guest' }));
    servePaymentProject();
    renderApp(path);

    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe(`${title} | ${SITE}`));
  });

  it.each([
    ['/admin/mail/', '送信メール一覧', '送信メール一覧'],
    ['/admin/mail/register/', 'メールの作成', 'メールの作成'],
    ['/admin/mail/12/', '送信メール詳細', 'お知らせ'],
  ])('renders the mail screen %s titled %s to an administrator', async (path, title, heading) => {
    const progress = { status: 'sent', total: 1, sent: 1, failed: 0 };
    const summary = {
      id: 12, title: 'お知らせ', excerpt: '本文', projectId: null, projectTitle: null,
      senderEmail: 'admin@example.jp', senderName: null, progress, createdAt: '2026-11-26T12:00:00+09:00',
    };
    server.use(
      http.get(apiUrl('/mail/get/list'), () =>
        HttpResponse.json({ mails: { data: [summary], page: 1, perPage: 20, total: 1, totalPages: 1, pages: [] } }),
      ),
      http.get(apiUrl('/mail/get/detail'), () =>
        HttpResponse.json({ mail: { ...summary, content: '<p>本文</p>', recipients: [] } }),
      ),
      http.get(apiUrl('/mail/get/preview'), () => HttpResponse.json({ recipients: 3 })),
      http.get(apiUrl('/helper/get/master'), () => HttpResponse.json({ master: { projects: [] } })),
    );
    loginAs({ isAdmin: true });
    renderApp(path);

    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe(`${title} | ${SITE}`));
  });

  it.each([
    ['/login/', 'ログイン'],
    ['/signup/password/?activate=abc', 'パスワード設定'],
    ['/forgot-password/', 'パスワード再発行'],
    ['/reset-password/?secret=abc', 'パスワード再設定'],
  ])('titles %s as %s', async (path, title) => {
    renderApp(path);

    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe(`${title} | ${SITE}`));
  });

  it.each([
    ['/account/', 'マイページ'],
    ['/edit/profile', 'プロフィール編集'],
    ['/edit/profile/', 'プロフィール編集'],
    ['/edit/email', 'メールアドレス変更'],
    ['/edit/email/', 'メールアドレス変更'],
    ['/edit/password/', 'パスワード変更'],
    ['/edit/corporate/', '企業情報の編集'],
    ['/edit/addresses/', 'お届け先住所の登録'],
    ['/edit/payment', 'お支払い方法の管理'],
    ['/edit/payment-list/', 'お支払い履歴'],
  ])('titles the member page %s as %s', async (path, title) => {
    loginAs();
    server.use(
      http.get(apiUrl('/user/get/authUser'), () => HttpResponse.json({ user: makeUser() })),
      http.get(apiUrl('/sales/get/list'), () => HttpResponse.json({ data: [] })),
      http.get(apiUrl('/stripe/customer/get/cards'), () => HttpResponse.json({ data: { cards: [], default: null } })),
    );
    renderApp(path);

    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe(`${title} | ${SITE}`));
  });

  it('renders the signup screen at /signup/', async () => {
    renderApp('/signup/');

    expect(await screen.findByRole('heading', { level: 1, name: '新規会員登録' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'ログイン' })).toHaveAttribute('href', '/login/');
    await waitFor(() => expect(document.title).toBe(`新規会員登録 | ${SITE}`));
  });

  it('marks the home page as a website for OGP and hides the header there', async () => {
    server.use(
      http.get(apiUrl('/helper/get/master'), () =>
        HttpResponse.json({ master: { projects: [], env: { name: 'local', flag: false } } }),
      ),
      http.get(apiUrl('/sales/get/allSum'), () => HttpResponse.json({ result: { amount: 0, lot: 0 } })),
    );
    renderApp('/');

    expect(await screen.findByRole('heading', { level: 1, name: /地域の「やりたい」/ })).toBeInTheDocument();
    await waitFor(() =>
      expect(document.querySelector('meta[property="og:type"]')).toHaveAttribute('content', 'website'),
    );
    expect(document.querySelector('meta[property="og:url"]')).toHaveAttribute('content', 'http://localhost:3000/');
    expect(document.querySelector('meta[name="description"]')?.getAttribute('content')).not.toBe('');
    // No global header (banner); the hero draws its own logo and menu button.
    expect(screen.queryByRole('banner')).not.toBeInTheDocument();
    const hero = screen.getByRole('region', { name: /地域の「やりたい」/ });
    expect(within(hero).getByRole('button', { name: 'メニューを開く' })).toBeInTheDocument();
    expect(within(hero).getByRole('link', { name: /ぐんまクラウドファンディング/ })).toHaveAttribute('href', '/');
  });

  it.each(['/login/', '/signup/', '/forgot-password/', '/reset-password/'])('hides the header on %s', async (path) => {
    renderApp(path);

    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(screen.queryByRole('banner')).not.toBeInTheDocument();
  });

  it('shows the footer links on every page', async () => {
    renderApp('/terms/');

    const footer = await screen.findByRole('contentinfo');
    expect(within(footer).getByRole('link', { name: '利用規約' })).toHaveAttribute('href', '/terms/');
    expect(within(footer).getByRole('link', { name: 'プライバシーポリシー' })).toHaveAttribute('href', '/policy/');
    expect(within(footer).getByRole('link', { name: '特定商取引法に基づく表記' })).toHaveAttribute(
      'href',
      '/commercial/',
    );
    expect(within(footer).getByRole('link', { name: 'TOP' })).toHaveAttribute('href', '/');
  });

  it('toggles the menu with login and signup links for a visitor', async () => {
    const user = userEvent.setup();
    renderApp('/terms/');

    const toggle = await screen.findByRole('button', { name: 'メニューを開く' });
    expect(screen.queryByRole('navigation', { name: 'メニュー' })).not.toBeInTheDocument();
    // Beside the menu button (wide screens): login and sign-up.
    const account = screen.getByRole('navigation', { name: 'アカウント' });
    expect(within(account).getByRole('link', { name: 'ログイン' })).toHaveAttribute('href', '/login/');
    expect(within(account).getByRole('link', { name: '新規登録' })).toHaveAttribute('href', '/signup/');

    await user.click(toggle);
    const menu = screen.getByRole('navigation', { name: 'メニュー' });
    expect(within(menu).getByRole('link', { name: 'ログイン' })).toHaveAttribute('href', '/login/');
    expect(within(menu).getByRole('link', { name: '新規登録' })).toHaveAttribute('href', '/signup/');
    expect(toggle).toHaveAttribute('aria-expanded', 'true');

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('navigation', { name: 'メニュー' })).not.toBeInTheDocument();
  });

  it('shows logout, my page and the admin link when the server says the user is an administrator', async () => {
    window.localStorage.setItem(JWT_STORAGE_KEY, JSON.stringify({ type: 'Bearer', token: 't' }));
    server.use(http.get(apiUrl('/user/loginCheck'), () => HttpResponse.json({ data: { flag: 1, isAdmin: true } })));
    const user = userEvent.setup();
    renderApp('/terms/');

    await user.click(await screen.findByRole('button', { name: 'メニューを開く' }));
    const menu = screen.getByRole('navigation', { name: 'メニュー' });
    expect(await within(menu).findByRole('link', { name: 'マイページ' })).toHaveAttribute('href', '/account/');
    expect(within(menu).getByRole('link', { name: '管理画面' })).toHaveAttribute('href', '/admin/');
    expect(within(menu).getByRole('button', { name: 'ログアウト' })).toBeInTheDocument();
    // ログアウト comes last.
    const entries = within(within(menu).getByRole('list', { name: '会員' }))
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(entries).toEqual(['マイページ', '管理画面', 'ログアウト']);
    // The ways to the projects, the areas, the categories and the legal pages are there for members too.
    expect(await within(menu).findByRole('link', { name: 'プロジェクトを探す' })).toHaveAttribute('href', '/projects/');
    expect(await within(menu).findByRole('link', { name: '高崎市' })).toHaveAttribute('href', '/projects/?area=takasaki');
    expect(within(menu).getByRole('link', { name: '文化・芸術' })).toHaveAttribute(
      'href',
      '/projects/?category=culture-arts',
    );
    expect(within(menu).getByRole('link', { name: '利用規約' })).toHaveAttribute('href', '/terms/');
    // Beside the menu button (shown on wide screens): my page instead of login and sign-up.
    const account = screen.getByRole('navigation', { name: 'アカウント' });
    expect(within(account).getByRole('link', { name: 'マイページ' })).toHaveAttribute('href', '/account/');
    expect(within(account).queryByRole('link', { name: 'ログイン' })).not.toBeInTheDocument();
  });

  it('hides the admin link from a member who is not an administrator', async () => {
    window.localStorage.setItem(JWT_STORAGE_KEY, JSON.stringify({ type: 'Bearer', token: 't' }));
    server.use(http.get(apiUrl('/user/loginCheck'), () => HttpResponse.json({ data: { flag: 1, isAdmin: false } })));
    const user = userEvent.setup();
    renderApp('/terms/');

    await user.click(await screen.findByRole('button', { name: 'メニューを開く' }));
    const menu = screen.getByRole('navigation', { name: 'メニュー' });
    expect(await within(menu).findByRole('link', { name: 'マイページ' })).toBeInTheDocument();
    expect(within(menu).queryByRole('link', { name: '管理画面' })).not.toBeInTheDocument();
  });

  it('logs out: forgets the token and goes to the login page', async () => {
    window.localStorage.setItem(JWT_STORAGE_KEY, JSON.stringify({ type: 'Bearer', token: 't' }));
    server.use(http.get(apiUrl('/user/loginCheck'), () => HttpResponse.json({ data: { flag: 1 } })));
    const user = userEvent.setup();
    const { router } = renderApp('/terms/');

    await user.click(await screen.findByRole('button', { name: 'メニューを開く' }));
    await user.click(await screen.findByRole('button', { name: 'ログアウト' }));

    await waitFor(() => expect(router.location.pathname).toBe('/login/'));
    expect(window.localStorage.getItem(JWT_STORAGE_KEY)).toBeNull();
  });

  it('drops a token the server rejects and treats the user as a visitor', async () => {
    window.localStorage.setItem(JWT_STORAGE_KEY, JSON.stringify({ type: 'Bearer', token: 'old' }));
    server.use(
      http.get(apiUrl('/user/loginCheck'), () => HttpResponse.json({ data: { flag: 0 } })),
    );
    const user = userEvent.setup();
    renderApp('/terms/');

    await waitFor(() => expect(window.localStorage.getItem(JWT_STORAGE_KEY)).toBeNull());
    await user.click(await screen.findByRole('button', { name: 'メニューを開く' }));
    expect(within(screen.getByRole('navigation', { name: 'メニュー' })).getByRole('link', { name: '新規登録' })).toBeInTheDocument();
  });

  it('scrolls to the top on navigation', async () => {
    const { router } = renderApp('/terms/');
    await screen.findByRole('heading', { name: '利用規約' });
    const scrollTo = window.scrollTo as unknown as { mock: { calls: unknown[] } };
    const before = scrollTo.mock.calls.length;

    await router.navigate('/policy/');

    await waitFor(() => expect(scrollTo.mock.calls.length).toBeGreaterThan(before));
  });
});
