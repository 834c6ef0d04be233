//! Monthly support: a return with `interval = 'month'` is backed through the
//! same support call, and starts a provider subscription on one of the
//! member's saved cards. The provider is the source of truth: every paid
//! invoice becomes one sale (unique by invoice id), failures and the end
//! come by webhook or by the reconciler, and each is applied once.

use chrono::{DateTime, Utc};
use domain::ids::UserId;
use domain::payment::{PayType, PaymentMismatch, SaleStatus};
use domain::time::tokyo_date;

use super::gateway::{
    CustomerCards, GatewayError, IdempotencyKey, KeyPurpose, MonthlyPlan, NewSubscription, PaymentEventKind,
    PaymentGateway, PaymentMethodId, ProviderInvoice, ProviderSubscription, SavedCard, SubscriptionState,
};
use super::ledger::{MonthRecorded, PaymentReport, SaleRecord, SubscriptionRecord, SupportLedger};
use super::mails::{japanese_date, PaymentMails};
use super::support::{
    provider_error, CardChoice, FieldProblem, SupportError, SupportOrder, SupportOutcome, SupportService, Supporter,
    SweepReport,
};
use crate::clock::Clock;
use crate::mailer::{Mailer, OutgoingMail};

/// Guests have no saved card and no my page to stop a subscription from.
pub const MSG_MONTHLY_MEMBERS_ONLY: &str =
    "毎月のご支援は会員の方のみお申し込みいただけます。ログインしてからお申し込みください。";
/// A bank transfer cannot be charged every month.
pub const MSG_MONTHLY_CARD_ONLY: &str = "毎月のご支援はクレジットカードでのお支払いのみご利用いただけます。";
/// A monthly support is paid by a saved card (step 3 registers one first).
pub const MSG_MONTHLY_SAVED_CARD: &str = "毎月のご支援には登録済みのクレジットカードを選択してください。";
/// One unit a month.
pub const MSG_MONTHLY_ONE_LOT: &str = "毎月のご支援は1口ずつのお申し込みです。";

/// Who may back a monthly return, and how: members, by a saved card, one unit.
/// A second monthly support of a return the member already supports monthly.
pub const MSG_MONTHLY_RUNNING: &str =
    "このリターンはすでに毎月のご支援をいただいています。ご支援の内容は「毎月のご支援」からご確認いただけます。";

pub(crate) fn check_monthly_order(order: &SupportOrder) -> Result<(), SupportError> {
    if matches!(order.supporter, Supporter::Guest(_)) {
        return Err(SupportError::MonthlyRefused(MSG_MONTHLY_MEMBERS_ONLY));
    }
    if order.pay_type != PayType::Card {
        return Err(SupportError::MonthlyRefused(MSG_MONTHLY_CARD_ONLY));
    }
    let mut problems = Vec::new();
    if !matches!(order.card, Some(CardChoice::Saved(_))) {
        problems.push(FieldProblem { field: "card", message: MSG_MONTHLY_SAVED_CARD.to_string() });
    }
    if order.lot != 1 {
        problems.push(FieldProblem { field: "lot", message: MSG_MONTHLY_ONE_LOT.to_string() });
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(SupportError::Invalid(problems))
    }
}

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
}

impl<L: SupportLedger, G: PaymentGateway, M: Mailer, C: Clock> SupportService<L, G, M, C> {
    async fn send(&self, mail: OutgoingMail) {
        if let Err(error) = self.mailer.send(mail).await {
            tracing::error!(%error, "subscription mail not queued");
        }
    }

    /// Starts (or continues) the subscription whose first month is `sale`:
    /// the row is written first, the provider asked with keys derived from
    /// the sale, and its answer recorded. A repeat finds the same row and
    /// the provider answers the same key with the same subscription.
    /// Refuses a second monthly support of the same return by one member
    /// (another key; the same key continues its own support).
    pub(crate) async fn refuse_second_monthly(&self, user: UserId, order: &SupportOrder) -> Result<(), SupportError> {
        let retry_of = self.ledger.sale_by_key(user, &order.idempotency_key).await?.map(|sale| sale.id);
        let running = self.ledger.subscriptions_of(user).await?;
        match running.iter().find(|s| s.return_id == order.ret && s.holds_its_return() && Some(s.sale) != retry_of) {
            Some(running) => Err(SupportError::MonthlyRunning(running.id)),
            None => Ok(()),
        }
    }

    pub(crate) async fn start_monthly(
        &self,
        sale: SaleRecord,
        card: Option<&CardChoice>,
    ) -> Result<SupportOutcome, SupportError> {
        let existing = self.ledger.subscription_by_sale(sale.id).await?;
        let outcome = |sale: SaleRecord, sub: Option<&SubscriptionRecord>| SupportOutcome {
            sale,
            authenticate: None,
            subscription: sub.map(|s| s.id),
        };
        match sale.status {
            SaleStatus::Failed => return Err(SupportError::Declined),
            SaleStatus::Pending => {}
            _ => return Ok(outcome(sale, existing.as_ref())),
        }
        let customer = self.customer_for(sale.user, &sale.email).await?;
        let row = match existing {
            Some(row) => row,
            None => {
                let Some(CardChoice::Saved(chosen)) = card else {
                    return Err(SupportError::Invalid(vec![FieldProblem {
                        field: "card",
                        message: MSG_MONTHLY_SAVED_CARD.to_string(),
                    }]));
                };
                // The card was checked to be the member's before the sale was written.
                let report = PaymentReport { card: Some(chosen.clone()), ..PaymentReport::empty() };
                self.ledger.record_payment(sale.id, report, self.clock.now()).await?;
                let plan = self.plan_for(&sale);
                self.ledger.open_subscription(sale.id, &customer, chosen, &plan.plan_id, sale.terms.total).await?
            }
        };
        let Some(card) = row.card.clone() else {
            return Err(SupportError::Unexpected(anyhow::anyhow!("subscription {} has no card", row.id)));
        };
        let plan = self.plan_for(&sale);
        let namespace = &self.config.namespace;
        self.gateway
            .ensure_plan(&plan, IdempotencyKey::for_plan(namespace, &plan.plan_id))
            .await
            .map_err(provider_error)?;
        let request = NewSubscription {
            customer,
            card,
            plan_id: plan.plan_id.clone(),
            sale_id: sale.id,
            subscription_row: row.id,
        };
        let key = IdempotencyKey::for_sale(namespace, sale.id, KeyPurpose::Subscribe);
        match self.gateway.create_subscription(request, key).await {
            Ok(started) => {
                let row = self.ledger.record_subscription(row.id, &started, self.clock.now()).await?;
                if let Some(invoice_id) = &started.latest_invoice {
                    match self.gateway.invoice(invoice_id).await {
                        Ok(invoice) => self.apply_invoice(&invoice, PaymentEventKind::InvoicePaid).await?,
                        Err(error) => {
                            tracing::warn!(%error, "first invoice not read; the webhook or reconciler records it")
                        }
                    }
                }
                let sale = self.ledger.sale(sale.id).await?.ok_or(SupportError::NotFound)?;
                Ok(outcome(sale, Some(&row)))
            }
            Err(GatewayError::Declined { message, .. }) => {
                tracing::info!(sale = %sale.id, %message, "first month declined");
                let ended = ProviderSubscription {
                    id: super::gateway::SubscriptionId::new(""),
                    status: SubscriptionState::IncompleteExpired,
                    current_period_end: None,
                    cancel_at_period_end: false,
                    card: None,
                    latest_invoice: None,
                    row: Some(row.id),
                };
                self.ledger.record_subscription(row.id, &ended, self.clock.now()).await?;
                self.record(sale.id, PaymentReport { status: SaleStatus::Failed, ..PaymentReport::empty() }).await?;
                Err(SupportError::Declined)
            }
            Err(error) => Err(provider_error(error)),
        }
    }

    fn plan_for(&self, sale: &SaleRecord) -> MonthlyPlan {
        let name = format!("{}（{}）", sale.project_title, sale.return_title);
        monthly_plan(self.config.namespace.name(), sale.return_id.get(), &name, sale.terms.total)
    }

    /// A month paid or failed, as an invoice event or the reconciler tells it.
    pub(crate) async fn apply_invoice(
        &self,
        invoice: &ProviderInvoice,
        kind: PaymentEventKind,
    ) -> Result<(), SupportError> {
        let Some(provider) = &invoice.subscription else { return Ok(()) };
        let Some(row) = self.ledger.subscription_by_provider(provider).await? else {
            tracing::info!(invoice = %invoice.id, "invoice of a subscription that is not ours");
            return Ok(());
        };
        if invoice.paid {
            if invoice.amount_paid != row.amount {
                let mismatch = PaymentMismatch::Received { expected: row.amount, actual: invoice.amount_paid };
                tracing::error!(invoice = %invoice.id, subscription = row.id, %mismatch, "paid invoice not applied");
                return Err(SupportError::Mismatch(mismatch));
            }
            match self.ledger.record_month(row.id, invoice, self.clock.now()).await? {
                MonthRecorded::First(sale) => {
                    let report = PaymentReport {
                        payment: invoice.payment.clone(),
                        status: SaleStatus::Succeeded,
                        ..PaymentReport::empty()
                    };
                    self.record(sale, report).await?;
                }
                MonthRecorded::Renewal(sale) => {
                    let mail = self.mails.monthly_paid(&row, &sale);
                    self.send(mail).await;
                }
                MonthRecorded::Already => {}
            }
            return Ok(());
        }
        if kind == PaymentEventKind::InvoicePaymentFailed
            && row.provider.is_some()
            && self.ledger.mark_failure_mailed(row.id, &invoice.id).await?
        {
            let mail = self.mails.monthly_failed(&row, invoice.next_payment_attempt);
            self.send(mail).await;
        }
        Ok(())
    }

    /// A subscription's new state (webhook, reconciler, our own calls).
    pub(crate) async fn apply_subscription(&self, state: &ProviderSubscription) -> Result<(), SupportError> {
        let row = match self.ledger.subscription_by_provider(&state.id).await? {
            Some(row) => Some(row),
            // Our row named in the metadata, before the provider's answer was stored. Only with the same card:
            // databases sharing one provider account (test and development databases) number their rows alike.
            None => match state.row {
                Some(id) => self
                    .ledger
                    .subscription(id)
                    .await?
                    .filter(|r| r.provider.is_none() && r.card.is_some() && r.card == state.card),
                None => None,
            },
        };
        let Some(row) = row else { return Ok(()) };
        let before = row.status;
        let after = self.ledger.record_subscription(row.id, state, self.clock.now()).await?;
        self.after_subscription_move(before, state, &after).await
    }

    async fn after_subscription_move(
        &self,
        before: SubscriptionState,
        state: &ProviderSubscription,
        after: &SubscriptionRecord,
    ) -> Result<(), SupportError> {
        // A subscription that never started (its first charge refused) was answered on screen.
        if after.status.is_ended() && after.provider.is_some() && self.ledger.mark_end_mailed(after.id).await? {
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
        let state = self.gateway.update_subscription(provider, None, Some(true)).await.map_err(provider_error)?;
        let after = self.ledger.record_subscription(row.id, &state, self.clock.now()).await?;
        self.send(self.mails.monthly_stopping(&after, why)).await;
        Ok(after)
    }

    /// Every running subscription read again at the provider, with its paid
    /// invoices: what a lost webhook did not bring is recorded.
    pub(crate) async fn reconcile_subscriptions(&self) -> Result<SweepReport, SupportError> {
        let mut report = SweepReport::default();
        let mut after = 0;
        loop {
            let page = self.ledger.running_subscriptions(after, self.config.sweep_batch).await?;
            let Some(last) = page.last() else { break };
            after = last.id;
            for row in page {
                let Some(provider) = row.provider.clone() else { continue };
                report.checked += 1;
                let result = async {
                    for invoice in self.gateway.invoices(&provider).await.map_err(provider_error)? {
                        self.apply_invoice(&invoice, PaymentEventKind::Other).await?;
                    }
                    let state = self.gateway.subscription(&provider).await.map_err(provider_error)?;
                    self.apply_subscription(&state).await
                }
                .await;
                match result {
                    Ok(()) => {
                        let now = self.ledger.subscription(row.id).await?;
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

    /// A monthly support stops by itself once its project has ended.
    pub(crate) async fn stop_ended_projects(&self) -> Result<SweepReport, SupportError> {
        let today = tokyo_date(self.clock.now());
        let mut report = SweepReport::default();
        for row in self.ledger.subscriptions_of_ended_projects(today, self.config.sweep_batch).await? {
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
            Some(row) => match self.gateway.cards(&row.customer).await {
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
        match self.ledger.subscription(id).await? {
            Some(row) if row.user == user && row.provider.is_some() => Ok(row),
            _ => Err(SubscriptionError::NotFound),
        }
    }

    async fn move_to_card(&self, row: &SubscriptionRecord, card: &PaymentMethodId) -> Result<(), SupportError> {
        let Some(provider) = &row.provider else { return Ok(()) };
        let state =
            self.gateway.update_subscription(provider, Some(card.clone()), None).await.map_err(provider_error)?;
        self.ledger.record_subscription(row.id, &state, self.clock.now()).await?;
        Ok(())
    }
}

/// Why a subscription stops at the end of its period.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopReason {
    Member,
    NoCardLeft,
    ProjectEnded,
}

#[async_trait::async_trait]
impl<L: SupportLedger, G: PaymentGateway, M: Mailer, C: Clock> Subscriptions for SupportService<L, G, M, C> {
    async fn list(&self, user: UserId) -> Result<Vec<SubscriptionView>, SubscriptionError> {
        let rows = self.ledger.subscriptions_of(user).await?;
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
        for row in self.ledger.subscriptions_of(user).await? {
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
        for row in self.ledger.subscriptions_of(user).await? {
            if row.status == SubscriptionState::PastDue && row.card.as_ref() != Some(card) {
                self.move_to_card(&row, card).await?;
            }
        }
        Ok(())
    }
}

impl PaymentMails {
    fn monthly_subject(&self, what: &str) -> String {
        format!("【{}】{}", self.site.site_name, what)
    }

    fn monthly_footer(&self) -> String {
        format!(
            "\n毎月のご支援の確認・停止はマイページから行えます：{url}/account/\n\n――――――――――――――――――――\n{site}\n{url}/\n",
            url = self.site.public_url,
            site = self.site.site_name,
        )
    }

    fn monthly_summary(&self, row: &SubscriptionRecord) -> String {
        format!(
            "プロジェクト：{project}\nリターン：{ret}\n毎月のお支払い：{amount}円（税込）\n",
            project = row.project_title,
            ret = row.return_title,
            amount = row.amount.grouped(),
        )
    }

    /// A later month was charged.
    pub fn monthly_paid(&self, row: &SubscriptionRecord, sale: &SaleRecord) -> OutgoingMail {
        let next = row.current_period_end.map(|d| format!("次回のお支払い予定日：{}\n", japanese_date(tokyo_date(d))));
        OutgoingMail {
            to: row.email.clone(),
            subject: self.monthly_subject("毎月のご支援のお支払いが完了しました"),
            text_body: format!(
                "{name} 様\n\nいつもご支援いただき、誠にありがとうございます。\n今月分のお支払い（{total}円）が完了しました。\n\n{summary}{next}{footer}",
                name = row.display_name,
                total = sale.terms.total.grouped(),
                summary = self.monthly_summary(row),
                next = next.unwrap_or_default(),
                footer = self.monthly_footer(),
            ),
        }
    }

    /// A month's charge failed: change the card before the next attempt.
    pub fn monthly_failed(&self, row: &SubscriptionRecord, next_attempt: Option<DateTime<Utc>>) -> OutgoingMail {
        let retry = match next_attempt {
            Some(at) => format!(
                "{}にあらためてお支払いを試みます。それまでに、以下のページからお支払いに使うクレジットカードを変更してください。\n",
                japanese_date(tokyo_date(at))
            ),
            None => "お支払いを再度試みることができなかったため、毎月のご支援は停止されます。\n".to_string(),
        };
        OutgoingMail {
            to: row.email.clone(),
            subject: self.monthly_subject("毎月のご支援のお支払いができませんでした"),
            text_body: format!(
                "{name} 様\n\n毎月のご支援のお支払いに、登録されているクレジットカードをご利用いただけませんでした。\n{retry}\nお支払い方法の変更：{url}/edit/payment\n\n{summary}{footer}",
                name = row.display_name,
                url = self.site.public_url,
                summary = self.monthly_summary(row),
                footer = self.monthly_footer(),
            ),
        }
    }

    /// The subscription is over.
    pub fn monthly_ended(&self, row: &SubscriptionRecord, payment_failed: bool) -> OutgoingMail {
        let why = if payment_failed {
            "お支払いを何度か試みましたが完了できなかったため、毎月のご支援を終了しました。"
        } else {
            "毎月のご支援が終了しました。"
        };
        OutgoingMail {
            to: row.email.clone(),
            subject: self.monthly_subject("毎月のご支援が終了しました"),
            text_body: format!(
                "{name} 様\n\n{why}\nこれまでのご支援、誠にありがとうございました。\n\n{summary}\n\
                 あらためてご支援いただく場合は、プロジェクトページからお申し込みください：{url}/projects/{slug}/\n{footer}",
                name = row.display_name,
                summary = self.monthly_summary(row),
                url = self.site.public_url,
                slug = row.project_slug,
                footer = self.monthly_footer(),
            ),
        }
    }

    /// Stopping at the period's end: by the member, for want of a card, or with the project.
    pub fn monthly_stopping(&self, row: &SubscriptionRecord, why: StopReason) -> OutgoingMail {
        let why = match why {
            StopReason::Member => "毎月のご支援の停止を承りました。",
            StopReason::NoCardLeft => {
                "お支払いに使われていたクレジットカードが削除され、ほかに登録済みのカードがないため、毎月のご支援を停止します。"
            }
            StopReason::ProjectEnded => "プロジェクトの終了にともない、毎月のご支援を停止します。",
        };
        let until = row
            .current_period_end
            .map(|d| {
                format!(
                    "{}までのご支援期間はそのまま続き、以降のお支払いはありません。\n",
                    japanese_date(tokyo_date(d))
                )
            })
            .unwrap_or_default();
        OutgoingMail {
            to: row.email.clone(),
            subject: self.monthly_subject("毎月のご支援の停止について"),
            text_body: format!(
                "{name} 様\n\n{why}\n{until}\n{summary}{footer}",
                name = row.display_name,
                summary = self.monthly_summary(row),
                footer = self.monthly_footer(),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::account::Email;
    use domain::ids::{ProjectId, ReturnId};

    fn order(supporter: Supporter, pay_type: PayType, card: Option<CardChoice>, lot: i64) -> SupportOrder {
        SupportOrder {
            supporter,
            project: ProjectId(1),
            ret: ReturnId(2),
            lot,
            pay_type,
            idempotency_key: "key-12345678".into(),
            supporter_name: "山田".into(),
            corporate_url: None,
            logo_url_id: None,
            anonymous: false,
            comment: None,
            additional_value: None,
            address: None,
            agreed_to_terms: true,
            not_antisocial: true,
            card,
        }
    }

    #[test]
    fn a_monthly_return_is_for_members_paying_by_a_saved_card_one_unit_at_a_time() {
        let saved = Some(CardChoice::Saved(PaymentMethodId::new("card_1")));
        let member = Supporter::Member(UserId(1));
        assert!(check_monthly_order(&order(member.clone(), PayType::Card, saved.clone(), 1)).is_ok());
        let guest = Supporter::Guest(Email::parse("g@example.jp").unwrap());
        assert!(matches!(
            check_monthly_order(&order(guest, PayType::Card, None, 1)),
            Err(SupportError::MonthlyRefused(MSG_MONTHLY_MEMBERS_ONLY))
        ));
        assert!(matches!(
            check_monthly_order(&order(member.clone(), PayType::BankTransfer, None, 1)),
            Err(SupportError::MonthlyRefused(MSG_MONTHLY_CARD_ONLY))
        ));
        let typed = Some(CardChoice::New { token: super::super::gateway::CardToken::new("tok_1"), save: true });
        let Err(SupportError::Invalid(problems)) = check_monthly_order(&order(member.clone(), PayType::Card, typed, 2))
        else {
            panic!("a typed card and two units must be refused");
        };
        let fields: Vec<_> = problems.iter().map(|p| p.field).collect();
        assert_eq!(fields, ["card", "lot"]);
    }

    #[test]
    fn plan_ids_come_from_the_return_the_amount_and_the_namespace() {
        let plan = monthly_plan(Some("test_db"), 7, "サポーターズクラブ", domain::money::Yen(1100));
        assert_eq!(plan.plan_id, "plan_test_db_return_7_1100jpy");
        assert_eq!(plan.product_id, "prod_test_db_return_7");
        assert_eq!(monthly_plan(None, 7, "x", domain::money::Yen(1100)).plan_id, "plan_return_7_1100jpy");
        assert_ne!(plan.plan_id, monthly_plan(Some("test_db"), 7, "x", domain::money::Yen(2200)).plan_id);
    }
}
