import { Link, useSearchParams } from 'react-router-dom';
import { Logo } from '@/components/Logo';
import { Notice } from '@/components/form/Notice';
import { paths } from '@/config/paths';
import { SESSION_MESSAGES } from '@/app/session/messages';
import { LoginForm } from '../components/LoginForm';

/** Banners of the login page, chosen by its query (spec 000 §2). */
export const LOGIN_BANNERS = {
  expired: SESSION_MESSAGES.expired,
  isRegist: 'パスワードの設定が完了しました。ログインしてください。',
  isResetPass: 'パスワードを再設定しました。新しいパスワードでログインしてください。',
} as const;

/** Login by e-mail and password (`/login/?expired|isRegist|isResetPass`). */
export function Login() {
  const [params] = useSearchParams();
  const isRegist = params.has('isRegist');
  return (
    <section className="page auth-page" aria-labelledby="login-title">
      <Link to={paths.home.getHref()} className="auth-page__logo">
        <Logo />
      </Link>
      <h1 id="login-title" className="page__title">ログイン</h1>
      {params.has('expired') && (
        <Notice tone="info">
          <p>{LOGIN_BANNERS.expired}</p>
        </Notice>
      )}
      {isRegist && (
        <Notice tone="success">
          <p>{LOGIN_BANNERS.isRegist}</p>
        </Notice>
      )}
      {params.has('isResetPass') && (
        <Notice tone="success">
          <p>{LOGIN_BANNERS.isResetPass}</p>
        </Notice>
      )}
      <LoginForm isRegist={isRegist} />
      <p className="auth-page__alt">
        会員登録がお済みでない方は<Link to={paths.signup.getHref()}>新規会員登録</Link>へお進みください。
      </p>
    </section>
  );
}
