//! Backing a project: the one operation that places a support (validate,
//! price, write the sale, then ask the provider), and everything that brings
//! the provider's later answers to the sale — the status check after 3-D
//! Secure, signed webhooks, the reconciliation sweep and the transfer
//! deadline sweep. Every path records through
//! [`SupportLedger::record_payment`], which only moves a sale forward, so
//! answers arriving twice, late or out of order change nothing.

use chrono::{DateTime, Duration, Utc};
use domain::account::Email;
use domain::comment::CommentText;
use domain::ids::{ProjectId, ReturnId, SaleId, UserId};
use domain::lot::Lot;
use domain::money::{MoneyError, PriceBreakdown, Yen};
use domain::payment::{
    bank_transfer_deadline, check_payment_amounts, validate_info_step, AdditionalField, InfoStepError, InfoStepInput,
    PayType, PaymentMismatch, SaleStatus,
};
use domain::profile::AddressError;
use domain::returns::{check_purchase, PurchaseBlock};
use domain::time::tokyo_date;

use super::gateway::{
    BankTransferRequest, CardCharge, CardToken, CustomerId, Destination, GatewayError, IdempotencyKey, KeyNamespace,
    KeyPurpose, NewCustomer, NextAction, Payment, PaymentGateway, PaymentMethodId, WebhookError,
};
use super::ledger::{
    Checkout, DeliveryAddress, GuestLookup, NewSale, PaymentReport, PlaceError, Placed, Recorded, SaleRecord,
    SupportLedger,
};
use super::mails::PaymentMails;
use crate::clock::Clock;
use crate::mailer::Mailer;
use crate::RepoError;

/// Who is backing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Supporter {
    Member(UserId),
    /// A guest, known by e-mail only (spec 000 §6).
    Guest(Email),
}

/// The card a support is paid with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CardChoice {
    /// One of the member's saved cards.
    Saved(PaymentMethodId),
    /// A card tokenised in the browser for this payment; `save` keeps it on
    /// the member's account (guests never save).
    New { token: CardToken, save: bool },
}

/// Step 1's data, the method and the card, as the client sent them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SupportOrder {
    pub supporter: Supporter,
    pub project: ProjectId,
    pub ret: ReturnId,
    pub lot: i64,
    pub pay_type: PayType,
    pub idempotency_key: String,
    pub supporter_name: String,
    pub corporate_url: Option<String>,
    pub logo_url_id: Option<i64>,
    pub anonymous: bool,
    pub comment: Option<String>,
    pub additional_value: Option<String>,
    pub address: Option<AddressChoice>,
    pub agreed_to_terms: bool,
    pub not_antisocial: bool,
    pub card: Option<CardChoice>,
}

/// The delivery address as sent: typed, or one of the member's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AddressChoice {
    New(domain::profile::AddressInput),
    Saved(i64),
}

/// A sale and what the supporter must still do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SupportOutcome {
    pub sale: SaleRecord,
    /// 3-D Secure to finish in the browser (the client secret).
    pub authenticate: Option<String>,
    /// The monthly support this sale started (our subscription id).
    pub subscription: Option<i64>,
}

/// One refused field of the support form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldProblem {
    pub field: &'static str,
    pub message: String,
}

/// Shown when the card was refused; the provider's own text is English.
pub const MSG_CARD_DECLINED: &str = "カードが承認されませんでした。別のカードをお試しください。";
/// The spec's failure of the payment call (001 §8).
pub const MSG_PAYMENT_FAILED: &str = "決済の登録に失敗しました";
/// A member's address used for a guest support.
pub const MSG_MEMBER_EXISTS: &str = "このメールアドレスは会員登録済みです。ログインしてからご支援ください。";
pub const MSG_PAYMENT_TYPE_NOT_ACCEPTED: &str = "このプロジェクトではご指定のお支払い方法をご利用いただけません。";
pub const MSG_CARD_UNUSABLE: &str = "カード情報を確認できませんでした。もう一度カード情報を入力してください。";
pub const MSG_CARD_REQUIRED: &str = "お支払いに使うクレジットカードを選択してください。";
pub const MSG_IDEMPOTENCY_KEY: &str = "リクエストの形式が正しくありません。";
/// A key sent again with another order (the page was reused for a new one).
pub const MSG_KEY_REUSED: &str =
    "この申し込みは別の内容で受け付け済みです。ページを再読み込みしてからお申し込みください。";
/// Saved cards and addresses belong to members.
pub const MSG_LOGIN_REQUIRED: &str = "ログインが必要です。";

#[derive(Debug, thiserror::Error)]
pub enum SupportError {
    /// Step 1's rules refused these fields; nothing was written.
    #[error("invalid support")]
    Invalid(Vec<FieldProblem>),
    /// Unknown project or return, or the return is not the project's.
    #[error("not found")]
    NotFound,
    #[error("{}", MSG_PAYMENT_TYPE_NOT_ACCEPTED)]
    PaymentTypeNotAccepted,
    /// Sold out, not enough left, disabled, ended: no sale, no provider call.
    #[error(transparent)]
    Blocked(#[from] PurchaseBlock),
    #[error("{}", MSG_MEMBER_EXISTS)]
    MemberExists,
    /// A saved card or address without a member session.
    #[error("{}", MSG_LOGIN_REQUIRED)]
    LoginRequired,
    /// A monthly return backed by a guest or by bank transfer (409).
    #[error("{0}")]
    MonthlyRefused(&'static str),
    /// The member already supports this return monthly (our subscription id).
    #[error("{}", super::subscriptions::MSG_MONTHLY_RUNNING)]
    MonthlyRunning(i64),
    /// The card was refused; the sale failed and released its lots.
    #[error("{}", MSG_CARD_DECLINED)]
    Declined,
    /// The provider did not answer; the sale holds its lots and a retry with
    /// the same key continues it.
    #[error("{}", MSG_PAYMENT_FAILED)]
    Unavailable,
    /// A storage rule refused the write (the HTTP layer maps the constraint
    /// to the field's message); nothing was written.
    #[error("refused by the storage rule {}", .0.name)]
    Refused(crate::ConstraintViolation),
    /// The idempotency key was used before for another order (project,
    /// return, lots or method): nothing written, as the provider answers a
    /// key reused with other parameters.
    #[error("{}", MSG_KEY_REUSED)]
    KeyReused,
    /// The provider's payment does not match the sale (amount, money
    /// received): not applied, logged for a person to look at.
    #[error("provider report does not match the sale: {0}")]
    Mismatch(PaymentMismatch),
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}

impl From<RepoError> for SupportError {
    fn from(error: RepoError) -> Self {
        match (error.violation(), error) {
            (_, RepoError::NotFound) => Self::NotFound,
            (Some(violation), _) => Self::Refused(violation),
            (None, other) => Self::Unexpected(other.into()),
        }
    }
}

impl From<MoneyError> for SupportError {
    fn from(error: MoneyError) -> Self {
        Self::Unexpected(error.into())
    }
}

/// Why a webhook was not applied.
#[derive(Debug, thiserror::Error)]
pub enum WebhookApplyError {
    /// 400: not from the provider, or unreadable.
    #[error(transparent)]
    Refused(#[from] WebhookError),
    /// 500: recorded but not applied; the provider sends it again and the
    /// reconciler retries it.
    #[error(transparent)]
    Failed(#[from] anyhow::Error),
}

/// What one sweep did, for the logs and the reconcile command.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SweepReport {
    pub checked: usize,
    pub changed: usize,
    pub failed: usize,
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait Supports: Send + Sync {
    /// The figures of `lot` units of a return, as the support call will charge them.
    /// `NotFound` also for a return shown only to another address than
    /// `viewer`'s (the project page's rule).
    async fn quote(
        &self,
        project: ProjectId,
        ret: ReturnId,
        lot: i64,
        viewer: Option<Email>,
    ) -> Result<PriceBreakdown, SupportError>;

    /// Makes (or finds) the guest account of an e-mail at step 1; `true`
    /// when it existed already. A member's address is `MemberExists`.
    async fn register_guest(&self, email: &Email) -> Result<bool, SupportError>;

    /// Places a support. A repeat of the same idempotency key answers with
    /// the same sale and never charges twice.
    async fn place(&self, order: SupportOrder) -> Result<SupportOutcome, SupportError>;

    /// The sale now, after asking the provider when it is not final.
    async fn status(&self, sale: SaleId) -> Result<SupportOutcome, SupportError>;

    /// Verifies and applies a provider webhook, once per event id.
    async fn apply_webhook(&self, payload: &str, signature: &str) -> Result<(), WebhookApplyError>;

    /// Asks the provider about every sale left unsettled for a while, and
    /// applies events received but not applied.
    async fn reconcile(&self) -> Result<SweepReport, SupportError>;

    /// Cancels the sales of bank transfers past their deadline (their lots
    /// return) but leaves the provider's payment open, so that money sent
    /// late still pays it; closes at the provider the payments of transfers
    /// whose grace period ([`SupportConfig::transfer_grace`]) is over,
    /// flagging for refund those that received part of the money. Also stops
    /// the monthly supports of projects that ended.
    async fn expire_transfers(&self) -> Result<SweepReport, SupportError>;
}

/// Settings of the flow.
#[derive(Debug, Clone)]
pub struct SupportConfig {
    pub namespace: KeyNamespace,
    /// A sale unsettled this long is checked with the provider.
    pub reconcile_after: Duration,
    /// Sales handled per sweep.
    pub sweep_batch: i64,
    /// How long after its deadline a cancelled transfer's payment stays open
    /// at the provider, so that money sent late still pays it; the sweep then
    /// closes it.
    pub transfer_grace: Duration,
    /// A cancelled transfer whose payment is still open is asked about this
    /// long after its last check (a late payment's webhook may have been
    /// missed).
    pub late_check_after: Duration,
}

/// [`SupportConfig::transfer_grace`] unless configured: about a month.
pub const TRANSFER_GRACE_DAYS: i64 = 30;

impl Default for SupportConfig {
    fn default() -> Self {
        Self {
            namespace: KeyNamespace::none(),
            reconcile_after: Duration::minutes(2),
            sweep_batch: 100,
            transfer_grace: Duration::days(TRANSFER_GRACE_DAYS),
            late_check_after: Duration::minutes(10),
        }
    }
}

pub struct SupportService<L, G, M, C> {
    pub(crate) ledger: L,
    pub(crate) gateway: G,
    pub(crate) mailer: M,
    pub(crate) clock: C,
    pub(crate) mails: PaymentMails,
    pub(crate) config: SupportConfig,
}

impl<L, G, M, C> SupportService<L, G, M, C> {
    pub fn new(ledger: L, gateway: G, mailer: M, clock: C, mails: PaymentMails, config: SupportConfig) -> Self {
        Self { ledger, gateway, mailer, clock, mails, config }
    }
}

/// The provider's answer about a payment of `sale`, in the ledger's terms;
/// refused when the payment is not for the sale's total or claims to be paid
/// without having received it all (see [`check_payment_amounts`]).
fn report_for(sale: &SaleRecord, payment: &Payment) -> Result<PaymentReport, SupportError> {
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
        one_time_card: None,
        card: None,
    })
}

fn authenticate_secret(payment: &Payment) -> Option<String> {
    match &payment.next_action {
        Some(NextAction::Authenticate { client_secret }) => Some(client_secret.clone()),
        _ => None,
    }
}

const fn is_final(status: SaleStatus) -> bool {
    matches!(status, SaleStatus::Succeeded | SaleStatus::Failed | SaleStatus::Canceled)
}

impl<L: SupportLedger, G: PaymentGateway, M: Mailer, C: Clock> SupportService<L, G, M, C> {
    pub(crate) async fn checkout(&self, project: ProjectId, ret: ReturnId) -> Result<Checkout, SupportError> {
        self.ledger.checkout(project, ret).await?.ok_or(SupportError::NotFound)
    }

    /// The account a support is written to, and its e-mail.
    async fn supporter_account(&self, supporter: &Supporter) -> Result<(UserId, Email), SupportError> {
        match supporter {
            Supporter::Member(user) => Ok((*user, self.ledger.member_email(*user).await?)),
            Supporter::Guest(email) => match self.ledger.lookup_guest(email).await? {
                GuestLookup::Guest(user) => Ok((user, email.clone())),
                GuestLookup::Member => Err(SupportError::MemberExists),
                GuestLookup::Unknown => Ok((self.create_guest(email).await?, email.clone())),
            },
        }
    }

    async fn create_guest(&self, email: &Email) -> Result<UserId, SupportError> {
        match self.ledger.create_guest(email).await {
            Ok(user) => Ok(user),
            Err(RepoError::Conflict(_)) => Err(SupportError::MemberExists),
            Err(other) => Err(other.into()),
        }
    }

    /// The user's provider customer, made on first need. The key makes two
    /// first payments at once create one customer.
    pub(crate) async fn customer_for(&self, user: UserId, email: &Email) -> Result<CustomerId, SupportError> {
        ensure_customer(&self.ledger, &self.gateway, &self.config.namespace, user, email).await
    }

    fn validate(&self, order: &SupportOrder, checkout: &Checkout, email: &Email) -> Result<Validated, SupportError> {
        let mut problems = Vec::new();
        let additional =
            checkout.additional.as_ref().map(|q| AdditionalField { label: &q.label, alert: q.alert.as_deref() });
        let step = validate_info_step(&InfoStepInput {
            email: Some(email.as_str()),
            agreed_to_terms: order.agreed_to_terms,
            not_antisocial: order.not_antisocial,
            return_type: checkout.return_type,
            supporter_name: &order.supporter_name,
            corporate_url: order.corporate_url.as_deref(),
            lot: order.lot,
            lot_disable: checkout.lot_disable,
            address_label: checkout.address_label.as_deref(),
            has_address: order.address.is_some(),
            additional,
            additional_value: order.additional_value.as_deref(),
        });
        let step = step.map_err(|errors| problems.extend(errors.iter().map(info_problem))).ok();
        // The same length and character rules the stored display name and answer have (the domain's
        // step-1 check only asks for presence), so an over-long value is a 400, never a refused INSERT.
        if !order.supporter_name.trim().is_empty() {
            if let Err(error) = domain::profile::display_name(&order.supporter_name) {
                problems.push(FieldProblem { field: "displayname", message: error.to_string() });
            }
        }
        if let Some(answer) = order.additional_value.as_deref().filter(|a| !a.trim().is_empty()) {
            if let Err(error) = domain::text::rules::ADDITIONAL_DATA.parse(answer) {
                problems.push(FieldProblem { field: "additionalData", message: error.to_string() });
            }
        }
        let address = match &order.address {
            Some(AddressChoice::New(input)) => match input.validate() {
                Ok(address) => Some(DeliveryAddress::New(address)),
                Err(errors) => {
                    problems.extend(errors.iter().map(address_problem));
                    None
                }
            },
            Some(AddressChoice::Saved(id)) => Some(DeliveryAddress::Saved(*id)),
            None => None,
        };
        let comment = match order.comment.as_deref().map(str::trim).filter(|c| !c.is_empty()) {
            Some(raw) => match CommentText::parse(raw) {
                Ok(text) => Some(text.as_str().to_string()),
                Err(error) => {
                    problems.push(FieldProblem { field: "comment", message: error.to_string() });
                    None
                }
            },
            None => None,
        };
        if !(8..=200).contains(&order.idempotency_key.len())
            || !order.idempotency_key.bytes().all(|b| b.is_ascii_graphic())
        {
            problems.push(FieldProblem { field: "idempotencyKey", message: MSG_IDEMPOTENCY_KEY.to_string() });
        }
        if order.pay_type == PayType::Card && order.card.is_none() {
            problems.push(FieldProblem { field: "card", message: MSG_CARD_REQUIRED.to_string() });
        }
        match step {
            Some(step) if problems.is_empty() => Ok(Validated { step, address, comment }),
            _ => Err(SupportError::Invalid(problems)),
        }
    }

    /// Sends the provider request of a sale: charge the card or open the
    /// transfer, with the sale's own key, and records the answer. Safe to
    /// repeat: the provider answers a repeated key with its first answer.
    async fn ask_provider(
        &self,
        sale: &SaleRecord,
        customer: &CustomerId,
        card: Option<&PaymentMethodId>,
    ) -> Result<SupportOutcome, SupportError> {
        let key = IdempotencyKey::for_sale(&self.config.namespace, sale.id, KeyPurpose::Confirm);
        let destination = sale
            .connected_account
            .clone()
            .map(|account| Destination { account, application_fee: sale.application_fee });
        let answer = match (sale.pay_type, card) {
            (PayType::Card, Some(card)) => {
                let charge = CardCharge {
                    sale_id: sale.id,
                    amount: sale.terms.total,
                    payment_method: card.clone(),
                    customer: Some(customer.clone()),
                    destination,
                };
                self.gateway.charge_card(charge, key).await
            }
            (PayType::Card, None) => {
                return Err(SupportError::Invalid(vec![FieldProblem {
                    field: "card",
                    message: MSG_CARD_REQUIRED.to_string(),
                }]))
            }
            (PayType::BankTransfer, _) => {
                let transfer = BankTransferRequest {
                    sale_id: sale.id,
                    amount: sale.terms.total,
                    customer: customer.clone(),
                    destination,
                };
                self.gateway.start_bank_transfer(transfer, key).await
            }
        };
        match answer {
            Ok(payment) => {
                let recorded = self.record(sale.id, report_for(sale, &payment)?).await?;
                Ok(SupportOutcome {
                    authenticate: authenticate_secret(&payment),
                    sale: recorded.sale,
                    subscription: None,
                })
            }
            Err(GatewayError::Declined { message, code, payment, .. }) => {
                tracing::info!(sale = %sale.id, %message, ?code, "card declined");
                let report = PaymentReport { payment, status: SaleStatus::Failed, ..PaymentReport::empty() };
                self.record(sale.id, report).await?;
                Err(SupportError::Declined)
            }
            Err(error @ (GatewayError::Unavailable(_) | GatewayError::Unexpected(_))) => {
                tracing::warn!(sale = %sale.id, %error, "provider did not answer; the sale waits for a retry or the reconciler");
                Err(SupportError::Unavailable)
            }
            Err(other) => {
                tracing::error!(sale = %sale.id, error = %other, "provider refused the payment request");
                let report = PaymentReport { status: SaleStatus::Failed, ..PaymentReport::empty() };
                self.record(sale.id, report).await?;
                Err(SupportError::Unexpected(other.into()))
            }
        }
    }

    /// Records a report, then does what the move calls for: mails, and
    /// removing a card that was only for this payment.
    pub(crate) async fn record(&self, sale: SaleId, report: PaymentReport) -> Result<Recorded, SupportError> {
        let recorded = self.ledger.record_payment(sale, report, self.clock.now()).await?;
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
            (SaleStatus::AwaitingBankTransfer, _) if previous == SaleStatus::Pending => {
                self.mails.transfer_instructions(sale)
            }
            (SaleStatus::Canceled, PayType::BankTransfer) => Some(self.mails.transfer_expired(sale)),
            _ => None,
        };
        if let Some(mail) = mail {
            // The queue is in the same database as the sale; if it refuses, the payment stands and the log says so.
            if let Err(error) = self.mailer.send(mail).await {
                tracing::error!(sale = %sale.id, %error, "payment mail not queued");
            }
        }
        if let (true, Some(card)) = (is_final(sale.status), &sale.one_time_card) {
            self.forget_card(sale, card).await;
        }
    }

    async fn forget_card(&self, sale: &SaleRecord, card: &PaymentMethodId) {
        let customer = match self.ledger.customer(sale.user).await {
            Ok(Some(customer)) => customer,
            _ => return,
        };
        match self.gateway.delete_card(&customer, card).await {
            Ok(()) | Err(GatewayError::NotFound(_)) => {}
            Err(error) => tracing::warn!(sale = %sale.id, %error, "one-time card not removed"),
        }
    }

    /// The provider's view of a sale with a payment, recorded.
    async fn refresh(&self, sale: SaleRecord) -> Result<SupportOutcome, SupportError> {
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

    /// Continues a sale: its stored state, the provider's when it has a
    /// payment, or the provider request (again) when none got an answer yet.
    /// A card sale with no card to charge (its browser token is gone) is
    /// cancelled, so its lots return.
    async fn resume(
        &self,
        sale: SaleRecord,
        card: Option<&CardChoice>,
        may_save_card: bool,
    ) -> Result<SupportOutcome, SupportError> {
        if sale.status == SaleStatus::Pending && self.ledger.subscription_by_sale(sale.id).await?.is_some() {
            return self.start_monthly(sale, None).await;
        }
        match sale.status {
            SaleStatus::Failed => Err(SupportError::Declined),
            SaleStatus::Pending if sale.payment.is_none() => {
                let customer = self.customer_for(sale.user, &sale.email).await?;
                let card = match (sale.pay_type, &sale.card, card) {
                    (PayType::Card, Some(stored), _) => Some(stored.clone()),
                    (PayType::Card, None, Some(choice)) => {
                        Some(self.prepare_card(&sale, &customer, choice, may_save_card).await?)
                    }
                    _ => None,
                };
                if sale.pay_type == PayType::Card && card.is_none() {
                    let report = PaymentReport { status: SaleStatus::Canceled, ..PaymentReport::empty() };
                    let recorded = self.record(sale.id, report).await?;
                    return Ok(SupportOutcome { sale: recorded.sale, authenticate: None, subscription: None });
                }
                self.ask_provider(&sale, &customer, card.as_ref()).await
            }
            _ if is_final(sale.status) => Ok(SupportOutcome { sale, authenticate: None, subscription: None }),
            _ => self.refresh(sale).await,
        }
    }

    /// What can be checked about the card before a sale holds any stock: a
    /// saved card is one of the member's own, a typed card's token exists.
    async fn check_card(&self, user: UserId, card: &CardChoice) -> Result<(), SupportError> {
        match card {
            CardChoice::Saved(card) => {
                let Some(customer) = self.ledger.customer(user).await? else { return Err(SupportError::NotFound) };
                let owned = self.gateway.cards(&customer).await.map_err(provider_error)?;
                if owned.cards.iter().any(|c| &c.id == card) {
                    Ok(())
                } else {
                    Err(SupportError::NotFound)
                }
            }
            CardChoice::New { token, .. } => match self.gateway.check_card_token(token).await {
                Ok(()) => Ok(()),
                Err(GatewayError::NotFound(_) | GatewayError::Rejected(_)) => Err(card_unusable()),
                Err(other) => Err(provider_error(other)),
            },
        }
    }

    /// The card to charge for a sale: a saved card of the customer, or the
    /// typed one attached now (by the sale's key, so a retry attaches it
    /// once). Stored on the sale before any charge, so a retry or the
    /// reconciler repeats the very same request.
    async fn prepare_card(
        &self,
        sale: &SaleRecord,
        customer: &CustomerId,
        choice: &CardChoice,
        may_save: bool,
    ) -> Result<PaymentMethodId, SupportError> {
        let (card, one_time) = match choice {
            // Checked to be the member's before the sale was written (`check_card`).
            CardChoice::Saved(card) => (card.clone(), false),
            CardChoice::New { token, save } => {
                let key = IdempotencyKey::for_sale(&self.config.namespace, sale.id, KeyPurpose::AttachCard);
                match self.gateway.add_card(customer, token, key).await {
                    Ok(card) => (card.id, !(may_save && *save)),
                    Err(GatewayError::Declined { message, .. }) => {
                        tracing::info!(sale = %sale.id, %message, "card refused when attached");
                        self.record(sale.id, PaymentReport { status: SaleStatus::Failed, ..PaymentReport::empty() })
                            .await?;
                        return Err(SupportError::Declined);
                    }
                    Err(error @ (GatewayError::NotFound(_) | GatewayError::Rejected(_))) => {
                        // The provider will never take this token: the lots go back now, not at the next sweep.
                        tracing::info!(sale = %sale.id, %error, "card token refused when attached");
                        self.record(sale.id, PaymentReport { status: SaleStatus::Failed, ..PaymentReport::empty() })
                            .await?;
                        return Err(card_unusable());
                    }
                    Err(other) => return Err(provider_error(other)),
                }
            }
        };
        let report = PaymentReport {
            card: Some(card.clone()),
            one_time_card: one_time.then(|| card.clone()),
            ..PaymentReport::empty()
        };
        self.ledger.record_payment(sale.id, report, self.clock.now()).await?;
        Ok(card)
    }
}

/// Whether a sale found by its idempotency key is the order sent again.
fn is_same_order(sale: &SaleRecord, order: &SupportOrder, terms: &PriceBreakdown) -> bool {
    sale.project_id == order.project
        && sale.return_id == order.ret
        && sale.pay_type == order.pay_type
        && &sale.terms == terms
}

struct Validated {
    step: domain::payment::InfoStep,
    address: Option<DeliveryAddress>,
    comment: Option<String>,
}

fn info_problem(error: &InfoStepError) -> FieldProblem {
    let field = match error {
        InfoStepError::Email(_) => "email",
        InfoStepError::TermsNotAccepted => "agreeTerms",
        InfoStepError::AntisocialNotConfirmed => "notAntisocial",
        InfoStepError::SupporterName(_) => "displayname",
        InfoStepError::Url(_) => "corporateurl",
        InfoStepError::Lot(_) => "lot",
        InfoStepError::AddressRequired { .. } => "address",
        InfoStepError::AdditionalRequired { .. } => "additionalData",
    };
    FieldProblem { field, message: error.to_string() }
}

/// A typed card the provider does not know (made up, or from another account).
fn card_unusable() -> SupportError {
    SupportError::Invalid(vec![FieldProblem { field: "card", message: MSG_CARD_UNUSABLE.to_string() }])
}

fn address_problem(error: &AddressError) -> FieldProblem {
    FieldProblem { field: error.field(), message: error.to_string() }
}

pub(crate) fn provider_error(error: GatewayError) -> SupportError {
    match error {
        GatewayError::Unavailable(_) | GatewayError::Unexpected(_) => SupportError::Unavailable,
        GatewayError::NotFound(_) => SupportError::NotFound,
        other => SupportError::Unexpected(other.into()),
    }
}

/// The user's provider customer, made (once, by key) on first need.
pub(crate) async fn ensure_customer<L: SupportLedger, G: PaymentGateway>(
    ledger: &L,
    gateway: &G,
    namespace: &KeyNamespace,
    user: UserId,
    email: &Email,
) -> Result<CustomerId, SupportError> {
    if let Some(customer) = ledger.customer(user).await? {
        return Ok(customer);
    }
    let new = NewCustomer { user_id: user, email: email.clone(), name: None };
    let created =
        gateway.create_customer(new, IdempotencyKey::for_customer(namespace, user)).await.map_err(provider_error)?;
    Ok(ledger.save_customer(user, &created).await?)
}

impl PaymentReport {
    /// A report that only sets what its caller fills in.
    pub fn empty() -> Self {
        Self {
            payment: None,
            status: SaleStatus::Pending,
            amount_remaining: None,
            instructions: None,
            one_time_card: None,
            card: None,
        }
    }
}

#[async_trait::async_trait]
impl<L: SupportLedger, G: PaymentGateway, M: Mailer, C: Clock> Supports for SupportService<L, G, M, C> {
    async fn quote(
        &self,
        project: ProjectId,
        ret: ReturnId,
        lot: i64,
        viewer: Option<Email>,
    ) -> Result<PriceBreakdown, SupportError> {
        let checkout = self.checkout(project, ret).await?;
        if !domain::returns::is_visible_to(checkout.only_for.as_deref(), viewer.as_ref().map(Email::as_str)) {
            return Err(SupportError::NotFound);
        }
        let lot = Lot::for_return(lot, checkout.lot_disable)
            .map_err(|e| SupportError::Invalid(vec![FieldProblem { field: "lot", message: e.to_string() }]))?;
        Ok(checkout.price_of(lot)?)
    }

    async fn register_guest(&self, email: &Email) -> Result<bool, SupportError> {
        match self.ledger.lookup_guest(email).await? {
            GuestLookup::Guest(_) => Ok(true),
            GuestLookup::Member => Err(SupportError::MemberExists),
            GuestLookup::Unknown => self.create_guest(email).await.map(|_| false),
        }
    }

    async fn place(&self, order: SupportOrder) -> Result<SupportOutcome, SupportError> {
        let is_guest = matches!(order.supporter, Supporter::Guest(_));
        let uses_saved =
            matches!(order.card, Some(CardChoice::Saved(_))) || matches!(order.address, Some(AddressChoice::Saved(_)));
        if is_guest && uses_saved {
            return Err(SupportError::LoginRequired);
        }
        let checkout = self.checkout(order.project, order.ret).await?;
        let monthly = checkout.monthly;
        if monthly {
            super::subscriptions::check_monthly_order(&order)?;
        }
        if !checkout.accepts(order.pay_type) {
            return Err(SupportError::PaymentTypeNotAccepted);
        }
        let (user, email) = self.supporter_account(&order.supporter).await?;
        if !domain::returns::is_visible_to(checkout.only_for.as_deref(), Some(email.as_str())) {
            // Offered to someone else: as unknown as a return that does not exist.
            return Err(SupportError::NotFound);
        }
        let valid = self.validate(&order, &checkout, &email)?;
        check_purchase(checkout.remaining, checkout.return_disabled, checkout.project_open, valid.step.lot)?;
        if monthly {
            self.refuse_second_monthly(user, &order).await?;
        }
        if let Some(card) = &order.card {
            self.check_card(user, card).await?;
        }
        let terms = checkout.price_of(valid.step.lot)?;
        let now = self.clock.now();
        let new_sale = NewSale {
            user,
            project: order.project,
            ret: order.ret,
            pay_type: order.pay_type,
            terms,
            application_fee: checkout.fee_for(terms.total, order.pay_type),
            connected_account: checkout.connected_account.clone(),
            idempotency_key: order.idempotency_key.clone(),
            display_name: valid.step.supporter_name,
            anonymous: order.anonymous,
            corporate_url: valid.step.corporate_url.map(|u| u.as_str().to_string()),
            logo_url_id: order.logo_url_id,
            comment: valid.comment,
            additional: checkout
                .additional
                .as_ref()
                .zip(valid.step.additional_value)
                .map(|(q, v)| (q.label.clone(), v)),
            address: valid.address,
            transfer_deadline: (order.pay_type == PayType::BankTransfer).then(|| transfer_deadline_for(now)),
        };
        let sale = match self.ledger.place(new_sale).await {
            Ok(Placed::New(sale)) => sale,
            // A retry continues its sale; the same key for another order is the client's mistake, never a success.
            Ok(Placed::Existing(sale)) if is_same_order(&sale, &order, &terms) => sale,
            Ok(Placed::Existing(_)) => return Err(SupportError::KeyReused),
            Err(PlaceError::Blocked(block)) => return Err(SupportError::Blocked(block)),
            Err(PlaceError::Repo(error)) => return Err(error.into()),
        };
        if monthly {
            return self.start_monthly(sale, order.card.as_ref()).await;
        }
        self.resume(sale, order.card.as_ref(), !is_guest).await
    }

    async fn status(&self, sale: SaleId) -> Result<SupportOutcome, SupportError> {
        let sale = self.ledger.sale(sale).await?.ok_or(SupportError::NotFound)?;
        let mut outcome = if is_final(sale.status) {
            SupportOutcome { sale, authenticate: None, subscription: None }
        } else {
            self.refresh(sale).await?
        };
        // A monthly return's first month says so after a reload or 3-D Secure too, as its placing answer did.
        if outcome.subscription.is_none() {
            outcome.subscription = self.ledger.subscription_by_sale(outcome.sale.id).await?.map(|s| s.id);
        }
        Ok(outcome)
    }

    async fn apply_webhook(&self, payload: &str, signature: &str) -> Result<(), WebhookApplyError> {
        let body: serde_json::Value =
            serde_json::from_str(payload).map_err(|e| WebhookError::BadPayload(e.to_string()))?;
        let event = match self.gateway.verify_webhook(payload, signature) {
            Ok(event) => event,
            // Signed by the provider but of a shape we do not read: acknowledged and kept, as the provider expects.
            Err(WebhookError::BadPayload(reason)) => return self.keep_unreadable_event(body, &reason).await,
            Err(refused) => return Err(refused.into()),
        };
        let object_id = event
            .payment
            .as_ref()
            .map(|p| p.id.as_str().to_string())
            .or_else(|| event.invoice.as_ref().map(|i| i.id.as_str().to_string()))
            .or_else(|| event.subscription.as_ref().map(|s| s.id.as_str().to_string()));
        let now = self.clock.now();
        let fresh = self
            .ledger
            .record_event(event.id.as_str(), &event.event_type, object_id, body, now)
            .await
            .map_err(anyhow::Error::from)?;
        if !fresh {
            return Ok(());
        }
        // The signature proves who sent the event, not that its object is current or ours: payments and invoices
        // are read back from the provider and checked against the sale before anything moves.
        let result = match (&event.payment, &event.invoice, &event.subscription) {
            (Some(reported), _, _) => match self.gateway.payment(&reported.id).await {
                Ok(payment) => self.apply_payment(&payment).await,
                Err(error) => Err(provider_error(error)),
            },
            (None, Some(reported), _) => match self.gateway.invoice(&reported.id).await {
                Ok(invoice) => self.apply_invoice(&invoice, event.kind).await,
                Err(error) => Err(provider_error(error)),
            },
            (None, None, Some(subscription)) => self.apply_subscription(subscription).await,
            (None, None, None) => Ok(()),
        };
        let error = result.as_ref().err().map(ToString::to_string);
        self.ledger.finish_event(event.id.as_str(), error, now).await.map_err(anyhow::Error::from)?;
        match result {
            // Kept with its reason for a person to look at; sending it again would not change the answer.
            Err(SupportError::Mismatch(_) | SupportError::NotFound) => Ok(()),
            other => other.map_err(|e| WebhookApplyError::Failed(e.into())),
        }
    }

    async fn reconcile(&self) -> Result<SweepReport, SupportError> {
        let now = self.clock.now();
        let mut report = SweepReport::default();
        let stale = self.ledger.unsettled(now - self.config.reconcile_after, self.config.sweep_batch).await?;
        for sale in stale {
            report.checked += 1;
            let before = sale.status;
            match self.resume(sale, None, false).await {
                Ok(outcome) if outcome.sale.status != before => report.changed += 1,
                Ok(_) | Err(SupportError::Declined) => {}
                Err(error) => {
                    tracing::warn!(%error, "reconciliation of a sale failed; next sweep retries");
                    report.failed += 1;
                }
            }
        }
        // Cancelled transfers whose payment is still open: money may have arrived late while no webhook got through.
        for sale in self.ledger.late_transfers(now - self.config.late_check_after, self.config.sweep_batch).await? {
            report.checked += 1;
            match self.refresh(sale).await {
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
        for (event_id, payment_id) in self.ledger.unapplied_event_payments(self.config.sweep_batch).await? {
            report.checked += 1;
            let applied = match self.gateway.payment(&payment_id).await {
                Ok(payment) => self.apply_payment(&payment).await,
                Err(error) => Err(provider_error(error)),
            };
            let error = applied.as_ref().err().map(ToString::to_string);
            if error.is_some() {
                report.failed += 1;
            } else {
                report.changed += 1;
            }
            self.ledger.finish_event(&event_id, error, now).await?;
        }
        let monthly = self.reconcile_subscriptions().await?;
        report.checked += monthly.checked;
        report.changed += monthly.changed;
        report.failed += monthly.failed;
        Ok(report)
    }

    async fn expire_transfers(&self) -> Result<SweepReport, SupportError> {
        let today = tokyo_date(self.clock.now());
        let mut report = self.stop_ended_projects().await?;
        for sale in self.ledger.overdue_transfers(today, self.config.sweep_batch).await? {
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
        let grace_over = today - self.config.transfer_grace;
        for sale in self.ledger.transfers_to_close(grace_over, self.config.sweep_batch).await? {
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
}

impl<L: SupportLedger, G: PaymentGateway, M: Mailer, C: Clock> SupportService<L, G, M, C> {
    /// Cancels an overdue transfer's sale (its lots return, the supporter is
    /// told) after reading its payment: one paid (or being settled) just now
    /// is recorded as the provider says. The payment itself stays open at the
    /// provider until the grace period is over.
    async fn expire(&self, sale: &SaleRecord) -> Result<Recorded, SupportError> {
        let cancel = PaymentReport { status: SaleStatus::Canceled, ..PaymentReport::empty() };
        let Some(payment_id) = &sale.payment else { return self.record(sale.id, cancel).await };
        match self.gateway.payment(payment_id).await {
            Ok(payment) => {
                let said = report_for(sale, &payment)?;
                // Money arrived or is being settled: that stands. Anything else is cancelled here.
                let report = match said.status {
                    SaleStatus::Succeeded | SaleStatus::Processing => said,
                    _ => PaymentReport { status: SaleStatus::Canceled, ..said },
                };
                self.record(sale.id, report).await
            }
            Err(GatewayError::NotFound(_)) => self.record(sale.id, cancel).await,
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
        let before = match self.gateway.payment(payment_id).await {
            Ok(payment) => Some(payment),
            Err(GatewayError::NotFound(_)) => None,
            Err(error) => return Err(provider_error(error)),
        };
        let partly = |p: &Payment| p.amount_received > Yen::ZERO || p.amount_remaining < p.amount;
        let partly_paid = stored_partly || before.as_ref().is_some_and(partly);
        if let Some(open) = before.as_ref().filter(|p| partly(p) && !is_final(p.status.sale_status(sale.pay_type))) {
            // What is still owed stays on the sale for the refund: the closed payment no longer shows it.
            self.ledger.record_payment(sale.id, report_for(sale, open)?, self.clock.now()).await?;
        }
        let closed = match before {
            Some(payment) if payment.status == domain::payment::IntentStatus::Succeeded => Some(payment),
            Some(payment) if is_final(payment.status.sale_status(sale.pay_type)) => None,
            Some(_) => Some(self.gateway.cancel_payment(payment_id).await.map_err(provider_error)?),
            None => None,
        };
        if let Some(paid) = closed.filter(|p| p.status == domain::payment::IntentStatus::Succeeded) {
            // Paid in full after all (before or while closing): revived, or flagged when no stock is left.
            self.record(sale.id, report_for(sale, &paid)?).await?;
            return Ok(());
        }
        let closed = self.ledger.close_transfer(sale.id, partly_paid, self.clock.now()).await?;
        if closed.refund_required {
            tracing::warn!(sale = %sale.id, "cancelled transfer closed after part of the money arrived: refund required");
        }
        Ok(())
    }
}

impl<L: SupportLedger, G: PaymentGateway, M: Mailer, C: Clock> SupportService<L, G, M, C> {
    /// Records a signed event this adapter cannot read (a type or shape it
    /// does not know) as finished with the reason, so it is acknowledged once
    /// and visible later; nothing else moves.
    async fn keep_unreadable_event(&self, body: serde_json::Value, reason: &str) -> Result<(), WebhookApplyError> {
        let text = |key: &str| body.get(key).and_then(serde_json::Value::as_str).map(str::to_string);
        let (Some(id), event_type) = (text("id"), text("type").unwrap_or_default()) else {
            tracing::warn!(%reason, "signed webhook without an event id; acknowledged, nothing recorded");
            return Ok(());
        };
        tracing::info!(event = %id, %event_type, %reason, "signed webhook of a shape we do not read; kept");
        let now = self.clock.now();
        let fresh = self.ledger.record_event(&id, &event_type, None, body, now).await.map_err(anyhow::Error::from)?;
        if fresh {
            let note = Some(format!("not read: {reason}"));
            self.ledger.finish_event(&id, note, now).await.map_err(anyhow::Error::from)?;
        }
        Ok(())
    }

    /// Applies what the provider says about a payment to its sale (found by
    /// the sale id the payment carries, or by the payment id). Payments that
    /// are not ours are ignored.
    async fn apply_payment(&self, payment: &Payment) -> Result<(), SupportError> {
        let sale = match payment.sale_id {
            Some(id) => self.ledger.sale(id).await?,
            None => self.ledger.sale_by_payment(&payment.id).await?,
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
}

impl Checkout {
    /// The figures of `lot` units of this return: the one computation the
    /// quote, the sale and the charge share.
    pub fn price_of(&self, lot: Lot) -> Result<PriceBreakdown, MoneyError> {
        PriceBreakdown::for_project(self.price, lot, self.tax_rate, self.is_donation, self.tax_includes)
    }

    /// The application fee of a payment of `total` to this project's
    /// connected account; none without one.
    pub fn fee_for(&self, total: Yen, pay_type: PayType) -> Yen {
        match self.connected_account {
            Some(_) => domain::money::application_fee(total, pay_type, self.fee_schedule),
            None => Yen::ZERO,
        }
    }
}

/// When the deadline of a transfer placed now falls.
pub fn transfer_deadline_for(now: DateTime<Utc>) -> chrono::NaiveDate {
    bank_transfer_deadline(tokyo_date(now))
}

#[cfg(test)]
#[path = "support_tests.rs"]
mod tests;
