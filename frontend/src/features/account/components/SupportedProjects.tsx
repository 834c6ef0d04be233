import { useState } from 'react';
import { Link } from 'react-router-dom';
import { LoadError } from '@/components/form/LoadError';
import { PageLoading } from '@/components/PageLoading';
import { paths } from '@/config/paths';
import { getErrorMessage } from '@/lib/apiError';
import { formatJapaneseDate, formatYen } from '@/lib/format';
import { useSupportedProjectsQuery, type SupportedProject } from '../api/accountApi';

type HeldReturn = SupportedProject['returns'][number];
type HeldLots = HeldReturn['deliveries'][number];

/** 未発送, or 発送済み（2026年11月20日 発送）. */
function DeliveryState({ held }: { held: HeldLots }) {
  return (
    <>
      <span className={`delivery-badge delivery-badge--${held.state}`}>{held.label}</span>
      {held.shippedOn && (
        <span>
          {'（'}
          <time dateTime={held.shippedOn}>{formatJapaneseDate(held.shippedOn)}</time>
          {' 発送）'}
        </span>
      )}
    </>
  );
}

/** A held return with where its lots stand; the lots of each state are named only when they differ. */
function Return({ held }: { held: HeldReturn }) {
  const [only] = held.deliveries;
  return (
    <li className="my-projects__return">
      <span>
        {held.title} × {held.lots}口
      </span>
      {held.deliveries.length === 1 && only ? (
        <span className="my-projects__delivery">
          <DeliveryState held={only} />
        </span>
      ) : (
        <ul className="my-projects__deliveries" aria-label={`${held.title}の発送状況`}>
          {held.deliveries.map((part) => (
            <li key={part.shippedOn ?? 'unshipped'} className="my-projects__delivery">
              <DeliveryState held={part} />
              <span>{` ${part.lots}口`}</span>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

function LatestNews({ project }: { project: SupportedProject }) {
  const news = project.latestNews;
  return (
    <p className="my-projects__news">
      <span className="my-projects__label">最新の活動報告</span>
      {news && project.projectId !== null ? (
        <>
          <Link to={`${paths.project.getHref(project.slug)}#news`}>{news.title}</Link>
          <time dateTime={news.publishedAt}>{formatJapaneseDate(news.publishedAt)}</time>
        </>
      ) : (
        <span>お読みいただける活動報告はまだありません。</span>
      )}
    </p>
  );
}

function Line({ project }: { project: SupportedProject }) {
  const titleId = `supported-${project.slug}-title`;
  return (
    <li className="my-projects__item">
      <article aria-labelledby={titleId}>
        <h3 id={titleId} className="my-projects__title">
          {project.projectId !== null ? (
            <Link to={paths.project.getHref(project.slug)}>{project.title}</Link>
          ) : (
            project.title
          )}
        </h3>
        <p className="my-projects__meta">
          {project.state && project.stateLabel && (
            <span className={`state-badge state-badge--${project.state}`}>{project.stateLabel}</span>
          )}
          <span>ご支援 {formatYen(project.paid)}</span>
          {project.refunded > 0 && <span>返金 {formatYen(project.refunded)}</span>}
        </p>
        {project.returns.length > 0 && (
          <ul className="my-projects__returns" aria-label="支援したリターン">
            {project.returns.map((held) => (
              <Return key={held.title} held={held} />
            ))}
          </ul>
        )}
        <LatestNews project={project} />
        <p className="my-projects__links">
          <Link to={paths.editPaymentList.getHref()}>お支払い履歴</Link>
          {project.saleIds.map((saleId, index) => (
            <Link key={saleId} to={paths.accountReceipt.getHref(saleId)}>
              {project.saleIds.length > 1 ? `領収書 ${index + 1}` : '領収書'}
            </Link>
          ))}
        </p>
      </article>
    </li>
  );
}

/** The lines of one later page, added under the first by もっと見る. */
function LaterPage({ page }: { page: number }) {
  const { data, isLoading, error, refetch } = useSupportedProjectsQuery(page);
  if (isLoading) {
    return (
      <li>
        <PageLoading />
      </li>
    );
  }
  if (!data) {
    return (
      <li>
        <LoadError message={getErrorMessage(error)} onRetry={() => void refetch()} />
      </li>
    );
  }
  return (
    <>
      {data.projects.map((project) => (
        <Line key={project.slug} project={project} />
      ))}
    </>
  );
}

/**
 * My page's 支援したプロジェクト: one line per project the member has paid for, the latest support first, with the
 * returns held and where they stand, the newest news the member may read, and the payment history and receipts.
 * Twenty a page; もっと見る adds the next page below.
 */
export function SupportedProjects() {
  const [pages, setPages] = useState(1);
  const { data, isLoading, error, refetch } = useSupportedProjectsQuery(1);
  const shown = data ? Math.min(data.total, pages * data.perPage) : 0;
  return (
    <section className="my-projects" aria-labelledby="supported-title">
      <h2 id="supported-title" className="account-page__subtitle">
        支援したプロジェクト
      </h2>
      {isLoading ? (
        <PageLoading />
      ) : !data ? (
        <LoadError message={getErrorMessage(error)} onRetry={() => void refetch()} />
      ) : data.projects.length === 0 ? (
        <p className="empty">まだ支援したプロジェクトはありません。</p>
      ) : (
        <>
          <ul className="my-projects__list">
            {data.projects.map((project) => (
              <Line key={project.slug} project={project} />
            ))}
            {Array.from({ length: pages - 1 }, (_, index) => (
              <LaterPage key={index + 2} page={index + 2} />
            ))}
          </ul>
          {shown < data.total && (
            <p className="my-projects__more">
              <button type="button" className="button" onClick={() => setPages((n) => n + 1)}>
                {`もっと見る（${data.total - shown}件）`}
              </button>
            </p>
          )}
        </>
      )}
    </section>
  );
}
