-- Members who asked (through the link in a mass mail to all members) not to receive mass mail any more
-- (特定電子メール法: every advertising mail carries a way to refuse the next ones). One row per member; the
-- sending job skips them. Transactional mail (payments, account) is not affected.
CREATE TABLE mail_opt_outs (
    -- The member; one row each.
    user_id       BIGINT      PRIMARY KEY,
    -- When the member opted out (the first time; a repeat changes nothing).
    opted_out_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT mail_opt_outs_user_id_fkey FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE
);

-- A recipient the job stopped trying: the relay refused the address for good, the job ran out of tries, or a
-- try was cut off after the message may have reached the relay (never retried: at most one mail each; see
-- docs/decisions.md). `error` says which.
ALTER TABLE mail_recipients ADD COLUMN given_up BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE mail_recipients ADD CONSTRAINT mail_recipients_sent_or_given_up CHECK (sent_at IS NULL OR NOT given_up);
-- What the sending job reads next: recipients neither sent nor given up.
CREATE INDEX mail_recipients_pending_idx ON mail_recipients (mail_id, id) WHERE sent_at IS NULL AND NOT given_up;
