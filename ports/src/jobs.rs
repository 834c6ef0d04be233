//! The durable job queue: work that must survive a restart (mail today;
//! webhooks, reconciliation and bulk work later) is written to it and run by
//! any app-server process, once per lease, with retries.

use chrono::{DateTime, Duration, Utc};
use serde_json::Value;

use crate::RepoError;

/// Which try of which job a worker holds: finishing a job names the try, so a
/// worker whose lease ran out (and whose job another worker took) cannot
/// overwrite the newer try's outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JobTicket {
    pub id: i64,
    /// The try this worker started (`ClaimedJob::attempts` at claim time).
    pub attempt: u32,
}

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

impl ClaimedJob {
    /// What finishing this try names.
    pub const fn ticket(&self) -> JobTicket {
        JobTicket { id: self.id, attempt: self.attempts }
    }
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

    /// Marks the ticket's job succeeded and replaces its payload by
    /// `kept_payload` (what may stay on record once the work is done). MUST
    /// return `RepoError::Conflict` when the ticket no longer holds the job
    /// (finished already, or claimed again after the lease ran out), changing
    /// nothing.
    async fn succeed(&self, ticket: JobTicket, kept_payload: Value, now: DateTime<Utc>) -> Result<(), RepoError>;

    /// Records a failed try: the ticket's job is queued again from
    /// `retry_at`, or failed for good when `retry_at` is `None`. `error` is
    /// for operators. MUST return `RepoError::Conflict` when the ticket no
    /// longer holds the job, changing nothing.
    async fn fail(
        &self,
        ticket: JobTicket,
        error: &str,
        retry_at: Option<DateTime<Utc>>,
        now: DateTime<Utc>,
    ) -> Result<(), RepoError>;
}
