import { ComingSoon } from '@/components/ComingSoon';

export const Admin = ComingSoon;
export const AdminResendRegisterMail = ComingSoon;
export const AdminMail = ComingSoon;
export const AdminMailRegister = ComingSoon;
export const AdminMailDetail = ComingSoon;
export { AdminRefund } from '../AdminRefund';
export { AdminRefundDetail } from '../AdminRefundDetail';
