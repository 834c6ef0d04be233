import { api } from '@/lib/api';

/** A delivery address (accounts API contract). */
export interface Address {
  id: number;
  name: string;
  telNumber: string;
  zip: string;
  pref: string;
  city: string;
  address: string;
  building: string | null;
}

export type AddressInput = Omit<Address, 'id'>;

export interface ImageUrl {
  id: number;
  url: string;
}

/** `GET /v1/user/get/authUser`: the logged-in user; unset strings are `null`. */
export interface AuthUser {
  id: number;
  email: string;
  updateEmail: string | null;
  username: string | null;
  displayname: string | null;
  profile: string | null;
  ageGroup: string | null;
  corporatename: string | null;
  corporateurl: string | null;
  urls: { icon: ImageUrl[]; logo: ImageUrl[] };
  addresses: { main: Address[] };
  language: string | null;
}

export interface ProfileInput {
  id: number;
  username: string;
  displayname: string;
  profile: string;
  ageGroup: string;
}

export type UploadType = 'icon' | 'logo';

export interface Uploaded {
  id: number;
  url: string;
  s3Path: string;
}

export interface UpdateEmailResult {
  duplicate: boolean;
  notFound: boolean;
  sended: boolean;
}

export interface UpdateLoginEmailResult {
  updated: boolean;
  /** The new address, when the server says it (the new token's user data has it too). */
  email?: string;
  token?: string;
  type?: string;
  expiresAt?: string;
}

export interface UpdatePasswordRequest {
  id: number;
  email: string;
  oldPassword: string;
  newPassword: string;
}

export interface ZipAddress {
  zip: string;
  pref: string;
  city: string;
  address: string;
}

/** Payment types of the specs: 1 card, 2 bank transfer. */
export type PaymentTypeCode = 1 | 2;

/** One sale of `GET /v1/sales/get/list?user_id=me`. */
export interface Sale {
  id: number;
  created_at: string;
  project: { title: string; slug: string } | null;
  return: { title: string } | null;
  lot: number;
  amount: number;
  total: number;
  payment_type: PaymentTypeCode;
  status: string;
  statusLabel: string;
  displayname: { id: number; displayname: string } | null;
}

const accountApi = api.injectEndpoints({
  endpoints: (build) => ({
    authUser: build.query<AuthUser, void>({
      query: () => '/user/get/authUser',
      transformResponse: (response: { user: AuthUser }) => response.user,
      providesTags: ['User'],
    }),
    updateProfile: build.mutation<AuthUser, ProfileInput>({
      query: (body) => ({ url: '/user/set/update', method: 'POST', body }),
      transformResponse: (response: { user: AuthUser }) => response.user,
      invalidatesTags: ['User'],
    }),
    uploadFile: build.mutation<Uploaded, { type: UploadType; file: File }>({
      query: ({ type, file }) => {
        const body = new FormData();
        body.append('file', file);
        return { url: '/user/set/uploadfile', method: 'POST', params: { type }, body };
      },
      transformResponse: (response: { data: { uploaded: Uploaded } }) => response.data.uploaded,
      invalidatesTags: ['User'],
    }),
    /** `password` is the current password: the server checks it like a login (wrong ones count toward the lock). */
    updateEmail: build.mutation<UpdateEmailResult, { id: number; email: string; password: string }>({
      query: (body) => ({ url: '/user/set/updateEmail', method: 'POST', body }),
      invalidatesTags: ['User'],
    }),
    /** Every other session ends with the change: the answer carries this session's new token. */
    // No tag invalidated here: the user data is fetched again once the answer's token is stored
    // (the old token no longer works).
    updateLoginEmail: build.mutation<UpdateLoginEmailResult, { activatekey: string }>({
      query: (body) => ({ url: '/user/set/updateLoginEmail', method: 'POST', body }),
    }),
    updatePassword: build.mutation<{ token: string; type: string; updated: boolean }, UpdatePasswordRequest>({
      query: (body) => ({ url: '/user/set/updatePassword', method: 'POST', body }),
    }),
    updateCorporateData: build.mutation<
      { updated: boolean },
      { id: number; corporatename: string; corporateurl: string }
    >({
      query: (body) => ({ url: '/user/set/updateCorporateData', method: 'POST', body }),
      invalidatesTags: ['User'],
    }),
    saveAddress: build.mutation<Address, { mode: 'register' | 'updater'; address: AddressInput }>({
      query: ({ mode, address }) => ({ url: `/address/set/${mode}`, method: 'POST', body: address }),
      transformResponse: (response: { address: Address }) => response.address,
      invalidatesTags: ['User'],
    }),
    zipAddress: build.query<ZipAddress, string>({
      query: (zip) => ({ url: '/address/get/zip', params: { zip } }),
    }),
    mySales: build.query<Sale[], void>({
      query: () => ({ url: '/sales/get/list', params: { user_id: 'me' } }),
      transformResponse: (response: { data: Sale[] }) => response.data,
      providesTags: ['Sales'],
    }),
    updateDisplayname: build.mutation<{ updated: boolean }, { id: number; displayname: string }>({
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
  useLazyZipAddressQuery,
  useMySalesQuery,
  useUpdateDisplaynameMutation,
} = accountApi;
