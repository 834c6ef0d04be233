import { describe, expect, it } from 'vitest';
import type { RefundSale } from './api/refundsApi';
import {
  REFUND_MESSAGES,
  bulkAmounts,
  bulkRefundError,
  canBulkRefund,
  canRefund,
  confirmSingle,
  refundedLabel,
  singleRefundError,
} from './refundRules';

const sale = (id: number, total: number, state: RefundSale['state'] = 'refundable'): RefundSale => ({
  id,
  createdAt: '2026-11-27T12:00:00+09:00',
  sponsorName: `支援者${id}`,
  users: { username: null, displayname: `支援者${id}`, corporatename: null },
  amount: total,
  total,
  course: 'A',
  returnTitle: 'お礼',
  lot: 1,
  paymentType: 1,
  flag: state === 'refunded' ? 11 : state === 'refundable' ? 1 : 0,
  refundRequired: false,
  refundedAmount: state === 'refunded' ? total : 0,
  // What the server answers for such a sale (domain::refund::refundable_amount and half_refund_amount).
  refundableAmount: state === 'refundable' ? total : 0,
  halfRefundAmount: state === 'refundable' && total >= 2 ? Math.floor(total / 2) : null,
  state,
  openRefundAmount: null,
  lastFailure: null,
  lastFailureDetail: null,
});

describe('single refund', () => {
  it('is enabled only with a positive amount', () => {
    expect(['', '0', '-1', 'abc'].map(canRefund)).toEqual([false, false, false, false]);
    expect(canRefund('1')).toBe(true);
  });

  it('asks for an amount, refuses more than was paid, and words the confirmation', () => {
    expect(singleRefundError('', sale(1, 1000))).toBe('返金額を入力してください');
    expect(singleRefundError('0', sale(1, 1000))).toBe('返金額を入力してください');
    expect(singleRefundError('1001', sale(1, 1000))).toBe('返金額が協賛金額の合計を超えています');
    expect(singleRefundError('1000', sale(1, 1000))).toBeNull();
    expect(confirmSingle(12000)).toBe('12,000円を返金します。よろしいですか？');
    expect(refundedLabel(3300)).toBe('3,300円返金済み');
  });
});

describe('bulk refund', () => {
  const rows = [sale(1, 1001), sale(2, 5000, 'refunded'), sale(3, 3000), sale(4, 800, 'not_refundable')];

  it('fills only refundable rows: full, half floored, specified copied; none clears', () => {
    expect(bulkAmounts(1, '', rows)).toEqual({ 1: '1001', 3: '3000' });
    expect(bulkAmounts(2, '', rows)).toEqual({ 1: '500', 3: '1500' });
    expect(bulkAmounts(3, '700', rows)).toEqual({ 1: '700', 3: '700' });
    expect(bulkAmounts(0, '700', rows)).toEqual({});
  });

  it('takes the ceilings from the server: a partly refunded sale, and a 1-yen sale that half skips', () => {
    const partly = { ...sale(5, 3000), refundedAmount: 1000, refundableAmount: 2000, halfRefundAmount: 1000 };
    const oneYen = sale(6, 1);
    expect(bulkAmounts(1, '', [partly, oneYen])).toEqual({ 5: '2000', 6: '1' });
    expect(bulkAmounts(2, '', [partly, oneYen])).toEqual({ 5: '1000' });
    expect(singleRefundError('2001', partly)).toBe('返金額が協賛金額の合計を超えています');
    expect(singleRefundError('2000', partly)).toBeNull();
    expect(bulkRefundError(3, '2001', [partly])).toBe('返金額が協賛金額を超えています。');
  });

  it('enables the button for full and half, for specified with 0 or more, never for none', () => {
    expect([canBulkRefund(0, ''), canBulkRefund(1, ''), canBulkRefund(2, '')]).toEqual([false, true, true]);
    expect([canBulkRefund(3, ''), canBulkRefund(3, '-1'), canBulkRefund(3, '0')]).toEqual([false, false, true]);
  });

  it('refuses an amount above any refundable row, and a table with nothing refundable', () => {
    expect(bulkRefundError(3, '1002', rows)).toBe(REFUND_MESSAGES.bulkAboveSponsored);
    expect(bulkRefundError(3, '1001', rows)).toBeNull();
    expect(bulkRefundError(3, '0', rows)).toBe(REFUND_MESSAGES.amountRequired);
    expect(bulkRefundError(1, '', [sale(2, 5000, 'refunded')])).toBe('返金できる購入情報がありません。');
  });
});
