//! Receipts against a real database: a sale read with what its receipt
//! prints, issues counted exactly once however many arrive at once, only
//! paid sales issued, and the issuer's storage rules.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use adapters_postgres::testing::TestDatabase;
use adapters_postgres::{PgPool, PgSaleReceipts};
use chrono::{TimeZone, Utc};
use diesel::{sql_query, PgConnection, RunQueryDsl};
use domain::ids::{ProjectId, SaleId, UserId};
use domain::money::{TaxMode, Yen};
use domain::payment::SaleStatus;
use domain::receipt::{ReceiptIssuer, RegistrationNumber};
use ports::receipts::SaleReceiptStore;
use ports::RepoError;

fn exec(conn: &mut PgConnection, sql: &str) {
    sql_query(sql).execute(conn).unwrap_or_else(|e| panic!("{e}: {sql}"));
}

/// Member 1 (user name set), project 1 with its owner, return 1; sale 1 paid (3,300 yen, 10 % included, 1,100
/// refunded and paid out, 500 more on its way), sale 2 awaiting a transfer.
fn fixtures(conn: &mut PgConnection) {
    exec(conn, "INSERT INTO users (id, email, status, password_hash, username) VALUES (1, 'u1@example.jp', 'member', 'x', '前橋 太郎')");
    exec(conn, "INSERT INTO projects (id, slug, title, target_amount, period_end) VALUES (1, 'p1', '前橋ばら園', 100000, '2030-01-01')");
    exec(conn, "INSERT INTO project_owners (project_id, name) VALUES (1, '前橋ローズの会')");
    exec(
        conn,
        "INSERT INTO returns (id, project_id, slug, return_type, title, price, flag, position) \
         VALUES (1, 1, 'r1', 0, 'お礼のメール', 3300, 0, 1)",
    );
    exec(
        conn,
        "INSERT INTO sales (id, project_id, return_id, user_id, price, lot, amount, tax, total, tax_mode, \
           tax_rate_percent, payment_type, status, intent_id, idempotency_key, flag, paid_at) VALUES \
           (1, 1, 1, 1, 3300, 1, 3300, 300, 3300, 'inclusive', 10, 1, 'succeeded', 'pi_1', 'key-000001', 1, \
            '2026-12-01 23:30:00+00'), \
           (2, 1, 1, 1, 3300, 1, 3300, 300, 3300, 'inclusive', 10, 2, 'awaiting_bank_transfer', 'pi_2', 'key-000002', 0, NULL)",
    );
    exec(
        conn,
        "INSERT INTO refunds (sales_id, amount, status, requested_by, provider_refund_id) VALUES \
           (1, 1100, 'succeeded', 1, 're_1'), (1, 500, 'pending', 1, NULL)",
    );
}

fn setup() -> (TestDatabase, PgPool, PgSaleReceipts) {
    let (db, pool) = TestDatabase::create().unwrap();
    fixtures(&mut pool.get().unwrap());
    (db, pool.clone(), PgSaleReceipts::new(pool))
}

#[tokio::test]
async fn a_sale_reads_back_with_its_names_owner_and_refunds_paid_out() {
    let (_db, _pool, store) = setup();

    let sale = store.sale(SaleId(1)).await.unwrap();

    assert_eq!((sale.user, sale.status, sale.project), (UserId(1), SaleStatus::Succeeded, ProjectId(1)));
    assert_eq!(sale.paid_at, Some(Utc.with_ymd_and_hms(2026, 12, 1, 23, 30, 0).unwrap()));
    assert_eq!((sale.project_title.as_str(), sale.return_title.as_str()), ("前橋ばら園", "お礼のメール"));
    assert_eq!((sale.total, sale.tax_mode, sale.tax_rate.percent(), sale.lots), (Yen(3300), TaxMode::Inclusive, 10, 1));
    assert_eq!(sale.refunded, Yen(1100), "only what was paid out");
    assert_eq!(sale.names, vec!["前橋 太郎".to_string()]);
    assert_eq!(sale.owner_name.as_deref(), Some("前橋ローズの会"));
    assert_eq!((sale.issuer, sale.issued), (None, None));
    assert!(matches!(store.sale(SaleId(99)).await, Err(RepoError::NotFound)));
}

#[tokio::test]
async fn ten_issues_at_once_count_ten_and_keep_the_first_date() {
    let (_db, _pool, store) = setup();
    let first = Utc.with_ymd_and_hms(2026, 12, 3, 0, 0, 0).unwrap();
    store.record_issue(SaleId(1), "前橋 太郎", first).await.unwrap();

    let later = Utc.with_ymd_and_hms(2026, 12, 4, 0, 0, 0).unwrap();
    let issues = (0..10).map(|i| {
        let store = store.clone();
        async move { store.record_issue(SaleId(1), &format!("宛名{i}"), later).await.unwrap() }
    });
    let mut counts: Vec<u32> = futures_join(issues).await.into_iter().map(|r| r.count).collect();
    counts.sort_unstable();

    assert_eq!(counts, (2..=11).collect::<Vec<_>>());
    let issued = store.sale(SaleId(1)).await.unwrap().issued.unwrap();
    assert_eq!((issued.count, issued.first_at, issued.last_at), (11, first, later));
    assert!(issued.addressee.starts_with("宛名"));
}

async fn futures_join<F: std::future::Future + Send + 'static>(futures: impl Iterator<Item = F>) -> Vec<F::Output>
where
    F::Output: Send + 'static,
{
    let handles: Vec<_> = futures.map(tokio::spawn).collect();
    let mut out = Vec::new();
    for handle in handles {
        out.push(handle.await.unwrap());
    }
    out
}

#[tokio::test]
async fn an_unpaid_or_unknown_sale_is_never_issued() {
    let (_db, _pool, store) = setup();
    let now = Utc.with_ymd_and_hms(2026, 12, 3, 0, 0, 0).unwrap();

    assert!(matches!(store.record_issue(SaleId(2), "前橋 太郎", now).await, Err(RepoError::NotFound)));
    assert!(matches!(store.record_issue(SaleId(99), "前橋 太郎", now).await, Err(RepoError::NotFound)));
    assert_eq!(store.sale(SaleId(2)).await.unwrap().issued, None);
}

#[tokio::test]
async fn an_issuer_is_set_replaced_and_read_and_the_schema_refuses_a_bad_number() {
    let (_db, pool, store) = setup();
    let now = Utc.with_ymd_and_hms(2026, 12, 3, 0, 0, 0).unwrap();
    assert_eq!(store.project_issuer(ProjectId(1)).await.unwrap().issuer, None);

    let plain = ReceiptIssuer { name: "前橋ローズの会".into(), registration_number: None };
    store.set_issuer(ProjectId(1), &plain, now).await.unwrap();
    let registered = ReceiptIssuer {
        name: "前橋ローズ株式会社".into(),
        registration_number: Some(RegistrationNumber::parse("T1234567890123").unwrap()),
    };
    store.set_issuer(ProjectId(1), &registered, now).await.unwrap();

    let read = store.project_issuer(ProjectId(1)).await.unwrap();
    assert_eq!(
        (read.issuer, read.project_title.as_str(), read.updated_at),
        (Some(registered.clone()), "前橋ばら園", Some(now))
    );
    assert_eq!(store.sale(SaleId(1)).await.unwrap().issuer, Some(registered.clone()));
    assert!(matches!(store.set_issuer(ProjectId(9), &registered, now).await, Err(RepoError::NotFound)));
    assert!(matches!(store.project_issuer(ProjectId(9)).await, Err(RepoError::NotFound)));

    let refused = sql_query("UPDATE project_receipt_issuers SET registration_number = 'T123' WHERE project_id = 1")
        .execute(&mut pool.get().unwrap())
        .unwrap_err();
    assert!(refused.to_string().contains("project_receipt_issuers_registration_number_check"), "{refused}");
}
