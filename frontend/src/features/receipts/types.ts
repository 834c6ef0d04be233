import type { Schemas } from '@/lib/apiTypes';

/** A paid sale's receipt, as `GET /v1/user/receipts/{sale_id}` and `GET /v1/receipts/{token}` answer it. */
export type SaleReceipt = Schemas['SaleReceiptDto'];

/** The body of an issue: the addressee, or null for the supporter's name. */
export type IssueReceiptInput = Schemas['IssueReceiptInput'];

/** A member's issue of their own sale's receipt. */
export interface IssueMemberReceiptArgs {
  saleId: number;
  input: IssueReceiptInput;
}

/** An issue through the paid mail's link. */
export interface IssueLinkReceiptArgs {
  token: string;
  input: IssueReceiptInput;
}
