//! Mail about kept projects on PostgreSQL: the opt-in, the candidates of the end notice (opted in, not opted
//! out, public, ending in the window) and the notice queued once with its mail job.
#![allow(clippy::unwrap_used, clippy::expect_used)]
use adapters_postgres::testing::{exec, TestDatabase};
use adapters_postgres::PgFollowMail;
use chrono::{NaiveDate, TimeZone, Utc};
use diesel::{sql_query, Connection, PgConnection, QueryableByName, RunQueryDsl};
use domain::account::Email;
use domain::ids::{ProjectId, UserId};
use ports::following::mail::FollowMailStore;
use ports::mailer::OutgoingMail;
use ports::RepoError;

fn now() -> chrono::DateTime<Utc> {
    Utc.with_ymd_and_hms(2027, 3, 1, 3, 0, 0).unwrap()
}

fn day(d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2027, 3, d).unwrap()
}

#[derive(QueryableByName)]
struct Value {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    value: i64,
}

fn count(url: &str, sql: &str) -> i64 {
    let mut conn = PgConnection::establish(url).unwrap();
    sql_query(sql).get_result::<Value>(&mut conn).unwrap().value
}

/// Project 1 ends on 2 March (public), project 2 on 2 March (a draft), project 3 on 20 March (public). Users 1
/// (opted in), 2 (opted in, then opted out of all mail) and 3 (not opted in) keep all three.
fn setup(url: &str) {
    for (id, end, published) in [(1, day(2), true), (2, day(2), false), (3, day(20), true)] {
        exec(
            url,
            &format!(
                "INSERT INTO projects (id, slug, title, period_end, target_amount) \
                 VALUES ({id}, 'p{id}', 'プロジェクト{id}', '{end}', 100000)"
            ),
        );
        if published {
            exec(url, &format!("UPDATE project_publications SET published_at = '2027-01-01' WHERE project_id = {id}"));
        }
    }
    exec(
        url,
        "INSERT INTO users (id, email, status, password_hash) VALUES (1, 'a@example.jp', 'member', 'x'), \
           (2, 'b@example.jp', 'member', 'x'), (3, 'c@example.jp', 'member', 'x')",
    );
    exec(url, "INSERT INTO favourites (user_id, project_id) SELECT u, p FROM generate_series(1, 3) u, generate_series(1, 3) p");
    exec(url, "INSERT INTO favourite_mail_opt_ins (user_id) VALUES (1), (2)");
    exec(url, "INSERT INTO mail_opt_outs (user_id) VALUES (2)");
}

fn mail() -> OutgoingMail {
    OutgoingMail {
        to: Email::parse("a@example.jp").unwrap(), subject: "まもなく終了".into(), text_body: "本文".into()
    }
}

#[tokio::test]
async fn only_opted_in_members_who_did_not_opt_out_are_told_of_public_projects_ending_in_the_window_once() {
    let (db, pool) = TestDatabase::create().unwrap();
    setup(&db.url);
    let store = PgFollowMail::new(pool);

    let candidates = store.end_notice_candidates(day(1), day(3), now(), 10).await.unwrap();
    assert_eq!(candidates.iter().map(|c| (c.project, c.user)).collect::<Vec<_>>(), [(ProjectId(1), UserId(1))]);
    assert_eq!(candidates[0].email, "a@example.jp");

    assert!(store.queue_end_notice(ProjectId(1), UserId(1), &mail(), now()).await.unwrap());
    assert!(!store.queue_end_notice(ProjectId(1), UserId(1), &mail(), now()).await.unwrap(), "once");
    assert!(store.end_notice_candidates(day(1), day(3), now(), 10).await.unwrap().is_empty());
    assert_eq!(count(&db.url, "SELECT count(*) AS value FROM background_jobs WHERE kind = 'send_mail'"), 1);
}

#[tokio::test]
async fn the_opt_in_is_stored_per_member_and_an_unknown_member_is_not_found() {
    let (db, pool) = TestDatabase::create().unwrap();
    setup(&db.url);
    let store = PgFollowMail::new(pool);

    assert!(!store.opted_in(UserId(3)).await.unwrap());
    store.set_opted_in(UserId(3), true, now()).await.unwrap();
    store.set_opted_in(UserId(3), true, now()).await.unwrap();
    assert!(store.opted_in(UserId(3)).await.unwrap());
    store.set_opted_in(UserId(1), false, now()).await.unwrap();
    assert!(!store.opted_in(UserId(1)).await.unwrap());
    assert!(matches!(store.set_opted_in(UserId(99), true, now()).await, Err(RepoError::NotFound)));
}
