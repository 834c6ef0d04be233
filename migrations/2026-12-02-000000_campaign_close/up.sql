-- The end of a campaign (docs/decisions.md, "Closing a campaign"): each public project whose end has passed is
-- decided once by the closing sweep (domain::closing::decide_close), its supporters told, and a failed
-- all-or-nothing project refunded in full. A successful project's owner is paid by payout statements.

CREATE TABLE project_closings (
    -- The project.
    project_id     BIGINT      PRIMARY KEY,
    -- succeeded | failed | awaiting_funds (bank transfers placed before the end still within their deadline).
    outcome        TEXT        NOT NULL,
    -- The goal, what supporters paid less refunds, and the transfers still awaited, when last looked at (yen).
    goal           BIGINT      NOT NULL,
    counted        BIGINT      NOT NULL,
    pending        BIGINT      NOT NULL,
    -- When the sweep last looked at it.
    checked_at     TIMESTAMPTZ NOT NULL,
    -- When the result was decided; NULL while awaiting funds. Written once.
    decided_at     TIMESTAMPTZ,
    -- When the supporters were sent the result.
    mailed_at      TIMESTAMPTZ,
    -- The bulk refund of a failed project.
    refund_job_id  BIGINT,
    CONSTRAINT project_closings_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects (id) ON DELETE CASCADE,
    CONSTRAINT project_closings_refund_job_id_fkey FOREIGN KEY (refund_job_id) REFERENCES background_jobs (id)
        ON DELETE SET NULL,
    CONSTRAINT project_closings_outcome_check CHECK (outcome IN ('succeeded', 'failed', 'awaiting_funds')),
    CONSTRAINT project_closings_decided_check CHECK ((outcome = 'awaiting_funds') = (decided_at IS NULL)),
    CONSTRAINT project_closings_amounts_check CHECK (goal >= 0 AND counted >= 0 AND pending >= 0)
);

-- Follow-ups of decided closings not finished yet (mails, refunds).
CREATE INDEX project_closings_follow_up_idx ON project_closings (project_id)
    WHERE decided_at IS NOT NULL AND (mailed_at IS NULL OR (outcome = 'failed' AND refund_job_id IS NULL));

-- A failed project's refunds are asked for by the site itself, not by an administrator.
ALTER TABLE refunds ALTER COLUMN requested_by DROP NOT NULL;

-- A payout to a successful project's owner, frozen when an operator marks it paid. Figures are cumulative since
-- the project's end (domain::payout::statement): `carried_over` is what earlier statements already paid out, so
-- refunds after a payout lower this one or leave the owner owing (`owed_by_owner`).
CREATE TABLE payout_statements (
    -- Surrogate key.
    id                 BIGSERIAL   PRIMARY KEY,
    -- The project paid.
    project_id         BIGINT      NOT NULL,
    -- 1 for the first statement of the project, then 2, 3, ... (adjustments).
    seq                INTEGER     NOT NULL,
    -- Paid less refunds, by card and by bank transfer (yen, tax included).
    card               BIGINT      NOT NULL,
    bank               BIGINT      NOT NULL,
    confirmed          BIGINT      NOT NULL,
    -- The terms' 20 % (tax included) and the consumption tax in it.
    platform_fee       BIGINT      NOT NULL,
    platform_fee_tax   BIGINT      NOT NULL,
    -- Fees a connected account paid at payment time, and what reached it directly.
    application_fees   BIGINT      NOT NULL,
    received_directly  BIGINT      NOT NULL,
    -- Bank charges of the transfers to the owner, this one included.
    transfer_fee       BIGINT      NOT NULL,
    -- Paid out by earlier statements.
    carried_over       BIGINT      NOT NULL,
    -- Paid by this statement, and what the owner owes after it.
    payout             BIGINT      NOT NULL,
    owed_by_owner      BIGINT      NOT NULL,
    -- The terms' payout day (3rd bank business day of the second month after the end month).
    payout_date        DATE        NOT NULL,
    -- When and how the transfer was made, and who marked it.
    paid_on            DATE        NOT NULL,
    reference          TEXT        NOT NULL,
    paid_by            BIGINT,
    created_at         TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT payout_statements_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects (id) ON DELETE RESTRICT,
    CONSTRAINT payout_statements_paid_by_fkey FOREIGN KEY (paid_by) REFERENCES users (id) ON DELETE SET NULL,
    CONSTRAINT payout_statements_project_seq_key UNIQUE (project_id, seq),
    CONSTRAINT payout_statements_seq_check CHECK (seq >= 1),
    CONSTRAINT payout_statements_reference_check CHECK (length(reference) BETWEEN 1 AND 100),
    CONSTRAINT payout_statements_amounts_check CHECK (
        card >= 0 AND bank >= 0 AND confirmed = card + bank AND platform_fee >= 0 AND platform_fee_tax >= 0
        AND application_fees >= 0 AND transfer_fee >= 0 AND carried_over >= 0 AND payout >= 0 AND owed_by_owner >= 0),
    -- Every yen accounted for: what came in equals what went out.
    CONSTRAINT payout_statements_balance_check CHECK (
        confirmed + owed_by_owner
        = platform_fee + application_fees + received_directly + transfer_fee + carried_over + payout)
);
