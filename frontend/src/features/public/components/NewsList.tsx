import { useGetNewsQuery } from '../api/publicApi';
import { formatDotDate } from '../format';
import { ServerHtml } from './ServerHtml';

/** What a locked item (支援者限定, the reader is not a supporter it admits) says instead of its body. */
export const NEWS_LOCKED = 'この活動報告は支援者限定です。支援された方はログインすると読めます。';

/** The project's news (活動報告), newest first; a supporters-only item the reader may not read is a locked teaser. */
export function NewsList({ projectId, limit }: { projectId: number; limit?: number }) {
  const { data, isLoading, isError } = useGetNewsQuery(projectId);
  if (isLoading) return <p className="loading-text" role="status">活動報告を読み込み中…</p>;
  if (isError || !data) return <p className="empty">活動報告を読み込めませんでした。</p>;
  if (data.length === 0) return <p className="empty">活動報告はまだありません。</p>;
  const shown = limit === undefined ? data : data.slice(0, limit);
  return (
    <ul className="news-list">
      {shown.map((item) => (
        <li key={item.id} className={item.locked ? 'news news--locked' : 'news'}>
          <time className="news__date" dateTime={item.updated_at}>{formatDotDate(item.updated_at)}</time>
          <h3 className="news__title">
            {item.audience === 'supporters' && <span className="news__badge">支援者限定</span>}
            {item.title}
          </h3>
          {item.locked ? (
            <p className="news__locked">
              <span aria-hidden="true">🔒 </span>
              {NEWS_LOCKED}
            </p>
          ) : (
            item.description && <ServerHtml className="news__description" html={item.description} />
          )}
        </li>
      ))}
    </ul>
  );
}
