import { useState } from 'react';
import { Link } from 'react-router-dom';
import { EmailField } from '@/components/form/EmailField';
import { Notice } from '@/components/form/Notice';
import { PasswordField } from '@/components/form/PasswordField';
import { SubmitButton } from '@/components/form/SubmitButton';
import { useForm } from '@/components/form/useForm';
import { paths } from '@/config/paths';
import { getApiErrorBody } from '@/lib/apiError';
import { validateEmail, validateEnteredPassword } from '@/lib/validation';
import { useUpdateEmailMutation, type AuthUser } from '../api/accountApi';
import { AccountPage, WithAuthUser } from '../components/AccountPage';
import { PasswordMismatchNotice, isPasswordMismatch } from '../components/PasswordFailureNotice';

/** Outcomes of an e-mail change request (spec 001 §8). */
export const EDIT_EMAIL_MESSAGES = {
  duplicate: 'このメールアドレスは既に他のアカウントで登録されているため、変更できません。',
  notFound: 'アカウントが見つかりませんでした。',
  failed: 'メールアドレスの更新に失敗しました。お手数ですがリロードして再度お試しください。',
  sent: 'ご入力のメールアドレスに確認メールを送信しました。メールに記載されたURLを開くまで変更は完了しません。',
  same: '現在と同じメールアドレスです。',
} as const;

/** Why the current password is asked for, shown under the field. */
export const EDIT_EMAIL_PASSWORD_NOTE =
  'ご本人確認のため、現在のパスワードを入力してください。ログイン中の端末を他の方が使っても、メールアドレスを変えられないようにするためです。';

type Outcome = keyof typeof EDIT_EMAIL_MESSAGES;
/** A refusal the server explained (wrong password, missing field, too many attempts): its own message. */
type Failure = { kind: 'mismatch' } | { kind: 'server'; message: string };

/** Statuses whose `message` the server writes for the user; anything else gets the general failure. */
const EXPLAINED_STATUSES = new Set([400, 401, 403, 429]);

const failureOf = (error: unknown): Failure | null => {
  if (isPasswordMismatch(error)) return { kind: 'mismatch' };
  const status = typeof error === 'object' && error !== null ? (error as { status?: unknown }).status : undefined;
  const body = getApiErrorBody(error);
  if (typeof status === 'number' && EXPLAINED_STATUSES.has(status) && body?.message) {
    return { kind: 'server', message: body.message };
  }
  return null;
};

function EmailForm({ user }: { user: AuthUser }) {
  const [updateEmail] = useUpdateEmailMutation();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);

  const form = useForm({
    initialValues: { email: '', password: '' },
    validators: {
      email: (raw) => {
        const email = raw.trim();
        const sameAsNow = email !== '' && email.toLowerCase() === user.email.toLowerCase();
        return validateEmail(email) ?? (sameAsNow ? EDIT_EMAIL_MESSAGES.same : null);
      },
      password: validateEnteredPassword,
    },
    // Every failure is explained below the form, in the words of spec 001 §8.
    onSubmit: async ({ email, password }) => {
      setOutcome(null);
      setFailure(null);
      try {
        const result = await updateEmail({ id: user.id, email: email.trim(), password }).unwrap();
        if (result.duplicate) setOutcome('duplicate');
        else if (result.notFound) setOutcome('notFound');
        else if (result.sended) setOutcome('sent');
        else setOutcome('failed');
        if (result.sended) form.setValue('password', '');
      } catch (error) {
        const explained = failureOf(error);
        if (explained) setFailure(explained);
        else setOutcome('failed');
      }
    },
  });

  return (
    <>
      <p>
        現在のメールアドレス：<strong>{user.email}</strong>
      </p>
      {user.updateEmail && outcome !== 'sent' && (
        <Notice tone="info">
          <p>{user.updateEmail} への変更手続き中です。確認メールに記載されたURLを開くと変更が完了します。</p>
        </Notice>
      )}
      <form className="form" noValidate onSubmit={form.handleSubmit} aria-busy={form.submitting}>
        <EmailField label="新しいメールアドレス" {...form.field('email')} />
        <PasswordField
          label="現在のパスワード"
          autoComplete="current-password"
          hint={EDIT_EMAIL_PASSWORD_NOTE}
          {...form.field('password')}
        />
        <div className="form__actions">
          <SubmitButton {...form.submitButton}>
            確認メールを送信する
          </SubmitButton>
          <Link className="button button--block" to={paths.account.getHref()}>
            キャンセル
          </Link>
        </div>
      </form>
      <div aria-live="polite">
        {outcome && (
          <Notice tone={outcome === 'sent' ? 'success' : 'error'}>
            <p>{EDIT_EMAIL_MESSAGES[outcome]}</p>
          </Notice>
        )}
        {failure?.kind === 'mismatch' && <PasswordMismatchNotice />}
        {failure?.kind === 'server' && (
          <Notice tone="error">
            <p>{failure.message}</p>
          </Notice>
        )}
      </div>
    </>
  );
}

/** E-mail change request (`/edit/email`): a confirmation mail goes to the new address. */
export function EditEmail() {
  return (
    <AccountPage
      title="メールアドレス変更"
      lead="新しいメールアドレスと現在のパスワードを入力してください。新しいメールアドレスに確認メールをお送りし、メールに記載されたURLを開くと変更が完了します。"
    >
      <WithAuthUser>{(user) => <EmailForm user={user} />}</WithAuthUser>
    </AccountPage>
  );
}
