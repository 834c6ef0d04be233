import { loadDefaultJapaneseParser } from 'budoux';
import { describe, expect, it } from 'vitest';
import { refinePhrases } from './phraseRules';

const parser = loadDefaultJapaneseParser();
const phrasesOf = (text: string): string[] => refinePhrases(parser.parse(text));

describe('refinePhrases', () => {
  it('keeps a word whole that BudouX cuts between two hiragana, moving the break to the next content word', () => {
    expect(parser.parse('前橋ばら園 花壇よみがえりプロジェクト').some((phrase) => phrase.endsWith('よみが'))).toBe(true);
    expect(phrasesOf('前橋ばら園 花壇よみがえりプロジェクト')).toEqual(['前橋ばら園 花壇よみがえり', 'プロジェクト']);
  });

  it('keeps a reading in brackets whole', () => {
    expect(phrasesOf('桐生織 機場（はたば）再生プロジェクト')).toContain('（はたば）');
  });

  it('keeps the breaks after a particle that follows a content word', () => {
    expect(phrasesOf('まちの挑戦を、ひとりひとりの支援で形にします。')).toEqual([
      'まちの',
      '挑戦を、',
      'ひとりひとりの',
      '支援で',
      '形にします。',
    ]);
  });

  it('never breaks between two digits or letters', () => {
    expect(refinePhrases(['10,0', '00円'])).toEqual(['10,000円']);
    expect(refinePhrases(['R0HZE', 'PBO'])).toEqual(['R0HZEPBO']);
  });
});
