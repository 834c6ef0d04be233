/**
 * Japanese line breaking at phrase boundaries ('形にします。' stays whole). BudouX proposes the phrases; its model
 * sometimes cuts a word it does not know ('花壇よみが|えり', '（は|たば）'), and Chromium's `word-break: auto-phrase`
 * uses the same model, so every browser gets BudouX's phrases corrected by `refinePhrases`. The parser runs in a
 * worker of its own (`phrases.worker.ts`): building its model took one task of 90 to 170 ms on a throttled phone,
 * the largest after the first paint, and it never weighs on the first download. Where workers are missing (tests,
 * very old browsers) it is loaded on demand on the page's own thread.
 */

import { refinePhrases, type PhrasesAnswer, type PhrasesRequest } from './phraseRules';

type Segmenter = (text: string) => Promise<string[]>;

let loading: Promise<Segmenter> | null = null;

/** Whether the browser breaks Japanese text at phrases by itself. */
export const supportsAutoPhrase = (): boolean =>
  typeof CSS !== 'undefined' && typeof CSS.supports === 'function' && CSS.supports('word-break', 'auto-phrase');

interface Waiting {
  resolve: (phrases: string[]) => void;
  reject: (error: Error) => void;
}

/**
 * Phrases of `text` from a worker: each request carries its id, each answer the same id. A worker that fails
 * (its script refused or broken) fails every waiting text, which then stays as it is.
 */
export const workerSegmenter = (worker: Worker): Segmenter => {
  const waiting = new Map<number, Waiting>();
  let next = 0;
  let failed: Error | null = null;
  worker.addEventListener('message', (event: MessageEvent<PhrasesAnswer>) => {
    waiting.get(event.data.id)?.resolve(event.data.phrases);
    waiting.delete(event.data.id);
  });
  worker.addEventListener('error', () => {
    failed = new Error('the phrases worker failed');
    for (const { reject } of waiting.values()) reject(failed);
    waiting.clear();
  });
  return (text) =>
    new Promise((resolve, reject) => {
      if (failed) return reject(failed);
      next += 1;
      waiting.set(next, { resolve, reject });
      worker.postMessage({ id: next, text } satisfies PhrasesRequest);
    });
};

/** The BudouX segmenter with `refinePhrases`, started once: in a worker where the browser has them. */
export const loadSegmenter = (): Promise<Segmenter> => {
  loading ??=
    typeof Worker === 'undefined'
      ? import(/* webpackChunkName: "budoux" */ 'budoux').then(({ loadDefaultJapaneseParser }) => {
          const parser = loadDefaultJapaneseParser();
          return async (text: string) => refinePhrases(parser.parse(text));
        })
      : Promise.resolve(
          workerSegmenter(new Worker(new URL('./phrases.worker.ts', import.meta.url), { name: 'phrases' })),
        );
  return loading;
};
