import { describe, expect, it } from 'vitest';
import { currentImageUrl } from './images';

describe('currentImageUrl', () => {
  it('is the newest upload, which the server lists first', () => {
    expect(
      currentImageUrl([
        { id: 12, url: 'https://cdn.example.jp/second.png' },
        { id: 11, url: 'https://cdn.example.jp/first.png' },
      ]),
    ).toBe('https://cdn.example.jp/second.png');
  });

  it('is null when nothing was uploaded', () => {
    expect(currentImageUrl([])).toBeNull();
  });
});
