import { api } from '@/lib/api';
import type { ApiResponse, Schemas } from '@/lib/apiTypes';

/** `flag` sent with a signup: a provisional member registration (spec 000 §7). */
export const SIGNUP_REQUEST_FLAG = 100;

/**
 * `userFlag` answered to a signup (spec 000 §4):
 * 100 new, confirmation mail sent; 200 already a guest; 1 already registered.
 */
export const USER_FLAG = {
  confirmationSent: 100,
  guest: 200,
  registered: 1,
} as const;

/**
 * `POST /v1/user/register` (and `reRegister`) with `flag` set to `SIGNUP_REQUEST_FLAG` and `agreeTerms`, the
 * agreement to the terms of use and the privacy policy (the server refuses `false`).
 */
export type SignupRequest = Schemas['RegisterRequest'];

export type SignupResponse = ApiResponse<'register'>;

const signupApi = api.injectEndpoints({
  endpoints: (build) => ({
    register: build.mutation<SignupResponse, SignupRequest>({
      query: (body) => ({ url: '/user/register', method: 'POST', body }),
    }),
    reRegister: build.mutation<SignupResponse, SignupRequest>({
      query: (body) => ({ url: '/user/reRegister', method: 'POST', body }),
    }),
  }),
});

export const { useRegisterMutation, useReRegisterMutation } = signupApi;
