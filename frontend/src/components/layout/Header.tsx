import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { Logo } from '@/components/Logo';
import { paths } from '@/config/paths';

// The ways to the project list and the legal pages load with the menu's first opening, not with every page's
// scripts (docs/decisions.md, "Initial JavaScript within 130 KB").
const MenuDirectory = lazy(() => import(/* webpackChunkName: "menu" */ './MenuDirectory'));

export interface HeaderProps {
  isLoggedIn: boolean;
  isAdmin: boolean;
  onLogout: () => void;
  /**
   * `overlay`: drawn by the home hero itself (the Home route hides the global header):
   * transparent, with a white logo, while the menu is closed.
   */
  variant?: 'default' | 'overlay';
}

/** Logo and a hamburger button that toggles the menu overlay. */
export function Header({ isLoggedIn, isAdmin, onLogout, variant = 'default' }: HeaderProps) {
  const [open, setOpen] = useState(false);
  const { pathname, search } = useLocation();

  // Over the hero the header is transparent; once the page scrolls it turns solid, so it stays
  // readable wherever the reader is (it is fixed at the top on every page).
  const [scrolled, setScrolled] = useState(false);
  useEffect(() => {
    if (variant !== 'overlay') return undefined;
    const update = () => setScrolled(window.scrollY > 48);
    update();
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, [variant]);

  useEffect(() => setOpen(false), [pathname, search]);
  useEffect(() => {
    if (!open) return undefined;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  // Inside the home hero it is part of the page's content, not the page banner.
  const Tag = variant === 'overlay' ? 'div' : 'header';
  const transparent = variant === 'overlay' && !open && !scrolled;
  return (
    <Tag className={`site-header site-header--${variant}${transparent ? ' site-header--transparent' : ''}`}>
      <Link to={paths.home.getHref()} className="site-header__logo">
        <Logo variant={transparent ? 'inverse' : 'default'} />
      </Link>
      {/* Wide screens show the account links beside the menu button (phones keep them in the menu). */}
      <nav className="site-header__actions" aria-label="アカウント">
        {isLoggedIn ? (
          <Link className="site-header__action" to={paths.account.getHref()}>マイページ</Link>
        ) : (
          <>
            <Link className="site-header__action" to={paths.login.getHref()}>ログイン</Link>
            <Link className="site-header__action site-header__action--primary" to={paths.signup.getHref()}>
              新規登録
            </Link>
          </>
        )}
      </nav>
      <button
        type="button"
        className="menu-button"
        aria-expanded={open}
        aria-controls="global-menu"
        aria-label={open ? 'メニューを閉じる' : 'メニューを開く'}
        onClick={() => setOpen((value) => !value)}
      >
        <span className="menu-button__bar" aria-hidden="true" />
      </button>
      <nav id="global-menu" className="menu-overlay" hidden={!open} aria-label="メニュー">
        <ul className="menu-overlay__list" aria-label="会員">
          {isLoggedIn ? (
            <>
              <li>
                <Link className="menu-overlay__item" to={paths.account.getHref()}>マイページ</Link>
              </li>
              {isAdmin && (
                <li>
                  <Link className="menu-overlay__item" to={paths.admin.getHref()}>管理画面</Link>
                </li>
              )}
              {/* Last: the one entry that ends something. */}
              <li>
                <button type="button" className="menu-overlay__item" onClick={onLogout}>
                  ログアウト
                </button>
              </li>
            </>
          ) : (
            <>
              <li>
                <Link className="menu-overlay__item" to={paths.login.getHref()}>ログイン</Link>
              </li>
              <li>
                <Link className="menu-overlay__item" to={paths.signup.getHref()}>新規登録</Link>
              </li>
            </>
          )}
        </ul>
        {open && (
          <Suspense fallback={null}>
            <MenuDirectory />
          </Suspense>
        )}
      </nav>
    </Tag>
  );
}
