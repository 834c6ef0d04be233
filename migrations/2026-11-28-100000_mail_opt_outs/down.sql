DROP INDEX mail_recipients_pending_idx;
ALTER TABLE mail_recipients DROP CONSTRAINT mail_recipients_sent_or_given_up;
ALTER TABLE mail_recipients DROP COLUMN given_up;
DROP TABLE mail_opt_outs;
