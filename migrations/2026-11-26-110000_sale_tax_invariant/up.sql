-- The tax rule (docs/decisions.md, "The tax rule"; domain::money::PriceBreakdown::compute): the supporter pays the
-- tax-included total the screen showed, and every sale records the consumption tax that total contains.
--   exclusive (税別 price): amount = price x lot, tax = floor(amount x rate / 100),         total = amount + tax
--   inclusive (税込 price): amount = price x lot, tax = floor(total x rate / (100 + rate)), total = amount
--   exempt    (donation):   amount = price x lot, tax = 0, rate = 0,                         total = amount
-- Before this migration, sales_total_check (total = amount + tax) forced a tax-included sale to store tax = 0.

-- The tax mode the sale was priced with, taken by the server from its project (isDonation, taxIncludes) at the
-- time of sale: 'inclusive', 'exclusive' or 'exempt' (domain::money::TaxMode::code).
ALTER TABLE sales ADD COLUMN tax_mode TEXT;
-- The consumption-tax rate the sale was priced with, in whole percent (10 standard, 8 reduced); 0 for donations.
-- Kept per sale so a receipt shows the rate that applied, even after the standard rate changes.
ALTER TABLE sales ADD COLUMN tax_rate_percent SMALLINT;

-- Replaced by sales_tax_invariant, which states total for every mode (sales_amount_check and sales_tax_check stay).
ALTER TABLE sales DROP CONSTRAINT sales_total_check;

-- Backfill: every sale so far was priced at the standard 10 % from its project's flags. Tax-included sales stored
-- tax = 0 (the old rule); they get the tax their total contains. Totals (what was charged) never change here.
-- The terms trigger refuses any change of tax, so it is paused for these two statements only.
ALTER TABLE sales DISABLE TRIGGER sales_guard_terms;
UPDATE sales s
   SET tax_mode = CASE WHEN p.is_donation THEN 'exempt' WHEN p.tax_includes THEN 'inclusive' ELSE 'exclusive' END,
       tax_rate_percent = CASE WHEN p.is_donation THEN 0 ELSE 10 END
  FROM projects p
 WHERE p.id = s.project_id;
UPDATE sales SET tax = total * 10 / 110 WHERE tax_mode = 'inclusive' AND tax = 0 AND total = amount;
ALTER TABLE sales ENABLE TRIGGER sales_guard_terms;

ALTER TABLE sales ALTER COLUMN tax_mode SET NOT NULL;
ALTER TABLE sales ALTER COLUMN tax_rate_percent SET NOT NULL;

-- One of the three modes.
ALTER TABLE sales ADD CONSTRAINT sales_tax_mode_check CHECK (tax_mode IN ('inclusive', 'exclusive', 'exempt'));
-- A rate is a whole percent between 0 and 100 (domain::money::TaxRate).
ALTER TABLE sales ADD CONSTRAINT sales_tax_rate_percent_check CHECK (tax_rate_percent BETWEEN 0 AND 100);

-- The tax rule above, for all three modes. div() on numeric is integer division truncating toward zero, which is
-- the floor for these non-negative values, and numeric cannot overflow where amount x rate would exceed bigint.
-- An unknown mode fails (ELSE FALSE) instead of passing as NULL.
ALTER TABLE sales ADD CONSTRAINT sales_tax_invariant CHECK (
    CASE tax_mode
        WHEN 'exclusive' THEN tax = div(amount::numeric * tax_rate_percent, 100) AND total = amount + tax
        WHEN 'inclusive' THEN tax = div(total::numeric * tax_rate_percent, 100 + tax_rate_percent) AND total = amount
        WHEN 'exempt' THEN tax_rate_percent = 0 AND tax = 0 AND total = amount
        ELSE FALSE
    END
);

-- The money terms of a sale are written once; the tax mode and rate are part of them. Same function as before,
-- plus the two new columns.
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

-- returns.price was described as "before tax"; it is the price as the project lists it (see tax_mode).
COMMENT ON COLUMN returns.price IS
    'Unit price in yen as the project lists it: tax included when projects.tax_includes, before tax otherwise; no tax for donations.';
COMMENT ON COLUMN sales.tax IS 'Consumption tax in yen contained in total (floored once per sale); 0 for donations.';
COMMENT ON COLUMN sales.total IS 'What the supporter pays, tax included: the figure the screens showed.';
COMMENT ON COLUMN sales.tax_mode IS 'Tax mode the sale was priced with: inclusive, exclusive or exempt (donation).';
COMMENT ON COLUMN sales.tax_rate_percent IS 'Consumption-tax rate in percent the sale was priced with; 0 for donations.';
COMMENT ON CONSTRAINT sales_tax_invariant ON sales IS
    'The tax rule: exclusive tax = floor(amount x rate / 100), total = amount + tax; inclusive tax = floor(total x rate / (100 + rate)), total = amount; exempt rate = tax = 0, total = amount.';
