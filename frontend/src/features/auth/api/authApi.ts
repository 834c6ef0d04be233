import { api } from '@/lib/api';
import type { ApiResponse } from '@/lib/apiTypes';

/** `POST /v1/user/login`; `isRegist` is sent when the user arrives from password setup. */
export interface LoginRequest {
  email: string;
  password: string;
  isRegist?: boolean;
}

export type LoginResponse = ApiResponse<'login'>;

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
    registPassword: build.mutation<ApiResponse<'regist_password'>, RegistPasswordRequest>({
      query: (body) => ({ url: '/user/registPassword', method: 'POST', body }),
    }),
    forgotPassword: build.mutation<ApiResponse<'forgot_password'>, { mail: string }>({
      query: (body) => ({ url: '/user/forgotPassword', method: 'POST', body }),
    }),
    resetPassword: build.mutation<ApiResponse<'reset_password'>, { password: string; activatekey: string }>({
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
