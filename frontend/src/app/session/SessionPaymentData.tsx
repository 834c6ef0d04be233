import { lazy, Suspense } from 'react';
import { useSession } from './useSession';

// Its own small chunk: visitors and members without a provider customer never download it.
const MemberPaymentData = lazy(() =>
  import(/* webpackChunkName: "payment-session" */ '@/features/payment/sessionData').then((module) => ({
    default: module.MemberPaymentData,
  })),
);

/** Loads cards and monthly supports with the session, only for a member whose loginCheck names a customer. */
export function SessionPaymentData() {
  const { isLoggedIn, hasCustomer } = useSession();
  if (!isLoggedIn || !hasCustomer) return null;
  return (
    <Suspense fallback={null}>
      <MemberPaymentData />
    </Suspense>
  );
}
