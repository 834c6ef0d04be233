//! A return's stock limit holds under concurrency: the trigger `sales_sync_return_lots` adds a live sale's lots
//! to `returns.lots_taken` in the sale's own statement and `returns_lots_taken_within_stock_limit` refuses the
//! overflow, whatever the number of connections racing (BRIEF decision 5).
#![allow(clippy::unwrap_used, clippy::expect_used)]
use std::sync::{Arc, Barrier};

use adapters_postgres::testing::TestDatabase;
use diesel::result::{DatabaseErrorKind, Error};
use diesel::{Connection, PgConnection, RunQueryDsl};

const RACERS: usize = 10;

fn exec(url: &str, sql: &str) -> Result<usize, Error> {
    let mut conn = PgConnection::establish(url).unwrap();
    diesel::sql_query(sql).execute(&mut conn)
}

/// One member per racer, one project and return 1 with a stock of 3.
fn fixtures(url: &str) {
    let users: Vec<String> = (1..=RACERS).map(|i| format!("({i}, 'racer{i}@example.jp', 'member', 'x')")).collect();
    exec(url, &format!("INSERT INTO users (id, email, status, password_hash) VALUES {}", users.join(", "))).unwrap();
    exec(url, "INSERT INTO projects (id, slug, title, target_amount, period_end) VALUES (1, 'p1', 'P1', 100000, '2030-01-01')")
        .unwrap();
    exec(
        url,
        "INSERT INTO returns (id, project_id, slug, return_type, title, price, stock_limit) \
         VALUES (1, 1, 'r1', 0, 'R1', 1000, 3)",
    )
    .unwrap();
}

fn insert_sale_sql(user: usize, status: &str) -> String {
    format!(
        "INSERT INTO sales (id, project_id, return_id, user_id, price, lot, amount, tax, total, tax_mode, \
           tax_rate_percent, payment_type, status, idempotency_key) \
         VALUES ({user}, 1, 1, {user}, 1000, 1, 1000, 0, 1000, 'exempt', 0, 1, '{status}', 'key-{user:06}')"
    )
}

fn number(url: &str, sql: &str) -> i64 {
    #[derive(diesel::QueryableByName)]
    struct Value {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        value: i64,
    }
    let mut conn = PgConnection::establish(url).unwrap();
    diesel::sql_query(sql).get_result::<Value>(&mut conn).unwrap().value
}

/// Runs `sql_for(i)` for every racer on its own connection, all released at once; returns how many succeeded.
/// Every failure must be the stock CHECK, not some other error.
fn race(url: &str, sql_for: impl Fn(usize) -> String) -> usize {
    let barrier = Arc::new(Barrier::new(RACERS));
    let handles: Vec<_> = (1..=RACERS)
        .map(|i| {
            let (url, sql, barrier) = (url.to_string(), sql_for(i), Arc::clone(&barrier));
            std::thread::spawn(move || {
                let mut conn = PgConnection::establish(&url).unwrap();
                barrier.wait();
                diesel::sql_query(sql).execute(&mut conn)
            })
        })
        .collect();
    let mut succeeded = 0;
    for handle in handles {
        match handle.join().unwrap() {
            Ok(_) => succeeded += 1,
            Err(Error::DatabaseError(DatabaseErrorKind::CheckViolation, info)) => {
                assert_eq!(info.constraint_name(), Some("returns_lots_taken_within_stock_limit"));
            }
            Err(other) => panic!("unexpected failure: {other}"),
        }
    }
    succeeded
}

#[test]
fn ten_concurrent_purchases_of_a_return_with_three_left_sell_exactly_three() {
    let (db, _pool) = TestDatabase::create().unwrap();
    fixtures(&db.url);

    let sold = race(&db.url, |user| insert_sale_sql(user, "pending"));

    assert_eq!(sold, 3);
    assert_eq!(number(&db.url, "SELECT lots_taken::bigint AS value FROM returns WHERE id = 1"), 3);
    assert_eq!(number(&db.url, "SELECT count(*) AS value FROM sales WHERE return_id = 1"), 3);
}

#[test]
fn reviving_a_cancelled_sale_cannot_take_a_lot_that_was_sold_again() {
    let (db, _pool) = TestDatabase::create().unwrap();
    fixtures(&db.url);
    for user in 1..=3 {
        exec(&db.url, &insert_sale_sql(user, "pending")).unwrap();
    }
    exec(&db.url, "UPDATE sales SET status = 'canceled' WHERE id = 1").unwrap();
    exec(&db.url, &insert_sale_sql(4, "pending")).unwrap();

    let revived = exec(&db.url, "UPDATE sales SET status = 'pending' WHERE id = 1");

    match revived {
        Err(Error::DatabaseError(DatabaseErrorKind::CheckViolation, info)) => {
            assert_eq!(info.constraint_name(), Some("returns_lots_taken_within_stock_limit"));
        }
        other => panic!("reviving past the stock was not refused: {other:?}"),
    }
    assert_eq!(number(&db.url, "SELECT lots_taken::bigint AS value FROM returns WHERE id = 1"), 3);
    assert_eq!(number(&db.url, "SELECT count(*) AS value FROM sales WHERE status = 'canceled'"), 1);
}

#[test]
fn ten_cancelled_sales_revived_at_once_take_no_more_than_the_stock() {
    let (db, _pool) = TestDatabase::create().unwrap();
    fixtures(&db.url);
    for user in 1..=RACERS {
        exec(&db.url, &insert_sale_sql(user, "canceled")).unwrap();
    }
    assert_eq!(number(&db.url, "SELECT lots_taken::bigint AS value FROM returns WHERE id = 1"), 0);

    let revived = race(&db.url, |user| format!("UPDATE sales SET status = 'pending' WHERE id = {user}"));

    assert_eq!(revived, 3);
    assert_eq!(number(&db.url, "SELECT lots_taken::bigint AS value FROM returns WHERE id = 1"), 3);
    assert_eq!(number(&db.url, "SELECT count(*) AS value FROM sales WHERE status = 'pending'"), 3);
}
