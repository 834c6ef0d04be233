import { useId, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { LoadError } from '@/components/form/LoadError';
import { Notice } from '@/components/form/Notice';
import { NotFound } from '@/components/NotFound';
import { PageLoading } from '@/components/PageLoading';
import { Phrase } from '@/components/Phrase';
import { paths } from '@/config/paths';
import { getApiErrorBody, getErrorMessage } from '@/lib/apiError';
import { useStatementQuery, type Statement } from './api/payoutsApi';
import { formatDay } from './format';
import { FiguresTable } from './payouts/FiguresTable';
import { MarkPaidForm, type MarkOutcome } from './payouts/MarkPaidForm';
import { PAYOUT_MESSAGES } from './payouts/messages';
import { PaidHistory } from './payouts/PaidHistory';
import { StatusBadge } from './payouts/StatusBadge';
import './payouts/payouts.css';

/** A project id of the address: a positive whole number, or null. */
const parseProjectId = (raw: string): number | null => (/^[1-9][0-9]{0,15}$/.test(raw) ? Number(raw) : null);

function BackLink() {
  return (
    <p className="payouts-page__back">
      <Link to={paths.adminPayouts.getHref()}>精算の一覧へ</Link>
    </p>
  );
}

function StatementSheet({ statement, titleId }: { statement: Statement; titleId: string }) {
  return (
    <article className="statement">
      <header className="statement__head">
        <h1 id={titleId} className="page__title statement__title">
          精算書
        </h1>
        <div className="statement__tools">
          <button type="button" className="button" onClick={() => window.print()}>
            印刷する
          </button>
        </div>
      </header>
      <dl className="statement__meta">
        <div className="statement__meta-item statement__meta-item--wide">
          <dt>プロジェクト</dt>
          <dd className="statement__project">
            <Phrase text={statement.title} />
          </dd>
        </div>
        <div className="statement__meta-item">
          <dt>募集終了日</dt>
          <dd>{formatDay(statement.periodEnd)}</dd>
        </div>
        <div className="statement__meta-item">
          <dt>支払予定日</dt>
          <dd>
            <span className="nowrap">{formatDay(statement.payoutDate)}</span>
            <span className="statement__note">（{PAYOUT_MESSAGES.payoutDateNote}）</span>
          </dd>
        </div>
        {statement.status === 'due' && (
          <div className="statement__meta-item">
            <dt>精算回</dt>
            <dd>第{statement.seq}回</dd>
          </div>
        )}
        <div className="statement__meta-item">
          <dt>状態</dt>
          <dd>
            <StatusBadge statement={statement} />
          </dd>
        </div>
      </dl>
      <FiguresTable statement={statement} />
      <PaidHistory paid={statement.paid} />
    </article>
  );
}

function StatementPage({ projectId }: { projectId: number }) {
  const titleId = useId();
  const { data, isLoading, isError, error, refetch } = useStatementQuery(projectId);
  const [outcome, setOutcome] = useState<MarkOutcome | null>(null);

  if (isLoading) return <PageLoading />;
  if (isError || !data) {
    const body = getApiErrorBody(error);
    return (
      <section className="page page--admin statement-page" aria-labelledby={titleId}>
        <BackLink />
        <h1 id={titleId} className="page__title">
          精算書
        </h1>
        {body?.error === 'no_statement' ? (
          <Notice tone="info">
            <p>{body.message}</p>
          </Notice>
        ) : (
          <LoadError message={getErrorMessage(error)} onRetry={() => void refetch()} />
        )}
      </section>
    );
  }

  return (
    <section className="page page--admin statement-page" aria-labelledby={titleId}>
      <BackLink />
      <StatementSheet statement={data} titleId={titleId} />
      <div className="statement-page__outcome">
        {outcome && (
          <Notice tone={outcome.tone}>
            <p>{outcome.text}</p>
          </Notice>
        )}
      </div>
      {data.status === 'due' ? (
        <MarkPaidForm key={`${data.projectId}-${data.seq}`} statement={data} onOutcome={setOutcome} />
      ) : (
        <p className="statement-page__settled">
          <strong>{data.statusLabel}</strong>：{PAYOUT_MESSAGES.settled}
        </p>
      )}
    </section>
  );
}

/** `/admin/payouts/:id/`: one successful project's printable statement (精算書), its history and 支払済みにする. */
export function AdminPayoutStatement() {
  const { id = '' } = useParams();
  const projectId = parseProjectId(id);
  if (projectId === null) return <NotFound />;
  return <StatementPage projectId={projectId} />;
}
