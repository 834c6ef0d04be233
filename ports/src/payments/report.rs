//! The reconcile report (`app-server reconcile`): for every sale with a
//! payment, our record beside the provider's, summed per project, and every
//! sale on which the two disagree. It only reads; bringing sales up to date
//! is the reconciliation sweep's job (`Supports::reconcile`).

use std::collections::BTreeMap;

use domain::ids::{ProjectId, SaleId};
use domain::money::Yen;
use domain::payment::{counted_amount, IntentStatus, PayType, SaleStatus};

use super::gateway::{GatewayError, PaymentGateway, PaymentId, SubscriptionId, SubscriptionState};
use super::ledger::{SaleRecord, SubscriptionStore, SweepStore};
use crate::RepoError;

/// Money raised by one project, as each side counts it, on the basis of every
/// total (`domain::payment::counted_amount`: paid, tax included, less refunds).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectTotals {
    pub project: ProjectId,
    pub title: String,
    /// Our sales' counted amounts: succeeded, total less refunded.
    pub ours: Yen,
    /// The provider's succeeded payments of those sales: received less refunded.
    pub provider: Yen,
    /// Sales of the project on which the two sides disagree.
    pub differences: usize,
}

/// What the provider says about a sale's payment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProviderView {
    Payment {
        status: IntentStatus,
        received: Yen,
        /// Its refunds neither failed nor cancelled (read for paid payments only).
        refunded: Yen,
    },
    /// The provider does not know the payment id.
    Unknown,
}

/// A sale whose record and payment disagree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    pub sale: SaleId,
    pub project: ProjectId,
    pub payment: PaymentId,
    pub status: SaleStatus,
    pub total: Yen,
    /// What we recorded as refunded.
    pub refunded: Yen,
    pub provider: ProviderView,
}

/// A monthly support whose status or paid months differ from the provider's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubscriptionDifference {
    /// Our subscription row.
    pub id: i64,
    pub project: ProjectId,
    pub subscription: SubscriptionId,
    pub status: SubscriptionState,
    pub months_paid: i64,
    /// The provider's status and paid invoices; `None` when it does not know the subscription.
    pub provider: Option<(SubscriptionState, i64)>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ReconcileReport {
    /// By project id.
    pub projects: Vec<ProjectTotals>,
    pub differences: Vec<Difference>,
    /// Monthly supports on which we and the provider disagree (also counted in their project's `differences`).
    pub subscription_differences: Vec<SubscriptionDifference>,
    /// Payments the provider does not know, when they are not counted as
    /// differences (see [`UnknownPayments`]); their sales are left out of
    /// the projects' figures.
    pub unknown: Vec<Difference>,
    /// Refunds that lapsed unclaimed, by sale: the amount stays with the
    /// company (terms), out of both sides' project figures.
    pub unclaimed: Vec<(SaleId, ProjectId, Yen)>,
}

/// What a payment id the provider does not know means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnknownPayments {
    /// Production: every stored payment id was made at this provider
    /// account, so an unknown one is a difference.
    Difference,
    /// Development and test databases hold payments never made at this
    /// provider (demo data, a local provider restarted empty): listed apart.
    ListApart,
}

#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error(transparent)]
    Repo(#[from] RepoError),
    /// The provider could not be read: no figures rather than wrong ones.
    #[error("payment {payment} of sale {sale} not read: {error}")]
    Provider { sale: SaleId, payment: PaymentId, error: GatewayError },
    #[error("subscription {id} not read: {error}")]
    Subscription { id: i64, error: GatewayError },
}

/// Whether our record of a sale agrees with the provider's payment: the
/// status the payment means (`IntentStatus::sale_status`) and, when either
/// side counts it paid, the money received and the money refunded (our
/// refunds that lapsed unclaimed were cancelled at the provider: it does not
/// count them, we do, and the money stays with the company). A transfer
/// cancelled at its deadline whose payment still waits for money is as it
/// should be: the payment stays open during the grace period
/// (`SupportConfig::transfer_grace`).
fn agrees(sale: &SaleRecord, status: IntentStatus, received: Yen, refunded: Yen) -> bool {
    let paid_here = sale.status == SaleStatus::Succeeded;
    let paid_there = status == IntentStatus::Succeeded;
    let open_after_deadline = sale.status == SaleStatus::Canceled
        && sale.pay_type == PayType::BankTransfer
        && !sale.refund_required
        && status.sale_status(sale.pay_type) == SaleStatus::AwaitingBankTransfer;
    open_after_deadline
        || (status.sale_status(sale.pay_type) == sale.status
            && (!(paid_here || paid_there)
                || (received == sale.terms.total && refunded.0.saturating_add(sale.unclaimed.0) == sale.refunded.0)))
}

/// Reads every sale with a payment (`page` at a time) and the payment at the
/// provider, and compares them.
pub async fn reconcile_report<L: SweepStore + SubscriptionStore, G: PaymentGateway>(
    ledger: &L,
    gateway: &G,
    unknown_payments: UnknownPayments,
    page: i64,
) -> Result<ReconcileReport, ReportError> {
    let mut report = ReconcileReport::default();
    let mut projects: BTreeMap<ProjectId, ProjectTotals> = BTreeMap::new();
    let mut after = SaleId(0);
    loop {
        let sales = ledger.sales_with_payment(after, page).await?;
        let Some(last) = sales.last() else { break };
        after = last.id;
        for sale in sales {
            let Some(payment_id) = sale.payment.clone() else { continue };
            let totals = projects.entry(sale.project_id).or_insert_with(|| ProjectTotals {
                project: sale.project_id,
                title: sale.project_title.clone(),
                ours: Yen::ZERO,
                provider: Yen::ZERO,
                differences: 0,
            });
            let provider_error = |error| ReportError::Provider { sale: sale.id, payment: payment_id.clone(), error };
            let view = match gateway.payment(&payment_id).await {
                Ok(payment) => {
                    // Only money that was paid can have been refunded.
                    let refunded = if payment.status == IntentStatus::Succeeded {
                        gateway.refunded(&payment_id).await.map_err(provider_error)?
                    } else {
                        Yen::ZERO
                    };
                    ProviderView::Payment { status: payment.status, received: payment.amount_received, refunded }
                }
                Err(GatewayError::NotFound(_)) => ProviderView::Unknown,
                Err(error) => return Err(provider_error(error)),
            };
            let difference = Difference {
                sale: sale.id,
                project: sale.project_id,
                payment: payment_id,
                status: sale.status,
                total: sale.terms.total,
                refunded: sale.refunded,
                provider: view,
            };
            if view == ProviderView::Unknown && unknown_payments == UnknownPayments::ListApart {
                // Out of both sides' figures, so that they compare like with like.
                report.unknown.push(difference);
                continue;
            }
            totals.ours = Yen(totals.ours.0 + counted_amount(sale.status, sale.terms.total, sale.refunded).0);
            if sale.unclaimed.is_positive() {
                report.unclaimed.push((sale.id, sale.project_id, sale.unclaimed));
            }
            match view {
                ProviderView::Payment { status, received, refunded } => {
                    if status == IntentStatus::Succeeded {
                        // What lapsed unclaimed is the company's, not the project's: out of its figure here too.
                        let kept = received.0 - refunded.0 - sale.unclaimed.0;
                        totals.provider = Yen(totals.provider.0 + kept.max(0));
                    }
                    if agrees(&sale, status, received, refunded) {
                        continue;
                    }
                }
                ProviderView::Unknown => {}
            }
            totals.differences += 1;
            report.differences.push(difference);
        }
    }
    let mut after = 0;
    loop {
        let tallies = ledger.subscription_tallies(after, page).await?;
        let Some(last) = tallies.last() else { break };
        after = last.id;
        for tally in tallies {
            let provider = subscription_view(gateway, &tally.provider)
                .await
                .map_err(|error| ReportError::Subscription { id: tally.id, error })?;
            let unknown_is_fine = provider.is_none() && unknown_payments == UnknownPayments::ListApart;
            if provider == Some((tally.status, tally.months_paid)) || unknown_is_fine {
                continue;
            }
            if let Some(totals) = projects.get_mut(&tally.project_id) {
                totals.differences += 1;
            }
            report.subscription_differences.push(SubscriptionDifference {
                id: tally.id,
                project: tally.project_id,
                subscription: tally.provider,
                status: tally.status,
                months_paid: tally.months_paid,
                provider,
            });
        }
    }
    report.projects = projects.into_values().collect();
    Ok(report)
}

/// The provider's status of a subscription and its paid invoices; `None` when it does not know it.
async fn subscription_view<G: PaymentGateway>(
    gateway: &G,
    id: &SubscriptionId,
) -> Result<Option<(SubscriptionState, i64)>, GatewayError> {
    let subscription = match gateway.subscription(id).await {
        Ok(subscription) => subscription,
        Err(GatewayError::NotFound(_)) => return Ok(None),
        Err(error) => return Err(error),
    };
    let paid = gateway.invoices(id).await?.iter().filter(|invoice| invoice.paid).count();
    Ok(Some((subscription.status, i64::try_from(paid).unwrap_or(i64::MAX))))
}

#[cfg(test)]
#[path = "report_tests.rs"]
mod tests;
