//! Monthly support: a return with `interval = 'month'` is backed through the
//! same support call, and starts a provider subscription on one of the
//! member's saved cards. The provider is the source of truth: every paid
//! invoice becomes one sale (unique by invoice id), failures and the end
//! come by webhook or by the reconciler, and each is applied once.

use std::sync::Arc;

use domain::ids::UserId;
use domain::money::Yen;
use domain::payment::IntentStatus;
use domain::time::tokyo_date;

use super::apply::{authenticate_secret, ProviderReports, ReportStores};
use super::gateway::{
    CustomerCards, MonthlyPlan, PaymentEventKind, PaymentGateway, PaymentMethodId, SavedCard, SubscriptionId,
    SubscriptionState,
};
use super::ledger::SubscriptionRecord;
pub use super::mails::StopReason;
use super::outcome::{provider_error, SupportError, SweepReport};
use crate::clock::Clock;
use crate::mailer::Mailer;

/// A monthly support as the member's screens show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DisplayStatus {
    /// Charged every month.
    Active,
    /// A month failed; the provider tries again.
    PastDue,
    /// Stops at the end of the paid period.
    Canceling,
    /// Over: nothing is charged again.
    Ended,
}

impl DisplayStatus {
    pub const ALL: [Self; 4] = [Self::Active, Self::PastDue, Self::Canceling, Self::Ended];

    /// The screens' status (contract `active | past_due | canceling | ended`).
    pub fn of(record: &SubscriptionRecord) -> Self {
        match record.status {
            s if !s.is_running() => Self::Ended,
            _ if record.cancel_at_period_end => Self::Canceling,
            SubscriptionState::PastDue => Self::PastDue,
            _ => Self::Active,
        }
    }

    pub const fn code(self) -> &'static str {
        match self {
            Self::Active => "active",
            Self::PastDue => "past_due",
            Self::Canceling => "canceling",
            Self::Ended => "ended",
        }
    }

    /// Another month will be charged: the member may stop it, and the
    /// period's end is the next charge date (otherwise the last day).
    pub const fn charges_again(self) -> bool {
        matches!(self, Self::Active | Self::PastDue)
    }
}

/// The provider's plan of a return at a monthly amount: ids derived from
/// ours (and the namespace), so that every environment sharing a provider
/// account keeps its own.
pub fn monthly_plan(
    namespace: Option<&str>,
    checkout_return: i64,
    title: &str,
    amount: domain::money::Yen,
) -> MonthlyPlan {
    let prefix = namespace.map(|ns| format!("{ns}_")).unwrap_or_default();
    MonthlyPlan {
        product_id: format!("prod_{prefix}return_{checkout_return}"),
        plan_id: format!("plan_{prefix}return_{checkout_return}_{}jpy", amount.value()),
        name: title.chars().take(200).collect(),
        amount,
    }
}

#[derive(Debug, thiserror::Error)]
pub enum SubscriptionError {
    /// Not the caller's, or unknown.
    #[error("not found")]
    NotFound,
    /// The provider did not answer; nothing changed.
    #[error("payment provider unavailable")]
    Unavailable,
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}

impl From<crate::RepoError> for SubscriptionError {
    fn from(error: crate::RepoError) -> Self {
        Self::Unexpected(error.into())
    }
}

impl From<SupportError> for SubscriptionError {
    fn from(error: SupportError) -> Self {
        match error {
            SupportError::NotFound => Self::NotFound,
            SupportError::Unavailable => Self::Unavailable,
            other => Self::Unexpected(anyhow::anyhow!(other.to_string())),
        }
    }
}

/// A monthly support with the card that pays it, as my page shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubscriptionView {
    pub record: SubscriptionRecord,
    /// `None` when the provider did not answer or the card is gone.
    pub card: Option<SavedCard>,
}

/// A month the bank will charge only once the supporter authenticates
/// (3-D Secure) with the card, in the browser.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingAuthentication {
    /// For Stripe.js's `confirmCardPayment`.
    pub client_secret: String,
    pub amount: Yen,
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait Subscriptions: Send + Sync {
    /// The member's monthly supports, newest first.
    async fn list(&self, user: UserId) -> Result<Vec<SubscriptionView>, SubscriptionError>;

    /// Stops the member's subscription at the end of the paid period (a
    /// repeat changes nothing); another member's id is `NotFound`.
    async fn cancel(&self, user: UserId, id: i64) -> Result<SubscriptionView, SubscriptionError>;

    /// After a card was removed: subscriptions it paid move to the
    /// default card left, or stop at the period's end when none is left.
    async fn card_removed(
        &self,
        user: UserId,
        removed: &PaymentMethodId,
        left: &CustomerCards,
    ) -> Result<(), SubscriptionError>;

    /// After the member chose a new default card: subscriptions whose
    /// payment failed move to it, so the provider's next retry uses it.
    async fn default_changed(&self, user: UserId, card: &PaymentMethodId) -> Result<(), SubscriptionError>;

    /// The member's subscription, and its month that waits for them to
    /// authenticate with the card (a renewal the bank refused with
    /// "authentication required"), `None` when no month waits for that;
    /// another member's id is `NotFound`.
    async fn pending_authentication(
        &self,
        user: UserId,
        id: i64,
    ) -> Result<(SubscriptionView, Option<PendingAuthentication>), SubscriptionError>;

    /// After the browser authenticated: the subscription and its invoices
    /// read back from the provider and applied, as their webhooks would be.
    async fn authenticated(&self, user: UserId, id: i64) -> Result<SubscriptionView, SubscriptionError>;
}

/// Monthly support after its first month: the member's list, stopping,
/// moving to another card, and the sweeps that read every running
/// subscription again or stop those of ended projects.
pub struct MonthlySupport<S, G, M, C> {
    core: Arc<ProviderReports<S, G, M, C>>,
}

impl<S, G, M, C> MonthlySupport<S, G, M, C> {
    pub fn new(core: Arc<ProviderReports<S, G, M, C>>) -> Self {
        Self { core }
    }
}

impl<S: ReportStores, G: PaymentGateway, M: Mailer, C: Clock> MonthlySupport<S, G, M, C> {
    /// Stops `row` at the end of its paid period and mails the supporter why.
    async fn stop_at_period_end(
        &self,
        row: &SubscriptionRecord,
        why: StopReason,
    ) -> Result<SubscriptionRecord, SupportError> {
        let Some(provider) = &row.provider else { return Ok(row.clone()) };
        if !row.is_running() || row.cancel_at_period_end {
            return Ok(row.clone());
        }
        let state = self.core.gateway.update_subscription(provider, None, Some(true)).await.map_err(provider_error)?;
        let after = self.core.store.record_subscription(row.id, &state, self.core.now()).await?;
        self.core.send(self.core.mails.monthly_stopping(&after, why)).await;
        Ok(after)
    }

    /// Every running subscription read again at the provider, with its paid
    /// invoices: what a lost webhook did not bring is recorded.
    pub(crate) async fn reconcile_subscriptions(&self) -> Result<SweepReport, SupportError> {
        let mut report = SweepReport::default();
        let mut after = 0;
        loop {
            let page = self.core.store.running_subscriptions(after, self.core.config.sweep_batch).await?;
            let Some(last) = page.last() else { break };
            after = last.id;
            for row in page {
                let Some(provider) = row.provider.clone() else { continue };
                report.checked += 1;
                match self.read_back(&provider).await {
                    Ok(()) => {
                        let now = self.core.store.subscription(row.id).await?;
                        if now.as_ref().is_some_and(|n| {
                            n.status != row.status || n.cancel_at_period_end != row.cancel_at_period_end
                        }) {
                            report.changed += 1;
                        }
                    }
                    Err(error) => {
                        tracing::warn!(subscription = row.id, %error, "subscription not reconciled; next sweep retries");
                        report.failed += 1;
                    }
                }
            }
        }
        Ok(report)
    }

    /// The unpaid month whose payment waits for the supporter's 3-D Secure.
    async fn waiting_month(&self, provider: &SubscriptionId) -> Result<Option<PendingAuthentication>, SupportError> {
        let invoices = self.core.gateway.invoices(provider).await.map_err(provider_error)?;
        for invoice in invoices.iter().filter(|invoice| !invoice.paid) {
            let Some(payment) = &invoice.payment else { continue };
            let payment = self.core.gateway.payment(payment).await.map_err(provider_error)?;
            if payment.status == IntentStatus::RequiresAction {
                if let Some(client_secret) = authenticate_secret(&payment) {
                    return Ok(Some(PendingAuthentication { client_secret, amount: invoice.amount_due }));
                }
            }
        }
        Ok(None)
    }

    /// The subscription's invoices and state read at the provider and applied.
    async fn read_back(&self, provider: &SubscriptionId) -> Result<(), SupportError> {
        for invoice in self.core.gateway.invoices(provider).await.map_err(provider_error)? {
            self.core.apply_invoice(&invoice, PaymentEventKind::Other).await?;
        }
        let state = self.core.gateway.subscription(provider).await.map_err(provider_error)?;
        self.core.apply_subscription(&state).await
    }

    /// A monthly support stops by itself once its project has ended.
    pub(crate) async fn stop_monthly_of_ended_projects(&self) -> Result<SweepReport, SupportError> {
        let today = tokyo_date(self.core.now());
        let mut report = SweepReport::default();
        for row in self.core.store.subscriptions_of_ended_projects(today, self.core.config.sweep_batch).await? {
            report.checked += 1;
            match self.stop_at_period_end(&row, StopReason::ProjectEnded).await {
                Ok(_) => report.changed += 1,
                Err(error) => {
                    tracing::warn!(subscription = row.id, %error, "subscription of an ended project not stopped");
                    report.failed += 1;
                }
            }
        }
        Ok(report)
    }

    /// The rows with their cards' brand and last digits (one provider read).
    async fn with_cards(&self, rows: Vec<SubscriptionRecord>) -> Vec<SubscriptionView> {
        let cards = match rows.first() {
            Some(row) => match self.core.gateway.cards(&row.customer).await {
                Ok(cards) => cards.cards,
                Err(error) => {
                    tracing::warn!(%error, "cards of a member not read; subscriptions listed without them");
                    Vec::new()
                }
            },
            None => Vec::new(),
        };
        rows.into_iter()
            .map(|record| {
                let card = cards.iter().find(|c| Some(&c.id) == record.card.as_ref()).cloned();
                SubscriptionView { record, card }
            })
            .collect()
    }

    async fn own(&self, user: UserId, id: i64) -> Result<SubscriptionRecord, SubscriptionError> {
        match self.core.store.subscription(id).await? {
            Some(row) if row.user == user && row.provider.is_some() => Ok(row),
            _ => Err(SubscriptionError::NotFound),
        }
    }

    async fn move_to_card(&self, row: &SubscriptionRecord, card: &PaymentMethodId) -> Result<(), SupportError> {
        let Some(provider) = &row.provider else { return Ok(()) };
        let state =
            self.core.gateway.update_subscription(provider, Some(card.clone()), None).await.map_err(provider_error)?;
        self.core.store.record_subscription(row.id, &state, self.core.now()).await?;
        Ok(())
    }
}

#[async_trait::async_trait]
impl<S: ReportStores, G: PaymentGateway, M: Mailer, C: Clock> Subscriptions for MonthlySupport<S, G, M, C> {
    async fn list(&self, user: UserId) -> Result<Vec<SubscriptionView>, SubscriptionError> {
        let rows = self.core.store.subscriptions_of(user).await?;
        Ok(self.with_cards(rows).await)
    }

    async fn cancel(&self, user: UserId, id: i64) -> Result<SubscriptionView, SubscriptionError> {
        let row = self.own(user, id).await?;
        let after = self.stop_at_period_end(&row, StopReason::Member).await?;
        Ok(self.with_cards(vec![after]).await.remove(0))
    }

    async fn card_removed(
        &self,
        user: UserId,
        removed: &PaymentMethodId,
        left: &CustomerCards,
    ) -> Result<(), SubscriptionError> {
        let next = left.default.clone().or_else(|| left.cards.last().map(|c| c.id.clone()));
        for row in self.core.store.subscriptions_of(user).await? {
            if !row.is_running() || row.card.as_ref() != Some(removed) {
                continue;
            }
            match &next {
                Some(card) => self.move_to_card(&row, card).await?,
                None => {
                    self.stop_at_period_end(&row, StopReason::NoCardLeft).await?;
                }
            }
        }
        Ok(())
    }

    async fn default_changed(&self, user: UserId, card: &PaymentMethodId) -> Result<(), SubscriptionError> {
        for row in self.core.store.subscriptions_of(user).await? {
            if row.status == SubscriptionState::PastDue && row.card.as_ref() != Some(card) {
                self.move_to_card(&row, card).await?;
            }
        }
        Ok(())
    }

    async fn pending_authentication(
        &self,
        user: UserId,
        id: i64,
    ) -> Result<(SubscriptionView, Option<PendingAuthentication>), SubscriptionError> {
        let row = self.own(user, id).await?;
        // Read at the provider, not from our row's status: the failed month's event may be applied before
        // the one that makes the subscription past due.
        let pending = match &row.provider {
            Some(provider) if row.is_running() => self.waiting_month(provider).await?,
            _ => None,
        };
        Ok((self.with_cards(vec![row]).await.remove(0), pending))
    }

    async fn authenticated(&self, user: UserId, id: i64) -> Result<SubscriptionView, SubscriptionError> {
        let row = self.own(user, id).await?;
        if let Some(provider) = &row.provider {
            self.read_back(provider).await?;
        }
        let after = self.core.store.subscription(row.id).await?.ok_or(SubscriptionError::NotFound)?;
        Ok(self.with_cards(vec![after]).await.remove(0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plan_ids_come_from_the_return_the_amount_and_the_namespace() {
        let plan = monthly_plan(Some("test_db"), 7, "サポーターズクラブ", domain::money::Yen(1100));
        assert_eq!(plan.plan_id, "plan_test_db_return_7_1100jpy");
        assert_eq!(plan.product_id, "prod_test_db_return_7");
        assert_eq!(monthly_plan(None, 7, "x", domain::money::Yen(1100)).plan_id, "plan_return_7_1100jpy");
        assert_ne!(plan.plan_id, monthly_plan(Some("test_db"), 7, "x", domain::money::Yen(2200)).plan_id);
    }
}
