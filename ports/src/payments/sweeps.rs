//! The sweeps that run on timers: the reconciler, which asks the provider
//! about whatever a lost answer or webhook left unsettled, the bank-transfer
//! deadline sweep, and the stop of monthly supports whose project ended.

use std::sync::Arc;

use domain::money::Yen;
use domain::payment::{PayType, SaleStatus};
use domain::time::tokyo_date;

use super::apply::{is_final, report_for, ProviderReports, ReportStores};
use super::gateway::{GatewayError, Payment, PaymentGateway};
use super::ledger::{EventStore, PaymentReport, Recorded, SaleRecord, SweepStore};
use super::outcome::{provider_error, SupportError, SweepReport};
use super::subscriptions::MonthlySupport;
use super::support::SupportService;
use crate::clock::Clock;
use crate::mailer::Mailer;

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait Sweeps: Send + Sync {
    /// Asks the provider about every sale left unsettled for a while and
    /// every cancelled transfer whose payment is still open, applies events
    /// received but not applied, and reads every running monthly support
    /// again.
    async fn reconcile(&self) -> Result<SweepReport, SupportError>;

    /// Cancels the sales of bank transfers past their deadline (their lots
    /// return) but leaves the provider's payment open, so that money sent
    /// late still pays it; cancels konbini sales past their deadline together
    /// with their voucher at the provider (a store takes no money for an
    /// expired voucher); closes at the provider the payments of transfers
    /// whose grace period ([`super::support::SupportConfig::transfer_grace`])
    /// is over, flagging for refund those that received part of the money.
    async fn expire_transfers(&self) -> Result<SweepReport, SupportError>;

    /// Stops, at the end of their paid period, the monthly supports of
    /// projects that ended, and mails their supporters why.
    async fn stop_monthly_of_ended_projects(&self) -> Result<SweepReport, SupportError>;
}

pub struct SweepService<S, G, M, C> {
    core: Arc<ProviderReports<S, G, M, C>>,
    placing: Arc<SupportService<S, G, M, C>>,
    monthly: Arc<MonthlySupport<S, G, M, C>>,
}

impl<S, G, M, C> SweepService<S, G, M, C> {
    pub fn new(
        core: Arc<ProviderReports<S, G, M, C>>,
        placing: Arc<SupportService<S, G, M, C>>,
        monthly: Arc<MonthlySupport<S, G, M, C>>,
    ) -> Self {
        Self { core, placing, monthly }
    }
}

#[async_trait::async_trait]
impl<S: ReportStores + SweepStore + EventStore, G: PaymentGateway, M: Mailer, C: Clock> Sweeps
    for SweepService<S, G, M, C>
{
    async fn reconcile(&self) -> Result<SweepReport, SupportError> {
        let now = self.core.now();
        let mut report = SweepReport::default();
        let stale =
            self.core.store.unsettled(now - self.core.config.reconcile_after, self.core.config.sweep_batch).await?;
        for sale in stale {
            report.checked += 1;
            let before = sale.status;
            match self.placing.resume(sale, None, false).await {
                Ok(outcome) if outcome.sale.status != before => report.changed += 1,
                Ok(_) | Err(SupportError::Declined) => {}
                Err(error) => {
                    tracing::warn!(%error, "reconciliation of a sale failed; next sweep retries");
                    report.failed += 1;
                }
            }
        }
        // Cancelled transfers whose payment is still open: money may have arrived late while no webhook got through.
        for sale in self
            .core
            .store
            .late_transfers(now - self.core.config.late_check_after, self.core.config.sweep_batch)
            .await?
        {
            report.checked += 1;
            match self.core.refresh(sale).await {
                Ok(outcome) if outcome.sale.status != SaleStatus::Canceled || outcome.sale.refund_required => {
                    report.changed += 1;
                }
                Ok(_) => {}
                Err(error) => {
                    tracing::warn!(%error, "check of a cancelled transfer failed; next sweep retries");
                    report.failed += 1;
                }
            }
        }
        for (event_id, payment_id) in self.core.store.unapplied_event_payments(self.core.config.sweep_batch).await? {
            report.checked += 1;
            let applied = self.core.read_and_apply_payment(&payment_id).await;
            let error = applied.as_ref().err().map(ToString::to_string);
            if error.is_some() {
                report.failed += 1;
            } else {
                report.changed += 1;
            }
            self.core.store.finish_event(&event_id, error, now).await?;
        }
        let monthly = self.monthly.reconcile_subscriptions().await?;
        report.checked += monthly.checked;
        report.changed += monthly.changed;
        report.failed += monthly.failed;
        Ok(report)
    }

    async fn expire_transfers(&self) -> Result<SweepReport, SupportError> {
        let today = tokyo_date(self.core.now());
        let mut report = SweepReport::default();
        for sale in self.core.store.overdue_transfers(today, self.core.config.sweep_batch).await? {
            report.checked += 1;
            match self.expire(&sale).await {
                Ok(recorded) if recorded.previous.is_some() => report.changed += 1,
                Ok(_) => {}
                Err(error) => {
                    tracing::warn!(sale = %sale.id, %error, "overdue transfer not cancelled; next sweep retries");
                    report.failed += 1;
                }
            }
        }
        let grace_over = today - self.core.config.transfer_grace;
        for sale in self.core.store.transfers_to_close(grace_over, self.core.config.sweep_batch).await? {
            report.checked += 1;
            match self.close_transfer(&sale).await {
                Ok(()) => report.changed += 1,
                Err(error) => {
                    tracing::warn!(sale = %sale.id, %error, "payment of a cancelled transfer not closed; next sweep retries");
                    report.failed += 1;
                }
            }
        }
        Ok(report)
    }

    async fn stop_monthly_of_ended_projects(&self) -> Result<SweepReport, SupportError> {
        self.monthly.stop_monthly_of_ended_projects().await
    }
}

impl<S: ReportStores + SweepStore + EventStore, G: PaymentGateway, M: Mailer, C: Clock> SweepService<S, G, M, C> {
    /// Cancels an overdue transfer's sale (its lots return, the supporter is
    /// told) after reading its payment: one paid (or being settled) just now
    /// is recorded as the provider says. The payment itself stays open at the
    /// provider until the grace period is over.
    async fn expire(&self, sale: &SaleRecord) -> Result<Recorded, SupportError> {
        let cancel = PaymentReport { status: SaleStatus::Canceled, ..PaymentReport::empty() };
        let Some(payment_id) = &sale.payment else { return self.core.record(sale.id, cancel).await };
        match self.core.gateway.payment(payment_id).await {
            Ok(payment) => {
                let said = report_for(sale, &payment)?;
                // Money arrived or is being settled: that stands. Anything else is cancelled here.
                let report = match said.status {
                    SaleStatus::Succeeded | SaleStatus::Processing => said,
                    // The voucher is cancelled with the sale (the provider answers it paid if it was, just now).
                    _ if sale.pay_type == PayType::Konbini && !is_final(said.status) => {
                        let closed = self.core.gateway.cancel_payment(payment_id).await.map_err(provider_error)?;
                        let closed = report_for(sale, &closed)?;
                        match closed.status {
                            SaleStatus::Succeeded | SaleStatus::Processing => closed,
                            _ => PaymentReport { status: SaleStatus::Canceled, ..closed },
                        }
                    }
                    _ => PaymentReport { status: SaleStatus::Canceled, ..said },
                };
                self.core.record(sale.id, report).await
            }
            Err(GatewayError::NotFound(_)) => self.core.record(sale.id, cancel).await,
            Err(error) => Err(provider_error(error)),
        }
    }

    /// Closes at the provider the payment of a transfer cancelled longer ago
    /// than the grace period. Money that arrived meanwhile is recorded (the
    /// sale revived, or flagged for refund); money that paid only part of it
    /// flags the sale for refund.
    async fn close_transfer(&self, sale: &SaleRecord) -> Result<(), SupportError> {
        let Some(payment_id) = &sale.payment else { return Ok(()) };
        let stored_partly = sale.amount_remaining.is_some_and(|left| left < sale.terms.total);
        let before = match self.core.gateway.payment(payment_id).await {
            Ok(payment) => Some(payment),
            Err(GatewayError::NotFound(_)) => None,
            Err(error) => return Err(provider_error(error)),
        };
        let partly = |p: &Payment| p.amount_received > Yen::ZERO || p.amount_remaining < p.amount;
        let partly_paid = stored_partly || before.as_ref().is_some_and(partly);
        if let Some(open) = before.as_ref().filter(|p| partly(p) && !is_final(p.status.sale_status(sale.pay_type))) {
            // What is still owed stays on the sale for the refund: the closed payment no longer shows it.
            self.core.store.record_payment(sale.id, report_for(sale, open)?, self.core.now()).await?;
        }
        let closed = match before {
            Some(payment) if payment.status == domain::payment::IntentStatus::Succeeded => Some(payment),
            Some(payment) if is_final(payment.status.sale_status(sale.pay_type)) => None,
            Some(_) => Some(self.core.gateway.cancel_payment(payment_id).await.map_err(provider_error)?),
            None => None,
        };
        if let Some(paid) = closed.filter(|p| p.status == domain::payment::IntentStatus::Succeeded) {
            // Paid in full after all (before or while closing): revived, or flagged when no stock is left.
            self.core.record(sale.id, report_for(sale, &paid)?).await?;
            return Ok(());
        }
        let closed = self.core.store.close_transfer(sale.id, partly_paid, self.core.now()).await?;
        if closed.refund_required {
            tracing::warn!(sale = %sale.id, "cancelled transfer closed after part of the money arrived: refund required");
        }
        Ok(())
    }
}
