import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Logo } from '@/components/Logo';
import { Notice } from '@/components/form/Notice';
import { SubmitButton } from '@/components/form/SubmitButton';
import { TextField } from '@/components/form/TextField';
import { paths } from '@/config/paths';
import { getErrorMessage } from '@/lib/apiError';
import { validateEmail } from '@/lib/validation';
import { useForgotPasswordMutation } from '../api/authApi';

/** Outcomes of a reissue request; reset links are valid for one hour (accounts API contract). */
export const FORGOT_PASSWORD_MESSAGES = {
  sent: 'パスワード再設定用のメールを送信しました。メールに記載されたURLから1時間以内にパスワードを再設定してください。',
  checkSpam: 'メールが届かない場合は、迷惑メールフォルダもご確認ください。',
  notRegistered: 'ご入力のメールアドレスは登録されていません。',
} as const;

type Outcome = { kind: 'sent' } | { kind: 'notRegistered' } | { kind: 'error'; message: string };

/** Password reissue request (`/forgot-password/`). */
export function ForgotPassword() {
  const [forgotPassword, { isLoading }] = useForgotPasswordMutation();
  const [rawEmail, setRawEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const email = rawEmail.trim();
  const emailError = validateEmail(email);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched(true);
    if (emailError || isLoading) return;
    setOutcome(null);
    try {
      const { updated } = await forgotPassword({ mail: email }).unwrap();
      setOutcome({ kind: updated ? 'sent' : 'notRegistered' });
    } catch (error) {
      setOutcome({ kind: 'error', message: getErrorMessage(error) });
    }
  };

  return (
    <section className="page auth-page" aria-labelledby="forgot-title">
      <Link to={paths.home.getHref()} className="auth-page__logo">
        <Logo />
      </Link>
      <h1 id="forgot-title" className="page__title">パスワード再発行</h1>
      <p>ご登録のメールアドレスを入力してください。パスワード再設定用のURLをメールでお送りします。</p>
      <form className="form" noValidate onSubmit={onSubmit} aria-busy={isLoading}>
        <TextField
          label="メールアドレス"
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          placeholder="example@example.jp"
          value={rawEmail}
          onChange={(event) => setRawEmail(event.target.value)}
          onBlur={() => setTouched(true)}
          error={touched ? emailError : null}
          required
        />
        <SubmitButton busy={isLoading} disabled={emailError !== null}>
          再設定メールを送信する
        </SubmitButton>
      </form>
      <div aria-live="polite">
        {outcome?.kind === 'sent' && (
          <Notice tone="success">
            <p>{FORGOT_PASSWORD_MESSAGES.sent}</p>
            <p>{FORGOT_PASSWORD_MESSAGES.checkSpam}</p>
          </Notice>
        )}
        {outcome?.kind === 'notRegistered' && (
          <Notice tone="error">
            <p>{FORGOT_PASSWORD_MESSAGES.notRegistered}</p>
            <p>
              <Link to={paths.signup.getHref()}>新規会員登録はこちら</Link>
            </p>
          </Notice>
        )}
        {outcome?.kind === 'error' && (
          <Notice tone="error">
            <p>{outcome.message}</p>
          </Notice>
        )}
      </div>
      <p className="auth-page__alt">
        <Link to={paths.login.getHref()}>ログイン画面へ戻る</Link>
      </p>
    </section>
  );
}
