-- Indexes for the public reads (GET /v1/sales/get/sum?type=return, the return list's paid totals).
-- Projects already have sales_project_paid_idx (project_id) INCLUDE (..., amount, lot, ...) WHERE status = 'succeeded'.

-- Paid total of one return as an index-only scan: only succeeded sales, with the summed columns included.
CREATE INDEX sales_return_paid_idx ON sales (return_id) INCLUDE (amount, lot) WHERE status = 'succeeded';
