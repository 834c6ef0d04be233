import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { Logo } from '@/components/Logo';
import { Notice } from '@/components/form/Notice';
import { paths } from '@/config/paths';
import { getApiErrorBody, getErrorMessage } from '@/lib/apiError';
import { PASSWORD_MESSAGES } from '@/lib/validation';
import { useResetPasswordMutation } from '../api/authApi';
import { NewPasswordForm } from '../components/NewPasswordForm';

/** Reset link failures (accounts API contract); the server's own message wins when it sends one. */
export const RESET_PASSWORD_MESSAGES = {
  invalid: 'パスワード再設定用のURLが無効です。お手数ですが再度パスワード再発行の手続きを行ってください。',
  expired: 'パスワード再設定用のURLの有効期限が切れています。お手数ですが再度パスワード再発行の手続きを行ってください。',
} as const;

type Failure = { kind: 'invalid' | 'expired'; message: string } | { kind: 'error'; message: string };

/** Password reset from the mailed link (`/reset-password/?secret=KEY`). */
export function ResetPassword() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const secret = params.get('secret')?.trim() ?? '';
  const [resetPassword, { isLoading }] = useResetPasswordMutation();
  const [failure, setFailure] = useState<Failure | null>(
    secret === '' ? { kind: 'invalid', message: RESET_PASSWORD_MESSAGES.invalid } : null,
  );

  const onSubmit = async (password: string) => {
    setFailure(null);
    try {
      const { updated } = await resetPassword({ password, activatekey: secret }).unwrap();
      if (updated) void navigate(paths.login.getHref({ isResetPass: 1 }));
      else setFailure({ kind: 'invalid', message: RESET_PASSWORD_MESSAGES.invalid });
    } catch (error) {
      const body = getApiErrorBody(error) as { error: string; message?: string; expired?: boolean } | null;
      if (body?.error === 'expired_key' || body?.expired === true) {
        setFailure({ kind: 'expired', message: body.message || RESET_PASSWORD_MESSAGES.expired });
      } else if (body?.error === 'invalid_key') {
        setFailure({ kind: 'invalid', message: body.message || RESET_PASSWORD_MESSAGES.invalid });
      } else {
        setFailure({ kind: 'error', message: getErrorMessage(error) });
      }
    }
  };

  const linkBroken = failure?.kind === 'invalid' || failure?.kind === 'expired';

  return (
    <section className="page auth-page" aria-labelledby="reset-title">
      <Link to={paths.home.getHref()} className="auth-page__logo">
        <Logo />
      </Link>
      <h1 id="reset-title" className="page__title">パスワード再設定</h1>
      {failure && (
        <Notice tone="error">
          <p>{failure.message}</p>
          {linkBroken && (
            <p>
              <Link to={paths.forgotPassword.getHref()}>パスワード再発行の手続きへ</Link>
            </p>
          )}
        </Notice>
      )}
      {!linkBroken && (
        <>
          <p>新しいパスワードを入力してください。</p>
          <NewPasswordForm
            passwordLabel="新しいパスワード"
            confirmationLabel="新しいパスワード（確認用）"
            mismatchMessage={PASSWORD_MESSAGES.newConfirmMismatch}
            submitLabel="パスワードを再設定する"
            busy={isLoading}
            onSubmit={(password) => void onSubmit(password)}
          />
        </>
      )}
    </section>
  );
}
