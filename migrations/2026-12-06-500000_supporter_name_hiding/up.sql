-- An operator hides a supporter's public name on one project (terms 第18条; docs/decisions.md, "Moderation"):
-- the sponsor walls, the supporters list, the footer sponsors and the comments then show the supporter as 匿名 (and
-- without a logo), as if they had asked for anonymity. One row per project and supporter while hidden; showing the
-- name again deletes the row (the audit log keeps who did what and why).
CREATE TABLE supporter_name_hidings (
    -- The project whose pages hide the name.
    project_id  BIGINT      NOT NULL,
    -- The supporter.
    user_id     BIGINT      NOT NULL,
    -- Why (domain::comment::HIDE_REASON: one line, 1-200 characters), shown to operators.
    reason      TEXT        NOT NULL,
    -- The operator who hid it; NULL once that account is gone.
    hidden_by   BIGINT,
    -- When it was hidden.
    hidden_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT supporter_name_hidings_pkey PRIMARY KEY (project_id, user_id),
    CONSTRAINT supporter_name_hidings_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects (id)
        ON DELETE CASCADE,
    CONSTRAINT supporter_name_hidings_user_id_fkey FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE,
    CONSTRAINT supporter_name_hidings_hidden_by_fkey FOREIGN KEY (hidden_by) REFERENCES users (id)
        ON DELETE SET NULL,
    CONSTRAINT supporter_name_hidings_reason_check CHECK (char_length(reason) BETWEEN 1 AND 200)
);
