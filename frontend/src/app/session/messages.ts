/** Messages of the session (spec 000 §5 and §8), shared by the guard, the notice dialog and the login page. */
export const SESSION_MESSAGES = {
  loginRequired: 'このページを表示するにはログインが必要です。',
  expired: 'ログイン有効期限が切れました。お手数ですが再度ログインしなおしてください。',
  /** loginCheck answered 403, or no answer came: the session is unknown, the token is kept. */
  reload: 'データの取得に失敗しました。再読み込みしてください。',
  /** loginCheck failed otherwise (5xx, unreadable answer): the token is removed. */
  loginProblem: 'ログインに問題が発生しました。お手数ですが管理者までお問い合わせください。',
} as const;

export type SessionNotice = keyof typeof SESSION_MESSAGES;

/** The name of the notice dialog of each message. */
export const SESSION_NOTICE_TITLES: Record<SessionNotice, string> = {
  loginRequired: 'ログインが必要です',
  expired: 'ログインの有効期限切れ',
  reload: '読み込みエラー',
  loginProblem: 'ログインエラー',
};
