/**
 * Japanese line breaking at phrase boundaries ('形にします。' stays whole). Browsers that know
 * `word-break: auto-phrase` (Chromium 119+, also Debian's) do it themselves from the CSS; for the others
 * the BudouX parser is loaded on demand, in its own chunk, so it never weighs on the first download.
 */

type Segmenter = (text: string) => string[];

let loading: Promise<Segmenter> | null = null;

/** Whether the browser breaks Japanese text at phrases by itself. */
export const supportsAutoPhrase = (): boolean =>
  typeof CSS !== 'undefined' && typeof CSS.supports === 'function' && CSS.supports('word-break', 'auto-phrase');

/** The BudouX segmenter, loaded once. */
export const loadSegmenter = (): Promise<Segmenter> => {
  loading ??= import(/* webpackChunkName: "budoux" */ 'budoux').then(({ loadDefaultJapaneseParser }) => {
    const parser = loadDefaultJapaneseParser();
    return (text: string) => parser.parse(text);
  });
  return loading;
};
