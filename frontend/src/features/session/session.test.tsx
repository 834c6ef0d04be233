import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { FK_STORAGE_KEY, JWT_STORAGE_KEY, LOT_STORAGE_KEY } from '@/lib/storage';
import { renderApp, renderWithProviders } from '@/testing/render';
import { apiUrl, server } from '@/testing/server';
import { loginAs, makeUser, serveUser } from '@/testing/session';
import { useSession } from './hooks/useSession';
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

    await waitFor(() => expect(router.state.location.pathname).toBe('/login/'));
    expect(window.alert).toHaveBeenCalledWith(SESSION_MESSAGES.loginRequired);
    expect(window.alert).toHaveBeenCalledTimes(1);
    expect(storedFk()).toEqual({ supportType: 'login', loginRef: '/edit/profile?tab=1' });
    expect(await screen.findByRole('heading', { level: 1, name: 'ログイン' })).toBeInTheDocument();
  });

  it('never renders a protected page for a visitor', async () => {
    const { router } = renderApp('/account/');

    await waitFor(() => expect(router.state.location.pathname).toBe('/login/'));
    expect(screen.queryByRole('heading', { name: 'マイページ' })).not.toBeInTheDocument();
  });

  it('sends an expired session on a protected page to /login/?expired=1 with the expiry notice', async () => {
    window.localStorage.setItem(JWT_STORAGE_KEY, JSON.stringify({ type: 'Bearer', token: 'old' }));
    answerLoginCheck401();
    const { router } = renderApp('/account/');

    await waitFor(() => expect(router.state.location.search).toBe('?expired=1'));
    expect(router.state.location.pathname).toBe('/login/');
    expect(window.alert).toHaveBeenCalledWith(SESSION_MESSAGES.expired);
    expect(window.alert).toHaveBeenCalledTimes(1);
    expect(storedFk()).toEqual({ loginRef: '/account/' });
    expect(window.localStorage.getItem(JWT_STORAGE_KEY)).toBeNull();
    expect(await screen.findByText(SESSION_MESSAGES.expired)).toBeInTheDocument();
  });

  it('treats an expired session on a public page as a guest and clears the return path', async () => {
    window.localStorage.setItem(JWT_STORAGE_KEY, JSON.stringify({ type: 'Bearer', token: 'old' }));
    window.localStorage.setItem(FK_STORAGE_KEY, JSON.stringify({ loginRef: '/account/', supportType: 'guest' }));
    answerLoginCheck401();
    const { router } = renderApp('/terms/');

    await waitFor(() => expect(storedFk()).toEqual({ supportType: 'guest' }));
    expect(router.state.location.pathname).toBe('/terms/');
    expect(window.alert).not.toHaveBeenCalled();
  });

  it('shows a logged-in member the protected page after the check', async () => {
    loginAs();
    serveUser();
    renderApp('/account/');

    expect(await screen.findByRole('heading', { level: 1, name: 'マイページ' })).toBeInTheDocument();
    expect(window.alert).not.toHaveBeenCalled();
  });

  it('shows Not Found to a member who is not an administrator on /admin pages', async () => {
    loginAs({ isAdmin: false });
    renderApp('/admin/mail/');

    expect(await screen.findByRole('heading', { level: 1, name: 'Page Not Found' })).toBeInTheDocument();
    expect(screen.queryByText('準備中')).not.toBeInTheDocument();
  });

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

    await waitFor(() => expect(router.state.location.pathname).toBe('/login/'));
    expect(window.localStorage.getItem(JWT_STORAGE_KEY)).toBeNull();
    expect(window.localStorage.getItem(LOT_STORAGE_KEY)).toBeNull();
    expect(storedFk()).toEqual({ supportType: 'login' });
    expect(window.alert).not.toHaveBeenCalled();
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
    expect(vi.mocked(window.alert)).not.toHaveBeenCalled();
  });
});
