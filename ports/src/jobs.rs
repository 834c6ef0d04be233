//! The durable job queue: work that must survive a restart (mail today;
//! webhooks, reconciliation and bulk work later) is written to it and run by
//! any app-server process, once per lease, with retries.

use chrono::{DateTime, Duration, Utc};
use serde_json::Value;

use crate::RepoError;

/// A job a worker holds until it finishes or its lease runs out.
#[derive(Debug, Clone, PartialEq)]
pub struct ClaimedJob {
    pub id: i64,
    pub kind: String,
    pub payload: Value,
    /// Tries started so far, this one included.
    pub attempts: u32,
    pub max_attempts: u32,
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait JobQueue: Send + Sync {
    /// Stores a job of `kind` to run as soon as a worker is free. MUST be
    /// durable when it returns (committed), and returns the job's id. Not
    /// idempotent: each call adds a job.
    async fn enqueue(&self, kind: &str, payload: Value, max_attempts: u32) -> Result<i64, RepoError>;

    /// Claims the oldest due job of `kind` for `lease`: it is marked running
    /// and its try counted, and no other worker gets it until `now + lease`
    /// (a job whose holder died becomes claimable again then). MUST hand one
    /// job to at most one caller at a time, also across processes. `None`
    /// when nothing is due.
    async fn claim(
        &self,
        kind: &str,
        worker: &str,
        now: DateTime<Utc>,
        lease: Duration,
    ) -> Result<Option<ClaimedJob>, RepoError>;

    /// Marks job `id` succeeded and replaces its payload by `kept_payload`
    /// (what may stay on record once the work is done). MUST return
    /// `RepoError::NotFound` when no job has `id`; idempotent.
    async fn succeed(&self, id: i64, kept_payload: Value, now: DateTime<Utc>) -> Result<(), RepoError>;

    /// Records a failed try of job `id`: queued again from `retry_at`, or
    /// failed for good when `retry_at` is `None`. `error` is for operators.
    /// MUST return `RepoError::NotFound` when no job has `id`; repeating it
    /// with the same arguments leaves the same state.
    async fn fail(
        &self,
        id: i64,
        error: &str,
        retry_at: Option<DateTime<Utc>>,
        now: DateTime<Utc>,
    ) -> Result<(), RepoError>;
}
