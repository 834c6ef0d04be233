/**
 * 上乗せ支援: whole yen a supporter adds on top of a return at step 1 (docs/decisions.md, "Paying a little more").
 * The limits and messages are the server's (`domain::extra_amount`, through `validation-rules.json`); the server
 * prices the support and refuses anything else, so this only spares a round trip.
 */
import rules from '@/lib/validation-rules.json';

export const EXTRA_AMOUNT_LABEL = '上乗せ支援';

export const EXTRA_AMOUNT_MESSAGES = {
  range: rules.extraAmount.range,
  total: rules.extraAmount.total,
  monthly: rules.extraAmount.monthly,
} as const;

export const EXTRA_AMOUNT_MAX = rules.extraAmount.max;

export type ExtraAmountInput = { ok: true; yen: number } | { ok: false; error: string };

const FULL_WIDTH_DIGIT = /[０-９]/gu;

/**
 * The yen typed into the field: half- or full-width digits, thousands separators and a trailing 円 are fine;
 * empty means none (0). Anything else (a sign, a fraction, letters) or more than the limit is the range message.
 */
export const parseExtraAmount = (raw: string): ExtraAmountInput => {
  const text = raw
    .trim()
    .replace(FULL_WIDTH_DIGIT, (digit) => String.fromCharCode(digit.charCodeAt(0) - 0xfee0))
    .replace(/[,，]/gu, '')
    .replace(/円$/u, '');
  if (text === '') return { ok: true, yen: 0 };
  if (!/^[0-9]+$/u.test(text)) return { ok: false, error: EXTRA_AMOUNT_MESSAGES.range };
  const yen = Number(text);
  return yen <= EXTRA_AMOUNT_MAX ? { ok: true, yen } : { ok: false, error: EXTRA_AMOUNT_MESSAGES.range };
};
