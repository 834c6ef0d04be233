//! Monthly supports, mirrored from the provider's subscriptions: one row per
//! support, one paid sale per paid invoice.

use chrono::{DateTime, NaiveDate, Utc};
use domain::ids::{SaleId, UserId};
use domain::money::Yen;

use super::{MonthRecorded, SubscriptionRecord, SubscriptionTally};
use crate::payments::gateway::{
    CustomerId, InvoiceId, PaymentMethodId, ProviderInvoice, ProviderSubscription, SubscriptionId,
};
use crate::RepoError;

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait SubscriptionStore: Send + Sync {
    /// Writes the subscription row of a monthly support (status
    /// `incomplete`) before the provider is asked. MUST write one row per
    /// first sale: a repeat returns the row already written.
    async fn open_subscription(
        &self,
        sale: SaleId,
        customer: &CustomerId,
        card: &PaymentMethodId,
        plan_id: &str,
        amount: Yen,
    ) -> Result<SubscriptionRecord, RepoError>;

    /// The row with our id; `None` when there is none.
    async fn subscription(&self, id: i64) -> Result<Option<SubscriptionRecord>, RepoError>;

    /// The row whose first month is `sale`; `None` for a one-off sale.
    async fn subscription_by_sale(&self, sale: SaleId) -> Result<Option<SubscriptionRecord>, RepoError>;

    /// The row the provider knows as `id`; `None` when it is not ours.
    async fn subscription_by_provider(&self, id: &SubscriptionId) -> Result<Option<SubscriptionRecord>, RepoError>;

    /// Applies the provider's view: its id (set once, never replaced),
    /// status, period end, stop flag and card. A row that ended MUST stay
    /// ended (the provider does not order its events). MUST return
    /// `RepoError::NotFound` when no row has `id`.
    async fn record_subscription(
        &self,
        id: i64,
        state: &ProviderSubscription,
        now: DateTime<Utc>,
    ) -> Result<SubscriptionRecord, RepoError>;

    /// Records a paid invoice of subscription `id` as a month. MUST record
    /// each invoice once: a repeat answers `MonthRecorded::Already`.
    async fn record_month(
        &self,
        id: i64,
        invoice: &ProviderInvoice,
        now: DateTime<Utc>,
    ) -> Result<MonthRecorded, RepoError>;

    /// MUST answer `true` only the first time for this invoice: the failure
    /// mail is due.
    async fn mark_failure_mailed(&self, id: i64, invoice: &InvoiceId) -> Result<bool, RepoError>;

    /// MUST answer `true` only the first time: the end mail is due.
    async fn mark_end_mailed(&self, id: i64) -> Result<bool, RepoError>;

    /// The member's subscriptions (not the ones never started), newest
    /// first; empty when there are none.
    async fn subscriptions_of(&self, user: UserId) -> Result<Vec<SubscriptionRecord>, RepoError>;

    /// Running subscriptions (`sql_rules::subscription_running`), by id
    /// after `after`, at most `limit`: the reconciler's pages.
    async fn running_subscriptions(&self, after: i64, limit: i64) -> Result<Vec<SubscriptionRecord>, RepoError>;

    /// Every subscription the provider knows (all statuses), by id after
    /// `after`, with the months we recorded paid: the reconcile report's pages.
    async fn subscription_tallies(&self, after: i64, limit: i64) -> Result<Vec<SubscriptionTally>, RepoError>;

    /// Running subscriptions not yet stopping whose project ended before
    /// `today`, at most `limit`.
    async fn subscriptions_of_ended_projects(
        &self,
        today: NaiveDate,
        limit: i64,
    ) -> Result<Vec<SubscriptionRecord>, RepoError>;
}
