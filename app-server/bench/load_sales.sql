-- Loads :sales paid sales (status succeeded) spread over the demo members and the demo's unlimited, visible
-- returns, one lot each, priced by the tax rule as domain::money::PriceBreakdown::compute does (10 %), so the rows
-- satisfy sales_amount_check and sales_tax_invariant: 税込 prices record the tax they contain, 税別 prices get it
-- added on top, donations carry none.
--
-- Triggers are skipped for the bulk insert (session_replication_role = replica, superuser only): the
-- row-level trigger that keeps returns.lots_taken would otherwise update the same ~15 return rows a million
-- times in one transaction. The invariant it keeps is restored exactly right after, in the same transaction.
-- Foreign keys are not checked during the insert either; every id comes from the rows selected below.
-- The running totals (project_totals, return_totals, sponsor_totals) are kept by statement triggers that this
-- skips too; rebuild_running_totals() recomputes them with one aggregate per table, in the same transaction.
BEGIN;
SET LOCAL session_replication_role = replica;

CREATE TEMP TABLE bench_returns ON COMMIT DROP AS
    SELECT r.id, r.project_id, r.price,
           CASE WHEN p.is_donation THEN 'exempt' WHEN p.tax_includes THEN 'inclusive' ELSE 'exclusive' END AS tax_mode,
           (row_number() OVER (ORDER BY r.id)) - 1 AS n
    FROM returns r JOIN projects p ON p.id = r.project_id
    WHERE r.stock_limit IS NULL AND r.flag < 900 AND r.show_user_email IS NULL AND NOT r.disabled;
CREATE TEMP TABLE bench_users ON COMMIT DROP AS
    SELECT id, (row_number() OVER (ORDER BY id)) - 1 AS n FROM users WHERE status = 'member';

INSERT INTO sales (project_id, return_id, user_id, price, lot, amount, tax, total, tax_mode, tax_rate_percent,
                   payment_type, status, intent_id, idempotency_key, flag, created_at, updated_at, paid_at)
SELECT r.project_id, r.id, u.id, r.price, 1, r.price,
       CASE r.tax_mode WHEN 'exclusive' THEN r.price * 10 / 100 WHEN 'inclusive' THEN r.price * 10 / 110 ELSE 0 END,
       r.price + CASE r.tax_mode WHEN 'exclusive' THEN r.price * 10 / 100 ELSE 0 END,
       r.tax_mode, CASE r.tax_mode WHEN 'exempt' THEN 0 ELSE 10 END,
       1, 'succeeded', 'pi_bench_' || g, 'bench-' || lpad(g::text, 8, '0'), 1,
       now() - make_interval(secs => g), now() - make_interval(secs => g), now() - make_interval(secs => g)
FROM generate_series(1, :sales) AS g
JOIN bench_returns r ON r.n = g % (SELECT count(*) FROM bench_returns)
JOIN bench_users u ON u.n = (g / 7) % (SELECT count(*) FROM bench_users);

-- What the skipped trigger maintains: lots held by every sale that is not canceled or failed.
UPDATE returns r SET lots_taken = coalesce(
    (SELECT sum(s.lot) FROM sales s WHERE s.return_id = r.id AND s.status NOT IN ('canceled', 'failed')), 0);
SELECT rebuild_running_totals();
COMMIT;
