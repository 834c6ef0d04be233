import { useState } from 'react';
import { Link } from 'react-router-dom';
import { FormAlert, Notice } from '@/components/form/Notice';
import { PasswordField } from '@/components/form/PasswordField';
import { SubmitButton } from '@/components/form/SubmitButton';
import { useForm } from '@/components/form/useForm';
import { paths } from '@/config/paths';
import {
  PASSWORD_MESSAGES,
  PASSWORD_MIN_LENGTH,
  validateConfirmation,
  validateEnteredPassword,
  validateNewPassword,
} from '@/lib/validation';
import { useStoreToken } from '@/app/session/useSession';
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


function PasswordForm({ user }: { user: AuthUser }) {
  const [updatePassword] = useUpdatePasswordMutation();
  const storeToken = useStoreToken();
  const [mismatch, setMismatch] = useState(false);
  const [updated, setUpdated] = useState(false);

  const form = useForm({
    initialValues: { oldPassword: '', newPassword: '', repeat: '' },
    validators: {
      oldPassword: validateEnteredPassword,
      newPassword: validateNewPassword,
      repeat: (repeat, { newPassword }) =>
        validateConfirmation(newPassword, repeat, PASSWORD_MESSAGES.newConfirmMismatch),
    },
    onSubmit: async ({ oldPassword, newPassword }) => {
      if (updated) return;
      setMismatch(false);
      try {
        const { token, type } = await updatePassword({
          id: user.id,
          email: user.email,
          oldPassword,
          newPassword,
        }).unwrap();
        // The old token stops working: the new one replaces it and the session is checked again.
        storeToken({ type: type || 'Bearer', token });
        setUpdated(true);
      } catch (error) {
        // A wrong current password gets its way out (password reissue); other failures their own message.
        if (!isPasswordMismatch(error)) throw error;
        setMismatch(true);
      }
    },
  });

  return (
    <>
      <form className="form" noValidate onSubmit={form.handleSubmit} aria-busy={form.submitting}>
        <PasswordField label="現在のパスワード" autoComplete="current-password" {...form.field('oldPassword')} />
        <PasswordField
          label="新しいパスワード"
          autoComplete="new-password"
          hint={`${PASSWORD_MIN_LENGTH}文字以上で入力してください。`}
          {...form.field('newPassword')}
        />
        <PasswordField label="新しいパスワード（確認用）" autoComplete="new-password" {...form.field('repeat')} />
        <div className="form__actions">
          <SubmitButton busy={form.submitting} disabled={form.invalid || updated}>
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
        {mismatch && <PasswordMismatchNotice />}
        <FormAlert message={form.formError} />
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
