import { ComingSoon } from '@/components/ComingSoon';

export const Admin = ComingSoon;
export const AdminResendRegisterMail = ComingSoon;
export { AdminMail } from '../AdminMail';
export { AdminMailRegister } from '../AdminMailRegister';
export { AdminMailDetail } from '../AdminMailDetail';
export const AdminRefund = ComingSoon;
export const AdminRefundDetail = ComingSoon;
