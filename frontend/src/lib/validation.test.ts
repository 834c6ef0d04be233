import { describe, expect, it } from 'vitest';
import { EMAIL_MESSAGES, validateEmail } from './validation';

describe('validateEmail', () => {
  it('requires a value', () => {
    expect(validateEmail('')).toBe(EMAIL_MESSAGES.required);
  });

  it.each(['taro', 'taro@', '@example.jp', 'taro@example', 'ta ro@example.jp', 'taro@@example.jp', 'taro@example.'])(
    'rejects %s',
    (email) => {
      expect(validateEmail(email)).toBe(EMAIL_MESSAGES.format);
    },
  );

  it.each(['taro@example.jp', 'taro.yamada+cf@mail.example.co.jp'])('accepts %s', (email) => {
    expect(validateEmail(email)).toBeNull();
  });
});
