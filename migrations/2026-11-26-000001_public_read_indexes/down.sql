DROP INDEX IF EXISTS sales_return_paid_idx;
