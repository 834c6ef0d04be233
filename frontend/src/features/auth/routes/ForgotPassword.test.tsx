import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { NETWORK_ERROR_MESSAGE } from '@/lib/apiError';
import { EMAIL_MESSAGES } from '@/lib/validation';
import { renderApp } from '@/testing/render';
import { answerPost } from '@/testing/requests';
import { FORGOT_PASSWORD_MESSAGES } from './ForgotPassword';

const setup = async () => {
  const user = userEvent.setup();
  renderApp('/forgot-password/');
  const input = await screen.findByLabelText('メールアドレス');
  const submit = screen.getByRole('button', { name: '再設定メールを送信する' });
  return { user, input, submit };
};

describe('ForgotPassword', () => {
  it('validates the address before it can be sent', async () => {
    const { user, input, submit } = await setup();

    await user.type(input, 'taro@');
    await user.tab();

    expect(screen.getByText(EMAIL_MESSAGES.format)).toBeInTheDocument();
    expect(submit).toBeDisabled();
  });

  it('sends the trimmed address as mail and says the mail was sent, valid for one hour', async () => {
    const bodies = answerPost('/user/forgotPassword', { updated: true });
    const { user, input, submit } = await setup();

    await user.type(input, ' taro@example.jp ');
    await user.click(submit);

    expect(await screen.findByText(FORGOT_PASSWORD_MESSAGES.sent)).toBeInTheDocument();
    expect(FORGOT_PASSWORD_MESSAGES.sent).toContain('1時間以内');
    expect(bodies).toEqual([{ mail: 'taro@example.jp' }]);
  });

  it('says when no member has the address', async () => {
    answerPost('/user/forgotPassword', { updated: false });
    const { user, input, submit } = await setup();

    await user.type(input, 'nobody@example.jp');
    await user.click(submit);

    expect(await screen.findByText('ご入力のメールアドレスは登録されていません。')).toBeInTheDocument();
  });

  it('shows the generic message when the call fails', async () => {
    answerPost('/user/forgotPassword', { status: 500, body: { error: 'internal' } });
    const { user, input, submit } = await setup();

    await user.type(input, 'taro@example.jp');
    await user.click(submit);

    expect(await screen.findByRole('alert')).toHaveTextContent(NETWORK_ERROR_MESSAGE);
  });
});
