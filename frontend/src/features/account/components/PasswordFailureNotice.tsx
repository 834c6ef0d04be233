import { Link } from 'react-router-dom';
import { Notice } from '@/components/form/Notice';
import { paths } from '@/config/paths';
import { getApiErrorBody } from '@/lib/apiError';

/** The server's answer to a wrong current password (`401 password_mismatch`, detail `E_PASSWORD_MISMATCH`). */
export const PASSWORD_MISMATCH_MESSAGE = '現在のパスワードが正しくありません。';

/** A refused current password; a lock (`429 account_locked`) is not a mismatch: its message says until when. */
export const isPasswordMismatch = (error: unknown): boolean => {
  const body = getApiErrorBody(error) as { error: string; detail?: string } | null;
  return body?.error === 'password_mismatch' || body?.detail === 'E_PASSWORD_MISMATCH';
};

/** A wrong current password, with the way out for a user who no longer knows it. */
export function PasswordMismatchNotice() {
  return (
    <Notice tone="error">
      <p>{PASSWORD_MISMATCH_MESSAGE}</p>
      <p>
        <Link to={paths.forgotPassword.getHref()}>パスワードをお忘れの方はこちら</Link>
      </p>
    </Notice>
  );
}
