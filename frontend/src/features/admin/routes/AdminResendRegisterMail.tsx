import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { EmailField } from '@/components/form/EmailField';
import { FormAlert, Notice } from '@/components/form/Notice';
import { SubmitButton } from '@/components/form/SubmitButton';
import { useForm } from '@/components/form/useForm';
import { paths } from '@/config/paths';
import { getApiErrorBody, getErrorMessage } from '@/lib/apiError';
import { validateEmail } from '@/lib/validation';
import { useResendRegisterMailMutation, type ResendResult } from '../api/dashboardApi';

/** Spec 001 §8: the resend is done. */
export const RESEND_DONE = '再送処理完了';
export const RESEND_FAILED = '登録メールの再送に失敗しました。時間をおいて再度お試しください。';

/** `/admin/resendRegisterMail/`: an administrator sends the registration mail again. */
export function AdminResendRegisterMail() {
  const titleId = useId();
  const [resendRegisterMail] = useResendRegisterMailMutation();
  const [result, setResult] = useState<(ResendResult & { email: string }) | null>(null);

  const form = useForm({
    initialValues: { email: '' },
    validators: { email: (raw) => validateEmail(raw.trim()) },
    onSubmit: async ({ email }) => {
      setResult(null);
      const trimmed = email.trim();
      const answer = await resendRegisterMail({ email: trimmed }).unwrap();
      setResult({ ...answer, email: trimmed });
      if (answer.result === 'sent') form.setValue('email', '');
    },
    // The server's own words for a refusal it explains (a limit, a relay outage); a general failure otherwise.
    failureMessage: (error) => (getApiErrorBody(error)?.message ? getErrorMessage(error) : RESEND_FAILED),
  });

  return (
    <section className="page page--admin admin-page" aria-labelledby={titleId}>
      <h1 id={titleId} className="page__title">
        登録メールの再送
      </h1>
      <p className="admin-note">
        仮登録のまま本登録を済ませていない方や、ゲストとして支援した方へ、本登録（パスワード設定）のメールを送り直します。
        送り直すと、以前のメールのURLは使えなくなります。
      </p>
      <form className="form" noValidate onSubmit={form.handleSubmit} aria-busy={form.submitting}>
        <EmailField label="再送先のメールアドレス" {...form.field('email')} />
        <div className="form__actions">
          <SubmitButton {...form.submitButton}>再送する</SubmitButton>
        </div>
      </form>
      <div aria-live="polite">
        <FormAlert message={form.formError} />
        {result && (
          <Notice tone={result.result === 'sent' ? 'success' : 'info'}>
            <p>{result.message}</p>
            {result.result === 'sent' && (
              <p className="admin-note">
                {result.email} へ{result.userFlag === 200 ? '（ゲスト登録の方）' : '（仮登録の方）'}
                本登録のメールを送りました。
              </p>
            )}
          </Notice>
        )}
      </div>
      <p className="admin-back">
        <Link to={paths.admin.getHref()}>管理画面へ戻る</Link>
      </p>
    </section>
  );
}
