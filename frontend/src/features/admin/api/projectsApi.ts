import type { AppDispatch } from '@/app/store';
import { api } from '@/lib/api';
import type { ApiResponse, Schemas } from '@/lib/apiTypes';
import type {
  AddReturnArgs,
  AdminComment,
  AdminCommentList,
  AdminProject,
  AdminProjectList,
  AdminProjectSummary,
  AdminSupporter,
  AdminSupporterList,
  DeleteReturnArgs,
  HideCommentArgs,
  HideSupporterNameArgs,
  ProjectInput,
  ProjectState,
  PublishProjectArgs,
  ReceiptIssuerSettings,
  ReorderReturnsArgs,
  SetReceiptIssuerArgs,
  ShowCommentArgs,
  ShowSupporterNameArgs,
  Taxonomy,
  UpdateProjectArgs,
  UpdateReturnArgs,
} from '../projects/types';

// The bodies are named from the server's document in ../projects/types.ts, beside the mutations' arguments.
export type {
  AdminComment,
  AdminSupporter,
  AdminProject,
  AdminProjectSummary,
  AdminReturn,
  ProjectInput,
  ProjectState,
  ReturnInput,
} from '../projects/types';

/** What the preview shows: the public detail of `/v1/project/get/detail`, of a draft or scheduled project. */
export type PreviewProject = Schemas['ProjectDetailDto'];

const BASE = '/admin/projects';

/** The preview answers as the public detail does (`{ project }`). */
const previewOf = (response: ApiResponse<'preview_project'>): PreviewProject => response.project;

// Every change answers with the whole project: it replaces the cached one (no second request); the list and the
// preview are read again when next shown.
const CHANGED = ['AdminProjects', 'AdminProjectPreview'] as const;

/**
 * What hiding or showing a comment changes: the operator's list of the project's comments (read again, though the
 * answer already updated it), the public page's list of them (`Comment`, publicApi) and the audit log.
 */
const commentChanged = (projectId: number) =>
  [
    { type: 'AdminComments', id: projectId },
    { type: 'Comment', id: projectId },
    'AdminActions',
  ] as const;

/** What hiding or showing a supporter's name changes: the operator's list, the public comments and the audit log. */
const supporterChanged = (projectId: number) =>
  [
    { type: 'AdminSupporters', id: projectId },
    { type: 'Comment', id: projectId },
    'AdminActions',
  ] as const;

const projectsApi = api
  .enhanceEndpoints({
    addTagTypes: [
      'AdminProjects',
      'AdminProject',
      'AdminProjectPreview',
      'AdminComments',
      'AdminSupporters',
      'Comment',
      'AdminActions',
      'ReceiptIssuer',
    ],
  })
  .injectEndpoints({
    endpoints: (build) => ({
      adminProjects: build.query<AdminProjectSummary[], ProjectState | null>({
        query: (state) => ({ url: BASE, params: state ? { state } : {} }),
        transformResponse: (response: AdminProjectList) => response.projects,
        providesTags: ['AdminProjects'],
      }),
      adminProject: build.query<AdminProject, number>({
        query: (id) => `${BASE}/${id}`,
        providesTags: (_result, _error, id) => [{ type: 'AdminProject', id }],
      }),
      adminProjectPreview: build.query<PreviewProject, number>({
        query: (id) => `${BASE}/${id}/preview`,
        transformResponse: previewOf,
        providesTags: ['AdminProjectPreview'],
      }),
      createProject: build.mutation<AdminProject, ProjectInput>({
        query: (body) => ({ url: BASE, method: 'POST', body }),
        invalidatesTags: [...CHANGED],
        onQueryStarted: (_arg, { dispatch, queryFulfilled }) => storeAnswer(dispatch, queryFulfilled, 'new'),
      }),
      updateProject: build.mutation<AdminProject, UpdateProjectArgs>({
        query: ({ id, input }) => ({ url: `${BASE}/${id}`, method: 'POST', body: input }),
        invalidatesTags: [...CHANGED],
        onQueryStarted: (_arg, { dispatch, queryFulfilled }) => storeAnswer(dispatch, queryFulfilled),
      }),
      publishProject: build.mutation<AdminProject, PublishProjectArgs>({
        query: ({ id, input }) => ({ url: `${BASE}/${id}/publish`, method: 'POST', body: input }),
        invalidatesTags: [...CHANGED],
        onQueryStarted: (_arg, { dispatch, queryFulfilled }) => storeAnswer(dispatch, queryFulfilled),
      }),
      unscheduleProject: build.mutation<AdminProject, number>({
        query: (id) => ({ url: `${BASE}/${id}/unschedule`, method: 'POST' }),
        invalidatesTags: [...CHANGED],
        onQueryStarted: (_arg, { dispatch, queryFulfilled }) => storeAnswer(dispatch, queryFulfilled),
      }),
      addReturn: build.mutation<AdminProject, AddReturnArgs>({
        query: ({ projectId, input }) => ({ url: `${BASE}/${projectId}/returns`, method: 'POST', body: input }),
        invalidatesTags: [...CHANGED],
        onQueryStarted: (_arg, { dispatch, queryFulfilled }) => storeAnswer(dispatch, queryFulfilled),
      }),
      updateReturn: build.mutation<AdminProject, UpdateReturnArgs>({
        query: ({ projectId, returnId, input }) => ({
          url: `${BASE}/${projectId}/returns/${returnId}`,
          method: 'POST',
          body: input,
        }),
        invalidatesTags: [...CHANGED],
        onQueryStarted: (_arg, { dispatch, queryFulfilled }) => storeAnswer(dispatch, queryFulfilled),
      }),
      deleteReturn: build.mutation<AdminProject, DeleteReturnArgs>({
        query: ({ projectId, returnId }) => ({ url: `${BASE}/${projectId}/returns/${returnId}/delete`, method: 'POST' }),
        invalidatesTags: [...CHANGED],
        onQueryStarted: (_arg, { dispatch, queryFulfilled }) => storeAnswer(dispatch, queryFulfilled),
      }),
      reorderReturns: build.mutation<AdminProject, ReorderReturnsArgs>({
        query: ({ projectId, input }) => ({ url: `${BASE}/${projectId}/return-order`, method: 'POST', body: input }),
        invalidatesTags: [...CHANGED],
        onQueryStarted: (_arg, { dispatch, queryFulfilled }) => storeAnswer(dispatch, queryFulfilled),
      }),
      receiptIssuer: build.query<ReceiptIssuerSettings, number>({
        query: (projectId) => `${BASE}/${projectId}/receipt-issuer`,
        providesTags: (_result, _error, projectId) => [{ type: 'ReceiptIssuer', id: projectId }],
      }),
      /** The answer replaces the cached issuer; the audit log shows the change. */
      setReceiptIssuer: build.mutation<ReceiptIssuerSettings, SetReceiptIssuerArgs>({
        query: ({ projectId, input }) => ({ url: `${BASE}/${projectId}/receipt-issuer`, method: 'PUT', body: input }),
        invalidatesTags: ['AdminActions'],
        onQueryStarted: async ({ projectId }, { dispatch, queryFulfilled }) => {
          try {
            const { data } = await queryFulfilled;
            dispatch(projectsApi.util.updateQueryData('receiptIssuer', projectId, () => data));
          } catch {
            // Refused: the form shows the server's messages.
          }
        },
      }),
      /** The areas and categories the form offers (the public `GET /v1/project/get/areas`). */
      adminTaxonomy: build.query<Taxonomy, void>({
        query: () => '/project/get/areas',
      }),
      adminComments: build.query<AdminComment[], number>({
        query: (projectId) => `${BASE}/${projectId}/comments`,
        transformResponse: (response: AdminCommentList) => response.comments,
        providesTags: (_result, _error, projectId) => [{ type: 'AdminComments', id: projectId }],
      }),
      hideComment: build.mutation<AdminComment, HideCommentArgs>({
        query: ({ id, input }) => ({ url: `/admin/comments/${id}/hide`, method: 'POST', body: input }),
        invalidatesTags: (_result, _error, { projectId }) => [...commentChanged(projectId)],
        onQueryStarted: ({ projectId }, { dispatch, queryFulfilled }) =>
          storeComment(dispatch, queryFulfilled, projectId),
      }),
      showComment: build.mutation<AdminComment, ShowCommentArgs>({
        query: ({ id }) => ({ url: `/admin/comments/${id}/show`, method: 'POST' }),
        invalidatesTags: (_result, _error, { projectId }) => [...commentChanged(projectId)],
        onQueryStarted: ({ projectId }, { dispatch, queryFulfilled }) =>
          storeComment(dispatch, queryFulfilled, projectId),
      }),
      adminSupporters: build.query<AdminSupporter[], number>({
        query: (projectId) => `${BASE}/${projectId}/supporters`,
        transformResponse: (response: AdminSupporterList) => response.supporters,
        providesTags: (_result, _error, projectId) => [{ type: 'AdminSupporters', id: projectId }],
      }),
      hideSupporterName: build.mutation<AdminSupporter, HideSupporterNameArgs>({
        query: ({ projectId, userId, input }) => ({
          url: `${BASE}/${projectId}/supporters/${userId}/hide-name`,
          method: 'POST',
          body: input,
        }),
        invalidatesTags: (_result, _error, { projectId }) => [...supporterChanged(projectId)],
        onQueryStarted: ({ projectId }, { dispatch, queryFulfilled }) =>
          storeSupporter(dispatch, queryFulfilled, projectId),
      }),
      showSupporterName: build.mutation<AdminSupporter, ShowSupporterNameArgs>({
        query: ({ projectId, userId }) => ({ url: `${BASE}/${projectId}/supporters/${userId}/show-name`, method: 'POST' }),
        invalidatesTags: (_result, _error, { projectId }) => [...supporterChanged(projectId)],
        onQueryStarted: ({ projectId }, { dispatch, queryFulfilled }) =>
          storeSupporter(dispatch, queryFulfilled, projectId),
      }),
    }),
  });

/**
 * Puts a change's answer (the whole project) in the cache of `GET /v1/admin/projects/{id}`: the screen shows it
 * before the caller's own continuation runs (a patch is synchronous, so a message never precedes the change).
 * A new project has no entry yet: it is added, so its edit page opens without a second request.
 */
async function storeAnswer(
  dispatch: AppDispatch,
  answer: Promise<{ data: AdminProject }>,
  entry: 'existing' | 'new' = 'existing',
): Promise<void> {
  try {
    const { data } = await answer;
    if (entry === 'new') {
      void dispatch(projectsApi.util.upsertQueryData('adminProject', data.id, data));
    } else {
      dispatch(projectsApi.util.updateQueryData('adminProject', data.id, () => data));
    }
  } catch {
    // A refused change leaves the cached project as it was; the form shows the server's message.
  }
}

/**
 * Puts a hidden or shown comment (the answer) in its place in the cached list of the project's comments, before
 * the caller's continuation runs: the list shows the change when the message says so.
 */
async function storeComment(
  dispatch: AppDispatch,
  answer: Promise<{ data: AdminComment }>,
  projectId: number,
): Promise<void> {
  try {
    const { data } = await answer;
    dispatch(
      projectsApi.util.updateQueryData('adminComments', projectId, (comments) =>
        comments.map((comment) => (comment.id === data.id ? data : comment)),
      ),
    );
  } catch {
    // A refused change leaves the list as it was; the screen shows the server's message.
  }
}

/** Puts a supporter's changed row (the answer) in its place in the cached list, as `storeComment` does. */
async function storeSupporter(
  dispatch: AppDispatch,
  answer: Promise<{ data: AdminSupporter }>,
  projectId: number,
): Promise<void> {
  try {
    const { data } = await answer;
    dispatch(
      projectsApi.util.updateQueryData('adminSupporters', projectId, (supporters) =>
        supporters.map((supporter) => (supporter.userId === data.userId ? data : supporter)),
      ),
    );
  } catch {
    // A refused change leaves the list as it was; the screen shows the server's message.
  }
}

export const {
  useAdminProjectsQuery,
  useAdminProjectQuery,
  useAdminProjectPreviewQuery,
  useCreateProjectMutation,
  useUpdateProjectMutation,
  usePublishProjectMutation,
  useUnscheduleProjectMutation,
  useAddReturnMutation,
  useUpdateReturnMutation,
  useDeleteReturnMutation,
  useReorderReturnsMutation,
  useAdminCommentsQuery,
  useAdminTaxonomyQuery,
  useHideCommentMutation,
  useShowCommentMutation,
  useAdminSupportersQuery,
  useHideSupporterNameMutation,
  useShowSupporterNameMutation,
  useReceiptIssuerQuery,
  useSetReceiptIssuerMutation,
} = projectsApi;
