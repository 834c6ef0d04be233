import { Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { Footer } from '@/components/layout/Footer';
import { Header } from '@/components/layout/Header';
import { ScrollManager } from '@/components/layout/ScrollManager';
import { LoadError } from '@/components/form/LoadError';
import { PageLoading } from '@/components/PageLoading';
import { HEADERLESS_ROUTES } from '@/config/routeHandle';
import { useCurrentRoute } from '@/hooks/currentRoute';
import { applyPageMeta, usePageMetaOverrideValue } from '@/hooks/pageMeta';
import { NotFound } from '@/components/NotFound';
import { SessionNoticeDialog } from '@/app/session/SessionNoticeDialog';
import { SessionPaymentData } from '@/app/session/SessionPaymentData';
import { useRouteGuard, type RouteGate } from '@/app/session/useRouteGuard';
import { useLogout, useSession } from '@/app/session/useSession';
import { SESSION_MESSAGES } from '@/app/session/messages';
import { api } from '@/lib/api';
import { useAppDispatch } from './hooks';

/** Project pages scroll to their hash target 200 ms after arrival (spec 000 §2). */
const PROJECT_HASH_DELAY_MS = 200;

/** The chrome around every page: header, footer, page meta and scrolling. */
export function AppLayout() {
  const { handle } = useCurrentRoute();
  const override = usePageMetaOverrideValue();
  const { pathname, search } = useLocation();
  const session = useSession();
  const logout = useLogout();
  const gate = useRouteGuard();

  const name = handle?.name ?? 'NotFound';
  const title = override?.title ?? handle?.title ?? '';
  const description = override?.description ?? handle?.description;
  const type = override?.type ?? (name === 'Home' ? 'website' : 'article');

  useEffect(() => {
    applyPageMeta({ title, description, type }, `${window.location.origin}${pathname}${search}`);
  }, [title, description, type, pathname, search]);

  return (
    <div className="app">
      <a className="skip-link" href="#main">本文へスキップ</a>
      {!HEADERLESS_ROUTES.has(name) && (
        <Header isLoggedIn={session.isLoggedIn} isAdmin={session.isAdmin} onLogout={logout} />
      )}
      <main id="main" className="app__main" tabIndex={-1}>
        <Suspense fallback={<PageLoading />}>
          <GatedOutlet gate={gate} />
        </Suspense>
      </main>
      <Footer />
      <ScrollManager hashDelayMs={name === 'Project' ? PROJECT_HASH_DELAY_MS : 0} />
      <SessionNoticeDialog />
      <SessionPaymentData />
    </div>
  );
}

/** A protected page renders only for a checked session (and `/admin` only for administrators). */
function GatedOutlet({ gate }: { gate: RouteGate }) {
  switch (gate) {
    case 'allow':
      return <Outlet />;
    case 'wait':
      return <PageLoading />;
    case 'notFound':
      return <NotFound />;
    case 'leave':
      return null;
    case 'unavailable':
      return <SessionRetry />;
  }
}

/** A protected page whose session could not be checked (403 or no answer): the token is kept, retry. */
function SessionRetry() {
  const dispatch = useAppDispatch();
  return (
    <section className="page">
      <LoadError message={SESSION_MESSAGES.reload} onRetry={() => dispatch(api.util.invalidateTags(['Session']))} />
    </section>
  );
}
