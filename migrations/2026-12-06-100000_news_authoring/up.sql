-- News (活動報告) written by operators: drafts, scheduled items, supporters-only items and their mail
-- (docs/decisions.md, "News").

-- NULL now means a draft (only operators see it); a future time is a scheduled item.
ALTER TABLE project_news ALTER COLUMN published_at DROP NOT NULL;
ALTER TABLE project_news ALTER COLUMN published_at DROP DEFAULT;
-- Who may read the body: 'public' (everyone) or 'supporters' (a paid support of the project, of one of
-- `return_ids` when that list is not empty); others see a locked teaser (title and date).
ALTER TABLE project_news ADD COLUMN audience TEXT NOT NULL DEFAULT 'public';
ALTER TABLE project_news ADD CONSTRAINT project_news_audience_check CHECK (audience IN ('public', 'supporters'));
-- The returns a supporters-only item is limited to; empty = every supporter of the project. Ids of the project's
-- returns (checked on write; a return can only be deleted while nobody backed it, so a stale id admits nobody).
ALTER TABLE project_news ADD COLUMN return_ids BIGINT[] NOT NULL DEFAULT '{}';
ALTER TABLE project_news ADD CONSTRAINT project_news_return_ids_check
    CHECK (audience = 'supporters' OR cardinality(return_ids) = 0);
ALTER TABLE project_news ADD CONSTRAINT project_news_return_ids_count CHECK (cardinality(return_ids) <= 100);
ALTER TABLE project_news ADD CONSTRAINT project_news_title_length CHECK (char_length(title) <= 100);
ALTER TABLE project_news ADD CONSTRAINT project_news_description_length CHECK (char_length(description) <= 100000);
-- 支援者にメールで知らせる: the item is mailed to its readers once it is public.
ALTER TABLE project_news ADD COLUMN mail_supporters BOOLEAN NOT NULL DEFAULT false;
-- The mass mail that carried it: set once, in the transaction that queues the mail, so a retried publish or a
-- second sweep never mails it again.
ALTER TABLE project_news ADD COLUMN mail_id BIGINT;
ALTER TABLE project_news ADD CONSTRAINT project_news_mail_id_fkey
    FOREIGN KEY (mail_id) REFERENCES sent_mails (id) ON DELETE RESTRICT;
-- When the mail was queued (with mail_id); NULL = not mailed (yet).
ALTER TABLE project_news ADD COLUMN mail_queued_at TIMESTAMPTZ;
ALTER TABLE project_news ADD CONSTRAINT project_news_mail_queued_check
    CHECK ((mail_id IS NULL) = (mail_queued_at IS NULL));
-- The operator who last saved the item; the sender of its mail.
ALTER TABLE project_news ADD COLUMN updated_by BIGINT;
ALTER TABLE project_news ADD CONSTRAINT project_news_updated_by_fkey
    FOREIGN KEY (updated_by) REFERENCES users (id) ON DELETE SET NULL;
-- What the mail sweep reads: items asked to be mailed and not mailed yet.
CREATE INDEX project_news_mail_due_idx ON project_news (published_at) WHERE mail_supporters AND mail_id IS NULL;

-- A news mail is a mass mail of its own segment (its readers; one-click opt-out, opted-out members skipped).
ALTER TABLE sent_mails DROP CONSTRAINT sent_mails_segment_check;
ALTER TABLE sent_mails ADD CONSTRAINT sent_mails_segment_check
    CHECK (segment IN ('all_users', 'project_supporters', 'project_news'));
ALTER TABLE sent_mails DROP CONSTRAINT sent_mails_segment_needs_project;
ALTER TABLE sent_mails ADD CONSTRAINT sent_mails_segment_needs_project
    CHECK (segment NOT IN ('project_supporters', 'project_news') OR project_id IS NOT NULL);

-- Following (お気に入り, issue #23; docs/decisions.md "Mail about kept projects"): members who asked to be mailed
-- 48 hours before a kept project ends and when it publishes news. Opt-in: no row, no mail. The one-click opt-out
-- link of those mails (mail_opt_outs) stops them as well.
CREATE TABLE favourite_mail_opt_ins (
    -- The member; one row each.
    user_id      BIGINT      PRIMARY KEY,
    -- When the member turned it on.
    opted_in_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT favourite_mail_opt_ins_user_id_fkey FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE
);

-- The mail 48 hours before a kept project ends, once per project and member: the row is written in the
-- transaction that queues the mail (a send_mail job), so a repeated sweep or a second process mails nobody twice.
CREATE TABLE favourite_end_notices (
    -- The project about to end.
    project_id  BIGINT      NOT NULL,
    -- The member told.
    user_id     BIGINT      NOT NULL,
    -- When the mail was queued.
    queued_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT favourite_end_notices_pkey PRIMARY KEY (project_id, user_id),
    CONSTRAINT favourite_end_notices_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects (id) ON DELETE CASCADE,
    CONSTRAINT favourite_end_notices_user_id_fkey FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE
);
