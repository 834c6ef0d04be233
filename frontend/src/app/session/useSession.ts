import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { paths } from '@/config/paths';
import { api } from '@/lib/api';
import { clearLoginRef, clearLot, clearToken, writeToken, type StoredToken } from '@/lib/storage';
import { useLoginCheckQuery, type Session } from './sessionApi';
import { tokenCleared, tokenStored } from './sessionSlice';

/**
 * The session state machine of spec 000 §4:
 * `unchecked` (a token is stored, the check has not started) -> `checking` -> `loggedIn`;
 * without a token, or when the server refuses it, `guest`; when the check fails without a verdict on the
 * token (403, no answer), `unavailable`: the token is kept and the user is asked to reload.
 */
export type SessionStatus = 'unchecked' | 'checking' | 'loggedIn' | 'guest' | 'unavailable';

export interface SessionView extends Session {
  status: SessionStatus;
  /** True until the stored token, if any, has been checked by the server. */
  isChecking: boolean;
}

const GUEST: SessionView = {
  status: 'guest',
  isLoggedIn: false,
  isAdmin: false,
  userId: null,
  hasCustomer: false,
  isChecking: false,
};

/** The current session: guest without a token, else what `loginCheck` answers. */
export const useSession = (): SessionView => {
  const hasToken = useAppSelector((state) => state.session.hasToken);
  const { data, isUninitialized, isLoading, isError } = useLoginCheckQuery(undefined, { skip: !hasToken });
  if (!hasToken) return GUEST;
  if (data) {
    return { ...data, status: data.isLoggedIn ? 'loggedIn' : 'guest', isChecking: false };
  }
  if (isUninitialized || isLoading) {
    return { ...GUEST, status: isUninitialized ? 'unchecked' : 'checking', isChecking: true };
  }
  if (isError) return { ...GUEST, status: 'unavailable' };
  return GUEST;
};

/**
 * Stores a token and checks the session again. After a login (`newSession`) every cached
 * answer is dropped, so nothing of an earlier user survives; after a password change the
 * same user keeps the cache.
 */
export const useStoreToken = (): ((token: StoredToken, options?: { newSession?: boolean }) => void) => {
  const dispatch = useAppDispatch();
  return useCallback(
    (token: StoredToken, { newSession = false }: { newSession?: boolean } = {}) => {
      writeToken(token);
      if (newSession) dispatch(api.util.resetApiState());
      dispatch(tokenStored());
      dispatch(api.util.invalidateTags(['Session']));
    },
    [dispatch],
  );
};

/**
 * Logs out (spec 000 §4): removes the token, the return path and the lot, forgets every
 * cached answer, then goes to the login page.
 */
export const useLogout = (): (() => void) => {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  return useCallback(() => {
    clearToken();
    clearLoginRef();
    clearLot();
    dispatch(tokenCleared('logout'));
    dispatch(api.util.resetApiState());
    void navigate(paths.login.getHref());
  }, [dispatch, navigate]);
};
