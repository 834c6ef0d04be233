/*
 * Money and dates as every screen shows them (issue #13): one formatter for amounts, so my page, the payment flow
 * and the public pages never disagree ('10,000円', never '￥10,000').
 */

const integer = new Intl.NumberFormat('ja-JP');

/** Yen as the site writes amounts: '10,000円'. */
export const formatYen = (amount: number): string => `${integer.format(amount)}円`;

/**
 * What a supporter pays for a return, with its tax label: '3,300円（税込）', '5,000円（非課税）' for a donation, and
 * '1,100円/月（税込）' for a monthly return (`interval: 'month'`).
 */
export const formatTaxedPrice = (priced: { total: number; taxLabel: string; interval?: string | null }): string =>
  `${formatYen(priced.total)}${priced.interval === 'month' ? '/月' : ''}（${priced.taxLabel === '非課税' ? '非課税' : '税込'}）`;

/**
 * The amount a receipt (領収書) prints in its large box: '￥6,600-'. The one exception to '10,000円', as receipts are
 * written in Japan: the yen sign before and a hyphen after, so that nothing can be added to either end.
 */
export const formatReceiptYen = (amount: number): string => `￥${integer.format(amount)}-`;

/** A `YYYY-MM-DD` date as Japanese text: '2026年12月1日'. */
export const formatJapaneseDate = (isoDate: string): string => {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(isoDate);
  if (!match) return isoDate;
  const [, year, month, day] = match;
  return `${Number(year)}年${Number(month)}月${Number(day)}日`;
};
