DROP TABLE favourite_end_notices;
DROP TABLE favourite_mail_opt_ins;

ALTER TABLE sent_mails DROP CONSTRAINT sent_mails_segment_needs_project;
DELETE FROM mail_recipients WHERE mail_id IN (SELECT id FROM sent_mails WHERE segment = 'project_news');
UPDATE project_news SET mail_id = NULL, mail_queued_at = NULL;
DELETE FROM sent_mails WHERE segment = 'project_news';
ALTER TABLE sent_mails ADD CONSTRAINT sent_mails_segment_needs_project
    CHECK (segment <> 'project_supporters' OR project_id IS NOT NULL);
ALTER TABLE sent_mails DROP CONSTRAINT sent_mails_segment_check;
ALTER TABLE sent_mails ADD CONSTRAINT sent_mails_segment_check CHECK (segment IN ('all_users', 'project_supporters'));

DROP INDEX project_news_mail_due_idx;
ALTER TABLE project_news DROP COLUMN updated_by;
ALTER TABLE project_news DROP COLUMN mail_queued_at;
ALTER TABLE project_news DROP COLUMN mail_id;
ALTER TABLE project_news DROP COLUMN mail_supporters;
ALTER TABLE project_news DROP CONSTRAINT project_news_description_length;
ALTER TABLE project_news DROP CONSTRAINT project_news_title_length;
ALTER TABLE project_news DROP COLUMN return_ids;
ALTER TABLE project_news DROP COLUMN audience;
-- Drafts had no place before: they are dropped rather than published.
DELETE FROM project_news WHERE published_at IS NULL;
ALTER TABLE project_news ALTER COLUMN published_at SET DEFAULT now();
ALTER TABLE project_news ALTER COLUMN published_at SET NOT NULL;
