import { api } from '@/lib/api';
import type { Schemas } from '@/lib/apiTypes';

/** An area (a municipality of Gunma) or a category: its slug is the project list's filter value. */
export type Taxon = Schemas['TaxonDto'];

export type Taxonomy = Schemas['TaxonomyResponse'];

/**
 * `GET /v1/project/get/areas`, read by the site menu and the project list: the areas and categories, each in
 * the operators' order. Reference data that changes by migration only, so it is kept for the whole visit.
 */
const taxonomyApi = api.injectEndpoints({
  endpoints: (build) => ({
    getTaxonomy: build.query<Taxonomy, void>({
      query: () => '/project/get/areas',
      keepUnusedDataFor: 3600,
    }),
  }),
});

export const { useGetTaxonomyQuery } = taxonomyApi;
