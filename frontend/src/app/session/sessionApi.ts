import { api } from '@/lib/api';
import type { ApiResponse } from '@/lib/apiTypes';
import { clearToken, readToken } from '@/lib/storage';
import { noticeShown, tokenCleared, type SessionEndReason } from './sessionSlice';

/**
 * `GET /v1/user/loginCheck` (spec 000 §7: the client reads `data.data` of the axios
 * response, i.e. `data` of the body). `isAdmin` and `userId` are our additions: the server,
 * not a client-side e-mail list, says whether the user is an administrator. `customer` is the
 * member's payment-provider customer, null until the first card or bank transfer.
 */
export type LoginCheckResponse = ApiResponse<'login_check'>;

export interface Session {
  isLoggedIn: boolean;
  isAdmin: boolean;
  userId: number | null;
  /** The member has a provider customer: cards and monthly supports are loaded with the session (spec 000 §4). */
  hasCustomer: boolean;
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
    hasCustomer: isLoggedIn && typeof response.data?.customer?.customer_id === 'string',
  };
};

/**
 * What a failed loginCheck means for the stored token (spec 000 §8, "Login check"; docs/decisions.md):
 * - `expired`: 401, the server refused the token;
 * - `unavailable`: 403, or no answer at all (offline, timeout, the page unloading): nothing is known
 *   about the token, so it is kept and the user is asked to reload;
 * - `failed`: any other answer (5xx, unreadable body): the token is removed;
 * - `ignored`: the request never ran to an answer inside RTK Query (aborted): nothing happens.
 */
export type LoginCheckFailure = 'expired' | 'unavailable' | 'failed' | 'ignored';

export const classifyLoginCheckFailure = (failure: unknown): LoginCheckFailure => {
  if (typeof failure !== 'object' || failure === null || !('error' in failure)) return 'ignored';
  const { error, isUnhandledError } = failure as { error: unknown; isUnhandledError?: boolean };
  if (isUnhandledError) return 'ignored';
  const status = typeof error === 'object' && error !== null ? (error as { status?: unknown }).status : undefined;
  if (status === 401) return 'expired';
  if (status === 403 || status === 'FETCH_ERROR' || status === 'TIMEOUT_ERROR') return 'unavailable';
  return 'failed';
};

const sessionApi = api.injectEndpoints({
  endpoints: (build) => ({
    loginCheck: build.query<Session, void>({
      query: () => '/user/loginCheck',
      transformResponse: toSession,
      providesTags: ['Session'],
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        // A token the server does not accept is removed (spec 000 §4, session); see `classifyLoginCheckFailure`.
        // Only the token this check was about: one stored meanwhile (a login) is not touched.
        const checked = readToken()?.token;
        const end = (reason: SessionEndReason) => {
          if (readToken()?.token !== checked) return;
          clearToken();
          dispatch(tokenCleared(reason));
        };
        try {
          const { data } = await queryFulfilled;
          if (!data.isLoggedIn) end('rejected');
        } catch (failure) {
          switch (classifyLoginCheckFailure(failure)) {
            case 'expired':
              end('expired');
              break;
            case 'failed':
              end('failed');
              break;
            case 'unavailable':
              dispatch(noticeShown('reload'));
              break;
            case 'ignored':
              break;
          }
        }
      },
    }),
  }),
});

export const { useLoginCheckQuery } = sessionApi;

/** The cached answer of loginCheck, for code outside components. */
export const selectLoginCheck = sessionApi.endpoints.loginCheck.select();
