import '../account.css';

export { Account } from './Account';
export { EditProfile } from './EditProfile';
export { EditEmail } from './EditEmail';
export { EditEmailUpdated } from './EditEmailUpdated';
export { EditPassword } from './EditPassword';
export { EditCorporate } from './EditCorporate';
export { EditAddresses } from './EditAddresses';
export { EditPaymentList } from './EditPaymentList';
