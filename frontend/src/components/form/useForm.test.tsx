import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { NETWORK_ERROR_MESSAGE } from '@/lib/apiError';
import {
  EMAIL_MESSAGES,
  PASSWORD_MESSAGES,
  validateConfirmation,
  validateEmail,
  validateNewPassword,
} from '@/lib/validation';
import { EmailField } from './EmailField';
import { FormAlert } from './Notice';
import { PasswordField } from './PasswordField';
import { SubmitButton } from './SubmitButton';
import { useForm, type UseFormOptions } from './useForm';

type Values = { email: string; password: string; repeat: string };

/** What a failed RTK Query call throws from `unwrap()`. */
const refusal = (status: number | 'FETCH_ERROR', data: unknown) => ({ status, data });

function SignupLikeForm(props: Pick<UseFormOptions<Values>, 'onSubmit' | 'serverFields' | 'failureMessage'>) {
  const form = useForm<Values>({
    initialValues: { email: '', password: '', repeat: '' },
    validators: {
      email: (email) => validateEmail(email.trim()),
      password: validateNewPassword,
      repeat: (repeat, { password }) => validateConfirmation(password, repeat),
    },
    ...props,
  });
  return (
    <form noValidate aria-label="会員登録" onSubmit={form.handleSubmit} aria-busy={form.submitting}>
      <FormAlert message={form.formError} />
      <EmailField {...form.field('email')} />
      <PasswordField autoComplete="new-password" hint="8文字以上で入力してください。" {...form.field('password')} />
      <PasswordField label="パスワード（確認用）" autoComplete="new-password" {...form.field('repeat')} />
      <SubmitButton {...form.submitButton}>登録する</SubmitButton>
    </form>
  );
}

const setup = (props: Partial<Parameters<typeof SignupLikeForm>[0]> = {}) => {
  const onSubmit = props.onSubmit ?? vi.fn();
  const user = userEvent.setup();
  render(<SignupLikeForm {...props} onSubmit={onSubmit} />);
  return {
    user,
    onSubmit,
    email: screen.getByRole('textbox', { name: 'メールアドレス' }),
    password: screen.getByLabelText('パスワード'),
    repeat: screen.getByLabelText('パスワード（確認用）'),
    submit: screen.getByRole('button', { name: '登録する' }),
  };
};

const fillValid = async (user: ReturnType<typeof userEvent.setup>, fields: ReturnType<typeof setup>) => {
  await user.type(fields.email, 'taro@example.jp');
  await user.type(fields.password, 'password1');
  await user.type(fields.repeat, 'password1');
};

describe('useForm with the e-mail and password fields', () => {
  it('says nothing about a field until it is left, then gives the spec message tied to the field', async () => {
    const { user, email } = setup();
    expect(screen.queryByText(EMAIL_MESSAGES.required)).not.toBeInTheDocument();
    expect(email).toHaveAttribute('aria-invalid', 'false');

    await user.click(email);
    await user.tab();

    const message = screen.getByText(EMAIL_MESSAGES.required);
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription(EMAIL_MESSAGES.required);
    expect(email.getAttribute('aria-describedby')).toContain(message.id);
    // The other fields were not visited: still quiet.
    expect(screen.queryByText(PASSWORD_MESSAGES.required)).not.toBeInTheDocument();
  });

  it('keeps submit disabled while any rule fails and enables it once all pass', async () => {
    const fields = setup();
    expect(fields.submit).toBeDisabled();

    await fields.user.type(fields.email, 'taro@example.jp');
    await fields.user.type(fields.password, 'password1');
    expect(fields.submit).toBeDisabled();

    await fields.user.type(fields.repeat, 'password2');
    expect(fields.submit).toBeDisabled();
    await fields.user.tab();
    expect(screen.getByText(PASSWORD_MESSAGES.confirmMismatch)).toBeInTheDocument();

    await fields.user.clear(fields.repeat);
    await fields.user.type(fields.repeat, 'password1');
    expect(screen.queryByText(PASSWORD_MESSAGES.confirmMismatch)).not.toBeInTheDocument();
    expect(fields.submit).toBeEnabled();
  });

  it('shows every message on a submit attempt and sends nothing while invalid', () => {
    const { onSubmit } = setup();

    fireEvent.submit(screen.getByRole('form', { name: '会員登録' }));

    expect(screen.getByText(EMAIL_MESSAGES.required)).toBeInTheDocument();
    expect(screen.getByText(PASSWORD_MESSAGES.required)).toBeInTheDocument();
    expect(screen.getByLabelText('パスワード')).toHaveAttribute('aria-invalid', 'true');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('hands the values over once and shows progress until the request ends', async () => {
    let finish = () => {};
    const onSubmit = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const fields = setup({ onSubmit });
    await fillValid(fields.user, fields);

    await fields.user.click(fields.submit);
    const busy = screen.getByRole('button', { name: '送信中…' });
    expect(busy).toBeDisabled();
    fireEvent.submit(screen.getByRole('form', { name: '会員登録' }));

    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit).toHaveBeenCalledWith({ email: 'taro@example.jp', password: 'password1', repeat: 'password1' });
    finish();
    expect(await screen.findByRole('button', { name: '登録する' })).toBeEnabled();
  });

  it('puts a refusal the server gives a field under that field, focuses it, and clears it once edited', async () => {
    const taken = 'このメールアドレスはすでに登録されています。';
    const onSubmit = vi.fn().mockRejectedValue(refusal(409, { error: 'email_taken', message: taken, field: 'email' }));
    const fields = setup({ onSubmit });
    await fillValid(fields.user, fields);

    await fields.user.click(fields.submit);

    expect(await screen.findByText(taken)).toBeInTheDocument();
    expect(fields.email).toHaveAttribute('aria-invalid', 'true');
    expect(fields.email).toHaveAccessibleDescription(taken);
    await waitFor(() => expect(fields.email).toHaveFocus());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(fields.submit).toBeDisabled();

    await fields.user.type(fields.email, 'x');
    expect(screen.queryByText(taken)).not.toBeInTheDocument();
    expect(fields.submit).toBeEnabled();
  });

  it('maps the server names of refused fields onto the form fields', async () => {
    const onSubmit = vi.fn().mockRejectedValue(
      refusal(400, {
        error: 'validation_failed',
        message: 'パスワードは8文字以上で設定してください',
        errors: [
          { field: 'newPassword', message: 'パスワードは8文字以上で設定してください' },
          { field: 'mail', message: '正しいメールアドレスの形式で入力してください' },
        ],
      }),
    );
    const fields = setup({ onSubmit, serverFields: { newPassword: 'password', mail: 'email' } });
    await fillValid(fields.user, fields);

    await fields.user.click(fields.submit);

    expect(await screen.findByText('正しいメールアドレスの形式で入力してください')).toBeInTheDocument();
    expect(fields.password).toHaveAccessibleDescription(
      '8文字以上で入力してください。 パスワードは8文字以上で設定してください',
    );
  });

  it('shows a refusal that names no field of the form as the form alert, with the server message', async () => {
    const onSubmit = vi
      .fn()
      .mockRejectedValue(refusal(429, { error: 'rate_limited', message: 'しばらくしてから再度お試しください。' }));
    const fields = setup({ onSubmit });
    await fillValid(fields.user, fields);

    await fields.user.click(fields.submit);

    expect(await screen.findByRole('alert')).toHaveTextContent('しばらくしてから再度お試しください。');
    expect(fields.email).toHaveAttribute('aria-invalid', 'false');
  });

  it('says the connection failed when no answer came, and forgets the alert on the next attempt', async () => {
    const onSubmit = vi
      .fn()
      .mockRejectedValueOnce(refusal('FETCH_ERROR', undefined))
      .mockResolvedValueOnce(undefined);
    const fields = setup({ onSubmit });
    await fillValid(fields.user, fields);

    await fields.user.click(fields.submit);
    expect(await screen.findByRole('alert')).toHaveTextContent(NETWORK_ERROR_MESSAGE);

    await fields.user.click(fields.submit);
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    expect(onSubmit).toHaveBeenCalledTimes(2);
  });

  it('lets a form word its own alert', async () => {
    const onSubmit = vi
      .fn()
      .mockRejectedValue(refusal(401, { error: 'password_mismatch', detail: 'E_PASSWORD_MISMATCH' }));
    const fields = setup({ onSubmit, failureMessage: () => 'パスワードが間違っています' });
    await fillValid(fields.user, fields);

    await fields.user.click(fields.submit);

    expect(await screen.findByRole('alert')).toHaveTextContent('パスワードが間違っています');
  });
});

describe('EmailField and PasswordField', () => {
  it('offer the e-mail keyboard and autofill, and mask passwords with the right autofill', () => {
    const { email, password } = setup();

    expect(email).toHaveAttribute('type', 'email');
    expect(email).toHaveAttribute('inputmode', 'email');
    expect(email).toHaveAttribute('autocomplete', 'email');
    expect(email).toBeRequired();
    expect(password).toHaveAttribute('type', 'password');
    expect(password).toHaveAttribute('autocomplete', 'new-password');
    expect(password).toHaveAccessibleDescription('8文字以上で入力してください。');
  });
});
