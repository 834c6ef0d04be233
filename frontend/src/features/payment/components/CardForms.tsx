import { useStripe } from '@stripe/react-stripe-js';
import type { StripeCardElement } from '@stripe/stripe-js';
import { useId, useRef, useState } from 'react';
import { Modal } from '@/components/Modal';
import { FormAlert } from '@/components/form/Notice';
import { SubmitButton } from '@/components/form/SubmitButton';
import { getApiErrorBody } from '@/lib/apiError';
import { useChangeDefaultCardMutation, useRegisterCardMutation } from '../api/paymentApi';
import type { Card } from '../api/types';
import { PAYMENT_MESSAGES } from '../messages';
import { CardInput, type CardInputState } from './CardInput';

export interface TokenisedCard {
  token: string;
  brand: string;
  last4: string;
}

/**
 * Card details typed into Stripe Elements, tokenised by Stripe.js (spec 000 §4): the button works only once the
 * input is complete; the provider's messages show in the card-errors area. `onToken` does what the token is for.
 */
export function CardEntry({
  submitLabel,
  onToken,
}: {
  submitLabel: string;
  /** Throws a message to show when the token could not be used. */
  onToken: (card: TokenisedCard) => Promise<void>;
}) {
  const stripe = useStripe();
  const errorId = useId();
  const element = useRef<StripeCardElement | null>(null);
  const [input, setInput] = useState<CardInputState>({ complete: false, error: null });
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const busyRef = useRef(false);

  const submit = async () => {
    if (!stripe || !element.current || busyRef.current) return;
    busyRef.current = true;
    setBusy(true);
    setFailure(null);
    try {
      const result = await stripe.createToken(element.current);
      if (result.error || !result.token) {
        setInput((current) => ({ ...current, error: result.error?.message ?? PAYMENT_MESSAGES.cardInfoFailed }));
        return;
      }
      const { token } = result;
      await onToken({ token: token.id, brand: token.card?.brand ?? '', last4: token.card?.last4 ?? '' });
    } catch (error) {
      setFailure(error instanceof Error ? error.message : PAYMENT_MESSAGES.cardRegisterFailed);
    } finally {
      busyRef.current = false;
      setBusy(false);
    }
  };

  return (
    <div className="form">
      <FormAlert message={failure} />
      <CardInput
        errorId={errorId}
        onChange={(state) => setInput(state)}
        onReady={(card) => {
          element.current = card;
        }}
      />
      <p id={errorId} className="payment-card-errors" role="alert" aria-live="assertive">
        {input.error}
      </p>
      <SubmitButton type="button" busy={busy} disabled={!stripe || !input.complete} onClick={() => void submit()}>
        {submitLabel}
      </SubmitButton>
    </div>
  );
}

/** Registers a card on the member's account (`POST /v1/stripe/customer/set/updater`). */
export function CardRegisterModal({ onRegistered, onClose }: { onRegistered: (card: Card) => void; onClose: () => void }) {
  const [registerCard] = useRegisterCardMutation();
  const onToken = async ({ token }: TokenisedCard) => {
    try {
      const { card } = await registerCard({ source: token, isCardRegist: true }).unwrap();
      onRegistered(card);
    } catch (error) {
      throw new Error(getApiErrorBody(error)?.message ?? PAYMENT_MESSAGES.cardRegisterFailed);
    }
  };
  return (
    <Modal title="クレジットカードの登録" onClose={onClose}>
      <CardEntry submitLabel="登録する" onToken={onToken} />
      <div className="modal__actions">
        <button type="button" className="button button--text button--block" onClick={onClose}>
          閉じる
        </button>
      </div>
    </Modal>
  );
}

export const cardLabel = (card: Pick<Card, 'brand' | 'last4'>): string => `${card.brand} **** ${card.last4}`;

/**
 * The member's saved cards (spec 000 §4): keep the default, use another for this payment only, or make another
 * the default.
 */
export function CardSelectModal({
  cards,
  defaultId,
  selectedId,
  onChoose,
  onClose,
}: {
  cards: Card[];
  defaultId: string | null;
  selectedId: string | null;
  onChoose: (cardId: string) => void;
  onClose: () => void;
}) {
  const [picked, setPicked] = useState<string | null>(null);
  // Until the supporter picks, the card paid with now; also when the list arrives after the modal opened
  // (right after registering a card).
  const choice =
    picked !== null && cards.some((card) => card.id === picked) ? picked : (selectedId ?? defaultId ?? cards[0]?.id ?? '');
  const [failure, setFailure] = useState<string | null>(null);
  const [changeDefault, { isLoading }] = useChangeDefaultCardMutation();

  const makeDefault = async () => {
    setFailure(null);
    try {
      await changeDefault(choice).unwrap();
      onChoose(choice);
    } catch {
      setFailure(PAYMENT_MESSAGES.defaultCardFailed);
    }
  };

  return (
    <Modal title="お支払いに使うカードを選択" onClose={onClose}>
      <FormAlert message={failure} />
      <fieldset className="payment-choice">
        <legend className="visually-hidden">登録済みのカード</legend>
        {cards.map((card) => (
          <label key={card.id}>
            <input
              type="radio"
              name="card"
              value={card.id}
              checked={choice === card.id}
              onChange={() => setPicked(card.id)}
            />
            <span>
              {cardLabel(card)}（有効期限 {card.expMonth}/{card.expYear}）
              {card.id === defaultId && <span className="payment-cards__default">デフォルト</span>}
            </span>
          </label>
        ))}
      </fieldset>
      <div className="modal__actions">
        <button type="button" className="button button--primary button--block" onClick={() => onChoose(choice)} disabled={isLoading}>
          このカードで支払う
        </button>
        {choice !== defaultId && (
          <SubmitButton type="button" variant="default" busy={isLoading} busyLabel="変更中…" onClick={() => void makeDefault()}>
            このカードをデフォルトに設定して支払う
          </SubmitButton>
        )}
        <button type="button" className="button button--text button--block" onClick={onClose}>
          閉じる
        </button>
      </div>
    </Modal>
  );
}
