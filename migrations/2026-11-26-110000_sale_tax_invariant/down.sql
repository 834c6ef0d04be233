-- Restores the single rule total = amount + tax. Tax-included sales go back to storing tax = 0 (the tax they
-- contain was not stored before), with the terms trigger paused as in up.sql.
COMMENT ON COLUMN returns.price IS NULL;

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
ALTER TABLE sales DROP CONSTRAINT sales_tax_rate_percent_check;
ALTER TABLE sales DROP CONSTRAINT sales_tax_mode_check;

ALTER TABLE sales DISABLE TRIGGER sales_guard_terms;
UPDATE sales SET tax = 0 WHERE tax_mode = 'inclusive';
ALTER TABLE sales ENABLE TRIGGER sales_guard_terms;

ALTER TABLE sales ADD CONSTRAINT sales_total_check CHECK (total = amount + tax);
ALTER TABLE sales DROP COLUMN tax_rate_percent;
ALTER TABLE sales DROP COLUMN tax_mode;
