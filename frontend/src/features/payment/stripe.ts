import type { Stripe } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import type { PaymentLibraryConfig } from './api/types';

const loadScript = (src: string): Promise<void> =>
  new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.addEventListener('load', () => resolve());
    script.addEventListener('error', () => reject(new Error(`could not load ${src}`)));
    document.head.appendChild(script);
  });

let loading: { jsUrl: string; stripe: Promise<Stripe | null> } | null = null;

/**
 * Stripe.js from the server's `jsUrl` (Stripe itself, or localstripe's fake locally), then `loadStripe` of the
 * `pure` entry, which uses the `window.Stripe` already there: the plain entry would add Stripe's own script as
 * soon as it is imported. Loaded once per page; a failure lets the next call try again.
 */
export const loadStripeLibrary = (config: PaymentLibraryConfig): Promise<Stripe | null> => {
  if (loading?.jsUrl === config.jsUrl) return loading.stripe;
  const present = typeof (window as { Stripe?: unknown }).Stripe === 'function';
  const stripe = (present ? Promise.resolve() : loadScript(config.jsUrl)).then(() =>
    loadStripe(config.publishableKey, { locale: 'ja' }),
  );
  loading = { jsUrl: config.jsUrl, stripe };
  stripe.catch(() => {
    loading = null;
  });
  return stripe;
};
