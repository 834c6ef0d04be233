import { Link } from 'react-router-dom';
import { LoadError } from '@/components/form/LoadError';
import { PageLoading } from '@/components/PageLoading';
import { FavouriteButton } from '@/components/favourites/FavouriteButton';
import { useGetFavouritesQuery } from '@/components/favourites/favouritesApi';
import { paths } from '@/config/paths';
import { getErrorMessage } from '@/lib/apiError';
import { formatYen } from '@/lib/format';
import { FavouriteMailSetting } from './FavouriteMailSetting';

/** My page's お気に入り: the kept projects, newest first, each with where it stands and a way to remove it. */
export function Favourites() {
  const { data, isLoading, error, refetch } = useGetFavouritesQuery();
  return (
    <section className="my-projects" aria-labelledby="favourites-title">
      <h2 id="favourites-title" className="account-page__subtitle">
        お気に入り
      </h2>
      <FavouriteMailSetting />
      {isLoading ? (
        <PageLoading />
      ) : !data ? (
        <LoadError message={getErrorMessage(error)} onRetry={() => void refetch()} />
      ) : data.length === 0 ? (
        <p className="empty">
          お気に入りはまだありません。プロジェクトの「お気に入りに追加」で、あとから見返せるようになります。
        </p>
      ) : (
        <ul className="my-projects__list">
          {data.map(({ project, state, stateLabel }) => {
            const titleId = `favourite-${project.id}-title`;
            return (
              <li key={project.id} className="my-projects__item">
                <article aria-labelledby={titleId}>
                  <h3 id={titleId} className="my-projects__title">
                    <Link to={paths.project.getHref(project.slug)}>{project.title}</Link>
                  </h3>
                  <p className="my-projects__meta">
                    <span className={`state-badge state-badge--${state}`}>{stateLabel}</span>
                    {project.isOpen && <span>残り{project.daysLeft}日</span>}
                    <span>支援総額 {formatYen(project.sum.amount)}</span>
                  </p>
                  <FavouriteButton project={project} describedBy={titleId} />
                </article>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
