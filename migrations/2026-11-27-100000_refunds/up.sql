-- Refunds by administrators (issue #11).
--
-- A late bank transfer (money that arrived after its sale was cancelled, flagged refund_required by the backing
-- flow) is refunded like a paid sale: its refund and its flag 11 are allowed although the sale is not succeeded.
ALTER TABLE sales DROP CONSTRAINT sales_refund_requires_paid;
ALTER TABLE sales ADD CONSTRAINT sales_refund_requires_paid
    CHECK (refunded_amount = 0 OR status = 'succeeded' OR refund_required);
ALTER TABLE sales DROP CONSTRAINT sales_flag_requires_paid;
ALTER TABLE sales ADD CONSTRAINT sales_flag_requires_paid CHECK (flag = 0 OR status = 'succeeded' OR refund_required);

-- 'requires_action': the provider holds the refund until the supporter gives a bank account to pay it into (bank
-- transfer refunds); its amount stays reserved on the sale like a pending one.
ALTER TABLE refunds DROP CONSTRAINT refunds_status_check;
ALTER TABLE refunds ADD CONSTRAINT refunds_status_check
    CHECK (status IN ('pending', 'requires_action', 'succeeded', 'failed'));

-- One open refund per sale at a time: two administrators (or a bulk run and a single refund) cannot both reserve.
CREATE UNIQUE INDEX refunds_one_open_per_sale ON refunds (sales_id) WHERE status IN ('pending', 'requires_action');
-- A bulk run tries each sale once; a re-run of the same job after a crash finds its attempt instead of adding one.
CREATE UNIQUE INDEX refunds_job_sale_key ON refunds (job_id, sales_id) WHERE job_id IS NOT NULL;
-- Open refunds the sweep asks the provider about.
CREATE INDEX refunds_open_idx ON refunds (updated_at) WHERE status IN ('pending', 'requires_action');
