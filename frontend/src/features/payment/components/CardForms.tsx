import { Elements, useStripe } from '@stripe/react-stripe-js';
import type { StripeCardElement } from '@stripe/stripe-js';
import { useId, useRef, useState, type ReactNode } from 'react';
import { Modal } from '@/components/Modal';
import { FormAlert, Notice } from '@/components/form/Notice';
import { SubmitButton } from '@/components/form/SubmitButton';
import { PageLoading } from '@/components/PageLoading';
import { getApiErrorBody } from '@/lib/apiError';
import {
  useChangeDefaultCardMutation,
  useRegisterCardMutation,
  useStartCardSetupMutation,
} from '../api/paymentApi';
import type { Card } from '../api/types';
import { EMPTY_CARD_INPUT, fieldOfStripeError } from '../cards/cardInputState';
import { PAYMENT_MESSAGES } from '../messages';
import { useStripeLibrary } from '../useStripeLibrary';
import { CardErrorsArea, CardInput, type CardInputState } from './CardInput';

/** A card Stripe.js set up: the PaymentMethod to register or pay with, and the set-up's client secret. */
export interface SetUpCard {
  paymentMethod: string;
  clientSecret: string;
}

/**
 * What the member reads when the provider refuses a card while setting it up: our words for a decline and for a
 * failed 3-D Secure (the same as when a payment is refused), else the provider's message for the field.
 */
export const setUpRefusal = (error: { code?: string; message?: string }): string => {
  if (error.code === 'card_declined') return PAYMENT_MESSAGES.cardDeclined;
  if (error.code === 'setup_intent_authentication_failure') return PAYMENT_MESSAGES.authenticationFailed;
  return error.message || PAYMENT_MESSAGES.cardInfoFailed;
};

/** A refusal of a card to show in the card-errors area (the card itself was refused), not as the form's alert. */
export class CardRefusal extends Error {}

/**
 * Card details typed into Stripe Elements and set up by Stripe.js (spec 000 §4): the button works only once number,
 * expiry and CVC are complete. The server starts a set-up, Stripe.js sends the card to the provider with it (never
 * to us) and runs 3-D Secure when the card asks; the provider's messages show per field in the card-errors area,
 * and its refusal stops there. `onCard` does what the card is for.
 */
export function CardEntry({
  submitLabel,
  onCard,
}: {
  submitLabel: string;
  /** Throws a `CardRefusal` for the card-errors area, any other error for the form's alert. */
  onCard: (card: SetUpCard) => Promise<void>;
}) {
  const stripe = useStripe();
  const [startCardSetup] = useStartCardSetupMutation();
  const errorId = useId();
  const element = useRef<StripeCardElement | null>(null);
  const [input, setInput] = useState<CardInputState>(EMPTY_CARD_INPUT);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const busyRef = useRef(false);

  const submit = async () => {
    if (!stripe || !element.current || busyRef.current) return;
    busyRef.current = true;
    setBusy(true);
    setFailure(null);
    try {
      let clientSecret: string;
      try {
        ({ clientSecret } = await startCardSetup().unwrap());
      } catch (error) {
        throw getApiErrorBody(error)?.error === 'customer_failed'
          ? new Error(PAYMENT_MESSAGES.customerFailed)
          : new Error(PAYMENT_MESSAGES.cardInfoFailed);
      }
      const result = await stripe
        .confirmCardSetup(clientSecret, { payment_method: { card: element.current } })
        .catch(() => {
          throw new Error(PAYMENT_MESSAGES.cardInfoFailed);
        });
      const method = result.setupIntent?.status === 'succeeded' ? result.setupIntent.payment_method : null;
      const paymentMethod = typeof method === 'string' ? method : method?.id;
      if (result.error || !paymentMethod) {
        const field = result.error ? fieldOfStripeError(result.error) : 'card';
        const message = result.error ? setUpRefusal(result.error) : PAYMENT_MESSAGES.cardInfoFailed;
        setInput((current) => ({ ...current, errors: { [field]: message } }));
        return;
      }
      await onCard({ paymentMethod, clientSecret });
    } catch (error) {
      if (error instanceof CardRefusal) setInput((current) => ({ ...current, errors: { card: error.message } }));
      else setFailure(error instanceof Error ? error.message : PAYMENT_MESSAGES.cardRegisterFailed);
    } finally {
      busyRef.current = false;
      setBusy(false);
    }
  };

  const invalid = Object.keys(input.errors).length > 0;
  return (
    <div className="form">
      <FormAlert message={failure} />
      <CardInput
        errorId={errorId}
        invalid={invalid}
        onChange={(state) => setInput(state)}
        onReady={(card) => {
          element.current = card;
        }}
      />
      <CardErrorsArea id={errorId} errors={input.errors} />
      <SubmitButton type="button" busy={busy} disabled={!stripe || !input.complete} onClick={() => void submit()}>
        {submitLabel}
      </SubmitButton>
    </div>
  );
}

/**
 * Why a card registration failed, as the member should read it (spec 001 §8): the provider refused the card (its
 * message in the card-errors area); the customer could not be made ('顧客情報登録に失敗しました。'); anything else
 * ('クレジットカード情報の登録に失敗しました。お手数ですが管理者までお問い合わせください').
 */
export const registrationFailure = (error: unknown): Error => {
  const body = getApiErrorBody(error);
  if (body?.error === 'card_declined') return new CardRefusal(body.message);
  if (body?.error === 'customer_failed') return new Error(PAYMENT_MESSAGES.customerFailed);
  return new Error(PAYMENT_MESSAGES.cardRegisterFailed);
};

/**
 * The card-register modal (`POST /v1/stripe/customer/set/updater`), the same one on step 3 and on the cards
 * screen; it must be inside `<Elements>` (see `StripeElements`).
 */
export function CardRegisterModal({ onRegistered, onClose }: { onRegistered: (card: Card) => void; onClose: () => void }) {
  const [registerCard] = useRegisterCardMutation();
  const onCard = async ({ paymentMethod }: SetUpCard) => {
    let card: Card;
    try {
      ({ card } = await registerCard({ source: paymentMethod, isCardRegist: true }).unwrap());
    } catch (error) {
      throw registrationFailure(error);
    }
    onRegistered(card);
  };
  return (
    <Modal title="クレジットカードの登録" onClose={onClose}>
      <CardEntry submitLabel="登録する" onCard={onCard} />
      <div className="modal__actions">
        <button type="button" className="button button--text button--block" onClick={onClose}>
          閉じる
        </button>
      </div>
    </Modal>
  );
}

/** Stripe.js as the server configures it around `children`; a spinner while it loads, a notice when it cannot. */
export function StripeElements({ children }: { children: ReactNode }) {
  const { stripePromise, failed } = useStripeLibrary();
  if (failed) {
    return (
      <Notice tone="error">
        <p>{PAYMENT_MESSAGES.libraryUnavailable}</p>
      </Notice>
    );
  }
  if (!stripePromise) return <PageLoading />;
  return <Elements stripe={stripePromise}>{children}</Elements>;
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
