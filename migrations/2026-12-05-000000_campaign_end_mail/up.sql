-- The end of a campaign, told and finished (docs/decisions.md, "The owner is told" and "Unclaimed refunds").

-- Where the owner (プロジェクト実行者) is told the result and the payout; optional, set by operators on the
-- project's edit form (domain::authoring::ProjectTerms::owner_email, at most 254 characters).
ALTER TABLE projects ADD COLUMN owner_email TEXT;
ALTER TABLE projects ADD CONSTRAINT projects_owner_email_length
    CHECK (owner_email IS NULL OR char_length(owner_email) BETWEEN 3 AND 254);

-- When the owner's result mail was queued: written once, in the transaction that queues it, so a close run twice
-- mails the owner once. Closings mailed before this column existed count as told.
ALTER TABLE project_closings ADD COLUMN owner_mailed_at TIMESTAMPTZ;
UPDATE project_closings SET owner_mailed_at = mailed_at WHERE mailed_at IS NOT NULL;

-- Reminders of a bank-transfer refund waiting for the supporter's account (domain::closing::REFUND_REMINDER_DAYS):
-- how many were sent. Raised by compare-and-set in the transaction that queues the reminder, so each goes once.
ALTER TABLE refunds ADD COLUMN reminders_sent SMALLINT NOT NULL DEFAULT 0;
ALTER TABLE refunds ADD CONSTRAINT refunds_reminders_sent_check CHECK (reminders_sent BETWEEN 0 AND 3);

-- 'unclaimed': a bank-transfer refund unanswered for 6 months, cancelled at the provider; the amount passes to the
-- company (terms). Not 'failed', so it stays in sales.refunded_amount: the sale no longer counts toward totals
-- nor the owner's payout, and the sale is not refundable again.
ALTER TABLE refunds DROP CONSTRAINT refunds_status_check;
ALTER TABLE refunds ADD CONSTRAINT refunds_status_check
    CHECK (status IN ('pending', 'requires_action', 'succeeded', 'failed', 'unclaimed'));
-- When it lapsed (the day the provider's refund was cancelled).
ALTER TABLE refunds ADD COLUMN unclaimed_at TIMESTAMPTZ;
ALTER TABLE refunds ADD CONSTRAINT refunds_unclaimed_at_check CHECK ((status = 'unclaimed') = (unclaimed_at IS NOT NULL));
