import '../receipts.css';

export { MemberReceipt } from './MemberReceipt';
export { LinkReceipt } from './LinkReceipt';
