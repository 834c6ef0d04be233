/** The delivery screen's words. The server's messages (field errors) are shown as they come. */
export const DELIVERY_MESSAGES = {
  intro:
    'お支払いが完了した支援（全額返金したものを除く）の一覧です。銀行振込は入金が確認できると表示されます。発送済みにすると、支援者にお知らせメールが届きます。',
  empty: '条件に合う支援はありません。',
  download: 'CSVをダウンロード',
  downloading: 'CSVを作成しています…',
  markFailed: '発送状況を変更できませんでした。時間をおいて再度お試しください。',
  noteHint: '200文字以内。支援者へのメールと支払い履歴に表示されます（改行は入れられません）。',
} as const;

/** `n件を発送済みにしました。` with the mails sent, or what did not change. */
export const markedMessage = (
  shipped: boolean,
  result: { changed: number; unchanged: number; mailed: number },
): string => {
  const done = shipped
    ? `${result.changed}件を発送済みにしました。お知らせメールを${result.mailed}件送信します。`
    : `${result.changed}件を未発送に戻しました。`;
  return result.unchanged > 0 ? `${done}（${result.unchanged}件は変更がありませんでした）` : done;
};

/** The longest note the server takes (`domain::delivery::DELIVERY_NOTE`). */
export const NOTE_MAX = 200;

/** Most sales one request may change (`domain::delivery::MAX_SELECTION`). */
export const MAX_SELECTION = 500;
