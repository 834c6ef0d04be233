import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { FK_STORAGE_KEY, JWT_STORAGE_KEY } from '@/lib/storage';
import { PASSWORD_MESSAGES } from '@/lib/validation';
import { renderApp } from '@/testing/render';
import { answerPost } from '@/testing/requests';
import { loginAs, serveUser } from '@/testing/session';
import { LOGIN_MESSAGES } from '../components/LoginForm';
import { LOGIN_BANNERS } from './Login';

const LOCKED =
  'パスワードを10回間違えたため、2026年11月25日 22:30までログインが制限されています。制限を解除したい場合は運営まで連絡してください。';

const setup = (path = '/login/') => {
  const user = userEvent.setup();
  const rendered = renderApp(path);
  return { user, ...rendered };
};

const fillAndSubmit = async (user: ReturnType<typeof userEvent.setup>, email: string, password: string) => {
  await user.type(await screen.findByLabelText('メールアドレス'), email);
  await user.type(screen.getByLabelText('パスワード'), password);
  await user.click(screen.getByRole('button', { name: 'ログインする' }));
};

/** What a successful login leads to: loginCheck and my page's user. */
const acceptLogin = (token = 'new.token') => {
  const bodies = answerPost('/user/login', { token, type: 'Bearer', expiresAt: '2026-12-01T00:00:00+09:00' });
  loginAs({ token });
  window.localStorage.removeItem(JWT_STORAGE_KEY);
  serveUser();
  return bodies;
};

describe('Login', () => {
  it.each([
    ['/login/?expired=1', LOGIN_BANNERS.expired],
    ['/login/?isRegist=1', LOGIN_BANNERS.isRegist],
    ['/login/?isResetPass=1', LOGIN_BANNERS.isResetPass],
  ])('shows the banner of %s', async (path, banner) => {
    setup(path);

    expect(await screen.findByText(banner)).toBeInTheDocument();
  });

  it('shows no banner without a query, and links to password reissue and signup', async () => {
    setup();

    await screen.findByRole('heading', { level: 1, name: 'ログイン' });
    expect(screen.queryByText(LOGIN_BANNERS.expired)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'パスワードをお忘れの方はこちら' })).toHaveAttribute(
      'href',
      '/forgot-password/',
    );
    expect(screen.getByRole('link', { name: '新規会員登録' })).toHaveAttribute('href', '/signup/');
  });

  it('requires the password and keeps submit disabled until both fields are valid', async () => {
    const { user } = setup();
    const password = await screen.findByLabelText('パスワード');
    const submit = screen.getByRole('button', { name: 'ログインする' });

    await user.type(screen.getByLabelText('メールアドレス'), 'taro@example.jp');
    await user.click(password);
    await user.tab();

    expect(screen.getByText(PASSWORD_MESSAGES.required)).toBeInTheDocument();
    expect(submit).toBeDisabled();
    await user.type(password, 'secret-pass');
    expect(submit).toBeEnabled();
  });

  it('logs in: stores the token as {type, token} and goes to my page', async () => {
    const bodies = acceptLogin('abc.def');
    const { user, router } = setup();

    await fillAndSubmit(user, ' taro@example.jp ', 'secret-pass');

    await waitFor(() => expect(router.location.pathname).toBe('/account/'));
    expect(JSON.parse(window.localStorage.getItem(JWT_STORAGE_KEY) ?? 'null')).toEqual({
      type: 'Bearer',
      token: 'abc.def',
    });
    expect(bodies).toEqual([{ email: 'taro@example.jp', password: 'secret-pass' }]);
    expect(await screen.findByRole('heading', { level: 1, name: 'マイページ' })).toBeInTheDocument();
    expect(await screen.findByText('taro@example.jp')).toBeInTheDocument();
  });

  it('returns to the saved path after login and forgets it, keeping the support type', async () => {
    acceptLogin();
    window.localStorage.setItem(FK_STORAGE_KEY, JSON.stringify({ loginRef: '/edit/password', supportType: 'login' }));
    const { user, router } = setup();

    await fillAndSubmit(user, 'taro@example.jp', 'secret-pass');

    await waitFor(() => expect(router.location.pathname).toBe('/edit/password'));
    expect(await screen.findByLabelText('現在のパスワード')).toBeInTheDocument();
    expect(JSON.parse(window.localStorage.getItem(FK_STORAGE_KEY) ?? '{}')).toEqual({ supportType: 'login' });
  });

  it('ignores a saved return path that leaves the site', async () => {
    acceptLogin();
    window.localStorage.setItem(FK_STORAGE_KEY, JSON.stringify({ loginRef: '//evil.example/' }));
    const { user, router } = setup();

    await fillAndSubmit(user, 'taro@example.jp', 'secret-pass');

    await waitFor(() => expect(router.location.pathname).toBe('/account/'));
    expect(await screen.findByText('taro@example.jp')).toBeInTheDocument();
  });

  it('tells the server the user comes from registration', async () => {
    const bodies = acceptLogin();
    const { user, router } = setup('/login/?isRegist=1');

    await fillAndSubmit(user, 'taro@example.jp', 'secret-pass');

    await waitFor(() => expect(router.location.pathname).toBe('/account/'));
    expect(bodies).toEqual([{ email: 'taro@example.jp', password: 'secret-pass', isRegist: true }]);
    expect(await screen.findByText('taro@example.jp')).toBeInTheDocument();
  });

  it('shows a wrong password and vibrates the form for 500 ms', async () => {
    const vibrate = vi.fn();
    Object.defineProperty(navigator, 'vibrate', { value: vibrate, configurable: true });
    answerPost('/user/login', {
      status: 401,
      body: {
        error: 'login_failed',
        message: 'パスワードが間違っています',
        detail: 'E_PASSWORD_MISMATCH',
        failedStatus: { isBanned: false },
      },
    });
    const { user } = setup();

    await fillAndSubmit(user, 'taro@example.jp', 'wrong-pass');

    expect(await screen.findByRole('alert')).toHaveTextContent('パスワードが間違っています');
    expect(screen.getByRole('form', { name: 'ログイン' })).toHaveClass('is-vibrating');
    expect(vibrate).toHaveBeenCalledWith(500);
    await waitFor(() => expect(screen.getByRole('form', { name: 'ログイン' })).not.toHaveClass('is-vibrating'), {
      timeout: 1500,
    });
    expect(window.localStorage.getItem(JWT_STORAGE_KEY)).toBeNull();
  });

  it('shows an unknown address by its detail when the server sends no message', async () => {
    answerPost('/user/login', {
      status: 401,
      body: { error: 'login_failed', detail: 'E_USER_NOT_FOUND', failedStatus: { isBanned: false } },
    });
    const { user } = setup();

    await fillAndSubmit(user, 'nobody@example.jp', 'secret-pass');

    expect(await screen.findByRole('alert')).toHaveTextContent(LOGIN_MESSAGES.userNotFound);
  });

  it('shows the lockout message of the server verbatim', async () => {
    answerPost('/user/login', {
      status: 403,
      body: {
        error: 'login_locked',
        message: LOCKED,
        detail: 'E_LOGIN_LOCKED',
        isBanned: true,
        unbannedTime: '2026-11-25T22:30:00+09:00',
        failedStatus: { isBanned: true, unbannedTime: '2026-11-25T22:30:00+09:00' },
      },
    });
    const { user } = setup();

    await fillAndSubmit(user, 'taro@example.jp', 'secret-pass');

    expect(await screen.findByRole('alert')).toHaveTextContent(LOCKED);
  });
});
