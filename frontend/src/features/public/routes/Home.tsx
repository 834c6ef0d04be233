import { Link } from 'react-router-dom';
import { Logo } from '@/components/Logo';
import { paths } from '@/config/paths';

/** Home: the hero carries its own logo, since the header is hidden here. */
export function Home() {
  return (
    <div className="home">
      <section className="hero" aria-labelledby="hero-title">
        <Link to={paths.home.getHref()} className="hero__logo">
          <Logo variant="inverse" />
        </Link>
        <h1 id="hero-title" className="hero__title">
          地域の「やりたい」を、
          <br />
          みんなの応援で。
        </h1>
        <p className="hero__lead">群馬の挑戦を、クラウドファンディングで支えましょう。</p>
        <p className="hero__actions">
          <Link className="button button--light" to={paths.signup.getHref()}>新規登録</Link>
          <Link className="button button--ghost" to={paths.login.getHref()}>ログイン</Link>
        </p>
      </section>
      <section className="page coming-soon" aria-labelledby="projects-title">
        <h2 id="projects-title" className="page__title">プロジェクト一覧</h2>
        <p className="coming-soon__badge">準備中</p>
        <p>プロジェクト一覧は現在準備中です。公開まで今しばらくお待ちください。</p>
      </section>
    </div>
  );
}
