import { useElements } from '@stripe/react-stripe-js';
import type { StripeCardElement, StripeCardElementChangeEvent } from '@stripe/stripe-js';
import { useEffect, useId, useLayoutEffect, useRef } from 'react';

export interface CardInputState {
  complete: boolean;
  /** The provider's message about what was typed, per field. */
  error: string | null;
}

const CARD_OPTIONS = { hidePostalCode: true, style: { base: { fontSize: '16px' } } } as const;

/**
 * The card field of Stripe Elements, created from the `<Elements>` context. Not React Stripe.js's
 * `CardElement`: that one removes its listeners with `element.off`, which localstripe's fake Stripe.js (the one
 * the browser tests drive) lacks; destroying the element removes them as well. The fake also sends `change`
 * without a description of the input; such a change counts as complete and the token request decides.
 */
export function CardInput({
  onChange,
  onReady,
  errorId,
}: {
  onChange: (state: CardInputState) => void;
  onReady: (element: StripeCardElement | null) => void;
  errorId: string;
}) {
  const elements = useElements();
  const node = useRef<HTMLDivElement>(null);
  const labelId = useId();
  const onChangeRef = useRef(onChange);
  const onReadyRef = useRef(onReady);
  useEffect(() => {
    onChangeRef.current = onChange;
    onReadyRef.current = onReady;
  });

  useLayoutEffect(() => {
    if (!elements || !node.current) return undefined;
    const card = elements.create('card', CARD_OPTIONS);
    card.mount(node.current);
    card.on('change', (event?: StripeCardElementChangeEvent) => {
      onChangeRef.current({ complete: event ? event.complete : true, error: event?.error?.message ?? null });
    });
    onReadyRef.current(card);
    return () => {
      onReadyRef.current(null);
      card.destroy();
    };
  }, [elements]);

  return (
    <div className="field">
      <p id={labelId} className="field__label">
        カード情報（カード番号・有効期限・セキュリティコード）
      </p>
      <div ref={node} className="payment-card-input" role="group" aria-labelledby={labelId} aria-describedby={errorId} />
    </div>
  );
}
