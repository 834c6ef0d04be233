-- Monthly support (issue #10): a return may be charged every month through a provider subscription on a member's
-- saved card. Every paid month is one sale (unique by the provider's invoice), so totals and sponsor walls count it
-- through the existing triggers.

-- 'month': backing the return starts a monthly subscription; NULL: a one-off return.
ALTER TABLE returns ADD COLUMN interval TEXT;
ALTER TABLE returns ADD CONSTRAINT returns_interval_check CHECK (interval IS NULL OR interval = 'month');
-- A month is one unit: monthly returns have no stock limit (each paid month is a sale that takes a lot).
ALTER TABLE returns ADD CONSTRAINT returns_monthly_unlimited CHECK (interval IS NULL OR stock_limit IS NULL);

-- The subscription row is written (status 'incomplete', no provider id yet) before the provider is asked, like a
-- sale; the provider id is set once from its answer.
ALTER TABLE subscriptions ALTER COLUMN subscription_id DROP NOT NULL;
-- The project and return backed every month.
ALTER TABLE subscriptions ADD COLUMN project_id BIGINT;
ALTER TABLE subscriptions ADD COLUMN return_id BIGINT;
-- The first month's sale (placed by the support call); later months copy its display name and terms.
ALTER TABLE subscriptions ADD COLUMN sale_id BIGINT;
-- Yen charged each month, tax included (the first sale's total).
ALTER TABLE subscriptions ADD COLUMN amount BIGINT;
-- The member's saved card that pays it (provider id, card_... / pm_...).
ALTER TABLE subscriptions ADD COLUMN card_id TEXT;
-- End of the paid period as the provider last reported it: the next charge, or the end when stopping.
ALTER TABLE subscriptions ADD COLUMN current_period_end TIMESTAMPTZ;
-- Stopped by the member, the card removal or the project's end: runs to current_period_end, then ends.
ALTER TABLE subscriptions ADD COLUMN cancel_at_period_end BOOLEAN NOT NULL DEFAULT FALSE;
-- The provider invoice whose failed payment the supporter was last mailed about (one mail per failed month).
ALTER TABLE subscriptions ADD COLUMN failure_mailed_invoice TEXT;
-- Whether the supporter was mailed that the subscription stopped (the mail goes once).
ALTER TABLE subscriptions ADD COLUMN end_mailed BOOLEAN NOT NULL DEFAULT FALSE;
-- The client's key of the support call that started it; one subscription per first sale.
ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_sale_id_key UNIQUE (sale_id);
ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_sale_fkey FOREIGN KEY (sale_id) REFERENCES sales (id) ON DELETE RESTRICT;
ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_return_fkey FOREIGN KEY (project_id, return_id)
    REFERENCES returns (project_id, id) ON DELETE RESTRICT;
ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_amount_check CHECK (amount IS NULL OR amount > 0);
ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_provider_id_once CHECK (status = 'incomplete' OR subscription_id IS NOT NULL);

-- A month of a subscription: the subscription and the provider invoice it paid. A redelivered invoice webhook
-- finds its sale by invoice_id and writes nothing.
ALTER TABLE sales ADD COLUMN subscription_id BIGINT;
ALTER TABLE sales ADD COLUMN invoice_id TEXT;
ALTER TABLE sales ADD CONSTRAINT sales_subscription_fkey FOREIGN KEY (subscription_id) REFERENCES subscriptions (id) ON DELETE RESTRICT;
ALTER TABLE sales ADD CONSTRAINT sales_invoice_id_key UNIQUE (invoice_id);
ALTER TABLE sales ADD CONSTRAINT sales_invoice_needs_subscription CHECK (invoice_id IS NULL OR subscription_id IS NOT NULL);

-- The project-end sweep: running subscriptions of a project.
CREATE INDEX subscriptions_project_running_idx ON subscriptions (project_id)
    WHERE status IN ('active', 'past_due', 'trialing', 'incomplete');
-- The months of one subscription.
CREATE INDEX sales_subscription_idx ON sales (subscription_id) WHERE subscription_id IS NOT NULL;
