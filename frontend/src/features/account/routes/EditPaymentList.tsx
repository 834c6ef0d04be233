import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { LoadError } from '@/components/form/LoadError';
import { Notice } from '@/components/form/Notice';
import { PageLoading } from '@/components/PageLoading';
import { paths } from '@/config/paths';
import { getErrorMessage } from '@/lib/apiError';
import { useMySalesQuery, useUpdateDisplaynameMutation, type Sale } from '../api/accountApi';
import { AccountPage } from '../components/AccountPage';
import { KonbiniVoucherDetails } from '@/components/konbini/KonbiniVoucherDetails';
import { BankTransferDetails } from '@/components/bank/BankTransferDetails';
import { formatTaxedPrice, formatYen } from '@/lib/format';
import { formatDate, formatJapaneseDate } from '../format';

export const PAYMENT_LIST_MESSAGES = {
  empty: '現在お支払いの履歴はございません。',
  displaynameRequired: '表示名を入力してください。',
  displaynameSaved: '表示名を更新しました。',
} as const;

/** Payment types 1 card, 2 bank transfer (spec 001 §1). */
export const PAYMENT_TYPE_LABELS: Record<number, string> = { 1: 'カード', 2: '銀行振込', 3: 'コンビニ決済' };

function DisplaynameEditor({ sale }: { sale: Sale & { displayname: NonNullable<Sale['displayname']> } }) {
  const inputId = useId();
  const errorId = useId();
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(sale.displayname.displayname);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [update, { isLoading }] = useUpdateDisplaynameMutation();

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const displayname = value.trim();
    if (displayname === '') {
      setError(PAYMENT_LIST_MESSAGES.displaynameRequired);
      return;
    }
    setError(null);
    try {
      await update({ id: sale.displayname.id, displayname }).unwrap();
      setEditing(false);
      setSaved(true);
    } catch (failure) {
      setError(getErrorMessage(failure));
    }
  };

  if (!editing) {
    return (
      <div className="sale__displayname">
        <span>{sale.displayname.displayname}</span>
        <button
          type="button"
          className="button sale__edit"
          onClick={() => {
            setValue(sale.displayname.displayname);
            setSaved(false);
            setEditing(true);
          }}
          aria-label={`${sale.project?.title ?? 'このご支援'}の表示名を編集する`}
        >
          編集
        </button>
        {saved && (
          <span className="sale__saved" role="status">
            {PAYMENT_LIST_MESSAGES.displaynameSaved}
          </span>
        )}
      </div>
    );
  }

  return (
    <form className="sale__form" noValidate onSubmit={(event) => void onSubmit(event)}>
      <label className="field__label" htmlFor={inputId}>
        表示名
      </label>
      <input
        id={inputId}
        className="field__input"
        name="displayname"
        value={value}
        onChange={(event) => setValue(event.target.value)}
        aria-invalid={error !== null}
        aria-describedby={error ? errorId : undefined}
      />
      {error && (
        <p id={errorId} className="field__error" role="alert">
          {error}
        </p>
      )}
      <div className="sale__form-actions">
        <button type="submit" className="button button--primary" disabled={isLoading}>
          {isLoading ? '保存中…' : '保存する'}
        </button>
        <button type="button" className="button" onClick={() => setEditing(false)} disabled={isLoading}>
          キャンセル
        </button>
      </div>
    </form>
  );
}

function SaleItem({ sale }: { sale: Sale }) {
  const { displayname } = sale;
  return (
    <li className="sale">
      <p className="sale__date">
        <time dateTime={sale.created_at}>{formatDate(sale.created_at)}</time>
        <span className="sale__status">{sale.statusLabel}</span>
      </p>
      <p className="sale__project">
        {sale.project ? (
          <Link to={paths.project.getHref(sale.project.slug)}>{sale.project.title}</Link>
        ) : (
          'プロジェクト情報がありません'
        )}
      </p>
      <dl className="sale__details">
        <div>
          <dt>リターン</dt>
          <dd>{sale.return?.title ?? '—'}</dd>
        </div>
        <div>
          <dt>口数</dt>
          <dd>{sale.lot}口</dd>
        </div>
        <div>
          <dt>お支払い金額</dt>
          <dd>
            {/* What was charged: tax included, or 非課税 for a donation; a sale priced before tax also
                shows that base (税抜). */}
            <span>{formatTaxedPrice(sale)}</span>
            {sale.taxLabel === '税別' && <span className="sale__tax-excluded">{`税抜 ${formatYen(sale.amount)}`}</span>}
          </dd>
        </div>
        {sale.extraAmount > 0 && (
          <div>
            <dt>うち上乗せ支援</dt>
            <dd>{formatYen(sale.extraAmount)}</dd>
          </div>
        )}
        <div>
          <dt>お支払い方法</dt>
          <dd>{PAYMENT_TYPE_LABELS[sale.payment_type] ?? '—'}</dd>
        </div>
        {sale.refundedAmount > 0 && (
          <div>
            <dt>返金額</dt>
            <dd>{formatYen(sale.refundedAmount)}</dd>
          </div>
        )}
        {sale.refundingAmount > 0 && (
          <div>
            <dt>返金手続き中の金額</dt>
            <dd>{formatYen(sale.refundingAmount)}</dd>
          </div>
        )}
        {sale.bankTransfer && (
          <div className="sale__details-wide">
            <dt>お振込先</dt>
            <dd>
              <BankTransferDetails bank={sale.bankTransfer} />
            </dd>
          </div>
        )}
        {sale.konbini && (
          <div className="sale__details-wide">
            <dt>コンビニでのお支払い</dt>
            <dd>
              <KonbiniVoucherDetails voucher={sale.konbini} amount={sale.total} />
            </dd>
          </div>
        )}
        {sale.delivery && (
          <div>
            <dt>発送状況</dt>
            <dd className="sale__delivery">
              <span className="sale__delivery-state">{sale.delivery.label}</span>
              {sale.delivery.shippedOn && (
                <span>
                  {'（'}
                  <time dateTime={sale.delivery.shippedOn}>{formatJapaneseDate(sale.delivery.shippedOn)}</time>
                  {' 発送）'}
                </span>
              )}
              {sale.delivery.note && <span className="sale__delivery-note">{`発送メモ：${sale.delivery.note}`}</span>}
            </dd>
          </div>
        )}
        {sale.status === 'succeeded' && (
          <div>
            <dt>領収書</dt>
            <dd>
              <Link
                to={paths.accountReceipt.getHref(sale.id)}
                aria-label={`${sale.project?.title ?? 'このご支援'}の領収書`}
              >
                領収書
              </Link>
            </dd>
          </div>
        )}
        <div>
          <dt>表示名</dt>
          <dd>
            {displayname ? <DisplaynameEditor sale={{ ...sale, displayname }} /> : '—'}
          </dd>
        </div>
      </dl>
    </li>
  );
}

/** Payment history (`/edit/payment-list`): the user's sales, newest first. */
export function EditPaymentList() {
  const { data, isLoading, isError, error, refetch } = useMySalesQuery();
  return (
    <AccountPage title="お支払い履歴">
      {isLoading && <PageLoading />}
      {isError && <LoadError message={getErrorMessage(error)} onRetry={() => void refetch()} />}
      {data && data.length === 0 && (
        <Notice tone="info">
          <p>{PAYMENT_LIST_MESSAGES.empty}</p>
        </Notice>
      )}
      {data && data.length > 0 && (
        <ul className="sale-list" aria-label="お支払い履歴の一覧">
          {data.map((sale) => (
            <SaleItem key={sale.id} sale={sale} />
          ))}
        </ul>
      )}
    </AccountPage>
  );
}
