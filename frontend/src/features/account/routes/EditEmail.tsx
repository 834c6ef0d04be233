import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Notice } from '@/components/form/Notice';
import { SubmitButton } from '@/components/form/SubmitButton';
import { TextField } from '@/components/form/TextField';
import { paths } from '@/config/paths';
import { validateEmail } from '@/lib/validation';
import { useUpdateEmailMutation, type AuthUser } from '../api/accountApi';
import { AccountPage, WithAuthUser } from '../components/AccountPage';

/** Outcomes of an e-mail change request (spec 001 §8). */
export const EDIT_EMAIL_MESSAGES = {
  duplicate: 'このメールアドレスは既に他のアカウントで登録されているため、変更できません。',
  notFound: 'アカウントが見つかりませんでした。',
  failed: 'メールアドレスの更新に失敗しました。お手数ですがリロードして再度お試しください。',
  sent: 'ご入力のメールアドレスに確認メールを送信しました。メールに記載されたURLを開くまで変更は完了しません。',
  same: '現在と同じメールアドレスです。',
} as const;

type Outcome = keyof typeof EDIT_EMAIL_MESSAGES;

function EmailForm({ user }: { user: AuthUser }) {
  const [updateEmail, { isLoading }] = useUpdateEmailMutation();
  const [rawEmail, setRawEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const email = rawEmail.trim();
  const sameAsNow = email !== '' && email.toLowerCase() === user.email.toLowerCase();
  const emailError = validateEmail(email) ?? (sameAsNow ? EDIT_EMAIL_MESSAGES.same : null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched(true);
    if (emailError || isLoading) return;
    setOutcome(null);
    try {
      const result = await updateEmail({ id: user.id, email }).unwrap();
      if (result.duplicate) setOutcome('duplicate');
      else if (result.notFound) setOutcome('notFound');
      else if (result.sended) setOutcome('sent');
      else setOutcome('failed');
    } catch {
      setOutcome('failed');
    }
  };

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
      <form className="form" noValidate onSubmit={onSubmit} aria-busy={isLoading}>
        <TextField
          label="新しいメールアドレス"
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
        <div className="form__actions">
          <SubmitButton busy={isLoading} disabled={emailError !== null}>
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
      </div>
    </>
  );
}

/** E-mail change request (`/edit/email`): a confirmation mail goes to the new address. */
export function EditEmail() {
  return (
    <AccountPage
      title="メールアドレス変更"
      lead="新しいメールアドレスに確認メールをお送りします。メールに記載されたURLを開くと変更が完了します。"
    >
      <WithAuthUser>{(user) => <EmailForm user={user} />}</WithAuthUser>
    </AccountPage>
  );
}
