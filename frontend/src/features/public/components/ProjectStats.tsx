import type { ProjectCard } from '../api/types';
import { formatYen } from '@/lib/format';
import { formatDaysLeft, formatPeople } from '../format';
import { ProgressRing } from './ProgressRing';

/**
 * A project's progress ring and figures: raised, goal, backers, days left. The home card shows the
 * percentage with one decimal, the project page's larger ring with two (spec 000 §1, §2).
 */
export function ProjectStats({ project, variant }: { project: ProjectCard; variant: 'card' | 'hero' }) {
  const hero = variant === 'hero';
  return (
    <div className={hero ? 'project-hero__stats' : 'project-card__stats'}>
      {hero ? (
        <ProgressRing percent={project.progress.ring} capped={project.progress.capped} decimals={2} size="large" />
      ) : (
        <ProgressRing percent={project.progress.card} capped={project.progress.capped} decimals={1} />
      )}
      <dl className="stats">
        <div className="stats__row stats__row--main">
          <dt>支援総額</dt>
          <dd>{formatYen(project.sum.amount)}</dd>
        </div>
        <div className="stats__row">
          <dt>目標金額</dt>
          <dd>{formatYen(project.target)}</dd>
        </div>
        <div className="stats__row">
          <dt>支援者数</dt>
          <dd>{formatPeople(project.sum.lot)}</dd>
        </div>
        <div className="stats__row">
          <dt>募集期間</dt>
          <dd className={project.isOpen ? undefined : 'stats__ended'}>
            {formatDaysLeft(project.daysLeft, project.isOpen)}
          </dd>
        </div>
      </dl>
    </div>
  );
}
