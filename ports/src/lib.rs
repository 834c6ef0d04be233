//! Outbound ports (traits the application needs from the world) and the use
//! cases that orchestrate them. Use cases are generic over their ports so that
//! unit tests run them against mockall mocks and `app-server` wires the real
//! adapters.

pub mod accounts;
pub mod admin;
pub mod campaign;
pub mod catalog;
pub mod clock;
pub mod first_screen;
pub mod following;
pub mod health;
pub mod html;
pub mod jobs;
pub mod mailer;
pub mod media;
pub mod payments;
pub mod rate_limit;
pub mod receipts;
pub mod secrets;

/// Errors every repository may answer, whatever the storage.
#[derive(Debug, thiserror::Error)]
pub enum RepoError {
    #[error("record not found")]
    NotFound,
    /// A uniqueness rule refused the write (for example two accounts for one
    /// e-mail); carries the constraint's name.
    #[error("conflicting record: {0}")]
    Conflict(String),
    /// A CHECK or foreign-key rule of the storage refused the write; the
    /// name tells the HTTP layer which field's message to show.
    #[error(transparent)]
    Constraint(ConstraintViolation),
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}

impl RepoError {
    /// The storage rule that refused the write, if that is what happened
    /// (a `Conflict` is a violated unique constraint).
    pub fn violation(&self) -> Option<ConstraintViolation> {
        match self {
            Self::Conflict(name) => Some(ConstraintViolation { kind: ConstraintKind::Unique, name: name.clone() }),
            Self::Constraint(v) => Some(v.clone()),
            Self::NotFound | Self::Unexpected(_) => None,
        }
    }
}

/// Which kind of storage rule refused a write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConstraintKind {
    Unique,
    Check,
    ForeignKey,
}

/// A named storage rule that refused a write. The names are the schema's
/// constraint names (`addresses_tel_number_check`); adapters-http maps them
/// to the field's message in one table, so a violation is a 4xx, never a 500.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind:?} constraint {name} refused the write")]
pub struct ConstraintViolation {
    pub kind: ConstraintKind,
    pub name: String,
}
