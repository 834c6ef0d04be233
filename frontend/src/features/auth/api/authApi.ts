import { api } from '@/lib/api';
import type { ApiResponse, Schemas } from '@/lib/apiTypes';

/** `POST /v1/user/login`; `isRegist` is sent when the user arrives from password setup. */
export type LoginRequest = Schemas['LoginRequest'];

export type LoginResponse = ApiResponse<'login'>;

/** The reasons a login fails (accounts API contract). */
export const LOGIN_FAILURE = {
  passwordMismatch: 'E_PASSWORD_MISMATCH',
  userNotFound: 'E_USER_NOT_FOUND',
  locked: 'E_LOGIN_LOCKED',
} as const;

/** `flag` of a full registration (spec 000 §7). */
export const REGIST_PASSWORD_FLAG = 1;

/** `POST /v1/user/registPassword`, with `flag` set to `REGIST_PASSWORD_FLAG`. */
export type RegistPasswordRequest = Schemas['RegistPasswordRequest'];

const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<LoginResponse, LoginRequest>({
      query: (body) => ({ url: '/user/login', method: 'POST', body }),
    }),
    registPassword: build.mutation<ApiResponse<'regist_password'>, RegistPasswordRequest>({
      query: (body) => ({ url: '/user/registPassword', method: 'POST', body }),
    }),
    forgotPassword: build.mutation<ApiResponse<'forgot_password'>, Schemas['ForgotRequest']>({
      query: (body) => ({ url: '/user/forgotPassword', method: 'POST', body }),
    }),
    resetPassword: build.mutation<ApiResponse<'reset_password'>, Schemas['ResetRequest']>({
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
