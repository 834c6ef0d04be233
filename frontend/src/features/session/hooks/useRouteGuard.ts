import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { isProtectedPath, paths } from '@/config/paths';
import { clearLoginRef, saveLoginRef } from '@/lib/storage';
import { SESSION_MESSAGES } from '../messages';
import { endReasonHandled } from '../sessionSlice';
import { useSession } from './useSession';

/** What the layout renders for the current path: the page, a wait, nothing (leaving), or Not Found. */
export type RouteGate = 'allow' | 'wait' | 'leave' | 'notFound';

const isAdminPath = (pathname: string): boolean => pathname.split('/').includes('admin');

/**
 * Guards the pages whose path contains member, admin, account or edit (spec 000 §5, 001 §6):
 * - no token: notice, return path saved, to `/login/`;
 * - loginCheck answered 401: expired notice, return path saved, to `/login/?expired=1`
 *   (on any other page the return path is cleared and the user is a guest);
 * - a logged-in user who is not an administrator sees Not Found on `/admin` pages.
 */
export const useRouteGuard = (): RouteGate => {
  const { pathname, search, key } = useLocation();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const endReason = useAppSelector((state) => state.session.endReason);
  const session = useSession();
  // The location already sent away: React may render it again before the navigation lands.
  const handled = useRef<string | null>(null);

  const isProtected = isProtectedPath(pathname);
  const mustLeave = isProtected && session.status === 'guest';

  useEffect(() => {
    if (!isProtected) {
      if (endReason === 'expired') clearLoginRef();
      if (endReason !== null) dispatch(endReasonHandled());
      return;
    }
    if (!mustLeave || handled.current === key) return;
    handled.current = key;
    const here = `${pathname}${search}`;
    if (endReason === 'expired') {
      window.alert(SESSION_MESSAGES.expired);
      saveLoginRef(here);
      void navigate(paths.login.getHref({ expired: 1 }), { replace: true });
    } else if (endReason === 'logout') {
      void navigate(paths.login.getHref(), { replace: true });
    } else {
      window.alert(SESSION_MESSAGES.loginRequired);
      saveLoginRef(here);
      void navigate(paths.login.getHref(), { replace: true });
    }
    if (endReason !== null) dispatch(endReasonHandled());
  }, [isProtected, mustLeave, endReason, key, pathname, search, navigate, dispatch]);

  if (!isProtected) return 'allow';
  if (mustLeave) return 'leave';
  if (session.status !== 'loggedIn') return 'wait';
  if (isAdminPath(pathname) && !session.isAdmin) return 'notFound';
  return 'allow';
};
