const integer = new Intl.NumberFormat('ja-JP');

/** '6,600円' */
export const formatYen = (amount: number): string => `${integer.format(amount)}円`;

/** The price of one lot as the return card shows it: tax included, or 非課税 for a donation. */
export const formatLotPrice = (ret: { total: number; taxLabel: string }): string =>
  `${formatYen(ret.total)}（${ret.taxLabel === '非課税' ? '非課税' : '税込'}）`;

/** A `YYYY-MM-DD` date as Japanese text: '2026年12月1日'. */
export const formatJapaneseDate = (isoDate: string): string => {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(isoDate);
  if (!match) return isoDate;
  const [, year, month, day] = match;
  return `${Number(year)}年${Number(month)}月${Number(day)}日`;
};
