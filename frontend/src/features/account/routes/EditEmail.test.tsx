import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { EMAIL_MESSAGES } from '@/lib/validation';
import { renderApp } from '@/testing/render';
import { answerPost } from '@/testing/requests';
import { loginAs, serveUser } from '@/testing/session';
import { EDIT_EMAIL_MESSAGES } from './EditEmail';

const setup = async () => {
  loginAs();
  serveUser();
  const user = userEvent.setup();
  renderApp('/edit/email');
  const input = await screen.findByLabelText('新しいメールアドレス');
  return { user, input, submit: screen.getByRole('button', { name: '確認メールを送信する' }) };
};

const request = async (reply: Parameters<typeof answerPost>[1]) => {
  const bodies = answerPost('/user/set/updateEmail', reply);
  const { user, input, submit } = await setup();
  await user.type(input, ' new@example.jp ');
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

  it('sends id and trimmed address, and says the change completes from the mail', async () => {
    const bodies = await request({ duplicate: false, notFound: false, sended: true });

    expect(await screen.findByText(EDIT_EMAIL_MESSAGES.sent)).toBeInTheDocument();
    expect(bodies).toEqual([{ id: 7, email: 'new@example.jp' }]);
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
