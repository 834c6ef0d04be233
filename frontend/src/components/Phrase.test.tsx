import { render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Phrase } from './Phrase';

/** The pieces between the break opportunities of a rendered phrase. */
const piecesOf = (container: HTMLElement): string[] =>
  container.querySelector('.phrase--split')!.innerHTML.split('<wbr>');

describe('Phrase', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('splits at phrases with BudouX, never inside a word', async () => {
    vi.stubGlobal('CSS', { supports: () => false });
    const text = 'まちの挑戦を、ひとりひとりの支援で形にします。';
    const { container } = render(<Phrase text={text} />);

    await waitFor(() => expect(container.querySelector('.phrase--split')).not.toBeNull());
    const split = container.querySelector('.phrase--split')!;
    expect(split).toHaveTextContent(text);
    expect(split.querySelectorAll('wbr').length).toBeGreaterThan(1);
    const pieces = piecesOf(container);
    expect(pieces).toContain('形にします。');
    expect(pieces.some((piece) => piece.endsWith('形にしま'))).toBe(false);
  });

  it('splits also where the browser has word-break: auto-phrase, whose model cuts 花壇よみがえり', async () => {
    vi.stubGlobal('CSS', { supports: (property: string, value: string) => property === 'word-break' && value === 'auto-phrase' });
    const text = '前橋ばら園 花壇よみがえりプロジェクト';
    const { container } = render(<Phrase text={text} />);

    await waitFor(() => expect(container.querySelector('.phrase--split')).not.toBeNull());
    expect(container.querySelector('.phrase')).toHaveTextContent(text);
    const pieces = piecesOf(container);
    expect(pieces.some((piece) => piece.includes('よみがえり'))).toBe(true);
  });
});
