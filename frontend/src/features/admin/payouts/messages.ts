/** The words of the payout screens (精算). */
export const PAYOUT_MESSAGES = {
  empty: '精算の対象となる成立プロジェクトはまだありません。',
  intro: '成立したプロジェクトごとの精算書です。未精算のものから、支払予定日の順に並びます。',
  payoutDateNote: '募集終了月の翌々月第3営業日',
  download: 'CSVをダウンロード',
  downloading: 'CSVを作成しています…',
  noHistory: 'まだ支払済みの精算はありません。',
  settled: 'この精算書の金額はすべて支払済みです。',
  markPaidTitle: '支払済みにする',
  markPaidHelp: '実行者の口座へ振り込んだあとで、支払日と振込の控えを登録してください。登録した精算書は変更できません。',
  markPaidSubmit: '支払済みとして登録する',
  confirmTitle: '支払済みの登録の確認',
  confirmLabel: '登録する',
  marked: '支払済みとして登録しました。',
  paidOnLabel: '支払日',
  referenceLabel: '振込の控え番号・メモ',
  referenceHint: '銀行の控え番号など（100文字以内）',
} as const;

/** The question before a statement is marked paid: the amounts the operator is about to confirm. */
export const confirmMarkPaid = (payout: string, owed: string | null, paidOn: string): string =>
  `今回のお支払額 ${payout} を、${paidOn}に支払済みとして登録します。` +
  (owed ? `実行者への返還請求額 ${owed} も記録されます。` : '') +
  '登録した精算書は変更できません。よろしいですか？';
