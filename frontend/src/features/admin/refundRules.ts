import type { BulkMode, RefundSale } from './api/refundsApi';

/**
 * The refund screen's rules (spec 001 §4, §5). The server checks the same again: these only decide what the
 * screen shows and refuses before a call. Seed messages in English are written in Japanese (docs/decisions.md).
 */
export const REFUND_MESSAGES = {
  amountRequired: '返金額を入力してください',
  aboveSponsored: '返金額が協賛金額の合計を超えています',
  bulkAboveSponsored: '返金額が協賛金額を超えています。',
  nothingRefundable: '返金できる購入情報がありません。',
  failed: '返金に失敗しました',
  done: '返金が完了しました。',
  bulkDone: '一括返金が完了しました',
  amountPlaceholder: '返金額を入力',
  notRefundable: '返金不可',
  feeNote: '全額返金を行う前に、決済手数料の差額分をあらかじめ決済事業者の残高へ入金しておく必要があります。',
  confirmFee: '決済手数料の差額分を入金済みであることを確認しましたか？',
  confirmBalance: '決済事業者（Stripe）の残高が返金の合計額に足りていることを確認しましたか？',
  needsBankDetails: '口座情報の入力待ち',
  unclaimed: '未請求（期限切れ）',
  unclaimedHelp: '支援者が6か月間返金先口座を入力しなかったため返金を取り消しました。規約により返金額は当社に帰属します。',
  needsBankDetailsHelp: '銀行振込の返金は、支援者がメールで案内された返金先口座を入力すると完了します。',
  pending: '返金処理中',
} as const;

export const confirmSingle = (amount: number) => `${amount.toLocaleString('ja-JP')}円を返金します。よろしいですか？`;
export const refundedLabel = (amount: number) => `${amount.toLocaleString('ja-JP')}円返金済み`;

export const BULK_OPTIONS: { value: BulkMode; label: string }[] = [
  { value: 0, label: '選択してください' },
  { value: 1, label: '全額' },
  { value: 2, label: '半額' },
  { value: 3, label: '金額を指定' },
];

/** What a typed amount means: a whole number of yen, or null (empty or not a number). */
export const parseAmount = (raw: string): number | null => {
  const trimmed = raw.trim();
  if (trimmed === '' || !/^-?\d+$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return Number.isSafeInteger(value) ? value : null;
};


/** A typed amount the provider can refund: at least 1 yen, or null. */
const positiveAmount = (raw: string): number | null => {
  const amount = parseAmount(raw);
  return amount !== null && amount > 0 ? amount : null;
};

/** The single-refund button is enabled only with a positive amount (spec §5). */
export const canRefund = (raw: string) => positiveAmount(raw) !== null;

/** The single-refund checks, in the spec's order; null when the refund may be asked. */
export const singleRefundError = (raw: string, sale: RefundSale): string | null => {
  const amount = positiveAmount(raw);
  if (amount === null) return REFUND_MESSAGES.amountRequired;
  if (amount > sale.refundableAmount) return REFUND_MESSAGES.aboveSponsored;
  return null;
};

/**
 * The amounts the bulk select puts into the refundable rows (spec §4), as the server computes them: full = what
 * may still be refunded, half = the server's half (none when it would be 0 yen: the run skips that sale),
 * specified = the typed amount; none = nothing. Other rows get none.
 */
export const bulkAmounts = (mode: BulkMode, specified: string, sales: RefundSale[]): Record<number, string> => {
  const filled: Record<number, string> = {};
  if (mode === 0) return filled;
  for (const sale of sales) {
    if (sale.state !== 'refundable') continue;
    if (mode === 1) filled[sale.id] = String(sale.refundableAmount);
    else if (mode === 2) {
      if (sale.halfRefundAmount !== null) filled[sale.id] = String(sale.halfRefundAmount);
    } else filled[sale.id] = specified;
  }
  return filled;
};

/** The bulk button: enabled for full or half; for specified with an amount of 0 or more; never for none. */
export const canBulkRefund = (mode: BulkMode, specified: string) => {
  if (mode === 1 || mode === 2) return true;
  if (mode === 3) {
    const amount = parseAmount(specified);
    return amount !== null && amount >= 0;
  }
  return false;
};

/** The bulk checks before the confirmations; null when the run may be asked. */
export const bulkRefundError = (mode: BulkMode, specified: string, sales: RefundSale[]): string | null => {
  const rows = sales.filter((sale) => sale.state === 'refundable');
  if (rows.length === 0) return REFUND_MESSAGES.nothingRefundable;
  if (mode === 3) {
    // The button accepts 0 as the spec says, but the server refunds at least 1 yen: ask before the confirmations.
    const amount = positiveAmount(specified);
    if (amount === null) return REFUND_MESSAGES.amountRequired;
    if (rows.some((sale) => amount > sale.refundableAmount)) return REFUND_MESSAGES.bulkAboveSponsored;
  }
  return null;
};
