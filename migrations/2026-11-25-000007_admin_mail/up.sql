-- Mass mail sent by administrators, and one row per recipient so the sending job can resume where it stopped
-- and never mail anyone twice.

CREATE TABLE sent_mails (
    -- Surrogate key.
    id               BIGSERIAL   PRIMARY KEY,
    -- Subject line; required ('タイトルを入力してください。').
    title            TEXT        NOT NULL,
    -- Body HTML, sanitised by the server before it is stored; required ('内容を入力してください。').
    content          TEXT        NOT NULL,
    -- Project the mail is about (chosen in the form); NULL = not tied to a project.
    project_id       BIGINT,
    -- Administrator who sent it (the seed's user_id; shown as sender).
    sender_user_id   BIGINT      NOT NULL,
    -- Who receives it: 'all_users' (every account with an e-mail) or 'project_supporters' (paid supporters of project_id).
    segment          TEXT        NOT NULL DEFAULT 'all_users',
    -- The background job sending it.
    job_id           BIGINT,
    -- queued -> sending -> sent | failed.
    status           TEXT        NOT NULL DEFAULT 'queued',
    -- Recipients resolved when the job started; NULL before.
    recipients_total INTEGER,
    -- Recipients mailed successfully.
    sent_count       INTEGER     NOT NULL DEFAULT 0,
    -- Recipients whose delivery failed for good.
    failed_count     INTEGER     NOT NULL DEFAULT 0,
    -- Shown as the mail's date in the list.
    created_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- When the job finished.
    finished_at      TIMESTAMPTZ,
    CONSTRAINT sent_mails_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects (id) ON DELETE RESTRICT,
    CONSTRAINT sent_mails_sender_user_id_fkey FOREIGN KEY (sender_user_id) REFERENCES users (id) ON DELETE RESTRICT,
    CONSTRAINT sent_mails_job_id_fkey FOREIGN KEY (job_id) REFERENCES background_jobs (id) ON DELETE SET NULL,
    CONSTRAINT sent_mails_title_check CHECK (btrim(title) <> ''),
    CONSTRAINT sent_mails_content_check CHECK (btrim(content) <> ''),
    CONSTRAINT sent_mails_segment_check CHECK (segment IN ('all_users', 'project_supporters')),
    CONSTRAINT sent_mails_segment_needs_project CHECK (segment <> 'project_supporters' OR project_id IS NOT NULL),
    CONSTRAINT sent_mails_status_check CHECK (status IN ('queued', 'sending', 'sent', 'failed')),
    CONSTRAINT sent_mails_counts_check CHECK (
        sent_count >= 0 AND failed_count >= 0
        AND (recipients_total IS NULL OR sent_count + failed_count <= recipients_total))
);

-- Admin mail list, newest first.
CREATE INDEX sent_mails_created_idx ON sent_mails (created_at DESC);

CREATE TABLE mail_recipients (
    -- Surrogate key.
    id         BIGSERIAL   PRIMARY KEY,
    -- The mail.
    mail_id    BIGINT      NOT NULL,
    -- The recipient account; each account gets a mail once.
    user_id    BIGINT      NOT NULL,
    -- Address used, as it was when the recipient list was resolved.
    email      TEXT        NOT NULL,
    -- Delivery attempts so far.
    attempts   INTEGER     NOT NULL DEFAULT 0,
    -- When the SMTP relay accepted it; NULL = not yet sent.
    sent_at    TIMESTAMPTZ,
    -- Last delivery error; set with sent_at NULL when it failed.
    error      TEXT,
    CONSTRAINT mail_recipients_mail_id_fkey FOREIGN KEY (mail_id) REFERENCES sent_mails (id) ON DELETE CASCADE,
    CONSTRAINT mail_recipients_user_id_fkey FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE,
    CONSTRAINT mail_recipients_mail_user_key UNIQUE (mail_id, user_id),
    CONSTRAINT mail_recipients_attempts_check CHECK (attempts >= 0)
);

-- The job's next batch: recipients of a mail not yet sent.
CREATE INDEX mail_recipients_unsent_idx ON mail_recipients (mail_id, id) WHERE sent_at IS NULL;
CREATE INDEX mail_recipients_user_id_idx ON mail_recipients (user_id);
