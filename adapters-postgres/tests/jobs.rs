//! The job queue against PostgreSQL: one holder at a time, and a holder whose
//! lease ran out cannot overwrite the newer try's outcome.
#![allow(clippy::unwrap_used, clippy::expect_used)]
use adapters_postgres::testing::TestDatabase;
use adapters_postgres::PgJobQueue;
use chrono::{Duration, Utc};
use ports::jobs::JobQueue;
use ports::RepoError;
use serde_json::json;

#[tokio::test]
async fn a_claimed_job_goes_to_one_worker_until_its_lease_runs_out() {
    let (_db, pool) = TestDatabase::create().unwrap();
    let queue = PgJobQueue::new(pool);
    queue.enqueue("send_mail", json!({"to": "a@example.jp"}), 3).await.unwrap();
    let now = Utc::now();
    let lease = Duration::minutes(2);

    let first = queue.claim("send_mail", "w1", now, lease).await.unwrap().unwrap();
    assert!(queue.claim("send_mail", "w2", now, lease).await.unwrap().is_none());

    let again = queue.claim("send_mail", "w2", now + Duration::minutes(3), lease).await.unwrap().unwrap();
    assert_eq!((again.id, again.attempts), (first.id, first.attempts + 1));
}

#[tokio::test]
async fn a_worker_whose_lease_ran_out_cannot_finish_the_newer_try() {
    let (db, pool) = TestDatabase::create().unwrap();
    let queue = PgJobQueue::new(pool);
    queue.enqueue("send_mail", json!({"to": "a@example.jp"}), 3).await.unwrap();
    let now = Utc::now();
    let lease = Duration::minutes(2);
    let stale = queue.claim("send_mail", "w1", now, lease).await.unwrap().unwrap();
    let fresh = queue.claim("send_mail", "w2", now + Duration::minutes(3), lease).await.unwrap().unwrap();

    queue.succeed(fresh.ticket(), json!({"to": "a@example.jp"}), now).await.unwrap();
    let late_failure = queue.fail(stale.ticket(), "relay timed out", Some(now + Duration::minutes(1)), now).await;
    let late_success = queue.succeed(stale.ticket(), json!({}), now).await;

    assert!(matches!(late_failure, Err(RepoError::Conflict(_))), "{late_failure:?}");
    assert!(matches!(late_success, Err(RepoError::Conflict(_))), "{late_success:?}");
    use diesel::{Connection, RunQueryDsl};
    #[derive(diesel::QueryableByName)]
    struct Row {
        #[diesel(sql_type = diesel::sql_types::Text)]
        status: String,
    }
    let mut conn = diesel::PgConnection::establish(&db.url).unwrap();
    let row: Row = diesel::sql_query("SELECT status FROM background_jobs").get_result(&mut conn).unwrap();
    assert_eq!(row.status, "succeeded", "the stale worker did not queue the sent mail again");
}

#[tokio::test]
async fn only_jobs_finished_before_the_cut_are_purged() {
    let (_db, pool) = TestDatabase::create().unwrap();
    let queue = PgJobQueue::new(pool);
    let lease = Duration::minutes(2);
    for _ in 0..3 {
        queue.enqueue("send_mail", json!({}), 3).await.unwrap();
    }
    // After the database stamped the jobs due.
    let now = Utc::now() + Duration::seconds(1);
    let old = queue.claim("send_mail", "w", now, lease).await.unwrap().unwrap();
    queue.succeed(old.ticket(), json!({}), now - Duration::days(40)).await.unwrap();
    let recent = queue.claim("send_mail", "w", now, lease).await.unwrap().unwrap();
    queue.succeed(recent.ticket(), json!({}), now).await.unwrap();

    let purged = queue.purge_finished("send_mail", now - Duration::days(30)).await.unwrap();

    assert_eq!(purged, 1, "the recent and the still queued job stay");
    assert!(queue.claim("send_mail", "w", now, lease).await.unwrap().is_some());
}
