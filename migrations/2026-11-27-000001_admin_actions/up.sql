-- The administrators' audit log: every admin action (a refund asked or applied, a mass mail sent, a
-- registration mail resent, ...) with who did it, when, and on what. Rows are only ever added.

CREATE TABLE admin_actions (
    -- Surrogate key; also the log's order.
    id            BIGSERIAL   PRIMARY KEY,
    -- The administrator who acted.
    actor_user_id BIGINT      NOT NULL,
    -- What was done: a short code (refund_requested, refund_bulk_started, mail_sent, register_mail_resent, ...).
    action        TEXT        NOT NULL,
    -- The sale acted on, when there is one.
    sale_id       BIGINT,
    -- The sent mail acted on, when there is one.
    mail_id       BIGINT,
    -- The project acted on, when there is one.
    project_id    BIGINT,
    -- The e-mail address acted on (a resent registration mail), when there is one.
    target_email  TEXT,
    -- What else the screen shows about it (amounts, counts, reasons); at most a few hundred bytes.
    detail        JSONB       NOT NULL DEFAULT '{}'::jsonb,
    -- When it was done.
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT admin_actions_actor_user_id_fkey FOREIGN KEY (actor_user_id) REFERENCES users (id) ON DELETE RESTRICT,
    CONSTRAINT admin_actions_sale_id_fkey FOREIGN KEY (sale_id) REFERENCES sales (id) ON DELETE SET NULL,
    CONSTRAINT admin_actions_mail_id_fkey FOREIGN KEY (mail_id) REFERENCES sent_mails (id) ON DELETE SET NULL,
    CONSTRAINT admin_actions_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects (id) ON DELETE SET NULL,
    CONSTRAINT admin_actions_action_check CHECK (action ~ '^[a-z_]{1,60}$'),
    CONSTRAINT admin_actions_target_email_check CHECK (target_email IS NULL OR length(target_email) <= 254),
    CONSTRAINT admin_actions_detail_check CHECK (jsonb_typeof(detail) = 'object' AND length(detail::text) <= 4096)
);

-- The dashboard's "recent admin actions", newest first.
CREATE INDEX admin_actions_created_idx ON admin_actions (created_at DESC, id DESC);
CREATE INDEX admin_actions_sale_id_idx ON admin_actions (sale_id) WHERE sale_id IS NOT NULL;
