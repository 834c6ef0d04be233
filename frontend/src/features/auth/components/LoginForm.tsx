import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { EmailField } from '@/components/form/EmailField';
import { FormAlert } from '@/components/form/Notice';
import { PasswordField } from '@/components/form/PasswordField';
import { SubmitButton } from '@/components/form/SubmitButton';
import { useForm } from '@/components/form/useForm';
import { paths } from '@/config/paths';
import { getApiErrorBody, getErrorMessage } from '@/lib/apiError';
import { clearLoginRef, readLoginRef } from '@/lib/storage';
import { validateEmail, validateEnteredPassword } from '@/lib/validation';
import { useStoreToken } from '@/app/session/useSession';
import { LOGIN_FAILURE, useLoginMutation } from '../api/authApi';

/** Failure reasons of a login (spec 000 §8), used when the server sends no message. */
export const LOGIN_MESSAGES = {
  passwordMismatch: 'パスワードが間違っています',
  userNotFound: '登録されていないメールアドレスです。',
} as const;

/** The login failure vibration lasts 500 ms (spec 000 §9). */
export const VIBRATION_MS = 500;

interface LoginErrorBody {
  error: string;
  message?: string;
  detail?: string;
}

const failureMessage = (error: unknown): string => {
  const body = getApiErrorBody(error) as LoginErrorBody | null;
  if (body?.message) return body.message;
  if (body?.detail === LOGIN_FAILURE.passwordMismatch) return LOGIN_MESSAGES.passwordMismatch;
  if (body?.detail === LOGIN_FAILURE.userNotFound) return LOGIN_MESSAGES.userNotFound;
  return getErrorMessage(error);
};

/** Where a successful login leads: the saved return path, else my page. */
const takeReturnPath = (): string => {
  const ref = readLoginRef();
  clearLoginRef();
  return ref && !ref.startsWith(paths.login.path) ? ref : paths.account.getHref();
};

export function LoginForm({ isRegist = false }: { isRegist?: boolean }) {
  const navigate = useNavigate();
  const storeToken = useStoreToken();
  const [login] = useLoginMutation();
  const [vibrating, setVibrating] = useState(false);
  const vibrationTimer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(vibrationTimer.current), []);

  const vibrate = () => {
    window.clearTimeout(vibrationTimer.current);
    setVibrating(true);
    navigator.vibrate?.(VIBRATION_MS);
    vibrationTimer.current = window.setTimeout(() => setVibrating(false), VIBRATION_MS);
  };

  const form = useForm({
    initialValues: { email: '', password: '' },
    validators: {
      email: (email) => validateEmail(email.trim()),
      password: validateEnteredPassword,
    },
    failureMessage,
    onSubmit: async ({ email, password }) => {
      try {
        const { token, type } = await login({
          email: email.trim(),
          password,
          ...(isRegist && { isRegist: true }),
        }).unwrap();
        storeToken({ type: type || 'Bearer', token }, { newSession: true });
        void navigate(takeReturnPath(), { replace: true });
      } catch (error) {
        vibrate();
        throw error;
      }
    },
  });

  return (
    <>
      <FormAlert message={form.formError} />
      <form
        className={`form${vibrating ? ' is-vibrating' : ''}`}
        noValidate
        onSubmit={form.handleSubmit}
        aria-busy={form.submitting}
        aria-label="ログイン"
        data-vibrating={vibrating || undefined}
      >
        <EmailField {...form.field('email')} />
        <PasswordField autoComplete="current-password" {...form.field('password')} />
        <SubmitButton {...form.submitButton} busyLabel="ログイン中…">
          ログインする
        </SubmitButton>
      </form>
      <p className="auth-page__links">
        <Link to={paths.forgotPassword.getHref()}>パスワードをお忘れの方はこちら</Link>
      </p>
    </>
  );
}
