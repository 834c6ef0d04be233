import { api } from '@/lib/api';
import type { Schemas } from '@/lib/apiTypes';

export type OpenProjectLink = Pick<Schemas['ProjectCardDto'], 'slug' | 'title' | 'daysLeft'>;

/** The projects still taking support, in the home page's order (the server sorts them). */
export const openProjectsOf = (response: Schemas['MasterResponse']): OpenProjectLink[] =>
  response.master.projects
    .filter((project) => project.isOpen)
    .map(({ slug, title, daysLeft }) => ({ slug, title, daysLeft }));

/**
 * `GET /v1/helper/get/master`, read by shared screens (the not-found page) that may not depend on the
 * public feature: only the open projects' names and links.
 */
const openProjectsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getOpenProjects: build.query<OpenProjectLink[], void>({
      query: () => '/helper/get/master',
      transformResponse: openProjectsOf,
    }),
  }),
});

export const { useGetOpenProjectsQuery } = openProjectsApi;
