/** Sale dates as the specs show dates: YYYY.MM.DD, in Japan time. */
export const formatDate = (iso: string): string => {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const parts = new Intl.DateTimeFormat('ja-JP', {
    timeZone: 'Asia/Tokyo',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}.${part('month')}.${part('day')}`;
};

const yenFormat = new Intl.NumberFormat('ja-JP', { style: 'currency', currency: 'JPY' });

/** Yen in the ja-JP format: ￥12,345. */
export const formatYen = (amount: number): string => yenFormat.format(amount);

/** A `YYYY-MM-DD` date as Japanese text: '2026年12月1日'. */
export const formatJapaneseDate = (isoDate: string): string => {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(isoDate);
  if (!match) return isoDate;
  const [, year, month, day] = match;
  return `${Number(year)}年${Number(month)}月${Number(day)}日`;
};
