import { api } from '@/lib/api';
import { clearToken } from '@/lib/storage';
import { tokenCleared } from '../sessionSlice';

/**
 * `GET /v1/user/loginCheck` (spec 000 §7: the client reads `data.data` of the axios
 * response, i.e. `data` of the body). `isAdmin` and `userId` are our additions: the server,
 * not a client-side e-mail list, says whether the user is an administrator.
 */
export interface LoginCheckResponse {
  data?: {
    flag?: number;
    userId?: number;
    customer?: unknown;
    isAdmin?: boolean;
  };
}

export interface Session {
  isLoggedIn: boolean;
  isAdmin: boolean;
  userId: number | null;
}

/** `flag` of a valid session. */
export const LOGIN_CHECK_OK = 1;

export const toSession = (response: LoginCheckResponse): Session => {
  const isLoggedIn = response.data?.flag === LOGIN_CHECK_OK;
  const userId = response.data?.userId;
  return {
    isLoggedIn,
    isAdmin: isLoggedIn && response.data?.isAdmin === true,
    userId: isLoggedIn && typeof userId === 'number' ? userId : null,
  };
};

const statusOf = (error: unknown): unknown =>
  typeof error === 'object' && error !== null && 'error' in error
    ? (error as { error: { status?: unknown } }).error.status
    : undefined;

const sessionApi = api.injectEndpoints({
  endpoints: (build) => ({
    loginCheck: build.query<Session, void>({
      query: () => '/user/loginCheck',
      transformResponse: toSession,
      providesTags: ['Session'],
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        // A token the server does not accept is removed (spec 000 §4, session).
        try {
          const { data } = await queryFulfilled;
          if (data.isLoggedIn) return;
          clearToken();
          dispatch(tokenCleared('rejected'));
        } catch (error) {
          clearToken();
          dispatch(tokenCleared(statusOf(error) === 401 ? 'expired' : 'rejected'));
        }
      },
    }),
  }),
});

export const { useLoginCheckQuery } = sessionApi;
