import { useEffect, useRef, useState } from 'react';
import { Modal } from '@/components/Modal';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { LoadError } from '@/components/form/LoadError';
import { Notice } from '@/components/form/Notice';
import { SubmitButton } from '@/components/form/SubmitButton';
import { PageLoading } from '@/components/PageLoading';
import { paths } from '@/config/paths';
import { getApiErrorBody, getErrorMessage } from '@/lib/apiError';
import {
  paymentApi,
  supportChanged,
  usePaymentLibraryQuery,
  usePaymentMemberQuery,
  usePlaceSupportMutation,
  useQuoteQuery,
  useSavedCardsQuery,
} from '../api/paymentApi';
import type { AddressInput, Member, PaymentTypeCode, SupportCard, SupportRequest, SupportResult } from '../api/types';
import { cardLabel } from '../components/CardForms';
import { InvalidMessage, PaymentFlow, type FlowContext } from '../components/PaymentFlow';
import { formatYen } from '@/lib/format';
import {
  BANK_TRANSFER_DEADLINE_TEXT,
  BANK_TRANSFER_FEE_NOTE,
  isMonthlyReturn,
  PAYMENT_MESSAGES,
  PAYMENT_NOTICES,
} from '../messages';
import { EXTRA_AMOUNT_LABEL } from '../extraAmount';
import { cardForgotten, selectChosenCardId, selectGuestCard } from '../paymentSlice';
import { loadStripeLibrary } from '../stripe';
import {
  attemptKeyFor,
  clearAfterSupport,
  currentAttemptKey,
  endAttempt,
  readSupportRecord,
  storeReceipt,
  type SupportRecord,
} from '../supportRecord';

/** A payment card as the confirm screen shows and sends it. */
interface PayingCard {
  label: string;
  card: SupportCard;
}

/** Statuses after which the support is placed: the complete page tells the rest. */
const PLACED = new Set(['succeeded', 'awaiting_bank_transfer', 'pending', 'processing']);

/** Whether a failed call may have reached the server: then the same key must be sent again. */
const mayHaveReachedServer = (error: unknown): boolean => {
  if (typeof error !== 'object' || error === null || !('status' in error)) return true;
  const { status } = error as { status: unknown };
  return typeof status !== 'number' || status >= 500;
};

const addressText = (address: AddressInput): string =>
  `〒${address.zip} ${address.pref}${address.city}${address.address}${address.building ? ` ${address.building}` : ''}（${address.name}　${address.telNumber}）`;

function usePayingCard(flow: FlowContext, paymentType: PaymentTypeCode) {
  const guestCard = useAppSelector(selectGuestCard);
  const chosenId = useAppSelector(selectChosenCardId);
  const cards = useSavedCardsQuery(undefined, { skip: paymentType !== 1 || !flow.isMember });
  if (paymentType !== 1) return { card: null, loading: false, missing: false };
  if (!flow.isMember) {
    const usable = guestCard && guestCard.returnKey === flow.returnKey ? guestCard : null;
    return {
      card: usable ? { label: cardLabel(usable), card: { paymentMethod: usable.paymentMethod, save: false as const } } : null,
      loading: false,
      missing: !usable,
    };
  }
  if (cards.isLoading) return { card: null, loading: true, missing: false };
  const saved = cards.data?.cards.find((card) => card.id === (chosenId ?? cards.data?.defaultId));
  return {
    card: saved ? { label: cardLabel(saved), card: { cardId: saved.id } } : null,
    loading: false,
    missing: !saved,
  };
}

/**
 * The confirm button: a card is charged now ('6,600円を支払う'); a bank transfer only applies, the money is sent
 * later ('申し込む'); a monthly support says it is monthly.
 */
export const confirmLabel = (paymentType: PaymentTypeCode, monthly: boolean, total: number): string => {
  if (monthly) return `毎月${formatYen(total)}の支援を申し込む`;
  return paymentType === 1 ? `${formatYen(total)}を支払う` : '申し込む';
};

const supporterName = (record: SupportRecord, returnType: number): string =>
  (returnType === 0 ? record.displayname : record.corporatename) ?? '';

function ConfirmBody({ flow, paymentType, lot, member }: {
  flow: FlowContext;
  paymentType: PaymentTypeCode;
  lot: number;
  member: Member | null;
}) {
  const { project, ret } = flow;
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const record = readSupportRecord();
  // 上乗せ支援 from step 1; the server adds it and answers the total (never computed here).
  const extraAmount = typeof record.extraAmount === 'number' && record.extraAmount > 0 ? record.extraAmount : 0;
  const quote = useQuoteQuery({ projectId: project.id, returnId: ret.id, lot, ...(extraAmount > 0 ? { extraAmount } : {}) });
  const paying = usePayingCard(flow, paymentType);
  const library = usePaymentLibraryQuery(undefined, { skip: paymentType !== 1 });
  const [placeSupport] = usePlaceSupportMutation();
  const [busy, setBusy] = useState(false);
  const busyRef = useRef(false);
  const placed = useRef(false);
  const [failure, setFailure] = useState<{ message: string; anotherCard: boolean; runningMonthly?: boolean } | null>(
    null,
  );
  const monthly = isMonthlyReturn(ret);
  const [asking, setAsking] = useState(false);

  // The key of this attempt exists from the moment the page is entered (and survives a reload).
  useEffect(() => {
    currentAttemptKey();
  }, []);

  const savedAddress = record.addressId !== undefined ? member?.addresses.main.find((a) => a.id === record.addressId) : undefined;
  const address = savedAddress ?? record.address ?? null;
  const name = supporterName(record, ret.type);

  const finish = (result: SupportResult) => {
    // Placed: this page never sends again, also for a click that lands before the navigation does.
    placed.current = true;
    endAttempt();
    clearAfterSupport();
    dispatch(cardForgotten());
    storeReceipt({ receipt: result.receipt, returnKey: flow.returnKey, paymentType });
    dispatch(paymentApi.util.upsertQueryData('supportStatus', result.receipt, result));
    void navigate(paths.paymentComplete.getHref(flow.projectSlug, flow.returnSlug));
  };

  /** 3-D Secure in Stripe.js, then the server reads the payment's outcome from the provider. */
  const authenticate = async (result: SupportResult, clientSecret: string): Promise<SupportResult> => {
    if (!library.data) throw new Error(PAYMENT_MESSAGES.libraryUnavailable);
    const stripe = await loadStripeLibrary(library.data);
    if (!stripe) throw new Error(PAYMENT_MESSAGES.libraryUnavailable);
    await stripe.confirmCardPayment(clientSecret);
    const status = await dispatch(paymentApi.endpoints.supportStatus.initiate(result.receipt, { forceRefetch: true })).unwrap();
    // The authenticated payment changed the member's history (and started the monthly support).
    dispatch(supportChanged());
    return status;
  };

  const confirm = async () => {
    if (busyRef.current || placed.current || (paymentType === 1 && !paying.card)) return;
    busyRef.current = true;
    setBusy(true);
    setFailure(null);
    const request: Omit<SupportRequest, 'idempotencyKey'> = {
      projectId: project.id,
      returnId: ret.id,
      lot,
      paymentType,
      displayname: name,
      anonymous: record.anonymous === true,
      agreeTerms: record.agreeTerms === true,
      notAntisocial: record.notAntisocial === true,
      ...(ret.type !== 0 && record.corporateurl ? { corporateurl: record.corporateurl } : {}),
      ...(ret.type !== 0 && record.logo ? { logoUrlId: record.logo.url_id } : {}),
      ...(record.comment ? { comment: record.comment } : {}),
      ...(project.additionalData && record.additionaldata ? { additionalData: record.additionaldata } : {}),
      ...(savedAddress ? { addressId: savedAddress.id } : record.address ? { address: record.address } : {}),
      ...(paymentType === 1 && paying.card ? { card: paying.card.card } : {}),
      ...(!flow.isMember && record.guestEmail ? { guestEmail: record.guestEmail } : {}),
      ...(extraAmount > 0 ? { extraAmount } : {}),
    };
    try {
      let result = await placeSupport({ ...request, idempotencyKey: attemptKeyFor(JSON.stringify(request)) }).unwrap();
      if (result.sale.status === 'requires_action' && result.nextAction?.type === 'authenticate') {
        result = await authenticate(result, result.nextAction.clientSecret);
      }
      // A konbini voucher waits for the store (requires_action with the voucher): placed.
      if (PLACED.has(result.sale.status) || (result.sale.status === 'requires_action' && result.konbini)) {
        finish(result);
        return;
      }
      if (result.sale.status === 'requires_action') {
        // Authentication was not completed: the same key brings this sale back for another try.
        setFailure({ message: PAYMENT_MESSAGES.authenticationFailed, anotherCard: true });
      } else {
        endAttempt();
        setFailure({ message: PAYMENT_MESSAGES.cardDeclined, anotherCard: paymentType === 1 });
      }
    } catch (error) {
      const body = getApiErrorBody(error);
      if (error instanceof Error) {
        setFailure({ message: error.message, anotherCard: false });
      } else if (body?.error === 'card_declined') {
        endAttempt();
        dispatch(cardForgotten());
        setFailure({ message: body.message ?? PAYMENT_MESSAGES.cardDeclined, anotherCard: true });
      } else if (mayHaveReachedServer(error)) {
        // 503 and no answer: the sale may exist; retrying with the same key continues it.
        setFailure({
          message: monthly ? PAYMENT_MESSAGES.subscriptionFailed : PAYMENT_MESSAGES.paymentFailed,
          anotherCard: false,
        });
      } else {
        endAttempt();
        const fields = body?.errors?.map((field) => field.message) ?? [];
        setFailure({
          message: fields.length > 0 ? fields.join('\n') : getErrorMessage(error),
          anotherCard: false,
          // The member supports this return monthly already: the way to that support.
          runningMonthly: body?.error === 'monthly_running',
        });
      }
    } finally {
      busyRef.current = false;
      setBusy(placed.current);
    }
  };

  if (quote.isLoading || paying.loading) return <PageLoading />;
  if (!quote.data) return <LoadError message={getErrorMessage(quote.error)} onRetry={() => void quote.refetch()} />;

  const figures = quote.data;
  return (
    <>
      <section className="payment-section" aria-labelledby="payment-confirm-return">
        <h2 id="payment-confirm-return" className="payment-section__title">
          ご支援内容
        </h2>
        <dl className="confirm-list">
          <div>
            <dt>プロジェクト</dt>
            <dd>{project.title}</dd>
          </div>
          <div>
            <dt>リターン</dt>
            <dd>{ret.course ? `${ret.course}：${ret.title}` : ret.title}</dd>
          </div>
          <div>
            <dt>{ret.type === 0 ? '表示名' : ret.type === 1 ? '企業名' : '団体名'}</dt>
            <dd>
              {name}
              {record.anonymous ? '（支援者一覧では「匿名」と表示）' : ''}
            </dd>
          </div>
          {ret.type !== 0 && record.corporateurl && (
            <div>
              <dt>サイトURL</dt>
              <dd>{record.corporateurl}</dd>
            </div>
          )}
          {record.comment && (
            <div>
              <dt>応援コメント</dt>
              <dd>{record.comment}</dd>
            </div>
          )}
          {project.additionalData && record.additionaldata && (
            <div>
              <dt>{project.additionalData.label}</dt>
              <dd>{record.additionaldata}</dd>
            </div>
          )}
          {address && (
            <div>
              <dt>{ret.addressLabel ?? 'お届け先'}</dt>
              <dd>{addressText(address)}</dd>
            </div>
          )}
          {!flow.isMember && record.guestEmail && (
            <div>
              <dt>メールアドレス</dt>
              <dd>{record.guestEmail}</dd>
            </div>
          )}
        </dl>
      </section>

      <section className="payment-section" aria-labelledby="payment-confirm-amount">
        <h2 id="payment-confirm-amount" className="payment-section__title">
          お支払い金額
        </h2>
        <dl className="payment-figures">
          <div>
            <dt>単価</dt>
            <dd>{formatYen(figures.price)}</dd>
          </div>
          <div>
            <dt>口数</dt>
            <dd>{figures.lot}口</dd>
          </div>
          {figures.taxLabel !== '非課税' && (
            <div>
              <dt>{figures.taxLabel === '税込' ? `うち消費税（${figures.taxRate}%）` : `消費税（${figures.taxRate}%）`}</dt>
              <dd>{formatYen(figures.tax)}</dd>
            </div>
          )}
          {figures.extraAmount > 0 && (
            <div>
              <dt>{EXTRA_AMOUNT_LABEL}（消費税対象外）</dt>
              <dd>{formatYen(figures.extraAmount)}</dd>
            </div>
          )}
          <div className="payment-figures__total">
            <dt>{monthly ? '毎月のお支払い' : '合計'}（{figures.taxLabel === '非課税' ? '非課税' : '税込'}）</dt>
            <dd>{monthly ? `${formatYen(figures.total)}/月` : formatYen(figures.total)}</dd>
          </div>
        </dl>
        {monthly && (
          <p className="payment-monthly-note">
            毎月のご支援です。本日初回分をお支払いいただき、以降は毎月同じ日に同じカードから{formatYen(figures.total)}をお支払いいただきます。マイページからいつでも停止でき、停止後もお支払い済みの期間の終わりまでご支援が続きます。
          </p>
        )}
      </section>

      <section className="payment-section" aria-labelledby="payment-confirm-method">
        <h2 id="payment-confirm-method" className="payment-section__title">
          お支払い方法
        </h2>
        {paymentType === 1 ? (
          paying.card ? (
            <p>クレジットカード（{paying.card.label}）</p>
          ) : (
            <Notice tone="error">
              <p>{flow.isMember ? '登録済みのカードがありません。カードを登録してください。' : PAYMENT_MESSAGES.guestCardLost}</p>
              <p>
                <Link to={paths.paymentCard.getHref(flow.projectSlug, flow.returnSlug)}>カード情報の入力へ</Link>
              </p>
            </Notice>
          )
        ) : paymentType === 3 ? (
          <>
            <p>コンビニ決済</p>
            <p>
              お支払い期限：お申し込みの3日後の23:59
              <br />
              お申し込み後、ファミリーマート・ローソン・ミニストップ・セイコーマートでのお支払い方法（お客様番号・確認番号）をご案内します。
            </p>
          </>
        ) : (
          <>
            <p>銀行振込</p>
            <p>
              お振込期限：{BANK_TRANSFER_DEADLINE_TEXT}
              <br />
              お申し込み後、お振込先をご案内します。{BANK_TRANSFER_FEE_NOTE}
            </p>
          </>
        )}
      </section>

      <section className="payment-section" aria-labelledby="payment-confirm-notices">
        <h2 id="payment-confirm-notices" className="payment-section__title">
          ご注意
        </h2>
        <ul className="payment-notices">
          {PAYMENT_NOTICES.map((notice) => (
            <li key={notice}>{notice}</li>
          ))}
        </ul>
      </section>

      {failure && (
        <Notice tone="error">
          {failure.message.split('\n').map((line) => (
            <p key={line}>{line}</p>
          ))}
          {failure.anotherCard && (
            <p>
              <Link to={paths.paymentCard.getHref(flow.projectSlug, flow.returnSlug)}>別のカードを選択する</Link>
            </p>
          )}
          {failure.runningMonthly && (
            <p>
              <Link to={`${paths.account.getHref()}#monthly-supports`}>ご支援中の毎月のご支援を見る</Link>
            </p>
          )}
        </Notice>
      )}
      <div className="form__actions">
        <SubmitButton
          type="button"
          busy={busy}
          busyLabel="決済処理中…"
          disabled={paymentType === 1 && !paying.card}
          onClick={() => (monthly ? setAsking(true) : void confirm())}
        >
          {confirmLabel(paymentType, monthly, figures.total)}
        </SubmitButton>
      </div>
      {asking && (
        <Modal title="お支払いの確定" onClose={() => setAsking(false)}>
          <p className="modal__message">{PAYMENT_MESSAGES.subscriptionConfirm}</p>
          <p>毎月{formatYen(figures.total)}（税込）をお支払いいただきます。</p>
          <div className="modal__actions">
            <button
              type="button"
              className="button button--primary button--block"
              onClick={() => {
                setAsking(false);
                void confirm();
              }}
            >
              確定する
            </button>
            <button type="button" className="button button--block" onClick={() => setAsking(false)}>
              キャンセル
            </button>
          </div>
        </Modal>
      )}
    </>
  );
}

function MemberConfirm(props: { flow: FlowContext; paymentType: PaymentTypeCode; lot: number }) {
  const { data, isLoading, error, refetch } = usePaymentMemberQuery();
  if (isLoading) return <PageLoading />;
  if (!data) return <LoadError message={getErrorMessage(error)} onRetry={() => void refetch()} />;
  return <ConfirmBody {...props} member={data} />;
}

const parsePaymentType = (value: string | null): PaymentTypeCode | null =>
  value === '1' ? 1 : value === '2' ? 2 : value === '3' ? 3 : null;

/** Step 4 (`/payment/confirm/...?paymentType=`): the server's figures and one confirm that charges once. */
export function PaymentConfirm() {
  const [params] = useSearchParams();
  const paymentType = parsePaymentType(params.get('paymentType'));
  return (
    <PaymentFlow
      step={4}
      backHref={({ project, ret }) =>
        paymentType === 1 ? paths.paymentCard.getHref(project, ret) : paths.paymentMethod.getHref(project, ret)
      }
    >
      {(flow) => {
        if (paymentType === null || !flow.project.paymentTypes.includes(paymentType) || flow.lot === null) {
          return <InvalidMessage />;
        }
        const props = { flow, paymentType, lot: flow.lot };
        return flow.isMember ? <MemberConfirm {...props} /> : <ConfirmBody {...props} member={null} />;
      }}
    </PaymentFlow>
  );
}
