import '../admin.css';

export { Admin } from './Admin';
export { AdminResendRegisterMail } from './AdminResendRegisterMail';
export { AdminMail } from '../AdminMail';
export { AdminMailRegister } from '../AdminMailRegister';
export { AdminMailDetail } from '../AdminMailDetail';
export { AdminRefund } from '../AdminRefund';
export { AdminRefundDetail } from '../AdminRefundDetail';
export { AdminProjects } from '../AdminProjects';
export { AdminProjectEdit, AdminProjectNew } from '../AdminProjectEdit';
export { AdminProjectPreview } from '../AdminProjectPreview';
export { AdminDeliveries } from '../AdminDeliveries';
export { AdminPayouts } from '../AdminPayouts';
export { AdminPayoutStatement } from '../AdminPayoutStatement';
