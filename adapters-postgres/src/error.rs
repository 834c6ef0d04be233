use diesel::result::{DatabaseErrorKind, Error as DieselError};
use ports::RepoError;

/// Turns diesel errors into port errors. A unique violation names its
/// constraint so that callers can tell which rule refused the write.
pub(crate) fn map_diesel(error: DieselError) -> RepoError {
    match error {
        DieselError::NotFound => RepoError::NotFound,
        DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, info) => {
            RepoError::Conflict(info.constraint_name().unwrap_or("unique").to_string())
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
