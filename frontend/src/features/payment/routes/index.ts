export { PaymentInfo } from './PaymentInfo';
export { PaymentMethod } from './PaymentMethod';
export { PaymentCard } from './PaymentCard';
export { PaymentBank } from './PaymentBank';
export { PaymentConfirm } from './PaymentConfirm';
export { PaymentComplete } from './PaymentComplete';
export { EditPayment } from './EditPayment';
export { MonthlyAuthentication } from './MonthlyAuthentication';
