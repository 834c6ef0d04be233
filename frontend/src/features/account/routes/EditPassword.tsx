import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Notice } from '@/components/form/Notice';
import { SubmitButton } from '@/components/form/SubmitButton';
import { TextField } from '@/components/form/TextField';
import { paths } from '@/config/paths';
import { getErrorMessage } from '@/lib/apiError';
import {
  PASSWORD_MESSAGES,
  PASSWORD_MIN_LENGTH,
  validateConfirmation,
  validateEnteredPassword,
  validateNewPassword,
} from '@/lib/validation';
import { useStoreToken } from '@/features/session/hooks/useSession';
import { useUpdatePasswordMutation, type AuthUser } from '../api/accountApi';
import { AccountPage, WithAuthUser } from '../components/AccountPage';
import {
  PASSWORD_MISMATCH_MESSAGE,
  PasswordMismatchNotice,
  isPasswordMismatch,
} from '../components/PasswordFailureNotice';

export const EDIT_PASSWORD_MESSAGES = {
  mismatch: PASSWORD_MISMATCH_MESSAGE,
  saved: 'パスワードを更新しました。',
} as const;

type Field = 'oldPassword' | 'newPassword' | 'repeat';
type Failure = { kind: 'mismatch' } | { kind: 'error'; message: string };

function PasswordForm({ user }: { user: AuthUser }) {
  const [updatePassword, { isLoading }] = useUpdatePasswordMutation();
  const storeToken = useStoreToken();
  const [values, setValues] = useState<Record<Field, string>>({ oldPassword: '', newPassword: '', repeat: '' });
  const [touched, setTouched] = useState<Record<Field, boolean>>({
    oldPassword: false,
    newPassword: false,
    repeat: false,
  });
  const [failure, setFailure] = useState<Failure | null>(null);
  const [updated, setUpdated] = useState(false);

  const errors: Record<Field, string | null> = {
    oldPassword: validateEnteredPassword(values.oldPassword),
    newPassword: validateNewPassword(values.newPassword),
    repeat: validateConfirmation(values.newPassword, values.repeat, PASSWORD_MESSAGES.newConfirmMismatch),
  };
  const invalid = Object.values(errors).some((error) => error !== null);

  const field = (name: Field) => ({
    name,
    type: 'password',
    value: values[name],
    onChange: (event: { target: { value: string } }) => {
      const { value } = event.target;
      setValues((current) => ({ ...current, [name]: value }));
    },
    onBlur: () => setTouched((current) => ({ ...current, [name]: true })),
    error: touched[name] ? errors[name] : null,
    required: true,
  });

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched({ oldPassword: true, newPassword: true, repeat: true });
    if (invalid || isLoading || updated) return;
    setFailure(null);
    try {
      const { token, type } = await updatePassword({
        id: user.id,
        email: user.email,
        oldPassword: values.oldPassword,
        newPassword: values.newPassword,
      }).unwrap();
      // The old token stops working: the new one replaces it and the session is checked again.
      storeToken({ type: type || 'Bearer', token });
      setUpdated(true);
    } catch (error) {
      setFailure(isPasswordMismatch(error) ? { kind: 'mismatch' } : { kind: 'error', message: getErrorMessage(error) });
    }
  };

  return (
    <>
      <form className="form" noValidate onSubmit={onSubmit} aria-busy={isLoading}>
        <TextField label="現在のパスワード" autoComplete="current-password" {...field('oldPassword')} />
        <TextField
          label="新しいパスワード"
          autoComplete="new-password"
          hint={`${PASSWORD_MIN_LENGTH}文字以上で入力してください。`}
          {...field('newPassword')}
        />
        <TextField label="新しいパスワード（確認用）" autoComplete="new-password" {...field('repeat')} />
        <div className="form__actions">
          <SubmitButton busy={isLoading} disabled={invalid || updated}>
            パスワードを変更する
          </SubmitButton>
          <Link className="button button--block" to={paths.account.getHref()}>
            キャンセル
          </Link>
        </div>
      </form>
      <div aria-live="polite">
        {updated && (
          <Notice tone="success">
            <p>{EDIT_PASSWORD_MESSAGES.saved}</p>
          </Notice>
        )}
        {failure?.kind === 'mismatch' && <PasswordMismatchNotice />}
        {failure?.kind === 'error' && (
          <Notice tone="error">
            <p>{failure.message}</p>
          </Notice>
        )}
      </div>
    </>
  );
}

/** Password change (`/edit/password`). */
export function EditPassword() {
  return (
    <AccountPage title="パスワード変更">
      <WithAuthUser>{(user) => <PasswordForm user={user} />}</WithAuthUser>
    </AccountPage>
  );
}
