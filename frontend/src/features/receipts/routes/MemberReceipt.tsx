import { Link, useParams } from 'react-router-dom';
import { NotFound } from '@/components/NotFound';
import { paths } from '@/config/paths';
import { useIssueMemberReceiptMutation, useMemberReceiptQuery } from '../api/receiptsApi';
import { ReceiptPage } from '../components/ReceiptPage';

/** A positive sale id of the address, or null (an unknown page). */
export const parseSaleId = (raw: string | undefined): number | null =>
  /^[1-9]\d{0,15}$/.test(raw ?? '') ? Number(raw) : null;

/** `/account/receipts/:saleId`: the member's receipt of one paid sale, from the payment history. */
export function MemberReceipt() {
  const saleId = parseSaleId(useParams().saleId);
  const query = useMemberReceiptQuery(saleId ?? 0, { skip: saleId === null });
  const [issue] = useIssueMemberReceiptMutation();
  if (saleId === null) return <NotFound />;
  return (
    <ReceiptPage
      query={query}
      onIssue={(addressee) => issue({ saleId, input: { addressee } }).unwrap()}
      back={<Link to={paths.editPaymentList.getHref()}>お支払い履歴へ戻る</Link>}
    />
  );
}
