//! Checkout reads, supporter accounts and sales: what placing a support and
//! applying a provider's report write.

use chrono::{DateTime, Utc};
use domain::account::Email;
use domain::ids::{ProjectId, ReturnId, SaleId, UserId};

use super::{Checkout, GuestLookup, NewSale, PaymentReport, PlaceError, Placed, Recorded, SaleRecord};
use crate::payments::gateway::PaymentId;
use crate::RepoError;

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait SaleStore: Send + Sync {
    /// The project and return as a support needs them, with the stock left
    /// and whether the project is still open today (Tokyo). MUST return
    /// `None` when either is unknown, not public, hidden, or the return is
    /// not the project's.
    async fn checkout(&self, project: ProjectId, ret: ReturnId) -> Result<Option<Checkout>, RepoError>;

    /// Who holds `email` (case-insensitive): nobody, a guest, or a member.
    async fn lookup_guest(&self, email: &Email) -> Result<GuestLookup, RepoError>;

    /// Makes a guest account (status guest, the seed's flag 200) for an
    /// address nobody holds; a concurrent creation of the same address
    /// MUST return that account. MUST return `RepoError::Conflict` when a
    /// member holds the address.
    async fn create_guest(&self, email: &Email) -> Result<UserId, RepoError>;

    /// In ONE transaction: the sale (status pending) with its display name,
    /// comment, additional data and address, taking the return's stock. A
    /// repeat of (user, idempotency key) MUST write nothing and return the
    /// sale it made (`Placed::Existing`). Oversold stock MUST be
    /// `PlaceError::Blocked(SoldOut | NotEnoughLeft)`, as MUST a transfer
    /// beyond the hold rules (`transfer_awaited`, `transfer_share_taken`);
    /// a saved address that is not the supporter's MUST be `NotFound`.
    async fn place(&self, sale: NewSale) -> Result<Placed, PlaceError>;

    /// The sale, `None` when no sale has that id.
    async fn sale(&self, id: SaleId) -> Result<Option<SaleRecord>, RepoError>;

    /// The sale whose provider payment is `payment`; `None` when none is.
    async fn sale_by_payment(&self, payment: &PaymentId) -> Result<Option<SaleRecord>, RepoError>;

    /// The sale `user` placed with idempotency key `key`; `None` when that
    /// key was never used by that user.
    async fn sale_by_key(&self, user: UserId, key: &str) -> Result<Option<SaleRecord>, RepoError>;

    /// Applies a provider report under the sale's row lock: the status MUST
    /// move only as `SaleStatus::after_provider_report` allows (a stale or
    /// repeated report changes nothing and answers `previous: None`); the
    /// payment id and the card are set once; the remaining amount and
    /// instructions are replaced when given. A cancelled sale that is paid
    /// after all takes its lots again or, with no stock left, stays
    /// cancelled with `refund_required`. `paid_at` and the refund flag
    /// (1 = refundable) are set when the sale becomes succeeded. MUST return
    /// `RepoError::NotFound` when no sale has `sale`.
    async fn record_payment(
        &self,
        sale: SaleId,
        report: PaymentReport,
        now: DateTime<Utc>,
    ) -> Result<Recorded, RepoError>;
}
