import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { PASSWORD_MESSAGES } from '@/lib/validation';
import { renderApp } from '@/testing/render';
import { answerPost } from '@/testing/requests';
import { LOGIN_BANNERS } from './Login';
import { INVALID_ACTIVATE_KEY_MESSAGE } from './SignupPassword';

const setup = async (path = '/signup/password/?activate=KEY123') => {
  const user = userEvent.setup();
  const rendered = renderApp(path);
  await screen.findByRole('heading', { level: 1, name: 'パスワード設定' });
  return { user, ...rendered };
};

const fields = () => ({
  password: screen.getByLabelText('パスワード'),
  confirmation: screen.getByLabelText('パスワード（確認用）'),
  submit: screen.getByRole('button', { name: 'パスワードを設定する' }),
});

describe('SignupPassword', () => {
  it('says the key is invalid when the activate query is missing', async () => {
    await setup('/signup/password/');

    expect(screen.getByRole('alert')).toHaveTextContent(INVALID_ACTIVATE_KEY_MESSAGE);
    expect(screen.queryByLabelText('パスワード')).not.toBeInTheDocument();
  });

  it('shows the password rules and keeps submit disabled while invalid', async () => {
    const { user } = await setup();
    const { password, confirmation, submit } = fields();

    await user.click(password);
    await user.tab();
    expect(screen.getByText(PASSWORD_MESSAGES.required)).toBeInTheDocument();

    await user.type(password, 'short');
    expect(screen.getByText(PASSWORD_MESSAGES.minLength)).toBeInTheDocument();

    await user.clear(password);
    await user.type(password, 'あ'.repeat(25));
    expect(screen.getByText(PASSWORD_MESSAGES.maxBytes)).toBeInTheDocument();

    await user.clear(password);
    await user.type(password, 'long-enough');
    await user.type(confirmation, 'long-enougX');
    await user.tab();
    expect(screen.getByText(PASSWORD_MESSAGES.confirmMismatch)).toBeInTheDocument();
    expect(submit).toBeDisabled();

    await user.clear(confirmation);
    await user.type(confirmation, 'long-enough');
    expect(screen.queryByText(PASSWORD_MESSAGES.confirmMismatch)).not.toBeInTheDocument();
    expect(submit).toBeEnabled();
  });

  it('sets the password with flag 1 and the key, then asks to log in', async () => {
    const bodies = answerPost('/user/registPassword', { registed: true });
    const { user, router } = await setup();
    const { password, confirmation, submit } = fields();

    await user.type(password, 'long-enough');
    await user.type(confirmation, 'long-enough');
    await user.click(submit);

    await waitFor(() => expect(router.location.search).toBe('?isRegist=1'));
    expect(router.location.pathname).toBe('/login/');
    expect(bodies).toEqual([{ flag: 1, password: 'long-enough', activatekey: 'KEY123' }]);
    expect(await screen.findByText(LOGIN_BANNERS.isRegist)).toBeInTheDocument();
  });

  it('says the key is invalid when the server refuses it', async () => {
    answerPost('/user/registPassword', {
      status: 400,
      body: { error: 'invalid_key', message: INVALID_ACTIVATE_KEY_MESSAGE },
    });
    const { user } = await setup();
    const { password, confirmation, submit } = fields();

    await user.type(password, 'long-enough');
    await user.type(confirmation, 'long-enough');
    await user.click(submit);

    expect(await screen.findByRole('alert')).toHaveTextContent(INVALID_ACTIVATE_KEY_MESSAGE);
    expect(screen.queryByLabelText('パスワード')).not.toBeInTheDocument();
  });

  it('shows a validation message of the server and keeps the form', async () => {
    answerPost('/user/registPassword', {
      status: 400,
      body: { error: 'validation_failed', message: PASSWORD_MESSAGES.maxBytes },
    });
    const { user } = await setup();
    const { password, confirmation, submit } = fields();

    await user.type(password, 'long-enough');
    await user.type(confirmation, 'long-enough');
    await user.click(submit);

    expect(await screen.findByRole('alert')).toHaveTextContent(PASSWORD_MESSAGES.maxBytes);
    expect(screen.getByLabelText('パスワード')).toBeInTheDocument();
  });
});
