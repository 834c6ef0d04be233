/**
 * Japanese line breaking at phrase boundaries ('形にします。' stays whole). BudouX proposes the phrases; its model
 * sometimes cuts a word it does not know ('花壇よみが|えり', '（は|たば）'), and Chromium's `word-break: auto-phrase`
 * uses the same model, so every browser gets BudouX's phrases corrected by `refinePhrases`. The parser is loaded on
 * demand, in its own chunk, so it never weighs on the first download.
 */

type Segmenter = (text: string) => string[];

let loading: Promise<Segmenter> | null = null;

/** Whether the browser breaks Japanese text at phrases by itself. */
export const supportsAutoPhrase = (): boolean =>
  typeof CSS !== 'undefined' && typeof CSS.supports === 'function' && CSS.supports('word-break', 'auto-phrase');

const HIRAGANA = /[\u3041-\u309f]/;
const KANJI_OR_KATAKANA = /[\u3400-\u9fff\uf900-\ufaff\u30a0-\u30ff\u31f0-\u31ff々〆ヵヶ]/;
const DIGIT_OR_LATIN = /[0-9A-Za-z０-９Ａ-Ｚａ-ｚ]/;
/** Characters a line never starts with (closing brackets, small punctuation). */
const NO_LINE_START = /[)）\]］}｝〕〉》」』】、。，．,.!！?？・:：;；ー]/;

const isHiragana = (char: string | undefined): boolean => char !== undefined && HIRAGANA.test(char);

/**
 * Whether a break between `left` and `right` (two BudouX phrases) falls inside a word. A break between two
 * hiragana is kept only after a particle that directly follows a content word ('道を|あるく', '私は|ここに');
 * otherwise it cuts a word ('よみが|えり', '（は|たば）'). Never before a digit run either ('3|,000').
 */
const cutsWord = (left: string, right: string): boolean => {
  const last = left.at(-1);
  const first = right[0];
  if (last !== undefined && first !== undefined && DIGIT_OR_LATIN.test(last) && DIGIT_OR_LATIN.test(first)) return true;
  if (!isHiragana(last) || !isHiragana(first)) return false;
  const beforeLast = left.at(-2);
  return beforeLast === undefined || !KANJI_OR_KATAKANA.test(beforeLast);
};

/**
 * BudouX's phrases with its cuts inside words undone. Where two phrases are glued back, the break moves to the
 * first content word of the second one, when there is one ('花壇よみが|えりプロジェクト' -> '花壇よみがえり|
 * プロジェクト').
 */
export const refinePhrases = (phrases: readonly string[]): string[] => {
  const glued: string[] = [];
  for (const phrase of phrases) {
    const previous = glued.at(-1);
    if (previous === undefined || !cutsWord(previous, phrase)) {
      glued.push(phrase);
      continue;
    }
    const chars = [...phrase];
    const move = chars.findIndex((char) => !isHiragana(char));
    const canMove = move > 0 && KANJI_OR_KATAKANA.test(chars[move]!) && !NO_LINE_START.test(chars[move]!);
    if (canMove) {
      glued[glued.length - 1] = previous + chars.slice(0, move).join('');
      glued.push(chars.slice(move).join(''));
    } else {
      glued[glued.length - 1] = previous + phrase;
    }
  }
  return glued.filter((phrase) => phrase !== '');
};

/** The BudouX segmenter with `refinePhrases`, loaded once. */
export const loadSegmenter = (): Promise<Segmenter> => {
  loading ??= import(/* webpackChunkName: "budoux" */ 'budoux').then(({ loadDefaultJapaneseParser }) => {
    const parser = loadDefaultJapaneseParser();
    return (text: string) => refinePhrases(parser.parse(text));
  });
  return loading;
};
