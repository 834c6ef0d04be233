import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Modal } from '@/components/Modal';
import { Notice } from '@/components/form/Notice';
import { PageLoading } from '@/components/PageLoading';
import { paths } from '@/config/paths';
import { getErrorMessage } from '@/lib/apiError';
import { useSupportStatusQuery } from '../api/paymentApi';
import { BankTransferDetails } from '@/components/bank/BankTransferDetails';
import { KonbiniVoucherDetails } from '@/components/konbini/KonbiniVoucherDetails';
import type { SupportResult } from '../api/types';
import { INVALID_TITLE, InvalidMessage, PaymentFlow, Retitle, type FlowContext } from '../components/PaymentFlow';
import { formatYen } from '@/lib/format';
import { EXTRA_AMOUNT_LABEL } from '../extraAmount';
import { isMonthlyReturn, PAYMENT_MESSAGES } from '../messages';
import { readReceipt } from '../supportRecord';

/** The complete page's title when the support was not placed (canceled, or the payment failed). */
export const NOT_COMPLETED_TITLE = 'お申し込みが完了しませんでした';

function Backed({ result }: { result: SupportResult }) {
  const { sale } = result;
  return (
    <dl className="confirm-list">
      <div>
        <dt>ご注文番号</dt>
        <dd>
          <span className="nowrap">{sale.id}</span>
        </dd>
      </div>
      <div>
        <dt>プロジェクト</dt>
        <dd>{sale.projectTitle}</dd>
      </div>
      <div>
        <dt>リターン</dt>
        <dd>
          {sale.returnTitle}（{sale.lot}口）
        </dd>
      </div>
      {sale.extraAmount > 0 && (
        <div>
          <dt>{EXTRA_AMOUNT_LABEL}</dt>
          <dd>
            <span className="nowrap">{formatYen(sale.extraAmount)}</span>
          </dd>
        </div>
      )}
      <div>
        <dt>お支払い金額</dt>
        <dd>
          <span className="nowrap">
            {formatYen(sale.total)}（{sale.taxLabel === '非課税' ? '非課税' : '税込'}）
          </span>
        </dd>
      </div>
    </dl>
  );
}

function Result({ flow, result, onRefresh }: { flow: FlowContext; result: SupportResult; onRefresh: () => void }) {
  const { sale, bankTransfer, konbini } = result;
  const projectLink = (
    <Link className="button button--block" to={paths.project.getHref(flow.projectSlug)}>
      プロジェクトページへ戻る
    </Link>
  );
  const accountLink = flow.isMember && (
    <Link className="button button--block" to={paths.account.getHref()}>
      マイページへ
    </Link>
  );

  /** An accepted support: its notice, what to do next, what was backed, and the ways on. */
  const accepted = (notice: string, next: ReactNode) => (
    <>
      <Notice tone="success">
        <p>{notice}</p>
      </Notice>
      {next}
      <Backed result={result} />
      <div className="form__actions">
        {projectLink}
        {accountLink}
      </div>
    </>
  );

  // A monthly return's sale started a monthly support. The status call (after a reload, or after 3-D Secure)
  // does not name the subscription, so the return says it as well.
  const monthly = result.subscriptionId != null || isMonthlyReturn(flow.ret);
  if (sale.status === 'succeeded' && monthly) {
    return accepted(
      PAYMENT_MESSAGES.subscriptionRegistered,
      <p>毎月のご支援ありがとうございます。初回分のお支払いが完了しました。次回からは毎月同じカードでお支払いいただきます。停止はマイページの「毎月のご支援」から行えます。</p>,
    );
  }
  if (sale.status === 'succeeded') {
    return accepted('ご支援ありがとうございました。', <p>ご支援の内容をメールでお送りしました。</p>);
  }
  if (sale.status === 'awaiting_bank_transfer' && bankTransfer) {
    return accepted(
      'お申し込みを受け付けました。以下の口座へお振り込みください。',
      <>
        <BankTransferDetails bank={bankTransfer} />
        <p>お振込先は、ご登録のメールアドレスにもお送りしました。ご入金の確認をもってご支援の完了となります。</p>
      </>,
    );
  }
  if (sale.status === 'requires_action' && konbini) {
    return accepted(
      'お申し込みを受け付けました。以下の方法でコンビニエンスストアでお支払いください。',
      <>
        <KonbiniVoucherDetails voucher={konbini} amount={sale.total} />
        <p>お支払い方法は、ご登録のメールアドレスにもお送りしました。お支払いの確認をもってご支援の完了となります。</p>
      </>,
    );
  }
  if (sale.status === 'pending' || sale.status === 'processing' || sale.status === 'requires_action') {
    return (
      <>
        <Notice tone="info">
          <p>決済の結果を確認しています。しばらくしてから「最新の状態を確認する」を押してください。</p>
        </Notice>
        <Backed result={result} />
        <div className="form__actions">
          <button type="button" className="button button--primary button--block" onClick={onRefresh}>
            最新の状態を確認する
          </button>
          {projectLink}
        </div>
      </>
    );
  }
  return (
    <>
      <Retitle flow={flow} title={NOT_COMPLETED_TITLE} />
      <Notice tone="error">
        <p>このお申し込みは完了しませんでした（{sale.status === 'canceled' ? 'キャンセル' : '決済失敗'}）。お手数ですが最初からやりなおしてください。</p>
      </Notice>
      <div className="form__actions">{projectLink}</div>
    </>
  );
}

function CompleteBody({ flow, receipt }: { flow: FlowContext; receipt: string }) {
  const { data, error, isLoading, refetch } = useSupportStatusQuery(receipt);
  const [alertOpen, setAlertOpen] = useState(true);
  if (isLoading) return <PageLoading />;
  if (!data) {
    // Spec 001 §8: the instructions could not be read: the message as an alert, then the Invalid page.
    return (
      <>
        <Retitle flow={flow} title={INVALID_TITLE} />
        {alertOpen && (
          <Modal title="エラー" role="alertdialog" onClose={() => setAlertOpen(false)}>
            <p className="modal__message">{getErrorMessage(error)}</p>
            <div className="modal__actions">
              <button type="button" className="button button--primary button--block" onClick={() => setAlertOpen(false)}>
                閉じる
              </button>
            </div>
          </Modal>
        )}
        <InvalidMessage />
      </>
    );
  }
  return <Result flow={flow} result={data} onRefresh={() => void refetch()} />;
}

/** Step 5 (`/payment/complete/...`): thanks, the bank transfer instructions or the konbini voucher; read again on reload. */
export function PaymentComplete() {
  return (
    <PaymentFlow step={5} needsLot={false}>
      {(flow) => {
        const stored = readReceipt(flow.returnKey);
        if (stored) return <CompleteBody flow={flow} receipt={stored.receipt} />;
        return (
          <>
            <Retitle flow={flow} title={INVALID_TITLE} />
            <InvalidMessage />
          </>
        );
      }}
    </PaymentFlow>
  );
}
