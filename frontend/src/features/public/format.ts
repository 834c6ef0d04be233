const integer = new Intl.NumberFormat('ja-JP');

/** '1,234,000円' */
export const formatYen = (amount: number): string => `${integer.format(amount)}円`;

/** '56人' */
export const formatPeople = (count: number): string => `${integer.format(count)}人`;

/** '12.3%' with a fixed number of decimals. */
export const formatPercent = (percent: number, decimals: 1 | 2): string => `${percent.toFixed(decimals)}%`;

/** '残り{n}日' while open, '終了' once ended. */
export const formatDaysLeft = (daysLeft: number, isOpen: boolean): string =>
  isOpen && daysLeft > 0 ? `残り${integer.format(daysLeft)}日` : '終了';

/** A price with its tax label: '3,300円（税込）'. Tax-exclusive prices show the price before tax. */
export const formatReturnPrice = (ret: { price: number; total: number; taxLabel: string }): string =>
  `${formatYen(ret.taxLabel === '税別' ? ret.price : ret.total)}（${ret.taxLabel}）`;

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
