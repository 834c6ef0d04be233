/*
 * The payout endpoints' bodies (`/v1/admin/payouts...`), named from the server's OpenAPI document, and below them
 * the client's own argument of the mark-paid mutation (outside `api/`: scripts/api-shapes.mjs refuses hand-written
 * shapes there).
 */
import type { Schemas } from '@/lib/apiTypes';

/** A project's current statement (精算書): `due` while something is unpaid, `settled` once every yen is. */
export type Statement = Schemas['StatementDto'];
/** The amounts of a statement, in yen, exactly as the server reconciled them. */
export type StatementFigures = Schemas['FiguresDto'];
/** A statement already marked paid (第N回). */
export type PaidStatement = Schemas['PaidStatementDto'];
/** `POST /v1/admin/payouts/{id}/paid`: what the operator read (refused with 409 when it changed) and did. */
export type MarkPaidInput = Schemas['MarkPaidInput'];

export interface MarkPaidArgs {
  projectId: number;
  input: MarkPaidInput;
}
