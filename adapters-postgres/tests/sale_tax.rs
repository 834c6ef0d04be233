//! The tax rule in the schema (migration 2026-11-26-110000_sale_tax_invariant): the `sales_tax_invariant`
//! CHECK refuses a sale whose tax or total breaks the rule, in each tax mode, and accepts every sale that
//! `domain::money::PriceBreakdown::compute` prices.
#![allow(clippy::unwrap_used, clippy::expect_used)]
use adapters_postgres::testing::TestDatabase;
use diesel::migration::{Migration, MigrationSource};
use diesel::pg::Pg;
use diesel::result::{DatabaseErrorKind, Error};
use diesel::{sql_query, Connection, PgConnection, QueryableByName, RunQueryDsl};
use diesel_migrations::{EmbeddedMigrations, MigrationHarness};
use domain::lot::Lot;
use domain::money::{PriceBreakdown, TaxMode, TaxRate, Yen};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

const MIGRATIONS: EmbeddedMigrations = diesel_migrations::embed_migrations!("../migrations");
const THIS_MIGRATION: &str = "2026-11-26-110000";

/// One member, one project and one unlimited return to hang sales on.
fn fixtures(conn: &mut PgConnection) {
    sql_query("INSERT INTO users (id, email, status, password_hash) VALUES (1, 'tax@example.jp', 'member', 'x')")
        .execute(conn)
        .unwrap();
    sql_query(
        "INSERT INTO projects (id, slug, title, target_amount, period_end) VALUES (1, 'p', 'P', 100000, '2030-01-01')",
    )
    .execute(conn)
    .unwrap();
    sql_query("INSERT INTO returns (id, project_id, slug, return_type, title, price) VALUES (1, 1, 'r', 0, 'R', 1000)")
        .execute(conn)
        .unwrap();
}

struct Row {
    price: i64,
    lot: i64,
    amount: i64,
    tax: i64,
    total: i64,
    mode: &'static str,
    rate: i64,
}

fn insert(conn: &mut PgConnection, key: &str, row: &Row) -> Result<usize, Error> {
    let Row { price, lot, amount, tax, total, mode, rate } = row;
    sql_query(format!(
        "INSERT INTO sales (project_id, return_id, user_id, price, lot, amount, tax, total, tax_mode, tax_rate_percent, \
           payment_type, idempotency_key) \
         VALUES (1, 1, 1, {price}, {lot}, {amount}, {tax}, {total}, '{mode}', {rate}, 1, 'tax-key-{key}')"
    ))
    .execute(conn)
}

fn refused_by(result: Result<usize, Error>) -> Option<String> {
    match result {
        Err(Error::DatabaseError(DatabaseErrorKind::CheckViolation, info)) => info.constraint_name().map(str::to_owned),
        other => panic!("expected a CHECK violation, got {other:?}"),
    }
}

fn from_domain(b: &PriceBreakdown) -> Row {
    Row {
        price: b.price.0,
        lot: i64::from(b.lot.get()),
        amount: b.amount.0,
        tax: b.tax.0,
        total: b.total.0,
        mode: b.mode.code(),
        rate: i64::from(b.rate.percent()),
    }
}

fn priced(price: i64, lot: i64, mode: TaxMode) -> Row {
    from_domain(&PriceBreakdown::compute(Yen(price), Lot::parse(lot).unwrap(), TaxRate::STANDARD, mode).unwrap())
}

#[test]
fn a_sale_breaking_the_tax_rule_is_refused_by_the_named_check_in_every_mode() {
    let (db, _pool) = TestDatabase::create().unwrap();
    let mut conn = PgConnection::establish(&db.url).unwrap();
    fixtures(&mut conn);

    // 税込 1,100 yen x 2: 2,200 yen paid, 200 yen of it tax. The old rule stored tax 0; a tax added on top
    // (total 2,420) charges more than the screen showed.
    let inclusive = priced(1_100, 2, TaxMode::Inclusive);
    assert_eq!((inclusive.tax, inclusive.total), (200, 2_200));
    let bad = [
        ("inc-zero-tax", Row { tax: 0, ..priced(1_100, 2, TaxMode::Inclusive) }),
        ("inc-added", Row { total: 2_420, ..priced(1_100, 2, TaxMode::Inclusive) }),
        ("inc-rounded-up", Row { tax: 201, ..priced(1_100, 2, TaxMode::Inclusive) }),
        // 税別 1,999 yen x 2: tax 399 on 3,998 (one rounding), total 4,397.
        ("exc-per-lot", Row { tax: 398, total: 4_396, ..priced(1_999, 2, TaxMode::Exclusive) }),
        ("exc-no-tax", Row { tax: 0, total: 3_998, ..priced(1_999, 2, TaxMode::Exclusive) }),
        ("exc-total", Row { total: 4_398, ..priced(1_999, 2, TaxMode::Exclusive) }),
        // A donation has no tax and no rate.
        ("exempt-tax", Row { tax: 909, ..priced(10_000, 1, TaxMode::Exempt) }),
        ("exempt-rate", Row { rate: 10, ..priced(10_000, 1, TaxMode::Exempt) }),
        ("exempt-added", Row { total: 11_000, ..priced(10_000, 1, TaxMode::Exempt) }),
    ];
    for (key, row) in &bad {
        assert_eq!(refused_by(insert(&mut conn, key, row)).as_deref(), Some("sales_tax_invariant"), "{key}");
    }
    // Unknown modes never pass as NULL.
    let unknown = Row { mode: "none", ..priced(10_000, 1, TaxMode::Exempt) };
    assert!(refused_by(insert(&mut conn, "unknown", &unknown)).is_some());

    for (key, mode) in [("ok-inc", TaxMode::Inclusive), ("ok-exc", TaxMode::Exclusive), ("ok-exempt", TaxMode::Exempt)]
    {
        insert(&mut conn, key, &priced(1_999, 2, mode)).unwrap();
    }
}

#[test]
fn the_tax_mode_and_rate_of_a_written_sale_cannot_change() {
    let (db, _pool) = TestDatabase::create().unwrap();
    let mut conn = PgConnection::establish(&db.url).unwrap();
    fixtures(&mut conn);
    insert(&mut conn, "fixed", &priced(1_000, 1, TaxMode::Exempt)).unwrap();

    let changed =
        sql_query("UPDATE sales SET tax_rate_percent = 8 WHERE idempotency_key = 'tax-key-fixed'").execute(&mut conn);

    assert_eq!(refused_by(changed).as_deref(), Some("sales_terms_immutable"));
}

#[test]
fn every_sale_the_domain_prices_is_accepted_by_the_schema() {
    let (db, _pool) = TestDatabase::create().unwrap();
    let conn = std::cell::RefCell::new(PgConnection::establish(&db.url).unwrap());
    fixtures(&mut conn.borrow_mut());
    let mode = prop_oneof![Just(TaxMode::Inclusive), Just(TaxMode::Exclusive), Just(TaxMode::Exempt)];
    // Real prices, and prices so large that amount x rate no longer fits a bigint (the CHECK computes in numeric).
    let price = prop_oneof![0i64..=10_000_000, 0i64..=i64::MAX / 11];
    let mut runner = TestRunner::new(Config { cases: 300, ..Config::default() });
    let n = std::cell::Cell::new(0u32);

    runner
        .run(&(price, 1i64..=10, 0u32..=100, mode), |(price, lot, rate, mode)| {
            let Ok(b) =
                PriceBreakdown::compute(Yen(price), Lot::parse(lot).unwrap(), TaxRate::new(rate).unwrap(), mode)
            else {
                return Ok(()); // overflow: the domain refuses it before any row is written
            };
            n.set(n.get() + 1);
            let written = insert(&mut conn.borrow_mut(), &format!("prop-{}", n.get()), &from_domain(&b));
            prop_assert!(written.is_ok(), "{b:?} refused: {written:?}");
            Ok(())
        })
        .unwrap();
}

#[derive(QueryableByName, Debug, PartialEq)]
struct Stored {
    #[diesel(sql_type = diesel::sql_types::Text)]
    slug: String,
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    tax: i64,
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    total: i64,
    #[diesel(sql_type = diesel::sql_types::Text)]
    tax_mode: String,
    #[diesel(sql_type = diesel::sql_types::SmallInt)]
    tax_rate_percent: i16,
}

#[test]
fn the_migration_gives_earlier_sales_their_mode_rate_and_contained_tax_without_changing_what_was_charged() {
    let (db, _pool) = TestDatabase::create().unwrap();
    let mut conn = PgConnection::establish(&db.url).unwrap();
    let mut migrations: Vec<Box<dyn Migration<Pg>>> = MIGRATIONS.migrations().unwrap();
    migrations.sort_by_key(|m| m.name().to_string());
    let (before, from_this): (Vec<_>, Vec<_>) =
        migrations.into_iter().partition(|m| m.name().to_string().as_str() < THIS_MIGRATION);
    conn.revert_all_migrations(MIGRATIONS).unwrap();
    for m in &before {
        conn.run_migration(m.as_ref()).unwrap();
    }
    sql_query("INSERT INTO users (id, email, status, password_hash) VALUES (1, 'tax@example.jp', 'member', 'x')")
        .execute(&mut conn)
        .unwrap();
    sql_query(
        "INSERT INTO projects (id, slug, title, target_amount, period_end, is_donation, tax_includes) VALUES \
           (1, 'inc', 'I', 1, '2030-01-01', FALSE, TRUE), (2, 'exc', 'E', 1, '2030-01-01', FALSE, FALSE), \
           (3, 'don', 'D', 1, '2030-01-01', TRUE, TRUE)",
    )
    .execute(&mut conn)
    .unwrap();
    sql_query(
        "INSERT INTO returns (id, project_id, slug, return_type, title, price) VALUES \
           (1, 1, 'r', 0, 'R', 3300), (2, 2, 'r', 0, 'R', 3000), (3, 3, 'r', 0, 'R', 5000)",
    )
    .execute(&mut conn)
    .unwrap();
    // As the old rule stored them: tax 0 for tax-included prices and donations, added tax for 税別.
    sql_query(
        "INSERT INTO sales (project_id, return_id, user_id, price, lot, amount, tax, total, payment_type, \
           idempotency_key) VALUES \
           (1, 1, 1, 3300, 2, 6600, 0, 6600, 1, 'legacy-inc'), (2, 2, 1, 3000, 1, 3000, 300, 3300, 1, 'legacy-exc'), \
           (3, 3, 1, 5000, 1, 5000, 0, 5000, 1, 'legacy-don')",
    )
    .execute(&mut conn)
    .unwrap();

    for m in &from_this {
        conn.run_migration(m.as_ref()).unwrap();
    }

    let stored: Vec<Stored> = sql_query(
        "SELECT p.slug, s.tax, s.total, s.tax_mode, s.tax_rate_percent FROM sales s JOIN projects p ON p.id = s.project_id \
         ORDER BY p.id",
    )
    .load(&mut conn)
    .unwrap();
    let row = |slug: &str, tax, total, mode: &str, rate| Stored {
        slug: slug.into(),
        tax,
        total,
        tax_mode: mode.into(),
        tax_rate_percent: rate,
    };
    assert_eq!(
        stored,
        [
            row("inc", 600, 6_600, "inclusive", 10),
            row("exc", 300, 3_300, "exclusive", 10),
            row("don", 0, 5_000, "exempt", 0)
        ]
    );
}

fn insert_with_extra(conn: &mut PgConnection, key: &str, row: &Row, extra: i64) -> Result<usize, Error> {
    let Row { price, lot, amount, tax, total, mode, rate } = row;
    sql_query(format!(
        "INSERT INTO sales (project_id, return_id, user_id, price, lot, amount, tax, total, tax_mode, tax_rate_percent, \
           payment_type, idempotency_key, extra_amount) \
         VALUES (1, 1, 1, {price}, {lot}, {amount}, {tax}, {total}, '{mode}', {rate}, 1, 'tax-key-{key}', {extra})"
    ))
    .execute(conn)
}

fn priced_with_extra(price: i64, lot: i64, mode: TaxMode, extra: i64) -> Row {
    let base = PriceBreakdown::compute(Yen(price), Lot::parse(lot).unwrap(), TaxRate::STANDARD, mode).unwrap();
    from_domain(&base.with_extra(domain::extra_amount::ExtraAmount::parse(extra).unwrap()).unwrap())
}

#[test]
fn an_extra_amount_is_untaxed_in_the_schema_too_bounded_and_written_once() {
    let (db, _pool) = TestDatabase::create().unwrap();
    let mut conn = PgConnection::establish(&db.url).unwrap();
    fixtures(&mut conn);

    for (key, mode) in [("x-inc", TaxMode::Inclusive), ("x-exc", TaxMode::Exclusive), ("x-exempt", TaxMode::Exempt)] {
        insert_with_extra(&mut conn, key, &priced_with_extra(3_300, 2, mode, 1_000), 1_000).unwrap();
    }
    // 税込 3,300 + 1,000: the tax stays the 300 the return contains; reading the extra as containing tax (390),
    // or adding tax on it, breaks the rule; so does a total without the extra.
    let with = priced_with_extra(3_300, 1, TaxMode::Inclusive, 1_000);
    assert_eq!((with.tax, with.total), (300, 4_300));
    let bad = [
        ("x-taxed-in", Row { tax: 390, ..priced_with_extra(3_300, 1, TaxMode::Inclusive, 1_000) }, 1_000),
        ("x-taxed-on", Row { tax: 400, total: 4_400, ..priced_with_extra(3_000, 1, TaxMode::Exclusive, 1_000) }, 1_000),
        ("x-missing", priced(3_300, 1, TaxMode::Inclusive), 1_000),
    ];
    for (key, row, extra) in &bad {
        let refused = refused_by(insert_with_extra(&mut conn, key, row, *extra));
        assert_eq!(refused.as_deref(), Some("sales_tax_invariant"), "{key}");
    }
    for (key, extra) in [("x-negative", -1), ("x-over", 1_000_001)] {
        let row = Row { total: 3_300 + extra, ..priced(3_300, 1, TaxMode::Inclusive) };
        assert!(refused_by(insert_with_extra(&mut conn, key, &row, extra)).is_some(), "{key}");
    }

    let changed =
        sql_query("UPDATE sales SET extra_amount = 0, total = 3300 * 2 WHERE idempotency_key = 'tax-key-x-inc'")
            .execute(&mut conn);
    assert_eq!(refused_by(changed).as_deref(), Some("sales_terms_immutable"));
}
