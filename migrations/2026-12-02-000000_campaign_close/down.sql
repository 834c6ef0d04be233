DROP TABLE payout_statements;
DELETE FROM refunds WHERE requested_by IS NULL;
ALTER TABLE refunds ALTER COLUMN requested_by SET NOT NULL;
DROP TABLE project_closings;
