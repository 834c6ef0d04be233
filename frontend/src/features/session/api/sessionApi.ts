import { api } from '@/lib/api';
import { clearToken } from '@/lib/storage';
import { tokenCleared } from '../sessionSlice';

/**
 * `GET /v1/user/loginCheck` (spec 000 §7: the client reads `data.data` of the axios
 * response, i.e. `data` of the body). `isAdmin` is our addition: the server, not a
 * client-side e-mail list, says whether the user is an administrator.
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
  /** The logged-in user's id (`data.userId`), e.g. to tell a comment's author. */
  userId?: number | null;
}

/** `flag` of a valid session. */
export const LOGIN_CHECK_OK = 1;

export const toSession = (response: LoginCheckResponse): Session => {
  const isLoggedIn = response.data?.flag === LOGIN_CHECK_OK;
  const userId = isLoggedIn && typeof response.data?.userId === 'number' ? response.data.userId : null;
  return { isLoggedIn, isAdmin: isLoggedIn && response.data?.isAdmin === true, userId };
};

const sessionApi = api.injectEndpoints({
  endpoints: (build) => ({
    loginCheck: build.query<Session, void>({
      query: () => '/user/loginCheck',
      transformResponse: toSession,
      providesTags: ['Session'],
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        // A token the server does not accept is removed (spec 000 §4, session).
        let valid = false;
        try {
          valid = (await queryFulfilled).data.isLoggedIn;
        } catch {
          valid = false;
        }
        if (!valid) {
          clearToken();
          dispatch(tokenCleared());
        }
      },
    }),
  }),
});

export const { useLoginCheckQuery } = sessionApi;
