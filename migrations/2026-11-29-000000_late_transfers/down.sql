DROP INDEX sales_open_late_transfers_idx;
ALTER TABLE sales DROP COLUMN intent_closed_at;
