-- The dashboard lists the mass-mail recipients the sending job gave up on with every read: an index on those
-- few rows, so the read does not scan every recipient of every mail.
CREATE INDEX mail_recipients_given_up_idx ON mail_recipients (mail_id) WHERE given_up;
