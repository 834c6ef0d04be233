import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { LoadError } from '@/components/form/LoadError';
import { FormAlert, Notice } from '@/components/form/Notice';
import { SubmitButton } from '@/components/form/SubmitButton';
import { Modal } from '@/components/Modal';
import { PageLoading } from '@/components/PageLoading';
import { paths } from '@/config/paths';
import { getErrorMessage } from '@/lib/apiError';
import { useChangeDefaultCardMutation, useDeleteCardMutation, useSavedCardsQuery } from '../api/paymentApi';
import { useSubscriptionsQuery } from '@/app/session/subscriptionsApi';
import type { Card } from '../api/types';
import { CARD_MESSAGES, cardExpiry, cardName, deletionWarnings } from '../cards/savedCards';
import { CardRegisterModal, StripeElements } from '../components/CardForms';
import '../payment.css';

type Flash = { tone: 'success' | 'error'; text: string } | null;

/**
 * What is known of the monthly supports the card may pay: `checking` while they are read (deleting waits, the
 * warnings depend on them), `unknown` when they could not be read (the member is told so before deleting).
 */
type SubscriptionsCheck = 'known' | 'checking' | 'unknown';

/** The confirmation before a card is deleted, naming it and what happens to the monthly supports it pays. */
function DeleteCardDialog({
  card,
  warnings,
  check,
  busy,
  failure,
  onConfirm,
  onRetryCheck,
  onClose,
}: {
  card: Card;
  warnings: string[];
  check: SubscriptionsCheck;
  busy: boolean;
  failure: string | null;
  onConfirm: () => void;
  onRetryCheck: () => void;
  onClose: () => void;
}) {
  return (
    <Modal title="クレジットカードの削除" onClose={onClose}>
      <FormAlert message={failure} />
      <p>{CARD_MESSAGES.deleteConfirm}</p>
      <p className="saved-cards__target">
        {cardName(card)}（有効期限 {cardExpiry(card)}）
      </p>
      {check === 'checking' && (
        <p className="saved-cards__checking" role="status">
          <span className="spinner spinner--small" aria-hidden="true" />
          {CARD_MESSAGES.subscriptionsChecking}
        </p>
      )}
      {check === 'unknown' && (
        <div className="saved-cards__warning" role="alert">
          <p>{CARD_MESSAGES.subscriptionsUnknown}</p>
          <button type="button" className="button button--text" onClick={onRetryCheck}>
            毎月のご支援をもう一度確認する
          </button>
        </div>
      )}
      {check === 'known' &&
        warnings.map((warning) => (
          <p key={warning} className="saved-cards__warning">
            {warning}
          </p>
        ))}
      <div className="modal__actions">
        <SubmitButton type="button" busy={busy} busyLabel="削除中…" disabled={check === 'checking'} onClick={onConfirm}>
          削除する
        </SubmitButton>
        <button type="button" className="button button--text button--block" onClick={onClose} disabled={busy}>
          キャンセル
        </button>
      </div>
    </Modal>
  );
}

function CardList({
  cards,
  defaultId,
  selectedId,
  onSelect,
}: {
  cards: Card[];
  defaultId: string | null;
  selectedId: string;
  onSelect: (id: string) => void;
}) {
  return (
    <fieldset className="payment-choice saved-cards">
      <legend>登録済みのクレジットカード</legend>
      {cards.map((card) => (
        <label key={card.id} className="saved-cards__item">
          <input
            type="radio"
            name="saved-card"
            value={card.id}
            checked={selectedId === card.id}
            onChange={() => onSelect(card.id)}
          />
          <span>
            <span className="saved-cards__name">{cardName(card)}</span>{' '}
            <span className="saved-cards__expiry">有効期限 {cardExpiry(card)}</span>
            {card.id === defaultId && (
              <>
                {' '}
                <span className="payment-cards__default">デフォルト</span>
              </>
            )}
          </span>
        </label>
      ))}
    </fieldset>
  );
}

/** Saved cards (`/edit/payment`, spec 001 §2): the list with the default marked; register, set as default, delete. */
export function EditPayment() {
  const titleId = useId();
  const { data, isLoading, isError, error, refetch } = useSavedCardsQuery();
  // No card, no monthly support to warn about.
  const subscriptions = useSubscriptionsQuery(undefined, { skip: !data || data.cards.length === 0 });
  // A list being read again may be stale (a default card change moves payments), so deleting waits for it too.
  const subscriptionsCheck: SubscriptionsCheck = subscriptions.isFetching
    ? 'checking'
    : subscriptions.isError || !subscriptions.data
      ? 'unknown'
      : 'known';
  const [changeDefault, changing] = useChangeDefaultCardMutation();
  const [deleteCard, deleting] = useDeleteCardMutation();
  const [picked, setPicked] = useState<string | null>(null);
  const [modal, setModal] = useState<'register' | 'delete' | null>(null);
  const [flash, setFlash] = useState<Flash>(null);
  const [deleteFailure, setDeleteFailure] = useState<string | null>(null);

  const cards = data?.cards ?? [];
  const defaultId = data?.defaultId ?? null;
  // Until the member picks one (or after the picked one is gone): the default card.
  const selected = cards.find((card) => card.id === picked) ?? cards.find((card) => card.id === defaultId) ?? cards[0];

  const makeDefault = async (card: Card) => {
    setFlash(null);
    try {
      await changeDefault(card.id).unwrap();
      setFlash({ tone: 'success', text: CARD_MESSAGES.defaultChanged });
    } catch {
      setFlash({ tone: 'error', text: CARD_MESSAGES.defaultFailed });
    }
  };

  const remove = async (card: Card) => {
    setDeleteFailure(null);
    try {
      await deleteCard(card.id).unwrap();
      setModal(null);
      setPicked(null);
      setFlash({ tone: 'success', text: CARD_MESSAGES.deleted });
    } catch {
      setDeleteFailure(CARD_MESSAGES.deleteFailed);
    }
  };

  return (
    <section className="page saved-cards-page" aria-labelledby={titleId}>
      <h1 id={titleId} className="page__title">
        お支払い方法の管理
      </h1>
      <p className="saved-cards-page__lead">ご支援のお支払いに使うクレジットカードを登録・変更できます。</p>
      {flash && (
        <Notice tone={flash.tone}>
          <p>{flash.text}</p>
        </Notice>
      )}
      {isLoading && <PageLoading />}
      {isError && <LoadError message={getErrorMessage(error)} onRetry={() => void refetch()} />}
      {data && cards.length === 0 && (
        <Notice tone="info">
          <p>{CARD_MESSAGES.empty}</p>
        </Notice>
      )}
      {data && selected && (
        <>
          <CardList cards={cards} defaultId={defaultId} selectedId={selected.id} onSelect={setPicked} />
          <div className="form__actions saved-cards__actions">
            <SubmitButton
              type="button"
              variant="default"
              busy={changing.isLoading}
              busyLabel="変更中…"
              disabled={selected.id === defaultId}
              onClick={() => void makeDefault(selected)}
            >
              選択したカードをデフォルトに設定する
            </SubmitButton>
            <button
              type="button"
              className="button button--block"
              onClick={() => {
                setDeleteFailure(null);
                setModal('delete');
              }}
            >
              選択したカードを削除する
            </button>
          </div>
        </>
      )}
      {data && (
        <div className="form__actions">
          <button
            type="button"
            className="button button--primary button--block"
            onClick={() => {
              setFlash(null);
              setModal('register');
            }}
          >
            新しいカードを登録する
          </button>
        </div>
      )}
      {modal === 'register' && (
        <StripeElements>
          <CardRegisterModal
            onRegistered={() => {
              setModal(null);
              setFlash({ tone: 'success', text: CARD_MESSAGES.registered });
            }}
            onClose={() => setModal(null)}
          />
        </StripeElements>
      )}
      <p className="saved-cards-page__back">
        <Link to={paths.account.getHref()}>マイページへ戻る</Link>
      </p>

      {modal === 'delete' && selected && (
        <DeleteCardDialog
          card={selected}
          warnings={deletionWarnings(selected.id, cards, defaultId, subscriptions.data ?? [])}
          check={subscriptionsCheck}
          busy={deleting.isLoading}
          failure={deleteFailure}
          onConfirm={() => void remove(selected)}
          onRetryCheck={() => void subscriptions.refetch()}
          onClose={() => setModal(null)}
        />
      )}
    </section>
  );
}
