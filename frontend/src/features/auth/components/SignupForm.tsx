import { useId, useState } from 'react';
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
  /** The server answers the same text when a call says it did not agree (domain::account). */
  agreementRequired: '利用規約とプライバシーポリシーに同意してください。',
} as const;

/** The agreement box: the terms and the privacy policy open in a new tab, so the form keeps its input. */
function AgreementField({
  checked,
  error,
  onChange,
}: {
  checked: boolean;
  error: string | null;
  onChange: (checked: boolean) => void;
}) {
  const errorId = useId();
  return (
    <div className="field">
      <label className="agreement">
        <input
          type="checkbox"
          name="agreeTerms"
          className="agreement__box"
          checked={checked}
          onChange={(event) => onChange(event.target.checked)}
          aria-invalid={error !== null}
          aria-describedby={error ? errorId : undefined}
        />
        <span>
          <a href={paths.terms.getHref()} target="_blank" rel="noopener">利用規約</a>と
          <a href={paths.policy.getHref()} target="_blank" rel="noopener">プライバシーポリシー</a>
          に同意する
        </span>
      </label>
      {error && (
        <p id={errorId} className="field__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

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
  // Unticking the box is reason enough to say why submit is off.
  const [agreementChanged, setAgreementChanged] = useState(false);
  const [register] = useRegisterMutation();
  const [reRegister, { isLoading: isReRegistering }] = useReRegisterMutation();

  const show = (userFlag: number, email: string) => {
    const next = outcomeOf(userFlag, email);
    setOutcome(next);
    form.setFormError(next ? null : NETWORK_ERROR_MESSAGE);
  };

  const form = useForm({
    initialValues: { email: '', agreeTerms: false },
    validators: {
      email: (email) => validateEmail(email.trim()),
      agreeTerms: (agreed) => (agreed ? null : SIGNUP_MESSAGES.agreementRequired),
    },
    onSubmit: async ({ email, agreeTerms }) => {
      setOutcome(null);
      const { userFlag } = await register({ flag: SIGNUP_REQUEST_FLAG, email: email.trim(), agreeTerms }).unwrap();
      show(userFlag, email.trim());
    },
  });
  const busy = form.submitting || isReRegistering;

  const onProceed = async (guestEmail: string) => {
    try {
      const { userFlag } = await reRegister({
        flag: SIGNUP_REQUEST_FLAG,
        email: guestEmail,
        agreeTerms: form.values.agreeTerms,
      }).unwrap();
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
        <AgreementField
          checked={form.values.agreeTerms}
          error={agreementChanged ? form.errors.agreeTerms : form.shownError('agreeTerms')}
          onChange={(agreed) => {
            setAgreementChanged(true);
            form.setValue('agreeTerms', agreed);
          }}
        />
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
