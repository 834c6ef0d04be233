import { describe, expect, it } from 'vitest';
import { CARD_INPUT_MESSAGES, cardInputStateOf, describeTypedCard, fieldOfStripeError, tokyoYearMonth } from './cardInputState';

const TODAY = { year: 2026, month: 11 };
const typed = (overrides: Record<string, string> = {}) => ({
  number: '4242424242424242',
  exp_month: '12',
  exp_year: '2034',
  cvc: '123',
  ...overrides,
});

describe('the description of what is typed into the fake Stripe.js', () => {
  it('is complete only with a valid number, a future expiry and a CVC', () => {
    expect(describeTypedCard(typed(), TODAY)).toEqual({ complete: true, errors: {} });
    expect(describeTypedCard(typed({ exp_month: '11', exp_year: '2026' }), TODAY).complete).toBe(true);
  });

  it('is incomplete, without a message, while a field is still being typed', () => {
    expect(describeTypedCard(undefined, TODAY)).toEqual({ complete: false, errors: {} });
    expect(describeTypedCard(typed({ number: '424242424242' }), TODAY)).toEqual({ complete: false, errors: {} });
    expect(describeTypedCard(typed({ exp_year: '20' }), TODAY)).toEqual({ complete: false, errors: {} });
    expect(describeTypedCard(typed({ exp_year: '203' }), TODAY)).toEqual({ complete: false, errors: {} });
    expect(describeTypedCard(typed({ exp_month: '' }), TODAY)).toEqual({ complete: false, errors: {} });
    expect(describeTypedCard(typed({ cvc: '12' }), TODAY)).toEqual({ complete: false, errors: {} });
  });

  it('names the field that is wrong', () => {
    expect(describeTypedCard(typed({ number: '4242424242424241' }), TODAY)).toEqual({
      complete: false,
      errors: { number: CARD_INPUT_MESSAGES.invalidNumber },
    });
    expect(describeTypedCard(typed({ number: '4242x' }), TODAY).errors).toEqual({ number: CARD_INPUT_MESSAGES.invalidNumber });
    expect(describeTypedCard(typed({ exp_month: '13' }), TODAY).errors).toEqual({ expiry: CARD_INPUT_MESSAGES.invalidExpiry });
    expect(describeTypedCard(typed({ exp_month: '00' }), TODAY).errors).toEqual({ expiry: CARD_INPUT_MESSAGES.invalidExpiry });
    expect(describeTypedCard(typed({ exp_month: '10', exp_year: '2026' }), TODAY).errors).toEqual({
      expiry: CARD_INPUT_MESSAGES.pastExpiry,
    });
    expect(describeTypedCard(typed({ cvc: '12a' }), TODAY).errors).toEqual({ cvc: CARD_INPUT_MESSAGES.invalidCvc });
  });

  it('knows the lengths of American Express and Diners Club', () => {
    expect(describeTypedCard(typed({ number: '378282246310005', cvc: '1234' }), TODAY).complete).toBe(true);
    expect(describeTypedCard(typed({ number: '378282246310005', cvc: '123' }), TODAY).complete).toBe(false);
    expect(describeTypedCard(typed({ number: '30569309025904' }), TODAY).complete).toBe(true);
  });
});

describe('a change event', () => {
  it("of Stripe.js is taken as it is, its error shown beside the field it names", () => {
    const never = () => {
      throw new Error('the typed values are not read when Stripe.js describes the input');
    };
    expect(cardInputStateOf({ complete: true, error: null }, never, TODAY)).toEqual({ complete: true, errors: {} });
    expect(
      cardInputStateOf({ complete: false, error: { code: 'incomplete_cvc', message: 'セキュリティコードが不完全です。' } }, never, TODAY),
    ).toEqual({ complete: false, errors: { cvc: 'セキュリティコードが不完全です。' } });
  });

  it('without a description (the fake) is judged from what the element holds', () => {
    expect(cardInputStateOf(undefined, () => typed(), TODAY).complete).toBe(true);
    expect(cardInputStateOf(undefined, () => typed({ cvc: '' }), TODAY).complete).toBe(false);
  });

  it("maps Stripe's codes and params to fields", () => {
    expect(fieldOfStripeError({ code: 'invalid_number' })).toBe('number');
    expect(fieldOfStripeError({ code: 'invalid_expiry_year_past' })).toBe('expiry');
    expect(fieldOfStripeError({ param: 'exp_month' })).toBe('expiry');
    expect(fieldOfStripeError({ code: 'incorrect_cvc' })).toBe('cvc');
    // A set-up refused as a whole is the card's, though its code holds the letters 'exp' (unexpected).
    expect(fieldOfStripeError({ code: 'setup_intent_unexpected_state' })).toBe('card');
    expect(fieldOfStripeError({ code: 'card_declined' })).toBe('card');
  });

  it('judges expiry by the month in Japan', () => {
    // 2026-11-30 20:00 UTC is already December 1st in Tokyo.
    expect(tokyoYearMonth(new Date('2026-11-30T20:00:00Z'))).toEqual({ year: 2026, month: 12 });
  });
});
