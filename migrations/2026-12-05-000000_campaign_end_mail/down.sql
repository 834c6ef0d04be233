ALTER TABLE refunds DROP CONSTRAINT refunds_unclaimed_at_check;
ALTER TABLE refunds DROP COLUMN unclaimed_at;
ALTER TABLE refunds DROP CONSTRAINT refunds_status_check;
UPDATE refunds SET status = 'succeeded' WHERE status = 'unclaimed';
ALTER TABLE refunds ADD CONSTRAINT refunds_status_check
    CHECK (status IN ('pending', 'requires_action', 'succeeded', 'failed'));
ALTER TABLE refunds DROP CONSTRAINT refunds_reminders_sent_check;
ALTER TABLE refunds DROP COLUMN reminders_sent;
ALTER TABLE project_closings DROP COLUMN owner_mailed_at;
ALTER TABLE projects DROP CONSTRAINT projects_owner_email_length;
ALTER TABLE projects DROP COLUMN owner_email;
