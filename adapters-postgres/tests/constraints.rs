//! Writes that the domain would refuse, sent straight to the repository: the
//! schema refuses them too and the port error names the constraint, so the
//! HTTP layer can answer with the field's message.
#![allow(clippy::unwrap_used, clippy::expect_used)]
use adapters_postgres::testing::TestDatabase;
use adapters_postgres::{PgProfileRepository, PgUserRepository};
use chrono::{Duration, Utc};
use domain::account::Email;
use domain::profile::Address;
use ports::accounts::{KeyPurpose, NewKey, ProfileRepository, UserId, UserRepository};
use ports::{ConstraintKind, ConstraintViolation, RepoError};

async fn user(pool: &adapters_postgres::PgPool) -> UserId {
    let key = NewKey {
        purpose: KeyPurpose::Activate,
        key_hash: "constraints".into(),
        expires_at: Utc::now() + Duration::hours(1),
        new_email: None,
    };
    PgUserRepository::new(pool.clone()).create_provisional(&Email::parse("c@example.jp").unwrap(), key).await.unwrap()
}

fn address(tel: &str, city: &str) -> Address {
    Address {
        name: "上毛 太郎".into(),
        tel_number: tel.into(),
        zip: "3710023".into(),
        pref: "群馬県".into(),
        city: city.into(),
        address: "本町1-1".into(),
        building: None,
    }
}

fn check(name: &str) -> ConstraintViolation {
    ConstraintViolation { kind: ConstraintKind::Check, name: name.into() }
}

#[tokio::test]
async fn a_twelve_digit_phone_is_refused_by_the_named_check() {
    let (_db, pool) = TestDatabase::create().unwrap();
    let id = user(&pool).await;

    let result = PgProfileRepository::new(pool).save_primary_address(id, address("090123456789", "前橋市")).await;

    assert!(
        matches!(result, Err(RepoError::Constraint(ref v)) if *v == check("addresses_tel_number_check")),
        "{result:?}"
    );
}

#[tokio::test]
async fn texts_over_their_limit_are_refused_by_named_length_checks() {
    let (_db, pool) = TestDatabase::create().unwrap();
    let id = user(&pool).await;
    let repo = PgProfileRepository::new(pool);

    let city = repo.save_primary_address(id, address("0272000000", &"前".repeat(51))).await;
    assert!(matches!(city, Err(RepoError::Constraint(ref v)) if *v == check("addresses_city_length")), "{city:?}");

    let company = repo.update_corporate(id, "社".repeat(101), None).await;
    assert!(
        matches!(company, Err(RepoError::Constraint(ref v)) if *v == check("users_corporatename_length")),
        "{company:?}"
    );
    repo.update_corporate(id, "社".repeat(100), None).await.unwrap();
}

#[tokio::test]
async fn ten_saves_of_the_address_at_once_all_succeed_and_leave_one_primary_address() {
    let (db, pool) = TestDatabase::create().unwrap();
    let id = user(&pool).await;
    let repo = PgProfileRepository::new(pool);

    let saves = (0..10).map(|i| {
        let repo = repo.clone();
        tokio::spawn(async move { repo.save_primary_address(id, address("0272000000", &format!("前橋市{i}"))).await })
    });
    for save in saves.collect::<Vec<_>>() {
        save.await.unwrap().unwrap();
    }

    use diesel::{Connection, RunQueryDsl};
    #[derive(diesel::QueryableByName)]
    struct Count {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        count: i64,
    }
    let mut conn = diesel::PgConnection::establish(&db.url).unwrap();
    let rows = diesel::sql_query(format!("SELECT count(*) AS count FROM addresses WHERE user_id = {}", id.0))
        .get_result::<Count>(&mut conn)
        .unwrap();
    assert_eq!(rows.count, 1);
}
