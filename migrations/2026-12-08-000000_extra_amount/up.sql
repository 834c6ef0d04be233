-- 上乗せ支援 (docs/decisions.md, "Paying a little more"): an amount a supporter adds on top of a return, once per
-- support, untaxed in every tax mode (domain::extra_amount, domain::money::PriceBreakdown::with_extra). It is part
-- of sales.total, so the running totals, sponsor tiers, application fee and refund ceiling count it unchanged.

-- Whole yen added on top of the return's tax-included figure; 0 for a support without one (every earlier sale).
ALTER TABLE sales ADD COLUMN extra_amount BIGINT NOT NULL DEFAULT 0;
COMMENT ON COLUMN sales.extra_amount IS
    '上乗せ支援 in yen, added on top of the return and included in total; carries no consumption tax; 0 when none.';

-- 0 to 1,000,000 yen (domain::extra_amount::MAX_EXTRA_AMOUNT).
ALTER TABLE sales ADD CONSTRAINT sales_extra_amount_check CHECK (extra_amount BETWEEN 0 AND 1000000);

-- The tax rule now holds for the return's part, total - extra_amount (PriceBreakdown::figures_agree). Sums are in
-- numeric, as the rates already were, so a corrupt huge row is refused by the CHECK rather than an overflow.
ALTER TABLE sales DROP CONSTRAINT sales_tax_invariant;
ALTER TABLE sales ADD CONSTRAINT sales_tax_invariant CHECK (
    CASE tax_mode
        WHEN 'exclusive' THEN tax = div(amount::numeric * tax_rate_percent, 100)
                              AND total::numeric = amount::numeric + tax + extra_amount
        WHEN 'inclusive' THEN tax = div((total::numeric - extra_amount) * tax_rate_percent, 100 + tax_rate_percent)
                              AND total::numeric = amount::numeric + extra_amount
        WHEN 'exempt' THEN tax_rate_percent = 0 AND tax = 0 AND total::numeric = amount::numeric + extra_amount
        ELSE FALSE
    END
);
COMMENT ON CONSTRAINT sales_tax_invariant ON sales IS
    'The tax rule on the return''s part (total - extra_amount): exclusive tax = floor(amount x rate / 100), total = amount + tax + extra; inclusive tax = floor((total - extra) x rate / (100 + rate)), total = amount + extra; exempt rate = tax = 0, total = amount + extra.';

-- The extra is one of the terms written once.
CREATE OR REPLACE FUNCTION sales_guard_terms() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.project_id IS DISTINCT FROM OLD.project_id
       OR NEW.return_id IS DISTINCT FROM OLD.return_id
       OR NEW.user_id IS DISTINCT FROM OLD.user_id
       OR NEW.price IS DISTINCT FROM OLD.price
       OR NEW.lot IS DISTINCT FROM OLD.lot
       OR NEW.amount IS DISTINCT FROM OLD.amount
       OR NEW.tax IS DISTINCT FROM OLD.tax
       OR NEW.extra_amount IS DISTINCT FROM OLD.extra_amount
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
