import { api } from '@/lib/api';
import type { Schemas } from '@/lib/apiTypes';

/*
 * A member's monthly supports (issue #10), typed by the server's OpenAPI description (`SubscriptionDto`).
 * The card screens read it (deleting the card that pays a monthly support says what happens) and my page lists it.
 */

export type SubscriptionStatus = Schemas['SubscriptionStatus'];

export type Subscription = Schemas['SubscriptionDto'];

/** A subscription still charged or still running to its period end: the card that pays it matters. */
export const isRunning = (subscription: Subscription): boolean => subscription.status !== 'ended';

export const subscriptionsApi = api.enhanceEndpoints({ addTagTypes: ['Subscriptions'] }).injectEndpoints({
  endpoints: (build) => ({
    subscriptions: build.query<Subscription[], void>({
      query: () => '/stripe/subscription/get/list',
      transformResponse: (response: Schemas['SubscriptionsResponse']) => response.subscriptions,
      providesTags: ['Subscriptions'],
    }),
    // A renewal the bank refused until the member authenticates (3-D Secure): the page the mail links.
    pendingAuthentication: build.query<Schemas['PendingAuthenticationResponse'], number>({
      query: (id) => ({ url: '/stripe/subscription/get/authentication', params: { id } }),
    }),
    authenticated: build.mutation<Subscription, number>({
      query: (id) => ({ url: '/stripe/subscription/set/authenticated', method: 'POST', body: { id } }),
      transformResponse: (response: Schemas['SubscriptionResponse']) => response.subscription,
      invalidatesTags: ['Subscriptions'],
    }),
    cancelSubscription: build.mutation<Subscription, number>({
      query: (id) => ({ url: '/stripe/subscription/set/cancel', method: 'POST', body: { id } }),
      transformResponse: (response: Schemas['SubscriptionResponse']) => response.subscription,
      invalidatesTags: ['Subscriptions'],
    }),
  }),
});

export const {
  useSubscriptionsQuery,
  useCancelSubscriptionMutation,
  usePendingAuthenticationQuery,
  useAuthenticatedMutation,
} = subscriptionsApi;
