import { useId, useState } from 'react';
import { LoadError } from '@/components/form/LoadError';
import { getErrorMessage } from '@/lib/apiError';
import {
  useAdminSupportersQuery,
  useHideSupporterNameMutation,
  useShowSupporterNameMutation,
} from '../api/projectsApi';
import { formatInstant, formatYen } from '../format';
import { HideReasonDialog } from './HideReasonDialog';
import { PROJECT_MESSAGES } from './rules';
import type { AdminSupporter } from './types';
import { ActionNotice, type ActionMessage } from '../components/ActionNotice';

const HIDE_FAILED = '名前を匿名にできませんでした。時間をおいて再度お試しください。';

/** How the operator refers to a supporter: the name they gave, else their address. */
const labelOf = (supporter: AdminSupporter): string => supporter.name ?? supporter.email;

function SupporterItem({ supporter, onToggle }: { supporter: AdminSupporter; onToggle: () => void }) {
  const nameId = useId();
  const hidden = supporter.hiddenReason !== null;
  return (
    <li className="admin-comment">
      <article aria-labelledby={nameId}>
        <div className="admin-comment__head">
          <h3 id={nameId} className="admin-comment__author">
            {supporter.name ?? '（名前なし）'}
          </h3>
          <span className="admin-comment__date nowrap">{formatYen(supporter.amount)}</span>
        </div>
        <p className="admin-comment__email">{supporter.email}</p>
        <p className="admin-comment__state">
          {hidden ? (
            <span className="admin-badge admin-badge--muted">匿名（運営が非表示）</span>
          ) : supporter.askedAnonymous ? (
            <span className="admin-badge admin-badge--muted">匿名（本人の希望）</span>
          ) : (
            <span className="admin-badge admin-badge--info">名前を公開中</span>
          )}
        </p>
        {hidden && (
          <p className="admin-comment__reason">
            非表示の理由：{supporter.hiddenReason}
            {supporter.hiddenAt && `（${formatInstant(supporter.hiddenAt)}）`}
          </p>
        )}
        <div className="admin-comment__actions">
          {/* As for comments: one button whose action follows the state, so the focus stays on it. */}
          <button type="button" className="button button--small" aria-describedby={nameId} onClick={onToggle}>
            {hidden ? '名前を再表示する' : '匿名にする'}
          </button>
        </div>
      </article>
    </li>
  );
}

/**
 * `支援者の表示名`: the project's supporters, largest amount first; the operator shows a supporter as 匿名 on the
 * project's walls, lists and comments (terms 第18条), with a reason, and shows the name again.
 */
export function SupporterNames({ projectId }: { projectId: number }) {
  const titleId = useId();
  const { data: supporters, isError, error, refetch } = useAdminSupportersQuery(projectId);
  const [hiding, setHiding] = useState<AdminSupporter | null>(null);
  const [message, setMessage] = useState<ActionMessage>(null);
  const [hide] = useHideSupporterNameMutation();
  const [show, { isLoading: showing }] = useShowSupporterNameMutation();

  const reshow = async (supporter: AdminSupporter) => {
    if (showing) return;
    setMessage(null);
    try {
      await show({ projectId, userId: supporter.userId }).unwrap();
      setMessage({ tone: 'success', text: PROJECT_MESSAGES.supporterNameShown(labelOf(supporter)) });
    } catch (failure) {
      setMessage({ tone: 'error', text: getErrorMessage(failure) });
    }
  };

  const toggle = (supporter: AdminSupporter) => {
    if (supporter.hiddenReason === null) {
      setMessage(null);
      setHiding(supporter);
    } else {
      void reshow(supporter);
    }
  };

  let body;
  if (supporters) {
    body =
      supporters.length === 0 ? (
        <p className="admin-empty">{PROJECT_MESSAGES.noSupporters}</p>
      ) : (
        <ol className="admin-comment-list" aria-label="支援者（支援額の多い順）">
          {supporters.map((supporter) => (
            <SupporterItem key={supporter.userId} supporter={supporter} onToggle={() => toggle(supporter)} />
          ))}
        </ol>
      );
  } else if (isError) {
    body = <LoadError message={getErrorMessage(error)} onRetry={() => void refetch()} />;
  } else {
    body = <p role="status">支援者を読み込み中…</p>;
  }

  return (
    <section className="admin-section admin-comments" aria-labelledby={titleId}>
      <h2 id={titleId} className="admin-section__title">
        支援者の表示名
      </h2>
      <p className="admin-note">
        不適切な名前は、支援者一覧・スポンサー欄・応援コメントで「匿名」と表示できます（利用規約第18条）。
      </p>
      <ActionNotice message={message} />
      {body}
      {hiding && (
        <HideReasonDialog
          title="支援者の名前を匿名にする"
          failure={HIDE_FAILED}
          hide={(reason) => hide({ projectId, userId: hiding.userId, input: { reason } }).unwrap()}
          onCancel={() => setHiding(null)}
          onDone={() => {
            setHiding(null);
            setMessage({ tone: 'success', text: PROJECT_MESSAGES.supporterNameHidden(labelOf(hiding)) });
          }}
        >
          <p className="modal__message">
            {labelOf(hiding)}さんの名前を、このプロジェクトの公開ページで「匿名」と表示します。理由は操作の記録に残ります。あとから再表示できます。
          </p>
        </HideReasonDialog>
      )}
    </section>
  );
}
