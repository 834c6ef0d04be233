import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { LoadError } from '@/components/form/LoadError';
import { Notice } from '@/components/form/Notice';
import { useGetTaxonomyQuery, type Taxon } from '@/components/taxonomy/taxonomyApi';
import { paths, type ProjectListFilters } from '@/config/paths';
import { useGetProjectListQuery } from '../api/listApi';
import { ProjectCardItem, ProjectCardSkeleton } from '../components/ProjectCardItem';
import './ProjectList.css';

type State = NonNullable<ProjectListFilters['state']>;
type Sort = NonNullable<ProjectListFilters['sort']>;

const STATES: ReadonlyArray<[State | '', string]> = [['', 'すべて'], ['open', '募集中'], ['ended', '終了']];
const SORTS: ReadonlyArray<[Sort, string]> = [
  ['new', '新着順'],
  ['raised', '支援額が多い順'],
  ['backers', '支援者数が多い順'],
  ['ending', '終了が近い順'],
];
/** The server's limit (`domain::search::MAX_QUERY_CHARS`). */
const MAX_KEYWORD_CHARS = 100;

const isState = (value: string | null): value is State => value === 'open' || value === 'ended';
const isSort = (value: string | null): value is Sort => SORTS.some(([code]) => code === value);

/**
 * The filters of the address. Values the list cannot offer (a sort it does not know, page "x") are dropped, so an
 * edited address still shows a list; an area or category slug is passed on: one that names none finds nothing.
 */
export function filtersOf(params: URLSearchParams): ProjectListFilters {
  const state = params.get('state');
  const sort = params.get('sort');
  const page = Number(params.get('page'));
  return {
    area: params.get('area') || undefined,
    category: params.get('category') || undefined,
    state: isState(state) ? state : undefined,
    sort: isSort(sort) ? sort : undefined,
    q: params.get('q')?.trim() || undefined,
    page: Number.isInteger(page) && page > 1 ? page : undefined,
  };
}

const nameOf = (list: Taxon[] | undefined, slug: string | undefined) =>
  slug ? list?.find((taxon) => taxon.slug === slug)?.name : undefined;

/** What the page lists, in words: '前橋市・文化・芸術の募集中のプロジェクト'. */
function headingOf(filters: ProjectListFilters, areaName?: string, categoryName?: string): string {
  const place = [areaName, categoryName].filter(Boolean).join('・');
  const state = filters.state === 'open' ? '募集中の' : filters.state === 'ended' ? '終了した' : '';
  return `${place ? `${place}の` : ''}${state}プロジェクト`;
}

/** The server's message for a refused address (400), else none. */
const refusalOf = (error: unknown): string | undefined => {
  if (typeof error !== 'object' || error === null || !('status' in error) || error.status !== 400) return undefined;
  const data = (error as { data?: { message?: unknown } }).data;
  return typeof data?.message === 'string' ? data.message : undefined;
};

function Filters({ filters, onChange }: { filters: ProjectListFilters; onChange: (next: ProjectListFilters) => void }) {
  const id = useId();
  const { data: taxonomy, isError } = useGetTaxonomyQuery();
  const [keyword, setKeyword] = useState(filters.q ?? '');
  // Back and forward change the address: the box follows it.
  useEffect(() => setKeyword(filters.q ?? ''), [filters.q]);

  // A filter applies at once and goes back to page 1; the keyword applies on 検索.
  const change = (next: Partial<ProjectListFilters>) => onChange({ ...filters, ...next, page: undefined });
  const search = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    change({ q: keyword.trim() || undefined });
  };

  return (
    <div className="list-filters">
      <form className="list-filters__search" role="search" aria-label="キーワードで探す" onSubmit={search}>
        <label htmlFor={`${id}-q`} className="list-filters__label">
          キーワード
        </label>
        <div className="list-filters__search-row">
          <input
            id={`${id}-q`}
            className="list-filters__input"
            type="search"
            name="q"
            value={keyword}
            maxLength={MAX_KEYWORD_CHARS}
            placeholder="例：ばら　こども食堂"
            enterKeyHint="search"
            onChange={(event) => setKeyword(event.target.value)}
          />
          <button type="submit" className="button button--primary list-filters__submit">
            検索
          </button>
        </div>
      </form>
      <div className="list-filters__selects">
        <div className="list-filters__field">
          <label htmlFor={`${id}-area`} className="list-filters__label">
            地域
          </label>
          <select
            id={`${id}-area`}
            className="list-filters__select"
            value={filters.area ?? ''}
            disabled={!taxonomy && !isError}
            onChange={(event) => change({ area: event.target.value || undefined })}
          >
            <option value="">すべての地域</option>
            {taxonomy?.areas.map((area) => (
              <option key={area.slug} value={area.slug}>
                {area.name}
              </option>
            ))}
          </select>
        </div>
        <div className="list-filters__field">
          <label htmlFor={`${id}-category`} className="list-filters__label">
            カテゴリー
          </label>
          <select
            id={`${id}-category`}
            className="list-filters__select"
            value={filters.category ?? ''}
            disabled={!taxonomy && !isError}
            onChange={(event) => change({ category: event.target.value || undefined })}
          >
            <option value="">すべてのカテゴリー</option>
            {taxonomy?.categories.map((category) => (
              <option key={category.slug} value={category.slug}>
                {category.name}
              </option>
            ))}
          </select>
        </div>
        <div className="list-filters__field">
          <label htmlFor={`${id}-sort`} className="list-filters__label">
            並び順
          </label>
          <select
            id={`${id}-sort`}
            className="list-filters__select"
            value={filters.sort ?? 'new'}
            onChange={(event) => change({ sort: isSort(event.target.value) ? event.target.value : undefined })}
          >
            {SORTS.map(([code, label]) => (
              <option key={code} value={code}>
                {label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <fieldset className="list-filters__states">
        <legend className="list-filters__label">募集状況</legend>
        {STATES.map(([code, label]) => (
          <label key={label} className="list-filters__state">
            <input
              type="radio"
              name={`${id}-state`}
              value={code}
              checked={(filters.state ?? '') === code}
              onChange={() => change({ state: isState(code) ? code : undefined })}
            />
            <span>{label}</span>
          </label>
        ))}
      </fieldset>
    </div>
  );
}

function Pager({ filters, page, pages }: { filters: ProjectListFilters; page: number; pages: number }) {
  if (pages <= 1) return null;
  return (
    <nav className="list-pager" aria-label="ページ送り">
      {page > 1 ? (
        <Link className="button list-pager__link" to={paths.projects.getHref({ ...filters, page: page - 1 })} rel="prev">
          前のページ
        </Link>
      ) : (
        <span className="list-pager__spacer" />
      )}
      <span className="list-pager__where" aria-current="page">
        {page} / {pages}ページ
      </span>
      {page < pages ? (
        <Link className="button list-pager__link" to={paths.projects.getHref({ ...filters, page: page + 1 })} rel="next">
          次のページ
        </Link>
      ) : (
        <span className="list-pager__spacer" />
      )}
    </nav>
  );
}

function Results({ filters }: { filters: ProjectListFilters }) {
  const { data, isLoading, isFetching, isError, error, refetch } = useGetProjectListQuery(filters);
  const refused = refusalOf(error);
  if (refused) {
    return (
      <Notice tone="error">
        <p>{refused}</p>
        <p>
          <Link to={paths.projects.getHref()}>条件をクリアする</Link>
        </p>
      </Notice>
    );
  }
  if (isError) {
    return (
      <LoadError
        message="プロジェクトを読み込めませんでした。時間をおいて再度お試しください。"
        onRetry={() => void refetch()}
      />
    );
  }
  if (isLoading || !data) {
    return (
      <div className="project-grid" role="status" aria-label="読み込み中">
        <ProjectCardSkeleton />
        <ProjectCardSkeleton />
        <ProjectCardSkeleton />
      </div>
    );
  }
  const pages = Math.max(1, Math.ceil(data.total / data.pageSize));
  return (
    <div aria-busy={isFetching}>
      <p className="list-count" role="status">
        {data.total === 0 ? '該当するプロジェクトはありません' : `${data.total.toLocaleString('ja-JP')}件のプロジェクト`}
      </p>
      {data.projects.length === 0 ? (
        <div className="list-empty">
          <p>条件に合うプロジェクトはありません。</p>
          <p>キーワードを短くするか、地域やカテゴリーを「すべて」にしてお試しください。</p>
          <Link className="button" to={paths.projects.getHref()}>
            すべてのプロジェクトを見る
          </Link>
        </div>
      ) : (
        <ul className="project-grid" aria-label="検索結果">
          {data.projects.map((project) => (
            <li key={project.id}>
              <ProjectCardItem project={project} />
            </li>
          ))}
        </ul>
      )}
      <Pager filters={filters} page={data.page} pages={pages} />
    </div>
  );
}

/** `/projects/`: every public project, by area, category and state, searched and sorted; the address holds it all. */
export function ProjectList() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const filters = filtersOf(params);
  const { data: taxonomy } = useGetTaxonomyQuery();
  const heading = headingOf(filters, nameOf(taxonomy?.areas, filters.area), nameOf(taxonomy?.categories, filters.category));
  return (
    <div className="page project-list">
      <h1 className="section-title">
        <span className="section-title__en" aria-hidden="true">PROJECTS</span>
        {heading}
        {filters.q && <span className="project-list__keyword">「{filters.q}」の検索結果</span>}
      </h1>
      <Filters filters={filters} onChange={(next) => navigate(paths.projects.getHref(next))} />
      <Results filters={filters} />
    </div>
  );
}
