import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { Logo } from '@/components/Logo';
import { Notice } from '@/components/form/Notice';
import { paths } from '@/config/paths';
import { getApiErrorBody, getErrorMessage } from '@/lib/apiError';
import { PASSWORD_MESSAGES } from '@/lib/validation';
import { REGIST_PASSWORD_FLAG, useRegistPasswordMutation } from '../api/authApi';
import { NewPasswordForm } from '../components/NewPasswordForm';

/** Spec 000 §8: the activation key is missing, used or unknown. */
export const INVALID_ACTIVATE_KEY_MESSAGE =
  'アクティベートキーが無効です。メールアドレス登録時のメールに記載されたURLから再度アクセスしてください。';

/** Full registration: sets the password of a provisional account (`/signup/password/?activate=KEY`). */
export function SignupPassword() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const activatekey = params.get('activate')?.trim() ?? '';
  const [registPassword, { isLoading }] = useRegistPasswordMutation();
  const [keyInvalid, setKeyInvalid] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onSubmit = async (password: string) => {
    setError(null);
    try {
      const { registed } = await registPassword({ flag: REGIST_PASSWORD_FLAG, password, activatekey }).unwrap();
      if (registed) void navigate(paths.login.getHref({ isRegist: 1 }));
      else setKeyInvalid(true);
    } catch (failure) {
      if (getApiErrorBody(failure)?.error === 'invalid_key') setKeyInvalid(true);
      else setError(getErrorMessage(failure));
    }
  };

  return (
    <section className="page auth-page" aria-labelledby="signup-password-title">
      <Link to={paths.home.getHref()} className="auth-page__logo">
        <Logo />
      </Link>
      <h1 id="signup-password-title" className="page__title">パスワード設定</h1>
      {activatekey === '' || keyInvalid ? (
        <>
          <Notice tone="error">
            <p>{INVALID_ACTIVATE_KEY_MESSAGE}</p>
          </Notice>
          <p className="auth-page__alt">
            URLの有効期限が切れている場合は、<Link to={paths.signup.getHref()}>新規会員登録</Link>
            からもう一度メールアドレスをご登録ください。
          </p>
        </>
      ) : (
        <>
          <p>ログインに使うパスワードを設定してください。設定が完了すると会員登録が完了します。</p>
          {error && (
            <Notice tone="error">
              <p>{error}</p>
            </Notice>
          )}
          <NewPasswordForm
            passwordLabel="パスワード"
            confirmationLabel="パスワード（確認用）"
            mismatchMessage={PASSWORD_MESSAGES.confirmMismatch}
            submitLabel="パスワードを設定する"
            busy={isLoading}
            onSubmit={(password) => void onSubmit(password)}
          />
        </>
      )}
    </section>
  );
}
