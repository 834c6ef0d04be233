import { createApi, fetchBaseQuery } from '@reduxjs/toolkit/query/react';
import { readToken } from './storage';

export const API_BASE_URL = '/v1';

/**
 * The single RTK Query API of our backend. Features add their endpoints with
 * `api.injectEndpoints` in their own `api/` folder.
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery: fetchBaseQuery({
    baseUrl: API_BASE_URL,
    prepareHeaders: (headers) => {
      const stored = readToken();
      if (stored) headers.set('Authorization', `Bearer ${stored.token}`);
      return headers;
    },
  }),
  tagTypes: ['Session', 'User', 'Sales'],
  endpoints: () => ({}),
});
