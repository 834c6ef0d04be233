import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { JWT_STORAGE_KEY } from '@/lib/storage';
import { PASSWORD_MESSAGES } from '@/lib/validation';
import { renderApp } from '@/testing/render';
import { answerPost } from '@/testing/requests';
import { loginAs, serveUser } from '@/testing/session';
import { EDIT_PASSWORD_MESSAGES } from './EditPassword';

const setup = async () => {
  loginAs();
  serveUser();
  const user = userEvent.setup();
  renderApp('/edit/password');
  await screen.findByLabelText('現在のパスワード');
  return {
    user,
    old: screen.getByLabelText('現在のパスワード'),
    next: screen.getByLabelText('新しいパスワード'),
    repeat: screen.getByLabelText('新しいパスワード（確認用）'),
    submit: screen.getByRole('button', { name: 'パスワードを変更する' }),
  };
};

describe('EditPassword', () => {
  it('keeps submit disabled until every field is valid, with the spec messages', async () => {
    const { user, old, next, repeat, submit } = await setup();

    await user.click(old);
    await user.tab();
    expect(screen.getByText(PASSWORD_MESSAGES.required)).toBeInTheDocument();
    await user.type(old, 'old-password');
    await user.type(next, 'short');
    expect(screen.getByText(PASSWORD_MESSAGES.minLength)).toBeInTheDocument();
    await user.clear(next);
    await user.type(next, 'new-password');
    await user.type(repeat, 'new-passwor');
    await user.tab();
    expect(screen.getByText(PASSWORD_MESSAGES.newConfirmMismatch)).toBeInTheDocument();
    expect(submit).toBeDisabled();

    await user.type(repeat, 'd');
    expect(submit).toBeEnabled();
  });

  it('changes the password, stores the new token and stays disabled afterwards', async () => {
    const bodies = answerPost('/user/set/updatePassword', { token: 'fresh.token', type: 'Bearer', updated: true });
    const { user, old, next, repeat, submit } = await setup();

    await user.type(old, 'old-password');
    await user.type(next, 'new-password');
    await user.type(repeat, 'new-password');
    await user.click(submit);

    expect(await screen.findByText(EDIT_PASSWORD_MESSAGES.saved)).toBeInTheDocument();
    expect(bodies).toEqual([
      { id: 7, email: 'taro@example.jp', oldPassword: 'old-password', newPassword: 'new-password' },
    ]);
    expect(JSON.parse(window.localStorage.getItem(JWT_STORAGE_KEY) ?? 'null')).toEqual({
      type: 'Bearer',
      token: 'fresh.token',
    });
    expect(screen.getByRole('button', { name: 'パスワードを変更する' })).toBeDisabled();
  });

  it('says the current password is wrong and links to password reissue', async () => {
    answerPost('/user/set/updatePassword', {
      status: 401,
      body: { error: 'password_mismatch', detail: 'E_PASSWORD_MISMATCH', message: '現在のパスワードが正しくありません。' },
    });
    const { user, old, next, repeat, submit } = await setup();

    await user.type(old, 'not-my-password');
    await user.type(next, 'new-password');
    await user.type(repeat, 'new-password');
    await user.click(submit);

    expect(await screen.findByRole('alert')).toHaveTextContent(EDIT_PASSWORD_MESSAGES.mismatch);
    expect(screen.getByRole('link', { name: 'パスワードをお忘れの方はこちら' })).toHaveAttribute(
      'href',
      '/forgot-password/',
    );
    expect(submit).toBeEnabled();
  });

  it('shows the lock message when too many wrong current passwords locked the account', async () => {
    const lock =
      'パスワードを10回間違えたため、2026/11/26 15:00までログインが制限されています。制限を解除したい場合は運営まで連絡してください。';
    answerPost('/user/set/updatePassword', { status: 429, body: { error: 'account_locked', message: lock } });
    const { user, old, next, repeat, submit } = await setup();

    await user.type(old, 'not-my-password');
    await user.type(next, 'new-password');
    await user.type(repeat, 'new-password');
    await user.click(submit);

    expect(await screen.findByRole('alert')).toHaveTextContent(lock);
    expect(screen.queryByText(EDIT_PASSWORD_MESSAGES.mismatch)).not.toBeInTheDocument();
    expect(window.localStorage.getItem(JWT_STORAGE_KEY)).toContain('test.jwt.token');
  });
});
