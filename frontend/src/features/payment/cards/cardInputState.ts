/*
 * What the card field holds: complete or not, and the per-field errors shown beside it (spec 000 §4 and §5, 001
 * §5: the register button works only when number, expiry and CVC are complete; the provider's message per field).
 *
 * Stripe.js describes its input in every `change` event (`complete`, `error` with a code naming the field). The
 * local fake Stripe.js that development and the browser tests use sends `change` with no description, so for it
 * the same description is derived from the values the element holds (`describeTypedCard`), with Stripe's rules:
 * brand-specific length, the Luhn check, an expiry month 1-12 not in the past, a 3-digit CVC (4 for American
 * Express). See docs/decisions.md ("Card completeness with the local fake Stripe.js").
 */

export type CardField = 'number' | 'expiry' | 'cvc';

/** Errors by field; `card` for one that names no field (a token refused as a whole). */
export type CardErrors = Partial<Record<CardField | 'card', string>>;

export interface CardInputState {
  complete: boolean;
  errors: CardErrors;
}

export const EMPTY_CARD_INPUT: CardInputState = { complete: false, errors: {} };

/** The order the fields are shown in, with their Japanese names. */
export const CARD_FIELDS: ReadonlyArray<{ field: CardField | 'card'; label: string }> = [
  { field: 'number', label: 'カード番号' },
  { field: 'expiry', label: '有効期限' },
  { field: 'cvc', label: 'セキュリティコード' },
  { field: 'card', label: 'カード情報' },
];

/** The messages of the fallback description, in the words Stripe.js uses in Japanese. */
export const CARD_INPUT_MESSAGES = {
  invalidNumber: 'カード番号が無効です。',
  invalidExpiry: '有効期限が無効です。',
  pastExpiry: '有効期限が過去の日付です。',
  invalidCvc: 'セキュリティコードが無効です。',
} as const;

/** The field a Stripe error is about, from its `code` (`invalid_number`, `incomplete_expiry`...) or `param`. */
export const fieldOfStripeError = (error: { code?: string; param?: string }): CardField | 'card' => {
  const name = `${error.code ?? ''} ${error.param ?? ''}`;
  if (/number/.test(name)) return 'number';
  // `expir…` and `exp_month`/`exp_year`, not the `exp` inside words such as `unexpected_state`.
  if (/expir|exp_/.test(name)) return 'expiry';
  if (/cvc/.test(name)) return 'cvc';
  return 'card';
};

/** A `change` event as Stripe.js sends it; the fake sends none. */
export interface StripeChangeLike {
  complete?: unknown;
  error?: { message?: string; code?: string } | null;
}

/** The values the fake's element keeps (`element.value.card`): the year already prefixed with '20'. */
export interface TypedCard {
  number?: string;
  exp_month?: string;
  exp_year?: string;
  cvc?: string;
}

const digits = (value: string | undefined): string => (value ?? '').replace(/\s/g, '');

const luhnValid = (number: string): boolean => {
  let sum = 0;
  for (let i = 0; i < number.length; i += 1) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
};

/** Card number length by brand prefix: American Express 15, Diners Club 14, the others 16. */
const numberLength = (number: string): number => {
  if (/^3[47]/.test(number)) return 15;
  if (/^3(0[0-5]|[689])/.test(number)) return 14;
  return 16;
};

/** `today` as year and month (1-12), for the expiry check. */
export interface YearMonth {
  year: number;
  month: number;
}

/** The description of a typed card as Stripe.js would give it: invalid fields get a message, incomplete ones none. */
export const describeTypedCard = (card: TypedCard | undefined, today: YearMonth): CardInputState => {
  const errors: CardErrors = {};
  const number = digits(card?.number);
  const length = numberLength(number);
  let numberComplete = false;
  if (/\D/.test(number) || number.length > length) errors.number = CARD_INPUT_MESSAGES.invalidNumber;
  else if (number.length === length) {
    if (luhnValid(number)) numberComplete = true;
    else errors.number = CARD_INPUT_MESSAGES.invalidNumber;
  }

  const monthText = digits(card?.exp_month);
  // The fake prefixes the two typed digits with '20' ('20' alone: nothing typed yet).
  const fullYear = digits(card?.exp_year);
  const yearText = fullYear.startsWith('20') ? fullYear.slice(2) : fullYear;
  let expiryComplete = false;
  const month = Number(monthText);
  if (/\D/.test(monthText) || /\D/.test(yearText) || monthText.length > 2 || yearText.length > 2) {
    errors.expiry = CARD_INPUT_MESSAGES.invalidExpiry;
  } else if (monthText.length > 0 && (month > 12 || (monthText.length === 2 && month === 0))) {
    errors.expiry = CARD_INPUT_MESSAGES.invalidExpiry;
  } else if (monthText.length > 0 && month >= 1 && yearText.length === 2) {
    const year = 2000 + Number(yearText);
    if (year < today.year || (year === today.year && month < today.month)) errors.expiry = CARD_INPUT_MESSAGES.pastExpiry;
    else expiryComplete = true;
  }

  const cvc = digits(card?.cvc);
  const cvcLength = length === 15 ? 4 : 3;
  let cvcComplete = false;
  if (/\D/.test(cvc) || cvc.length > cvcLength) errors.cvc = CARD_INPUT_MESSAGES.invalidCvc;
  else cvcComplete = cvc.length === cvcLength;

  return { complete: numberComplete && expiryComplete && cvcComplete, errors };
};

/**
 * The state after a `change`: Stripe.js's own description when the event has one, else the description of what
 * the element holds (`typed`, read only for a library that describes nothing).
 */
export const cardInputStateOf = (
  event: StripeChangeLike | undefined,
  typed: () => TypedCard | undefined,
  today: YearMonth,
): CardInputState => {
  if (event && typeof event.complete === 'boolean') {
    const message = event.error?.message;
    return { complete: event.complete, errors: message ? { [fieldOfStripeError(event.error ?? {})]: message } : {} };
  }
  return describeTypedCard(typed(), today);
};

/** Today's year and month in Japan, where the card's expiry month is judged. */
export const tokyoYearMonth = (now: Date = new Date()): YearMonth => {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo', year: 'numeric', month: 'numeric' }).formatToParts(now);
  const part = (type: 'year' | 'month') => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { year: part('year'), month: part('month') };
};
