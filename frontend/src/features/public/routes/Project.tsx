import { useEffect, useRef, type RefObject } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import { FavouriteButton } from '@/components/favourites/FavouriteButton';
import { Phrase } from '@/components/Phrase';
import { LoadError } from '@/components/form/LoadError';
import { NotFound } from '@/components/NotFound';
import { useSession } from '@/app/session/useSession';
import { usePageMetaOverride } from '@/hooks/pageMeta';
import { useInView } from '@/hooks/useInView';
import { useScrolledPast } from '@/hooks/useScrolledPast';
import { useGetCommentsQuery, useGetNewsQuery, useGetProjectDetailQuery } from '../api/publicApi';
import type { ProjectDetail } from '../api/types';
import { CommentList } from '../components/CommentList';
import { NewsList } from '../components/NewsList';
import { FaqSection, FundingTerms, OwnerProfile, ResultBanner, ShareButtons } from '../components/ProjectAbout';
import { ProjectCardItem } from '../components/ProjectCardItem';
import { ProjectStats } from '../components/ProjectStats';
import { SupportBar } from '../components/SupportBar';
import { ReturnList } from '../components/ReturnList';
import { ServerHtml } from '../components/ServerHtml';
import { Slider } from '../components/Slider';
import { SponsorsBlock } from '../components/SponsorsBlock';
import { Tabs } from '../components/Tabs';

/** Spec 000 §2: on the project page the hash target is scrolled to 200 ms after arrival. */
export const PROJECT_HASH_DELAY_MS = 200;
/** How many news items and comments the intro tab shows. */
const INTRO_LIMIT = 3;

type TabKey = 'content' | 'news' | 'comments';

/** The URL hash of each tab (`#news`, `#comments`), so a tab can be linked to. */
export const TAB_HASHES: Record<TabKey, string> = { content: '#content', news: '#news', comments: '#comments' };

/** The tab a hash opens; the intro for anything else. */
export const tabOfHash = (hash: string): TabKey =>
  (Object.keys(TAB_HASHES) as TabKey[]).find((key) => TAB_HASHES[key] === hash) ?? 'content';

/** '活動報告 3件' once the count is known. */
const withCount = (label: string, count: number | undefined): string =>
  count === undefined ? label : `${label} ${count}件`;

/** `--header-height` (3.5rem) plus a little: what the sticky header hides at the top of the page. */
const STICKY_HEADER_PX = 64;

const scrollToReturns = () => document.getElementById('returns')?.scrollIntoView({ behavior: 'smooth', block: 'start' });

const isSafeLink = (link: string | null): link is string => !!link && /^https?:\/\//.test(link);

function ProjectHero({
  project,
  returnsButtonRef,
}: {
  project: ProjectDetail;
  returnsButtonRef: RefObject<HTMLButtonElement | null>;
}) {
  return (
    <section className="project-hero" aria-labelledby="project-title">
      <div className="project-hero__media">
        {project.slider.length > 1 ? (
          <Slider images={project.slider} title={project.title} />
        ) : (
          <img
            className="project-hero__image"
            src={project.slider[0]?.src ?? project.urls.main ?? undefined}
            alt={project.slider[0]?.alt || project.title}
            width={1200}
            height={800}
            decoding="async"
          />
        )}
      </div>
      <div className="project-hero__summary">
        <h1 id="project-title" className="project-hero__title">
          <Phrase text={project.title} />
        </h1>
        <p className="project-hero__description">
          <Phrase text={project.description} />
        </p>
        {project.honorImgUrl &&
          (isSafeLink(project.ImgUrlLink) ? (
            <a className="project-hero__honor" href={project.ImgUrlLink} target="_blank" rel="noopener noreferrer">
              <img src={project.honorImgUrl} alt="表彰・認定の詳細（外部サイト）" width={320} height={107} loading="lazy" />
            </a>
          ) : (
            <p className="project-hero__honor">
              <img src={project.honorImgUrl} alt="表彰・認定" width={320} height={107} loading="lazy" />
            </p>
          ))}
        <ResultBanner project={project} />
        <ProjectStats project={project} variant="hero" />
        {project.isOpen ? (
          <button
            type="button"
            ref={returnsButtonRef}
            className="button button--cta button--block"
            onClick={scrollToReturns}
          >
            リターンを選ぶ
          </button>
        ) : (
          <>
            <button type="button" className="button button--closed button--block" disabled>
              募集終了
            </button>
            <button type="button" ref={returnsButtonRef} className="button button--text" onClick={scrollToReturns}>
              リターン一覧を見る
            </button>
          </>
        )}
        {/* After the call to action, so that a phone still shows it on the first screen. */}
        <FundingTerms project={project} />
        <FavouriteButton project={project} />
        <ShareButtons project={project} />
      </div>
    </section>
  );
}

/**
 * The project page drawn from a detail: `/projects/:slug/` below, and the operator's preview of a draft (the
 * router hands it to the admin page, which fetches the draft's detail).
 */
export function ProjectView({ project }: { project: ProjectDetail }) {
  const session = useSession();
  const userId = session.userId ?? null;
  const { hash } = useLocation();
  const navigate = useNavigate();
  // The tab lives in the URL: opening '#comments' opens the comments, and a tab can be linked to.
  const tab = tabOfHash(hash);
  const setTab = (key: TabKey) => navigate({ hash: TAB_HASHES[key] }, { replace: true, preventScrollReset: true });
  const { data: newsItems } = useGetNewsQuery(project.id);
  const { data: firstComments } = useGetCommentsQuery({ projectId: project.id, page: 1 });
  const returnsRef = useRef<HTMLElement>(null);
  const returnsInView = useInView(returnsRef, { fallback: true });
  // The floating button stands in for the hero's own button once the reader has scrolled past it
  // (under the sticky header counts as past); before that it would only cover the hero.
  const heroButtonRef = useRef<HTMLButtonElement>(null);
  const heroButtonPassed = useScrolledPast(heroButtonRef, STICKY_HEADER_PX);

  // The content is on screen only now: scroll to the hash target 200 ms after arrival (a tab's hash: to
  // the tabs, on arrival only; switching tabs leaves the page where it is).
  const arrivedHash = useRef(hash);
  useEffect(() => {
    if (!hash) return undefined;
    const isTab = Object.values(TAB_HASHES).includes(hash);
    if (isTab && hash !== arrivedHash.current) return undefined;
    const id = isTab ? 'mainContents_wrapper' : decodeURIComponent(hash.slice(1));
    const timer = window.setTimeout(() => {
      document.getElementById(id)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    }, PROJECT_HASH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [hash, project.id]);

  const showTab = (key: TabKey) => {
    setTab(key);
    document.getElementById('mainContents_wrapper')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  };

  const intro = (
    <>
      {/* The server sanitises project bodies (brief, decision 7). */}
      <ServerHtml className="project-content" html={project.content} />
      <section className="project-block" aria-labelledby="block-news">
        <h2 id="block-news" className="project-block__title">活動報告</h2>
        <NewsList projectId={project.id} limit={INTRO_LIMIT} />
        <button type="button" className="button button--text" onClick={() => showTab('news')}>
          活動報告をすべて見る
        </button>
      </section>
      <section className="project-block" aria-labelledby="block-comments">
        <h2 id="block-comments" className="project-block__title">応援コメント</h2>
        <CommentList projectId={project.id} userId={userId} limit={INTRO_LIMIT} />
        <button type="button" className="button button--text" onClick={() => showTab('comments')}>
          応援コメントをすべて見る
        </button>
      </section>
      <section className="project-block" aria-labelledby="block-sponsors">
        <h2 id="block-sponsors" className="project-block__title">支援者の皆さま</h2>
        <SponsorsBlock projectId={project.id} />
      </section>
    </>
  );

  return (
    <div className="project">
      <ProjectHero project={project} returnsButtonRef={heroButtonRef} />
      <div className="project__layout">
        <div id="mainContents_wrapper" className="project__main">
          <Tabs<TabKey>
            label="プロジェクトの情報"
            active={tab}
            onChange={setTab}
            items={[
              { key: 'content', label: 'プロジェクト紹介', panel: intro },
              { key: 'news', label: withCount('活動報告', newsItems?.length), panel: <NewsList projectId={project.id} /> },
              {
                key: 'comments',
                label: withCount('応援コメント', firstComments?.total),
                panel: <CommentList projectId={project.id} userId={userId} />,
              },
            ]}
          />
          <OwnerProfile project={project} />
          <FaqSection project={project} />
        </div>
        <section id="returns" ref={returnsRef} className="project__returns" aria-labelledby="returns-title" tabIndex={-1}>
          <h2 id="returns-title" className="section-title">
            <span className="section-title__en" aria-hidden="true">RETURNS</span>
            リターン一覧
          </h2>
          <ReturnList project={project} isLoggedIn={session.isLoggedIn} />
        </section>
      </div>
      <RelatedProjects projects={project.related} />
      {!returnsInView && heroButtonPassed && (
        <>
          {/* Wide screens: the spec's floating button; phones: the bar with the lowest price. */}
          <button type="button" className="floating-returns button button--cta" onClick={scrollToReturns}>
            リターンを確認する
          </button>
          <SupportBar project={project} onSupport={scrollToReturns} />
        </>
      )}
    </div>
  );
}

/** Open projects of the same area or category (the server chooses and orders them); nothing when there is none. */
function RelatedProjects({ projects }: { projects: ProjectDetail['related'] }) {
  if (projects.length === 0) return null;
  return (
    <section className="project-related" aria-labelledby="related-title">
      <h2 id="related-title" className="section-title">
        <span className="section-title__en" aria-hidden="true">RELATED</span>
        関連するプロジェクト
      </h2>
      <ul className="project-grid">
        {projects.map((related) => (
          <li key={related.id}>
            <ProjectCardItem project={related} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function ProjectSkeleton() {
  return (
    <div className="project project--loading" role="status" aria-label="読み込み中">
      <div className="project-hero">
        <div className="project-hero__media skeleton skeleton--media" />
        <div className="project-hero__summary">
          <div className="skeleton skeleton--line skeleton--title" />
          <div className="skeleton skeleton--line" />
          <div className="skeleton skeleton--block" />
        </div>
      </div>
    </div>
  );
}

const isNotFound = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && 'status' in error && (error as { status: unknown }).status === 404;

/** `/projects/:slug/`: an unknown slug shows the not-found view. */
export function Project() {
  const { slug = '' } = useParams();
  const { data, error, isLoading, isFetching, refetch } = useGetProjectDetailQuery(slug, { skip: slug === '' });

  if (slug === '' || isNotFound(error)) return <NotFound />;
  if (isLoading || (isFetching && !data)) return <ProjectSkeleton />;
  if (error || !data) {
    return (
      <div className="page">
        <LoadError
          message="プロジェクトを読み込めませんでした。時間をおいて再度お試しください。"
          onRetry={() => void refetch()}
        />
      </div>
    );
  }
  return <PublicProject key={data.id} project={data} />;
}

/** The public page titles the document with the project (the preview keeps its own title). */
function PublicProject({ project }: { project: ProjectDetail }) {
  usePageMetaOverride({ title: project.title, description: project.description, type: 'article' });
  return <ProjectView project={project} />;
}
