/** Messages of the session (spec 000 §5 and §8), shared by the guard and the login page. */
export const SESSION_MESSAGES = {
  loginRequired: 'このページを表示するにはログインが必要です。',
  expired: 'ログイン有効期限が切れました。お手数ですが再度ログインしなおしてください。',
} as const;
