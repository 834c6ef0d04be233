import type { Card, CardsResponse } from '../api/types';
import { isRunning, type Subscription } from '@/app/session/subscriptionsApi';

/** The cards screen's texts: the spec's (000 §8, 001 §8) character for character, and the contract's warnings. */
export const CARD_MESSAGES = {
  registered: 'クレジットカードの登録が完了しました。',
  defaultChanged: 'デフォルトのクレジットカードを変更しました。',
  defaultFailed: 'デフォルトのクレジットカードの変更に失敗しました。お手数ですが、再度やり直してください。',
  deleteConfirm: '以下のカードを削除します。よろしいですか？',
  deleted: 'クレジットカードを削除しました。',
  deleteFailed: 'クレジットカードの削除に失敗しました。お手数ですが、再度やり直してください。',
  empty: '登録済みのクレジットカードはありません。',
  /** When no other card is left to pay a monthly support (contract of issue #10). */
  stopsAtPeriodEnd: 'ほかに登録済みのカードがないため、削除すると毎月のご支援は現在の期間の終わりで停止します。',
  /** The monthly supports are still being read: deleting waits for them (the warning depends on them). */
  subscriptionsChecking: '毎月のご支援を確認しています…',
  /** The monthly supports could not be read: the card may pay one, so the member is told before deleting it. */
  subscriptionsUnknown:
    '毎月のご支援の確認ができませんでした。このカードで毎月のご支援をお支払いの場合、カードを削除すると次回の決済ができなくなります。',
} as const;

/** The member's saved cards as the screens read them: the cards and which one is the default (null: none). */
export interface SavedCards {
  cards: Card[];
  defaultId: string | null;
}

/** The server's card list (`CardsDto`) as the screens read it. */
export const savedCardsOf = (data: CardsResponse['data']): SavedCards => ({ cards: data.cards, defaultId: data.default });

/** 'Visa 末尾4242', as the cards screen and its warnings name a card. */
export const cardName = (card: Pick<Card, 'brand' | 'last4'>): string => `${card.brand} 末尾${card.last4}`;

/** The expiry as cards print it: MM/YY. */
export const cardExpiry = (card: Pick<Card, 'expMonth' | 'expYear'>): string =>
  `${String(card.expMonth).padStart(2, '0')}/${String(card.expYear % 100).padStart(2, '0')}`;

/**
 * The card that is the default once `deleted` is gone, by the server's rule (contract of issue #10): the current
 * default if it is another card, else the newest other card, which is the last in the list; null when none is left.
 */
export const defaultAfterDeleting = (deleted: string, cards: Card[], defaultId: string | null): Card | null => {
  const others = cards.filter((card) => card.id !== deleted);
  return others.find((card) => card.id === defaultId) ?? others[others.length - 1] ?? null;
};

/**
 * What the delete confirmation says about the monthly supports the card pays (contract of issue #10): for each
 * running one (active, past due or canceling) paid by it, the project, then where its payments go.
 */
export const deletionWarnings = (
  deleted: string,
  cards: Card[],
  defaultId: string | null,
  subscriptions: Subscription[],
): string[] => {
  const next = defaultAfterDeleting(deleted, cards, defaultId);
  const consequence = next
    ? `削除すると、以降のお支払いは ${cardName(next)} のカードに切り替わります。`
    : CARD_MESSAGES.stopsAtPeriodEnd;
  return subscriptions
    .filter((subscription) => isRunning(subscription) && subscription.cardId === deleted)
    .map((subscription) => `このカードは毎月のご支援「${subscription.projectTitle}」のお支払いに使われています。${consequence}`);
};
