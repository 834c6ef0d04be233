/**
 * Field rules shared by several features, each with the spec's exact message
 * (spec 000 §5, spec 001 §5, accounts API contract).
 */

export const EMAIL_MESSAGES = {
  required: 'メールアドレスを入力してください',
  format: '正しいメールアドレスの形式で入力してください',
} as const;

// One "@", no spaces, a dot in the domain; the server has the final word.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** The error message for an (already trimmed) e-mail, or `null` when it is acceptable. */
export const validateEmail = (email: string): string | null => {
  if (email === '') return EMAIL_MESSAGES.required;
  if (!EMAIL_PATTERN.test(email)) return EMAIL_MESSAGES.format;
  return null;
};

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
