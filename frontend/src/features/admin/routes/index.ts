import { ComingSoon } from '@/components/ComingSoon';
import '../admin.css';

export { Admin } from './Admin';
export { AdminResendRegisterMail } from './AdminResendRegisterMail';
export const AdminMail = ComingSoon;
export const AdminMailRegister = ComingSoon;
export const AdminMailDetail = ComingSoon;
export { AdminRefund } from '../AdminRefund';
export { AdminRefundDetail } from '../AdminRefundDetail';
