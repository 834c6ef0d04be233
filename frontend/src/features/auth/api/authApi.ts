import { api } from '@/lib/api';

/** `POST /v1/user/login`; `isRegist` is sent when the user arrives from password setup. */
export interface LoginRequest {
  email: string;
  password: string;
  isRegist?: boolean;
}

export interface LoginResponse {
  token: string;
  type: string;
  expiresAt?: string;
}

/** The reasons a login fails (accounts API contract). */
export const LOGIN_FAILURE = {
  passwordMismatch: 'E_PASSWORD_MISMATCH',
  userNotFound: 'E_USER_NOT_FOUND',
  locked: 'E_LOGIN_LOCKED',
} as const;

/** `flag` of a full registration (spec 000 §7). */
export const REGIST_PASSWORD_FLAG = 1;

export interface RegistPasswordRequest {
  flag: typeof REGIST_PASSWORD_FLAG;
  password: string;
  activatekey: string;
}

const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<LoginResponse, LoginRequest>({
      query: (body) => ({ url: '/user/login', method: 'POST', body }),
    }),
    registPassword: build.mutation<{ registed: boolean }, RegistPasswordRequest>({
      query: (body) => ({ url: '/user/registPassword', method: 'POST', body }),
    }),
    forgotPassword: build.mutation<{ updated: boolean }, { mail: string }>({
      query: (body) => ({ url: '/user/forgotPassword', method: 'POST', body }),
    }),
    resetPassword: build.mutation<{ updated: boolean }, { password: string; activatekey: string }>({
      query: (body) => ({ url: '/user/resetPassword', method: 'POST', body }),
    }),
  }),
});

export const {
  useLoginMutation,
  useRegistPasswordMutation,
  useForgotPasswordMutation,
  useResetPasswordMutation,
} = authApi;
