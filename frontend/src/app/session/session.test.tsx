import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { FK_STORAGE_KEY, JWT_STORAGE_KEY, LOT_STORAGE_KEY } from '@/lib/storage';
import { renderApp, renderWithProviders } from '@/testing/render';
import { apiUrl, server } from '@/testing/server';
import { detail, ret } from '@/features/public/testing/fixtures';
import { loginAs, makeUser, serveUser } from '@/testing/session';
import { useSession } from './useSession';
import { SESSION_MESSAGES } from './messages';

const storedFk = () => JSON.parse(window.localStorage.getItem(FK_STORAGE_KEY) ?? '{}') as Record<string, unknown>;

const answerLoginCheck401 = () =>
  server.use(
    http.get(apiUrl('/user/loginCheck'), () =>
      HttpResponse.json({ error: 'unauthorized', message: SESSION_MESSAGES.expired }, { status: 401 }),
    ),
  );

function SessionProbe() {
  const session = useSession();
  return <p data-testid="session">{JSON.stringify(session)}</p>;
}

describe('session', () => {
  it('is a guest at once without a stored token, and checks nothing', () => {
    renderWithProviders(<SessionProbe />);

    expect(JSON.parse(screen.getByTestId('session').textContent ?? '')).toMatchObject({
      status: 'guest',
      isLoggedIn: false,
      userId: null,
    });
  });

  it('checks a stored token and exposes the user id of loginCheck', async () => {
    loginAs({ userId: 42 });
    renderWithProviders(<SessionProbe />);

    expect(JSON.parse(screen.getByTestId('session').textContent ?? '')).toMatchObject({ isChecking: true });
    await waitFor(() =>
      expect(JSON.parse(screen.getByTestId('session').textContent ?? '')).toMatchObject({
        status: 'loggedIn',
        isLoggedIn: true,
        isAdmin: false,
        userId: 42,
      }),
    );
  });

  it('sends a visitor of a protected page to login with a notice, saving the return path', async () => {
    window.localStorage.setItem(FK_STORAGE_KEY, JSON.stringify({ supportType: 'login' }));
    const { router } = renderApp('/edit/profile?tab=1');

    await waitFor(() => expect(router.location.pathname).toBe('/login/'));
    expect(await screen.findByRole('alertdialog', { name: 'ログインが必要です' })).toHaveTextContent(
      SESSION_MESSAGES.loginRequired,
    );
    expect(screen.getAllByRole('alertdialog')).toHaveLength(1);
    expect(storedFk()).toEqual({ supportType: 'login', loginRef: '/edit/profile?tab=1' });
    expect(await screen.findByRole('heading', { level: 1, name: 'ログイン' })).toBeInTheDocument();
  });

  it('never renders a protected page for a visitor', async () => {
    const { router } = renderApp('/account/');

    await waitFor(() => expect(router.location.pathname).toBe('/login/'));
    expect(screen.queryByRole('heading', { name: 'マイページ' })).not.toBeInTheDocument();
  });

  it('sends an expired session on a protected page to /login/?expired=1 with the expiry notice', async () => {
    window.localStorage.setItem(JWT_STORAGE_KEY, JSON.stringify({ type: 'Bearer', token: 'old' }));
    answerLoginCheck401();
    const { router } = renderApp('/account/');

    await waitFor(() => expect(router.location.search).toBe('?expired=1'));
    expect(router.location.pathname).toBe('/login/');
    const dialog = await screen.findByRole('alertdialog', { name: 'ログインの有効期限切れ' });
    expect(dialog).toHaveTextContent(SESSION_MESSAGES.expired);
    expect(screen.getAllByRole('alertdialog')).toHaveLength(1);
    expect(storedFk()).toEqual({ loginRef: '/account/' });
    expect(window.localStorage.getItem(JWT_STORAGE_KEY)).toBeNull();

    await userEvent.setup().click(within(dialog).getByRole('button', { name: '閉じる' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    // The login page's own banner still says why.
    expect(screen.getByText(SESSION_MESSAGES.expired)).toBeInTheDocument();
  });

  it('sends an expired session on a public page to login without a notice, clearing the return path', async () => {
    window.localStorage.setItem(JWT_STORAGE_KEY, JSON.stringify({ type: 'Bearer', token: 'old' }));
    window.localStorage.setItem(FK_STORAGE_KEY, JSON.stringify({ loginRef: '/account/', supportType: 'guest' }));
    answerLoginCheck401();
    const { router } = renderApp('/terms/');

    await waitFor(() => expect(router.location.pathname).toBe('/login/'));
    expect(storedFk()).toEqual({ supportType: 'guest' });
    expect(window.localStorage.getItem(JWT_STORAGE_KEY)).toBeNull();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('asks to reload on a 403 and keeps the token; the retry shows the page', async () => {
    window.localStorage.setItem(JWT_STORAGE_KEY, JSON.stringify({ type: 'Bearer', token: 'kept' }));
    let calls = 0;
    server.use(
      http.get(apiUrl('/user/loginCheck'), () => {
        calls += 1;
        return calls === 1
          ? HttpResponse.json({ error: 'forbidden', message: '許可されていません。' }, { status: 403 })
          : HttpResponse.json({ data: { flag: 1, userId: 7, isAdmin: false } });
      }),
    );
    serveUser();
    const user = userEvent.setup();
    const { router } = renderApp('/account/');

    const dialog = await screen.findByRole('alertdialog', { name: '読み込みエラー' });
    expect(dialog).toHaveTextContent('データの取得に失敗しました。再読み込みしてください。');
    expect(within(dialog).getByRole('button', { name: '再読み込みする' })).toBeInTheDocument();
    expect(router.location.pathname).toBe('/account/');
    expect(window.localStorage.getItem(JWT_STORAGE_KEY)).toContain('kept');

    await user.click(within(dialog).getByRole('button', { name: '閉じる' }));
    await user.click(within(await screen.findByRole('alert')).getByRole('button', { name: '再読み込みする' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'マイページ' })).toBeInTheDocument();
    expect(calls).toBe(2);
  });

  it('keeps the token and asks to reload when the check gets no answer at all', async () => {
    window.localStorage.setItem(JWT_STORAGE_KEY, JSON.stringify({ type: 'Bearer', token: 'kept' }));
    server.use(http.get(apiUrl('/user/loginCheck'), () => HttpResponse.error()));
    const { router } = renderApp('/terms/');

    expect(await screen.findByRole('alertdialog', { name: '読み込みエラー' })).toBeInTheDocument();
    expect(router.location.pathname).toBe('/terms/');
    expect(window.localStorage.getItem(JWT_STORAGE_KEY)).toContain('kept');
  });

  it('removes the token and sends to login with the administrator notice when the check fails otherwise', async () => {
    window.localStorage.setItem(JWT_STORAGE_KEY, JSON.stringify({ type: 'Bearer', token: 't' }));
    server.use(
      http.get(apiUrl('/user/loginCheck'), () =>
        HttpResponse.json({ error: 'internal', message: 'x' }, { status: 500 }),
      ),
    );
    const { router } = renderApp('/edit/profile');

    await waitFor(() => expect(router.location.pathname).toBe('/login/'));
    expect(await screen.findByRole('alertdialog', { name: 'ログインエラー' })).toHaveTextContent(
      'ログインに問題が発生しました。お手数ですが管理者までお問い合わせください。',
    );
    expect(screen.getAllByRole('alertdialog')).toHaveLength(1);
    expect(window.localStorage.getItem(JWT_STORAGE_KEY)).toBeNull();
    expect(storedFk()).toEqual({ loginRef: '/edit/profile' });
  });

  it('never removes a token stored while an older one was being refused', async () => {
    window.localStorage.setItem(JWT_STORAGE_KEY, JSON.stringify({ type: 'Bearer', token: 'old' }));
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(
      http.get(apiUrl('/user/loginCheck'), async () => {
        await gate;
        return HttpResponse.json({ error: 'unauthorized', message: SESSION_MESSAGES.expired }, { status: 401 });
      }),
    );
    const { store } = renderApp('/terms/');
    await screen.findByRole('heading', { level: 1, name: '利用規約' });

    window.localStorage.setItem(JWT_STORAGE_KEY, JSON.stringify({ type: 'Bearer', token: 'new' }));
    release();

    // The check is over once the store holds the refusal: the action that puts it there also settles the check's
    // `queryFulfilled`, whose handler decides about the token before `waitFor` returns (it resolves a task later).
    await waitFor(() =>
      expect(store.getState().api.queries['loginCheck(undefined)']).toMatchObject({
        status: 'rejected',
        error: { status: 401 },
      }),
    );
    expect(window.localStorage.getItem(JWT_STORAGE_KEY)).toContain('new');
    expect(store.getState().session.endReason).toBeNull();
  });

  it('shows a logged-in member the protected page after the check', async () => {
    loginAs();
    serveUser();
    renderApp('/account/');

    expect(await screen.findByRole('heading', { level: 1, name: 'マイページ' })).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('shows Not Found to a member who is not an administrator on /admin pages, and keeps the session', async () => {
    loginAs({ isAdmin: false });
    const user = userEvent.setup();
    renderApp('/admin/mail/');

    expect(await screen.findByRole('heading', { level: 1, name: 'Page Not Found' })).toBeInTheDocument();
    expect(screen.queryByText('準備中')).not.toBeInTheDocument();
    expect(window.localStorage.getItem(JWT_STORAGE_KEY)).not.toBeNull();
    await user.click(screen.getByRole('button', { name: 'メニューを開く' }));
    expect(screen.getByRole('button', { name: 'ログアウト' })).toBeInTheDocument();
  });

  it('shows an administrator the admin page', async () => {
    loginAs({ isAdmin: true });
    const { router } = renderApp('/admin/');

    expect(await screen.findByRole('heading', { level: 1, name: '管理画面' })).toBeInTheDocument();
    expect(router.location.pathname).toBe('/admin/');
    expect(window.localStorage.getItem(JWT_STORAGE_KEY)).not.toBeNull();
  });

  // Step 1 is titled ご支援内容の入力; the confirm step reached without step 1's lot shows the Invalid page.
  it.each([
    ['/payment/info/maebashi-rose-garden/rose-seedling/', 'ご支援内容の入力'],
    ['/payment/confirm/maebashi-rose-garden/rose-seedling/', 'ご支援内容の確認'],
  ])(
    'checks the session on %s and keeps the member logged in',
    async (path, title) => {
      loginAs();
      serveUser(makeUser());
      window.localStorage.setItem(FK_STORAGE_KEY, JSON.stringify({ supportType: 'login' }));
      server.use(
        http.get(apiUrl('/project/get/detail'), () =>
          HttpResponse.json({
            project: {
              ...detail({ slug: 'maebashi-rose-garden', returns: [ret({ slug: 'rose-seedling' })] }),
              paymentTypes: [1],
              additionalData: null,
            },
          }),
        ),
      );
      let checks = 0;
      server.use(
        http.get(apiUrl('/user/loginCheck'), () => {
          checks += 1;
          return HttpResponse.json({ data: { flag: 1, userId: 7, isAdmin: false } });
        }),
      );
      const user = userEvent.setup();
      const { router } = renderApp(path);

      expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'メニューを開く' }));
      expect(await screen.findByRole('button', { name: 'ログアウト' })).toBeInTheDocument();
      expect(checks).toBe(1);
      expect(router.location.pathname).toBe(path);
      expect(window.localStorage.getItem(JWT_STORAGE_KEY)).not.toBeNull();
    },
  );

  it('logs out from my page: forgets token, return path and lot, keeps the support type, no notice', async () => {
    loginAs();
    serveUser(makeUser());
    window.localStorage.setItem(FK_STORAGE_KEY, JSON.stringify({ loginRef: '/edit/email', supportType: 'login' }));
    window.localStorage.setItem(LOT_STORAGE_KEY, '2');
    const user = userEvent.setup();
    const { router } = renderApp('/account/');

    await screen.findByRole('heading', { level: 1, name: 'マイページ' });
    await user.click(screen.getByRole('button', { name: 'メニューを開く' }));
    await user.click(screen.getByRole('button', { name: 'ログアウト' }));

    await waitFor(() => expect(router.location.pathname).toBe('/login/'));
    expect(window.localStorage.getItem(JWT_STORAGE_KEY)).toBeNull();
    expect(window.localStorage.getItem(LOT_STORAGE_KEY)).toBeNull();
    expect(storedFk()).toEqual({ supportType: 'login' });
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('waits on a protected page while the token is being checked', async () => {
    window.localStorage.setItem(JWT_STORAGE_KEY, JSON.stringify({ type: 'Bearer', token: 't' }));
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(
      http.get(apiUrl('/user/loginCheck'), async () => {
        await gate;
        return HttpResponse.json({ data: { flag: 1, userId: 7, isAdmin: false } });
      }),
    );
    serveUser();
    renderApp('/account/');

    expect(await screen.findByText('読み込み中…')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'マイページ' })).not.toBeInTheDocument();
    release();
    expect(await screen.findByRole('heading', { level: 1, name: 'マイページ' })).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(vi.mocked(window.alert)).not.toHaveBeenCalled();
  });

  describe('cards and monthly supports', () => {
    /** Counts the session's payment requests. */
    const countPaymentLoads = () => {
      const counts = { cards: 0, subscriptions: 0 };
      server.use(
        http.get(apiUrl('/stripe/customer/get/cards'), () => {
          counts.cards += 1;
          return HttpResponse.json({ data: { cards: [], default: null } });
        }),
        http.get(apiUrl('/stripe/subscription/get/list'), () => {
          counts.subscriptions += 1;
          return HttpResponse.json({ subscriptions: [] });
        }),
      );
      return counts;
    };

    it('are loaded once after the check for a member with a provider customer', async () => {
      loginAs({ customerId: 'cus_1' });
      serveUser(makeUser());
      const counts = countPaymentLoads();
      const user = userEvent.setup();
      renderApp('/account/');

      await screen.findByRole('heading', { level: 1, name: 'マイページ' });
      await waitFor(() => expect(counts).toEqual({ cards: 1, subscriptions: 1 }));
      // Other pages of the session use what is loaded.
      await user.click(screen.getByRole('link', { name: 'お支払い方法の管理' }));
      expect(await screen.findByRole('heading', { level: 1, name: 'お支払い方法の管理' })).toBeInTheDocument();
      expect(counts).toEqual({ cards: 1, subscriptions: 1 });
    });

    it('are not asked for a member without a customer', async () => {
      loginAs();
      serveUser(makeUser());
      const counts = countPaymentLoads();
      const { store } = renderApp('/account/');

      await screen.findByRole('heading', { level: 1, name: 'マイページ' });
      // The state says what was asked: queries start when the page renders, so none started means none will go.
      const started = Object.values(store.getState().api.queries).map((query) => query?.endpointName);
      expect(started).not.toContain('savedCards');
      expect(started).not.toContain('subscriptions');
      expect(counts).toEqual({ cards: 0, subscriptions: 0 });
    });

    it('are forgotten on logout', async () => {
      loginAs({ customerId: 'cus_1' });
      serveUser(makeUser());
      const counts = countPaymentLoads();
      const user = userEvent.setup();
      const { store } = renderApp('/account/');
      const cached = () => Object.keys(store.getState().api.queries).filter((key) => /savedCards|subscriptions/.test(key));
      await waitFor(() => expect(cached()).toHaveLength(2));

      await user.click(screen.getByRole('button', { name: 'メニューを開く' }));
      await user.click(screen.getByRole('button', { name: 'ログアウト' }));
      await screen.findByRole('heading', { level: 1, name: 'ログイン' });
      expect(cached()).toEqual([]);
      expect(counts).toEqual({ cards: 1, subscriptions: 1 });
    });
  });
});
