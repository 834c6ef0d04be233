import { render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Phrase } from './Phrase';

describe('Phrase', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('leaves the breaking to the browser where word-break: auto-phrase is supported', () => {
    vi.stubGlobal('CSS', { supports: (property: string, value: string) => property === 'word-break' && value === 'auto-phrase' });
    const { container } = render(<Phrase text="まちの挑戦を、ひとりひとりの支援で形にします。" />);

    expect(container.querySelector('.phrase')).toHaveTextContent('まちの挑戦を、ひとりひとりの支援で形にします。');
    expect(container.querySelector('wbr')).toBeNull();
  });

  it('elsewhere splits at phrases with BudouX, never inside a word', async () => {
    vi.stubGlobal('CSS', { supports: () => false });
    const text = 'まちの挑戦を、ひとりひとりの支援で形にします。';
    const { container } = render(<Phrase text={text} />);

    await waitFor(() => expect(container.querySelector('.phrase--split')).not.toBeNull());
    const split = container.querySelector('.phrase--split')!;
    expect(split).toHaveTextContent(text);
    expect(split.querySelectorAll('wbr').length).toBeGreaterThan(1);
    // The pieces between the break opportunities: no word is cut.
    const pieces = split.innerHTML.split('<wbr>');
    expect(pieces).toContain('形にします。');
    expect(pieces.some((piece) => piece.endsWith('形にしま'))).toBe(false);
  });
});
