import { api } from '@/lib/api';
import { saveFile } from '@/lib/download';
import type { DeliveryList, DeliveryListArgs, MarkDeliveriesArgs, MarkDeliveriesResult } from '../deliveries/types';

export type {
  Delivery,
  DeliveryFilter,
  DeliveryList,
  DeliveryListArgs,
  DeliveryReturn,
  MarkDeliveriesArgs,
  MarkDeliveriesInput,
  MarkDeliveriesResult,
} from '../deliveries/types';

/** The name the export is saved under (the server's `Content-Disposition`). */
export const deliveriesCsvName = (projectId: number): string => `deliveries-${projectId}.csv`;

const base = (projectId: number) => `/admin/projects/${projectId}/deliveries`;

const filterParams = ({ returnId, state }: Pick<DeliveryListArgs, 'returnId' | 'state'>) => ({
  state,
  ...(returnId === null ? {} : { returnId }),
});

const deliveriesApi = api.enhanceEndpoints({ addTagTypes: ['AdminDeliveries', 'AdminActions'] }).injectEndpoints({
  endpoints: (build) => ({
    deliveries: build.query<DeliveryList, DeliveryListArgs>({
      query: (args) => ({ url: base(args.projectId), params: { ...filterParams(args), page: args.page } }),
      providesTags: (_result, _error, { projectId }) => [{ type: 'AdminDeliveries', id: projectId }],
    }),
    /** Sets the state of the selected sales; the list, its counts and the audit log are read again. */
    markDeliveries: build.mutation<MarkDeliveriesResult, MarkDeliveriesArgs>({
      query: ({ projectId, input }) => ({ url: base(projectId), method: 'POST', body: input }),
      invalidatesTags: (_result, error, { projectId }) =>
        error ? [] : [{ type: 'AdminDeliveries', id: projectId }, 'AdminActions'],
    }),
    /**
     * The CSV of the filtered list, saved as `deliveries-{id}.csv`. Fetched through the API (a plain link would not
     * carry the bearer token); the file goes to the browser, not to the store.
     */
    exportDeliveries: build.mutation<null, Omit<DeliveryListArgs, 'page'>>({
      queryFn: async (args, _api, _extra, baseQuery) => {
        const result = await baseQuery({
          url: `${base(args.projectId)}/export.csv`,
          params: filterParams(args),
          cache: 'no-store',
          responseHandler: (response) => (response.ok ? response.blob() : response.json()),
        });
        if (result.error) return { error: result.error };
        saveFile(result.data as Blob, deliveriesCsvName(args.projectId));
        return { data: null };
      },
    }),
  }),
});

export const { useDeliveriesQuery, useMarkDeliveriesMutation, useExportDeliveriesMutation } = deliveriesApi;
