-- `make bench`: the statements one guest bank-transfer support makes (SupportService::place over
-- PgSupportLedger, adapters-postgres/src/ledger.rs), as one pgbench transaction script, in the order and
-- transaction grouping the service runs them. run.sh passes the project, the return and the priced terms of
-- a sale the Rust benchmark placed (-D), so both write the same rows; guests are the benchmark's e-mails,
-- which already have accounts and provider customers, as most production supporters do.
\set guest random(0, :guests - 1)

-- checkout
SELECT p.id AS project_id, p.slug AS project_slug, p.title AS project_title, p.period_end,
       p.is_donation, p.tax_includes, p.additional_data_label, p.additional_data_alert, p.accepts_card,
       p.accepts_bank_transfer, p.connected_account_id, p.fee_schedule,
       r.id AS return_id, r.title AS return_title, r.return_type, r.price, r.lot_disable, r.address_required,
       r.address_label, r.disabled, r.flag, r.stock_limit, r.lots_taken, r.show_user_email
  FROM returns r JOIN projects p ON p.id = r.project_id
 WHERE r.project_id = :project AND r.id = :ret;

-- lookup_guest
SELECT id AS user_id, status FROM users WHERE lower(email) = 'bench-guest-' || :guest || '@example.jp' \gset

-- place: one transaction
BEGIN;
SELECT s.id, s.user_id, u.email, s.project_id, p.slug AS project_slug,
       p.title AS project_title, s.return_id, r.title AS return_title, s.payment_type, s.status, s.price, s.lot,
       s.amount, s.tax, s.total, s.tax_mode, s.tax_rate_percent, s.application_fee, s.connected_account_id,
       s.intent_id, coalesce(d.displayname, '') AS displayname, s.amount_remaining,
       s.bank_instructions::text AS bank_instructions, s.transfer_deadline, s.card_id, s.one_time_card_id,
       s.refund_required, s.created_at
  FROM sales s JOIN users u ON u.id = s.user_id JOIN projects p ON p.id = s.project_id
  JOIN returns r ON r.id = s.return_id LEFT JOIN display_names d ON d.sales_id = s.id
 WHERE s.user_id = :user_id AND s.idempotency_key = 'pgbench-' || gen_random_uuid();
INSERT INTO sales (project_id, return_id, user_id, address_id, price, lot, amount, tax, total, tax_mode,
       tax_rate_percent, application_fee, connected_account_id, payment_type, status, idempotency_key,
       transfer_deadline)
VALUES (:project, :ret, :user_id, NULL, :price, :lot, :amount, :tax, :total, ':tax_mode', :rate, :fee, NULL, 2,
       'pending', 'pgbench-' || gen_random_uuid(), current_date + 7)
RETURNING id AS sale_id \gset
INSERT INTO display_names (sales_id, user_id, project_id, return_id, displayname, flag)
VALUES (:sale_id, :user_id, :project, :ret, 'ベンチ 太郎', 1);
INSERT INTO comments (project_id, user_id, sales_id, return_id, comment, flag)
VALUES (:project, :user_id, :sale_id, :ret, '応援しています。がんばってください！', 1);
SELECT s.id, s.user_id, u.email, s.project_id, p.slug AS project_slug,
       p.title AS project_title, s.return_id, r.title AS return_title, s.payment_type, s.status, s.price, s.lot,
       s.amount, s.tax, s.total, s.tax_mode, s.tax_rate_percent, s.application_fee, s.connected_account_id,
       s.intent_id, coalesce(d.displayname, '') AS displayname, s.amount_remaining,
       s.bank_instructions::text AS bank_instructions, s.transfer_deadline, s.card_id, s.one_time_card_id,
       s.refund_required, s.created_at
  FROM sales s JOIN users u ON u.id = s.user_id JOIN projects p ON p.id = s.project_id
  JOIN returns r ON r.id = s.return_id LEFT JOIN display_names d ON d.sales_id = s.id
 WHERE s.id = :sale_id;
COMMIT;

-- ensure_customer
SELECT customer_id AS value FROM payment_customers WHERE user_id = :user_id;

-- record_payment: one transaction, the sale's row lock, the savepoint around the status move
BEGIN;
SELECT status, refund_required FROM sales WHERE id = :sale_id FOR UPDATE;
UPDATE sales SET intent_id = coalesce(intent_id, 'pi_pgbench_' || :sale_id), card_id = coalesce(card_id, NULL),
       one_time_card_id = coalesce(one_time_card_id, NULL), amount_remaining = coalesce(:total, amount_remaining),
       bank_instructions = coalesce('{"amount_remaining": :total,"reference":"REF:sale_id","bank_name":"テスト銀行","bank_code":"0001","branch_name":"ベンチ支店","branch_code":"001","account_type":"ordinary","account_number":"1234567","account_holder_name":"ｸﾗｳﾄﾞﾌｱﾝﾃﾞｲﾝｸﾞ"}'::jsonb, bank_instructions),
       updated_at = now()
 WHERE id = :sale_id;
SAVEPOINT record_status;
UPDATE sales SET status = 'awaiting_bank_transfer', paid_at = CASE WHEN FALSE THEN now() ELSE paid_at END,
       flag = CASE WHEN FALSE THEN 1 ELSE flag END
 WHERE id = :sale_id;
RELEASE SAVEPOINT record_status;
SELECT s.id, s.user_id, u.email, s.project_id, p.slug AS project_slug,
       p.title AS project_title, s.return_id, r.title AS return_title, s.payment_type, s.status, s.price, s.lot,
       s.amount, s.tax, s.total, s.tax_mode, s.tax_rate_percent, s.application_fee, s.connected_account_id,
       s.intent_id, coalesce(d.displayname, '') AS displayname, s.amount_remaining,
       s.bank_instructions::text AS bank_instructions, s.transfer_deadline, s.card_id, s.one_time_card_id,
       s.refund_required, s.created_at
  FROM sales s JOIN users u ON u.id = s.user_id JOIN projects p ON p.id = s.project_id
  JOIN returns r ON r.id = s.return_id LEFT JOIN display_names d ON d.sales_id = s.id
 WHERE s.id = :sale_id;
COMMIT;
