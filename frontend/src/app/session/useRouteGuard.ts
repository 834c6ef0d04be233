import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { isProtectedPath, paths } from '@/config/paths';
import { clearLoginRef, saveLoginRef } from '@/lib/storage';
import { endReasonHandled, noticeShown } from './sessionSlice';
import { useSession } from './useSession';

/**
 * What the layout renders for the current path: the page, a wait, nothing (leaving), Not Found, or
 * the session check's failure with a way to retry.
 */
export type RouteGate = 'allow' | 'wait' | 'leave' | 'notFound' | 'unavailable';

const isAdminPath = (pathname: string): boolean => pathname.split('/').includes('admin');

/**
 * Guards the pages whose path contains member, admin, account or edit (spec 000 §5 and §8, 001 §6):
 * - no token: notice, return path saved, to `/login/`;
 * - loginCheck answered 401: on a protected page the expiry notice and the return path saved, elsewhere
 *   the return path cleared; to `/login/?expired=1` either way;
 * - loginCheck failed otherwise (token removed): notice, to `/login/`;
 * - anyone who is not an administrator sees Not Found on `/admin` pages (spec 001 §2), a visitor without
 *   a token included: the admin area is not announced by a login prompt (docs/decisions.md, "Admin area").
 * Every other page (public, payment) renders for anyone; the session is checked all the same.
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
  // A visitor on an admin page stays and sees Not Found; only a logout from there still goes to login.
  const hidesAdmin = isAdminPath(pathname) && endReason !== 'logout';
  const mustLeave = isProtected && session.status === 'guest' && !hidesAdmin;

  useEffect(() => {
    if (handled.current === key) return;
    const here = `${pathname}${search}`;
    const leave = (href: string) => {
      handled.current = key;
      void navigate(href, { replace: true });
    };
    if (endReason === 'expired') {
      if (isProtected) {
        dispatch(noticeShown('expired'));
        saveLoginRef(here);
      } else {
        clearLoginRef();
      }
      leave(paths.login.getHref({ expired: 1 }));
    } else if (endReason === 'failed') {
      dispatch(noticeShown('loginProblem'));
      if (isProtected) saveLoginRef(here);
      leave(paths.login.getHref());
    } else if (mustLeave) {
      if (endReason !== 'logout') {
        dispatch(noticeShown('loginRequired'));
        saveLoginRef(here);
      }
      leave(paths.login.getHref());
    }
    if (endReason !== null) dispatch(endReasonHandled());
  }, [isProtected, mustLeave, endReason, key, pathname, search, navigate, dispatch]);

  if (!isProtected) return 'allow';
  if (mustLeave) return 'leave';
  if (hidesAdmin && session.status === 'guest') return 'notFound';
  if (session.status === 'unavailable') return 'unavailable';
  if (session.status !== 'loggedIn') return 'wait';
  if (isAdminPath(pathname) && !session.isAdmin) return 'notFound';
  return 'allow';
};
