//! Outbound ports (traits the application needs from the world) and the use
//! cases that orchestrate them. Use cases are generic over their ports so that
//! unit tests run them against mockall mocks and `app-server` wires the real
//! adapters.

pub mod accounts;
pub mod catalog;
pub mod clock;
pub mod html;
pub mod jobs;
pub mod mailer;
pub mod media;
pub mod rate_limit;
pub mod secrets;

/// Errors every repository may answer, whatever the storage.
#[derive(Debug, thiserror::Error)]
pub enum RepoError {
    #[error("record not found")]
    NotFound,
    /// A uniqueness rule refused the write (for example two accounts for one e-mail).
    #[error("conflicting record: {0}")]
    Conflict(String),
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}
