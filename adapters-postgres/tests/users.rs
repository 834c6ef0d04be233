use adapters_postgres::testing::TestDatabase;
use adapters_postgres::PgUserRepository;
use chrono::{Duration, Utc};
use domain::account::{AccountStatus, Email};
use ports::accounts::{KeyPurpose, NewKey, UserId, UserRepository};
use ports::RepoError;

fn key(hash: &str) -> NewKey {
    NewKey { purpose: KeyPurpose::Activate, key_hash: hash.to_string(), expires_at: Utc::now() + Duration::hours(24) }
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
