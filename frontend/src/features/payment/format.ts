import { formatTaxedPrice } from '@/lib/format';

// Amounts and Japanese dates come from the shared formatter (one format on every screen).
export { formatJapaneseDate, formatYen } from '@/lib/format';

/** The price of one lot as the return card shows it: tax included, or 非課税 for a donation. */
export const formatLotPrice = (ret: { total: number; taxLabel: string }): string => formatTaxedPrice(ret);
