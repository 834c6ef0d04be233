import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Notice } from '@/components/form/Notice';
import { SubmitButton } from '@/components/form/SubmitButton';
import { TextField } from '@/components/form/TextField';
import { paths } from '@/config/paths';
import { getApiErrorBody, getErrorMessage } from '@/lib/apiError';
import { clearLoginRef, readLoginRef } from '@/lib/storage';
import { validateEmail, validateEnteredPassword } from '@/lib/validation';
import { useStoreToken } from '@/features/session/hooks/useSession';
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
  const [login, { isLoading }] = useLoginMutation();
  const [rawEmail, setRawEmail] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState({ email: false, password: false });
  const [failure, setFailure] = useState<string | null>(null);
  const [vibrating, setVibrating] = useState(false);
  const vibrationTimer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(vibrationTimer.current), []);

  const email = rawEmail.trim();
  const emailError = validateEmail(email);
  const passwordError = validateEnteredPassword(password);
  const invalid = emailError !== null || passwordError !== null;

  const vibrate = () => {
    window.clearTimeout(vibrationTimer.current);
    setVibrating(true);
    navigator.vibrate?.(VIBRATION_MS);
    vibrationTimer.current = window.setTimeout(() => setVibrating(false), VIBRATION_MS);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched({ email: true, password: true });
    if (invalid || isLoading) return;
    setFailure(null);
    try {
      const { token, type } = await login({ email, password, ...(isRegist && { isRegist: true }) }).unwrap();
      storeToken({ type: type || 'Bearer', token }, { newSession: true });
      void navigate(takeReturnPath(), { replace: true });
    } catch (error) {
      setFailure(failureMessage(error));
      vibrate();
    }
  };

  return (
    <>
      {failure && (
        <Notice tone="error">
          <p>{failure}</p>
        </Notice>
      )}
      <form
        className={`form${vibrating ? ' is-vibrating' : ''}`}
        noValidate
        onSubmit={onSubmit}
        aria-busy={isLoading}
        aria-label="ログイン"
        data-vibrating={vibrating || undefined}
      >
        <TextField
          label="メールアドレス"
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          placeholder="example@example.jp"
          value={rawEmail}
          onChange={(event) => setRawEmail(event.target.value)}
          onBlur={() => setTouched((value) => ({ ...value, email: true }))}
          error={touched.email ? emailError : null}
          required
        />
        <TextField
          label="パスワード"
          type="password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          onBlur={() => setTouched((value) => ({ ...value, password: true }))}
          error={touched.password ? passwordError : null}
          required
        />
        <SubmitButton busy={isLoading} disabled={invalid} busyLabel="ログイン中…">
          ログインする
        </SubmitButton>
      </form>
      <p className="auth-page__links">
        <Link to={paths.forgotPassword.getHref()}>パスワードをお忘れの方はこちら</Link>
      </p>
    </>
  );
}
