import { api } from '@/lib/api';
import type { ApiResponse } from '@/lib/apiTypes';
import { getApiErrorBody } from '@/lib/apiError';
import { saveFile } from '@/lib/download';
import type { MarkPaidArgs, Statement } from '../payouts/types';

export type { MarkPaidArgs, MarkPaidInput, PaidStatement, Statement, StatementFigures } from '../payouts/types';

const BASE = '/admin/payouts';

/** The name the export is saved under. */
export const PAYOUTS_CSV = 'payouts.csv';

const LIST = { type: 'Payouts', id: 'LIST' } as const;

const payoutsApi = api.enhanceEndpoints({ addTagTypes: ['Payouts', 'AdminActions'] }).injectEndpoints({
  endpoints: (build) => ({
    /** Every successful project's current statement, due first, then by payout date. */
    payouts: build.query<Statement[], void>({
      query: () => BASE,
      transformResponse: (response: ApiResponse<'list_payouts'>) => response.payouts,
      providesTags: [LIST],
    }),
    statement: build.query<Statement, number>({
      query: (projectId) => `${BASE}/${projectId}`,
      providesTags: (_result, _error, projectId) => [{ type: 'Payouts', id: projectId }],
    }),
    /**
     * Answers the project's next statement, which replaces the one shown; the list and the audit log are read
     * again. A 409 (`payout_changed`: a refund or a payment came in since the statement was read) reloads it too.
     */
    markPaid: build.mutation<Statement, MarkPaidArgs>({
      query: ({ projectId, input }) => ({ url: `${BASE}/${projectId}/paid`, method: 'POST', body: input }),
      invalidatesTags: (_result, error, { projectId }) => {
        if (!error) return [LIST, 'AdminActions'];
        return getApiErrorBody(error)?.error === 'payout_changed' ? [LIST, { type: 'Payouts', id: projectId }] : [];
      },
      onQueryStarted: async ({ projectId }, { dispatch, queryFulfilled }) => {
        try {
          const { data } = await queryFulfilled;
          void dispatch(payoutsApi.util.upsertQueryData('statement', projectId, data));
        } catch {
          // A refused mark leaves the statement as it was; the form shows why.
        }
      },
    }),
    /**
     * The CSV export, saved as `payouts.csv`. Fetched through the API (a plain link would not carry the bearer
     * token); the file goes to the browser, not to the store (a Blob is no state).
     */
    exportPayouts: build.mutation<null, void>({
      queryFn: async (_arg, _api, _extra, baseQuery) => {
        const result = await baseQuery({
          url: `${BASE}/export.csv`,
          cache: 'no-store',
          responseHandler: (response) => (response.ok ? response.blob() : response.json()),
        });
        if (result.error) return { error: result.error };
        saveFile(result.data as Blob, PAYOUTS_CSV);
        return { data: null };
      },
    }),
  }),
});

export const { usePayoutsQuery, useStatementQuery, useMarkPaidMutation, useExportPayoutsMutation } = payoutsApi;
