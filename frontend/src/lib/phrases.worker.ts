/**
 * BudouX off the page's thread (see `phrases.ts`): the model is built once, when the first text arrives, and each
 * text is answered with its phrases, corrected by `refinePhrases`.
 */
import { loadDefaultJapaneseParser } from 'budoux';
import { refinePhrases, type PhrasesAnswer, type PhrasesRequest } from './phraseRules';

/** The worker's own scope: the project's TypeScript types the page's (DOM), not a worker's. */
const scope = self as unknown as {
  addEventListener(type: 'message', listener: (event: MessageEvent<PhrasesRequest>) => void): void;
  postMessage(answer: PhrasesAnswer): void;
};

let parser: ReturnType<typeof loadDefaultJapaneseParser> | null = null;

scope.addEventListener('message', (event) => {
  parser ??= loadDefaultJapaneseParser();
  const { id, text } = event.data;
  scope.postMessage({ id, phrases: refinePhrases(parser.parse(text)) });
});
