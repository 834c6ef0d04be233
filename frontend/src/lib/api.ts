import { createApi, fetchBaseQuery } from '@reduxjs/toolkit/query/react';
import type { BaseQueryFn, FetchArgs, FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { requestKey, takePrefetched } from './prefetched';
import { readToken } from './storage';

export const API_BASE_URL = '/v1';

const fetchFromServer = fetchBaseQuery({
  baseUrl: API_BASE_URL,
  prepareHeaders: (headers) => {
    const stored = readToken();
    if (stored) headers.set('Authorization', `Bearer ${stored.token}`);
    return headers;
  },
});

/**
 * Answers from the responses embedded in the page when it has one for the
 * request, else from the server. The embedded ones are what a logged-out
 * visitor gets, so a logged-in one always asks the server.
 */
const baseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = (args, api, extraOptions) => {
  const key = requestKey(args);
  // Taken either way, so a stale anonymous answer never outlives its first request.
  const embedded = key === null ? undefined : takePrefetched(key);
  if (embedded !== undefined && !readToken()) return { data: embedded };
  return fetchFromServer(args, api, extraOptions);
};

/**
 * The single RTK Query API of our backend. Features add their endpoints with
 * `api.injectEndpoints` in their own `api/` folder.
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: ['Session', 'User', 'Sales'],
  endpoints: () => ({}),
});
