-- Fixed-window rate-limit counters for login, signup and password-reset requests, shared by every app-server
-- process. One statement counts a hit and reads the result:
--   INSERT INTO rate_limit_buckets (key, window_start) VALUES ($1, $2)
--   ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limit_buckets.count + 1 RETURNING count;

CREATE TABLE rate_limit_buckets (
    -- What is limited, e.g. 'login:ip:203.0.113.7' or 'reset:email:<sha256>' (no raw e-mail addresses).
    key          TEXT        NOT NULL,
    -- Start of the window, truncated by the server to the rule's window length.
    window_start TIMESTAMPTZ NOT NULL,
    -- Hits in this window so far.
    count        INTEGER     NOT NULL DEFAULT 1,
    CONSTRAINT rate_limit_buckets_pkey PRIMARY KEY (key, window_start),
    CONSTRAINT rate_limit_buckets_count_check CHECK (count >= 0)
);

-- Periodic purge of expired windows.
CREATE INDEX rate_limit_buckets_window_start_idx ON rate_limit_buckets (window_start);
