import { Fragment, useEffect, useState } from 'react';
import { loadSegmenter } from '@/lib/phrases';

/**
 * Japanese text that wraps between phrases, never inside a word. Until the segmenter has loaded (and in the
 * server-rendered first screen) the text is rendered as is, styled `word-break: auto-phrase` (`.phrase`); then it
 * is split with BudouX, corrected where its model cuts a word (`refinePhrases`), with a `<wbr>` between phrases
 * and `word-break: keep-all` so that only those break. Chromium's own auto-phrase uses the same model without the
 * correction ('花壇よみが|えり'), so the split replaces it there too.
 */
export function Phrase({ text }: { text: string }) {
  const [phrases, setPhrases] = useState<string[] | null>(null);

  useEffect(() => {
    let live = true;
    loadSegmenter()
      .then((segment) => segment(text))
      .then((split) => {
        if (live) setPhrases(split);
      })
      .catch(() => {
        // Without the parser the text still wraps, only less neatly.
      });
    return () => {
      live = false;
    };
  }, [text]);

  if (!phrases) return <span className="phrase">{text}</span>;
  return (
    <span className="phrase phrase--split">
      {phrases.map((phrase, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {phrase}
        </Fragment>
      ))}
    </span>
  );
}
