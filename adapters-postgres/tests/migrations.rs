#![allow(clippy::unwrap_used, clippy::expect_used)]
use adapters_postgres::testing::TestDatabase;
use diesel::{sql_query, QueryableByName, RunQueryDsl};
use diesel_migrations::{EmbeddedMigrations, MigrationHarness};

const MIGRATIONS: EmbeddedMigrations = diesel_migrations::embed_migrations!("../migrations");

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    count: i64,
}

#[test]
fn every_migration_reverts_to_an_empty_schema_and_applies_again() {
    let (_db, pool) = TestDatabase::create().unwrap();
    let mut conn = pool.get().unwrap();

    let reverted = conn.revert_all_migrations(MIGRATIONS).unwrap().len();
    assert!(reverted > 0);
    let left: Count = sql_query(
        "SELECT count(*) AS count FROM information_schema.tables \
         WHERE table_schema = 'public' AND table_name <> '__diesel_schema_migrations'",
    )
    .get_result(&mut conn)
    .unwrap();
    assert_eq!(left.count, 0, "down.sql files left tables behind");

    let applied = conn.run_pending_migrations(MIGRATIONS).unwrap().len();
    assert_eq!(applied, reverted);
}
