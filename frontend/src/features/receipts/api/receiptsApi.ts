import { api } from '@/lib/api';
import type { IssueLinkReceiptArgs, IssueMemberReceiptArgs, SaleReceipt } from '../types';

export type { SaleReceipt } from '../types';

/**
 * Receipts of paid sales: a member's own (`/user/receipts/{saleId}`) and the paid mail's link (`/receipts/{token}`).
 * An issue answers the receipt as issued; it replaces the cached one before the caller's continuation runs (a patch
 * is synchronous), so the page shows the new title (再発行) by the time it prints. A refused issue leaves the cache
 * as it was; the form shows the server's message.
 */
const receiptsApi = api.enhanceEndpoints({ addTagTypes: ['Receipt'] }).injectEndpoints({
  endpoints: (build) => ({
    memberReceipt: build.query<SaleReceipt, number>({
      query: (saleId) => `/user/receipts/${saleId}`,
      providesTags: (_result, _error, saleId) => [{ type: 'Receipt', id: `sale-${saleId}` }],
    }),
    issueMemberReceipt: build.mutation<SaleReceipt, IssueMemberReceiptArgs>({
      query: ({ saleId, input }) => ({ url: `/user/receipts/${saleId}/issue`, method: 'POST', body: input }),
      onQueryStarted: async ({ saleId }, { dispatch, queryFulfilled }) => {
        try {
          const { data } = await queryFulfilled;
          dispatch(receiptsApi.util.updateQueryData('memberReceipt', saleId, () => data));
        } catch {
          // Refused: nothing changed.
        }
      },
    }),
    linkReceipt: build.query<SaleReceipt, string>({
      query: (token) => `/receipts/${encodeURIComponent(token)}`,
      providesTags: (_result, _error, token) => [{ type: 'Receipt', id: `link-${token}` }],
    }),
    issueLinkReceipt: build.mutation<SaleReceipt, IssueLinkReceiptArgs>({
      query: ({ token, input }) => ({ url: `/receipts/${encodeURIComponent(token)}/issue`, method: 'POST', body: input }),
      onQueryStarted: async ({ token }, { dispatch, queryFulfilled }) => {
        try {
          const { data } = await queryFulfilled;
          dispatch(receiptsApi.util.updateQueryData('linkReceipt', token, () => data));
        } catch {
          // Refused: nothing changed.
        }
      },
    }),
  }),
});

export const {
  useMemberReceiptQuery,
  useIssueMemberReceiptMutation,
  useLinkReceiptQuery,
  useIssueLinkReceiptMutation,
} = receiptsApi;
