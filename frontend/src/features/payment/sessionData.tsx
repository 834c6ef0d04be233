import { useSavedCardsQuery } from './api/paymentApi';
import { useSubscriptionsQuery } from '@/app/session/subscriptionsApi';

/**
 * Keeps a member's saved cards and monthly supports loaded for the whole session (spec 000 §4: after the login
 * check, card and subscription data are loaded when the user has a customer), so the card screens and the payment
 * step find them at once. Logging out drops the cache, and them with it. Rendered only for a member with a
 * provider customer (see `app/session/SessionPaymentData`); a failed list (the subscriptions endpoint before it
 * exists) only means nothing is preloaded.
 */
export function MemberPaymentData() {
  useSavedCardsQuery();
  useSubscriptionsQuery();
  return null;
}
