import { api } from '@/lib/api';
import { manualSponsorFormData } from '../content/rules';
import type {
  ContentInput,
  ManualSponsorArgs,
  ManualSponsors,
  MoveManualSponsorArgs,
  SaveManualSponsorArgs,
  ProjectContent,
  ProjectSettings,
  RemoveImageArgs,
  SaveContentArgs,
  SaveSettingsArgs,
  UploadImageArgs,
} from '../content/types';

export type { ProjectContent, ContentInput } from '../content/types';

const BASE = '/admin/projects';

/** What a content change also changes: the preview and the audit log (the answer replaces the cached content). */
const CHANGED = ['AdminProjectPreview', 'AdminActions'] as const;

const contentApi = api
  .enhanceEndpoints({ addTagTypes: ['ProjectContent', 'ProjectSettings', 'ManualSponsors', 'AdminProjectPreview', 'AdminActions'] })
  .injectEndpoints({
    endpoints: (build) => {
      /** Every change answers with the whole content: it replaces the cached one. */
      const store = async (
        projectId: number,
        dispatch: (action: unknown) => unknown,
        queryFulfilled: Promise<{ data: ProjectContent }>,
      ) => {
        try {
          const { data } = await queryFulfilled;
          dispatch(contentApi.util.upsertQueryData('projectContent', projectId, data));
        } catch {
          // Refused: the form shows the server's messages.
        }
      };
      /** Every change to the sponsor list answers with the whole list: it replaces the cached one. */
      const storeSponsors = async (
        projectId: number,
        { dispatch, queryFulfilled }: { dispatch: (action: unknown) => unknown; queryFulfilled: Promise<{ data: ManualSponsors }> },
      ) => {
        try {
          const { data } = await queryFulfilled;
          dispatch(contentApi.util.upsertQueryData('manualSponsors', projectId, data));
        } catch {
          // Refused: the form shows the server's messages.
        }
      };
      return {
        projectContent: build.query<ProjectContent, number>({
          query: (projectId) => `${BASE}/${projectId}/content`,
          providesTags: (_result, _error, projectId) => [{ type: 'ProjectContent', id: projectId }],
        }),
        saveContent: build.mutation<ProjectContent, SaveContentArgs>({
          query: ({ projectId, input }) => ({ url: `${BASE}/${projectId}/content`, method: 'POST', body: input }),
          invalidatesTags: [...CHANGED],
          onQueryStarted: ({ projectId }, { dispatch, queryFulfilled }) => store(projectId, dispatch, queryFulfilled),
        }),
        uploadProjectImage: build.mutation<ProjectContent, UploadImageArgs>({
          query: ({ projectId, slot, file, alt, returnId }) => {
            const body = new FormData();
            if (alt !== undefined) body.append('alt', alt);
            body.append('file', file);
            const params = returnId === undefined ? { slot } : { slot, returnId };
            return { url: `${BASE}/${projectId}/images`, method: 'POST', params, body };
          },
          invalidatesTags: [...CHANGED],
          onQueryStarted: ({ projectId }, { dispatch, queryFulfilled }) => store(projectId, dispatch, queryFulfilled),
        }),
        removeProjectImage: build.mutation<ProjectContent, RemoveImageArgs>({
          query: ({ projectId, slot, returnId }) => ({
            url: `${BASE}/${projectId}/images/remove`,
            method: 'POST',
            body: { slot, returnId: returnId ?? null },
          }),
          invalidatesTags: [...CHANGED],
          onQueryStarted: ({ projectId }, { dispatch, queryFulfilled }) => store(projectId, dispatch, queryFulfilled),
        }),
        projectSettings: build.query<ProjectSettings, number>({
          query: (projectId) => `${BASE}/${projectId}/settings`,
          providesTags: (_result, _error, projectId) => [{ type: 'ProjectSettings', id: projectId }],
        }),
        saveProjectSettings: build.mutation<ProjectSettings, SaveSettingsArgs>({
          query: ({ projectId, input }) => ({ url: `${BASE}/${projectId}/settings`, method: 'POST', body: input }),
          // The sponsor list says whether the walls show it (`usesManualSponsors`).
          invalidatesTags: (_result, _error, { projectId }) => [...CHANGED, { type: 'ManualSponsors', id: projectId }],
          onQueryStarted: async ({ projectId }, { dispatch, queryFulfilled }) => {
            try {
              const { data } = await queryFulfilled;
              dispatch(contentApi.util.upsertQueryData('projectSettings', projectId, data));
            } catch {
              // Refused: the form shows the server's messages.
            }
          },
        }),
        manualSponsors: build.query<ManualSponsors, number>({
          query: (projectId) => `${BASE}/${projectId}/manual-sponsors`,
          providesTags: (_result, _error, projectId) => [{ type: 'ManualSponsors', id: projectId }],
        }),
        saveManualSponsor: build.mutation<ManualSponsors, SaveManualSponsorArgs>({
          query: ({ projectId, sponsorId, draft, file }) => {
            const body = manualSponsorFormData(draft, file);
            const url =
              sponsorId === undefined
                ? `${BASE}/${projectId}/manual-sponsors`
                : `${BASE}/${projectId}/manual-sponsors/${sponsorId}`;
            return { url, method: 'POST', body };
          },
          invalidatesTags: ['AdminActions'],
          onQueryStarted: ({ projectId }, api) => storeSponsors(projectId, api),
        }),
        deleteManualSponsor: build.mutation<ManualSponsors, ManualSponsorArgs>({
          query: ({ projectId, sponsorId }) => ({
            url: `${BASE}/${projectId}/manual-sponsors/${sponsorId}/delete`,
            method: 'POST',
          }),
          invalidatesTags: ['AdminActions'],
          onQueryStarted: ({ projectId }, api) => storeSponsors(projectId, api),
        }),
        moveManualSponsor: build.mutation<ManualSponsors, MoveManualSponsorArgs>({
          query: ({ projectId, sponsorId, direction }) => ({
            url: `${BASE}/${projectId}/manual-sponsors/${sponsorId}/move`,
            method: 'POST',
            body: { direction },
          }),
          invalidatesTags: ['AdminActions'],
          onQueryStarted: ({ projectId }, api) => storeSponsors(projectId, api),
        }),
      };
    },
  });

export const {
  useProjectContentQuery,
  useSaveContentMutation,
  useUploadProjectImageMutation,
  useRemoveProjectImageMutation,
  useProjectSettingsQuery,
  useSaveProjectSettingsMutation,
  useManualSponsorsQuery,
  useSaveManualSponsorMutation,
  useDeleteManualSponsorMutation,
  useMoveManualSponsorMutation,
} = contentApi;
