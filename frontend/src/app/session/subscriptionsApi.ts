import { api } from '@/lib/api';
import type { Schemas } from '@/lib/apiTypes';

/*
 * A member's monthly supports (issue #10), typed by the server's OpenAPI description (`SubscriptionDto`).
 * The card screens read it (deleting the card that pays a monthly support says what happens) and my page lists it.
 */

export type SubscriptionStatus = 'active' | 'past_due' | 'canceling' | 'ended';

/** The generated type, with `status` narrowed to the contract's four values. */
export type Subscription = Omit<Schemas['SubscriptionDto'], 'status'> & { status: SubscriptionStatus };

/** A subscription still charged or still running to its period end: the card that pays it matters. */
export const isRunning = (subscription: Subscription): boolean => subscription.status !== 'ended';

export const subscriptionsApi = api.enhanceEndpoints({ addTagTypes: ['Subscriptions'] }).injectEndpoints({
  endpoints: (build) => ({
    subscriptions: build.query<Subscription[], void>({
      query: () => '/stripe/subscription/get/list',
      transformResponse: (response: Schemas['SubscriptionsResponse']) => response.subscriptions as Subscription[],
      providesTags: ['Subscriptions'],
    }),
    cancelSubscription: build.mutation<Subscription, number>({
      query: (id) => ({ url: '/stripe/subscription/set/cancel', method: 'POST', body: { id } }),
      transformResponse: (response: Schemas['SubscriptionResponse']) => response.subscription as Subscription,
      invalidatesTags: ['Subscriptions'],
    }),
  }),
});

export const { useSubscriptionsQuery, useCancelSubscriptionMutation } = subscriptionsApi;
