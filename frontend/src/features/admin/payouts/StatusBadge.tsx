import type { Statement } from './types';

/** 未精算 / 精算済み, in the server's words. */
export function StatusBadge({ statement }: { statement: Pick<Statement, 'status' | 'statusLabel'> }) {
  return <span className={`payout-status payout-status--${statement.status}`}>{statement.statusLabel}</span>;
}
