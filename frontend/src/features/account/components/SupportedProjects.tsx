import { Link } from 'react-router-dom';
import { LoadError } from '@/components/form/LoadError';
import { PageLoading } from '@/components/PageLoading';
import { paths } from '@/config/paths';
import { getErrorMessage } from '@/lib/apiError';
import { formatYen } from '@/lib/format';
import { useSupportedProjectsQuery, type SupportedProject } from '../api/accountApi';

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
        <ul className="my-projects__returns" aria-label="支援したリターン">
          {project.returns.map((ret) => (
            <li key={ret.title}>
              {ret.title} × {ret.lots}口
            </li>
          ))}
        </ul>
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

/** My page's 支援したプロジェクト: one line per project the member has paid for, the latest support first. */
export function SupportedProjects() {
  const { data, isLoading, error, refetch } = useSupportedProjectsQuery();
  return (
    <section className="my-projects" aria-labelledby="supported-title">
      <h2 id="supported-title" className="account-page__subtitle">
        支援したプロジェクト
      </h2>
      {isLoading ? (
        <PageLoading />
      ) : !data ? (
        <LoadError message={getErrorMessage(error)} onRetry={() => void refetch()} />
      ) : data.length === 0 ? (
        <p className="empty">まだ支援したプロジェクトはありません。</p>
      ) : (
        <ul className="my-projects__list">
          {data.map((project) => (
            <Line key={project.slug} project={project} />
          ))}
        </ul>
      )}
    </section>
  );
}
