//! The provider's webhook events, kept so that each is applied once and a
//! failed one is retried by the reconciler.

use chrono::{DateTime, Utc};

use crate::payments::gateway::PaymentId;
use crate::RepoError;

/// Failed applications of one provider event after which the reconciler
/// stops retrying it (about ten minutes of sweeps); the sales it names are
/// still asked about by the reconciler's own sweep.
pub const MAX_EVENT_ATTEMPTS: i32 = 20;

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait EventStore: Send + Sync {
    /// Records a verified provider event. MUST answer `false` when an event
    /// of that id was applied before (a redelivery), so it is applied once.
    /// An event recorded but not applied yet (its apply failed, or the
    /// process died half way) MUST answer `true` again: a redelivery is
    /// another attempt.
    async fn record_event(
        &self,
        event_id: &str,
        event_type: &str,
        object_id: Option<String>,
        payload: serde_json::Value,
        now: DateTime<Utc>,
    ) -> Result<bool, RepoError>;

    /// Marks an event applied (`error: None`) or counts a failed application
    /// and keeps its reason. MUST return `RepoError::NotFound` for an event
    /// never recorded.
    async fn finish_event(&self, event_id: &str, error: Option<String>, now: DateTime<Utc>) -> Result<(), RepoError>;

    /// Payments named by events received but not yet applied, oldest first,
    /// with fewer than [`MAX_EVENT_ATTEMPTS`] failed attempts each (an event
    /// that keeps failing stays in the table with its last error for an
    /// operator). Empty when every event was applied.
    async fn unapplied_event_payments(&self, limit: i64) -> Result<Vec<(String, PaymentId)>, RepoError>;
}
