import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { LoadError } from '@/components/form/LoadError';
import { Notice } from '@/components/form/Notice';
import { PageLoading } from '@/components/PageLoading';
import { Phrase } from '@/components/Phrase';
import { paths } from '@/config/paths';
import { getErrorMessage } from '@/lib/apiError';
import { useExportPayoutsMutation, usePayoutsQuery, type Statement } from './api/payoutsApi';
import { formatDay, formatYen } from './format';
import { PAYOUT_MESSAGES } from './payouts/messages';
import { StatusBadge } from './payouts/StatusBadge';
import './payouts/payouts.css';

/**
 * The fee of a statement: the terms' 20 % (collected by the site) or the per-payment application fees (a connected
 * account); a statement has one or the other, never both.
 */
const feeOf = (statement: Statement): number => statement.figures.platformFee + statement.figures.applicationFees;

function PayoutRow({ statement, showOwed }: { statement: Statement; showOwed: boolean }) {
  const { figures } = statement;
  return (
    <tr>
      <th scope="row" className="payouts-table__title">
        <Link to={paths.adminPayoutStatement.getHref(statement.projectId)}>
          <Phrase text={statement.title} />
        </Link>
      </th>
      <td className="admin-time">{formatDay(statement.periodEnd)}</td>
      <td className="admin-time">{formatDay(statement.payoutDate)}</td>
      <td className="admin-num">{formatYen(figures.confirmed)}</td>
      <td className="admin-num">{formatYen(feeOf(statement))}</td>
      <td className="admin-num">{formatYen(figures.payout)}</td>
      {showOwed && (
        <td className="admin-num">
          {figures.owedByOwner > 0 ? (
            <strong className="payouts-owed">{formatYen(figures.owedByOwner)}</strong>
          ) : (
            <>
              <span aria-hidden="true">—</span>
              <span className="visually-hidden">なし</span>
            </>
          )}
        </td>
      )}
      <td>
        <StatusBadge statement={statement} />
      </td>
    </tr>
  );
}

/** `/admin/payouts/`: every successful project's current statement, each linking to it, and the CSV export. */
export function AdminPayouts() {
  const titleId = useId();
  const { data, isLoading, isFetching, isError, error, refetch } = usePayoutsQuery();
  const [exportCsv, exporting] = useExportPayoutsMutation();
  const [exportError, setExportError] = useState<string | null>(null);

  const download = async () => {
    setExportError(null);
    try {
      await exportCsv().unwrap();
    } catch (failure) {
      setExportError(getErrorMessage(failure));
    }
  };

  // 返還請求額 is a column only when some owner owes something back.
  const showOwed = (data ?? []).some((statement) => statement.figures.owedByOwner > 0);

  return (
    <section className="page page--admin payouts-page" aria-labelledby={titleId}>
      <p className="payouts-page__back">
        <Link to={paths.admin.getHref()}>管理画面へ</Link>
      </p>
      <h1 id={titleId} className="page__title">
        精算
      </h1>
      <p className="admin-note">{PAYOUT_MESSAGES.intro}</p>
      <div className="payouts-page__bar">
        <button
          type="button"
          className="button"
          onClick={() => void download()}
          disabled={exporting.isLoading}
          aria-describedby={exporting.isLoading ? `${titleId}-exporting` : undefined}
        >
          {PAYOUT_MESSAGES.download}
        </button>
        {exporting.isLoading && (
          <span id={`${titleId}-exporting`} className="admin-note" role="status">
            {PAYOUT_MESSAGES.downloading}
          </span>
        )}
      </div>
      {exportError && (
        <Notice tone="error">
          <p>{exportError}</p>
        </Notice>
      )}
      {isLoading && <PageLoading />}
      {isError && <LoadError message={getErrorMessage(error)} onRetry={() => void refetch()} />}
      {data && data.length === 0 && <p className="admin-empty">{PAYOUT_MESSAGES.empty}</p>}
      {data && data.length > 0 && (
        <div
          className="admin-scroll payouts-table__scroll"
          tabIndex={0}
          role="region"
          aria-label="精算の一覧（横にスクロールできます）"
          aria-busy={isFetching || undefined}
        >
          <table className="admin-table payouts-table">
            <caption className="visually-hidden">精算の一覧・{data.length}件</caption>
            <thead>
              <tr>
                <th scope="col">プロジェクト</th>
                <th scope="col">募集終了日</th>
                <th scope="col">支払予定日</th>
                <th scope="col" className="admin-num">確定金額</th>
                <th scope="col" className="admin-num">手数料</th>
                <th scope="col" className="admin-num">今回支払額</th>
                {showOwed && (
                  <th scope="col" className="admin-num">
                    返還請求額
                  </th>
                )}
                <th scope="col">状態</th>
              </tr>
            </thead>
            <tbody>
              {data.map((statement) => (
                <PayoutRow key={statement.projectId} statement={statement} showOwed={showOwed} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
