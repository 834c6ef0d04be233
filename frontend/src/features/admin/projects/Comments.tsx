import { useId, useState } from 'react';
import { LoadError } from '@/components/form/LoadError';
import { getErrorMessage } from '@/lib/apiError';
import { useAdminCommentsQuery, useHideCommentMutation, useShowCommentMutation } from '../api/projectsApi';
import { formatInstant } from '../format';
import { HideReasonDialog } from './HideReasonDialog';
import { PROJECT_MESSAGES } from './rules';
import type { AdminComment } from './types';
import { ActionNotice, type ActionMessage } from '../components/ActionNotice';

const HIDE_FAILED = 'コメントを非表示にできませんでした。時間をおいて再度お試しください。';

/** How much of a comment the dialog quotes, so the operator sees which one it is. */
const EXCERPT_LENGTH = 60;

const excerptOf = (text: string): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = Array.from(flat);
  return chars.length > EXCERPT_LENGTH ? `${chars.slice(0, EXCERPT_LENGTH).join('')}…` : flat;
};

/** `コメントを非表示にする`: quotes the comment, so the operator sees which one it is. */
function HideDialog({
  comment,
  projectId,
  onDone,
  onCancel,
}: {
  comment: AdminComment;
  projectId: number;
  onDone: () => void;
  onCancel: () => void;
}) {
  const [hide] = useHideCommentMutation();
  return (
    <HideReasonDialog
      title="コメントを非表示にする"
      failure={HIDE_FAILED}
      hide={(reason) => hide({ id: comment.id, projectId, input: { reason } }).unwrap()}
      onDone={onDone}
      onCancel={onCancel}
    >
      <p className="modal__message">
        {comment.author}さんのコメントを公開ページに表示しないようにします。理由は操作の記録に残ります。あとから再表示できます。
      </p>
      <blockquote className="admin-hide-comment__quote">{excerptOf(comment.comment)}</blockquote>
    </HideReasonDialog>
  );
}

function CommentItem({ comment, onToggle }: { comment: AdminComment; onToggle: () => void }) {
  const authorId = useId();
  const dateId = useId();
  return (
    <li className="admin-comment">
      <article aria-labelledby={`${authorId} ${dateId}`}>
        <div className="admin-comment__head">
          <h3 id={authorId} className="admin-comment__author">
            {comment.author}
          </h3>
          <time id={dateId} className="admin-comment__date nowrap" dateTime={comment.createdAt}>
            {formatInstant(comment.createdAt)}
          </time>
        </div>
        <p className="admin-comment__email">{comment.authorEmail}</p>
        <p className="admin-comment__state">
          {comment.shown ? (
            <span className="admin-badge admin-badge--info">公開中</span>
          ) : (
            <span className="admin-badge admin-badge--muted">非表示</span>
          )}
        </p>
        {!comment.shown && comment.hiddenReason && (
          <p className="admin-comment__reason">非表示の理由：{comment.hiddenReason}</p>
        )}
        <p className="admin-comment__body">{comment.comment}</p>
        <div className="admin-comment__actions">
          {/* One button whose action follows the state: the focus stays on it across the change (and the dialog
              gives it back), now offering the opposite. */}
          <button
            type="button"
            className="button button--small"
            aria-describedby={`${authorId} ${dateId}`}
            onClick={onToggle}
          >
            {comment.shown ? '非表示にする' : '再表示する'}
          </button>
        </div>
      </article>
    </li>
  );
}

/** `応援コメント`: the project's comments, newest first, shown and hidden; the operator hides and shows them. */
export function Comments({ projectId }: { projectId: number }) {
  const titleId = useId();
  const { data: comments, isError, error, refetch } = useAdminCommentsQuery(projectId);
  const [hiding, setHiding] = useState<AdminComment | null>(null);
  const [message, setMessage] = useState<ActionMessage>(null);
  const [show, { isLoading: showing }] = useShowCommentMutation();

  const reshow = async (comment: AdminComment) => {
    if (showing) return;
    setMessage(null);
    try {
      await show({ id: comment.id, projectId }).unwrap();
      setMessage({ tone: 'success', text: PROJECT_MESSAGES.commentShown });
    } catch (failure) {
      setMessage({ tone: 'error', text: getErrorMessage(failure) });
    }
  };

  const toggle = (comment: AdminComment) => {
    if (comment.shown) {
      setMessage(null);
      setHiding(comment);
    } else {
      void reshow(comment);
    }
  };

  let body;
  if (comments) {
    body =
      comments.length === 0 ? (
        <p className="admin-empty">{PROJECT_MESSAGES.noComments}</p>
      ) : (
        <ol className="admin-comment-list" aria-label="応援コメント（新しい順）">
          {comments.map((comment) => (
            <CommentItem key={comment.id} comment={comment} onToggle={() => toggle(comment)} />
          ))}
        </ol>
      );
  } else if (isError) {
    body = <LoadError message={getErrorMessage(error)} onRetry={() => void refetch()} />;
  } else {
    body = <p role="status">コメントを読み込み中…</p>;
  }

  return (
    <section className="admin-section admin-comments" aria-labelledby={titleId}>
      <h2 id={titleId} className="admin-section__title">
        応援コメント
      </h2>
      <ActionNotice message={message} />
      {body}
      {hiding && (
        <HideDialog
          comment={hiding}
          projectId={projectId}
          onCancel={() => setHiding(null)}
          onDone={() => {
            setHiding(null);
            setMessage({ tone: 'success', text: PROJECT_MESSAGES.commentHidden });
          }}
        />
      )}
    </section>
  );
}
