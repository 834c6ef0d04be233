import { renderHook, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { describe, expect, it } from 'vitest';
import { makeStore, type AppStore } from '@/app/store';
import { useLoginCheckQuery } from '@/app/session/sessionApi';
import { subscriptionsApi } from '@/app/session/subscriptionsApi';
import { api } from '@/lib/api';
import { apiUrl, server } from '@/testing/server';
import { loginAs } from '@/testing/session';
import { card, subscription, supportResult } from '../testing/fixtures';
import type { SupportRequest } from './types';
import { paymentApi } from './paymentApi';

/** My page's payment history stands in here as any member-only list tagged `Sales`. */
const historyApi = api.injectEndpoints({
  endpoints: (build) => ({
    memberHistory: build.query<unknown, void>({
      query: () => ({ url: '/sales/get/list', params: { user_id: 'me' } }),
      providesTags: ['Sales'],
    }),
  }),
});

/** Counts the reads of the member-only lists; without a token they answer 401 as the server does. */
const countMemberReads = () => {
  const reads = { subscriptions: 0, history: 0, cards: 0 };
  const memberOnly = (name: keyof typeof reads, body: () => object) => ({ request }: { request: Request }) => {
    reads[name] += 1;
    return request.headers.get('Authorization')
      ? HttpResponse.json(body())
      : HttpResponse.json({ error: 'unauthorized', message: 'ログインしてください。' }, { status: 401 });
  };
  server.use(
    http.get(apiUrl('/stripe/subscription/get/list'), memberOnly('subscriptions', () => ({ subscriptions: [subscription()] }))),
    http.get(apiUrl('/sales/get/list'), memberOnly('history', () => ({ data: [] }))),
    http.get(apiUrl('/stripe/customer/get/cards'), memberOnly('cards', () => ({ data: { cards: [card()], default: 'card_visa' } }))),
  );
  return reads;
};

const request: SupportRequest = {
  projectId: 1,
  returnId: 3,
  lot: 1,
  paymentType: 1,
  idempotencyKey: 'attempt-0001',
  displayname: '上州太郎',
  anonymous: false,
  agreeTerms: true,
  notAntisocial: true,
  card: { cardId: 'card_visa' },
};

const answerSupport = (status = 200) => {
  server.use(
    http.post(apiUrl('/payment/set/support'), () =>
      status === 200
        ? HttpResponse.json(supportResult({ subscriptionId: 12 }))
        : HttpResponse.json({ error: 'payment_unavailable', message: '決済の登録に失敗しました' }, { status }),
    ),
  );
};

/** A store whose page reads the monthly supports and the history, as my page and the card screens do. */
const storeReadingMemberLists = async (): Promise<AppStore> => {
  const store = makeStore();
  store.dispatch(subscriptionsApi.endpoints.subscriptions.initiate());
  store.dispatch(historyApi.endpoints.memberHistory.initiate());
  await Promise.all(store.dispatch(api.util.getRunningQueriesThunk()));
  return store;
};

/**
 * Lets every read still running end. Call it once the mutation's own promise has settled: RTK Query settles
 * `queryFulfilled` while it dispatches the answer, before that promise, so whatever `onQueryStarted` asked for
 * again is already running by then (a read too many shows in the counts).
 */
const settle = async (store: AppStore) => {
  await Promise.all(store.dispatch(api.util.getRunningQueriesThunk()));
};

/** Waits until the member-only lists were read `expected` times, then lets every read still running end. */
const readsReach = async (store: AppStore, reads: object, expected: object) => {
  await waitFor(() => expect(reads).toMatchObject(expected));
  await settle(store);
};

/** The session check as the page runs it, answered by `loginAs`. */
const checkSession = async (store: AppStore) => {
  const { result } = renderHook(() => useLoginCheckQuery(), {
    wrapper: ({ children }: { children: ReactNode }) => <Provider store={store}>{children}</Provider>,
  });
  await waitFor(() => expect(result.current.data?.isLoggedIn).toBe(true));
};

describe('placing a support', () => {
  it("reads a member's monthly supports and history again", async () => {
    loginAs({ customerId: 'cus_1' });
    const reads = countMemberReads();
    answerSupport();
    const store = await storeReadingMemberLists();
    await checkSession(store);
    expect(reads).toMatchObject({ subscriptions: 1, history: 1 });

    await store.dispatch(paymentApi.endpoints.placeSupport.initiate(request)).unwrap();
    await readsReach(store, reads, { subscriptions: 2, history: 2 });

    expect(reads).toMatchObject({ subscriptions: 2, history: 2 });
  });

  it('reads them again also when the placement failed: the sale may have been recorded', async () => {
    loginAs({ customerId: 'cus_1' });
    const reads = countMemberReads();
    answerSupport(503);
    const store = await storeReadingMemberLists();
    await checkSession(store);

    const placed = await store.dispatch(paymentApi.endpoints.placeSupport.initiate(request));
    await readsReach(store, reads, { subscriptions: 2, history: 2 });

    expect(placed.error).toBeDefined();
    expect(reads).toMatchObject({ subscriptions: 2, history: 2 });
  });

  it('never fetches a member-only list again for a guest', async () => {
    const reads = countMemberReads();
    answerSupport();
    // Lists left from somewhere else in the page: a guest reading them again would get a 401.
    const store = await storeReadingMemberLists();
    expect(reads).toMatchObject({ subscriptions: 1, history: 1 });

    await store.dispatch(paymentApi.endpoints.placeSupport.initiate({ ...request, guestEmail: 'guest@example.jp' })).unwrap();
    await settle(store);

    expect(reads).toEqual({ subscriptions: 1, history: 1, cards: 0 });
  });
});

describe('changing the default card', () => {
  const answerChange = (status = 200) => {
    server.use(
      http.post(apiUrl('/stripe/customer/set/changeDefaultCard'), () =>
        status === 200
          ? HttpResponse.json({ data: { cards: [card(), card({ id: 'card_jcb', brand: 'JCB', last4: '0005' })], default: 'card_jcb' } })
          : HttpResponse.json({ error: 'payment_unavailable', message: 'x' }, { status }),
      ),
    );
  };

  it('reads the monthly supports again and takes the cards from the answer', async () => {
    loginAs({ customerId: 'cus_1' });
    const reads = countMemberReads();
    answerChange();
    const store = makeStore();
    store.dispatch(subscriptionsApi.endpoints.subscriptions.initiate());
    store.dispatch(paymentApi.endpoints.savedCards.initiate());
    await Promise.all(store.dispatch(api.util.getRunningQueriesThunk()));

    await store.dispatch(paymentApi.endpoints.changeDefaultCard.initiate('card_jcb')).unwrap();
    await readsReach(store, reads, { subscriptions: 2 });

    const cached = await store.dispatch(paymentApi.endpoints.savedCards.initiate(undefined, { subscribe: false }));
    expect(cached.data?.defaultId).toBe('card_jcb');
    expect(reads).toMatchObject({ subscriptions: 2, cards: 1 });
  });

  it('reads the cards again after a failure: the server may have changed the default all the same', async () => {
    loginAs({ customerId: 'cus_1' });
    const reads = countMemberReads();
    answerChange(503);
    const store = makeStore();
    store.dispatch(subscriptionsApi.endpoints.subscriptions.initiate());
    store.dispatch(paymentApi.endpoints.savedCards.initiate());
    await Promise.all(store.dispatch(api.util.getRunningQueriesThunk()));

    const changed = await store.dispatch(paymentApi.endpoints.changeDefaultCard.initiate('card_jcb'));
    await readsReach(store, reads, { subscriptions: 2, cards: 2 });

    expect(changed.error).toBeDefined();
    expect(reads).toMatchObject({ subscriptions: 2, cards: 2 });
  });
});
