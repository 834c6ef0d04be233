-- Konbini (コンビニ決済, payment type 3, issue #22): accepted per project like the other two; a konbini sale
-- waits for the store until its deadline, like an unpaid bank transfer.

-- Whether step 2 offers konbini for the project (operators opt in; existing projects do not).
ALTER TABLE projects ADD COLUMN accepts_konbini BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE projects DROP CONSTRAINT projects_accepts_a_payment_method;
ALTER TABLE projects ADD CONSTRAINT projects_accepts_a_payment_method
    CHECK (accepts_card OR accepts_bank_transfer OR accepts_konbini);

-- 1 card, 2 bank transfer, 3 konbini.
ALTER TABLE sales DROP CONSTRAINT sales_payment_type_check;
ALTER TABLE sales ADD CONSTRAINT sales_payment_type_check CHECK (payment_type IN (1, 2, 3));
-- transfer_deadline: the last day (Asia/Tokyo) to pay, for the methods that wait for the money (the voucher
-- expires at 23:59:59 that day).
ALTER TABLE sales DROP CONSTRAINT sales_transfer_deadline_only_for_bank;
ALTER TABLE sales ADD CONSTRAINT sales_transfer_deadline_only_for_waiting_methods
    CHECK (transfer_deadline IS NULL OR payment_type IN (2, 3));
-- Konbini: the voucher as the provider issued it (chains with their payment codes and confirmation numbers,
-- expiry, voucher page). Not secret: it is shown to the supporter and mailed.
ALTER TABLE sales ADD COLUMN konbini_voucher JSONB;
ALTER TABLE sales ADD CONSTRAINT sales_konbini_voucher_only_for_konbini
    CHECK (konbini_voucher IS NULL OR payment_type = 3);

-- The deadline job: open transfers and vouchers by deadline.
DROP INDEX sales_open_transfers_idx;
CREATE INDEX sales_open_transfers_idx ON sales (transfer_deadline)
    WHERE status IN ('pending', 'awaiting_bank_transfer', 'requires_action') AND payment_type IN (2, 3);
