//! A fresh, migrated database per test, dropped afterwards. Used by this
//! crate's and `app-server`'s integration tests.

use diesel::pg::PgConnection;
use diesel::{sql_query, Connection, RunQueryDsl};

use crate::{connect, migrate, PgPool};

/// Where to create test databases: `DATABASE_ADMIN_URL`, else `DATABASE_URL`
/// with its database swapped for `postgres`, else the local default server.
pub fn admin_url() -> String {
    if let Ok(url) = std::env::var("DATABASE_ADMIN_URL") {
        return url;
    }
    match std::env::var("DATABASE_URL") {
        Ok(url) => match url.rsplit_once('/') {
            Some((server, _db)) => format!("{server}/postgres"),
            None => url,
        },
        Err(_) => "postgres://postgres@127.0.0.1:5432/postgres".to_string(),
    }
}

pub struct TestDatabase {
    pub name: String,
    pub url: String,
    admin_url: String,
}

impl TestDatabase {
    /// Creates `test_<uuid>` and runs every migration in it.
    pub fn create() -> anyhow::Result<(Self, PgPool)> {
        let admin_url = admin_url();
        let name = format!("test_{}", uuid::Uuid::new_v4().simple());
        let mut admin = PgConnection::establish(&admin_url)?;
        sql_query(format!("CREATE DATABASE {name}")).execute(&mut admin)?;
        let server = admin_url.rsplit_once('/').map(|(server, _)| server).unwrap_or(&admin_url);
        let url = format!("{server}/{name}");
        let pool = connect(&url, 4)?;
        migrate(&pool)?;
        Ok((Self { name, url, admin_url }, pool))
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        if let Ok(mut admin) = PgConnection::establish(&self.admin_url) {
            let _ = sql_query(format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name)).execute(&mut admin);
        }
    }
}

/// Runs one statement of a test's fixture on the database at `url`; a failure fails the test with the statement.
pub fn exec(url: &str, sql: &str) {
    let done = PgConnection::establish(url)
        .map_err(anyhow::Error::from)
        .and_then(|mut conn| sql_query(sql).execute(&mut conn).map_err(anyhow::Error::from));
    if let Err(e) = done {
        panic!("{e}: {sql}");
    }
}
