import { useEffect, useId, useRef, useState } from 'react';
import { Phrase } from '@/components/Phrase';
import { getErrorMessage } from '@/lib/apiError';
import {
  useAddReturnMutation,
  useDeleteReturnMutation,
  useReorderReturnsMutation,
  useUpdateReturnMutation,
} from '../api/projectsApi';
import { ConfirmDialog } from '../ConfirmDialog';
import { formatCount, formatYen } from '../format';
import { ReturnForm } from './ReturnForm';
import { PRICE_TAX_NOTE, PROJECT_MESSAGES, movedOrder, returnTypeLabel } from './rules';
import type { AdminProject, AdminReturn, ReturnInput } from './types';
import { ActionNotice, type ActionMessage } from '../components/ActionNotice';

type Editing = { kind: 'new' } | { kind: 'edit'; ret: AdminReturn } | null;
/** The button to give the focus back to once the list shows `order`. */
type Refocus = { id: number; step: -1 | 1; order: string } | null;

const orderOf = (returns: readonly AdminReturn[]) => returns.map((r) => r.id).join(',');

const stockOf = (ret: AdminReturn) =>
  `${formatCount(ret.lotsTaken)} / ${ret.stockLimit === null ? '無制限' : formatCount(ret.stockLimit)}`;

const deliveryOf = (month: string | null) => {
  const match = month ? /^(\d{4})-(\d{2})$/.exec(month) : null;
  return match ? `${match[1]}年${Number(match[2])}月` : null;
};

function ReturnItem({
  ret,
  project,
  index,
  count,
  busy,
  onEdit,
  onMove,
  onDelete,
  registerButton,
}: {
  ret: AdminReturn;
  project: AdminProject;
  index: number;
  count: number;
  busy: boolean;
  onEdit: () => void;
  onMove: (step: -1 | 1) => void;
  onDelete: () => void;
  registerButton: (step: -1 | 1, element: HTMLButtonElement | null) => void;
}) {
  const titleId = useId();
  const noteId = useId();
  const delivery = deliveryOf(ret.deliveryMonth);
  return (
    <li className="admin-return">
      <article aria-labelledby={titleId}>
        <h3 id={titleId} className="admin-return__title">
          <Phrase text={ret.title} />
        </h3>
        <p className="admin-return__badges">
          {ret.disabled && <span className="admin-badge admin-badge--alert">受付停止</span>}
          {ret.hidden && <span className="admin-badge admin-badge--muted">非表示</span>}
          {ret.backed && <span className="admin-badge admin-badge--info">支援あり</span>}
          {ret.monthly && <span className="admin-badge admin-badge--info">月額</span>}
          {ret.course && <span className="admin-badge admin-badge--muted">コース{ret.course}</span>}
        </p>
        <dl className="admin-return__facts">
          <div>
            <dt>金額</dt>
            <dd>
              <span className="nowrap">{formatYen(ret.price)}</span>
              <span className="admin-return__sub nowrap">（{PRICE_TAX_NOTE[project.taxHandling]}）</span>
            </dd>
          </div>
          <div>
            <dt>種類</dt>
            <dd>{returnTypeLabel(ret.returnType)}</dd>
          </div>
          <div>
            <dt>在庫</dt>
            <dd className="nowrap">{stockOf(ret)}</dd>
          </div>
          {delivery && (
            <div>
              <dt>お届け予定</dt>
              <dd className="nowrap">{delivery}</dd>
            </div>
          )}
          {ret.onlyFor && (
            <div>
              <dt>公開先</dt>
              <dd className="admin-return__address">{ret.onlyFor}</dd>
            </div>
          )}
        </dl>
        <div className="admin-return__actions">
          <button type="button" className="button button--small" aria-describedby={titleId} onClick={onEdit}>
            編集
          </button>
          <button
            type="button"
            className="button button--small"
            ref={(element) => registerButton(-1, element)}
            aria-describedby={titleId}
            disabled={busy || index === 0}
            onClick={() => onMove(-1)}
          >
            上へ
          </button>
          <button
            type="button"
            className="button button--small"
            ref={(element) => registerButton(1, element)}
            aria-describedby={titleId}
            disabled={busy || index === count - 1}
            onClick={() => onMove(1)}
          >
            下へ
          </button>
          <button
            type="button"
            className="button button--small button--danger"
            aria-describedby={ret.backed ? `${titleId} ${noteId}` : titleId}
            title={ret.backed ? PROJECT_MESSAGES.backedNoDelete : undefined}
            disabled={busy || ret.backed}
            onClick={onDelete}
          >
            削除
          </button>
        </div>
        {ret.backed && (
          <p id={noteId} className="admin-note admin-return__note">
            {PROJECT_MESSAGES.backedNoDelete}
          </p>
        )}
      </article>
    </li>
  );
}

/** `リターン`: the project's returns in position order, their order, editing, adding and deleting. */
export function Returns({ project }: { project: AdminProject }) {
  const titleId = useId();
  const [editing, setEditing] = useState<Editing>(null);
  const [message, setMessage] = useState<ActionMessage>(null);
  const [deleting, setDeleting] = useState<AdminReturn | null>(null);
  const [refocus, setRefocus] = useState<Refocus>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const moveButtons = useRef(new Map<string, HTMLButtonElement>());
  const [addReturn] = useAddReturnMutation();
  const [updateReturn] = useUpdateReturnMutation();
  const [deleteReturn, deleteState] = useDeleteReturnMutation();
  const [reorder, reorderState] = useReorderReturnsMutation();
  const busy = deleteState.isLoading || reorderState.isLoading;
  const returns = project.returns;

  // After a move the same button of the moved return keeps the focus (the other one at either end of the list).
  useEffect(() => {
    if (!refocus || orderOf(project.returns) !== refocus.order) return;
    const same = moveButtons.current.get(`${refocus.id}:${refocus.step}`);
    const other = moveButtons.current.get(`${refocus.id}:${-refocus.step}`);
    (same && !same.disabled ? same : other)?.focus();
    setRefocus(null);
  }, [refocus, project]);

  const closeForm = () => {
    setEditing(null);
    addButton.current?.focus();
  };

  const save = async (input: ReturnInput) => {
    if (editing?.kind === 'edit') {
      await updateReturn({ projectId: project.id, returnId: editing.ret.id, input }).unwrap();
    } else {
      await addReturn({ projectId: project.id, input }).unwrap();
    }
    setMessage({ tone: 'success', text: PROJECT_MESSAGES.returnSaved });
    closeForm();
  };

  const move = async (index: number, step: -1 | 1) => {
    const moved = returns[index];
    if (!moved) return;
    setMessage(null);
    try {
      const result = await reorder({
        projectId: project.id,
        input: { returnIds: movedOrder(returns.map((r) => r.id), index, step) },
      }).unwrap();
      setMessage({ tone: 'success', text: PROJECT_MESSAGES.returnsReordered });
      setRefocus({ id: moved.id, step, order: orderOf(result.returns) });
    } catch (error) {
      setMessage({ tone: 'error', text: getErrorMessage(error) });
    }
  };

  const remove = async (ret: AdminReturn) => {
    setDeleting(null);
    setMessage(null);
    try {
      await deleteReturn({ projectId: project.id, returnId: ret.id }).unwrap();
      setMessage({ tone: 'success', text: PROJECT_MESSAGES.returnDeleted });
      addButton.current?.focus();
    } catch (error) {
      setMessage({ tone: 'error', text: getErrorMessage(error) });
    }
  };

  return (
    <section className="admin-section admin-returns" aria-labelledby={titleId}>
      <h2 id={titleId} className="admin-section__title">
        リターン
      </h2>
      <ActionNotice message={message} />
      {returns.length === 0 ? (
        <p className="admin-empty">{PROJECT_MESSAGES.noReturns}</p>
      ) : (
        <ol className="admin-return-list" aria-label="リターン（表示順）">
          {returns.map((ret, index) => (
            <ReturnItem
              key={ret.id}
              ret={ret}
              project={project}
              index={index}
              count={returns.length}
              busy={busy}
              onEdit={() => {
                setMessage(null);
                setEditing({ kind: 'edit', ret });
              }}
              onMove={(step) => void move(index, step)}
              onDelete={() => setDeleting(ret)}
              registerButton={(step, element) => {
                const key = `${ret.id}:${step}`;
                if (element) moveButtons.current.set(key, element);
                else moveButtons.current.delete(key);
              }}
            />
          ))}
        </ol>
      )}
      <button
        type="button"
        ref={addButton}
        className="button button--block"
        onClick={() => {
          setMessage(null);
          setEditing({ kind: 'new' });
        }}
      >
        リターンを追加
      </button>
      {editing && (
        <ReturnForm
          key={editing.kind === 'edit' ? editing.ret.id : 'new'}
          ret={editing.kind === 'edit' ? editing.ret : null}
          onSave={save}
          onCancel={closeForm}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title="リターンの削除"
          message={`「${deleting.title}」を削除します。よろしいですか？`}
          confirmLabel="削除する"
          onCancel={() => setDeleting(null)}
          onConfirm={() => void remove(deleting)}
        />
      )}
    </section>
  );
}
