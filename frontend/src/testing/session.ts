import { http, HttpResponse } from 'msw';
import type { AuthUser } from '@/features/account/api/accountApi';
import { JWT_STORAGE_KEY } from '@/lib/storage';
import { apiUrl, server } from './server';

export const TEST_TOKEN = 'test.jwt.token';

/** Stores a token and makes `loginCheck` accept it, as for a logged-in member (with a provider customer if given). */
export const loginAs = ({
  userId = 7,
  isAdmin = false,
  token = TEST_TOKEN,
  customerId = null as string | null,
} = {}): void => {
  window.localStorage.setItem(JWT_STORAGE_KEY, JSON.stringify({ type: 'Bearer', token }));
  const customer = customerId === null ? null : { customer_id: customerId };
  server.use(
    http.get(apiUrl('/user/loginCheck'), () => HttpResponse.json({ data: { flag: 1, userId, customer, isAdmin } })),
  );
};

/** A member as `GET /v1/user/get/authUser` describes one. */
export const makeUser = (overrides: Partial<AuthUser> = {}): AuthUser => ({
  id: 7,
  email: 'taro@example.jp',
  updateEmail: null,
  username: 'taro',
  displayname: '上州太郎',
  profile: '前橋で暮らしています。',
  ageGroup: '30代',
  corporatename: null,
  corporateurl: null,
  urls: { icon: [], logo: [] },
  addresses: { main: [] },
  language: 'ja',
  ...overrides,
});

/** Answers `GET /v1/user/get/authUser` with `user`. */
export const serveUser = (user: AuthUser = makeUser()): void => {
  server.use(http.get(apiUrl('/user/get/authUser'), () => HttpResponse.json({ user })));
};
