import { Link } from 'react-router-dom';
import { LoadError } from '@/components/form/LoadError';
import { Phrase } from '@/components/Phrase';
import { Header } from '@/components/layout/Header';
import { useLogout, useSession } from '@/app/session/useSession';
import { useGetAllSumQuery, useGetProjectsQuery } from '../api/publicApi';
import type { ProjectCard } from '../api/types';
import { ProjectCardItem, ProjectCardSkeleton } from '../components/ProjectCardItem';
import { formatYen } from '@/lib/format';
import { paths } from '@/config/paths';
import { formatPeople } from '../format';

function HeroTotals() {
  const { data, isError } = useGetAllSumQuery();
  if (isError) return null;
  return (
    <dl className="hero__totals" aria-busy={!data}>
      <div className="hero__total">
        <dt>これまでの支援者</dt>
        <dd>{data ? formatPeople(data.lot) : '—'}</dd>
      </div>
      <div className="hero__total">
        <dt>これまでの支援総額</dt>
        <dd>{data ? formatYen(data.amount) : '—'}</dd>
      </div>
    </dl>
  );
}

function ProjectGrid({ projects }: { projects: ProjectCard[] }) {
  return (
    <ul className="project-grid" aria-label="プロジェクト">
      {projects.map((project, index) => (
        <li key={project.id}>
          <ProjectCardItem project={project} priority={index === 0} />
        </li>
      ))}
    </ul>
  );
}

function Projects() {
  const { data, isLoading, isError, refetch } = useGetProjectsQuery();
  if (isLoading) {
    return (
      <div className="project-grid" role="status" aria-label="読み込み中">
        <ProjectCardSkeleton />
        <ProjectCardSkeleton />
        <ProjectCardSkeleton />
      </div>
    );
  }
  if (isError || !data) {
    return (
      <LoadError
        message="プロジェクトを読み込めませんでした。時間をおいて再度お試しください。"
        onRetry={() => void refetch()}
      />
    );
  }
  if (data.length === 0) {
    return <p className="empty">現在公開中のプロジェクトはありません。</p>;
  }
  // The server orders them: open first, then ended, each by end date descending.
  return <ProjectGrid projects={data} />;
}

/** Home: the global header is hidden here, so the hero draws its own logo and menu. */
export function Home() {
  const session = useSession();
  const logout = useLogout();
  return (
    <div className="home">
      <section className="hero" aria-labelledby="hero-title">
        <Header variant="overlay" isLoggedIn={session.isLoggedIn} isAdmin={session.isAdmin} onLogout={logout} />
        <div className="hero__inner">
          <p className="hero__eyebrow">群馬発・地域のクラウドファンディング</p>
          <h1 id="hero-title" className="hero__title">
            地域の「やりたい」を、
            <br />
            みんなの応援で。
          </h1>
          <p className="hero__lead">
            <Phrase text="まちの挑戦を、ひとりひとりの支援で形にします。" />
          </p>
          <HeroTotals />
        </div>
      </section>
      <section className="home__projects" aria-labelledby="projects-title">
        <h2 id="projects-title" className="section-title">
          <span className="section-title__en" aria-hidden="true">PROJECTS</span>
          プロジェクト一覧
        </h2>
        <Projects />
        <p className="home__more">
          <Link className="button button--primary" to={paths.projects.getHref()}>
            すべてのプロジェクトを見る
          </Link>
        </p>
      </section>
    </div>
  );
}
