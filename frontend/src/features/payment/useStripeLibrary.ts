import type { Stripe } from '@stripe/stripe-js';
import { useEffect, useMemo, useState } from 'react';
import { usePaymentLibraryQuery } from './api/paymentApi';
import { loadStripeLibrary } from './stripe';

export interface StripeLibrary {
  /** For `<Elements stripe>`; null until the settings are known. */
  stripePromise: Promise<Stripe | null> | null;
  failed: boolean;
}

/** Stripe.js as the server configures it (`GET /v1/helper/get/master`'s `payment`), loaded on first use. */
export const useStripeLibrary = (): StripeLibrary => {
  const { data: config, isError } = usePaymentLibraryQuery();
  const stripePromise = useMemo(() => (config ? loadStripeLibrary(config) : null), [config]);
  const [loadFailed, setLoadFailed] = useState(false);
  useEffect(() => {
    let current = true;
    stripePromise?.then(
      (stripe) => current && setLoadFailed(stripe === null),
      () => current && setLoadFailed(true),
    );
    return () => {
      current = false;
    };
  }, [stripePromise]);
  return { stripePromise, failed: isError || loadFailed };
};
