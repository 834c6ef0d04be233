-- Late bank transfers (docs/decisions.md, "A transfer that arrives after its deadline"): at the deadline the sweep
-- cancels our sale only and leaves the provider's payment open, so money sent late still pays that payment (the
-- sale is revived, or flagged for refund when no stock is left). After a grace period the sweep closes the
-- payment at the provider, so that it stops taking the customer's money.

-- When the provider's payment of a cancelled transfer was closed (cancelled at the provider by the grace sweep);
-- NULL while it is still open or for any other sale.
ALTER TABLE sales ADD COLUMN intent_closed_at TIMESTAMPTZ;

-- Before this migration the deadline sweep cancelled the provider's payment together with the sale.
UPDATE sales SET intent_closed_at = updated_at
 WHERE status = 'canceled' AND payment_type = 2 AND intent_id IS NOT NULL;

-- The grace sweep and the reconciler's pass over cancelled transfers whose payment is still open.
CREATE INDEX sales_open_late_transfers_idx ON sales (transfer_deadline)
    WHERE status = 'canceled' AND payment_type = 2 AND intent_id IS NOT NULL AND intent_closed_at IS NULL
      AND NOT refund_required;
