/** The flow's texts; the spec's (001 §2, §5, §8, §9; 000 §8) character for character. */
export const PAYMENT_MESSAGES = {
  invalidOperation: '無効なURLまたは操作です。お手数ですが最初からやりなおしてください。',
  lotDisabled: 'このリターンは口数を選択できません。',
  displaynameRequired: '表示名を入力してください。',
  corporatenameRequired: '企業名を入力してください。',
  organisationRequired: '団体名を入力してください。',
  urlFormat: '正しいURLの形式で入力してください。',
  termsNotAccepted: '利用規約に同意してください。',
  antisocialNotConfirmed: '反社会的勢力に該当しないことを確認してください。',
  guestExists: 'ご指定のメールアドレスはすでにゲスト登録されています。',
  guestFailed: 'ゲスト登録に失敗しました。',
  defaultCardFailed: 'デフォルトのクレジットカードの変更に失敗しました。お手数ですが、再度やり直してください。',
  cardRegistered: 'クレジットカードの登録が完了しました。',
  cardRegisterFailed: 'クレジットカード情報の登録に失敗しました。お手数ですが管理者までお問い合わせください',
  cardInfoFailed: 'お支払い情報の登録に失敗しました',
  customerFailed: '顧客情報登録に失敗しました。',
  paymentFailed: '決済の登録に失敗しました',
  cardDeclined: 'カードが承認されませんでした。別のカードをお試しください。',
  /** A reload lost the guest's card (kept in memory only, never stored). */
  guestCardLost: 'カード情報の有効期限が切れました。お手数ですがカード情報を再度入力してください。',
  libraryUnavailable: 'カード決済の準備ができませんでした。時間をおいて再度お試しください。',
  authenticationFailed: 'カードの本人認証が完了しませんでした。別のカードをお試しいただくか、再度お試しください。',
  noPaymentType: 'このプロジェクトは現在お支払いを受け付けていません。',
  /** Spec 001 (subscription): the confirmation before a monthly support is placed, and its outcomes. */
  subscriptionConfirm: 'お支払いを確定します。よろしいですか？',
  subscriptionRegistered: 'お支払い情報の登録が完了しました。',
  subscriptionFailed: 'お支払い情報の登録に失敗しました。お手数ですが管理者までお問い合わせください',
  monthlyCardOnly: '毎月のご支援はクレジットカードでのお支払いのみご利用いただけます。',
  monthlyMembersOnly: '毎月のご支援は会員の方のみお申し込みいただけます。ログインしてからお申し込みください。',
} as const;

/** A return charged every month (`interval: 'month'`). */
export const isMonthlyReturn = (ret: { interval?: string | null }): boolean => ret.interval === 'month';

/** `{label}を入力してください` (spec 001 §5, address and additional data). */
export const requiredMessage = (label: string): string => `${label}を入力してください`;

/** Spec 001 §9 and docs/decisions.md: the same words as the terms and the commercial notice. */
export const BANK_TRANSFER_DEADLINE_TEXT = 'お申込日の翌日から3営業日以内（土日・祝日・年末年始を除く）';
export { BANK_TRANSFER_FEE_NOTE } from '@/components/bank/BankTransferDetails';

/** Spec 001 §1: shown before confirming. */
export const PAYMENT_NOTICES = [
  'お支払い完了後のキャンセル・返金はお受けできません。',
  'リターンのお届けまでに数か月かかる場合があります。',
] as const;
