-- Payment-provider side records: the provider customer of a user (cards live at the provider, not here),
-- card subscriptions, and every provider event received, for webhook idempotency and reconciliation.

-- The provider customer of a user (created on first card registration or first bank transfer).
CREATE TABLE payment_customers (
    -- The user; one customer per user.
    user_id         BIGINT      NOT NULL,
    -- Provider customer id (cus_...).
    customer_id     TEXT        NOT NULL,
    -- Provider id of the default card (pm_... / card_...); NULL until a card is registered.
    default_card_id TEXT,
    -- When the row was written.
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- Last change, set by the server on every update.
    updated_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT payment_customers_pkey PRIMARY KEY (user_id),
    CONSTRAINT payment_customers_user_id_fkey FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE RESTRICT,
    CONSTRAINT payment_customers_customer_id_key UNIQUE (customer_id),
    -- Target of subscriptions' composite key (a subscription's customer must be its user's).
    CONSTRAINT payment_customers_user_customer_key UNIQUE (user_id, customer_id)
);

-- Recurring card support (provider subscriptions), mirrored from the provider's answers and webhooks.
CREATE TABLE subscriptions (
    -- Surrogate key.
    id              BIGSERIAL   PRIMARY KEY,
    -- The subscriber.
    user_id         BIGINT      NOT NULL,
    -- The subscriber's provider customer.
    customer_id     TEXT        NOT NULL,
    -- Provider subscription id (sub_...).
    subscription_id TEXT        NOT NULL,
    -- Provider plan / price id (the seed's plan ids).
    plan_id         TEXT        NOT NULL,
    -- Provider status, as the provider names it.
    status          TEXT        NOT NULL,
    -- When the row was written.
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- Last change, set by the server on every update.
    updated_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- When the provider reported it canceled.
    canceled_at     TIMESTAMPTZ,
    CONSTRAINT subscriptions_customer_fkey FOREIGN KEY (user_id, customer_id)
        REFERENCES payment_customers (user_id, customer_id) ON DELETE RESTRICT,
    CONSTRAINT subscriptions_subscription_id_key UNIQUE (subscription_id),
    CONSTRAINT subscriptions_status_check CHECK (status IN (
        'incomplete', 'incomplete_expired', 'trialing', 'active', 'past_due', 'canceled', 'unpaid', 'paused'))
);

CREATE INDEX subscriptions_user_id_idx ON subscriptions (user_id);

-- Every provider event received (webhook or fetched by the reconciler). The primary key makes a redelivered
-- event a no-op; unprocessed rows are retried, so a payment that succeeded at the provider always reaches sales.
CREATE TABLE provider_events (
    -- Provider event id (evt_...).
    event_id     TEXT        NOT NULL,
    -- Event type, e.g. 'payment_intent.succeeded'.
    event_type   TEXT        NOT NULL,
    -- Id of the object the event is about (pi_..., re_..., sub_...), to find our row.
    object_id    TEXT,
    -- The event as received (signature already verified), for replay and audit.
    payload      JSONB       NOT NULL,
    -- When we first received it.
    received_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- When it was applied to our tables; NULL = still to do.
    processed_at TIMESTAMPTZ,
    -- Failed applications so far.
    attempts     INTEGER     NOT NULL DEFAULT 0,
    -- Error of the last failed application.
    last_error   TEXT,
    CONSTRAINT provider_events_pkey PRIMARY KEY (event_id),
    CONSTRAINT provider_events_attempts_check CHECK (attempts >= 0)
);

-- Reconciler: events still to apply, oldest first.
CREATE INDEX provider_events_unprocessed_idx ON provider_events (received_at) WHERE processed_at IS NULL;
-- All events about one payment intent / refund.
CREATE INDEX provider_events_object_id_idx ON provider_events (object_id);
