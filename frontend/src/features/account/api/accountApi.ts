import { api } from '@/lib/api';
import type { ApiResponse, Schemas } from '@/lib/apiTypes';

/** A delivery address (accounts API contract). */
export type Address = Schemas['AddressDto'];

export type AddressInput = Omit<Address, 'id'>;

export type ImageUrl = Schemas['ImageDto'];

/** `GET /v1/user/get/authUser`: the logged-in user; unset strings are `null`. */
export type AuthUser = Schemas['UserDto'];

/** `POST /v1/user/set/update`. */
export type ProfileInput = Schemas['ProfileRequest'];

/** The `type` of `POST /v1/user/set/uploadfile` this site sends (the server also takes the seed's numbers). */
export type UploadType = 'icon' | 'logo';

export type Uploaded = Schemas['UploadedDto'];

export type UpdateEmailResult = Schemas['UpdateEmailResponse'];

export type UpdatePasswordRequest = Schemas['UpdatePasswordRequest'];

/** One sale of `GET /v1/sales/get/list?user_id=me`. */
export type Sale = Schemas['HistoryEntryDto'];

/** One line of `GET /v1/user/supports`: a project the member supports, every paid sale of it together. */
export type SupportedProject = Schemas['SupportedProjectDto'];
export type SupportedProjectsPage = Schemas['SupportsResponse'];

/** `GET`/`POST /v1/user/favouriteMail`: mail 48 hours before a kept project ends and when it publishes news. */
export type FavouriteMailSetting = Schemas['FavouriteMailSetting'];

const accountApi = api.injectEndpoints({
  endpoints: (build) => ({
    favouriteMail: build.query<FavouriteMailSetting, void>({
      query: () => '/user/favouriteMail',
    }),
    /** The answer (the setting as stored) replaces the cached one. */
    setFavouriteMail: build.mutation<FavouriteMailSetting, FavouriteMailSetting>({
      query: (body) => ({ url: '/user/favouriteMail', method: 'POST', body }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(accountApi.util.updateQueryData('favouriteMail', undefined, () => data));
        } catch {
          // Refused: the checkbox shows the stored value and the message.
        }
      },
    }),
    authUser: build.query<AuthUser, void>({
      query: () => '/user/get/authUser',
      transformResponse: (response: ApiResponse<'auth_user'>) => response.user,
      providesTags: ['User'],
    }),
    updateProfile: build.mutation<AuthUser, ProfileInput>({
      query: (body) => ({ url: '/user/set/update', method: 'POST', body }),
      transformResponse: (response: ApiResponse<'update_profile'>) => response.user,
      invalidatesTags: ['User'],
    }),
    uploadFile: build.mutation<Uploaded, { type: UploadType; file: File }>({
      query: ({ type, file }) => {
        const body = new FormData();
        body.append('file', file);
        return { url: '/user/set/uploadfile', method: 'POST', params: { type }, body };
      },
      transformResponse: (response: ApiResponse<'upload_file'>) => response.data.uploaded,
      invalidatesTags: ['User'],
    }),
    /** `password` is the current password: the server checks it like a login (wrong ones count toward the lock). */
    updateEmail: build.mutation<UpdateEmailResult, Schemas['UpdateEmailRequest']>({
      query: (body) => ({ url: '/user/set/updateEmail', method: 'POST', body }),
      invalidatesTags: ['User'],
    }),
    /** Every other session ends with the change: the answer carries this session's new token. */
    // No tag invalidated here: the user data is fetched again once the answer's token is stored
    // (the old token no longer works).
    updateLoginEmail: build.mutation<ApiResponse<'update_login_email'>, Schemas['UpdateLoginEmailRequest']>({
      query: (body) => ({ url: '/user/set/updateLoginEmail', method: 'POST', body }),
    }),
    updatePassword: build.mutation<ApiResponse<'update_password'>, UpdatePasswordRequest>({
      query: (body) => ({ url: '/user/set/updatePassword', method: 'POST', body }),
    }),
    updateCorporateData: build.mutation<ApiResponse<'update_corporate'>, Schemas['CorporateRequest']>({
      query: (body) => ({ url: '/user/set/updateCorporateData', method: 'POST', body }),
      invalidatesTags: ['User'],
    }),
    saveAddress: build.mutation<Address, { mode: 'register' | 'updater'; address: AddressInput }>({
      query: ({ mode, address }) => ({ url: `/address/set/${mode}`, method: 'POST', body: address }),
      transformResponse: (response: ApiResponse<'register_address'>) => response.address,
      invalidatesTags: ['User'],
    }),
    mySales: build.query<Sale[], void>({
      query: () => ({ url: '/sales/get/list', params: { user_id: 'me' } }),
      transformResponse: (response: Schemas['HistoryResponse']) => response.data,
      providesTags: ['Sales'],
    }),
    /** One page (from 1) of the supported projects, with the total to offer もっと見る. */
    supportedProjects: build.query<SupportedProjectsPage, number>({
      query: (page) => ({ url: '/user/supports', params: { page } }),
      providesTags: ['Sales'],
    }),
    updateDisplayname: build.mutation<ApiResponse<'update_display_name'>, Schemas['DisplayNameRequest']>({
      query: (body) => ({ url: '/displayname/set/update', method: 'POST', body }),
      invalidatesTags: ['Sales'],
    }),
  }),
});

export const {
  useAuthUserQuery,
  useUpdateProfileMutation,
  useUploadFileMutation,
  useUpdateEmailMutation,
  useUpdateLoginEmailMutation,
  useUpdatePasswordMutation,
  useUpdateCorporateDataMutation,
  useSaveAddressMutation,
  useMySalesQuery,
  useSupportedProjectsQuery,
  useUpdateDisplaynameMutation,
  useFavouriteMailQuery,
  useSetFavouriteMailMutation,
} = accountApi;
