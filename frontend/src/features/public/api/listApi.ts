import type { ProjectListFilters } from '@/config/paths';
import { api } from '@/lib/api';
import type { ProjectListPage } from './types';

/**
 * `GET /v1/project/get/list`, in a module of its own so it loads with the list page's chunk, not with the home
 * page's scripts (docs/decisions.md, "Initial JavaScript within 130 KB").
 */
const listApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** One page of `/projects/`: the filters as the address holds them (the server checks them). */
    getProjectList: build.query<ProjectListPage, ProjectListFilters>({
      query: (filters) => ({
        url: '/project/get/list',
        params: Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined && value !== '')),
      }),
    }),
  }),
});

export const { useGetProjectListQuery } = listApi;
