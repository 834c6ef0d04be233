/*
 * The delivery endpoints' bodies (`/v1/admin/projects/{id}/deliveries...`), named from the server's OpenAPI document,
 * and below them the client's own arguments of the query and the mutation (outside `api/`: scripts/api-shapes.mjs
 * refuses hand-written shapes there).
 */
import type { operations } from '@/lib/api/schema';
import type { ApiResponse, Schemas } from '@/lib/apiTypes';

/** One page of a project's sales to deliver, with the project and its returns. */
export type DeliveryList = ApiResponse<'list_deliveries'>;
/** One sale to deliver: who, what, where, and its state. */
export type Delivery = Schemas['DeliveryDto'];
export type DeliveryReturn = Schemas['DeliveryReturnDto'];
/** `all`, `unshipped` or `shipped`. */
export type DeliveryFilter = NonNullable<NonNullable<operations['list_deliveries']['parameters']['query']>['state']>;
export type MarkDeliveriesInput = Schemas['MarkDeliveriesInput'];
export type MarkDeliveriesResult = ApiResponse<'mark_deliveries'>;

/** What the list shows: the filter and the page. */
export interface DeliveryListArgs {
  projectId: number;
  returnId: number | null;
  state: DeliveryFilter;
  page: number;
}

export interface MarkDeliveriesArgs {
  projectId: number;
  input: MarkDeliveriesInput;
}
