use async_trait::async_trait;
use chrono::{DateTime, Utc};
use diesel::sql_types::{Integer, Text, Timestamptz};
use diesel::{sql_query, QueryableByName, RunQueryDsl};
use ports::rate_limit::RateLimiter;
use ports::RepoError;

use crate::error::{map_diesel, with_conn};
use crate::sql_rules::corrupt;
use crate::PgPool;

/// Counters in `rate_limit_buckets`; one upsert counts and reads atomically.
#[derive(Clone)]
pub struct PgRateLimiter {
    pool: PgPool,
}

impl PgRateLimiter {
    pub fn new(pool: PgPool) -> Self {
        Self { pool }
    }
}

impl PgRateLimiter {
    /// Deletes windows that started before `cutoff`; returns how many.
    pub async fn purge_before(&self, cutoff: DateTime<Utc>) -> Result<usize, RepoError> {
        with_conn(&self.pool, move |conn| {
            sql_query("DELETE FROM rate_limit_buckets WHERE window_start < $1")
                .bind::<Timestamptz, _>(cutoff)
                .execute(conn)
                .map_err(map_diesel)
        })
        .await
    }
}

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = Integer)]
    count: i32,
}

#[async_trait]
impl RateLimiter for PgRateLimiter {
    async fn hit(&self, key: &str, window_start: DateTime<Utc>) -> Result<u32, RepoError> {
        let key = key.to_string();
        with_conn(&self.pool, move |conn| {
            let row: Count = sql_query(
                "INSERT INTO rate_limit_buckets (key, window_start) VALUES ($1, $2) \
                 ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limit_buckets.count + 1 \
                 RETURNING count",
            )
            .bind::<Text, _>(&key)
            .bind::<Timestamptz, _>(window_start)
            .get_result(conn)
            .map_err(map_diesel)?;
            u32::try_from(row.count).map_err(|_| corrupt("rate_limit_buckets.count", row.count))
        })
        .await
    }
}
