import { api } from '@/lib/api';

/*
 * A member's monthly supports (issue #10), typed as the subscriptions contract states them until the server's
 * OpenAPI description has the endpoints; then each type becomes an alias of the generated `Schemas['...']`.
 * The card screens read it (deleting the card that pays a monthly support says what happens) and my page lists it.
 */

export type SubscriptionStatus = 'active' | 'past_due' | 'canceling' | 'ended';

export interface Subscription {
  id: number;
  projectTitle: string;
  projectSlug: string;
  returnTitle: string;
  /** Yen charged each month, tax included. */
  amount: number;
  status: SubscriptionStatus;
  /** Tokyo date (YYYY-MM-DD); null when it is ending or ended. */
  nextChargeDate: string | null;
  /** Last day of the paid period once stopped, or the day it ended. */
  endsOn: string | null;
  cardId: string | null;
  cardBrand: string | null;
  cardLast4: string | null;
}

/** A subscription still charged or still running to its period end: the card that pays it matters. */
export const isRunning = (subscription: Subscription): boolean => subscription.status !== 'ended';

export const subscriptionsApi = api.enhanceEndpoints({ addTagTypes: ['Subscriptions'] }).injectEndpoints({
  endpoints: (build) => ({
    subscriptions: build.query<Subscription[], void>({
      query: () => '/stripe/subscription/get/list',
      transformResponse: (response: { subscriptions: Subscription[] }) => response.subscriptions,
      providesTags: ['Subscriptions'],
    }),
    cancelSubscription: build.mutation<Subscription, number>({
      query: (id) => ({ url: '/stripe/subscription/set/cancel', method: 'POST', body: { id } }),
      transformResponse: (response: { subscription: Subscription }) => response.subscription,
      invalidatesTags: ['Subscriptions'],
    }),
  }),
});

export const { useSubscriptionsQuery, useCancelSubscriptionMutation } = subscriptionsApi;
