import type { Schemas } from '@/lib/apiTypes';
import { formatYen } from '@/lib/format';
import { CopyableValue } from '../bank/CopyableValue';

/** How to pay a konbini voucher, as the server sends it (complete page and payment history alike). */
export type KonbiniVoucher = Schemas['KonbiniVoucherDto'];

/**
 * A konbini voucher still to be paid: the deadline (Asia/Tokyo, as the server writes it), the amount, and for each
 * chain the numbers the store's terminal or clerk asks for, each with a copy button; then the provider's printable
 * voucher page.
 */
export function KonbiniVoucherDetails({ voucher, amount }: { voucher: KonbiniVoucher; amount: number }) {
  return (
    <div className="bank-info" role="group" aria-label="コンビニでのお支払い方法">
      <dl className="bank-info__list">
        <div>
          <dt>お支払い金額</dt>
          <dd>
            <CopyableValue label="お支払い金額" value={formatYen(amount)} />
          </dd>
        </div>
        <div>
          <dt>お支払い期限</dt>
          <dd>
            <time dateTime={voucher.expiresAt}>{voucher.expiresAtText}</time>
          </dd>
        </div>
      </dl>
      {voucher.stores.map((store) => (
        <section key={store.chain} className="konbini-store" aria-label={store.chainName}>
          <h3 className="konbini-store__name">{store.chainName}</h3>
          <dl className="bank-info__list">
            <div>
              <dt>お客様番号（受付番号）</dt>
              <dd>
                <CopyableValue label={`${store.chainName}のお客様番号`} value={store.paymentCode} />
              </dd>
            </div>
            {store.confirmationNumber && (
              <div>
                <dt>確認番号</dt>
                <dd>
                  <CopyableValue label={`${store.chainName}の確認番号`} value={store.confirmationNumber} />
                </dd>
              </div>
            )}
          </dl>
        </section>
      ))}
      <p className="bank-info__lead">
        お支払い期限までに、いずれかの店舗のレジまたは店頭端末で現金でお支払いください。期限を過ぎるとお申し込みはキャンセルとなります。
        {voucher.hostedVoucherUrl && (
          <>
            {' '}
            <a href={voucher.hostedVoucherUrl} target="_blank" rel="noopener noreferrer">
              お支払い方法の詳しいご案内（払込票）を開く
            </a>
          </>
        )}
      </p>
    </div>
  );
}
