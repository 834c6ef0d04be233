import { api } from '@/lib/api';
import type {
  Comment,
  MasterResponse,
  NewsItem,
  ProjectCard,
  ProjectDetail,
  SalesSum,
  SponsorList,
} from './types';

/** The public pages' endpoints (contract: docs/api.md, public site). */
const publicApi = api.enhanceEndpoints({ addTagTypes: ['Comment'] }).injectEndpoints({
  endpoints: (build) => ({
    getProjects: build.query<ProjectCard[], void>({
      query: () => '/helper/get/master',
      transformResponse: (response: MasterResponse) => response.master.projects,
    }),
    getAllSum: build.query<SalesSum, void>({
      query: () => '/sales/get/allSum',
      transformResponse: (response: { result: SalesSum }) => response.result,
    }),
    getProjectDetail: build.query<ProjectDetail, string>({
      query: (slug) => ({ url: '/project/get/detail', params: { slug } }),
      transformResponse: (response: { project: ProjectDetail }) => response.project,
    }),
    getNews: build.query<NewsItem[], number>({
      query: (projectId) => ({ url: '/information/get/list', params: { project_id: projectId } }),
      transformResponse: (response: { resInformation: NewsItem[] }) => response.resInformation,
    }),
    getComments: build.query<Comment[], number>({
      query: (projectId) => ({ url: '/comment/get/list', params: { project_id: projectId } }),
      transformResponse: (response: { comments: Comment[] }) => response.comments,
      providesTags: (_result, _error, projectId) => [{ type: 'Comment', id: projectId }],
    }),
    updateComment: build.mutation<{ updated: boolean }, { id: number; comment: string; projectId: number }>({
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
