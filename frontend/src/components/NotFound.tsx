import { Link } from 'react-router-dom';
import { Phrase } from '@/components/Phrase';
import { paths } from '@/config/paths';
import { usePageMetaOverride } from '@/hooks/pageMeta';
import { useGetOpenProjectsQuery } from './openProjects/openProjectsApi';

export const NOT_FOUND_TITLE = 'お探しのページが見つかりませんでした';

/** Where to go instead: the projects still open (nothing while they load or when none is open). */
function OpenProjects() {
  const { data } = useGetOpenProjectsQuery();
  if (!data || data.length === 0) return null;
  return (
    <section className="not-found__projects" aria-labelledby="not-found-projects-title">
      <h2 id="not-found-projects-title" className="not-found__subtitle">募集中のプロジェクト</h2>
      <ul className="not-found__list">
        {data.map((project) => (
          <li key={project.slug}>
            <Link to={paths.project.getHref(project.slug)}>{project.title}</Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * Shown for unknown paths, and by pages whose subject does not exist. The top heading keeps the spec's
 * 'Page Not Found' (small, as a label); what the reader sees first is the Japanese heading under it, then what
 * to do and the way back home.
 */
export function NotFound() {
  usePageMetaOverride({ title: NOT_FOUND_TITLE });
  return (
    <section className="page not-found" aria-labelledby="not-found-title">
      <p className="not-found__code" aria-hidden="true">404</p>
      <h1 id="not-found-title" className="not-found__title" lang="en">Page Not Found</h1>
      <h2 className="not-found__lead">
        <Phrase text={`${NOT_FOUND_TITLE}。`} />
      </h2>
      <p>URLが間違っているか、ページが移動または削除された可能性があります。募集中のプロジェクトは下記からご覧いただけます。</p>
      <p>
        <Link className="button" to={paths.home.getHref()}>トップページへ戻る</Link>
      </p>
      <OpenProjects />
    </section>
  );
}
