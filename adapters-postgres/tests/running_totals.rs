//! The running totals (migrations `running_totals` and
//! `totals_paid_less_refunds`) always equal a plain aggregation of `sales`
//! on one basis (what was paid, tax included, less refunds): through every
//! status change, partial and full refunds, refunds that fail, bulk
//! statements and concurrent payments.
#![allow(clippy::unwrap_used, clippy::expect_used)]
use std::sync::{Arc, Barrier};

use adapters_postgres::testing::TestDatabase;
use chrono::{DateTime, Utc};
use diesel::sql_types::{BigInt, Nullable, Timestamptz};
use diesel::{sql_query, Connection, PgConnection, QueryableByName, RunQueryDsl};
use domain::payment::SaleStatus;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

fn exec(conn: &mut PgConnection, sql: &str) {
    sql_query(sql).execute(conn).unwrap_or_else(|e| panic!("{e}: {sql}"));
}

/// Users 1-4; projects 1 and 2; returns 1 (individual) and 2 (company) of project 1, 3 (organisation) of project 2.
fn fixtures(conn: &mut PgConnection) {
    exec(
        conn,
        "INSERT INTO users (id, email, status, password_hash) \
         SELECT g, 'u' || g || '@example.jp', 'member', 'x' FROM generate_series(1, 4) g",
    );
    exec(
        conn,
        "INSERT INTO projects (id, slug, title, target_amount, period_end) VALUES \
           (1, 'p1', 'P1', 100000, '2030-01-01'), (2, 'p2', 'P2', 100000, '2030-01-01')",
    );
    exec(
        conn,
        "INSERT INTO returns (id, project_id, slug, return_type, title, price, flag, position) VALUES \
           (1, 1, 'r1', 0, 'R1', 1000, 0, 1), (2, 1, 'r2', 1, 'R2', 30000, 0, 2), (3, 2, 'r3', 2, 'R3', 5000, 0, 1)",
    );
}

const RETURNS: [(i64, i64, i64); 3] = [(1, 1, 1000), (2, 1, 30000), (3, 2, 5000)];

/// Writes a sale of `lot` lots of return `ret` (index into `RETURNS`) with `status`, ready for any later status.
/// Prices are before tax (税別, 10 % added), so a total that counted `amount` instead of `total` would show.
fn insert_sale(conn: &mut PgConnection, id: i64, ret: usize, user: i64, lot: i64, status: SaleStatus) {
    let (return_id, project_id, price) = RETURNS[ret];
    let flag = i16::from(status == SaleStatus::Succeeded);
    let amount = price * lot;
    let tax = amount / 10;
    exec(
        conn,
        &format!(
            "INSERT INTO sales (id, project_id, return_id, user_id, price, lot, amount, tax, total, tax_mode, \
               tax_rate_percent, payment_type, status, intent_id, idempotency_key, flag, paid_at, created_at) \
             VALUES ({id}, {project_id}, {return_id}, {user}, {price}, {lot}, {amount}, {tax}, {amount} + {tax}, \
               'exclusive', 10, 1, '{status}', 'pi_{id}', 'key-{id:06}', {flag}, now(), \
               '2026-01-01'::timestamptz + interval '{id} minutes')",
            status = status.as_str()
        ),
    );
}

/// Moves unrefunded sales to `status` (the refund flag follows: 1 while paid, 0 otherwise).
fn set_status(conn: &mut PgConnection, filter: &str, status: SaleStatus) {
    let flag = i16::from(status == SaleStatus::Succeeded);
    exec(
        conn,
        &format!(
            "UPDATE sales SET status = '{}', flag = {flag}, updated_at = now() WHERE refunded_amount = 0 AND ({filter})",
            status.as_str()
        ),
    );
}

/// Refunds `percent` of a paid sale's total (at least 1 yen), paid back: flag 11 and the refunded amount, as the
/// refund flow leaves it.
fn refund(conn: &mut PgConnection, sale: i64, percent: i64) {
    exec(
        conn,
        &format!(
            "UPDATE sales SET flag = 11, refunded_amount = greatest(1, total * {percent} / 100) \
             WHERE id = {sale} AND flag = 1"
        ),
    );
}

/// Asks for a refund of `percent` of a paid sale's total that the provider has not paid yet (the refund row's
/// trigger raises `refunded_amount`; the flag stays 1), or, with `None`, lets that refund fail (back to 0).
fn open_refund(conn: &mut PgConnection, sale: i64, percent: Option<i64>) {
    let refunded = percent.map_or("0".to_string(), |p| format!("greatest(1, total * {p} / 100)"));
    exec(conn, &format!("UPDATE sales SET refunded_amount = {refunded} WHERE id = {sale} AND flag = 1"));
}

#[derive(QueryableByName, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct TotalRow {
    #[diesel(sql_type = BigInt)]
    key: i64,
    #[diesel(sql_type = BigInt)]
    sub_key: i64,
    #[diesel(sql_type = BigInt)]
    amount: i64,
    #[diesel(sql_type = BigInt)]
    supports: i64,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    latest: Option<DateTime<Utc>>,
}

fn rows(conn: &mut PgConnection, sql: &str) -> Vec<TotalRow> {
    let mut rows: Vec<TotalRow> = sql_query(sql).load(conn).unwrap_or_else(|e| panic!("{e}: {sql}"));
    rows.sort();
    rows
}

/// What the running totals hold (rows of no sale left out) beside the same figures by plain aggregation.
fn kept_and_recomputed(conn: &mut PgConnection) -> [(Vec<TotalRow>, Vec<TotalRow>); 3] {
    // Written out here, not through sale_counted_amount: the recomputation is the oracle of that rule.
    const PAID: &str = "status = 'succeeded' AND total > refunded_amount";
    [
        (
            rows(
                conn,
                "SELECT project_id AS key, 0::bigint AS sub_key, paid_amount AS amount, supports, \
                   NULL::timestamptz AS latest FROM project_totals WHERE supports <> 0 OR paid_amount <> 0",
            ),
            rows(
                conn,
                &format!(
                    "SELECT project_id AS key, 0::bigint AS sub_key, sum(total - refunded_amount)::bigint AS amount, count(*) AS supports, \
                       NULL::timestamptz AS latest FROM sales WHERE {PAID} GROUP BY project_id"
                ),
            ),
        ),
        (
            rows(
                conn,
                "SELECT return_id AS key, 0::bigint AS sub_key, paid_amount AS amount, supports, \
                   NULL::timestamptz AS latest FROM return_totals WHERE supports <> 0 OR paid_amount <> 0",
            ),
            rows(
                conn,
                &format!(
                    "SELECT return_id AS key, 0::bigint AS sub_key, sum(total - refunded_amount)::bigint AS amount, count(*) AS supports, \
                       NULL::timestamptz AS latest FROM sales WHERE {PAID} GROUP BY return_id"
                ),
            ),
        ),
        (
            rows(
                conn,
                "SELECT project_id AS key, user_id AS sub_key, amount, supports, latest_at AS latest \
                 FROM sponsor_totals WHERE supports <> 0 OR amount <> 0 OR latest_at IS NOT NULL",
            ),
            rows(
                conn,
                &format!(
                    "SELECT project_id AS key, user_id AS sub_key, sum(total - refunded_amount)::bigint AS amount, count(*) AS supports, \
                       max(created_at) AS latest FROM sales WHERE {PAID} GROUP BY project_id, user_id"
                ),
            ),
        ),
    ]
}

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    count: i64,
}

/// Sponsor rows whose names, anonymity or logo right differ from a description computed afresh now.
fn stale_descriptions(conn: &mut PgConnection) -> i64 {
    let row: Count = sql_query(
        "SELECT count(*) AS count FROM sponsor_totals t CROSS JOIN LATERAL sponsor_description(t.project_id, t.user_id) d \
         WHERE (t.latest_at, t.anonymous, t.name, t.named_at, t.named_sale_id, t.unnamed_logo_at, t.logo_type) \
               IS DISTINCT FROM (d.latest_at, d.anonymous, d.name, d.named_at, d.named_sale_id, d.unnamed_logo_at, \
                                 d.logo_type)",
    )
    .get_result(conn)
    .unwrap();
    row.count
}

fn assert_totals_exact(conn: &mut PgConnection, after: &str) {
    for (table, (kept, recomputed)) in
        ["project_totals", "return_totals", "sponsor_totals"].into_iter().zip(kept_and_recomputed(conn))
    {
        assert_eq!(kept, recomputed, "{table} after {after}");
    }
    assert_eq!(stale_descriptions(conn), 0, "sponsor descriptions after {after}");
}

#[derive(QueryableByName)]
struct ProjectTotal {
    #[diesel(sql_type = BigInt)]
    paid_amount: i64,
    #[diesel(sql_type = BigInt)]
    supports: i64,
}

fn project_total(conn: &mut PgConnection, project: i64) -> (i64, i64) {
    let row: Option<ProjectTotal> = diesel::OptionalExtension::optional(
        sql_query(format!("SELECT paid_amount, supports FROM project_totals WHERE project_id = {project}"))
            .get_result(conn),
    )
    .unwrap();
    row.map_or((0, 0), |r| (r.paid_amount, r.supports))
}

#[test]
fn a_sale_enters_the_totals_when_paid_and_leaves_them_when_refunded_or_no_longer_paid() {
    let (db, _pool) = TestDatabase::create().unwrap();
    let mut conn = PgConnection::establish(&db.url).unwrap();
    fixtures(&mut conn);

    insert_sale(&mut conn, 1, 0, 1, 2, SaleStatus::Pending);
    assert_eq!(project_total(&mut conn, 1), (0, 0), "a pending sale does not count");
    assert_totals_exact(&mut conn, "a pending sale");

    set_status(&mut conn, "id = 1", SaleStatus::Succeeded);
    assert_eq!(project_total(&mut conn, 1), (2200, 1), "paid, tax included");
    assert_totals_exact(&mut conn, "pending -> succeeded");

    insert_sale(&mut conn, 2, 1, 2, 1, SaleStatus::Succeeded);
    assert_eq!(project_total(&mut conn, 1), (35200, 2));
    assert_totals_exact(&mut conn, "a sale written as paid");

    open_refund(&mut conn, 2, Some(50));
    assert_eq!(project_total(&mut conn, 1), (18700, 2), "a refund on its way back no longer counts");
    assert_totals_exact(&mut conn, "a refund asked for");
    open_refund(&mut conn, 2, None);
    assert_eq!(project_total(&mut conn, 1), (35200, 2), "a refund that failed counts again");
    assert_totals_exact(&mut conn, "a refund failed");

    refund(&mut conn, 2, 25);
    assert_eq!(project_total(&mut conn, 1), (26950, 2), "a partly refunded sale keeps what was not refunded");
    assert_totals_exact(&mut conn, "succeeded -> partly refunded (flag 11)");
    exec(&mut conn, "UPDATE sales SET refunded_amount = total WHERE id = 2");
    assert_eq!(project_total(&mut conn, 1), (2200, 1), "a sale refunded in full leaves the totals");
    assert_totals_exact(&mut conn, "partly -> fully refunded");

    insert_sale(&mut conn, 3, 2, 1, 1, SaleStatus::AwaitingBankTransfer);
    set_status(&mut conn, "id = 3", SaleStatus::Canceled);
    assert_totals_exact(&mut conn, "awaiting -> canceled");
    set_status(&mut conn, "id = 3", SaleStatus::Succeeded);
    assert_eq!(project_total(&mut conn, 2), (5500, 1), "a transfer arriving after the cancel counts");
    assert_totals_exact(&mut conn, "canceled -> succeeded (late)");

    set_status(&mut conn, "id = 1", SaleStatus::Canceled);
    assert_eq!(project_total(&mut conn, 1), (0, 0), "a sale that stops being paid leaves the totals");
    assert_totals_exact(&mut conn, "succeeded -> canceled");

    exec(&mut conn, "UPDATE sales SET updated_at = now()");
    assert_totals_exact(&mut conn, "an update that changes nothing that counts");

    exec(
        &mut conn,
        "INSERT INTO display_names (sales_id, user_id, project_id, return_id, displayname, flag) \
                     VALUES (3, 1, 2, 3, '上毛', 1)",
    );
    assert_totals_exact(&mut conn, "a display name added to a paid sale");
    exec(&mut conn, "UPDATE display_names SET flag = 0 WHERE sales_id = 3");
    assert_totals_exact(&mut conn, "a display name made anonymous");

    exec(&mut conn, "DELETE FROM sales WHERE id = 3");
    assert_eq!(project_total(&mut conn, 2), (0, 0), "a deleted sale leaves the totals");
    assert_totals_exact(&mut conn, "a delete");
}

#[test]
fn rebuilding_the_totals_from_sales_gives_what_the_triggers_kept() {
    let (db, _pool) = TestDatabase::create().unwrap();
    let mut conn = PgConnection::establish(&db.url).unwrap();
    fixtures(&mut conn);
    for id in 1..=12 {
        let status = if id % 3 == 0 { SaleStatus::Pending } else { SaleStatus::Succeeded };
        insert_sale(&mut conn, id, (id % 3) as usize, id % 4 + 1, id % 2 + 1, status);
    }
    refund(&mut conn, 4, 30);
    refund(&mut conn, 5, 100);
    open_refund(&mut conn, 7, Some(10));
    let before = kept_and_recomputed(&mut conn).map(|(kept, _)| kept);

    // What a bulk load does: rows written with triggers off, then one rebuild.
    exec(&mut conn, "SET session_replication_role = replica");
    insert_sale(&mut conn, 13, 1, 3, 2, SaleStatus::Succeeded);
    exec(&mut conn, "SET session_replication_role = DEFAULT");
    assert_eq!(kept_and_recomputed(&mut conn).map(|(kept, _)| kept), before, "the trigger was off");
    exec(&mut conn, "SELECT rebuild_running_totals()");
    assert_totals_exact(&mut conn, "a rebuild");
}

/// One step of a random history of sales.
#[derive(Debug, Clone)]
enum Step {
    Write {
        ret: usize,
        user: i64,
        lot: i64,
        status: SaleStatus,
    },
    Move {
        sale: prop::sample::Index,
        status: SaleStatus,
    },
    /// A refund of a share of the total: paid back (flag 11) or still open.
    Refund {
        sale: prop::sample::Index,
        percent: i64,
        paid_back: bool,
    },
    /// An open refund that the provider refused.
    RefundFails {
        sale: prop::sample::Index,
    },
    /// One statement paying every pending sale of a project (several rows, one trigger call).
    PayAllPending {
        project: i64,
    },
    Name {
        sale: prop::sample::Index,
        name: &'static str,
        anonymous: bool,
    },
}

fn step() -> impl Strategy<Value = Step> {
    let status = proptest::sample::select(SaleStatus::ALL.to_vec());
    prop_oneof![
        3 => (0usize..3, 1i64..=3, 1i64..=3, status.clone())
            .prop_map(|(ret, user, lot, status)| Step::Write { ret, user, lot, status }),
        3 => (any::<prop::sample::Index>(), status).prop_map(|(sale, status)| Step::Move { sale, status }),
        1 => (any::<prop::sample::Index>(), 1i64..=100, any::<bool>())
            .prop_map(|(sale, percent, paid_back)| Step::Refund { sale, percent, paid_back }),
        1 => any::<prop::sample::Index>().prop_map(|sale| Step::RefundFails { sale }),
        1 => (1i64..=2).prop_map(|project| Step::PayAllPending { project }),
        1 => (any::<prop::sample::Index>(), proptest::sample::select(vec!["太郎", "　", "上毛商事"]), any::<bool>())
            .prop_map(|(sale, name, anonymous)| Step::Name { sale, name, anonymous }),
    ]
}

fn play(conn: &mut PgConnection, steps: &[Step]) {
    let mut written = 0i64;
    for step in steps {
        let pick = |index: &prop::sample::Index| (written > 0).then(|| index.index(written as usize) as i64 + 1);
        match step {
            Step::Write { ret, user, lot, status } => {
                written += 1;
                insert_sale(conn, written, *ret, *user, *lot, *status);
            }
            Step::Move { sale, status } => {
                if let Some(id) = pick(sale) {
                    set_status(conn, &format!("id = {id}"), *status);
                }
            }
            Step::Refund { sale, percent, paid_back } => {
                if let Some(id) = pick(sale) {
                    if *paid_back {
                        refund(conn, id, *percent);
                    } else {
                        open_refund(conn, id, Some(*percent));
                    }
                }
            }
            Step::RefundFails { sale } => {
                if let Some(id) = pick(sale) {
                    open_refund(conn, id, None);
                }
            }
            Step::PayAllPending { project } => {
                set_status(conn, &format!("project_id = {project} AND status = 'pending'"), SaleStatus::Succeeded);
            }
            Step::Name { sale, name, anonymous } => {
                if let Some(id) = pick(sale) {
                    exec(
                        conn,
                        &format!(
                            "INSERT INTO display_names (sales_id, user_id, project_id, return_id, displayname, flag) \
                             SELECT id, user_id, project_id, return_id, '{name}', {} FROM sales WHERE id = {id} \
                             ON CONFLICT (sales_id) DO UPDATE SET displayname = EXCLUDED.displayname, flag = EXCLUDED.flag",
                            i16::from(!anonymous)
                        ),
                    );
                }
            }
        }
    }
}

#[test]
fn after_any_history_of_payments_status_changes_and_refunds_the_totals_equal_a_recomputation() {
    let (db, _pool) = TestDatabase::create().unwrap();
    let conn = std::cell::RefCell::new(PgConnection::establish(&db.url).unwrap());
    fixtures(&mut conn.borrow_mut());
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(24);
    let config = Config { cases, max_shrink_iters: 128, failure_persistence: None, ..Config::default() };
    TestRunner::new(config)
        .run(&proptest::collection::vec(step(), 1..40), |steps| {
            let mut conn = conn.borrow_mut();
            exec(&mut conn, "DELETE FROM display_names");
            exec(&mut conn, "DELETE FROM sales");
            exec(&mut conn, "SELECT rebuild_running_totals()");
            play(&mut conn, &steps);
            for (table, (kept, recomputed)) in
                ["project_totals", "return_totals", "sponsor_totals"].into_iter().zip(kept_and_recomputed(&mut conn))
            {
                prop_assert_eq!(kept, recomputed, "{}", table);
            }
            prop_assert_eq!(stale_descriptions(&mut conn), 0);
            Ok(())
        })
        .unwrap();
}

/// Eight supporters' payments (and some refunds) of one project at once, each in its own transaction, several
/// rounds: every one commits (no deadlock, no lost increment) and the totals are exact.
#[test]
fn eight_concurrent_payments_of_one_project_all_commit_and_the_totals_stay_exact() {
    const THREADS: i64 = 8;
    const ROUNDS: i64 = 12;
    let (db, _pool) = TestDatabase::create().unwrap();
    let mut conn = PgConnection::establish(&db.url).unwrap();
    fixtures(&mut conn);
    // Sale ids: thread t, round r -> t * 100 + r; two returns of project 1, users shared between threads so that
    // sponsor rows are contended too.
    for t in 0..THREADS {
        for r in 0..ROUNDS {
            insert_sale(&mut conn, t * 100 + r + 1, (r % 2) as usize, t % 3 + 1, 1, SaleStatus::Pending);
        }
    }
    let barrier = Arc::new(Barrier::new(THREADS as usize));
    let workers: Vec<_> = (0..THREADS)
        .map(|t| {
            let url = db.url.clone();
            let barrier = Arc::clone(&barrier);
            std::thread::spawn(move || {
                let mut conn = PgConnection::establish(&url).unwrap();
                for r in 0..ROUNDS {
                    let id = t * 100 + r + 1;
                    barrier.wait();
                    conn.transaction::<_, diesel::result::Error, _>(|conn| {
                        sql_query(format!(
                            "UPDATE sales SET status = 'succeeded', flag = 1, updated_at = now() WHERE id = {id}"
                        ))
                        .execute(conn)?;
                        // Hold the locks a moment, as a payment writing its other rows would.
                        sql_query("SELECT pg_sleep(0.002)").execute(conn)?;
                        // Every fourth round refunds the previous sale: in full (every eighth) or in part.
                        if r % 4 == 3 {
                            let refunded = if r % 8 == 7 { "total" } else { "total / 3" };
                            sql_query(format!(
                                "UPDATE sales SET flag = 11, refunded_amount = {refunded} WHERE id = {}",
                                id - 1
                            ))
                            .execute(conn)?;
                        }
                        Ok(())
                    })
                    .unwrap_or_else(|e| panic!("payment {id}: {e}"));
                }
            })
        })
        .collect();
    for worker in workers {
        worker.join().expect("a payment failed");
    }

    let refunded_in_full = THREADS * (ROUNDS / 8);
    let paid = THREADS * ROUNDS - refunded_in_full;
    let (amount, supports) = project_total(&mut conn, 1);
    assert_eq!(supports, paid, "a partly refunded sale stays a support");
    let expected: Count = sql_query(
        "SELECT sum(total - refunded_amount)::bigint AS count FROM sales \
         WHERE status = 'succeeded' AND project_id = 1",
    )
    .get_result(&mut conn)
    .unwrap();
    assert_eq!(amount, expected.count);
    assert_totals_exact(&mut conn, "concurrent payments");
}
