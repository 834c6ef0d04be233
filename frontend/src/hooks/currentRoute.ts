import { createContext, useContext } from 'react';
import type { RouteHandle } from '@/config/routeHandle';

/** The route the location matched: its handle (name, title) and the parameters of its path. */
export interface CurrentRoute {
  handle: RouteHandle | undefined;
  params: Readonly<Record<string, string | undefined>>;
}

const CurrentRouteContext = createContext<CurrentRoute>({ handle: undefined, params: {} });

/** Set once for the whole tree by `AppRoutes`, which matches the location against the routes. */
export const CurrentRouteProvider = CurrentRouteContext.Provider;

/**
 * The current route, for the chrome around pages (title, header, footer) as much as for pages. The
 * declarative router has no `useMatches`; this is what the layout used it for.
 */
export const useCurrentRoute = (): CurrentRoute => useContext(CurrentRouteContext);
