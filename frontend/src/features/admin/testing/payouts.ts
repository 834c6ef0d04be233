import type { PaidStatement, Statement, StatementFigures } from '../payouts/types';

/** Figures that reconcile as the server's do: 370,000 − 74,000 − 660 = 295,340. */
export const figures = (overrides: Partial<StatementFigures> = {}): StatementFigures => ({
  confirmed: 370_000,
  platformFee: 74_000,
  platformFeeTax: 6_727,
  applicationFees: 0,
  receivedDirectly: 0,
  transferFee: 660,
  carriedOver: 0,
  payout: 295_340,
  owedByOwner: 0,
  ...overrides,
});

export const paidStatement = (overrides: Partial<PaidStatement> = {}): PaidStatement => ({
  seq: 1,
  figures: figures(),
  payoutDate: '2027-01-06',
  paidOn: '2027-01-06',
  reference: '桐生信用金庫 振込控 0012',
  markedAt: '2027-01-06T10:15:00+09:00',
  ...overrides,
});

/** A successful project's first statement, not paid yet. */
export const statement = (overrides: Partial<Statement> = {}): Statement => ({
  projectId: 3,
  title: '桐生織 機場（はたば）再生プロジェクト',
  slug: 'kiryu-textile',
  periodEnd: '2026-11-18',
  seq: 1,
  card: 250_000,
  bank: 120_000,
  figures: figures(),
  payoutDate: '2027-01-06',
  status: 'due',
  statusLabel: '未精算',
  paid: [],
  ...overrides,
});
