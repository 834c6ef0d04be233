import { describe, expect, it } from 'vitest';
import { formatJapaneseDate, formatReceiptYen, formatTaxedPrice, formatYen } from './format';

describe('the shared formatter', () => {
  it('writes every amount as digits with thousands separators and 円', () => {
    expect(formatYen(10_000)).toBe('10,000円');
    expect(formatYen(1_234_000)).toBe('1,234,000円');
    expect(formatYen(0)).toBe('0円');
    expect(formatYen(999)).toBe('999円');
    expect(formatYen(10_000)).not.toContain('￥');
  });

  it('labels a price with its tax, a donation as 非課税', () => {
    expect(formatTaxedPrice({ total: 3300, taxLabel: '税込' })).toBe('3,300円（税込）');
    expect(formatTaxedPrice({ total: 3300, taxLabel: '税別' })).toBe('3,300円（税込）');
    expect(formatTaxedPrice({ total: 5000, taxLabel: '非課税' })).toBe('5,000円（非課税）');
  });

  it('writes the amount of a receipt the way receipts are written, closed at both ends', () => {
    expect(formatReceiptYen(6600)).toBe('￥6,600-');
    expect(formatReceiptYen(1_234_567)).toBe('￥1,234,567-');
    expect(formatReceiptYen(0)).toBe('￥0-');
  });

  it('writes a date in Japanese and leaves anything else as it came', () => {
    expect(formatJapaneseDate('2026-12-01')).toBe('2026年12月1日');
    expect(formatJapaneseDate('unknown')).toBe('unknown');
  });
});
