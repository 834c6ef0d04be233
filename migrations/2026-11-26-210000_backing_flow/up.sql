-- The backing flow (issue #9): what a project accepts, and what a sale keeps of its payment so that history,
-- the complete page and the deadline job need no provider call.

-- Payment methods the project takes (step 2 shows only these); at least one.
ALTER TABLE projects ADD COLUMN accepts_card BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE projects ADD COLUMN accepts_bank_transfer BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE projects ADD CONSTRAINT projects_accepts_a_payment_method CHECK (accepts_card OR accepts_bank_transfer);
-- Application-fee rates of the project's connected account: 'standard' (13.6 % / 11.5 %) or 'internal'
-- (10.6 % / 8.5 %, the one internal account of spec 001 §9), as data instead of a hard-coded account id.
ALTER TABLE projects ADD COLUMN fee_schedule TEXT NOT NULL DEFAULT 'standard';
ALTER TABLE projects ADD CONSTRAINT projects_fee_schedule_check CHECK (fee_schedule IN ('standard', 'internal'));

-- Bank transfers: yen still to be transferred (smaller than total after a partial transfer, 0 once paid).
ALTER TABLE sales ADD COLUMN amount_remaining BIGINT;
ALTER TABLE sales ADD CONSTRAINT sales_amount_remaining_check
    CHECK (amount_remaining IS NULL OR (amount_remaining >= 0 AND amount_remaining <= total));
-- Bank transfers: the account to transfer to, as the provider issued it (bank, branch, type, number, holder,
-- reference). Not secret: it is shown to the supporter and mailed.
ALTER TABLE sales ADD COLUMN bank_instructions JSONB;
-- Bank transfers: last day (Asia/Tokyo) to transfer; the deadline job cancels the sale after it.
ALTER TABLE sales ADD COLUMN transfer_deadline DATE;
ALTER TABLE sales ADD CONSTRAINT sales_transfer_deadline_only_for_bank
    CHECK (transfer_deadline IS NULL OR payment_type = 2);
-- Money arrived for a sale that had been cancelled and whose return has no stock left: it must be refunded
-- (the admin refund screen lists these).
ALTER TABLE sales ADD COLUMN refund_required BOOLEAN NOT NULL DEFAULT FALSE;
-- Card payments: the provider id of the card charged, stored before the charge is sent, so that a retry or
-- the reconciler repeats the very same request (same key, same card).
ALTER TABLE sales ADD COLUMN card_id TEXT;
-- A card typed for this sale only (guest, or a member who did not save it): removed from the provider
-- customer once the payment is final.
ALTER TABLE sales ADD COLUMN one_time_card_id TEXT;

-- The deadline job: open transfers by deadline.
CREATE INDEX sales_open_transfers_idx ON sales (transfer_deadline)
    WHERE status IN ('pending', 'awaiting_bank_transfer', 'requires_action') AND payment_type = 2;
-- Webhooks find the sale of a payment intent (sales_intent_id_key is already a unique index).
