import { useElements } from '@stripe/react-stripe-js';
import type { StripeCardElement } from '@stripe/stripe-js';
import { useEffect, useId, useLayoutEffect, useRef } from 'react';
import {
  CARD_FIELDS,
  cardInputStateOf,
  tokyoYearMonth,
  type CardErrors,
  type CardInputState,
  type StripeChangeLike,
  type TypedCard,
} from '../cards/cardInputState';

export type { CardInputState } from '../cards/cardInputState';

const CARD_OPTIONS = { hidePostalCode: true, style: { base: { fontSize: '16px' } } } as const;

/**
 * The card field of Stripe Elements, created from the `<Elements>` context. Not React Stripe.js's
 * `CardElement`: that one removes its listeners with `element.off`, which localstripe's fake Stripe.js (the one
 * the browser tests drive) lacks; destroying the element removes them as well. The fake also sends `change`
 * without a description of the input: then the values it holds are described by our own rules
 * (`cardInputStateOf`), so the register button still waits for a complete card.
 */
export function CardInput({
  onChange,
  onReady,
  errorId,
  invalid,
}: {
  onChange: (state: CardInputState) => void;
  onReady: (element: StripeCardElement | null) => void;
  errorId: string;
  invalid: boolean;
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
    // Only the fake keeps what was typed on the element (`value.card`); Stripe.js never exposes card numbers.
    const typed = () => (card as unknown as { value?: { card?: TypedCard } }).value?.card;
    card.on('change', (event?: StripeChangeLike) => {
      onChangeRef.current(cardInputStateOf(event, typed, tokyoYearMonth()));
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
      <div
        ref={node}
        className="payment-card-input"
        role="group"
        aria-labelledby={labelId}
        aria-describedby={errorId}
        aria-invalid={invalid || undefined}
      />
    </div>
  );
}

/**
 * The card-errors area (spec 001 §8) right under the card field: one line per field the provider (or the
 * description of the fake's input) finds wrong, named by the field.
 */
export function CardErrorsArea({ id, errors }: { id: string; errors: CardErrors }) {
  const shown = CARD_FIELDS.filter(({ field }) => errors[field]);
  return (
    <div id={id} className="payment-card-errors" role="alert" aria-live="assertive">
      {shown.map(({ field, label }) => (
        <p key={field} data-field={field} title={label}>
          {errors[field]}
        </p>
      ))}
    </div>
  );
}
