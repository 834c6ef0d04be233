import { Fragment, useEffect, useState } from 'react';
import { loadSegmenter, supportsAutoPhrase } from '@/lib/phrases';

/**
 * Japanese text that wraps between phrases, never inside a word. Where the browser supports
 * `word-break: auto-phrase` (styles: `.phrase`) the text is rendered as is; elsewhere it is split with
 * BudouX and a `<wbr>` between phrases, with `word-break: keep-all` so that only those break.
 */
export function Phrase({ text }: { text: string }) {
  const [phrases, setPhrases] = useState<string[] | null>(null);

  useEffect(() => {
    if (supportsAutoPhrase()) return undefined;
    let live = true;
    loadSegmenter()
      .then((segment) => {
        if (live) setPhrases(segment(text));
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
