import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Logo } from '@/components/Logo';
import { EmailField } from '@/components/form/EmailField';
import { FormAlert, Notice } from '@/components/form/Notice';
import { SubmitButton } from '@/components/form/SubmitButton';
import { useForm } from '@/components/form/useForm';
import { paths } from '@/config/paths';
import { validateEmail } from '@/lib/validation';
import { useForgotPasswordMutation } from '../api/authApi';

/** Outcomes of a reissue request; reset links are valid for one hour (accounts API contract). */
export const FORGOT_PASSWORD_MESSAGES = {
  sent: 'パスワード再設定用のメールを送信しました。メールに記載されたURLから1時間以内にパスワードを再設定してください。',
  checkSpam: 'メールが届かない場合は、迷惑メールフォルダもご確認ください。',
  notRegistered: 'ご入力のメールアドレスは登録されていません。',
} as const;

type Outcome = 'sent' | 'notRegistered';

/** Password reissue request (`/forgot-password/`). */
export function ForgotPassword() {
  const [forgotPassword] = useForgotPasswordMutation();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const form = useForm({
    initialValues: { email: '' },
    validators: { email: (email) => validateEmail(email.trim()) },
    serverFields: { mail: 'email' },
    onSubmit: async ({ email }) => {
      setOutcome(null);
      const { updated } = await forgotPassword({ mail: email.trim() }).unwrap();
      setOutcome(updated ? 'sent' : 'notRegistered');
    },
  });

  return (
    <section className="page auth-page" aria-labelledby="forgot-title">
      <Link to={paths.home.getHref()} className="auth-page__logo">
        <Logo />
      </Link>
      <h1 id="forgot-title" className="page__title">パスワード再発行</h1>
      <p>ご登録のメールアドレスを入力してください。パスワード再設定用のURLをメールでお送りします。</p>
      <form className="form" noValidate onSubmit={form.handleSubmit} aria-busy={form.submitting}>
        <EmailField {...form.field('email')} />
        <SubmitButton {...form.submitButton}>再設定メールを送信する</SubmitButton>
      </form>
      <div aria-live="polite">
        {outcome === 'sent' && (
          <Notice tone="success">
            <p>{FORGOT_PASSWORD_MESSAGES.sent}</p>
            <p>{FORGOT_PASSWORD_MESSAGES.checkSpam}</p>
          </Notice>
        )}
        {outcome === 'notRegistered' && (
          <Notice tone="error">
            <p>{FORGOT_PASSWORD_MESSAGES.notRegistered}</p>
            <p>
              <Link to={paths.signup.getHref()}>新規会員登録はこちら</Link>
            </p>
          </Notice>
        )}
        <FormAlert message={form.formError} />
      </div>
      <p className="auth-page__alt">
        <Link to={paths.login.getHref()}>ログイン画面へ戻る</Link>
      </p>
    </section>
  );
}
