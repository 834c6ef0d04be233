//! What the sweeps and the reconcile report read: sales left unsettled,
//! bank transfers past their deadline, and the provider payments of
//! cancelled transfers still open.

use chrono::{DateTime, NaiveDate, Utc};
use domain::ids::SaleId;

use super::SaleRecord;
use crate::RepoError;

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait SweepStore: Send + Sync {
    /// Sales not final (pending, requires_action, processing,
    /// awaiting_bank_transfer) last changed before `changed_before`, oldest
    /// first, at most `limit`: the reconciler asks the provider about each.
    /// Empty when there are none.
    async fn unsettled(&self, changed_before: DateTime<Utc>, limit: i64) -> Result<Vec<SaleRecord>, RepoError>;

    /// Sales that have a payment at the provider, by id, the first `limit`
    /// with an id above `after`: the reconcile report reads them page by
    /// page. Empty past the last one.
    async fn sales_with_payment(&self, after: SaleId, limit: i64) -> Result<Vec<SaleRecord>, RepoError>;

    /// Bank-transfer and konbini sales still unpaid whose deadline is before
    /// `today`, oldest deadline first, at most `limit`.
    async fn overdue_transfers(&self, today: NaiveDate, limit: i64) -> Result<Vec<SaleRecord>, RepoError>;

    /// Bank-transfer sales cancelled at their deadline whose payment at the
    /// provider is still open (not closed by [`Self::close_transfer`], not
    /// flagged for refund), last changed before `changed_before`, least
    /// recently changed first: the reconciler asks the provider whether money
    /// arrived late (recording its answer changes the sale, so the next pass
    /// takes the next ones).
    async fn late_transfers(&self, changed_before: DateTime<Utc>, limit: i64) -> Result<Vec<SaleRecord>, RepoError>;

    /// The same cancelled transfers with an open payment, whose deadline is
    /// before `deadline_before`, oldest deadline first: the grace sweep closes
    /// their payments at the provider.
    async fn transfers_to_close(&self, deadline_before: NaiveDate, limit: i64) -> Result<Vec<SaleRecord>, RepoError>;

    /// Records that the provider's payment of a cancelled transfer was closed,
    /// so the sale leaves both lists above. With `partly_paid` (money arrived
    /// for part of it) a sale still cancelled MUST be flagged
    /// `refund_required`, as a late payment with no stock left is; a sale
    /// that was paid meanwhile keeps its status and is never flagged. MUST
    /// return `RepoError::NotFound` when no sale has `sale`.
    async fn close_transfer(
        &self,
        sale: SaleId,
        partly_paid: bool,
        now: DateTime<Utc>,
    ) -> Result<SaleRecord, RepoError>;
}
