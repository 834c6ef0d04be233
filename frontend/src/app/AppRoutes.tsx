import { useMemo } from 'react';
import { matchRoutes, useLocation, useRoutes } from 'react-router-dom';
import { getRouteHandle } from '@/config/routeHandle';
import { CurrentRouteProvider, type CurrentRoute } from '@/hooks/currentRoute';
import { RouteErrorBoundary } from './RouteError';
import { routes } from './routes';

/**
 * The pages for the router's location, under any router: `BrowserRouter` in the browser, `MemoryRouter`
 * in tests, `StaticRouter` on a server. Declarative routing keeps the data router's code (loaders,
 * actions, fetchers) out of the first download; the route's handle comes from `useCurrentRoute`.
 */
export function AppRoutes() {
  const location = useLocation();
  const { pathname } = location;
  const current = useMemo((): CurrentRoute => {
    const matches = matchRoutes(routes, pathname);
    return { handle: getRouteHandle(matches), params: matches?.at(-1)?.params ?? {} };
  }, [pathname]);
  const page = useRoutes(routes);
  return (
    <RouteErrorBoundary location={location}>
      <CurrentRouteProvider value={current}>{page}</CurrentRouteProvider>
    </RouteErrorBoundary>
  );
}
