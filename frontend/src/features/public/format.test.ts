import { describe, expect, it } from 'vitest';
import { formatDaysLeft, formatDotDate, formatPercent, formatPeople, formatRemaining, formatReturnPrice, formatTaxExcludedPrice, formatYen } from './format';

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
});
