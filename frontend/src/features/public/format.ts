import { formatTaxedPrice, formatYen } from '@/lib/format';

const integer = new Intl.NumberFormat('ja-JP');

// Amounts come from the shared formatter (one format on every screen).
export { formatYen };

/** '56人' */
export const formatPeople = (count: number): string => `${integer.format(count)}人`;

/** '12.3%' with a fixed number of decimals. */
export const formatPercent = (percent: number, decimals: 1 | 2): string => `${percent.toFixed(decimals)}%`;

/** '残り{n}日' while open, '終了' once ended. */
export const formatDaysLeft = (daysLeft: number, isOpen: boolean): string =>
  isOpen && daysLeft > 0 ? `残り${integer.format(daysLeft)}日` : '終了';

type PricedReturn = { price: number; total: number; taxLabel: string; interval?: string | null };

/**
 * The price a supporter pays for one lot, always tax included (総額表示): '3,300円（税込）', also for a return
 * the project lists before tax; a donation carries no tax: '5,000円（非課税）'. See docs/decisions.md.
 */
export const formatReturnPrice = (ret: PricedReturn): string => formatTaxedPrice(ret);

/** A return charged every month (`interval: 'month'`, issue #10): '1,100円/月（税込）', 毎月のご支援. */
export const isMonthly = (ret: { interval?: string | null }): boolean => ret.interval === 'month';

/** The secondary figure of a return listed before tax (税別): '税抜 3,000円'; null for the others. */
export const formatTaxExcludedPrice = (ret: PricedReturn): string | null =>
  ret.taxLabel === '税別' ? `税抜 ${formatYen(ret.price)}` : null;

/** '残り12口', or '数量制限なし' for a return without a limit. */
export const formatRemaining = (remaining: number | null): string =>
  remaining === null ? '数量制限なし' : `残り${integer.format(remaining)}口`;

const TOKYO_DATE = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Asia/Tokyo',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** 'YYYY.MM.DD' in Asia/Tokyo (comment and news dates). */
export const formatDotDate = (iso: string): string => {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return TOKYO_DATE.format(date).replaceAll('-', '.');
};

/** '残り12 / 限定50' for a limited return, '数量制限なし' otherwise. */
export const formatStock = (remaining: number | null, limit: number | null): string =>
  remaining === null || limit === null
    ? '数量制限なし'
    : `残り${integer.format(remaining)} / 限定${integer.format(limit)}`;

/** '2027年3月お届け予定' from 'YYYY-MM'; null when the month is not announced (or unreadable). */
export const formatDeliveryMonth = (month: string | null): string | null => {
  const match = month ? /^(\d{4})-(\d{2})$/.exec(month) : null;
  if (!match) return null;
  return `${match[1]}年${Number(match[2])}月お届け予定`;
};

const WEEKDAYS = ['日', '月', '火', '水', '木', '金', '土'] as const;

/**
 * '2026年12月31日（木）23:59まで' from the server's `closesAt` ('2026-12-31T23:59:00+09:00', Tokyo wall-clock
 * time, read as written so the visitor's own zone never shifts it); '' when unreadable.
 */
export const formatClosesAt = (closesAt: string): string => {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(closesAt);
  if (!match) return '';
  const [, y, m, d, hh, mm] = match;
  const weekday = WEEKDAYS[new Date(Date.UTC(Number(y), Number(m) - 1, Number(d))).getUTCDay()];
  return `${y}年${Number(m)}月${Number(d)}日（${weekday}）${hh}:${mm}まで`;
};

/** The cheapest one-lot price (tax included) among the returns that can still be chosen; null if none can. */
export const lowestPrice = (returns: ReadonlyArray<{ total: number; purchasable: boolean }>): number | null => {
  const open = returns.filter((ret) => ret.purchasable).map((ret) => ret.total);
  return open.length === 0 ? null : Math.min(...open);
};

export type FundingModel = 'all_in' | 'all_or_nothing';

/** The funding models in the words of the terms of use (第2条 definitions, 第6条 when a project succeeds). */
export const FUNDING_MODELS: Record<FundingModel, { name: string; text: string }> = {
  all_in: {
    name: 'オールイン方式',
    text: '目標金額の達成の有無にかかわらず支援を実行する方式です。集まった支援金でプロジェクトを実行し、リターンをお届けします。',
  },
  all_or_nothing: {
    name: 'オールオアナッシング方式',
    text: '目標金額に達した場合に限り支援を実行する方式です。募集期間内に目標金額に届かなかった場合、支援金は全額返金されます。',
  },
};

/** Where LINE, X and Facebook take a visitor who shares `url` (their documented share addresses). */
export const shareLinks = (url: string, title: string): { line: string; x: string; facebook: string } => {
  const u = encodeURIComponent(url);
  return {
    line: `https://social-plugins.line.me/lineit/share?url=${u}`,
    x: `https://x.com/intent/post?text=${encodeURIComponent(title)}&url=${u}`,
    facebook: `https://www.facebook.com/sharer/sharer.php?u=${u}`,
  };
};
