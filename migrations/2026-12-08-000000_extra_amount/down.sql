-- Back to sales without 上乗せ支援. Sales that carried an extra cannot satisfy the old tax rule (their total holds
-- the extra), so the migration refuses to go down while any exists rather than rewrite what was charged.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM sales WHERE extra_amount <> 0) THEN
        RAISE EXCEPTION 'sales with an extra amount exist; they cannot be kept under the old tax rule';
    END IF;
END;
$$;

CREATE OR REPLACE FUNCTION sales_guard_terms() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.project_id IS DISTINCT FROM OLD.project_id
       OR NEW.return_id IS DISTINCT FROM OLD.return_id
       OR NEW.user_id IS DISTINCT FROM OLD.user_id
       OR NEW.price IS DISTINCT FROM OLD.price
       OR NEW.lot IS DISTINCT FROM OLD.lot
       OR NEW.amount IS DISTINCT FROM OLD.amount
       OR NEW.tax IS DISTINCT FROM OLD.tax
       OR NEW.total IS DISTINCT FROM OLD.total
       OR NEW.tax_mode IS DISTINCT FROM OLD.tax_mode
       OR NEW.tax_rate_percent IS DISTINCT FROM OLD.tax_rate_percent
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

ALTER TABLE sales DROP CONSTRAINT sales_tax_invariant;
ALTER TABLE sales ADD CONSTRAINT sales_tax_invariant CHECK (
    CASE tax_mode
        WHEN 'exclusive' THEN tax = div(amount::numeric * tax_rate_percent, 100) AND total = amount + tax
        WHEN 'inclusive' THEN tax = div(total::numeric * tax_rate_percent, 100 + tax_rate_percent) AND total = amount
        WHEN 'exempt' THEN tax_rate_percent = 0 AND tax = 0 AND total = amount
        ELSE FALSE
    END
);
COMMENT ON CONSTRAINT sales_tax_invariant ON sales IS
    'The tax rule: exclusive tax = floor(amount x rate / 100), total = amount + tax; inclusive tax = floor(total x rate / (100 + rate)), total = amount; exempt rate = tax = 0, total = amount.';

ALTER TABLE sales DROP CONSTRAINT sales_extra_amount_check;
ALTER TABLE sales DROP COLUMN extra_amount;
