import { describe, expect, it } from 'vitest';
import { card, subscription } from '../testing/fixtures';
import { CARD_MESSAGES, cardExpiry, cardName, defaultAfterDeleting, deletionWarnings } from './savedCards';

const visa = card({ id: 'card_visa', brand: 'Visa', last4: '4242' });
const jcb = card({ id: 'card_jcb', brand: 'JCB', last4: '0005' });
const master = card({ id: 'card_mc', brand: 'MasterCard', last4: '4444' });

const PAID_BY = 'このカードは毎月のご支援「前橋の夏祭りを復活させたい」のお支払いに使われています。';

describe('card names', () => {
  it('names a card by brand and last digits, its expiry as MM/YY', () => {
    expect(cardName(visa)).toBe('Visa 末尾4242');
    expect(cardExpiry({ expMonth: 3, expYear: 2031 })).toBe('03/31');
    expect(cardExpiry({ expMonth: 12, expYear: 2030 })).toBe('12/30');
  });
});

describe('the card that pays once another is deleted', () => {
  it('is the default when the default stays', () => {
    expect(defaultAfterDeleting('card_jcb', [visa, jcb, master], 'card_visa')).toBe(visa);
  });

  it('is the newest other card (the last listed) when the default goes', () => {
    expect(defaultAfterDeleting('card_visa', [visa, jcb, master], 'card_visa')).toBe(master);
    expect(defaultAfterDeleting('card_mc', [visa, jcb, master], 'card_mc')).toBe(jcb);
  });

  it('is none when no other card is left', () => {
    expect(defaultAfterDeleting('card_visa', [visa], 'card_visa')).toBeNull();
  });
});

describe('the warning before deleting a card', () => {
  it('says where a monthly support paid by the default card moves', () => {
    expect(deletionWarnings('card_visa', [visa, jcb, master], 'card_visa', [subscription()])).toEqual([
      `${PAID_BY}削除すると、以降のお支払いは MasterCard 末尾4444 のカードに切り替わります。`,
    ]);
  });

  it('names the current default when a card that is not the default goes', () => {
    expect(deletionWarnings('card_jcb', [visa, jcb], 'card_visa', [subscription({ cardId: 'card_jcb' })])).toEqual([
      `${PAID_BY}削除すると、以降のお支払いは Visa 末尾4242 のカードに切り替わります。`,
    ]);
  });

  it('says the support stops at the end of the period when it is the last card', () => {
    expect(deletionWarnings('card_visa', [visa], 'card_visa', [subscription({ status: 'past_due' })])).toEqual([
      `${PAID_BY}${CARD_MESSAGES.stopsAtPeriodEnd}`,
    ]);
  });

  it('covers every running support paid by the card, and no other', () => {
    const warnings = deletionWarnings('card_visa', [visa, jcb], 'card_visa', [
      subscription(),
      subscription({ id: 13, projectTitle: '高崎だるま市', status: 'canceling' }),
      subscription({ id: 14, projectTitle: '終わった支援', status: 'ended' }),
      subscription({ id: 15, projectTitle: '別のカードの支援', cardId: 'card_jcb' }),
    ]);
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toBe(
      'このカードは毎月のご支援「高崎だるま市」のお支払いに使われています。削除すると、以降のお支払いは JCB 末尾0005 のカードに切り替わります。',
    );
  });

  it('says nothing when the card pays no monthly support', () => {
    expect(deletionWarnings('card_jcb', [visa, jcb], 'card_visa', [subscription()])).toEqual([]);
    expect(deletionWarnings('card_visa', [visa], 'card_visa', [])).toEqual([]);
  });
});
