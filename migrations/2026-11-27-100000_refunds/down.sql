DROP INDEX refunds_open_idx;
DROP INDEX refunds_job_sale_key;
DROP INDEX refunds_one_open_per_sale;
ALTER TABLE refunds DROP CONSTRAINT refunds_status_check;
ALTER TABLE refunds ADD CONSTRAINT refunds_status_check CHECK (status IN ('pending', 'succeeded', 'failed'));
ALTER TABLE sales DROP CONSTRAINT sales_flag_requires_paid;
ALTER TABLE sales ADD CONSTRAINT sales_flag_requires_paid CHECK (flag = 0 OR status = 'succeeded');
ALTER TABLE sales DROP CONSTRAINT sales_refund_requires_paid;
ALTER TABLE sales ADD CONSTRAINT sales_refund_requires_paid CHECK (refunded_amount = 0 OR status = 'succeeded');
