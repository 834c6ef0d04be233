-- Accounts: members, guests and provisional sign-ups, and the one-time keys mailed to them.

CREATE TABLE users (
    id                  BIGSERIAL PRIMARY KEY,
    -- As typed by the user (trimmed); uniqueness is on lower(email) below.
    email               TEXT        NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
    -- guest: supported with an e-mail only; provisional: signed up, no password yet; member: can log in.
    status              TEXT        NOT NULL CHECK (status IN ('guest', 'provisional', 'member')),
    -- bcrypt hash; NULL until the account sets a password.
    password_hash       TEXT,
    username            TEXT,
    displayname         TEXT,
    profile             TEXT,
    age_group           TEXT,
    corporatename       TEXT,
    corporateurl        TEXT,
    language            TEXT        NOT NULL DEFAULT 'ja',
    -- Consecutive wrong passwords since the last successful login.
    failed_login_count  INTEGER     NOT NULL DEFAULT 0 CHECK (failed_login_count >= 0),
    -- Set when the lockout rule fires; login is refused until then.
    banned_until        TIMESTAMPTZ,
    -- Tokens issued before this instant are refused (password change or reset).
    password_changed_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    created_at          TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at          TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT users_member_has_password CHECK (status <> 'member' OR password_hash IS NOT NULL)
);

CREATE UNIQUE INDEX users_email_lower_key ON users (lower(email));

-- One-time keys sent by mail: account activation, password reset, e-mail change.
CREATE TABLE user_keys (
    id          BIGSERIAL PRIMARY KEY,
    user_id     BIGINT      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    purpose     TEXT        NOT NULL CHECK (purpose IN ('activate', 'reset_password', 'change_email')),
    -- SHA-256 (hex) of the key in the mailed link; the key itself is never stored.
    key_hash    TEXT        NOT NULL UNIQUE,
    -- The requested address, for purpose change_email only.
    new_email   TEXT,
    expires_at  TIMESTAMPTZ NOT NULL,
    -- Set when the key is used; a used key never works again.
    used_at     TIMESTAMPTZ,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT user_keys_new_email_only_for_change CHECK ((purpose = 'change_email') = (new_email IS NOT NULL))
);

CREATE INDEX user_keys_user_id_idx ON user_keys (user_id);
