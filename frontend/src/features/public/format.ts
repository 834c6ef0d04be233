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
