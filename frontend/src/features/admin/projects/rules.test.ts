import { describe, expect, it } from 'vitest';
import {
  EMPTY_PROJECT_DRAFT,
  EMPTY_RETURN_DRAFT,
  PROJECT_FIELD_ALIASES,
  PROJECT_FIELDS,
  RETURN_FIELDS,
  fieldMessagesOf,
  movedOrder,
  nextDay,
  oneLine,
  parseStateFilter,
  parseWhole,
  projectInputOf,
  publishAtError,
  returnInputOf,
  tokyoInstantOf,
  tokyoNowLocal,
} from './rules';

describe('the project screens’ rules', () => {
  it('reads the state filter of the address, ignoring anything else', () => {
    expect(parseStateFilter('open')).toBe('open');
    expect(parseStateFilter('OPEN')).toBeNull();
    expect(parseStateFilter(null)).toBeNull();
  });

  it('reads amounts typed with separators or full-width digits', () => {
    expect(parseWhole('1,000,000')).toBe(1_000_000);
    expect(parseWhole('３０００')).toBe(3000);
    expect(parseWhole('')).toBeNaN();
    expect(parseWhole('1.5')).toBeNaN();
  });

  it('sends an empty stock as unlimited, and the label and comment only with their box ticked', () => {
    expect(
      returnInputOf({ ...EMPTY_RETURN_DRAFT, title: ' 手紙 ', price: '3,000', addressLabel: 'お届け先', disabledComment: '停止中' }),
    ).toMatchObject({ title: '手紙', price: 3000, stockLimit: null, addressLabel: null, disabledComment: null });
    expect(
      returnInputOf({ ...EMPTY_RETURN_DRAFT, stockLimit: '10', addressRequired: true, addressLabel: 'お届け先', deliveryMonth: '2027-03' }),
    ).toMatchObject({ stockLimit: 10, addressLabel: 'お届け先', deliveryMonth: '2027-03' });
  });

  it('sends a payout date only for a donation project, and offers days after the end', () => {
    const draft = { ...EMPTY_PROJECT_DRAFT, periodEnd: '2026-12-31', donationPayoutDate: '2027-01-15' };
    expect(projectInputOf(draft).donationPayoutDate).toBeNull();
    expect(projectInputOf({ ...draft, taxHandling: 'donation' }).donationPayoutDate).toBe('2027-01-15');
    expect(projectInputOf({ ...draft, taxHandling: 'donation', donationPayoutDate: '' }).donationPayoutDate).toBeNull();
    expect(nextDay('2026-12-31')).toBe('2027-01-01');
    expect(nextDay('2028-02-28')).toBe('2028-02-29');
    expect(nextDay('')).toBe('');
  });

  it('sorts the server’s messages to the fields they name', () => {
    const body = (field?: string) => ({ error: 'validation_failed', message: 'だめです', field });
    expect(fieldMessagesOf(body('goal'), PROJECT_FIELDS, '失敗')).toEqual({ goal: 'だめです' });
    expect(fieldMessagesOf(body('period_end'), PROJECT_FIELDS, '失敗')).toEqual({ periodEnd: 'だめです' });
    expect(fieldMessagesOf(body('acceptsBankTransfer'), PROJECT_FIELDS, '失敗', PROJECT_FIELD_ALIASES)).toEqual({
      payment: 'だめです',
    });
    expect(fieldMessagesOf(body('image'), RETURN_FIELDS, '失敗')).toEqual({ form: 'だめです' });
    expect(fieldMessagesOf(null, RETURN_FIELDS, '失敗')).toEqual({ form: '失敗' });
    expect(
      fieldMessagesOf(
        { error: 'validation_failed', message: 'x', errors: [{ field: 'title', message: 'タイトルを入力してください' }, { field: 'price', message: '金額' }] },
        RETURN_FIELDS,
        '失敗',
      ),
    ).toEqual({ title: 'タイトルを入力してください', price: '金額' });
  });

  it('reads the publication time as Tokyo time, and wants it in the future', () => {
    const now = Date.parse('2026-12-01T10:00:00+09:00');
    expect(tokyoNowLocal(now)).toBe('2026-12-01T10:00');
    expect(tokyoInstantOf('2026-12-02T09:30')).toBe('2026-12-02T09:30:00+09:00');
    expect(publishAtError('', now)).toBe('公開日時を入力してください');
    expect(publishAtError('2026-12-01T09:59', now)).toBe('公開日時は現在より後の日時を入力してください');
    expect(publishAtError('2026-12-01T10:01', now)).toBeNull();
  });

  it('moves a return one place, never past either end', () => {
    expect(movedOrder([1, 2, 3], 0, 1)).toEqual([2, 1, 3]);
    expect(movedOrder([1, 2, 3], 2, -1)).toEqual([1, 3, 2]);
    expect(movedOrder([1, 2, 3], 0, -1)).toEqual([1, 2, 3]);
    expect(movedOrder([1, 2, 3], 2, 1)).toEqual([1, 2, 3]);
  });

  it('keeps the hiding reason on one line: every kind of line break becomes a space', () => {
    expect(oneLine('一行目\n二行目\r\n三行目\r四行目\u2028五行目')).toBe('一行目 二行目 三行目 四行目 五行目');
    expect(oneLine('改行なし')).toBe('改行なし');
  });
});
