import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { NETWORK_ERROR_MESSAGE, getErrorMessage } from '@/lib/apiError';
import {
  SIGNUP_REQUEST_FLAG,
  USER_FLAG,
  useReRegisterMutation,
  useRegisterMutation,
} from '../api/signupApi';
import { validateEmail } from '@/lib/validation';

/** Outcome messages of a signup (spec 000 §4 and §8). */
export const SIGNUP_MESSAGES = {
  confirmationSent:
    'ご登録のメールアドレスに確認メールを送信しました。メールに記載されたURLからパスワードを設定してください。',
  checkSpam: 'メールが届かない場合は、迷惑メールフォルダもご確認ください。',
  guest: 'このメールアドレスはゲストとして登録済みです。',
  registered: 'このメールアドレスはすでに登録されています。',
} as const;

type Outcome =
  | { kind: 'confirmationSent' }
  | { kind: 'guest'; email: string }
  | { kind: 'registered' }
  | { kind: 'error'; message: string };

const outcomeOf = (userFlag: number, email: string): Outcome => {
  switch (userFlag) {
    case USER_FLAG.confirmationSent:
      return { kind: 'confirmationSent' };
    case USER_FLAG.guest:
      return { kind: 'guest', email };
    case USER_FLAG.registered:
      return { kind: 'registered' };
    default:
      return { kind: 'error', message: NETWORK_ERROR_MESSAGE };
  }
};

export function SignupForm() {
  const inputId = useId();
  const errorId = useId();
  const [rawEmail, setRawEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [register, { isLoading: isRegistering }] = useRegisterMutation();
  const [reRegister, { isLoading: isReRegistering }] = useReRegisterMutation();

  const email = rawEmail.trim();
  const validationError = validateEmail(email);
  const showError = touched && validationError !== null;
  const busy = isRegistering || isReRegistering;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched(true);
    if (validationError || busy) return;
    setOutcome(null);
    try {
      const { userFlag } = await register({ flag: SIGNUP_REQUEST_FLAG, email }).unwrap();
      setOutcome(outcomeOf(userFlag, email));
    } catch (error) {
      setOutcome({ kind: 'error', message: getErrorMessage(error) });
    }
  };

  const onProceed = async (guestEmail: string) => {
    try {
      const { userFlag } = await reRegister({ flag: SIGNUP_REQUEST_FLAG, email: guestEmail }).unwrap();
      setOutcome(outcomeOf(userFlag, guestEmail));
    } catch (error) {
      setOutcome({ kind: 'error', message: getErrorMessage(error) });
    }
  };

  return (
    <>
      <form className="form" noValidate onSubmit={onSubmit} aria-busy={busy}>
        <div className="field">
          <label className="field__label" htmlFor={inputId}>
            メールアドレス
          </label>
          <input
            id={inputId}
            className="field__input"
            type="email"
            name="email"
            autoComplete="email"
            inputMode="email"
            placeholder="example@example.jp"
            value={rawEmail}
            onChange={(event) => setRawEmail(event.target.value)}
            onBlur={() => setTouched(true)}
            aria-invalid={showError}
            aria-describedby={showError ? errorId : undefined}
            required
          />
          {showError && (
            <p id={errorId} className="field__error">
              {validationError}
            </p>
          )}
        </div>
        <button type="submit" className="button button--primary button--block" disabled={validationError !== null || busy}>
          {isRegistering ? (
            <>
              <span className="spinner spinner--small" aria-hidden="true" />
              送信中…
            </>
          ) : (
            '確認メールを送信する'
          )}
        </button>
      </form>

      <div className="signup-outcome" aria-live="polite">
        {outcome?.kind === 'confirmationSent' && (
          <div className="notice notice--success" role="status">
            <p>{SIGNUP_MESSAGES.confirmationSent}</p>
            <p>{SIGNUP_MESSAGES.checkSpam}</p>
          </div>
        )}
        {outcome?.kind === 'guest' && (
          <div className="notice notice--info" role="status">
            <p>{SIGNUP_MESSAGES.guest}</p>
            <button
              type="button"
              className="button button--primary"
              disabled={busy}
              onClick={() => void onProceed(outcome.email)}
            >
              {isReRegistering ? (
                <>
                  <span className="spinner spinner--small" aria-hidden="true" />
                  送信中…
                </>
              ) : (
                '本登録へ進む'
              )}
            </button>
          </div>
        )}
        {outcome?.kind === 'registered' && (
          <div className="notice notice--info" role="status">
            <p>{SIGNUP_MESSAGES.registered}</p>
            <p>
              <Link to={paths.login.getHref()}>ログインはこちら</Link>
              {' / '}
              <Link to={paths.forgotPassword.getHref()}>パスワードをお忘れの方はこちら</Link>
            </p>
          </div>
        )}
        {outcome?.kind === 'error' && (
          <div className="notice notice--error" role="alert">
            <p>{outcome.message}</p>
          </div>
        )}
      </div>
    </>
  );
}
