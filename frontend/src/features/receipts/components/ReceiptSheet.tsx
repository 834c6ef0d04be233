import { useId } from 'react';
import { formatJapaneseDate, formatReceiptYen, formatYen } from '@/lib/format';
import type { SaleReceipt } from '../types';

/** The sheet's own words; the title, the purpose and the refund note come from the server. */
export const RECEIPT_WORDS = {
  draft: '見本：この領収書はまだ発行されていません。下の「領収書を発行する」を押すと発行されます。',
  received: '上記の金額を正に領収いたしました。',
  donationReceived: '上記の金額を寄附金として正に受領いたしました。',
  onBehalf: (owner: string) => `プロジェクト実行者「${owner}」に代わり、上記の金額を受領しました。`,
} as const;

/**
 * One receipt as it prints on A4: title, number and dates, the addressee (宛名) with 様, the amount, what it was for
 * (但し書き), the lines and the total and tax of each rate, and who received it. A registration number line only
 * when the issuer is registered (a qualified invoice); otherwise the receipt has no such line at all.
 */
export function ReceiptSheet({ receipt }: { receipt: SaleReceipt }) {
  const titleId = useId();
  const issued = receipt.issuedCount > 0;
  const donation = receipt.kind === 'donation';
  return (
    <article className="receipt-sheet" aria-labelledby={titleId}>
      <header className="receipt-sheet__head">
        <h2 id={titleId} className="receipt-sheet__title">
          {receipt.title}
        </h2>
        <dl className="receipt-sheet__meta">
          <div>
            <dt>No.</dt>
            <dd>{receipt.receiptNumber}</dd>
          </div>
          <div>
            <dt>発行日</dt>
            <dd>{receipt.issuedOn ? formatJapaneseDate(receipt.issuedOn) : '未発行'}</dd>
          </div>
        </dl>
      </header>
      {!issued && <p className="receipt-sheet__draft">{RECEIPT_WORDS.draft}</p>}

      <p className="receipt-sheet__addressee">
        <span className="receipt-sheet__addressee-name" data-testid="receipt-addressee">
          {receipt.addressee}
        </span>
        <span className="receipt-sheet__honorific">様</span>
      </p>

      <div className="receipt-sheet__amount">
        <span className="receipt-sheet__amount-label">金額</span>
        <strong className="receipt-sheet__amount-value" data-testid="receipt-amount">
          {formatReceiptYen(receipt.amount)}
        </strong>
        <span className="receipt-sheet__amount-tax">{donation ? '（消費税対象外）' : '（税込）'}</span>
      </div>
      <p className="receipt-sheet__purpose">
        <span className="receipt-sheet__purpose-label">但し</span>
        {receipt.purpose}
      </p>
      <p className="receipt-sheet__received">{donation ? RECEIPT_WORDS.donationReceived : RECEIPT_WORDS.received}</p>
      {receipt.refundNote && (
        <p className="receipt-sheet__refund">
          {receipt.refundNote}（お支払い金額 {formatYen(receipt.paidTotal)}、返金額 {formatYen(receipt.refunded)}）
        </p>
      )}

      <dl className="receipt-sheet__facts">
        <div>
          <dt>お支払い日</dt>
          <dd>{formatJapaneseDate(receipt.paidOn)}</dd>
        </div>
      </dl>

      <table className="receipt-sheet__table">
        <caption>内訳</caption>
        <thead>
          <tr>
            <th scope="col">品目</th>
            <th scope="col">口数</th>
            <th scope="col">金額（税込）</th>
          </tr>
        </thead>
        <tbody>
          {receipt.lines.map((line) => (
            <tr key={line.description}>
              <th scope="row">
                {line.description}
                <span className="receipt-sheet__rate-mark">（{line.rateLabel}）</span>
              </th>
              <td>{line.lots === 0 ? '—' : `${line.lots}口`}</td>
              <td>{formatYen(line.amount)}</td>
            </tr>
          ))}
        </tbody>
      </table>

      <table className="receipt-sheet__table">
        <caption>税率ごとの合計と消費税額</caption>
        <thead>
          <tr>
            <th scope="col">区分</th>
            <th scope="col">合計（税込）</th>
            <th scope="col">消費税額</th>
          </tr>
        </thead>
        <tbody>
          {receipt.rates.map((rate) => (
            <tr key={rate.label}>
              <th scope="row">{rate.label}</th>
              <td>{formatYen(rate.total)}</td>
              <td>{rate.ratePercent === null ? '—' : formatYen(rate.tax)}</td>
            </tr>
          ))}
        </tbody>
      </table>

      <footer className="receipt-sheet__issuer">
        <p className="receipt-sheet__issuer-name">{receipt.issuer.name}</p>
        {receipt.issuer.registrationNumber && (
          <p className="receipt-sheet__registration">登録番号 {receipt.issuer.registrationNumber}</p>
        )}
        {receipt.issuer.onBehalfOf && (
          <p className="receipt-sheet__on-behalf">{RECEIPT_WORDS.onBehalf(receipt.issuer.onBehalfOf)}</p>
        )}
      </footer>
    </article>
  );
}
