//! PostgreSQL adapters: the connection pool, embedded migrations and the
//! repository implementations. Row types never leave this crate.

mod catalog;
pub mod demo;
mod error;
mod jobs;
mod pool;
mod profiles;
mod rate_limit;
mod schema;
mod sql_rules;
mod users;

#[cfg(feature = "testing")]
pub mod testing;

pub use catalog::PgCatalogRepository;
pub use jobs::PgJobQueue;
pub use pool::{connect, migrate, ping, PgPool, PoolError};
pub use profiles::PgProfileRepository;
pub use rate_limit::PgRateLimiter;
pub use users::PgUserRepository;
