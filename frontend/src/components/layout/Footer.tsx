import { useRef } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { Logo } from '@/components/Logo';
import { useGetFooterSponsorsQuery } from '@/components/sponsors/footerSponsorsApi';
import { SponsorGroup } from '@/components/sponsors/SponsorLogos';
import { paths } from '@/config/paths';
import { SITE_NAME, getSiteConfig } from '@/config/site';
import { useCurrentRoute } from '@/hooks/currentRoute';
import { useInView } from '@/hooks/useInView';

/** Sponsor blocks are not shown on admin and payment routes (spec 000 §2). */
export const hidesFooterSponsors = (pathname: string): boolean => {
  const first = pathname.split('/')[1];
  return first === 'admin' || first === 'payment';
};

/** The current project's slug, when the page is a project page. */
const useProjectSlug = (): string | undefined => {
  const { handle, params } = useCurrentRoute();
  if (handle?.name !== 'Project') return undefined;
  return params.slug || undefined;
};

function FooterSponsors({ slug, load }: { slug: string | undefined; load: boolean }) {
  const { data } = useGetFooterSponsorsQuery(slug, { skip: !load });
  if (!data || data.hidden) return null;
  const { LL, L, M, S } = data.tiers;
  if (LL.length + L.length + M.length + S.length === 0) return null;
  return (
    <section className="footer-sponsors" aria-labelledby="footer-sponsors-title">
      <h2 id="footer-sponsors-title" className="footer-sponsors__title">応援企業・団体</h2>
      <SponsorGroup label="特別協賛" sponsors={LL} size={4} named />
      <SponsorGroup label="協賛（大）" sponsors={L} size={3} named />
      <SponsorGroup label="協賛（中）" sponsors={M} size={2} named />
      <SponsorGroup label="協賛" sponsors={S} size={1} named />
    </section>
  );
}

export function Footer() {
  const { pathname } = useLocation();
  const slug = useProjectSlug();
  const { operator } = getSiteConfig();
  // The sponsor wall and its logos wait until the reader nears the footer, so they never
  // compete with the page's own first screen for the network.
  const footer = useRef<HTMLElement>(null);
  const nearFooter = useInView(footer, { once: true, rootMargin: '0px 0px 600px 0px' });
  return (
    <footer className="site-footer" ref={footer}>
      {!hidesFooterSponsors(pathname) && <FooterSponsors slug={slug} load={nearFooter} />}
      <div className="site-footer__inner">
        <p className="site-footer__top">
          <Link to={paths.home.getHref()}>TOP</Link>
        </p>
        <Link to={paths.home.getHref()} className="site-footer__logo" aria-label={`${SITE_NAME} トップページ`}>
          <Logo variant="inverse" />
        </Link>
        <address className="site-footer__operator" aria-label="運営者">
          <p className="site-footer__banner">
            <span className="site-footer__banner-label">運営</span>
            {operator.name}
          </p>
          <p>{operator.address}</p>
          <p>
            TEL <a href={`tel:${operator.phone.replace(/[^0-9+]/g, '')}`}>{operator.phone}</a>（{operator.hours}）
          </p>
          <p>
            お問い合わせ <a href={`mailto:${operator.email}`}>{operator.email}</a>
          </p>
        </address>
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
      </div>
    </footer>
  );
}
