//! `app-server seed-demo` is idempotent.

use adapters_postgres::testing::TestDatabase;
use app_server::config::Settings;

#[tokio::test]
async fn seeding_the_demo_twice_leaves_the_same_rows() {
    let (db, _pool) = TestDatabase::create().unwrap();
    let mut settings = Settings::from_env().unwrap();
    settings.database_url = db.url.clone();
    settings.media_dir = std::env::temp_dir().join(format!("cf-media-{}", uuid::Uuid::new_v4().simple()));

    let first = app_server::demo::seed(&settings).await.unwrap();
    let second = app_server::demo::seed(&settings).await.unwrap();

    assert_eq!(first, second);
    let count = |table: &str| first.0.iter().find(|(t, _)| t == table).map(|(_, c)| *c).unwrap();
    assert!(count("projects") >= 6);
    assert!(count("sales") > 20);
    assert_eq!(count("administrators"), 1);
    assert!(settings.media_dir.join("demo/maebashi-main.svg").is_file());
}
