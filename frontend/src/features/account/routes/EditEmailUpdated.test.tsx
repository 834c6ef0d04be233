import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { JWT_STORAGE_KEY } from '@/lib/storage';
import { renderApp } from '@/testing/render';
import { answerPost } from '@/testing/requests';
import { http, HttpResponse } from 'msw';
import { apiUrl, server } from '@/testing/server';
import { loginAs, makeUser, serveUser } from '@/testing/session';
import { EMAIL_UPDATED_MESSAGES } from './EditEmailUpdated';

describe('EditEmailUpdated', () => {
  it('stores the new token of the answer and checks the session with it', async () => {
    loginAs({ token: 'old.token' });
    const checks: Array<string | null> = [];
    server.use(
      http.get(apiUrl('/user/loginCheck'), ({ request }) => {
        checks.push(request.headers.get('Authorization'));
        return HttpResponse.json({ data: { flag: 1, userId: 7, isAdmin: false } });
      }),
    );
    answerPost('/user/set/updateLoginEmail', {
      updated: true,
      token: 'after.change',
      type: 'Bearer',
      expiresAt: '2026-11-27T00:00:00Z',
    });
    serveUser(makeUser({ email: 'new@example.jp' }));
    renderApp('/edit/email/updated?activate=MAILKEY');

    expect(await screen.findByText(EMAIL_UPDATED_MESSAGES.done)).toBeInTheDocument();
    expect(JSON.parse(window.localStorage.getItem(JWT_STORAGE_KEY) ?? 'null')).toEqual({
      type: 'Bearer',
      token: 'after.change',
    });
    await waitFor(() => expect(checks).toEqual(['Bearer old.token', 'Bearer after.change']));
    // The new address comes from the user data loaded with the new token.
    expect(await screen.findByText('new@example.jp')).toBeInTheDocument();
  });

  it('completes the change once with the key, then offers my page and logout', async () => {
    loginAs();
    const bodies = answerPost('/user/set/updateLoginEmail', {
      updated: true,
      email: 'new@example.jp',
      token: 'after.change',
      type: 'Bearer',
    });
    const user = userEvent.setup();
    const { router } = renderApp('/edit/email/updated?activate=MAILKEY');

    expect(await screen.findByText(EMAIL_UPDATED_MESSAGES.done)).toBeInTheDocument();
    expect(screen.getByText('new@example.jp')).toBeInTheDocument();
    expect(bodies).toEqual([{ activatekey: 'MAILKEY' }]);
    expect(screen.getByRole('link', { name: 'マイページへ' })).toHaveAttribute('href', '/account/');

    await user.click(screen.getByRole('button', { name: 'ログアウト' }));
    await waitFor(() => expect(router.location.pathname).toBe('/login/'));
    expect(window.localStorage.getItem(JWT_STORAGE_KEY)).toBeNull();
  });

  it('says the key is invalid when the server refuses it', async () => {
    loginAs();
    answerPost('/user/set/updateLoginEmail', {
      status: 400,
      body: { error: 'invalid_key', message: 'アクティベートキーが無効です。' },
    });
    renderApp('/edit/email/updated?activate=USED');

    expect(await screen.findByRole('alert')).toHaveTextContent(EMAIL_UPDATED_MESSAGES.invalid);
  });

  it('says the key is invalid without sending anything when the query has none', async () => {
    loginAs();
    renderApp('/edit/email/updated');

    expect(await screen.findByRole('alert')).toHaveTextContent(EMAIL_UPDATED_MESSAGES.invalid);
  });

  it('asks a visitor to log in first and comes back to the link', async () => {
    const { router } = renderApp('/edit/email/updated?activate=MAILKEY');

    await waitFor(() => expect(router.location.pathname).toBe('/login/'));
    expect(JSON.parse(window.localStorage.getItem('fk') ?? '{}')).toEqual({
      loginRef: '/edit/email/updated?activate=MAILKEY',
    });
  });
});
