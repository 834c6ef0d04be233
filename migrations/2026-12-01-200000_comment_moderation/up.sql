-- An operator may hide a supporter comment, with a reason (terms of use 第18条; docs/decisions.md, "Moderation").
-- flag 0 is a hidden comment; the reason stays with it while hidden. Who hid it and when is in admin_actions.
ALTER TABLE comments ADD COLUMN hidden_reason TEXT;
ALTER TABLE comments ADD CONSTRAINT comments_hidden_reason_check
    CHECK (hidden_reason IS NULL OR (flag = 0 AND char_length(hidden_reason) BETWEEN 1 AND 200));
