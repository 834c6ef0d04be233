import { useId, useRef, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router-dom';
import { Modal } from '@/components/Modal';
import { LoadError } from '@/components/form/LoadError';
import { Notice } from '@/components/form/Notice';
import { NotFound } from '@/components/NotFound';
import { PageLoading } from '@/components/PageLoading';
import { Phrase } from '@/components/Phrase';
import { paths } from '@/config/paths';
import { getApiErrorBody, getErrorMessage } from '@/lib/apiError';
import { isNotFoundError, parseProjectId } from './AdminProjectEdit';
import {
  useDeliveriesQuery,
  useExportDeliveriesMutation,
  useMarkDeliveriesMutation,
  type Delivery,
  type DeliveryFilter,
} from './api/deliveriesApi';
import { DELIVERY_MESSAGES, MAX_SELECTION, NOTE_MAX, markedMessage } from './deliveries/messages';
import { formatCount, formatDay, formatInstant, formatYen, tokyoDay } from './format';
import { AdminField } from './projects/fields';
import { fieldMessagesOf, oneLine, type FieldMessages } from './projects/rules';
import './deliveries/deliveries.css';
import { ActionNotice, type ActionMessage } from './components/ActionNotice';

const STATE_FILTERS: readonly { value: DeliveryFilter; label: string }[] = [
  { value: 'all', label: 'すべて' },
  { value: 'unshipped', label: '未発送' },
  { value: 'shipped', label: '発送済み' },
];

const MARK_FIELDS = ['saleIds', 'shippedOn', 'note'] as const;
type MarkField = (typeof MARK_FIELDS)[number];

/** What the dialog changes: these sales, to 発送済み (with a day and a note) or back to 未発送. */
interface MarkRequest {
  sales: Delivery[];
  shipped: boolean;
}

const nameOf = (delivery: Delivery): string => delivery.displayname ?? delivery.email;

function MarkDialog({
  projectId,
  request,
  onDone,
  onCancel,
}: {
  projectId: number;
  request: MarkRequest;
  onDone: (text: string) => void;
  onCancel: () => void;
}) {
  const [shippedOn, setShippedOn] = useState(() => tokyoDay(new Date()));
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<FieldMessages<MarkField>>({});
  const [mark, { isLoading }] = useMarkDeliveriesMutation();
  const dayRef = useRef<HTMLInputElement>(null);
  const noteRef = useRef<HTMLInputElement>(null);
  const { sales, shipped } = request;
  const one = sales.length === 1 ? sales[0] : undefined;
  const target = one ? `${nameOf(one)}さん（支援ID ${one.saleId}）` : `選択した${formatCount(sales.length)}件`;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (isLoading) return;
    setErrors({});
    const saleIds = sales.map((s) => s.saleId);
    const input = shipped
      ? { saleIds, state: 'shipped' as const, shippedOn, note: note.trim() === '' ? null : note.trim() }
      : { saleIds, state: 'unshipped' as const };
    try {
      const result = await mark({ projectId, input }).unwrap();
      onDone(markedMessage(shipped, result));
    } catch (failure) {
      const messages = fieldMessagesOf(getApiErrorBody(failure), MARK_FIELDS, DELIVERY_MESSAGES.markFailed);
      setErrors(messages);
      if (messages.shippedOn) dayRef.current?.focus();
      else if (messages.note) noteRef.current?.focus();
    }
  };

  const formError = errors.form ?? errors.saleIds;
  return (
    <Modal title={shipped ? '発送済みにする' : '未発送に戻す'} onClose={onCancel}>
      <form className="delivery-mark" noValidate onSubmit={(event) => void submit(event)}>
        <p className="modal__message">
          {shipped
            ? `${target}を発送済みにします。はじめて発送済みになる支援には、お知らせメールが送られます。`
            : `${target}を未発送に戻します。メールは送られません。`}
        </p>
        {formError && (
          <Notice tone="error">
            <p>{formError}</p>
          </Notice>
        )}
        {shipped && (
          <>
            <AdminField label="発送日" error={errors.shippedOn}>
              {({ id, describedBy, invalid }) => (
                <input
                  id={id}
                  ref={dayRef}
                  type="date"
                  className="field__input"
                  value={shippedOn}
                  max={tokyoDay(new Date())}
                  required
                  aria-invalid={invalid}
                  aria-describedby={describedBy}
                  onChange={(e) => setShippedOn(e.target.value)}
                />
              )}
            </AdminField>
            <AdminField label="発送メモ・追跡番号" optional error={errors.note} hint={DELIVERY_MESSAGES.noteHint}>
              {({ id, describedBy, invalid }) => (
                <input
                  id={id}
                  ref={noteRef}
                  className="field__input"
                  value={note}
                  maxLength={NOTE_MAX}
                  aria-invalid={invalid}
                  aria-describedby={describedBy}
                  onChange={(e) => setNote(oneLine(e.target.value))}
                />
              )}
            </AdminField>
          </>
        )}
        <div className="refund-confirm__actions">
          <button type="button" className="button" onClick={onCancel}>
            キャンセル
          </button>
          <button type="submit" className="button button--primary" disabled={isLoading}>
            {isLoading ? '登録しています…' : shipped ? '発送済みとして登録する' : '未発送に戻す'}
          </button>
        </div>
      </form>
    </Modal>
  );
}

function AddressCell({ delivery }: { delivery: Delivery }) {
  const address = delivery.address;
  if (!address) return <span className="admin-note">なし</span>;
  return (
    <address className="delivery-address">
      <span>〒{address.zip}</span>
      <span>
        {address.pref}
        {address.city}
        {address.address}
        {address.building ? ` ${address.building}` : ''}
      </span>
      <span>
        {address.name}（{address.telNumber}）
      </span>
    </address>
  );
}

function DeliveryStateCell({ delivery }: { delivery: Delivery }) {
  const { delivery: state } = delivery;
  if (state.state === 'unshipped') return <span className="admin-badge admin-badge--muted">{state.label}</span>;
  return (
    <>
      <span className="admin-badge admin-badge--info">{state.label}</span>
      {state.shippedOn && <span className="delivery-state__day nowrap">{formatDay(state.shippedOn)}</span>}
      {state.note && <span className="delivery-state__note">{state.note}</span>}
    </>
  );
}

function DeliveryRow({
  delivery,
  selected,
  onSelect,
  onMark,
}: {
  delivery: Delivery;
  selected: boolean;
  onSelect: (selected: boolean) => void;
  onMark: (shipped: boolean) => void;
}) {
  const label = `${nameOf(delivery)}さんの支援（支援ID ${delivery.saleId}）`;
  const shipped = delivery.delivery.state === 'shipped';
  return (
    <tr aria-selected={selected}>
      <td>
        <input type="checkbox" checked={selected} aria-label={`${label}を選択`} onChange={(e) => onSelect(e.target.checked)} />
      </td>
      <th scope="row" className="admin-num">
        {delivery.saleId}
      </th>
      <td className="admin-time">
        <time dateTime={delivery.createdAt}>{formatInstant(delivery.createdAt)}</time>
      </td>
      <td>
        <Phrase text={delivery.returnTitle} />
        <span className="delivery-lot nowrap">×{delivery.lot}口</span>
      </td>
      <td>
        <span className="delivery-name">{delivery.displayname ?? '—'}</span>
        <span className="delivery-email">{delivery.email}</span>
      </td>
      <td>
        <AddressCell delivery={delivery} />
      </td>
      <td>
        {delivery.additional ? (
          <>
            <span className="delivery-question">{delivery.additional.label}</span>
            <span>{delivery.additional.value}</span>
          </>
        ) : (
          '—'
        )}
      </td>
      <td>
        <span className="nowrap">{delivery.paymentLabel}</span>
        <span className="delivery-total nowrap">{formatYen(delivery.total)}</span>
      </td>
      <td className="delivery-state">
        <DeliveryStateCell delivery={delivery} />
      </td>
      <td>
        <button type="button" className="button button--small" aria-label={`${label}を${shipped ? '未発送に戻す' : '発送済みにする'}`} onClick={() => onMark(!shipped)}>
          {shipped ? '未発送に戻す' : '発送済みにする'}
        </button>
      </td>
    </tr>
  );
}

/** `/admin/projects/:id/deliveries`: who must receive which return, its CSV, and 未発送 / 発送済み per sale. */
export function AdminDeliveries() {
  const titleId = useId();
  const { id: raw } = useParams();
  const projectId = parseProjectId(raw);
  const [returnId, setReturnId] = useState<number | null>(null);
  const [state, setState] = useState<DeliveryFilter>('all');
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [request, setRequest] = useState<MarkRequest | null>(null);
  const [message, setMessage] = useState<ActionMessage>(null);
  const { data, isLoading, isFetching, isError, error, refetch } = useDeliveriesQuery(
    { projectId: projectId ?? 0, returnId, state, page },
    { skip: projectId === null },
  );
  const [exportCsv, exporting] = useExportDeliveriesMutation();

  if (projectId === null || isNotFoundError(error)) return <NotFound />;
  if (isLoading) return <PageLoading />;
  if (!data) {
    return (
      <section className="page page--admin">
        <LoadError message={getErrorMessage(error)} onRetry={() => void refetch()} />
      </section>
    );
  }

  const rows = data.deliveries;
  const pages = Math.max(1, Math.ceil(data.total / data.perPage));
  const chosen = rows.filter((row) => selected.has(row.saleId));
  const allChosen = rows.length > 0 && chosen.length === rows.length;

  const refilter = (next: () => void) => {
    next();
    setPage(1);
    setSelected(new Set());
  };
  const select = (saleId: number, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(saleId);
    else next.delete(saleId);
    setSelected(next);
  };
  const download = async () => {
    setMessage(null);
    try {
      await exportCsv({ projectId, returnId, state }).unwrap();
    } catch (failure) {
      setMessage({ tone: 'error', text: getErrorMessage(failure) });
    }
  };

  return (
    <section className="page page--admin deliveries-page" aria-labelledby={titleId}>
      <p className="admin-projects__back">
        <Link to={paths.adminProjectEdit.getHref(projectId)}>プロジェクトの編集へ</Link>
      </p>
      <h1 id={titleId} className="page__title">
        リターンの発送
      </h1>
      <p className="admin-project-edit__name">
        <Phrase text={data.project.title} />
      </p>
      <p className="admin-note">{DELIVERY_MESSAGES.intro}</p>
      <form className="deliveries-filter" aria-label="絞り込み" onSubmit={(e) => e.preventDefault()}>
        <AdminField label="リターン">
          {({ id }) => (
            <select
              id={id}
              className="field__input"
              value={returnId ?? ''}
              onChange={(e) => refilter(() => setReturnId(e.target.value === '' ? null : Number(e.target.value)))}
            >
              <option value="">すべてのリターン</option>
              {data.returns.map((ret) => (
                <option key={ret.id} value={ret.id}>
                  {`${ret.title}（発送済み ${ret.shipped}/${ret.toDeliver}件）`}
                </option>
              ))}
            </select>
          )}
        </AdminField>
        <AdminField label="発送状況">
          {({ id }) => (
            <select
              id={id}
              className="field__input"
              value={state}
              onChange={(e) => refilter(() => setState(e.target.value as DeliveryFilter))}
            >
              {STATE_FILTERS.map((filter) => (
                <option key={filter.value} value={filter.value}>
                  {filter.label}
                </option>
              ))}
            </select>
          )}
        </AdminField>
      </form>
      <div className="deliveries-bar">
        <button type="button" className="button" onClick={() => void download()} disabled={exporting.isLoading}>
          {DELIVERY_MESSAGES.download}
        </button>
        {exporting.isLoading && (
          <span className="admin-note" role="status">
            {DELIVERY_MESSAGES.downloading}
          </span>
        )}
        <button
          type="button"
          className="button button--primary"
          disabled={chosen.length === 0 || chosen.length > MAX_SELECTION}
          onClick={() => {
            setMessage(null);
            setRequest({ sales: chosen, shipped: true });
          }}
        >
          {`選択した${formatCount(chosen.length)}件を発送済みにする`}
        </button>
      </div>
      <ActionNotice message={message} />
      {isError && <LoadError message={getErrorMessage(error)} onRetry={() => void refetch()} />}
      {rows.length === 0 ? (
        <p className="admin-empty">{DELIVERY_MESSAGES.empty}</p>
      ) : (
        <div
          className="admin-scroll"
          tabIndex={0}
          role="region"
          aria-label="発送の一覧（横にスクロールできます）"
          aria-busy={isFetching || undefined}
        >
          <table className="admin-table deliveries-table">
            <caption className="visually-hidden">{`発送の一覧・${formatCount(data.total)}件中 ${page}ページ目`}</caption>
            <thead>
              <tr>
                <th scope="col">
                  <input
                    type="checkbox"
                    checked={allChosen}
                    aria-label="このページの支援をすべて選択"
                    onChange={(e) => setSelected(e.target.checked ? new Set(rows.map((r) => r.saleId)) : new Set())}
                  />
                </th>
                <th scope="col">支援ID</th>
                <th scope="col">支援日</th>
                <th scope="col">リターン・口数</th>
                <th scope="col">表示名・メール</th>
                <th scope="col">お届け先</th>
                <th scope="col">追加質問の回答</th>
                <th scope="col">支払い</th>
                <th scope="col">発送状況</th>
                <th scope="col">操作</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <DeliveryRow
                  key={row.saleId}
                  delivery={row}
                  selected={selected.has(row.saleId)}
                  onSelect={(on) => select(row.saleId, on)}
                  onMark={(shipped) => {
                    setMessage(null);
                    setRequest({ sales: [row], shipped });
                  }}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav className="deliveries-pages" aria-label="ページ">
        <button type="button" className="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
          前のページ
        </button>
        <span>{`${formatCount(data.total)}件・${page} / ${pages}ページ`}</span>
        <button type="button" className="button" disabled={page >= pages} onClick={() => setPage(page + 1)}>
          次のページ
        </button>
      </nav>
      {request && (
        <MarkDialog
          projectId={projectId}
          request={request}
          onCancel={() => setRequest(null)}
          onDone={(text) => {
            setRequest(null);
            setSelected(new Set());
            setMessage({ tone: 'success', text });
          }}
        />
      )}
    </section>
  );
}
