import { describe, expect, it } from 'vitest';
import {
  formatClosesAt,
  formatDaysLeft,
  formatDeliveryMonth,
  formatDotDate,
  formatPercent,
  formatPeople,
  formatRemaining,
  formatReturnPrice,
  formatStock,
  formatTaxExcludedPrice,
  formatYen,
  lowestPrice,
  shareLinks,
} from './format';

describe('format', () => {
  it('formats yen and people in ja-JP', () => {
    expect(formatYen(1_234_000)).toBe('1,234,000円');
    expect(formatYen(0)).toBe('0円');
    expect(formatPeople(56)).toBe('56人');
    expect(formatPeople(1200)).toBe('1,200人');
  });

  it('formats percents with a fixed number of decimals', () => {
    expect(formatPercent(12.3, 1)).toBe('12.3%');
    expect(formatPercent(100, 1)).toBe('100.0%');
    expect(formatPercent(12.345, 2)).toBe('12.35%');
  });

  it('shows days left while open and 終了 once ended', () => {
    expect(formatDaysLeft(36, true)).toBe('残り36日');
    expect(formatDaysLeft(0, true)).toBe('終了');
    expect(formatDaysLeft(5, false)).toBe('終了');
  });

  it('shows a return price with its tax label and what remains', () => {
    // What the supporter pays is the main figure in every mode; a 税別-listed return adds its base price.
    expect(formatReturnPrice({ price: 3300, total: 3300, taxLabel: '税込' })).toBe('3,300円（税込）');
    expect(formatTaxExcludedPrice({ price: 3300, total: 3300, taxLabel: '税込' })).toBeNull();
    expect(formatReturnPrice({ price: 3000, total: 3300, taxLabel: '税別' })).toBe('3,300円（税込）');
    expect(formatTaxExcludedPrice({ price: 3000, total: 3300, taxLabel: '税別' })).toBe('税抜 3,000円');
    expect(formatReturnPrice({ price: 5000, total: 5000, taxLabel: '非課税' })).toBe('5,000円（非課税）');
    expect(formatTaxExcludedPrice({ price: 5000, total: 5000, taxLabel: '非課税' })).toBeNull();
    expect(formatRemaining(12)).toBe('残り12口');
    expect(formatRemaining(null)).toBe('数量制限なし');
  });

  it('formats dates as YYYY.MM.DD in Tokyo', () => {
    expect(formatDotDate('2026-11-20T10:00:00+09:00')).toBe('2026.11.20');
    expect(formatDotDate('2026-11-20T16:00:00Z')).toBe('2026.11.21');
    expect(formatDotDate('not a date')).toBe('');
  });

  it('shows stock as what is left of the limit', () => {
    expect(formatStock(12, 50)).toBe('残り12 / 限定50');
    expect(formatStock(0, 3)).toBe('残り0 / 限定3');
    expect(formatStock(null, null)).toBe('数量制限なし');
  });

  it('names the delivery month, and nothing when it is not announced', () => {
    expect(formatDeliveryMonth('2027-03')).toBe('2027年3月お届け予定');
    expect(formatDeliveryMonth(null)).toBeNull();
    expect(formatDeliveryMonth('3月')).toBeNull();
  });

  it('writes the closing minute in Tokyo time with the weekday, whatever the visitor\'s zone', () => {
    expect(formatClosesAt('2026-12-31T23:59:00+09:00')).toBe('2026年12月31日（木）23:59まで');
    expect(formatClosesAt('2027-01-03T23:59:00+09:00')).toBe('2027年1月3日（日）23:59まで');
    expect(formatClosesAt('soon')).toBe('');
  });

  it('finds the lowest price among the returns still open', () => {
    const r = (total: number, purchasable = true) => ({ total, purchasable });
    expect(lowestPrice([r(10_000), r(3_300), r(1_000, false)])).toBe(3_300);
    expect(lowestPrice([r(1_000, false)])).toBeNull();
    expect(lowestPrice([])).toBeNull();
  });

  it('builds share addresses that carry the page address encoded', () => {
    const links = shareLinks('https://cf.example.jp/projects/maebashi/', '前橋 & ばら');
    expect(links.line).toBe('https://social-plugins.line.me/lineit/share?url=https%3A%2F%2Fcf.example.jp%2Fprojects%2Fmaebashi%2F');
    expect(links.facebook).toBe('https://www.facebook.com/sharer/sharer.php?u=https%3A%2F%2Fcf.example.jp%2Fprojects%2Fmaebashi%2F');
    const x = new URL(links.x);
    expect(x.origin + x.pathname).toBe('https://x.com/intent/post');
    expect(x.searchParams.get('url')).toBe('https://cf.example.jp/projects/maebashi/');
    expect(x.searchParams.get('text')).toBe('前橋 & ばら');
  });
});
