/**
 * Field rules shared by several features, each with the spec's exact message
 * (spec 000 §5, spec 001 §5, accounts API contract).
 *
 * Limits and messages of stored texts, e-mail, phone and zip come from
 * `validation-rules.json`, which the Rust domain writes and a Rust test keeps
 * equal to the server's rules (`domain::shared_rules`); edit the domain, then
 * run `UPDATE_VALIDATION_RULES=1 cargo test -p domain shared_rules`.
 */
import rules from './validation-rules.json';

export const EMAIL_MESSAGES = {
  required: rules.email.required,
  format: rules.email.format,
} as const;

// The domain's rule (`Email::parse`): an ASCII dot-atom local part (at most 64
// characters, no leading, trailing or doubled dot) and a host name of two or
// more labels of letters, digits and inner hyphens (each at most 63).
const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const EMAIL_PATTERN = new RegExp(`^${ATEXT}(?:\\.${ATEXT})*@${LABEL}(?:\\.${LABEL})+$`);

/** The error message for an (already trimmed) e-mail, or `null` when it is acceptable. */
export const validateEmail = (email: string): string | null => {
  if (email === '') return EMAIL_MESSAGES.required;
  const local = email.split('@')[0] ?? '';
  if (email.length > rules.email.maxLength || local.length > 64 || !EMAIL_PATTERN.test(email)) {
    return EMAIL_MESSAGES.format;
  }
  return null;
};

export type TextRuleKey = keyof typeof rules.text;
export type TextRule = (typeof rules.text)[TextRuleKey];

/** The rule (label, limit, lines) of a stored text field, as the server applies it. */
export const textRule = (key: TextRuleKey): TextRule => rules.text[key];

const render = (template: string, label: string, max = 0): string =>
  template.replace('{label}', label).replace('{max}', String(max));

/** The server's message for a required text field left empty: `{label}を入力してください。`. */
export const requiredMessage = (label: string): string => render(rules.textMessages.required, label);

const isInvisible = (codePoint: number): boolean =>
  rules.invisibleRanges.some(([lo, hi]) => lo !== undefined && hi !== undefined && codePoint >= lo && codePoint <= hi);

/** Only whitespace and characters that draw nothing (U+200B and the like). */
export const isBlank = (value: string): boolean =>
  [...value].every((c) => /\s/u.test(c) || isInvisible(c.codePointAt(0) ?? 0));

// C0 and C1 controls and DEL; multi-line fields allow tab, LF and CR.
const FORBIDDEN_SINGLE = /[\u0000-\u001F\u007F-\u009F\u2028\u2029\uFFFE\uFFFF]/u;
const FORBIDDEN_MULTI = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]/u;

/**
 * The message for a stored text field, or `null` when the server will accept
 * it: no control characters (line breaks only in multi-line fields), at most
 * the rule's characters after trimming, and not blank when required.
 */
export const validateText = (key: TextRuleKey, value: string, label: string = textRule(key).label): string | null => {
  const rule = textRule(key);
  const forbidden = rule.multiline ? FORBIDDEN_MULTI : FORBIDDEN_SINGLE;
  if (forbidden.test(value)) return render(rules.textMessages.forbiddenCharacter, label);
  if (isBlank(value)) return rule.required ? render(rules.textMessages.required, label) : null;
  const trimmed = value.trim().replace(/\r\n?/g, '\n');
  if ([...trimmed].length > rule.maxChars) return render(rules.textMessages.tooLong, label, rule.maxChars);
  return null;
};

/** Phone: half-width digits without hyphens, 10 or 11 of them. */
export const TEL_RULE = rules.tel;
/** Postal code: 7 half-width digits without hyphen. */
export const ZIP_RULE = rules.zip;

const digitsMessage = (rule: typeof rules.tel, value: string): string | null => {
  if (value === '') return rule.required;
  const ok = /^[0-9]+$/.test(value) && value.length >= rule.minDigits && value.length <= rule.maxDigits;
  return ok ? null : rule.format;
};

export const validateTel = (value: string): string | null => digitsMessage(rules.tel, value);
export const validateZip = (value: string): string | null => digitsMessage(rules.zip, value);

export const PASSWORD_MIN_LENGTH = 8;
/** bcrypt reads at most 72 bytes; the server refuses longer passwords. */
export const PASSWORD_MAX_BYTES = 72;

export const PASSWORD_MESSAGES = {
  required: 'パスワードを入力してください',
  minLength: 'パスワードは8文字以上で設定してください',
  maxBytes: 'パスワードは72バイト以内で設定してください（全角文字は1文字3バイトです）。',
  /** Confirmation on password setup after signup. */
  confirmMismatch: 'パスワードと同一のパスワードを入力してください。',
  /** Confirmation of a new password (reset and change). */
  newConfirmMismatch: '新しいパスワードと同一のパスワードを入力してください。',
} as const;

const utf8Length = (value: string): number => new TextEncoder().encode(value).length;

/** Rules of a password being set: required, at least 8 characters, at most 72 bytes. */
export const validateNewPassword = (password: string): string | null => {
  if (password === '') return PASSWORD_MESSAGES.required;
  if ([...password].length < PASSWORD_MIN_LENGTH) return PASSWORD_MESSAGES.minLength;
  if (utf8Length(password) > PASSWORD_MAX_BYTES) return PASSWORD_MESSAGES.maxBytes;
  return null;
};

/** A password typed to prove who one is (login, current password): only required. */
export const validateEnteredPassword = (password: string): string | null =>
  password === '' ? PASSWORD_MESSAGES.required : null;

/** The confirmation must equal the password; `message` differs between setup and reset. */
export const validateConfirmation = (
  password: string,
  confirmation: string,
  message: string = PASSWORD_MESSAGES.confirmMismatch,
): string | null => (confirmation !== password ? message : null);
