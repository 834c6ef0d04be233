use diesel::result::{DatabaseErrorKind, Error as DieselError};
use ports::{ConstraintKind, ConstraintViolation, RepoError};

/// Turns diesel errors into port errors. A violated unique, CHECK or foreign
/// key constraint carries its name so that callers (and in the end the HTTP
/// layer) can tell which rule refused the write; the database's own message
/// is only logged, never passed on.
pub(crate) fn map_diesel(error: DieselError) -> RepoError {
    match error {
        DieselError::NotFound => RepoError::NotFound,
        DieselError::DatabaseError(
            db_kind @ (DatabaseErrorKind::UniqueViolation
            | DatabaseErrorKind::CheckViolation
            | DatabaseErrorKind::ForeignKeyViolation),
            info,
        ) => {
            let name = info.constraint_name().unwrap_or_default().to_string();
            tracing::debug!(constraint = %name, detail = %info.message(), "write refused by a constraint");
            let kind = match db_kind {
                DatabaseErrorKind::UniqueViolation => {
                    return RepoError::Conflict(if name.is_empty() { "unique".into() } else { name })
                }
                DatabaseErrorKind::CheckViolation => ConstraintKind::Check,
                _ => ConstraintKind::ForeignKey,
            };
            RepoError::Constraint(ConstraintViolation { kind, name })
        }
        other => RepoError::Unexpected(anyhow::Error::new(other)),
    }
}

/// Blocking diesel work runs on tokio's blocking pool, never on the async workers.
pub(crate) async fn run_blocking<T, F>(work: F) -> Result<T, RepoError>
where
    T: Send + 'static,
    F: FnOnce() -> Result<T, RepoError> + Send + 'static,
{
    let span = tracing::Span::current();
    tokio::task::spawn_blocking(move || span.in_scope(work))
        .await
        .map_err(|join| RepoError::Unexpected(anyhow::Error::new(join)))?
}

/// Runs `work` with a pooled connection on the blocking pool.
pub(crate) async fn with_conn<T, F>(pool: &crate::PgPool, work: F) -> Result<T, RepoError>
where
    T: Send + 'static,
    F: FnOnce(&mut diesel::PgConnection) -> Result<T, RepoError> + Send + 'static,
{
    let pool = pool.clone();
    run_blocking(move || {
        let mut conn = pool.get().map_err(|e| RepoError::Unexpected(e.into()))?;
        work(&mut conn)
    })
    .await
}

/// Fails with `NotFound` when the statement touched no row.
pub(crate) fn expect_row(updated: usize) -> Result<(), RepoError> {
    if updated == 0 {
        Err(RepoError::NotFound)
    } else {
        Ok(())
    }
}

/// A transaction's own refusal (a port error, e.g. `NotFound` or a `Conflict`) beside diesel's errors: the
/// closure of `Connection::transaction` returns it so that a refusal rolls back like a failed statement.
pub(crate) enum Tx {
    Refused(RepoError),
    Db(DieselError),
}

impl From<DieselError> for Tx {
    fn from(error: DieselError) -> Self {
        Self::Db(error)
    }
}

/// A transaction's result as the port states it.
pub(crate) fn settle<T>(result: Result<T, Tx>) -> Result<T, RepoError> {
    result.map_err(|e| match e {
        Tx::Refused(error) => error,
        Tx::Db(error) => map_diesel(error),
    })
}
