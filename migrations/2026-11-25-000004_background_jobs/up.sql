-- Background jobs kept in PostgreSQL (BRIEF decision 6): mass mail and bulk refunds run here, claimed by any
-- app-server process with SELECT ... FOR UPDATE SKIP LOCKED, with progress the admin page reads.

CREATE TABLE background_jobs (
    -- Surrogate key.
    id             BIGSERIAL   PRIMARY KEY,
    -- What to run, e.g. 'mass_mail', 'bulk_refund'; the worker dispatches on it.
    kind           TEXT        NOT NULL,
    -- Arguments of the job (ids, refund mode and amount ...), as the job kind defines them.
    payload        JSONB       NOT NULL DEFAULT '{}'::jsonb,
    -- queued -> running -> succeeded | failed; queued | running -> canceled. A failed try with attempts left goes back to queued.
    status         TEXT        NOT NULL DEFAULT 'queued',
    -- Tries started so far.
    attempts       INTEGER     NOT NULL DEFAULT 0,
    -- Tries allowed before the job is failed for good.
    max_attempts   INTEGER     NOT NULL DEFAULT 5,
    -- Not claimed before this instant (retry back-off).
    run_after      TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- When a worker claimed it; a running job locked long ago belongs to a dead worker and is requeued.
    locked_at      TIMESTAMPTZ,
    -- Which worker process holds it (host:pid), for the log.
    locked_by      TEXT,
    -- Items finished (mails sent, sales refunded), shown as progress.
    progress_done  INTEGER     NOT NULL DEFAULT 0,
    -- Items in total; NULL until the job has counted them.
    progress_total INTEGER,
    -- Error of the last failed try (never shown to clients verbatim).
    last_error     TEXT,
    -- Administrator who started it; NULL for system jobs.
    created_by     BIGINT,
    -- When the row was written.
    created_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- Last change, set by the server on every update.
    updated_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- When it reached succeeded, failed or canceled.
    finished_at    TIMESTAMPTZ,
    CONSTRAINT background_jobs_created_by_fkey FOREIGN KEY (created_by) REFERENCES users (id) ON DELETE SET NULL,
    CONSTRAINT background_jobs_kind_check CHECK (kind ~ '^[a-z][a-z0-9_]*$'),
    CONSTRAINT background_jobs_status_check CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'canceled')),
    CONSTRAINT background_jobs_attempts_check CHECK (attempts >= 0 AND max_attempts > 0),
    CONSTRAINT background_jobs_progress_check CHECK (
        progress_done >= 0 AND (progress_total IS NULL OR (progress_total >= 0 AND progress_done <= progress_total))),
    CONSTRAINT background_jobs_running_is_locked CHECK (status <> 'running' OR locked_at IS NOT NULL),
    CONSTRAINT background_jobs_finished_check CHECK (
        (status IN ('succeeded', 'failed', 'canceled')) = (finished_at IS NOT NULL))
);

-- Claiming: the oldest due queued job.
CREATE INDEX background_jobs_queued_idx ON background_jobs (run_after, id) WHERE status = 'queued';
-- Recovery of jobs held by dead workers.
CREATE INDEX background_jobs_running_idx ON background_jobs (locked_at) WHERE status = 'running';
-- Admin page: jobs of a kind, newest first.
CREATE INDEX background_jobs_kind_created_idx ON background_jobs (kind, created_at DESC);
