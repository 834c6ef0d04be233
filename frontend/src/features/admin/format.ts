const integer = new Intl.NumberFormat('ja-JP');

/** `12,345円`. */
export const formatYen = (amount: number): string => `${integer.format(amount)}円`;

/** `1,234`. */
export const formatCount = (count: number): string => integer.format(count);

/** `2026-11-26` → `2026年11月26日`. */
export const formatDay = (day: string): string => {
  const [y, m, d] = day.split('-').map(Number);
  return `${y}年${m}月${d}日`;
};

/** Today in Asia/Tokyo as `YYYY-MM-DD` (the value of a date input), at the instant `now`. */
export const tokyoDay = (now: Date): string => {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: 'Asia/Tokyo',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(now);
  const part = (type: 'year' | 'month' | 'day') => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
};

/** `2026-11-26` → `11/26` (chart axes). */
export const formatShortDay = (day: string): string => {
  const [, m, d] = day.split('-').map(Number);
  return `${m}/${d}`;
};

/** An ISO 8601 instant with the Tokyo offset → `2026年11月26日 09:05`. */
export const formatInstant = (iso: string): string => {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(iso);
  if (!match) return iso;
  const [, y, m, d, hh, mm] = match;
  return `${y}年${Number(m)}月${Number(d)}日 ${hh}:${mm}`;
};

/** What each audit-log code means, in the words of the admin screens. */
export const ACTION_LABELS: Record<string, string> = {
  register_mail_resent: '登録メールの再送',
  refund_requested: '返金',
  bulk_refund_started: '一括返金の開始',
  mail_sent: 'メール送信',
  project_created: 'プロジェクトの作成',
  project_updated: 'プロジェクトの編集',
  project_published: 'プロジェクトの公開',
  project_unscheduled: '公開予約の取り消し',
  return_created: 'リターンの追加',
  return_updated: 'リターンの編集',
  return_deleted: 'リターンの削除',
  returns_reordered: 'リターンの並べ替え',
  comment_hidden: 'コメントの非表示',
  comment_shown: 'コメントの再表示',
  payout_marked_paid: '精算の支払済み登録',
  receipt_issuer_updated: '領収書の発行者の設定',
  supporter_name_hidden: '支援者名の非表示',
  supporter_name_shown: '支援者名の再表示',
  project_content_updated: 'ページ内容（FAQ・実行者など）の編集',
  project_image_changed: 'プロジェクト画像の変更',
  project_settings_updated: 'プロジェクト設定（追加質問・振込先・スポンサー）の変更',
  news_created: '活動報告の作成',
  news_updated: '活動報告の編集',
  news_deleted: '活動報告の削除',
  deliveries_marked: '発送状況の変更',
  manual_sponsor_created: 'スポンサー一覧への追加',
  manual_sponsor_updated: 'スポンサー一覧の編集',
  manual_sponsor_deleted: 'スポンサー一覧からの削除',
  manual_sponsors_reordered: 'スポンサー一覧の並べ替え',
};

export const actionLabel = (code: string): string => ACTION_LABELS[code] ?? code;
