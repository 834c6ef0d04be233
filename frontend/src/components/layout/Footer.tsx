import { Link } from 'react-router-dom';
import { Logo } from '@/components/Logo';
import { paths } from '@/config/paths';
import { SITE_NAME } from '@/config/site';

export function Footer() {
  return (
    <footer className="site-footer">
      <p className="site-footer__top">
        <Link to={paths.home.getHref()}>TOP</Link>
      </p>
      <Link to={paths.home.getHref()} className="site-footer__logo" aria-label={`${SITE_NAME} トップページ`}>
        <Logo variant="inverse" />
      </Link>
      <nav aria-label="サイト情報">
        <ul className="site-footer__links">
          <li><Link to={paths.terms.getHref()}>利用規約</Link></li>
          <li><Link to={paths.policy.getHref()}>プライバシーポリシー</Link></li>
          <li><Link to={paths.commercial.getHref()}>特定商取引法に基づく表記</Link></li>
        </ul>
      </nav>
      <p className="site-footer__copy">
        <small>© {SITE_NAME}</small>
      </p>
    </footer>
  );
}
