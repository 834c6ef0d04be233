import { useParams } from 'react-router-dom';
import { NotFound } from '@/components/NotFound';
import { useIssueLinkReceiptMutation, useLinkReceiptQuery } from '../api/receiptsApi';
import { ReceiptPage } from '../components/ReceiptPage';

/** `/receipt/:token`: the receipt the paid mail's link opens, without logging in (guests and members alike). */
export function LinkReceipt() {
  const token = useParams().token ?? '';
  const query = useLinkReceiptQuery(token, { skip: token === '' });
  const [issue] = useIssueLinkReceiptMutation();
  if (token === '') return <NotFound />;
  return <ReceiptPage query={query} onIssue={(addressee) => issue({ token, input: { addressee } }).unwrap()} />;
}
