import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { PASSWORD_MESSAGES } from '@/lib/validation';
import { renderApp } from '@/testing/render';
import { answerPost } from '@/testing/requests';
import { LOGIN_BANNERS } from './Login';
import { RESET_PASSWORD_MESSAGES } from './ResetPassword';

const setup = async (path = '/reset-password/?secret=S3CRET') => {
  const user = userEvent.setup();
  const rendered = renderApp(path);
  await screen.findByRole('heading', { level: 1, name: 'パスワード再設定' });
  return { user, ...rendered };
};

const submitPassword = async (user: ReturnType<typeof userEvent.setup>, password: string, repeat = password) => {
  await user.type(screen.getByLabelText('新しいパスワード'), password);
  await user.type(screen.getByLabelText('新しいパスワード（確認用）'), repeat);
  await user.click(screen.getByRole('button', { name: 'パスワードを再設定する' }));
};

describe('ResetPassword', () => {
  it('says the link is invalid without a secret, with a way to request again', async () => {
    await setup('/reset-password/');

    expect(screen.getByRole('alert')).toHaveTextContent(RESET_PASSWORD_MESSAGES.invalid);
    expect(screen.getByRole('link', { name: 'パスワード再発行の手続きへ' })).toHaveAttribute('href', '/forgot-password/');
    expect(screen.queryByLabelText('新しいパスワード')).not.toBeInTheDocument();
  });

  it('asks for the same new password twice', async () => {
    const { user } = await setup();

    await user.type(screen.getByLabelText('新しいパスワード'), 'long-enough');
    await user.type(screen.getByLabelText('新しいパスワード（確認用）'), 'different!');
    await user.tab();

    expect(screen.getByText(PASSWORD_MESSAGES.newConfirmMismatch)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'パスワードを再設定する' })).toBeDisabled();
  });

  it('resets the password with the secret and asks to log in with the new one', async () => {
    const bodies = answerPost('/user/resetPassword', { updated: true });
    const { user, router } = await setup();

    await submitPassword(user, 'brand-new-pass');

    await waitFor(() => expect(router.location.search).toBe('?isResetPass=1'));
    expect(bodies).toEqual([{ password: 'brand-new-pass', activatekey: 'S3CRET' }]);
    expect(await screen.findByText(LOGIN_BANNERS.isResetPass)).toBeInTheDocument();
  });

  it('says an expired link has expired and links to the reissue page', async () => {
    answerPost('/user/resetPassword', {
      status: 400,
      body: { error: 'expired_key', expired: true, message: RESET_PASSWORD_MESSAGES.expired },
    });
    const { user } = await setup();

    await submitPassword(user, 'brand-new-pass');

    expect(await screen.findByRole('alert')).toHaveTextContent(RESET_PASSWORD_MESSAGES.expired);
    expect(screen.getByRole('link', { name: 'パスワード再発行の手続きへ' })).toHaveAttribute('href', '/forgot-password/');
    expect(screen.queryByLabelText('新しいパスワード')).not.toBeInTheDocument();
  });

  it('says an unknown or used link is invalid', async () => {
    answerPost('/user/resetPassword', {
      status: 400,
      body: { error: 'invalid_key', message: RESET_PASSWORD_MESSAGES.invalid },
    });
    const { user } = await setup();

    await submitPassword(user, 'brand-new-pass');

    expect(await screen.findByRole('alert')).toHaveTextContent(RESET_PASSWORD_MESSAGES.invalid);
  });
});
