//! Kept projects against a real database: idempotent keeps, the per-member limit held under concurrent keeps,
//! newest first, unknown projects refused, and rows gone with their project or member.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use adapters_postgres::testing::TestDatabase;
use adapters_postgres::{PgFavourites, PgPool};
use chrono::{DateTime, TimeZone, Utc};
use diesel::{sql_query, PgConnection, RunQueryDsl};
use domain::ids::{ProjectId, UserId};
use ports::following::{FavouriteRepository, KeepOutcome};
use ports::RepoError;

fn exec(conn: &mut PgConnection, sql: &str) {
    sql_query(sql).execute(conn).unwrap_or_else(|e| panic!("{e}: {sql}"));
}

fn at(minute: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 12, 5, 10, minute, 0).unwrap()
}

/// Members 1 and 2; projects 1 to 12.
fn setup() -> (TestDatabase, PgPool, PgFavourites) {
    let (db, pool) = TestDatabase::create().unwrap();
    let mut conn = pool.get().unwrap();
    exec(
        &mut conn,
        "INSERT INTO users (id, email, status, password_hash) VALUES \
           (1, 'u1@example.jp', 'member', 'x'), (2, 'u2@example.jp', 'member', 'x')",
    );
    exec(
        &mut conn,
        "INSERT INTO projects (id, slug, title, target_amount, period_end) \
         SELECT n, 'p' || n, 'プロジェクト' || n, 100000, '2030-01-01' FROM generate_series(1, 12) AS n",
    );
    (db, pool.clone(), PgFavourites::new(pool))
}

fn ids(list: &[ports::following::KeptProject]) -> Vec<i64> {
    list.iter().map(|k| k.project.get()).collect()
}

#[tokio::test]
async fn a_keep_is_listed_newest_first_and_a_second_keep_changes_nothing() {
    let (_db, _pool, repo) = setup();

    assert_eq!(repo.keep(UserId(1), ProjectId(3), at(1), 500).await.unwrap(), KeepOutcome::Kept);
    assert_eq!(repo.keep(UserId(1), ProjectId(5), at(2), 500).await.unwrap(), KeepOutcome::Kept);
    assert_eq!(repo.keep(UserId(1), ProjectId(3), at(3), 500).await.unwrap(), KeepOutcome::AlreadyKept);

    let kept = repo.kept(UserId(1), 500).await.unwrap();
    assert_eq!(ids(&kept), vec![5, 3]);
    assert_eq!(kept[1].kept_at, at(1), "the first keep's time stays");
    assert!(repo.kept(UserId(2), 500).await.unwrap().is_empty(), "another member's list is their own");
}

#[tokio::test]
async fn removing_is_idempotent_and_touches_only_that_member() {
    let (_db, _pool, repo) = setup();
    repo.keep(UserId(1), ProjectId(3), at(1), 500).await.unwrap();
    repo.keep(UserId(2), ProjectId(3), at(1), 500).await.unwrap();

    repo.remove(UserId(1), ProjectId(3)).await.unwrap();
    repo.remove(UserId(1), ProjectId(3)).await.unwrap();

    assert!(repo.kept(UserId(1), 500).await.unwrap().is_empty());
    assert_eq!(ids(&repo.kept(UserId(2), 500).await.unwrap()), vec![3]);
}

#[tokio::test]
async fn an_unknown_project_is_not_found() {
    let (_db, _pool, repo) = setup();

    assert!(matches!(repo.keep(UserId(1), ProjectId(999), at(1), 500).await, Err(RepoError::NotFound)));
}

#[tokio::test]
async fn concurrent_keeps_never_pass_the_limit() {
    let (_db, _pool, repo) = setup();
    let keeps: Vec<_> = (1..=12)
        .map(|p| {
            let repo = repo.clone();
            tokio::spawn(async move { repo.keep(UserId(1), ProjectId(p), at(p as u32), 5).await.unwrap() })
        })
        .collect();
    let mut outcomes = Vec::new();
    for keep in keeps {
        outcomes.push(keep.await.unwrap());
    }

    assert_eq!(outcomes.iter().filter(|o| **o == KeepOutcome::Kept).count(), 5);
    assert_eq!(outcomes.iter().filter(|o| **o == KeepOutcome::Full).count(), 7);
    assert_eq!(repo.kept(UserId(1), 500).await.unwrap().len(), 5);
}

#[tokio::test]
async fn the_list_answers_at_most_the_limit_asked() {
    let (_db, _pool, repo) = setup();
    for p in 1..=4 {
        repo.keep(UserId(1), ProjectId(p), at(p as u32), 500).await.unwrap();
    }

    assert_eq!(ids(&repo.kept(UserId(1), 2).await.unwrap()), vec![4, 3]);
}

#[tokio::test]
async fn a_deleted_project_leaves_no_row_behind() {
    let (_db, pool, repo) = setup();
    repo.keep(UserId(1), ProjectId(3), at(1), 500).await.unwrap();

    exec(&mut pool.get().unwrap(), "DELETE FROM projects WHERE id = 3");

    assert!(repo.kept(UserId(1), 500).await.unwrap().is_empty());
}
