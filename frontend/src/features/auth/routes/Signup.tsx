import { Link } from 'react-router-dom';
import { Logo } from '@/components/Logo';
import { paths } from '@/config/paths';
import { SignupForm } from '../components/SignupForm';

/** Provisional registration by e-mail (`/signup/`). */
export function Signup() {
  return (
    <section className="page auth-page" aria-labelledby="signup-title">
      <Link to={paths.home.getHref()} className="auth-page__logo">
        <Logo />
      </Link>
      <h1 id="signup-title" className="page__title">新規会員登録</h1>
      <p>
        ご登録のメールアドレスに確認メールをお送りします。メールに記載されたURLからパスワードを設定すると、登録が完了します。
      </p>
      <SignupForm />
      <p className="auth-page__alt">
        すでに会員の方は<Link to={paths.login.getHref()}>ログイン</Link>してください。
      </p>
    </section>
  );
}
