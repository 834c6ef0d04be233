//! My page's supported projects against a real database: one record per project with the member's paid sales
//! and their delivery state, the newest news item the member may read (never one for a return the member does
//! not hold, a draft or a scheduled one), pages, and nothing of another member's.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use adapters_postgres::testing::TestDatabase;
use adapters_postgres::PgSupports;
use chrono::{DateTime, NaiveDate, TimeZone, Utc};
use diesel::{sql_query, PgConnection, RunQueryDsl};
use domain::ids::{ProjectId, SaleId, UserId};
use domain::money::Yen;
use ports::following::{SupportedRecord, SupportedStore};

const MEMBER: UserId = UserId(1);
const OTHER: UserId = UserId(2);

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 28, 3, 0, 0).unwrap()
}

fn exec(conn: &mut PgConnection, sql: &str) {
    sql_query(sql).execute(conn).unwrap_or_else(|e| panic!("{e}: {sql}"));
}

/// Projects 1 (returns 1 ばらの苗 and 2 お礼のメール) and 2 (returns 3 ミニだるま and 4 だるま絵付け).
/// The member: sales 1 (return 1, 1 lot, shipped on 20 Nov) and 2 (return 1, 2 lots, not shipped), 3 (return 1,
/// a transfer still awaited), 4 (return 2, refunded in full), 5 (return 3, project 2, the latest). The other
/// member: sales 6 (return 2) and 7 (return 4).
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
           (1, 1, 'r1', 0, 'ばらの苗', 3300, 0, 1), (2, 1, 'r2', 0, 'お礼のメール', 1100, 0, 2), \
           (3, 2, 'r3', 0, 'ミニだるま', 1100, 0, 1), (4, 2, 'r4', 0, 'だるま絵付け', 5500, 0, 2)",
    );
    let sale = |id: i64, project: i64, ret: i64, user: i64, status: &str, lot: i64, price: i64, minute: i64| {
        let at = format!("'2026-11-01 00:{minute:02}:00+00'");
        let (pay, paid_at) = if status == "succeeded" { (1, at.as_str()) } else { (2, "NULL") };
        let total = price * lot;
        format!(
            "({id}, {project}, {ret}, {user}, {price}, {lot}, {total}, {tax}, {total}, 'inclusive', 10, {pay}, \
              '{status}', 'pi_{id}', 'key-{id:06}', 0, {at}, {paid_at})",
            tax = total / 11
        )
    };
    exec(
        conn,
        &format!(
            "INSERT INTO sales (id, project_id, return_id, user_id, price, lot, amount, tax, total, tax_mode, \
               tax_rate_percent, payment_type, status, intent_id, idempotency_key, flag, created_at, paid_at) VALUES {}",
            [
                sale(1, 1, 1, 1, "succeeded", 1, 3300, 1),
                sale(2, 1, 1, 1, "succeeded", 2, 3300, 2),
                sale(3, 1, 1, 1, "awaiting_bank_transfer", 1, 3300, 9),
                sale(4, 1, 2, 1, "succeeded", 1, 1100, 3),
                sale(5, 2, 3, 1, "succeeded", 1, 1100, 5),
                sale(6, 1, 2, 2, "succeeded", 1, 1100, 6),
                sale(7, 2, 4, 2, "succeeded", 1, 5500, 7),
            ]
            .join(", ")
        ),
    );
    exec(
        conn,
        "INSERT INTO refunds (sales_id, amount, status, requested_by, provider_refund_id) VALUES \
           (4, 1100, 'succeeded', 1, 're_4')",
    );
    exec(
        conn,
        "INSERT INTO sale_deliveries (sale_id, shipped_on, note, updated_by) VALUES (1, '2026-11-20', '追跡 1234', 1)",
    );
    // Project 1: public (day 1), every supporter (day 2), return 2's supporters (day 3: the member's return 2
    // was refunded in full), public but scheduled for tomorrow, a draft. Project 2: return 3's supporters (day 1),
    // return 4's (day 2: another return), public and scheduled.
    exec(
        conn,
        "INSERT INTO project_news (id, project_id, title, description, published_at, audience, return_ids) VALUES \
           (1, 1, '公開の報告', '', '2026-11-01 00:00:00+00', 'public', '{}'), \
           (2, 1, '支援者への報告', '', '2026-11-02 00:00:00+00', 'supporters', '{}'), \
           (3, 1, 'お礼のメールの方へ', '', '2026-11-03 00:00:00+00', 'supporters', '{2}'), \
           (4, 1, '明日公開の報告', '', '2026-11-29 00:00:00+00', 'public', '{}'), \
           (5, 1, '下書きの報告', '', NULL, 'public', '{}'), \
           (6, 2, 'ミニだるまの方へ', '', '2026-11-01 00:00:00+00', 'supporters', '{3}'), \
           (7, 2, '絵付けの方へ', '', '2026-11-02 00:00:00+00', 'supporters', '{4}'), \
           (8, 2, '来週の報告', '', '2026-12-05 00:00:00+00', 'public', '{}')",
    );
}

fn setup() -> (TestDatabase, PgSupports) {
    let (db, pool) = TestDatabase::create().unwrap();
    fixtures(&mut pool.get().unwrap());
    (db, PgSupports::new(pool))
}

fn news_title(record: &SupportedRecord) -> Option<&str> {
    record.latest_news.as_ref().map(|n| n.title.as_str())
}

#[tokio::test]
async fn each_supported_project_comes_once_with_its_paid_sales_and_their_delivery_state() {
    let (_db, store) = setup();

    let page = store.supported(MEMBER, 1, 20, now()).await.unwrap();

    assert_eq!((page.total, page.page), (2, 1));
    let slugs: Vec<&str> = page.projects.iter().map(|p| p.slug.as_str()).collect();
    assert_eq!(slugs, ["p2", "p1"], "the latest paid sale first; the awaited transfer does not count");
    let p1 = &page.projects[1];
    assert_eq!((p1.project, p1.title.as_str()), (ProjectId(1), "前橋ばら園"));
    let sales: Vec<(SaleId, &str, i16, Option<NaiveDate>)> =
        p1.sales.iter().map(|s| (s.id, s.return_title.as_str(), s.lot, s.shipped_on)).collect();
    assert_eq!(
        sales,
        vec![
            (SaleId(1), "ばらの苗", 1, NaiveDate::from_ymd_opt(2026, 11, 20)),
            (SaleId(2), "ばらの苗", 2, None),
            (SaleId(4), "お礼のメール", 1, None),
        ],
        "paid sales only, oldest first"
    );
    assert_eq!((p1.sales[2].refunding, p1.sales[2].refunded), (Yen(1100), Yen(1100)));
}

#[tokio::test]
async fn the_latest_news_is_the_newest_the_member_may_read_never_scheduled_nor_for_a_return_not_held() {
    let (_db, store) = setup();

    let mine = store.supported(MEMBER, 1, 20, now()).await.unwrap();

    let by_slug = |slug: &str| mine.projects.iter().find(|p| p.slug == slug).unwrap();
    // Not 3 (for return 2, refunded in full), 4 (tomorrow) or 5 (a draft).
    assert_eq!(news_title(by_slug("p1")), Some("支援者への報告"));
    assert_eq!(by_slug("p1").latest_news.as_ref().unwrap().id, 2);
    // Not 7 (for return 4, which the member does not hold) or 8 (next week).
    assert_eq!(news_title(by_slug("p2")), Some("ミニだるまの方へ"));

    // The other member holds returns 2 and 4: their news, and nothing of the member's.
    let theirs = store.supported(OTHER, 1, 20, now()).await.unwrap();
    let titles: Vec<(&str, Option<&str>)> = theirs.projects.iter().map(|p| (p.slug.as_str(), news_title(p))).collect();
    assert_eq!(titles, vec![("p2", Some("絵付けの方へ")), ("p1", Some("お礼のメールの方へ"))]);
    let sales: Vec<i64> = theirs.projects.iter().flat_map(|p| p.sales.iter().map(|s| s.id.get())).collect();
    assert_eq!(sales, vec![7, 6]);

    // Once its time has come, the scheduled public item is the newest.
    let later = Utc.with_ymd_and_hms(2026, 11, 29, 0, 0, 0).unwrap();
    let then = store.supported(MEMBER, 1, 20, later).await.unwrap();
    assert_eq!(news_title(then.projects.iter().find(|p| p.slug == "p1").unwrap()), Some("明日公開の報告"));
}

#[tokio::test]
async fn pages_cut_the_list_and_a_page_beyond_the_end_answers_the_last() {
    let (_db, store) = setup();

    let first = store.supported(MEMBER, 1, 1, now()).await.unwrap();
    let second = store.supported(MEMBER, 2, 1, now()).await.unwrap();
    let beyond = store.supported(MEMBER, 99, 1, now()).await.unwrap();

    assert_eq!((first.total, first.projects.len(), first.projects[0].slug.as_str()), (2, 1, "p2"));
    assert_eq!((second.page, second.projects[0].slug.as_str()), (2, "p1"));
    assert_eq!((beyond.page, beyond.projects[0].slug.as_str()), (2, "p1"));
    assert_eq!(second.projects[0].sales.len(), 3, "a page's project carries all of its sales");

    let nobody = store.supported(UserId(99), 1, 20, now()).await.unwrap();
    assert_eq!((nobody.total, nobody.page, nobody.projects.len()), (0, 1, 0));
}
