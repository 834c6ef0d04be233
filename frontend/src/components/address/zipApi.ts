import { api } from '@/lib/api';
import type { ApiResponse } from '@/lib/apiTypes';

export type ZipAddress = ApiResponse<'lookup_zip'>;

/** `GET /v1/address/get/zip`: prefecture, city and town of a postal code (account and payment address forms). */
const zipApi = api.injectEndpoints({
  endpoints: (build) => ({
    zipAddress: build.query<ZipAddress, string>({
      query: (zip) => ({ url: '/address/get/zip', params: { zip } }),
    }),
  }),
});

export const { useLazyZipAddressQuery } = zipApi;
