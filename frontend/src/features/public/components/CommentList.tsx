import { useState, type FormEvent } from 'react';
import { getErrorMessage } from '@/lib/apiError';
import { useGetCommentsQuery, useUpdateCommentMutation } from '../api/publicApi';
import type { Comment } from '../api/types';
import { formatDotDate } from '../format';
import { DefaultIcon } from './DefaultIcon';

/** The maximum the server accepts (contract: POST /v1/comment/set/update). */
export const COMMENT_MAX_LENGTH = 1000;
export const COMMENT_REQUIRED = 'コメントを入力してください。';

const displayName = (comment: Comment): string =>
  comment.salesDetail?.displayname?.displayname || comment.userDetail?.displayname || '匿名';

function CommentEditor({ comment, onDone }: { comment: Comment; onDone: () => void }) {
  const [text, setText] = useState(comment.comment);
  const [error, setError] = useState<string | null>(null);
  const [update, { isLoading }] = useUpdateCommentMutation();
  const fieldId = `comment-${comment.id}-edit`;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() === '') {
      setError(COMMENT_REQUIRED);
      return;
    }
    setError(null);
    try {
      await update({ id: comment.id, comment: text, projectId: comment.project_id }).unwrap();
      onDone();
    } catch (failure) {
      setError(getErrorMessage(failure));
    }
  };

  return (
    <form className="comment__form" onSubmit={(event) => void onSubmit(event)} noValidate>
      <label htmlFor={fieldId} className="visually-hidden">コメント</label>
      <textarea
        id={fieldId}
        className="field__input comment__textarea"
        value={text}
        maxLength={COMMENT_MAX_LENGTH}
        rows={5}
        onChange={(event) => setText(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${fieldId}-error` : undefined}
      />
      {error && (
        <p id={`${fieldId}-error`} className="field__error" role="alert">
          {error}
        </p>
      )}
      <div className="comment__form-actions">
        <button type="submit" className="button button--primary" disabled={isLoading}>
          登録する
        </button>
        <button type="button" className="button button--text" onClick={onDone}>
          キャンセル
        </button>
      </div>
    </form>
  );
}

function CommentItem({ comment, isAuthor }: { comment: Comment; isAuthor: boolean }) {
  const [editing, setEditing] = useState(false);
  const icon = comment.userDetail?.urls?.icon?.[0]?.url;
  const name = displayName(comment);
  return (
    <li className="comment">
      <div className="comment__head">
        {icon ? (
          <img className="user-icon" src={icon} alt={`${name}のアイコン`} width={48} height={48} loading="lazy" decoding="async" />
        ) : (
          <DefaultIcon />
        )}
        <p className="comment__meta">
          <span className="comment__name">{name}</span>
          <time className="comment__date" dateTime={comment.updated_at}>{formatDotDate(comment.updated_at)}</time>
        </p>
        {isAuthor && !editing && (
          <button type="button" className="button button--small" onClick={() => setEditing(true)}>
            編集する
          </button>
        )}
      </div>
      {editing ? (
        <CommentEditor comment={comment} onDone={() => setEditing(false)} />
      ) : (
        <p className="comment__body">{comment.comment}</p>
      )}
    </li>
  );
}

export interface CommentListProps {
  projectId: number;
  /** The logged-in user's id; only their own comments get an edit button. */
  userId: number | null;
  /** Show only this many of the newest, without the pagination bar (the intro tab's block). */
  limit?: number;
}

/** The pagination bar of spec 000 §9 (every page up to five, otherwise a window with dots). */
function Pagination({ page, items, onPage }: { page: number; items: Array<number | null>; onPage: (page: number) => void }) {
  if (items.length <= 1) return null;
  return (
    <nav className="pagination" aria-label="コメントのページ">
      <ul className="pagination__list">
        {items.map((item, index) =>
          item === null ? (
            <li key={`dots-${index}`} className="pagination__dots" aria-hidden="true">
              …
            </li>
          ) : (
            <li key={item}>
              <button
                type="button"
                className="pagination__page"
                aria-current={item === page ? 'page' : undefined}
                aria-label={`${item}ページ目`}
                onClick={() => onPage(item)}
              >
                {item}
              </button>
            </li>
          ),
        )}
      </ul>
    </nav>
  );
}

/** Supporters' comments (spec 000 §4, comments), newest first, ten to a page. */
export function CommentList({ projectId, userId, limit }: CommentListProps) {
  const [page, setPage] = useState(1);
  const { data, isLoading, isError } = useGetCommentsQuery({ projectId, page: limit === undefined ? page : 1 });

  if (isLoading) return <p className="loading-text" role="status">コメントを読み込み中…</p>;
  if (isError || !data) return <p className="empty">コメントを読み込めませんでした。</p>;
  if (data.total === 0) return <p className="empty">まだコメントはありません。</p>;

  const shown = limit === undefined ? data.comments : data.comments.slice(0, limit);
  const goTo = (next: number) => {
    setPage(next);
    document.getElementById('mainContents_wrapper')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  };
  return (
    <>
      <ul className="comment-list">
        {shown.map((comment) => (
          <CommentItem key={comment.id} comment={comment} isAuthor={userId !== null && comment.user_id === userId} />
        ))}
      </ul>
      {limit === undefined && <Pagination page={data.page} items={data.items} onPage={goTo} />}
    </>
  );
}
