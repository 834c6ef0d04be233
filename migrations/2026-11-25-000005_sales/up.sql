-- Sales (support records) and what hangs off them: display names, comments, additional data, refunds.
-- Invariants the database itself enforces (BRIEF decisions 4 and 5):
--   * amount = price x lot, total = amount + tax, lot 1..10, all yen BIGINT;
--   * a return is never oversold: inserting a live sale (or reviving one) adds its lot to returns.lots_taken in the
--     same statement, and returns_lots_taken_within_stock_limit refuses the overflow (row lock on the return
--     serialises concurrent purchases, across any number of app-server processes);
--   * a double-clicked confirm makes one sale: (user_id, idempotency_key) is unique;
--   * refunds never exceed the sale total: every non-failed refund is added to sales.refunded_amount, which is
--     CHECKed against total (same row-lock argument);
--   * the money terms of a sale never change after it is written.

CREATE TABLE sales (
    -- Surrogate key.
    id                   BIGSERIAL   PRIMARY KEY,
    -- The project supported.
    project_id           BIGINT      NOT NULL,
    -- The return bought; must belong to project_id (composite foreign key).
    return_id            BIGINT      NOT NULL,
    -- The supporter. Always set: members use their account, guests get a guest users row (status 'guest').
    -- Anonymous bank transfers go straight to the project's own account (projects.bank_*), so they make no sale.
    user_id              BIGINT      NOT NULL,
    -- Delivery address chosen at step 1 when the return requires one.
    address_id           BIGINT,
    -- Unit price in yen at the time of sale (copied from the return by the server, never from the client).
    price                BIGINT      NOT NULL,
    -- Number of lots (units), 1..10.
    lot                  SMALLINT    NOT NULL,
    -- price x lot, yen.
    amount               BIGINT      NOT NULL,
    -- Consumption tax in yen, floored; 0 for donations.
    tax                  BIGINT      NOT NULL,
    -- amount + tax: what the supporter pays.
    total                BIGINT      NOT NULL,
    -- Platform fee in yen taken from a connected-account payment (13.6% card / 11.5% bank, floored; special account 10.6% / 8.5%).
    application_fee      BIGINT      NOT NULL DEFAULT 0,
    -- Connected account the payment went to (copied from the project at sale time, for refunds and payouts).
    connected_account_id TEXT,
    -- 1 card, 2 bank transfer.
    payment_type         SMALLINT    NOT NULL,
    -- Payment state, set only from the provider's answer, a webhook or reconciliation, never from the client:
    --   pending          row written, payment intent not yet created/confirmed (lots already held);
    --   requires_action  waiting for the supporter (card authentication; legacy bank sales of the seed);
    --   awaiting_bank_transfer  bank transfer instructions issued, money not yet received;
    --   processing       provider is settling;
    --   succeeded        paid;
    --   canceled         given up (unpaid bank transfer, abandoned intent); lots released;
    --   failed           payment refused; lots released.
    status               TEXT        NOT NULL DEFAULT 'pending',
    -- Payment-provider payment intent id (pi_...); set once the intent exists.
    intent_id            TEXT,
    -- Client-generated key of one confirm attempt (also the base of the provider idempotency key); unique per user.
    idempotency_key      TEXT        NOT NULL,
    -- The seed's refund flag: 0 not refundable (not paid), 1 refundable, 11 refunded.
    flag                 SMALLINT    NOT NULL DEFAULT 0,
    -- Yen of non-failed refunds of this sale, kept by the trigger on refunds; never above total.
    refunded_amount      BIGINT      NOT NULL DEFAULT 0,
    -- When the row was written.
    created_at           TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- Last change, set by the server on every update.
    updated_at           TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- When the provider reported the payment succeeded.
    paid_at              TIMESTAMPTZ,
    CONSTRAINT sales_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects (id) ON DELETE RESTRICT,
    CONSTRAINT sales_return_fkey FOREIGN KEY (project_id, return_id) REFERENCES returns (project_id, id) ON DELETE RESTRICT,
    CONSTRAINT sales_user_id_fkey FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE RESTRICT,
    CONSTRAINT sales_address_id_fkey FOREIGN KEY (address_id) REFERENCES addresses (id) ON DELETE RESTRICT,
    -- Target of the children's composite keys, so a child row cannot contradict its sale.
    CONSTRAINT sales_id_project_return_user_key UNIQUE (id, project_id, return_id, user_id),
    CONSTRAINT sales_intent_id_key UNIQUE (intent_id),
    CONSTRAINT sales_idempotency_key_key UNIQUE (user_id, idempotency_key),
    CONSTRAINT sales_idempotency_key_check CHECK (length(idempotency_key) BETWEEN 8 AND 200),
    CONSTRAINT sales_price_check CHECK (price >= 0),
    CONSTRAINT sales_lot_check CHECK (lot BETWEEN 1 AND 10),
    CONSTRAINT sales_amount_check CHECK (amount = price * lot),
    CONSTRAINT sales_tax_check CHECK (tax >= 0),
    CONSTRAINT sales_total_check CHECK (total = amount + tax),
    CONSTRAINT sales_application_fee_check CHECK (application_fee >= 0 AND application_fee <= total),
    CONSTRAINT sales_payment_type_check CHECK (payment_type IN (1, 2)),
    CONSTRAINT sales_status_check CHECK (
        status IN ('pending', 'requires_action', 'awaiting_bank_transfer', 'processing', 'succeeded', 'canceled', 'failed')),
    CONSTRAINT sales_intent_required CHECK (status IN ('pending', 'canceled', 'failed') OR intent_id IS NOT NULL),
    CONSTRAINT sales_paid_at_check CHECK (status <> 'succeeded' OR paid_at IS NOT NULL),
    CONSTRAINT sales_flag_check CHECK (flag IN (0, 1, 11)),
    CONSTRAINT sales_flag_requires_paid CHECK (flag = 0 OR status = 'succeeded'),
    CONSTRAINT sales_refunded_flag_has_refund CHECK (flag <> 11 OR refunded_amount > 0),
    CONSTRAINT sales_refunded_amount_non_negative CHECK (refunded_amount >= 0),
    CONSTRAINT sales_refunded_within_total CHECK (refunded_amount <= total),
    CONSTRAINT sales_refund_requires_paid CHECK (refunded_amount = 0 OR status = 'succeeded')
);

-- Admin refund list and a project's supporters, newest first.
CREATE INDEX sales_project_created_idx ON sales (project_id, created_at DESC);
-- Payment history of a user, newest first.
CREATE INDEX sales_user_created_idx ON sales (user_id, created_at DESC);
-- Sales sum per return (the seed's "sales sum result": amount, lot).
CREATE INDEX sales_return_id_idx ON sales (return_id);
-- Progress, totals and sponsor walls read paid sales of one project only.
CREATE INDEX sales_project_paid_idx ON sales (project_id) INCLUDE (user_id, return_id, amount, total, lot, paid_at)
    WHERE status = 'succeeded';
-- Reconciliation sweep and bank-transfer expiry: live sales not yet paid.
CREATE INDEX sales_unpaid_idx ON sales (created_at) WHERE status IN ('pending', 'requires_action', 'awaiting_bank_transfer', 'processing');

-- The money terms and identity of a sale are written once. Only status, intent_id (once), flag, refunded_amount,
-- paid_at and updated_at may change.
CREATE FUNCTION sales_guard_terms() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.project_id IS DISTINCT FROM OLD.project_id
       OR NEW.return_id IS DISTINCT FROM OLD.return_id
       OR NEW.user_id IS DISTINCT FROM OLD.user_id
       OR NEW.price IS DISTINCT FROM OLD.price
       OR NEW.lot IS DISTINCT FROM OLD.lot
       OR NEW.amount IS DISTINCT FROM OLD.amount
       OR NEW.tax IS DISTINCT FROM OLD.tax
       OR NEW.total IS DISTINCT FROM OLD.total
       OR NEW.application_fee IS DISTINCT FROM OLD.application_fee
       OR NEW.payment_type IS DISTINCT FROM OLD.payment_type
       OR NEW.idempotency_key IS DISTINCT FROM OLD.idempotency_key
       OR (OLD.intent_id IS NOT NULL AND NEW.intent_id IS DISTINCT FROM OLD.intent_id) THEN
        RAISE EXCEPTION 'the terms of sale % cannot change', OLD.id
            USING ERRCODE = 'check_violation', CONSTRAINT = 'sales_terms_immutable',
                  SCHEMA = TG_TABLE_SCHEMA, TABLE = TG_TABLE_NAME;
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER sales_guard_terms BEFORE UPDATE ON sales FOR EACH ROW EXECUTE FUNCTION sales_guard_terms();

-- Keeps returns.lots_taken equal to the lots of live sales (every status but canceled and failed).
-- The UPDATE on returns runs in the sale's own statement; its CHECK refuses overselling.
CREATE FUNCTION sales_sync_return_lots() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    old_live BOOLEAN := TG_OP = 'UPDATE' AND OLD.status NOT IN ('canceled', 'failed');
    new_live BOOLEAN := NEW.status NOT IN ('canceled', 'failed');
BEGIN
    IF new_live AND NOT old_live THEN
        UPDATE returns SET lots_taken = lots_taken + NEW.lot WHERE id = NEW.return_id;
    ELSIF old_live AND NOT new_live THEN
        UPDATE returns SET lots_taken = lots_taken - NEW.lot WHERE id = NEW.return_id;
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER sales_sync_return_lots AFTER INSERT OR UPDATE OF status ON sales
    FOR EACH ROW EXECUTE FUNCTION sales_sync_return_lots();

-- Name shown for a sale on sponsor lists and in history (editable by its owner only, never empty).
CREATE TABLE display_names (
    -- Surrogate key.
    id          BIGSERIAL   PRIMARY KEY,
    -- The sale named; one display name per sale.
    sales_id    BIGINT      NOT NULL,
    -- The sale's supporter (must match the sale).
    user_id     BIGINT      NOT NULL,
    -- The sale's project (must match the sale).
    project_id  BIGINT      NOT NULL,
    -- The sale's return (must match the sale).
    return_id   BIGINT      NOT NULL,
    -- The name as typed at step 1 or edited in history.
    displayname TEXT        NOT NULL,
    -- The seed's flag: 1 shown by name, 0 shown as '匿名' (anonymous).
    flag        SMALLINT    NOT NULL DEFAULT 1,
    -- When the row was written.
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- Last change, set by the server on every update.
    updated_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT display_names_sale_fkey FOREIGN KEY (sales_id, project_id, return_id, user_id)
        REFERENCES sales (id, project_id, return_id, user_id) ON DELETE CASCADE,
    CONSTRAINT display_names_sales_id_key UNIQUE (sales_id),
    CONSTRAINT display_names_displayname_check CHECK (btrim(displayname) <> ''),
    CONSTRAINT display_names_flag_check CHECK (flag IN (0, 1))
);

CREATE INDEX display_names_project_id_idx ON display_names (project_id);

-- Supporter comments on a project page (edited by their author only).
CREATE TABLE comments (
    -- Surrogate key.
    id         BIGSERIAL   PRIMARY KEY,
    -- The project commented on.
    project_id BIGINT      NOT NULL,
    -- The author.
    user_id    BIGINT      NOT NULL,
    -- The sale the comment was written with (payment step 1); NULL for a comment not tied to a sale.
    sales_id   BIGINT,
    -- The sale's return; set exactly when sales_id is.
    return_id  BIGINT,
    -- The text (plain text; escaped when rendered).
    comment    TEXT        NOT NULL,
    -- 1 shown, 0 hidden by an administrator.
    flag       SMALLINT    NOT NULL DEFAULT 1,
    -- When the row was written.
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- Shown as the comment's date.
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT comments_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects (id) ON DELETE CASCADE,
    CONSTRAINT comments_user_id_fkey FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE,
    CONSTRAINT comments_sale_fkey FOREIGN KEY (sales_id, project_id, return_id, user_id)
        REFERENCES sales (id, project_id, return_id, user_id) ON DELETE CASCADE,
    CONSTRAINT comments_sales_id_key UNIQUE (sales_id),
    CONSTRAINT comments_sale_and_return_together CHECK ((sales_id IS NULL) = (return_id IS NULL)),
    CONSTRAINT comments_comment_check CHECK (btrim(comment) <> ''),
    CONSTRAINT comments_flag_check CHECK (flag IN (0, 1))
);

-- A project's comments, newest first.
CREATE INDEX comments_project_created_idx ON comments (project_id, created_at DESC);
CREATE INDEX comments_user_id_idx ON comments (user_id);

-- Answers to a project's additional-data question, given at payment step 1.
CREATE TABLE sale_additional_data (
    -- Surrogate key.
    id         BIGSERIAL   PRIMARY KEY,
    -- The sale answered for.
    sales_id   BIGINT      NOT NULL,
    -- The sale's project (must match the sale).
    project_id BIGINT      NOT NULL,
    -- The sale's return (must match the sale).
    return_id  BIGINT      NOT NULL,
    -- The sale's supporter (must match the sale).
    user_id    BIGINT      NOT NULL,
    -- The project's additional_data_label at the time of sale (copied, so later edits do not rewrite history).
    label      TEXT        NOT NULL,
    -- The supporter's answer.
    value      TEXT        NOT NULL,
    -- When the row was written.
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT sale_additional_data_sale_fkey FOREIGN KEY (sales_id, project_id, return_id, user_id)
        REFERENCES sales (id, project_id, return_id, user_id) ON DELETE CASCADE,
    CONSTRAINT sale_additional_data_label_key UNIQUE (sales_id, label)
);

CREATE INDEX sale_additional_data_project_id_idx ON sale_additional_data (project_id);

-- Refunds of a sale. A refund is written as 'pending' before the provider is called (this reserves the amount),
-- then marked succeeded with the provider's refund id, or failed. Retrying a pending refund reuses the provider
-- idempotency key derived from its id, so a crash between the provider and us cannot refund twice.
CREATE TABLE refunds (
    -- Surrogate key.
    id                 BIGSERIAL   PRIMARY KEY,
    -- The sale refunded.
    sales_id           BIGINT      NOT NULL,
    -- Yen refunded; the sum of non-failed refunds of a sale never exceeds its total (sales_refunded_within_total).
    amount             BIGINT      NOT NULL,
    -- pending -> succeeded | failed.
    status             TEXT        NOT NULL DEFAULT 'pending',
    -- Payment-provider refund id (re_...), once the provider answered.
    provider_refund_id TEXT,
    -- Administrator who asked for it.
    requested_by       BIGINT      NOT NULL,
    -- Bulk-refund job it belongs to; NULL for a single refund.
    job_id             BIGINT,
    -- Provider's reason when it failed.
    failure_reason     TEXT,
    -- When the row was written.
    created_at         TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- Last change, set by the server on every update.
    updated_at         TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT refunds_sales_id_fkey FOREIGN KEY (sales_id) REFERENCES sales (id) ON DELETE RESTRICT,
    CONSTRAINT refunds_requested_by_fkey FOREIGN KEY (requested_by) REFERENCES users (id) ON DELETE RESTRICT,
    CONSTRAINT refunds_job_id_fkey FOREIGN KEY (job_id) REFERENCES background_jobs (id) ON DELETE SET NULL,
    CONSTRAINT refunds_provider_refund_id_key UNIQUE (provider_refund_id),
    CONSTRAINT refunds_amount_check CHECK (amount > 0),
    CONSTRAINT refunds_status_check CHECK (status IN ('pending', 'succeeded', 'failed')),
    CONSTRAINT refunds_succeeded_has_provider_id CHECK (status <> 'succeeded' OR provider_refund_id IS NOT NULL)
);

CREATE INDEX refunds_sales_id_idx ON refunds (sales_id);
CREATE INDEX refunds_job_id_idx ON refunds (job_id) WHERE job_id IS NOT NULL;
-- Recovery of refunds interrupted between our write and the provider's answer.
CREATE INDEX refunds_pending_idx ON refunds (created_at) WHERE status = 'pending';

-- Keeps sales.refunded_amount equal to the sum of the sale's non-failed refunds. The UPDATE on sales runs in
-- the refund's own statement, so sales_refunded_within_total and sales_refund_requires_paid refuse a refund
-- above the total or of an unpaid sale, and the row lock serialises concurrent refunds of one sale.
CREATE FUNCTION refunds_sync_sale_refunded() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.status <> 'failed' THEN
        UPDATE sales SET refunded_amount = refunded_amount - OLD.amount WHERE id = OLD.sales_id;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.status <> 'failed' THEN
        UPDATE sales SET refunded_amount = refunded_amount + NEW.amount WHERE id = NEW.sales_id;
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER refunds_sync_sale_refunded AFTER INSERT OR DELETE OR UPDATE OF sales_id, amount, status ON refunds
    FOR EACH ROW EXECUTE FUNCTION refunds_sync_sale_refunded();
