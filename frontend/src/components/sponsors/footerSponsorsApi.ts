import { api } from '@/lib/api';
import type { Schemas } from '@/lib/apiTypes';

export type FooterSponsors = Schemas['FooterResponse'];

/** `GET /v1/sponsors/get/footer?slug=...`: the footer's sponsor wall across all projects. */
const footerSponsorsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getFooterSponsors: build.query<FooterSponsors, string | undefined>({
      query: (slug) => ({ url: '/sponsors/get/footer', params: slug ? { slug } : undefined }),
    }),
  }),
});

export const { useGetFooterSponsorsQuery } = footerSponsorsApi;
