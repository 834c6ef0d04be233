import { api } from '@/lib/api';
import type { Schemas } from '@/lib/apiTypes';

export type RefundProject = Schemas['RefundProjectDto'];
export type RefundSale = Schemas['RefundSaleDto'];
export type BulkJob = Schemas['BulkJobDto'];
export type RefundResult = Schemas['RefundResponse'];

/** Bulk select values (spec 001 §4, §9): 0 none, 1 full, 2 half, 3 specified amount. */
export type BulkMode = 0 | 1 | 2 | 3;

// Own tag, added here so the shared api slice stays untouched.
const refundsApi = api.enhanceEndpoints({ addTagTypes: ['Refunds'] }).injectEndpoints({
  endpoints: (build) => ({
    refundProjects: build.query<RefundProject[], void>({
      query: () => '/admin/get/refundProjects',
      transformResponse: (response: Schemas['RefundProjectsResponse']) => response.projects,
      providesTags: ['Refunds'],
    }),
    /** The seed's call: `GET /v1/sales/get/list?project_id=&intent=1&refunds=1`; `data.data` is the list. */
    refundSales: build.query<RefundSale[], number>({
      query: (projectId) => ({ url: '/sales/get/list', params: { project_id: projectId, intent: 1, refunds: 1 } }),
      transformResponse: (response: Schemas['RefundSalesResponse']) => response.data.data,
      providesTags: ['Refunds'],
    }),
    refund: build.mutation<RefundResult, Schemas['RefundRequestBody']>({
      query: (body) => ({ url: '/stripe/intent/set/refund', method: 'POST', body }),
      invalidatesTags: ['Refunds'],
    }),
    startBulkRefund: build.mutation<BulkJob | null, Schemas['BulkRefundBody'] & { mode: BulkMode }>({
      query: (body) => ({ url: '/admin/set/bulkRefund', method: 'POST', body }),
      transformResponse: (response: Schemas['BulkRefundResponse']) => response.job,
    }),
    bulkRefund: build.query<BulkJob | null, number>({
      query: (projectId) => ({ url: '/admin/get/bulkRefund', params: { project_id: projectId } }),
      transformResponse: (response: Schemas['BulkRefundResponse']) => response.job,
    }),
  }),
});

export const {
  useRefundProjectsQuery,
  useRefundSalesQuery,
  useRefundMutation,
  useStartBulkRefundMutation,
  useBulkRefundQuery,
} = refundsApi;

/** Reloads the refund table and the project counts (after a bulk run ends). */
export const invalidateRefunds = () => refundsApi.util.invalidateTags(['Refunds']);
