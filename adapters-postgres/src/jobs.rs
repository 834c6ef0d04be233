//! The durable job queue on `background_jobs`: claimed with
//! `FOR UPDATE SKIP LOCKED`, so any number of app-server processes share it
//! and one job runs in one place at a time.

use async_trait::async_trait;
use chrono::{DateTime, Duration, Utc};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Integer, Nullable, Text, Timestamptz};
use ports::jobs::{ClaimedJob, JobQueue, JobTicket};
use ports::RepoError;
use serde_json::Value;

use crate::error::{map_diesel, with_conn};
use crate::rows::IdRow;
use crate::PgPool;

#[derive(Clone)]
pub struct PgJobQueue {
    pool: PgPool,
}

impl PgJobQueue {
    pub fn new(pool: PgPool) -> Self {
        Self { pool }
    }

    /// Deletes jobs of `kind` that finished (succeeded or failed for good)
    /// before `before`, and says how many: a mail a day per member would
    /// otherwise grow the table for ever. Running and queued jobs stay.
    pub async fn purge_finished(&self, kind: &str, before: DateTime<Utc>) -> Result<usize, RepoError> {
        let kind = kind.to_string();
        with_conn(&self.pool, move |conn| {
            diesel::sql_query(
                "DELETE FROM background_jobs WHERE kind = $1 AND status IN ('succeeded', 'failed') \
                   AND finished_at < $2",
            )
            .bind::<Text, _>(kind)
            .bind::<Timestamptz, _>(before)
            .execute(conn)
            .map_err(map_diesel)
        })
        .await
    }
}

#[derive(QueryableByName)]
struct ClaimedRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = Text)]
    kind: String,
    /// The JSONB payload as text (parsed here, so diesel needs no JSON feature).
    #[diesel(sql_type = Text)]
    payload: String,
    #[diesel(sql_type = Integer)]
    attempts: i32,
    #[diesel(sql_type = Integer)]
    max_attempts: i32,
}

/// Queues a mail ([`ports::mailer::queued_payload`]) on `conn`, inside the
/// caller's transaction: the mail and the fact that it was sent commit
/// together, so a compare-and-set on that fact sends it exactly once.
pub(crate) fn queue_mail_in(conn: &mut PgConnection, payload: &Value) -> QueryResult<()> {
    diesel::sql_query("INSERT INTO background_jobs (kind, payload, max_attempts) VALUES ($1, $2::jsonb, $3)")
        .bind::<Text, _>(ports::mailer::SEND_MAIL)
        .bind::<Text, _>(payload.to_string())
        .bind::<Integer, _>(i32::try_from(ports::mailer::MAIL_MAX_ATTEMPTS).unwrap_or(i32::MAX))
        .execute(conn)
        .map(|_| ())
}

fn count(value: i32, column: &str) -> Result<u32, RepoError> {
    u32::try_from(value)
        .map_err(|_| RepoError::Unexpected(anyhow::anyhow!("background_jobs.{column} {value} is negative")))
}

fn attempt(ticket: JobTicket) -> i32 {
    i32::try_from(ticket.attempt).unwrap_or(i32::MAX)
}

/// A finishing write that touched no row: the ticket lost its job.
fn held(updated: usize) -> Result<(), RepoError> {
    if updated == 0 {
        Err(RepoError::Conflict("background_jobs_lease_lost".into()))
    } else {
        Ok(())
    }
}

#[async_trait]
impl JobQueue for PgJobQueue {
    async fn enqueue(&self, kind: &str, payload: Value, max_attempts: u32) -> Result<i64, RepoError> {
        let kind = kind.to_string();
        let max_attempts = i32::try_from(max_attempts).unwrap_or(i32::MAX);
        with_conn(&self.pool, move |conn| {
            diesel::sql_query(
                "INSERT INTO background_jobs (kind, payload, max_attempts) VALUES ($1, $2::jsonb, $3) RETURNING id",
            )
            .bind::<Text, _>(kind)
            .bind::<Text, _>(payload.to_string())
            .bind::<Integer, _>(max_attempts)
            .get_result::<IdRow>(conn)
            .map(|row| row.id)
            .map_err(map_diesel)
        })
        .await
    }

    async fn claim(
        &self,
        kind: &str,
        worker: &str,
        now: DateTime<Utc>,
        lease: Duration,
    ) -> Result<Option<ClaimedJob>, RepoError> {
        let (kind, worker) = (kind.to_string(), worker.to_string());
        let lease_expired_before = now - lease;
        let row = with_conn(&self.pool, move |conn| {
            // A running job whose lease ran out belongs to a dead worker: it is due again.
            diesel::sql_query(
                "UPDATE background_jobs SET status = 'running', attempts = attempts + 1, locked_at = $2, \
                     locked_by = $3, updated_at = $2 \
                 WHERE id = (SELECT id FROM background_jobs \
                     WHERE kind = $1 AND ((status = 'queued' AND run_after <= $2) \
                         OR (status = 'running' AND locked_at < $4)) \
                     ORDER BY run_after, id FOR UPDATE SKIP LOCKED LIMIT 1) \
                 RETURNING id, kind, payload::text AS payload, attempts, max_attempts",
            )
            .bind::<Text, _>(kind)
            .bind::<Timestamptz, _>(now)
            .bind::<Text, _>(worker)
            .bind::<Timestamptz, _>(lease_expired_before)
            .get_result::<ClaimedRow>(conn)
            .optional()
            .map_err(map_diesel)
        })
        .await?;
        row.map(|row| {
            Ok(ClaimedJob {
                id: row.id,
                kind: row.kind,
                payload: serde_json::from_str(&row.payload).map_err(|e| RepoError::Unexpected(e.into()))?,
                attempts: count(row.attempts, "attempts")?,
                max_attempts: count(row.max_attempts, "max_attempts")?,
            })
        })
        .transpose()
    }

    async fn succeed(&self, ticket: JobTicket, kept_payload: Value, now: DateTime<Utc>) -> Result<(), RepoError> {
        with_conn(&self.pool, move |conn| {
            let updated = diesel::sql_query(
                "UPDATE background_jobs SET status = 'succeeded', payload = $2::jsonb, finished_at = $3, updated_at = $3, \
                     last_error = NULL WHERE id = $1 AND attempts = $4 AND status = 'running'",
            )
            .bind::<BigInt, _>(ticket.id)
            .bind::<Text, _>(kept_payload.to_string())
            .bind::<Timestamptz, _>(now)
            .bind::<Integer, _>(attempt(ticket))
            .execute(conn)
            .map_err(map_diesel)?;
            held(updated)
        })
        .await
    }

    async fn fail(
        &self,
        ticket: JobTicket,
        error: &str,
        retry_at: Option<DateTime<Utc>>,
        now: DateTime<Utc>,
    ) -> Result<(), RepoError> {
        let error: String = error.chars().take(2000).collect();
        with_conn(&self.pool, move |conn| {
            let updated = diesel::sql_query(
                "UPDATE background_jobs SET last_error = $2, updated_at = $4, locked_at = NULL, locked_by = NULL, \
                     status = CASE WHEN $3::timestamptz IS NULL THEN 'failed' ELSE 'queued' END, \
                     run_after = COALESCE($3, run_after), \
                     finished_at = CASE WHEN $3::timestamptz IS NULL THEN $4 END \
                 WHERE id = $1 AND attempts = $5 AND status = 'running'",
            )
            .bind::<BigInt, _>(ticket.id)
            .bind::<Text, _>(error)
            .bind::<Nullable<Timestamptz>, _>(retry_at)
            .bind::<Timestamptz, _>(now)
            .bind::<Integer, _>(attempt(ticket))
            .execute(conn)
            .map_err(map_diesel)?;
            held(updated)
        })
        .await
    }
}
