import { Link } from 'react-router-dom';
import { FavouriteButton } from '@/components/favourites/FavouriteButton';
import { Phrase } from '@/components/Phrase';
import { paths } from '@/config/paths';
import type { ProjectCard } from '../api/types';
import { ProjectStats } from './ProjectStats';

/** One project on the home page. */
export function ProjectCardItem({ project, priority = false }: { project: ProjectCard; priority?: boolean }) {
  const detailHref = paths.project.getHref(project.slug);
  const returnsHref = paths.project.getHref(project.slug, 'returns');
  const ended = !project.isOpen;
  const titleId = `project-${project.id}-title`;
  return (
    <article className={`project-card${ended ? ' project-card--ended' : ''}`} aria-labelledby={titleId}>
      <Link to={detailHref} className="project-card__image" tabIndex={-1} aria-hidden="true">
        {/* The first card's image is usually the largest paint: fetch it at once, the rest lazily. */}
        <img
          src={project.urls.main ?? undefined}
          alt=""
          width={640}
          height={427}
          loading={priority ? 'eager' : 'lazy'}
          fetchPriority={priority ? 'high' : 'auto'}
          decoding="async"
        />
        {ended && <span className="project-card__badge">終了</span>}
      </Link>
      <div className="project-card__body">
        {(project.area || project.category) && (
          <p className="project-card__place">{[project.area?.name, project.category?.name].filter(Boolean).join('・')}</p>
        )}
        <h3 id={titleId} className="project-card__title">
          <Link to={detailHref}>
            <Phrase text={project.title} />
          </Link>
        </h3>
        <p className="project-card__description">
          <Phrase text={project.description} />
        </p>
        <p className="project-card__links">
          <Link to={returnsHref}>リターンを見る</Link>
          <Link to={detailHref}>詳しく見る</Link>
        </p>
        <ProjectStats project={project} variant="card" />
        <FavouriteButton project={project} describedBy={titleId} />
        {ended ? (
          <button type="button" className="button button--closed button--block" disabled>
            募集終了
          </button>
        ) : (
          <Link to={returnsHref} className="button button--cta button--block" aria-label={`${project.title}を支援する`}>
            支援する
          </Link>
        )}
      </div>
    </article>
  );
}

/** Placeholder cards while the projects load. */
export function ProjectCardSkeleton() {
  return (
    <div className="project-card project-card--skeleton" aria-hidden="true">
      <div className="project-card__image skeleton" />
      <div className="project-card__body">
        <div className="skeleton skeleton--line skeleton--title" />
        <div className="skeleton skeleton--line" />
        <div className="skeleton skeleton--line skeleton--short" />
        <div className="skeleton skeleton--block" />
      </div>
    </div>
  );
}
