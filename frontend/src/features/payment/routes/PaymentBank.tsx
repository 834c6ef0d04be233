import { Navigate, useParams } from 'react-router-dom';
import { paths } from '@/config/paths';

/** `/payment/bank/...`: a bank transfer goes straight to confirm (spec 001 §4). */
export function PaymentBank() {
  const { project = '', return: ret = '' } = useParams();
  return <Navigate replace to={paths.paymentConfirm.getHref(project, ret, 2)} />;
}
