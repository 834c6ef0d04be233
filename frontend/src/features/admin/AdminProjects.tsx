import { useId } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { LoadError } from '@/components/form/LoadError';
import { PageLoading } from '@/components/PageLoading';
import { Phrase } from '@/components/Phrase';
import { paths } from '@/config/paths';
import { getErrorMessage } from '@/lib/apiError';
import { useAdminProjectsQuery, type AdminProjectSummary } from './api/projectsApi';
import { formatCount, formatDay, formatInstant, formatYen } from './format';
import { PROJECT_MESSAGES, PROJECT_STATES, parseStateFilter, stateLabel } from './projects/rules';
import './admin-projects.css';

/** A cell with nothing to say: a dash to the eye, words to a screen reader. */
function Nothing({ label }: { label: string }) {
  return (
    <>
      <span aria-hidden="true">—</span>
      <span className="visually-hidden">{label}</span>
    </>
  );
}

function ProjectRow({ project }: { project: AdminProjectSummary }) {
  return (
    <tr>
      <th scope="row" className="admin-projects-table__title">
        <Link to={paths.adminProjectEdit.getHref(project.id)}>
          <Phrase text={project.title} />
        </Link>
      </th>
      <td>
        <span className={`admin-state admin-state--${project.state}`}>{stateLabel(project.state)}</span>
      </td>
      <td className="admin-time">{project.publishAt ? formatInstant(project.publishAt) : <Nothing label="未定" />}</td>
      <td className="admin-time">{formatDay(project.periodEnd)}</td>
      <td className="admin-num">{formatYen(project.goal)}</td>
      <td className="admin-num">{formatYen(project.raised)}</td>
      <td className="admin-num">{formatCount(project.backers)}人</td>
      <td className="admin-num">{formatCount(project.returns)}</td>
      <td className="admin-projects-table__attention">
        {project.attention.length === 0 ? (
          <Nothing label="なし" />
        ) : (
          <ul className="admin-attention">
            {project.attention.map((phrase) => (
              <li key={phrase} className="admin-badge admin-badge--alert">
                {phrase}
              </li>
            ))}
          </ul>
        )}
      </td>
    </tr>
  );
}

/** `/admin/projects/`: every project with its state and figures, filtered by state (`?state=`). */
export function AdminProjects() {
  const titleId = useId();
  const filterId = useId();
  const [params, setParams] = useSearchParams();
  const state = parseStateFilter(params.get('state'));
  const { data, isLoading, isFetching, isError, error, refetch } = useAdminProjectsQuery(state);

  const changeState = (value: string) => {
    const next = parseStateFilter(value);
    setParams(next ? { state: next } : {});
  };

  return (
    <section className="page page--admin admin-projects-page" aria-labelledby={titleId}>
      <p className="admin-projects__back">
        <Link to={paths.admin.getHref()}>管理画面へ</Link>
      </p>
      <h1 id={titleId} className="page__title">
        プロジェクト管理
      </h1>
      <div className="admin-projects-page__bar">
        <div className="field admin-projects-page__filter">
          <label className="field__label" htmlFor={filterId}>
            状態
          </label>
          <select
            id={filterId}
            className="field__input"
            value={state ?? ''}
            onChange={(event) => changeState(event.target.value)}
          >
            <option value="">すべて</option>
            {PROJECT_STATES.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <Link className="button button--primary" to={paths.adminProjectNew.getHref()}>
          新しいプロジェクトを作成
        </Link>
      </div>
      {isLoading && <PageLoading />}
      {isError && <LoadError message={getErrorMessage(error)} onRetry={() => void refetch()} />}
      {data && data.length === 0 && (
        <p className="admin-empty">{state ? PROJECT_MESSAGES.emptyState(stateLabel(state)) : PROJECT_MESSAGES.empty}</p>
      )}
      {data && data.length > 0 && (
        <div
          className="admin-scroll admin-projects-table__scroll"
          tabIndex={0}
          role="region"
          aria-label="プロジェクト一覧（横にスクロールできます）"
          aria-busy={isFetching || undefined}
        >
          <table className="admin-table admin-projects-table">
            <caption className="visually-hidden">
              プロジェクト一覧{state ? `（${stateLabel(state)}）` : ''}・{data.length}件
            </caption>
            <thead>
              <tr>
                <th scope="col">タイトル</th>
                <th scope="col">状態</th>
                <th scope="col">公開日時</th>
                <th scope="col">終了日</th>
                <th scope="col" className="admin-num">目標金額</th>
                <th scope="col" className="admin-num">支援総額</th>
                <th scope="col" className="admin-num">支援者数</th>
                <th scope="col" className="admin-num">リターン数</th>
                <th scope="col">要対応</th>
              </tr>
            </thead>
            <tbody>
              {data.map((project) => (
                <ProjectRow key={project.id} project={project} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
