import { useEffect, useId, useRef, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { LoadError } from '@/components/form/LoadError';
import { Notice } from '@/components/form/Notice';
import { NotFound } from '@/components/NotFound';
import { PageLoading } from '@/components/PageLoading';
import { Phrase } from '@/components/Phrase';
import { paths } from '@/config/paths';
import { useAppDispatch } from '@/app/hooks';
import { getErrorMessage } from '@/lib/apiError';
import {
  invalidateRefunds,
  useBulkRefundQuery,
  useRefundMutation,
  useRefundProjectsQuery,
  useRefundSalesQuery,
  useStartBulkRefundMutation,
  type BulkJob,
  type BulkMode,
  type RefundSale,
} from './api/refundsApi';
import { ConfirmDialog } from './ConfirmDialog';
import {
  BULK_OPTIONS,
  REFUND_MESSAGES,
  bulkAmounts,
  bulkRefundError,
  canBulkRefund,
  canRefund,
  confirmSingle,
  parseAmount,
  refundedLabel,
  singleRefundError,
} from './refundRules';
import './refund.css';

type Message = { tone: 'success' | 'info' | 'error'; text: string; detail?: string | null };
type Pending =
  | { kind: 'single'; sale: RefundSale; amount: number }
  | { kind: 'fee' }
  | { kind: 'balance' };

const yen = (amount: number) => `${amount.toLocaleString('ja-JP')}円`;
const PAYMENT_LABELS: Record<number, string> = { 1: 'カード', 2: '銀行振込', 3: 'コンビニ決済' };

function RefundCell({
  sale,
  raw,
  busy,
  onRefund,
}: {
  sale: RefundSale;
  raw: string;
  busy: boolean;
  onRefund: () => void;
}) {
  switch (sale.state) {
    case 'refundable':
      return (
        <button
          type="button"
          className="button button--primary refund-table__button"
          disabled={busy || !canRefund(raw)}
          onClick={onRefund}
          aria-label={`${sale.sponsorName}さんの支援を返金する`}
        >
          返金
        </button>
      );
    case 'refunded':
      return <span className="nowrap">{refundedLabel(sale.refundedAmount)}</span>;
    case 'needs_bank_details':
      return (
        <span className="refund-state refund-state--waiting" title={REFUND_MESSAGES.needsBankDetailsHelp}>
          {REFUND_MESSAGES.needsBankDetails}
        </span>
      );
    case 'unclaimed':
      return (
        <span className="refund-state" title={REFUND_MESSAGES.unclaimedHelp}>
          {REFUND_MESSAGES.unclaimed}
        </span>
      );
    case 'pending':
      return <span className="refund-state">{REFUND_MESSAGES.pending}</span>;
    default:
      return <span className="refund-state">{REFUND_MESSAGES.notRefundable}</span>;
  }
}

function BulkProgress({ job, sales }: { job: BulkJob; sales: RefundSale[] }) {
  const running = job.status === 'queued' || job.status === 'running';
  const nameOf = (saleId: number) => sales.find((s) => s.id === saleId)?.sponsorName ?? `支援 #${saleId}`;
  const failed = job.rows.filter((row) => row.status === 'failed');
  const waiting = job.rows.filter((row) => row.status === 'requires_action');
  const skipped = job.rows.filter((row) => row.status === 'skipped');
  return (
    <section className="refund-bulk__progress" aria-labelledby="bulk-progress-title">
      <h3 id="bulk-progress-title" className="refund-bulk__subtitle">
        {running ? '一括返金を実行中です' : '直近の一括返金'}
      </h3>
      <div
        className="refund-progress"
        role="progressbar"
        aria-label="一括返金の進み具合"
        aria-valuemin={0}
        aria-valuemax={job.total}
        aria-valuenow={job.done}
      >
        <div className="refund-progress__bar" style={{ width: `${job.total ? (job.done / job.total) * 100 : 100}%` }} />
      </div>
      <p className="refund-progress__text">
        {job.done} / {job.total} 件処理済み（成功 {job.succeeded}件・失敗 {job.failed}件）
      </p>
      {running && <p className="refund-progress__hint">この画面を閉じても返金は続きます。再び開くと進み具合を表示します。</p>}
      {failed.length > 0 && (
        <div className="refund-bulk__failures">
          <p>返金に失敗した支援（返金可能のまま残っています）：</p>
          <ul>
            {failed.map((row) => (
              <li key={row.saleId}>
                {nameOf(row.saleId)}（{yen(row.amount)}）：{row.reason ?? REFUND_MESSAGES.failed}
              </li>
            ))}
          </ul>
        </div>
      )}
      {waiting.length > 0 && (
        <p>
          口座情報の入力待ち {waiting.length}件：{REFUND_MESSAGES.needsBankDetailsHelp}
        </p>
      )}
      {skipped.length > 0 && <p>実行時に返金できなくなっていた支援 {skipped.length}件は対象外としました。</p>}
    </section>
  );
}

export function AdminRefundDetail() {
  const { slug = '' } = useParams();
  const dispatch = useAppDispatch();
  const selectId = useId();
  const specifiedId = useId();
  const projects = useRefundProjectsQuery();
  const project = projects.data?.find((p) => p.slug === slug);
  const projectId = project?.id ?? 0;
  const sales = useRefundSalesQuery(projectId, { skip: !project });
  const [pollBulk, setPollBulk] = useState(false);
  const bulk = useBulkRefundQuery(projectId, { skip: !project, pollingInterval: pollBulk ? 1000 : 0 });
  const [refund, refundState] = useRefundMutation();
  const [startBulk, startState] = useStartBulkRefundMutation();
  const [amounts, setAmounts] = useState<Record<number, string>>({});
  const [mode, setMode] = useState<BulkMode>(0);
  const [specified, setSpecified] = useState('');
  const [message, setMessage] = useState<Message | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const lastStatus = useRef<string | null>(null);

  const job = bulk.data ?? null;
  const running = job !== null && (job.status === 'queued' || job.status === 'running');

  // Poll while a run is under way (also after the page was closed and opened again); reload the table when it ends.
  useEffect(() => {
    setPollBulk(running);
    const previous = lastStatus.current;
    lastStatus.current = job?.status ?? null;
    if (previous && (previous === 'queued' || previous === 'running') && job && !running) {
      dispatch(invalidateRefunds());
      setAmounts({});
      setMode(0);
      setSpecified('');
      setMessage(
        job.status === 'succeeded'
          ? {
              // The server's sentence: the spec's success only when nothing failed, otherwise how many of each.
              tone: job.failed === 0 ? 'success' : job.succeeded === 0 ? 'error' : 'info',
              text: job.message ?? REFUND_MESSAGES.bulkDone,
            }
          : { tone: 'error', text: REFUND_MESSAGES.failed },
      );
    }
  }, [job, running, dispatch]);

  if (projects.isLoading) return <PageLoading />;
  if (projects.error) {
    return (
      <section className="page page--admin refund">
        <LoadError message={getErrorMessage(projects.error)} onRetry={() => void projects.refetch()} />
      </section>
    );
  }
  if (!project) return <NotFound />;

  const rows = sales.data ?? [];

  const changeMode = (next: BulkMode) => {
    // Changing the selection clears what was typed, then fills the refundable rows (spec §4).
    setMode(next);
    setSpecified('');
    setAmounts(bulkAmounts(next, '', rows));
    setMessage(null);
  };

  const changeSpecified = (raw: string) => {
    setSpecified(raw);
    setAmounts(bulkAmounts(3, raw, rows));
  };

  const askSingle = (sale: RefundSale) => {
    const raw = amounts[sale.id] ?? '';
    const problem = singleRefundError(raw, sale);
    if (problem) {
      setMessage({ tone: 'error', text: problem });
      return;
    }
    setMessage(null);
    setPending({ kind: 'single', sale, amount: parseAmount(raw) ?? 0 });
  };

  const doSingle = async (sale: RefundSale, amount: number) => {
    setPending(null);
    try {
      const result = await refund({ saleId: sale.id, amount }).unwrap();
      setAmounts((current) => ({ ...current, [sale.id]: '' }));
      setMessage({
        tone: result.outcome === 'succeeded' ? 'success' : result.outcome === 'failed' ? 'error' : 'info',
        text: result.message,
        detail: result.reason,
      });
    } catch (failure) {
      setMessage({ tone: 'error', text: REFUND_MESSAGES.failed, detail: getErrorMessage(failure) });
    }
  };

  const askBulk = () => {
    const problem = bulkRefundError(mode, specified, rows);
    if (problem) {
      setMessage({ tone: 'error', text: problem });
      return;
    }
    setMessage(null);
    // Full refunds first ask about the fee difference; every run then about the provider's balance.
    setPending(mode === 1 ? { kind: 'fee' } : { kind: 'balance' });
  };

  const doBulk = async () => {
    setPending(null);
    try {
      await startBulk({ projectId: project.id, mode, amount: mode === 3 ? parseAmount(specified) : null }).unwrap();
      lastStatus.current = 'queued';
      setPollBulk(true);
      void bulk.refetch();
      setMessage({ tone: 'info', text: '一括返金を開始しました。' });
    } catch (failure) {
      setMessage({ tone: 'error', text: getErrorMessage(failure) });
    }
  };

  return (
    <section className="page page--admin refund" aria-labelledby="refund-detail-title">
      <p className="refund__back">
        <Link to={paths.adminRefund.getHref()}>返金するプロジェクトの一覧へ</Link>
      </p>
      <h1 id="refund-detail-title" className="page__title">
        返金：
        <Phrase text={project.title} />
      </h1>

      {message && (
        <Notice tone={message.tone}>
          <p>{message.text}</p>
          {message.detail && <p className="refund__reason">理由：{message.detail}</p>}
        </Notice>
      )}

      <section className="refund-bulk" aria-labelledby="bulk-title">
        <h2 id="bulk-title" className="refund-bulk__title">
          一括返金
        </h2>
        <div className="refund-bulk__controls">
          <label htmlFor={selectId} className="field__label">
            返金方法
          </label>
          <select
            id={selectId}
            className="field__input refund-bulk__select"
            value={mode}
            disabled={running}
            onChange={(event) => changeMode(Number(event.target.value) as BulkMode)}
          >
            {BULK_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
          {mode === 3 && (
            <>
              <label htmlFor={specifiedId} className="field__label">
                1件あたりの返金額（円）
              </label>
              <input
                id={specifiedId}
                className="field__input refund-bulk__amount"
                type="number"
                inputMode="numeric"
                min={0}
                value={specified}
                placeholder={REFUND_MESSAGES.amountPlaceholder}
                onChange={(event) => changeSpecified(event.target.value)}
              />
            </>
          )}
          <button
            type="button"
            className="button button--primary"
            disabled={running || startState.isLoading || !canBulkRefund(mode, specified)}
            onClick={askBulk}
          >
            一括返金
          </button>
        </div>
        {mode === 1 && (
          <p className="refund-bulk__note" role="note">
            {REFUND_MESSAGES.feeNote}
          </p>
        )}
        {job && <BulkProgress job={job} sales={rows} />}
      </section>

      <h2 className="refund__table-title">支援一覧</h2>
      {sales.isLoading && <PageLoading />}
      {sales.error && <LoadError message={getErrorMessage(sales.error)} onRetry={() => void sales.refetch()} />}
      {sales.data && rows.length === 0 && <p>このプロジェクトにはまだ支援がありません。</p>}
      {rows.length > 0 && (
        <div className="refund-table__scroll admin-scroll" tabIndex={0} role="region" aria-label="支援一覧（横にスクロールできます）">
          <table className="refund-table">
            <thead>
              <tr>
                <th scope="col">支援者名</th>
                <th scope="col" className="admin-num">金額（税込）</th>
                <th scope="col">コース</th>
                <th scope="col" className="admin-num">口数</th>
                <th scope="col">返金</th>
                <th scope="col">返金額</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((sale) => (
                <tr key={sale.id} data-sale-id={sale.id}>
                  <th scope="row">
                    <Phrase text={sale.sponsorName || '（名前なし）'} />
                    <span className="refund-table__meta">{PAYMENT_LABELS[sale.paymentType] ?? ''}</span>
                    {sale.refundRequired && <strong className="refund-badge">入金期限後の入金（要返金）</strong>}
                  </th>
                  <td className="admin-num">{yen(sale.total)}</td>
                  <td>
                    <Phrase text={sale.course ?? sale.returnTitle} />
                  </td>
                  <td className="admin-num">{sale.lot}</td>
                  <td>
                    <RefundCell
                      sale={sale}
                      raw={amounts[sale.id] ?? ''}
                      busy={refundState.isLoading || running}
                      onRefund={() => askSingle(sale)}
                    />
                    {sale.state === 'refundable' && sale.lastFailure && (
                      <p className="refund-table__failure">
                        {REFUND_MESSAGES.failed}：{sale.lastFailure}
                      </p>
                    )}
                  </td>
                  <td className="refund-table__amount-cell">
                    {sale.state === 'refundable' ? (
                      <input
                        className="field__input refund-table__amount"
                        type="number"
                        inputMode="numeric"
                        min={1}
                        max={sale.refundableAmount}
                        value={amounts[sale.id] ?? ''}
                        placeholder={REFUND_MESSAGES.amountPlaceholder}
                        aria-label={`${sale.sponsorName}さんへの返金額（円）`}
                        onChange={(event) => setAmounts((current) => ({ ...current, [sale.id]: event.target.value }))}
                      />
                    ) : sale.openRefundAmount !== null ? (
                      <span className="nowrap">{yen(sale.openRefundAmount)}</span>
                    ) : sale.refundedAmount > 0 ? (
                      <span className="nowrap">{yen(sale.refundedAmount)}</span>
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {pending?.kind === 'single' && (
        <ConfirmDialog
          title="返金の確認"
          message={confirmSingle(pending.amount)}
          confirmLabel="返金する"
          onCancel={() => setPending(null)}
          onConfirm={() => void doSingle(pending.sale, pending.amount)}
        />
      )}
      {pending?.kind === 'fee' && (
        <ConfirmDialog
          title="決済手数料の差額の確認"
          message={REFUND_MESSAGES.confirmFee}
          confirmLabel="確認した"
          onCancel={() => setPending(null)}
          onConfirm={() => setPending({ kind: 'balance' })}
        />
      )}
      {pending?.kind === 'balance' && (
        <ConfirmDialog
          title="決済事業者の残高の確認"
          message={REFUND_MESSAGES.confirmBalance}
          confirmLabel="確認した・一括返金する"
          onCancel={() => setPending(null)}
          onConfirm={() => void doBulk()}
        />
      )}
    </section>
  );
}
