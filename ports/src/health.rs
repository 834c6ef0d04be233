//! What `/readyz` asks before a load balancer sends traffic here.

/// Whether the services a request needs answer.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait Readiness: Send + Sync {
    /// MUST answer `true` only when the database accepts a query now, and
    /// `false` (never an error, never a panic) otherwise. Read-only: repeating
    /// it changes nothing.
    async fn is_ready(&self) -> bool;
}
