import type { Clause } from './types';

/** Clauses as numbered sections: '第1条（目的及び適用）'. */
export function ClauseList({ clauses, label = (n: number) => `第${n}条` }: { clauses: Clause[]; label?: (n: number) => string }) {
  return (
    <>
      {clauses.map((clause, index) => (
        <section key={clause.title} className="legal__clause" aria-labelledby={`clause-${label(index + 1)}`}>
          <h2 id={`clause-${label(index + 1)}`} className="legal__heading">
            {label(index + 1)}（{clause.title}）
          </h2>
          {clause.paragraphs.map((paragraph, i) => (
            <p key={i}>{paragraph}</p>
          ))}
          {clause.items && (
            <ol className="legal__items">
              {clause.items.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ol>
          )}
        </section>
      ))}
    </>
  );
}
