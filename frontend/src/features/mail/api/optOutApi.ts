import { api } from '@/lib/api';
import type { ApiResponse } from '@/lib/apiTypes';

const optOutApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `POST /v1/mail/set/optOut`: the signed token of the link decides; no login. */
    optOut: build.mutation<boolean, string>({
      query: (token) => ({ url: '/mail/set/optOut', method: 'POST', body: { token } }),
      transformResponse: (response: ApiResponse<'opt_out_of_mail'>) => response.optedOut,
    }),
  }),
});

export const { useOptOutMutation } = optOutApi;
