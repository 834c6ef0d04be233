DROP INDEX mail_recipients_user_id_idx;
DROP INDEX mail_recipients_unsent_idx;
DROP TABLE mail_recipients;
DROP INDEX sent_mails_created_idx;
DROP TABLE sent_mails;
