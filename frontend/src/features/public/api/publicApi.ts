import type { AppDispatch } from '@/app/store';
import { api } from '@/lib/api';
import type { ApiResponse, Schemas } from '@/lib/apiTypes';
import type {
  CommentPage,
  MasterResponse,
  NewsItem,
  ProjectCard,
  ProjectDetail,
  SalesSum,
  SponsorList,
} from './types';

const MASTER_PATH = '/helper/get/master';
const ALL_SUM_PATH = '/sales/get/allSum';
const DETAIL_PATH = '/project/get/detail';

const projectsOf = (response: MasterResponse) => response.master.projects;
const sumOf = (response: ApiResponse<'all_paid_sum'>) => response.result;
const projectOf = (response: ApiResponse<'project_detail'>) => response.project;

/** The public pages' endpoints (contract: docs/api.md, public site). */
const publicApi = api.enhanceEndpoints({ addTagTypes: ['Comment', 'News'] }).injectEndpoints({
  endpoints: (build) => ({
    getProjects: build.query<ProjectCard[], void>({
      query: () => MASTER_PATH,
      transformResponse: projectsOf,
    }),
    getAllSum: build.query<SalesSum, void>({
      query: () => ALL_SUM_PATH,
      transformResponse: sumOf,
    }),
    getProjectDetail: build.query<ProjectDetail, string>({
      query: (slug) => ({ url: DETAIL_PATH, params: { slug } }),
      transformResponse: projectOf,
    }),
    getNews: build.query<NewsItem[], number>({
      query: (projectId) => ({ url: '/information/get/list', params: { project_id: projectId } }),
      transformResponse: (response: ApiResponse<'news_list'>) => response.resInformation,
      // An operator's publish on this site reads it again (a supporters-only item depends on who reads).
      providesTags: (_result, _error, projectId) => [{ type: 'News', id: projectId }],
    }),
    /** One page (10) of a project's comments, newest first, with the total and the pagination bar. */
    getComments: build.query<CommentPage, { projectId: number; page: number }>({
      query: ({ projectId, page }) => ({ url: '/comment/get/list', params: { project_id: projectId, page } }),
      transformResponse: (response: ApiResponse<'comment_list'>): CommentPage => ({
        comments: response.comments,
        total: response.total ?? response.comments.length,
        page: response.pagination?.page ?? 1,
        pages: response.pagination?.pages ?? 1,
        items: response.pagination?.items ?? [1],
      }),
      providesTags: (_result, _error, { projectId }) => [{ type: 'Comment', id: projectId }],
    }),
    // `projectId` is not sent: it names the comment list to read again.
    updateComment: build.mutation<ApiResponse<'update_comment'>, Schemas['UpdateRequest'] & { projectId: number }>({
      query: ({ id, comment }) => ({ url: '/comment/set/update', method: 'POST', body: { id, comment } }),
      invalidatesTags: (_result, _error, { projectId }) => [{ type: 'Comment', id: projectId }],
    }),
    getSponsors: build.query<SponsorList, number>({
      query: (projectId) => ({ url: '/sponsors/get/list', params: { project_id: projectId } }),
    }),
  }),
});

export const {
  useGetProjectsQuery,
  useGetAllSumQuery,
  useGetProjectDetailQuery,
  useGetNewsQuery,
  useGetCommentsQuery,
  useUpdateCommentMutation,
  useGetSponsorsQuery,
} = publicApi;

/**
 * Puts the answers the server embedded in `/` or a project page (`lib/prefetched`) into the cache, so the
 * first render already shows the cards, totals or project instead of a skeleton followed by a second render.
 * Keys are the request path under /v1 plus its query string; unknown keys are ignored.
 */
export function seedFirstScreen(dispatch: AppDispatch, embedded: ReadonlyMap<string, unknown>): void {
  for (const [key, body] of embedded) {
    try {
      const request = new URL(key, 'http://embedded.invalid');
      if (request.pathname === MASTER_PATH) {
        const value = projectsOf(body as MasterResponse);
        if (Array.isArray(value)) {
          dispatch(publicApi.util.upsertQueryEntries([{ endpointName: 'getProjects', arg: undefined, value }]));
        }
      } else if (request.pathname === ALL_SUM_PATH) {
        const value = sumOf(body as ApiResponse<'all_paid_sum'>);
        if (value) dispatch(publicApi.util.upsertQueryEntries([{ endpointName: 'getAllSum', arg: undefined, value }]));
      } else if (request.pathname === DETAIL_PATH) {
        const slug = request.searchParams.get('slug');
        const value = projectOf(body as ApiResponse<'project_detail'>);
        if (slug && value) {
          dispatch(publicApi.util.upsertQueryEntries([{ endpointName: 'getProjectDetail', arg: slug, value }]));
        }
      }
    } catch {
      // An answer of the wrong shape is skipped: the page fetches it instead.
    }
  }
}
