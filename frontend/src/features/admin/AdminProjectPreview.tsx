import type { ComponentType } from 'react';
import { Link, useParams } from 'react-router-dom';
import { LoadError } from '@/components/form/LoadError';
import { NotFound } from '@/components/NotFound';
import { PageLoading } from '@/components/PageLoading';
import { paths } from '@/config/paths';
import { getErrorMessage } from '@/lib/apiError';
import { useAdminProjectPreviewQuery, type PreviewProject } from './api/projectsApi';
import { isNotFoundError, parseProjectId } from './AdminProjectEdit';
import { PROJECT_MESSAGES } from './projects/rules';
import './admin-projects.css';

/** The public project page's view, drawn from a detail it is given. */
export type ProjectViewComponent = ComponentType<{ project: PreviewProject }>;

/**
 * `/admin/projects/:id/preview`: a draft or scheduled project as the public page will show it, under a banner
 * that says it is not public yet. The view is the public page's own (`View`): the router hands it in, since one
 * feature never imports another (app/boundaries.test.ts); it is in the main bundle already.
 */
export function AdminProjectPreview({ View }: { View: ProjectViewComponent }) {
  const { id: raw } = useParams();
  const id = parseProjectId(raw);
  // Always read again: the preview is opened to see the latest edit.
  const { data, isLoading, isFetching, isError, error, refetch } = useAdminProjectPreviewQuery(id ?? 0, {
    skip: id === null,
    refetchOnMountOrArgChange: true,
  });

  if (id === null || isNotFoundError(error)) return <NotFound />;

  return (
    <div className="admin-preview">
      <aside className="admin-preview__banner" aria-label="プレビュー中">
        <p className="admin-preview__text">{PROJECT_MESSAGES.previewBanner}</p>
        <Link className="button button--small button--light" to={paths.adminProjectEdit.getHref(id)}>
          編集に戻る
        </Link>
      </aside>
      {isLoading || (isFetching && !data) ? (
        <PageLoading />
      ) : isError || !data ? (
        <section className="page">
          <LoadError message={getErrorMessage(error)} onRetry={() => void refetch()} />
        </section>
      ) : (
        <View project={data} />
      )}
    </div>
  );
}
