//! The delivery list and states against a real database: only paid sales not refunded in full are listed, with
//! the address and answer they were placed with; filters and pages; a state written once however many requests
//! race, its mail queued in the same transaction; corrections and 未発送 again.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use adapters_postgres::testing::TestDatabase;
use adapters_postgres::{PgDeliveries, PgPool};
use chrono::NaiveDate;
use diesel::{sql_query, PgConnection, RunQueryDsl};
use domain::delivery::{DeliveryFilter, DeliveryState};
use domain::ids::{ProjectId, ReturnId, SaleId, UserId};
use domain::money::Yen;
use ports::admin::deliveries::{DeliveryQuery, DeliveryStore, StateWrite};
use ports::RepoError;
use serde_json::json;

fn exec(conn: &mut PgConnection, sql: &str) {
    sql_query(sql).execute(conn).unwrap_or_else(|e| panic!("{e}: {sql}"));
}

/// Project 1 with returns 1 (position 2) and 2 (position 1); member 1 (admin too) and member 2. Sales: 1 paid
/// with an address and an answer, 2 paid and half refunded, 3 awaiting a transfer, 4 paid and refunded in full,
/// 5 paid of return 2. Project 2 has sale 6, paid.
fn fixtures(conn: &mut PgConnection) {
    exec(
        conn,
        "INSERT INTO users (id, email, status, password_hash) VALUES \
           (1, 'u1@example.jp', 'member', 'x'), (2, 'u2@example.jp', 'member', 'x')",
    );
    exec(
        conn,
        "INSERT INTO projects (id, slug, title, target_amount, period_end) VALUES \
           (1, 'p1', '前橋ばら園', 100000, '2030-01-01'), (2, 'p2', '高崎だるま', 100000, '2030-01-01')",
    );
    exec(
        conn,
        "INSERT INTO returns (id, project_id, slug, return_type, title, price, flag, position) VALUES \
           (1, 1, 'r1', 0, 'ばらの苗', 3300, 0, 2), (2, 1, 'r2', 0, 'お礼のメール', 1100, 0, 1), \
           (3, 2, 'r3', 0, 'ミニだるま', 1100, 0, 1)",
    );
    let sale = |id: i64, project: i64, ret: i64, user: i64, status: &str, total: i64, minute: i64| {
        let at = format!("'2026-11-01 00:{minute:02}:00+00'");
        let (pay, paid_at) = if status == "succeeded" { (1, at.as_str()) } else { (2, "NULL") };
        format!(
            "({id}, {project}, {ret}, {user}, {total}, 1, {total}, {tax}, {total}, 'inclusive', 10, {pay}, '{status}', \
              'pi_{id}', 'key-{id:06}', 0, {at}, {paid_at})",
            tax = total / 11
        )
    };
    exec(
        conn,
        &format!(
            "INSERT INTO sales (id, project_id, return_id, user_id, price, lot, amount, tax, total, tax_mode, \
               tax_rate_percent, payment_type, status, intent_id, idempotency_key, flag, created_at, paid_at) VALUES {}",
            [
                sale(1, 1, 1, 1, "succeeded", 3300, 1),
                sale(2, 1, 1, 2, "succeeded", 3300, 2),
                sale(3, 1, 1, 2, "awaiting_bank_transfer", 3300, 3),
                sale(4, 1, 1, 2, "succeeded", 3300, 4),
                sale(5, 1, 2, 1, "succeeded", 1100, 5),
                sale(6, 2, 3, 1, "succeeded", 1100, 6),
            ]
            .join(", ")
        ),
    );
    exec(
        conn,
        "INSERT INTO refunds (sales_id, amount, status, requested_by, provider_refund_id) VALUES \
           (2, 1650, 'succeeded', 1, 're_2'), (4, 3300, 'succeeded', 1, 're_4')",
    );
    exec(
        conn,
        "INSERT INTO display_names (sales_id, user_id, project_id, return_id, displayname, flag) VALUES \
           (1, 1, 1, 1, '上州 太郎', 1)",
    );
    exec(
        conn,
        "INSERT INTO sale_addresses (sales_id, name, tel_number, zip, pref, city, address, building) VALUES \
           (1, '上州 太郎', '0272000000', '3710023', '群馬県', '前橋市', '本町1-2-3', NULL)",
    );
    exec(
        conn,
        "INSERT INTO sale_additional_data (sales_id, project_id, return_id, user_id, label, value) VALUES \
           (1, 1, 1, 1, 'Tシャツのサイズ', 'L')",
    );
}

fn setup() -> (TestDatabase, PgPool, PgDeliveries) {
    let (db, pool) = TestDatabase::create().unwrap();
    fixtures(&mut pool.get().unwrap());
    (db, pool.clone(), PgDeliveries::new(pool))
}

fn count(pool: &PgPool, sql: &str) -> i64 {
    #[derive(diesel::QueryableByName)]
    struct N {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        n: i64,
    }
    sql_query(sql).get_result::<N>(&mut pool.get().unwrap()).unwrap().n
}

fn day(d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 11, d).unwrap()
}

fn ship(sale: i64, note: Option<&str>, mail: bool) -> StateWrite {
    StateWrite {
        sale: SaleId(sale),
        before: DeliveryState::Unshipped,
        after: DeliveryState::Shipped { on: day(27), note: note.map(str::to_string) },
        mail: mail.then(|| json!({"to": "u1@example.jp", "subject": "発送", "text_body": format!("sale {sale}")})),
    }
}

#[tokio::test]
async fn only_paid_sales_not_refunded_in_full_are_listed_with_their_address_and_answer() {
    let (_db, _pool, store) = setup();

    let (rows, matching) = store.rows(ProjectId(1), DeliveryQuery::default(), 0, 50).await.unwrap();

    let ids: Vec<i64> = rows.iter().map(|r| r.sale.get()).collect();
    assert_eq!((ids, matching), (vec![1, 2, 5], 3), "oldest first; no awaited transfer, no full refund");
    let first = &rows[0];
    assert_eq!(first.display_name.as_deref(), Some("上州 太郎"));
    assert_eq!((first.email.as_str(), first.return_title.as_str(), first.lot), ("u1@example.jp", "ばらの苗", 1));
    assert_eq!(first.address.as_ref().map(|a| (a.zip.as_str(), a.address.as_str())), Some(("3710023", "本町1-2-3")));
    assert_eq!(first.answer, Some(("Tシャツのサイズ".into(), "L".into())));
    assert_eq!(first.state, DeliveryState::Unshipped);
    assert_eq!((rows[1].refunded, rows[1].address.clone()), (Yen(1650), None));

    let overview = store.overview(ProjectId(1)).await.unwrap();
    assert_eq!(overview.title, "前橋ばら園");
    let counts: Vec<(i64, u64, u64)> = overview.returns.iter().map(|r| (r.id.get(), r.to_deliver, r.shipped)).collect();
    assert_eq!(counts, vec![(2, 1, 0), (1, 2, 0)], "in the returns' order");
    assert!(matches!(store.overview(ProjectId(9)).await, Err(RepoError::NotFound)));
}

#[tokio::test]
async fn filters_and_pages_narrow_the_list_and_count_every_match() {
    let (_db, _pool, store) = setup();
    store.write(UserId(1), vec![ship(2, None, false)]).await.unwrap();

    let of_return = DeliveryQuery { return_id: Some(ReturnId(1)), state: DeliveryFilter::All };
    let (rows, matching) = store.rows(ProjectId(1), of_return, 1, 1).await.unwrap();
    assert_eq!((rows.iter().map(|r| r.sale.get()).collect::<Vec<_>>(), matching), (vec![2], 2));

    let shipped = DeliveryQuery { return_id: None, state: DeliveryFilter::Shipped };
    let (rows, matching) = store.rows(ProjectId(1), shipped, 0, 50).await.unwrap();
    assert_eq!((rows.len(), matching), (1, 1));
    assert_eq!(rows[0].state, DeliveryState::Shipped { on: day(27), note: None });

    let unshipped = DeliveryQuery { return_id: None, state: DeliveryFilter::Unshipped };
    let (rows, matching) = store.rows(ProjectId(1), unshipped, 0, 50).await.unwrap();
    assert_eq!((rows.iter().map(|r| r.sale.get()).collect::<Vec<_>>(), matching), (vec![1, 5], 2));

    let (rows, matching) = store.rows(ProjectId(1), DeliveryQuery::default(), 100, 50).await.unwrap();
    assert_eq!((rows.len(), matching), (0, 3), "a page past the end is empty, the count stays");
}

#[tokio::test]
async fn a_selection_keeps_only_the_projects_sales_to_deliver() {
    let (_db, _pool, store) = setup();

    let rows =
        store.selected(ProjectId(1), vec![SaleId(1), SaleId(3), SaleId(4), SaleId(6), SaleId(99)]).await.unwrap();

    assert_eq!(rows.iter().map(|r| r.sale.get()).collect::<Vec<_>>(), vec![1]);
}

#[tokio::test]
async fn ten_requests_shipping_one_sale_at_once_write_it_and_queue_its_mail_once() {
    let (_db, pool, store) = setup();

    let handles: Vec<_> = (0..10)
        .map(|_| {
            let store = store.clone();
            tokio::spawn(async move { store.write(UserId(1), vec![ship(1, Some("ヤマト 1234"), true)]).await.unwrap() })
        })
        .collect();
    let mut outcomes = Vec::new();
    for handle in handles {
        outcomes.push(handle.await.unwrap());
    }

    assert_eq!(outcomes.iter().filter(|o| **o == (1, 1)).count(), 1, "{outcomes:?}");
    assert_eq!(outcomes.iter().filter(|o| **o == (0, 0)).count(), 9);
    assert_eq!(count(&pool, "SELECT count(*) AS n FROM sale_deliveries"), 1);
    assert_eq!(count(&pool, "SELECT count(*) AS n FROM background_jobs WHERE kind = 'send_mail'"), 1);
    let row = &store.selected(ProjectId(1), vec![SaleId(1)]).await.unwrap()[0];
    assert_eq!(row.state, DeliveryState::Shipped { on: day(27), note: Some("ヤマト 1234".into()) });
}

#[tokio::test]
async fn a_correction_and_unshipping_apply_only_to_the_state_read_and_never_mail() {
    let (_db, pool, store) = setup();
    store.write(UserId(1), vec![ship(1, None, false)]).await.unwrap();
    let shipped = DeliveryState::Shipped { on: day(27), note: None };
    let corrected = DeliveryState::Shipped { on: day(26), note: Some("佐川 999".into()) };

    let stale = StateWrite {
        sale: SaleId(1),
        before: DeliveryState::Shipped { on: day(20), note: None },
        after: DeliveryState::Unshipped,
        mail: None,
    };
    assert_eq!(store.write(UserId(1), vec![stale]).await.unwrap(), (0, 0), "read before another change");

    let fix = StateWrite { sale: SaleId(1), before: shipped, after: corrected.clone(), mail: None };
    assert_eq!(store.write(UserId(1), vec![fix]).await.unwrap(), (1, 0));
    assert_eq!(store.selected(ProjectId(1), vec![SaleId(1)]).await.unwrap()[0].state, corrected);

    let undo = StateWrite { sale: SaleId(1), before: corrected, after: DeliveryState::Unshipped, mail: None };
    assert_eq!(store.write(UserId(1), vec![undo]).await.unwrap(), (1, 0));
    assert_eq!(count(&pool, "SELECT count(*) AS n FROM sale_deliveries"), 0);
    assert_eq!(count(&pool, "SELECT count(*) AS n FROM background_jobs"), 0);

    let refused = sql_query(
        "INSERT INTO sale_deliveries (sale_id, shipped_on, note, updated_by) VALUES (1, '2026-11-27', '', 1)",
    )
    .execute(&mut pool.get().unwrap())
    .unwrap_err();
    assert!(refused.to_string().contains("sale_deliveries_note_length"), "{refused}");
}
