/**
 * The corrections applied to BudouX's phrases (`refinePhrases`), and the messages between a page and the phrases
 * worker: pure code, shared by `phrases.ts` and `phrases.worker.ts`.
 */

/** A page's question to the phrases worker, and its answer. */
export interface PhrasesRequest {
  id: number;
  text: string;
}
export interface PhrasesAnswer {
  id: number;
  phrases: string[];
}

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
