//! Applying a provider's report to our records: a payment to its sale, an
//! invoice to its monthly support, a subscription's new state to its row,
//! and what each move calls for (mails, removing a card that was only for
//! one payment). Every other payments use case reaches the records through
//! here, and every path records through [`SaleStore::record_payment`], which
//! only moves a sale forward, so answers arriving twice, late or out of
//! order change nothing.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use domain::payment::{check_payment_amounts, IntentStatus, PayType, PaymentMismatch, SaleStatus};

use super::gateway::{
    NextAction, Payment, PaymentEventKind, PaymentGateway, PaymentMethodId, ProviderInvoice, ProviderSubscription,
    SubscriptionState,
};
use super::ledger::{
    CustomerStore, MonthRecorded, PaymentReport, Recorded, SaleRecord, SaleStore, SubscriptionRecord, SubscriptionStore,
};
use super::mails::PaymentMails;
use super::outcome::{provider_error, SupportError, SupportOutcome};
use super::support::SupportConfig;
use crate::clock::Clock;
use crate::mailer::{Mailer, OutgoingMail};

/// The stores a provider's report is applied to.
pub trait ReportStores: SaleStore + CustomerStore + SubscriptionStore {}
impl<T: SaleStore + CustomerStore + SubscriptionStore> ReportStores for T {}

/// What every payments use case shares: the stores reports are applied to,
/// the provider, the mail queue, the clock, the mails' texts and the flow's
/// settings.
pub struct ProviderReports<S, G, M, C> {
    pub(crate) store: Arc<S>,
    pub(crate) gateway: G,
    pub(crate) mailer: M,
    pub(crate) clock: C,
    pub(crate) mails: PaymentMails,
    pub(crate) config: SupportConfig,
}

impl<S, G, M, C> ProviderReports<S, G, M, C> {
    pub fn new(store: Arc<S>, gateway: G, mailer: M, clock: C, mails: PaymentMails, config: SupportConfig) -> Self {
        Self { store, gateway, mailer, clock, mails, config }
    }
}

/// The provider's answer about a payment of `sale`, in the ledger's terms;
/// refused when the payment is not for the sale's total or claims to be paid
/// without having received it all (see [`check_payment_amounts`]).
pub(crate) fn report_for(sale: &SaleRecord, payment: &Payment) -> Result<PaymentReport, SupportError> {
    check_payment_amounts(sale.terms.total, payment.status, payment.amount, payment.amount_received).map_err(
        |mismatch| {
            tracing::error!(sale = %sale.id, payment = %payment.id, %mismatch, "provider report not applied");
            SupportError::Mismatch(mismatch)
        },
    )?;
    let pay_type = sale.pay_type;
    Ok(PaymentReport {
        payment: Some(payment.id.clone()),
        status: payment.status.sale_status(pay_type),
        amount_remaining: (pay_type == PayType::BankTransfer).then_some(payment.amount_remaining),
        instructions: payment.bank_transfer().cloned(),
        voucher: payment.konbini().cloned(),
        one_time_card: None,
        card: None,
    })
}

pub(crate) fn authenticate_secret(payment: &Payment) -> Option<String> {
    match &payment.next_action {
        Some(NextAction::Authenticate { client_secret }) => Some(client_secret.clone()),
        _ => None,
    }
}

pub(crate) const fn is_final(status: SaleStatus) -> bool {
    matches!(status, SaleStatus::Succeeded | SaleStatus::Failed | SaleStatus::Canceled)
}

impl<S: ReportStores, G: PaymentGateway, M: Mailer, C: Clock> ProviderReports<S, G, M, C> {
    pub(crate) fn now(&self) -> DateTime<Utc> {
        self.clock.now()
    }

    pub(crate) async fn send(&self, mail: OutgoingMail) {
        // The queue is in the same database as the records; if it refuses, the payment stands and the log says so.
        if let Err(error) = self.mailer.send(mail).await {
            tracing::error!(%error, "payment mail not queued");
        }
    }

    /// Records a report, then does what the move calls for: mails, and
    /// removing a card that was only for this payment.
    pub(crate) async fn record(
        &self,
        sale: domain::ids::SaleId,
        report: PaymentReport,
    ) -> Result<Recorded, SupportError> {
        let recorded = self.store.record_payment(sale, report, self.now()).await?;
        self.after_move(&recorded).await;
        Ok(recorded)
    }

    async fn after_move(&self, recorded: &Recorded) {
        let sale = &recorded.sale;
        if recorded.refund_required {
            tracing::warn!(sale = %sale.id, "transfer arrived after cancellation with no stock left: refund required");
        }
        let Some(previous) = recorded.previous else { return };
        let mail = match (sale.status, sale.pay_type) {
            (SaleStatus::Succeeded, PayType::Card) => Some(self.mails.card_thanks(sale)),
            (SaleStatus::Succeeded, PayType::BankTransfer) => Some(self.mails.transfer_received(sale)),
            (SaleStatus::Succeeded, PayType::Konbini) => Some(self.mails.konbini_received(sale)),
            (SaleStatus::AwaitingBankTransfer, _) if previous == SaleStatus::Pending => {
                self.mails.transfer_instructions(sale)
            }
            (SaleStatus::RequiresAction, PayType::Konbini) if previous == SaleStatus::Pending => {
                self.mails.konbini_voucher(sale)
            }
            (SaleStatus::Canceled, PayType::BankTransfer) => Some(self.mails.transfer_expired(sale)),
            (SaleStatus::Canceled, PayType::Konbini) => Some(self.mails.konbini_expired(sale)),
            _ => None,
        };
        if let Some(mail) = mail {
            self.send(mail).await;
        }
        if let (true, Some(card)) = (is_final(sale.status), &sale.one_time_card) {
            self.forget_card(sale, card).await;
        }
    }

    async fn forget_card(&self, sale: &SaleRecord, card: &PaymentMethodId) {
        let customer = match self.store.customer(sale.user).await {
            Ok(Some(customer)) => customer,
            _ => return,
        };
        match self.gateway.delete_card(&customer, card).await {
            Ok(()) | Err(super::gateway::GatewayError::NotFound(_)) => {}
            Err(error) => tracing::warn!(sale = %sale.id, %error, "one-time card not removed"),
        }
    }

    /// The provider's view of a sale with a payment, recorded; the stored
    /// sale when the provider does not answer.
    pub(crate) async fn refresh(&self, sale: SaleRecord) -> Result<SupportOutcome, SupportError> {
        let Some(payment_id) = sale.payment.clone() else {
            return Ok(SupportOutcome { sale, authenticate: None, subscription: None });
        };
        match self.gateway.payment(&payment_id).await {
            Ok(payment) => {
                let recorded = self.record(sale.id, report_for(&sale, &payment)?).await?;
                Ok(SupportOutcome {
                    authenticate: authenticate_secret(&payment),
                    sale: recorded.sale,
                    subscription: None,
                })
            }
            Err(error) => {
                tracing::warn!(sale = %sale.id, %error, "payment status not read; showing the stored one");
                Ok(SupportOutcome { sale, authenticate: None, subscription: None })
            }
        }
    }

    /// Applies what the provider says about a payment to its sale (found by
    /// the sale id the payment carries, or by the payment id). Payments that
    /// are not ours are ignored.
    pub(crate) async fn apply_payment(&self, payment: &Payment) -> Result<(), SupportError> {
        let sale = match payment.sale_id {
            Some(id) => self.store.sale(id).await?,
            None => self.store.sale_by_payment(&payment.id).await?,
        };
        let Some(sale) = sale else {
            tracing::info!(payment = %payment.id, "event about a payment that is not ours");
            return Ok(());
        };
        if sale.payment.as_ref().is_some_and(|p| p != &payment.id) {
            tracing::warn!(sale = %sale.id, payment = %payment.id, "event about another payment of the sale; ignored");
            return Ok(());
        }
        self.record(sale.id, report_for(&sale, payment)?).await.map(|_| ())
    }

    /// Whether an unpaid invoice's payment waits for the supporter to
    /// authenticate; a provider that does not answer counts as no.
    async fn waits_for_authentication(&self, invoice: &ProviderInvoice) -> bool {
        let Some(payment) = &invoice.payment else { return false };
        match self.gateway.payment(payment).await {
            Ok(payment) => payment.status == IntentStatus::RequiresAction && authenticate_secret(&payment).is_some(),
            Err(error) => {
                tracing::warn!(invoice = %invoice.id, %error, "payment of a failed month not read");
                false
            }
        }
    }

    /// A month paid or failed, as an invoice event or the reconciler tells it.
    pub(crate) async fn apply_invoice(
        &self,
        invoice: &ProviderInvoice,
        kind: PaymentEventKind,
    ) -> Result<(), SupportError> {
        let Some(provider) = &invoice.subscription else { return Ok(()) };
        let Some(row) = self.store.subscription_by_provider(provider).await? else {
            tracing::info!(invoice = %invoice.id, "invoice of a subscription that is not ours");
            return Ok(());
        };
        if invoice.paid {
            if invoice.amount_paid != row.amount {
                let mismatch = PaymentMismatch::Received { expected: row.amount, actual: invoice.amount_paid };
                tracing::error!(invoice = %invoice.id, subscription = row.id, %mismatch, "paid invoice not applied");
                return Err(SupportError::Mismatch(mismatch));
            }
            match self.store.record_month(row.id, invoice, self.now()).await? {
                MonthRecorded::First(sale) => {
                    let report = PaymentReport {
                        payment: invoice.payment.clone(),
                        status: SaleStatus::Succeeded,
                        ..PaymentReport::empty()
                    };
                    self.record(sale, report).await?;
                }
                MonthRecorded::Renewal(sale) => self.send(self.mails.monthly_paid(&row, &sale)).await,
                MonthRecorded::Already => {}
            }
            return Ok(());
        }
        if kind == PaymentEventKind::InvoicePaymentFailed
            && row.provider.is_some()
            && self.store.mark_failure_mailed(row.id, &invoice.id).await?
        {
            let mail = if self.waits_for_authentication(invoice).await {
                self.mails.monthly_needs_authentication(&row)
            } else {
                self.mails.monthly_failed(&row, invoice.next_payment_attempt)
            };
            self.send(mail).await;
        }
        Ok(())
    }

    /// A subscription's new state (webhook, reconciler, our own calls).
    pub(crate) async fn apply_subscription(&self, state: &ProviderSubscription) -> Result<(), SupportError> {
        let row = match self.store.subscription_by_provider(&state.id).await? {
            Some(row) => Some(row),
            // Our row named in the metadata, before the provider's answer was stored. Only with the same card:
            // databases sharing one provider account (test and development databases) number their rows alike.
            None => match state.row {
                Some(id) => self
                    .store
                    .subscription(id)
                    .await?
                    .filter(|r| r.provider.is_none() && r.card.is_some() && r.card == state.card),
                None => None,
            },
        };
        let Some(row) = row else { return Ok(()) };
        let before = row.status;
        let after = self.store.record_subscription(row.id, state, self.now()).await?;
        self.after_subscription_move(before, state, &after).await
    }

    async fn after_subscription_move(
        &self,
        before: SubscriptionState,
        state: &ProviderSubscription,
        after: &SubscriptionRecord,
    ) -> Result<(), SupportError> {
        // A subscription that never started (its first charge refused) was answered on screen.
        if after.status.is_ended() && after.provider.is_some() && self.store.mark_end_mailed(after.id).await? {
            let failed = self.ended_unpaid(before, state).await;
            self.send(self.mails.monthly_ended(after, failed)).await;
        }
        Ok(())
    }

    /// Whether a subscription ended because its payment failed. Providers do not keep their events in
    /// order: the end may come before the failed payment that caused it, so an unpaid last invoice at the
    /// provider says so too (a supporter's stop or an ended project leaves the last invoice paid).
    async fn ended_unpaid(&self, before: SubscriptionState, state: &ProviderSubscription) -> bool {
        if before == SubscriptionState::PastDue {
            return true;
        }
        match &state.latest_invoice {
            Some(invoice) => matches!(self.gateway.invoice(invoice).await, Ok(last) if !last.paid),
            None => false,
        }
    }

    /// Reads a payment at the provider and applies it.
    pub(crate) async fn read_and_apply_payment(&self, id: &super::gateway::PaymentId) -> Result<(), SupportError> {
        match self.gateway.payment(id).await {
            Ok(payment) => self.apply_payment(&payment).await,
            Err(error) => Err(provider_error(error)),
        }
    }
}

impl PaymentReport {
    /// A report that only sets what its caller fills in.
    pub fn empty() -> Self {
        Self {
            payment: None,
            status: SaleStatus::Pending,
            amount_remaining: None,
            instructions: None,
            voucher: None,
            one_time_card: None,
            card: None,
        }
    }
}
