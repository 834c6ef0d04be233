ALTER TABLE comments DROP CONSTRAINT comments_hidden_reason_check;
ALTER TABLE comments DROP COLUMN hidden_reason;
