import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { paths } from '@/config/paths';
import { api } from '@/lib/api';
import { clearToken } from '@/lib/storage';
import { useLoginCheckQuery, type Session } from '../api/sessionApi';
import { tokenCleared } from '../sessionSlice';

export interface SessionView extends Session {
  /** True until the stored token, if any, has been checked by the server. */
  isChecking: boolean;
}

const GUEST: Session = { isLoggedIn: false, isAdmin: false, userId: null };

/** The current session: guest without a token, else what `loginCheck` answers. */
export const useSession = (): SessionView => {
  const hasToken = useAppSelector((state) => state.session.hasToken);
  const { data, isLoading } = useLoginCheckQuery(undefined, { skip: !hasToken });
  if (!hasToken) return { ...GUEST, isChecking: false };
  return { ...(data ?? GUEST), isChecking: isLoading };
};

/** Logs out: forgets the token and every cached answer, then goes to the login page. */
export const useLogout = (): (() => void) => {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  return useCallback(() => {
    clearToken();
    dispatch(tokenCleared());
    dispatch(api.util.resetApiState());
    navigate(paths.login.getHref());
  }, [dispatch, navigate]);
};
