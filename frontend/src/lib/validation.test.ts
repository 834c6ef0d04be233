import { describe, expect, it } from 'vitest';
import rules from './validation-rules.json';
import { EMAIL_MESSAGES, isBlank, validateEmail, validateTel, validateText, validateZip } from './validation';

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

describe('the rules shared with the server', () => {
  it.each(rules.email.acceptedExamples)('accepts the shared example %s', (email) => {
    expect(validateEmail(email)).toBeNull();
  });

  it.each(rules.email.refusedExamples)('refuses the shared example %s', (email) => {
    expect(validateEmail(email)).toBe(EMAIL_MESSAGES.format);
  });

  it.each(['a,b@example.com', 'a;b@example.com', '<a@example.com>', 'a b@example.com'])(
    'refuses the address the mailer cannot send to: %s',
    (email) => {
      expect(validateEmail(email)).toBe(EMAIL_MESSAGES.format);
    },
  );
});

describe('validateText', () => {
  it('refuses a NUL with the field label', () => {
    expect(validateText('companyName', '上毛\u0000商事')).toBe('企業名に使用できない文字が含まれています。');
  });

  it('allows line breaks only in multi-line fields', () => {
    expect(validateText('profile', '一行目\n二行目')).toBeNull();
    expect(validateText('username', '上毛\n太郎')).toBe('ユーザー名に使用できない文字が含まれています。');
  });

  it('counts characters against the server limit', () => {
    expect(validateText('addressCity', '前'.repeat(50))).toBeNull();
    expect(validateText('addressCity', '前'.repeat(51))).toBe('市区町村は50文字以内で入力してください。');
    expect(validateText('companyName', '社'.repeat(5000))).toBe('企業名は100文字以内で入力してください。');
  });

  it('treats invisible-only text as empty', () => {
    expect(isBlank('\u200B\uFEFF \u3000')).toBe(true);
    expect(validateText('comment', '\u200B\u200B')).toBe('コメントを入力してください。');
    expect(validateText('username', '\u200B')).toBeNull();
  });
});

describe('phone and zip', () => {
  it.each(['12345', '123456789', '123456789012', '123456789012345', '090-1234-5678'])('refuses the phone %s', (tel) => {
    expect(validateTel(tel)).toBe('電話番号は半角数字10〜11桁（ハイフンなし）で入力してください。');
  });

  it('accepts 10 and 11 digits and a 7-digit zip', () => {
    expect(validateTel('0272000000')).toBeNull();
    expect(validateTel('09012345678')).toBeNull();
    expect(validateZip('3710023')).toBeNull();
    expect(validateZip('371-0023')).toBe('郵便番号は半角数字7桁（ハイフンなし）で入力してください。');
  });
});
