import { useId } from 'react';
import { formatDay, formatYen } from '../format';
import { PAYOUT_MESSAGES } from './messages';
import type { PaidStatement } from './types';

/** The statements already marked paid (第N回), oldest first as the server lists them. */
export function PaidHistory({ paid }: { paid: PaidStatement[] }) {
  const titleId = useId();
  const showOwed = paid.some((statement) => statement.figures.owedByOwner > 0);
  return (
    <section className="statement-history" aria-labelledby={titleId}>
      <h2 id={titleId} className="statement__subtitle">
        支払済みの精算
      </h2>
      {paid.length === 0 ? (
        <p className="admin-empty">{PAYOUT_MESSAGES.noHistory}</p>
      ) : (
        <div className="admin-scroll" tabIndex={0} role="region" aria-label="支払済みの精算（横にスクロールできます）">
          <table className="admin-table statement-history__table">
            <thead>
              <tr>
                <th scope="col">精算回</th>
                <th scope="col">支払日</th>
                <th scope="col">控え</th>
                <th scope="col" className="admin-num">
                  お支払額
                </th>
                {showOwed && (
                  <th scope="col" className="admin-num">
                    返還請求額
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {paid.map((statement) => (
                <tr key={statement.seq}>
                  <th scope="row">第{statement.seq}回</th>
                  <td className="admin-time">{formatDay(statement.paidOn)}</td>
                  <td className="statement-history__reference">{statement.reference}</td>
                  <td className="admin-num">{formatYen(statement.figures.payout)}</td>
                  {showOwed && <td className="admin-num">{formatYen(statement.figures.owedByOwner)}</td>}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
