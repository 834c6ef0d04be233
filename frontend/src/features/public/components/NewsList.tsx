import { useGetNewsQuery } from '../api/publicApi';
import { formatDotDate } from '../format';
import { ServerHtml } from './ServerHtml';

/** The project's news (活動報告), newest first. */
export function NewsList({ projectId, limit }: { projectId: number; limit?: number }) {
  const { data, isLoading, isError } = useGetNewsQuery(projectId);
  if (isLoading) return <p className="loading-text" role="status">活動報告を読み込み中…</p>;
  if (isError || !data) return <p className="empty">活動報告を読み込めませんでした。</p>;
  if (data.length === 0) return <p className="empty">活動報告はまだありません。</p>;
  const shown = limit === undefined ? data : data.slice(0, limit);
  return (
    <ul className="news-list">
      {shown.map((item) => (
        <li key={item.id} className="news">
          <time className="news__date" dateTime={item.updated_at}>{formatDotDate(item.updated_at)}</time>
          <h3 className="news__title">{item.title}</h3>
          {item.description && <ServerHtml className="news__description" html={item.description} />}
        </li>
      ))}
    </ul>
  );
}
