import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { EMAIL_MESSAGES } from '@/lib/validation';
import { renderApp } from '@/testing/render';
import { answerPost } from '@/testing/requests';
import { loginAs } from '@/testing/session';
import { RESEND_DONE, RESEND_FAILED } from './AdminResendRegisterMail';

const setup = async () => {
  loginAs({ isAdmin: true });
  const user = userEvent.setup();
  renderApp('/admin/resendRegisterMail/');
  const input = await screen.findByLabelText('再送先のメールアドレス');
  return { user, input, submit: screen.getByRole('button', { name: '再送する' }) };
};

describe('AdminResendRegisterMail', () => {
  it('shows the spec messages for an empty and a malformed address and sends nothing', async () => {
    const bodies = answerPost('/user/resendRegisterMail', { result: 'sent', message: RESEND_DONE, userFlag: 100 });
    const { user, input, submit } = await setup();
    await waitFor(() => expect(document.title).toMatch(/^登録メールの再送 \| /));

    await user.click(input);
    await user.tab();
    expect(screen.getByText(EMAIL_MESSAGES.required)).toBeInTheDocument();
    await user.type(input, 'taro@');
    await user.tab();
    expect(screen.getByText(EMAIL_MESSAGES.format)).toBeInTheDocument();
    expect(submit).toBeDisabled();
    expect(bodies).toHaveLength(0);
  });

  it('sends the trimmed address, says 再送処理完了 and clears the field', async () => {
    const bodies = answerPost('/user/resendRegisterMail', { result: 'sent', message: RESEND_DONE, userFlag: 200 });
    const { user, input, submit } = await setup();

    await user.type(input, ' guest@example.jp ');
    await user.click(submit);

    expect(await screen.findByText(RESEND_DONE)).toBeInTheDocument();
    expect(screen.getByText(/guest@example\.jp へ（ゲスト登録の方）/)).toBeInTheDocument();
    expect(bodies).toEqual([{ email: 'guest@example.jp' }]);
    expect(input).toHaveValue('');
  });

  it('tells that a member needs no mail, in the server’s words', async () => {
    const message = 'このメールアドレスはすでに本登録済みの会員のものです。登録メールは送信していません。';
    answerPost('/user/resendRegisterMail', { result: 'member', message, userFlag: 1 });
    const { user, input, submit } = await setup();

    await user.type(input, 'taro@example.jp');
    await user.click(submit);

    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.queryByText(RESEND_DONE)).not.toBeInTheDocument();
    expect(input).toHaveValue('taro@example.jp');
  });

  it('shows the limit message of a 429 and a general failure for a 500', async () => {
    answerPost('/user/resendRegisterMail', {
      status: 429,
      body: { error: 'rate_limited', message: 'リクエストが多すぎます。しばらく時間をおいてから再度お試しください。' },
    });
    const { user, input, submit } = await setup();
    await user.type(input, 'taro@example.jp');
    await user.click(submit);
    expect(await screen.findByRole('alert')).toHaveTextContent('リクエストが多すぎます。');

    answerPost('/user/resendRegisterMail', { status: 500, body: {} });
    await user.click(submit);
    expect(await screen.findByText(RESEND_FAILED)).toBeInTheDocument();
  });
});
