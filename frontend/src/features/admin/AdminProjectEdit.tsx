import { useEffect, useId } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import { LoadError } from '@/components/form/LoadError';
import { NotFound } from '@/components/NotFound';
import { PageLoading } from '@/components/PageLoading';
import { Phrase } from '@/components/Phrase';
import { paths } from '@/config/paths';
import { getErrorMessage } from '@/lib/apiError';
import { useAdminProjectQuery, useCreateProjectMutation, useUpdateProjectMutation } from './api/projectsApi';
import { formatYen, formatCount } from './format';
import { Content } from './content/Content';
import { Settings } from './content/Settings';
import { Sponsors } from './content/Sponsors';
import { Comments } from './projects/Comments';
import { SupporterNames } from './projects/SupporterNames';
import { News } from './projects/News';
import { ProjectForm } from './projects/ProjectForm';
import { Publication } from './projects/Publication';
import { ReceiptIssuer } from './projects/ReceiptIssuer';
import { Returns } from './projects/Returns';
import type { ProjectInput } from './projects/types';
import './admin-projects.css';

/** What the creation hands to the edit page it opens: the project was just saved. */
const CREATED_STATE = { saved: true } as const;

const wasJustSaved = (state: unknown): boolean =>
  typeof state === 'object' && state !== null && (state as { saved?: unknown }).saved === true;

/** A positive id of the address, or null (an unknown page). */
export const parseProjectId = (raw: string | undefined): number | null =>
  /^[1-9]\d{0,15}$/.test(raw ?? '') ? Number(raw) : null;

export const isNotFoundError = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && 'status' in error && (error as { status: unknown }).status === 404;

function BackLink() {
  return (
    <p className="admin-projects__back">
      <Link to={paths.adminProjects.getHref()}>プロジェクト管理へ</Link>
    </p>
  );
}

/** `/admin/projects/new`: a new draft; once created, its edit page. */
export function AdminProjectNew() {
  const titleId = useId();
  const navigate = useNavigate();
  const [create] = useCreateProjectMutation();

  const save = async (input: ProjectInput) => {
    const project = await create(input).unwrap();
    void navigate(paths.adminProjectEdit.getHref(project.id), { state: CREATED_STATE });
    return project;
  };

  return (
    <section className="page page--admin admin-project-edit" aria-labelledby={titleId}>
      <BackLink />
      <h1 id={titleId} className="page__title">
        新しいプロジェクト
      </h1>
      <p className="admin-note">下書きとして保存します。リターンの登録と公開は、保存のあとの編集画面で行います。</p>
      <ProjectForm project={null} onSave={save} />
    </section>
  );
}

/** `/admin/projects/:id/`: the project's fields, its publication, its returns, its news and its supporters' comments. */
export function AdminProjectEdit() {
  const titleId = useId();
  const { id: raw } = useParams();
  const { state: arrival, pathname } = useLocation();
  const navigate = useNavigate();
  const id = parseProjectId(raw);
  const justSaved = wasJustSaved(arrival);

  // The note of the creation is shown once: a reload of the page does not repeat it.
  useEffect(() => {
    if (justSaved) void navigate(pathname, { replace: true, state: null });
  }, [justSaved, navigate, pathname]);
  const { data: project, isLoading, isError, error, refetch } = useAdminProjectQuery(id ?? 0, { skip: id === null });
  const [update] = useUpdateProjectMutation();

  if (id === null || isNotFoundError(error)) return <NotFound />;
  if (isLoading) return <PageLoading />;
  if (isError || !project) {
    return (
      <section className="page page--admin">
        <LoadError message={getErrorMessage(error)} onRetry={() => void refetch()} />
      </section>
    );
  }

  const save = (input: ProjectInput) => update({ id: project.id, input }).unwrap();

  return (
    <section className="page page--admin admin-project-edit" aria-labelledby={titleId}>
      <BackLink />
      <h1 id={titleId} className="page__title">
        プロジェクトの編集
      </h1>
      <p className="admin-project-edit__name">
        <Phrase text={project.title} />
      </p>
      <dl className="admin-figures admin-project-edit__figures">
        <div className="admin-figures__item">
          <dt>支援総額</dt>
          <dd className="nowrap">{formatYen(project.raised)}</dd>
        </div>
        <div className="admin-figures__item">
          <dt>支援者数</dt>
          <dd className="nowrap">{formatCount(project.backers)}人</dd>
        </div>
      </dl>
      <p className="admin-project-edit__deliveries">
        <Link to={paths.adminProjectDeliveries.getHref(project.id)}>リターンの発送（支援者の一覧・CSV）</Link>
      </p>
      <Publication project={project} />
      <section className="admin-section" aria-labelledby={`${titleId}-content`}>
        <h2 id={`${titleId}-content`} className="admin-section__title">
          プロジェクトの内容
        </h2>
        {/* Keyed by project: another project's page starts from that project's values. */}
        <ProjectForm key={project.id} project={project} onSave={save} saved={justSaved} />
      </section>
      <Content key={`content-${project.id}`} projectId={project.id} returnIds={project.returns.map((r) => r.id)} />
      <Returns project={project} />
      <Settings key={`settings-${project.id}`} projectId={project.id} />
      <Sponsors key={`sponsors-${project.id}`} projectId={project.id} />
      <News key={`news-${project.id}`} project={project} />
      <ReceiptIssuer key={`receipt-issuer-${project.id}`} projectId={project.id} />
      <Comments key={project.id} projectId={project.id} />
      <SupporterNames key={`supporters-${project.id}`} projectId={project.id} />
    </section>
  );
}
