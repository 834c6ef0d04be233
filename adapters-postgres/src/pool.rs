use std::time::Duration;

use diesel::pg::PgConnection;
use diesel::r2d2::{ConnectionManager, Pool};
use diesel::{sql_query, RunQueryDsl};
use diesel_migrations::{embed_migrations, EmbeddedMigrations, MigrationHarness};

pub type PgPool = Pool<ConnectionManager<PgConnection>>;

/// Every migration under the workspace's `migrations/`, compiled in.
pub const MIGRATIONS: EmbeddedMigrations = embed_migrations!("../migrations");

#[derive(Debug, thiserror::Error)]
pub enum PoolError {
    #[error("could not connect to PostgreSQL: {0}")]
    Connect(#[from] diesel::r2d2::PoolError),
    #[error("migration failed: {0}")]
    Migrate(String),
}

/// Builds the pool once at start-up. Connections are not pinged on checkout:
/// that doubled the round trips of every small read. A connection that broke
/// (a restarted database) fails its query once, is marked broken by diesel and
/// dropped when it returns to the pool, and the next checkout opens a new one.
pub fn connect(database_url: &str, max_size: u32) -> Result<PgPool, PoolError> {
    let manager = ConnectionManager::<PgConnection>::new(database_url);
    // No idle minimum: connections open on demand and stay until idle, and the
    // pool never reconnects in the background (which also let test processes
    // exit while a pool thread was inside libpq).
    Ok(Pool::builder()
        .max_size(max_size)
        .min_idle(Some(0))
        .connection_timeout(Duration::from_secs(5))
        .test_on_check_out(false)
        .build(manager)?)
}

/// Applies pending migrations; returns how many ran.
pub fn migrate(pool: &PgPool) -> Result<usize, PoolError> {
    let mut conn = pool.get()?;
    conn.run_pending_migrations(MIGRATIONS).map(|applied| applied.len()).map_err(|e| PoolError::Migrate(e.to_string()))
}

/// Readiness probe: a round trip to the database.
pub fn ping(pool: &PgPool) -> bool {
    pool.get().map(|mut conn| sql_query("SELECT 1").execute(&mut conn).is_ok()).unwrap_or(false)
}

/// `ports::health::Readiness` over the pool: `ping` on the blocking pool.
#[derive(Clone)]
pub struct PgReadiness {
    pool: PgPool,
}

impl PgReadiness {
    pub fn new(pool: PgPool) -> Self {
        Self { pool }
    }
}

#[async_trait::async_trait]
impl ports::health::Readiness for PgReadiness {
    async fn is_ready(&self) -> bool {
        let pool = self.pool.clone();
        tokio::task::spawn_blocking(move || ping(&pool)).await.unwrap_or(false)
    }
}
