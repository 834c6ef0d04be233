DROP INDEX sales_open_transfers_idx;
CREATE INDEX sales_open_transfers_idx ON sales (transfer_deadline)
    WHERE status IN ('pending', 'awaiting_bank_transfer', 'requires_action') AND payment_type = 2;
ALTER TABLE sales DROP CONSTRAINT sales_konbini_voucher_only_for_konbini;
ALTER TABLE sales DROP COLUMN konbini_voucher;
ALTER TABLE sales DROP CONSTRAINT sales_transfer_deadline_only_for_waiting_methods;
ALTER TABLE sales ADD CONSTRAINT sales_transfer_deadline_only_for_bank
    CHECK (transfer_deadline IS NULL OR payment_type = 2);
ALTER TABLE sales DROP CONSTRAINT sales_payment_type_check;
ALTER TABLE sales ADD CONSTRAINT sales_payment_type_check CHECK (payment_type IN (1, 2));
ALTER TABLE projects DROP CONSTRAINT projects_accepts_a_payment_method;
ALTER TABLE projects ADD CONSTRAINT projects_accepts_a_payment_method CHECK (accepts_card OR accepts_bank_transfer);
ALTER TABLE projects DROP COLUMN accepts_konbini;
