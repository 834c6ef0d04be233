import { Link } from 'react-router-dom';
import { LoadError } from '@/components/form/LoadError';
import { PageLoading } from '@/components/PageLoading';
import { Phrase } from '@/components/Phrase';
import { paths } from '@/config/paths';
import { getErrorMessage } from '@/lib/apiError';
import { useRefundProjectsQuery } from './api/refundsApi';
import './refund.css';

/** `/admin/refund/`: every project, each linking to its refund table (spec 001 §2). */
export function AdminRefund() {
  const { data: projects, isLoading, error, refetch } = useRefundProjectsQuery();
  return (
    <section className="page page--admin refund" aria-labelledby="refund-title">
      <p className="refund__back">
        <Link to={paths.admin.getHref()}>管理画面トップへ</Link>
      </p>
      <h1 id="refund-title" className="page__title">
        返金
      </h1>
      <p>返金するプロジェクトを選んでください。</p>
      {isLoading && <PageLoading />}
      {error && <LoadError message={getErrorMessage(error)} onRetry={() => void refetch()} />}
      {projects && projects.length === 0 && <p>プロジェクトがありません。</p>}
      {projects && projects.length > 0 && (
        <ul className="refund-projects">
          {projects.map((project) => (
            <li key={project.id} className="refund-projects__item">
              <Link to={paths.adminRefundDetail.getHref(project.slug)} className="refund-projects__link">
                <Phrase text={project.title} />
              </Link>
              <span className="refund-projects__counts">
                <span className="nowrap">返金可能 {project.refundable}件</span>・<span className="nowrap">返金済み {project.refunded}件</span>
                {project.refundRequired > 0 && (
                  <strong className="refund-badge">要返金の入金 {project.refundRequired}件</strong>
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
