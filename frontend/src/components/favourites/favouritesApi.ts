import { api } from '@/lib/api';
import type { Schemas } from '@/lib/apiTypes';

export type Favourite = Schemas['FavouriteDto'];

const FAVOURITES_PATH = '/user/favourites';

/**
 * お気に入り (`/v1/user/favourites`), read by the cards, the project page and my page, so it lives outside the
 * features. Keeping and removing change the cached list at once and put it back if the server refuses.
 */
const favouritesApi = api.enhanceEndpoints({ addTagTypes: ['Favourite'] }).injectEndpoints({
  endpoints: (build) => ({
    getFavourites: build.query<Favourite[], void>({
      query: () => FAVOURITES_PATH,
      transformResponse: (response: Schemas['FavouritesResponse']) => response.favourites,
      providesTags: ['Favourite'],
    }),
    /** Keeps (`kept: true`) or removes a project. `project` fills the list at once; the server's card follows. */
    setFavourite: build.mutation<Schemas['KeptResponse'], { project: Favourite['project']; kept: boolean }>({
      query: ({ project, kept }) => ({
        url: `${FAVOURITES_PATH}/${project.id}${kept ? '' : '/delete'}`,
        method: 'POST',
        body: {},
      }),
      async onQueryStarted({ project, kept }, { dispatch, queryFulfilled }) {
        const patch = dispatch(
          favouritesApi.util.updateQueryData('getFavourites', undefined, (list) => {
            const without = list.filter((f) => f.project.id !== project.id);
            if (!kept) return without;
            const state: Favourite['state'] = project.isOpen ? 'open' : 'ended';
            const keptAt = new Date().toISOString();
            return [{ project, state, stateLabel: project.isOpen ? '募集中' : '終了', keptAt }, ...without];
          }),
        );
        try {
          await queryFulfilled;
        } catch {
          patch.undo();
        }
      },
      invalidatesTags: ['Favourite'],
    }),
  }),
});

export const { useGetFavouritesQuery, useSetFavouriteMutation } = favouritesApi;
