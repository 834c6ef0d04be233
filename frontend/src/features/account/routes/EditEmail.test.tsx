import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { EMAIL_MESSAGES, PASSWORD_MESSAGES } from '@/lib/validation';
import { renderApp } from '@/testing/render';
import { answerPost } from '@/testing/requests';
import { loginAs, serveUser } from '@/testing/session';
import { EDIT_EMAIL_MESSAGES, EDIT_EMAIL_PASSWORD_NOTE } from './EditEmail';

const setup = async () => {
  loginAs();
  serveUser();
  const user = userEvent.setup();
  renderApp('/edit/email');
  const input = await screen.findByLabelText('新しいメールアドレス');
  return {
    user,
    input,
    password: screen.getByLabelText('現在のパスワード'),
    submit: screen.getByRole('button', { name: '確認メールを送信する' }),
  };
};

const request = async (reply: Parameters<typeof answerPost>[1]) => {
  const bodies = answerPost('/user/set/updateEmail', reply);
  const { user, input, password, submit } = await setup();
  await user.type(input, ' new@example.jp ');
  await user.type(password, 'current-pass-1');
  await user.click(submit);
  return bodies;
};

describe('EditEmail', () => {
  it('shows the current address, validates the new one and offers cancel', async () => {
    const { user, input, submit } = await setup();

    expect(screen.getByText('taro@example.jp')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'キャンセル' })).toHaveAttribute('href', '/account/');
    await user.type(input, 'new@');
    await user.tab();
    expect(screen.getByText(EMAIL_MESSAGES.format)).toBeInTheDocument();
    expect(submit).toBeDisabled();
  });

  it('asks for the current password, says why, and keeps submit disabled without it', async () => {
    const { user, input, password, submit } = await setup();

    expect(password).toHaveAttribute('type', 'password');
    expect(password).toHaveAttribute('autocomplete', 'current-password');
    expect(password).toBeRequired();
    expect(password).toHaveAccessibleDescription(EDIT_EMAIL_PASSWORD_NOTE);
    await user.type(input, 'new@example.jp');
    await user.click(password);
    await user.tab();
    expect(screen.getByText(PASSWORD_MESSAGES.required)).toBeInTheDocument();
    expect(submit).toBeDisabled();

    await user.type(password, 'x');
    expect(submit).toBeEnabled();
  });

  it('sends id, trimmed address and the current password, and says the change completes from the mail', async () => {
    const bodies = await request({ duplicate: false, notFound: false, sended: true });

    expect(await screen.findByText(EDIT_EMAIL_MESSAGES.sent)).toBeInTheDocument();
    expect(bodies).toEqual([{ id: 7, email: 'new@example.jp', password: 'current-pass-1' }]);
    expect(screen.getByLabelText('現在のパスワード')).toHaveValue('');
  });

  it('says a wrong current password is wrong and links to password reissue', async () => {
    await request({
      status: 401,
      body: { error: 'password_mismatch', detail: 'E_PASSWORD_MISMATCH', message: '現在のパスワードが正しくありません。' },
    });

    expect(await screen.findByRole('alert')).toHaveTextContent('現在のパスワードが正しくありません。');
    expect(screen.getByRole('link', { name: 'パスワードをお忘れの方はこちら' })).toHaveAttribute(
      'href',
      '/forgot-password/',
    );
    expect(screen.queryByText(EDIT_EMAIL_MESSAGES.failed)).not.toBeInTheDocument();
  });

  it.each([
    [400, { error: 'validation_failed', message: 'パスワードを入力してください' }],
    [429, { error: 'rate_limited', message: 'しばらく時間をおいてから再度お試しください。' }],
    [
      429,
      {
        error: 'account_locked',
        message: 'パスワードを10回間違えたため、2026/11/26 15:00までログインが制限されています。制限を解除したい場合は運営まで連絡してください。',
      },
    ],
  ])('shows the server message of a %i refusal', async (status, body) => {
    await request({ status, body });

    expect(await screen.findByRole('alert')).toHaveTextContent(body.message);
    expect(screen.queryByRole('link', { name: 'パスワードをお忘れの方はこちら' })).not.toBeInTheDocument();
  });

  it('refuses an address another account uses', async () => {
    await request({ duplicate: true, notFound: false, sended: false });

    expect(await screen.findByRole('alert')).toHaveTextContent(EDIT_EMAIL_MESSAGES.duplicate);
  });

  it('says when the account was not found', async () => {
    await request({ duplicate: false, notFound: true, sended: false });

    expect(await screen.findByRole('alert')).toHaveTextContent('アカウントが見つかりませんでした。');
  });

  it('shows the general failure when the call fails', async () => {
    await request({ status: 500, body: { error: 'internal', message: 'x' } });

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'メールアドレスの更新に失敗しました。お手数ですがリロードして再度お試しください。',
    );
  });
});
