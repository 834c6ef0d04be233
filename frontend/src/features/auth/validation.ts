/** Validation messages of the e-mail field (spec 000 §5). */
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
