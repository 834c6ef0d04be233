#![allow(clippy::unwrap_used, clippy::expect_used)]
use adapters_postgres::testing::TestDatabase;
use adapters_postgres::PgUserRepository;
use chrono::{Duration, Utc};
use domain::account::{AccountStatus, Email};
use domain::auth::LoginAttempt;
use ports::accounts::{KeyAction, KeyPurpose, NewKey, RedeemError, UserId, UserRepository};
use ports::RepoError;

fn key(hash: &str) -> NewKey {
    NewKey {
        purpose: KeyPurpose::Activate,
        key_hash: hash.to_string(),
        expires_at: Utc::now() + Duration::hours(24),
        new_email: None,
    }
}

fn email(raw: &str) -> Email {
    Email::parse(raw).unwrap()
}

#[tokio::test]
async fn a_provisional_account_is_found_by_its_email_in_any_case() {
    let (_db, pool) = TestDatabase::create().unwrap();
    let repo = PgUserRepository::new(pool);

    let id = repo.create_provisional(&email("Hanako@Example.jp"), key("h1")).await.unwrap();

    let found = repo.find_by_email(&email("hanako@example.JP")).await.unwrap();
    assert_eq!(found, Some((id, AccountStatus::Provisional)));
    assert_eq!(repo.find_by_email(&email("someone@example.jp")).await.unwrap(), None);
}

#[tokio::test]
async fn a_second_account_for_the_same_address_is_a_conflict_and_leaves_no_key_behind() {
    let (db, pool) = TestDatabase::create().unwrap();
    let repo = PgUserRepository::new(pool.clone());
    repo.create_provisional(&email("taro@example.jp"), key("first")).await.unwrap();

    let second = repo.create_provisional(&email("TARO@example.jp"), key("second")).await;

    assert!(matches!(second, Err(RepoError::Conflict(ref c)) if c == "users_email_lower_key"), "{second:?}");
    assert_eq!(count(&db.url, "SELECT count(*) FROM user_keys WHERE key_hash = 'second'"), 0);
}

#[tokio::test]
async fn replacing_a_key_keeps_only_the_newest_unused_key() {
    let (db, pool) = TestDatabase::create().unwrap();
    let repo = PgUserRepository::new(pool);
    let id = repo.create_provisional(&email("jiro@example.jp"), key("old")).await.unwrap();

    repo.replace_key(id, key("new")).await.unwrap();

    assert_eq!(count(&db.url, "SELECT count(*) FROM user_keys WHERE key_hash = 'old'"), 0);
    assert_eq!(count(&db.url, "SELECT count(*) FROM user_keys WHERE key_hash = 'new'"), 1);
}

#[tokio::test]
async fn replacing_the_key_of_an_unknown_account_is_not_found() {
    let (_db, pool) = TestDatabase::create().unwrap();
    let repo = PgUserRepository::new(pool);

    let result = repo.replace_key(UserId(424242), key("x")).await;

    assert!(matches!(result, Err(RepoError::NotFound)), "{result:?}");
}

fn set_password(hash: &str) -> KeyAction {
    KeyAction::SetPassword { password_hash: hash.to_string(), changed_at: Utc::now() }
}

#[tokio::test]
async fn redeeming_an_activation_key_makes_a_member_with_the_password() {
    let (_db, pool) = TestDatabase::create().unwrap();
    let repo = PgUserRepository::new(pool);
    let id = repo.create_provisional(&email("saburo@example.jp"), key("act")).await.unwrap();

    let redeemed =
        repo.redeem_key("act".into(), KeyPurpose::Activate, Utc::now(), set_password("$2b$x")).await.unwrap();

    assert_eq!(redeemed, id);
    let account = repo.credentials(id).await.unwrap();
    assert_eq!(account.status, AccountStatus::Member);
    assert_eq!(account.password_hash.as_deref(), Some("$2b$x"));
}

#[tokio::test]
async fn a_key_of_another_purpose_an_expired_key_and_a_used_key_are_refused() {
    let (_db, pool) = TestDatabase::create().unwrap();
    let repo = PgUserRepository::new(pool);
    repo.create_provisional(&email("shiro@example.jp"), key("k1")).await.unwrap();

    let other_purpose = repo.redeem_key("k1".into(), KeyPurpose::ResetPassword, Utc::now(), set_password("h")).await;
    assert!(matches!(other_purpose, Err(RedeemError::Invalid)), "{other_purpose:?}");

    let later = Utc::now() + Duration::hours(25);
    let expired = repo.redeem_key("k1".into(), KeyPurpose::Activate, later, set_password("h")).await;
    assert!(matches!(expired, Err(RedeemError::Expired)), "{expired:?}");

    repo.redeem_key("k1".into(), KeyPurpose::Activate, Utc::now(), set_password("h")).await.unwrap();
    let used = repo.redeem_key("k1".into(), KeyPurpose::Activate, Utc::now(), set_password("h2")).await;
    assert!(matches!(used, Err(RedeemError::Invalid)), "{used:?}");
}

#[tokio::test]
async fn parallel_redemptions_of_one_key_let_exactly_one_through() {
    let (_db, pool) = TestDatabase::create().unwrap();
    let repo = PgUserRepository::new(pool);
    repo.create_provisional(&email("goro@example.jp"), key("race")).await.unwrap();

    let attempts = (0..4).map(|i| {
        let repo = repo.clone();
        tokio::spawn(async move {
            repo.redeem_key("race".into(), KeyPurpose::Activate, Utc::now(), set_password(&format!("h{i}"))).await
        })
    });
    let results = futures_join(attempts).await;

    assert_eq!(results.iter().filter(|r| r.is_ok()).count(), 1);
}

async fn futures_join<T>(handles: impl Iterator<Item = tokio::task::JoinHandle<T>>) -> Vec<T> {
    let mut out = Vec::new();
    for handle in handles.collect::<Vec<_>>() {
        out.push(handle.await.unwrap());
    }
    out
}

#[tokio::test]
async fn twenty_parallel_wrong_passwords_lock_the_account_and_lose_no_count() {
    let (_db, pool) = TestDatabase::create().unwrap();
    let repo = PgUserRepository::new(pool);
    let id = repo.create_provisional(&email("rokuro@example.jp"), key("g")).await.unwrap();
    let now = Utc::now();

    let attempts = (0..20).map(|_| {
        let repo = repo.clone();
        tokio::spawn(async move { repo.record_password_check(id, false, now).await.unwrap() })
    });
    let results = futures_join(attempts).await;

    let locked = results.iter().filter(|r| matches!(r, LoginAttempt::Locked { .. })).count();
    assert_eq!(locked, 11, "the 10th attempt locks; the 10 after it find the lock: {results:?}");
    let account = repo.credentials_by_email(&email("ROKURO@example.jp")).await.unwrap().unwrap();
    assert_eq!(account.failed_login_count, 10);
    assert!(account.banned_until.is_some_and(|until| until > now));
    let right_password = repo.record_password_check(id, true, now).await.unwrap();
    assert!(matches!(right_password, LoginAttempt::Locked { .. }), "{right_password:?}");
}

#[tokio::test]
async fn a_right_password_clears_earlier_failures() {
    let (_db, pool) = TestDatabase::create().unwrap();
    let repo = PgUserRepository::new(pool);
    let id = repo.create_provisional(&email("nanao@example.jp"), key("n")).await.unwrap();
    let now = Utc::now();
    for _ in 0..3 {
        repo.record_password_check(id, false, now).await.unwrap();
    }

    assert_eq!(repo.record_password_check(id, true, now).await.unwrap(), LoginAttempt::Succeeded);
    assert_eq!(repo.credentials(id).await.unwrap().failed_login_count, 0);
}

#[tokio::test]
async fn a_corrupt_failure_count_is_an_error_not_a_fresh_start() {
    let (db, pool) = TestDatabase::create().unwrap();
    let repo = PgUserRepository::new(pool);
    let id = repo.create_provisional(&email("hachi@example.jp"), key("c")).await.unwrap();
    execute(&db.url, "ALTER TABLE users DROP CONSTRAINT users_failed_login_count_check");
    execute(&db.url, &format!("UPDATE users SET failed_login_count = -5 WHERE id = {}", id.0));

    assert!(repo.credentials(id).await.is_err());
    assert!(repo.record_password_check(id, false, Utc::now()).await.is_err());
}

#[tokio::test]
async fn a_key_is_checked_without_being_used() {
    let (_db, pool) = TestDatabase::create().unwrap();
    let repo = PgUserRepository::new(pool);
    repo.create_provisional(&email("kuro@example.jp"), key("live")).await.unwrap();
    let now = Utc::now();

    repo.check_key("live".into(), KeyPurpose::Activate, now).await.unwrap();
    repo.check_key("live".into(), KeyPurpose::Activate, now).await.unwrap();
    assert!(matches!(repo.check_key("made-up".into(), KeyPurpose::Activate, now).await, Err(RedeemError::Invalid)));
    assert!(matches!(repo.check_key("live".into(), KeyPurpose::ResetPassword, now).await, Err(RedeemError::Invalid)));
    let later = now + Duration::hours(25);
    assert!(matches!(repo.check_key("live".into(), KeyPurpose::Activate, later).await, Err(RedeemError::Expired)));
}

#[tokio::test]
async fn credentials_tell_whether_the_account_holds_an_administrator_grant() {
    let (db, pool) = TestDatabase::create().unwrap();
    let repo = PgUserRepository::new(pool);
    let id = repo.create_provisional(&email("kanri@example.jp"), key("adm")).await.unwrap();
    assert!(!repo.credentials(id).await.unwrap().is_administrator);

    execute(&db.url, &format!("INSERT INTO administrators (user_id) VALUES ({})", id.0));

    assert!(repo.credentials(id).await.unwrap().is_administrator);
}

fn execute(url: &str, sql: &str) {
    use diesel::{Connection, RunQueryDsl};
    let mut conn = diesel::PgConnection::establish(url).unwrap();
    diesel::sql_query(sql).execute(&mut conn).unwrap();
}

fn count(url: &str, sql: &str) -> i64 {
    use diesel::{Connection, RunQueryDsl};
    #[derive(diesel::QueryableByName)]
    struct Count {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        count: i64,
    }
    let mut conn = diesel::PgConnection::establish(url).unwrap();
    diesel::sql_query(sql).get_result::<Count>(&mut conn).unwrap().count
}
