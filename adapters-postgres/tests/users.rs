#![allow(clippy::unwrap_used, clippy::expect_used)]
use adapters_postgres::testing::TestDatabase;
use adapters_postgres::PgUserRepository;
use chrono::{Duration, Utc};
use domain::account::{AccountStatus, Email};
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
async fn the_login_guard_is_stored_and_read_back() {
    let (_db, pool) = TestDatabase::create().unwrap();
    let repo = PgUserRepository::new(pool);
    let id = repo.create_provisional(&email("rokuro@example.jp"), key("g")).await.unwrap();
    let until = Utc::now() + Duration::minutes(30);

    repo.save_login_guard(id, 10, Some(until)).await.unwrap();

    let account = repo.credentials_by_email(&email("ROKURO@example.jp")).await.unwrap().unwrap();
    assert_eq!(account.failed_login_count, 10);
    assert_eq!(account.banned_until.map(|t| t.timestamp_micros()), Some(until.timestamp_micros()));
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
