import { useState } from 'react';
import { Link } from 'react-router-dom';
import { EmailField } from '@/components/form/EmailField';
import { FormAlert } from '@/components/form/Notice';
import { SubmitButton } from '@/components/form/SubmitButton';
import { useForm } from '@/components/form/useForm';
import { paths } from '@/config/paths';
import { NETWORK_ERROR_MESSAGE, getErrorMessage } from '@/lib/apiError';
import { validateEmail } from '@/lib/validation';
import { SIGNUP_REQUEST_FLAG, USER_FLAG, useReRegisterMutation, useRegisterMutation } from '../api/signupApi';

/** Outcome messages of a signup (spec 000 §4 and §8). */
export const SIGNUP_MESSAGES = {
  confirmationSent:
    'ご登録のメールアドレスに確認メールを送信しました。メールに記載されたURLからパスワードを設定してください。',
  checkSpam: 'メールが届かない場合は、迷惑メールフォルダもご確認ください。',
  guest: 'このメールアドレスはゲストとして登録済みです。',
  registered: 'このメールアドレスはすでに登録されています。',
} as const;

type Outcome = { kind: 'confirmationSent' } | { kind: 'guest'; email: string } | { kind: 'registered' };

/** The outcome of a flag; an unknown flag is shown as a failed call. */
const outcomeOf = (userFlag: number, email: string): Outcome | null => {
  switch (userFlag) {
    case USER_FLAG.confirmationSent:
      return { kind: 'confirmationSent' };
    case USER_FLAG.guest:
      return { kind: 'guest', email };
    case USER_FLAG.registered:
      return { kind: 'registered' };
    default:
      return null;
  }
};

export function SignupForm() {
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [register] = useRegisterMutation();
  const [reRegister, { isLoading: isReRegistering }] = useReRegisterMutation();

  const show = (userFlag: number, email: string) => {
    const next = outcomeOf(userFlag, email);
    setOutcome(next);
    form.setFormError(next ? null : NETWORK_ERROR_MESSAGE);
  };

  const form = useForm({
    initialValues: { email: '' },
    validators: { email: (email) => validateEmail(email.trim()) },
    onSubmit: async ({ email }) => {
      setOutcome(null);
      const { userFlag } = await register({ flag: SIGNUP_REQUEST_FLAG, email: email.trim() }).unwrap();
      show(userFlag, email.trim());
    },
  });
  const busy = form.submitting || isReRegistering;

  const onProceed = async (guestEmail: string) => {
    try {
      const { userFlag } = await reRegister({ flag: SIGNUP_REQUEST_FLAG, email: guestEmail }).unwrap();
      show(userFlag, guestEmail);
    } catch (error) {
      setOutcome(null);
      form.setFormError(getErrorMessage(error));
    }
  };

  return (
    <>
      <form className="form" noValidate onSubmit={form.handleSubmit} aria-busy={busy}>
        <EmailField {...form.field('email')} />
        <SubmitButton busy={form.submitting} disabled={form.invalid || isReRegistering}>
          確認メールを送信する
        </SubmitButton>
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
        <FormAlert message={form.formError} />
      </div>
    </>
  );
}
