import { describe, expect, it } from 'vitest';
import { EXTRA_AMOUNT_MESSAGES, parseExtraAmount } from './extraAmount';

describe('parseExtraAmount', () => {
  it('reads empty as no extra and whole yen as typed, full-width and with separators too', () => {
    expect(parseExtraAmount('')).toEqual({ ok: true, yen: 0 });
    expect(parseExtraAmount(' 1000 ')).toEqual({ ok: true, yen: 1000 });
    expect(parseExtraAmount('１，５００')).toEqual({ ok: true, yen: 1500 });
    expect(parseExtraAmount('3,000円')).toEqual({ ok: true, yen: 3000 });
    expect(parseExtraAmount('1000000')).toEqual({ ok: true, yen: 1_000_000 });
  });

  it('refuses fractions, signs, words and more than one million yen with the server message', () => {
    for (const bad of ['100.5', '-1', '+5', 'abc', '1e3', '1000001']) {
      expect(parseExtraAmount(bad)).toEqual({ ok: false, error: EXTRA_AMOUNT_MESSAGES.range });
    }
    expect(EXTRA_AMOUNT_MESSAGES.range).toBe('上乗せ支援額は0円から1,000,000円までの整数（円単位）で入力してください。');
  });
});
