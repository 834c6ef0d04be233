//! Placing a support: the one operation that validates step 1, prices the
//! return on the server, writes the sale (taking its lots) and then asks the
//! provider, and the status check after 3-D Secure. A monthly return starts
//! its subscription here. Answers are recorded through [`ProviderReports`].

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use domain::account::Email;
use domain::comment::CommentText;
use domain::extra_amount::{ExtraAmount, ExtraAmountError};
use domain::ids::{ProjectId, ReturnId, SaleId, UserId};
use domain::lot::Lot;
use domain::money::PriceBreakdown;
use domain::payment::{
    bank_transfer_deadline, method_unavailable, payment_deadline, validate_info_step, AdditionalField, InfoStepError,
    InfoStepInput, PayType, SaleStatus,
};
use domain::profile::AddressError;
use domain::returns::check_purchase;
use domain::time::tokyo_date;

use super::apply::{authenticate_secret, is_final, report_for, ProviderReports, ReportStores};
use super::cards::{claim_card, keep_card, may_claim};
use super::customer::ensure_customer;
use super::gateway::{
    BankTransferRequest, CardCharge, CustomerId, Destination, GatewayError, IdempotencyKey, KeyNamespace, KeyPurpose,
    KonbiniRequest, MonthlyPlan, NewSubscription, PaymentEventKind, PaymentGateway, PaymentMethodId,
    ProviderSubscription, SubscriptionState,
};
use super::ledger::{
    Checkout, DeliveryAddress, GuestLookup, NewSale, PaymentReport, PlaceError, Placed, SaleRecord, SubscriptionRecord,
};
use super::outcome::{
    provider_error, FieldProblem, SupportError, SupportOutcome, MSG_CARD_REQUIRED, MSG_CARD_UNUSABLE,
    MSG_IDEMPOTENCY_KEY, MSG_MONTHLY_CARD_ONLY, MSG_MONTHLY_MEMBERS_ONLY, MSG_MONTHLY_ONE_LOT, MSG_MONTHLY_SAVED_CARD,
};
use super::subscriptions::monthly_plan;
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
    /// A card the browser set up for this payment (a PaymentMethod, 3-D
    /// Secure done when the card asked); `save` keeps it on the member's
    /// account (guests never save).
    New { card: PaymentMethodId, save: bool },
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
    /// 上乗せ支援 in whole yen as sent; absent is none.
    pub extra_amount: Option<i64>,
}

/// The delivery address as sent: typed, or one of the member's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AddressChoice {
    New(domain::profile::AddressInput),
    Saved(i64),
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait Supports: Send + Sync {
    /// The figures of `lot` units of a return with `extra` (上乗せ支援) on
    /// top, as the support call will charge them. `NotFound` also for a
    /// return shown only to another address than `viewer`'s (the project
    /// page's rule); `Invalid` for a lot or an extra the support call refuses.
    async fn quote(
        &self,
        project: ProjectId,
        ret: ReturnId,
        lot: i64,
        extra: Option<i64>,
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

/// Placing a support: validate, price, write the sale, then ask the
/// provider; a monthly return starts its subscription here too.
pub struct SupportService<S, G, M, C> {
    core: Arc<ProviderReports<S, G, M, C>>,
}

impl<S, G, M, C> SupportService<S, G, M, C> {
    pub fn new(core: Arc<ProviderReports<S, G, M, C>>) -> Self {
        Self { core }
    }
}

impl<S: ReportStores, G: PaymentGateway, M: Mailer, C: Clock> SupportService<S, G, M, C> {
    pub(crate) async fn checkout(&self, project: ProjectId, ret: ReturnId) -> Result<Checkout, SupportError> {
        self.core.store.checkout(project, ret).await?.ok_or(SupportError::NotFound)
    }

    /// The account a support is written to, and its e-mail.
    async fn supporter_account(&self, supporter: &Supporter) -> Result<(UserId, Email), SupportError> {
        match supporter {
            Supporter::Member(user) => Ok((*user, self.core.store.member_email(*user).await?)),
            Supporter::Guest(email) => match self.core.store.lookup_guest(email).await? {
                GuestLookup::Guest(user) => Ok((user, email.clone())),
                GuestLookup::Member => Err(SupportError::MemberExists),
                GuestLookup::Unknown => Ok((self.create_guest(email).await?, email.clone())),
            },
        }
    }

    async fn create_guest(&self, email: &Email) -> Result<UserId, SupportError> {
        match self.core.store.create_guest(email).await {
            Ok(user) => Ok(user),
            Err(RepoError::Conflict(_)) => Err(SupportError::MemberExists),
            Err(other) => Err(other.into()),
        }
    }

    /// The user's provider customer, made on first need. The key makes two
    /// first payments at once create one customer.
    pub(crate) async fn customer_for(&self, user: UserId, email: &Email) -> Result<CustomerId, SupportError> {
        ensure_customer(&*self.core.store, &self.core.gateway, &self.core.config.namespace, user, email).await
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
        let extra = ExtraAmount::for_return(order.extra_amount, checkout.monthly)
            .map_err(|error| problems.push(extra_problem(error)))
            .ok();
        match (step, extra) {
            (Some(step), Some(extra)) if problems.is_empty() => Ok(Validated { step, address, comment, extra }),
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
        let key = IdempotencyKey::for_sale(&self.core.config.namespace, sale.id, KeyPurpose::Confirm);
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
                self.core.gateway.charge_card(charge, key).await
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
                self.core.gateway.start_bank_transfer(transfer, key).await
            }
            (PayType::Konbini, _) => {
                let Some(deadline) = sale.transfer_deadline else {
                    return Err(SupportError::Unexpected(anyhow::anyhow!("konbini sale {} has no deadline", sale.id)));
                };
                let konbini = KonbiniRequest {
                    sale_id: sale.id,
                    amount: sale.terms.total,
                    customer: customer.clone(),
                    billing_name: sale.display_name.clone(),
                    email: sale.email.clone(),
                    expires_at: voucher_expires_at(deadline),
                    destination,
                };
                self.core.gateway.start_konbini(konbini, key).await
            }
        };
        match answer {
            Ok(payment) => {
                let recorded = self.core.record(sale.id, report_for(sale, &payment)?).await?;
                Ok(SupportOutcome {
                    authenticate: authenticate_secret(&payment),
                    sale: recorded.sale,
                    subscription: None,
                })
            }
            Err(GatewayError::Declined { message, code, payment, .. }) => {
                tracing::info!(sale = %sale.id, %message, ?code, "card declined");
                let report = PaymentReport { payment, status: SaleStatus::Failed, ..PaymentReport::empty() };
                self.core.record(sale.id, report).await?;
                Err(SupportError::Declined)
            }
            Err(error @ (GatewayError::Unavailable(_) | GatewayError::Unexpected(_))) => {
                tracing::warn!(sale = %sale.id, %error, "provider did not answer; the sale waits for a retry or the reconciler");
                Err(SupportError::Unavailable)
            }
            Err(other) => {
                tracing::error!(sale = %sale.id, error = %other, "provider refused the payment request");
                let report = PaymentReport { status: SaleStatus::Failed, ..PaymentReport::empty() };
                self.core.record(sale.id, report).await?;
                Err(SupportError::Unexpected(other.into()))
            }
        }
    }

    /// Continues a sale: its stored state, the provider's when it has a
    /// payment, or the provider request (again) when none got an answer yet.
    /// A card sale with no card to charge (the browser's card is gone) is
    /// cancelled, so its lots return.
    pub(crate) async fn resume(
        &self,
        sale: SaleRecord,
        card: Option<&CardChoice>,
        may_save_card: bool,
    ) -> Result<SupportOutcome, SupportError> {
        if sale.status == SaleStatus::Pending && self.core.store.subscription_by_sale(sale.id).await?.is_some() {
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
                    let recorded = self.core.record(sale.id, report).await?;
                    return Ok(SupportOutcome { sale: recorded.sale, authenticate: None, subscription: None });
                }
                self.ask_provider(&sale, &customer, card.as_ref()).await
            }
            _ if is_final(sale.status) => Ok(SupportOutcome { sale, authenticate: None, subscription: None }),
            _ => self.core.refresh(sale).await,
        }
    }

    /// What can be checked about the card before a sale holds any stock: a
    /// saved card is one of the member's own, a typed card exists at the
    /// provider and is nobody else's.
    async fn check_card(&self, user: UserId, card: &CardChoice) -> Result<(), SupportError> {
        match card {
            CardChoice::Saved(card) => {
                let Some(customer) = self.core.store.customer(user).await? else { return Err(SupportError::NotFound) };
                let owned = self.core.gateway.cards(&customer).await.map_err(provider_error)?;
                if owned.cards.iter().any(|c| &c.id == card) {
                    Ok(())
                } else {
                    Err(SupportError::NotFound)
                }
            }
            CardChoice::New { card, .. } => match self.core.gateway.card(card).await {
                Ok(found) => {
                    let customer = self.core.store.customer(user).await?;
                    if may_claim(&found, customer.as_ref()) {
                        Ok(())
                    } else {
                        Err(card_unusable())
                    }
                }
                Err(GatewayError::NotFound(_) | GatewayError::Rejected(_)) => Err(card_unusable()),
                Err(other) => Err(provider_error(other)),
            },
        }
    }

    /// The card to charge for a sale: a saved card of the customer, or the
    /// typed one attached now (a retry finds it attached already). Stored on
    /// the sale before any charge, so a retry or the reconciler repeats the
    /// very same request.
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
            CardChoice::New { card, save } => {
                let keep = may_save && *save;
                match claim_card(&self.core.gateway, customer, card).await {
                    Ok(card) if keep => {
                        keep_card(&self.core.gateway, customer, &card.id).await.map_err(provider_error)?;
                        (card.id, false)
                    }
                    Ok(card) => (card.id, true),
                    Err(GatewayError::Declined { message, .. }) => {
                        tracing::info!(sale = %sale.id, %message, "card refused when attached");
                        self.core
                            .record(sale.id, PaymentReport { status: SaleStatus::Failed, ..PaymentReport::empty() })
                            .await?;
                        return Err(SupportError::Declined);
                    }
                    Err(error @ (GatewayError::NotFound(_) | GatewayError::Rejected(_))) => {
                        // The provider will never take this card: the lots go back now, not at the next sweep.
                        tracing::info!(sale = %sale.id, %error, "card refused when attached");
                        self.core
                            .record(sale.id, PaymentReport { status: SaleStatus::Failed, ..PaymentReport::empty() })
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
        self.core.store.record_payment(sale.id, report, self.core.now()).await?;
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
    extra: ExtraAmount,
}

/// The figures of a support: the return's, then the extra on top (server-side only).
fn priced(checkout: &Checkout, lot: Lot, extra: ExtraAmount) -> Result<PriceBreakdown, SupportError> {
    checkout.price_of(lot)?.with_extra(extra).map_err(|error| SupportError::Invalid(vec![extra_problem(error)]))
}

fn extra_problem(error: ExtraAmountError) -> FieldProblem {
    FieldProblem { field: "extraAmount", message: error.to_string() }
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

#[async_trait::async_trait]
impl<S: ReportStores, G: PaymentGateway, M: Mailer, C: Clock> Supports for SupportService<S, G, M, C> {
    async fn quote(
        &self,
        project: ProjectId,
        ret: ReturnId,
        lot: i64,
        extra: Option<i64>,
        viewer: Option<Email>,
    ) -> Result<PriceBreakdown, SupportError> {
        let checkout = self.checkout(project, ret).await?;
        if !domain::returns::is_visible_to(checkout.only_for.as_deref(), viewer.as_ref().map(Email::as_str)) {
            return Err(SupportError::NotFound);
        }
        let lot = Lot::for_return(lot, checkout.lot_disable)
            .map_err(|e| SupportError::Invalid(vec![FieldProblem { field: "lot", message: e.to_string() }]))?;
        let extra = ExtraAmount::for_return(extra, checkout.monthly)
            .map_err(|error| SupportError::Invalid(vec![extra_problem(error)]))?;
        priced(&checkout, lot, extra)
    }

    async fn register_guest(&self, email: &Email) -> Result<bool, SupportError> {
        match self.core.store.lookup_guest(email).await? {
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
            check_monthly_order(&order)?;
        }
        if !checkout.accepts(order.pay_type) {
            return Err(SupportError::PaymentTypeNotAccepted);
        }
        let today = tokyo_date(self.core.now());
        if let Some(why) =
            method_unavailable(order.pay_type, today, checkout.period_end).filter(|_| checkout.project_open)
        {
            return Err(why.into());
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
        let terms = priced(&checkout, valid.step.lot, valid.extra)?;
        let now = self.core.now();
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
            transfer_deadline: payment_deadline(order.pay_type, tokyo_date(now)),
        };
        let sale = match self.core.store.place(new_sale).await {
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
        let sale = self.core.store.sale(sale).await?.ok_or(SupportError::NotFound)?;
        let mut outcome = if is_final(sale.status) {
            SupportOutcome { sale, authenticate: None, subscription: None }
        } else {
            self.core.refresh(sale).await?
        };
        // A monthly return's first month says so after a reload or 3-D Secure too, as its placing answer did.
        if outcome.subscription.is_none() {
            outcome.subscription = self.core.store.subscription_by_sale(outcome.sale.id).await?.map(|s| s.id);
        }
        Ok(outcome)
    }
}

impl<S: ReportStores, G: PaymentGateway, M: Mailer, C: Clock> SupportService<S, G, M, C> {
    /// Refuses a second monthly support of the same return by one member
    /// (another key; the same key continues its own support).
    async fn refuse_second_monthly(&self, user: UserId, order: &SupportOrder) -> Result<(), SupportError> {
        let retry_of = self.core.store.sale_by_key(user, &order.idempotency_key).await?.map(|sale| sale.id);
        let running = self.core.store.subscriptions_of(user).await?;
        match running.iter().find(|s| s.return_id == order.ret && s.holds_its_return() && Some(s.sale) != retry_of) {
            Some(running) => Err(SupportError::MonthlyRunning(running.id)),
            None => Ok(()),
        }
    }

    /// Starts (or continues) the subscription whose first month is `sale`:
    /// the row is written first, the provider asked with keys derived from
    /// the sale, and its answer recorded. A repeat finds the same row and
    /// the provider answers the same key with the same subscription.
    async fn start_monthly(&self, sale: SaleRecord, card: Option<&CardChoice>) -> Result<SupportOutcome, SupportError> {
        let existing = self.core.store.subscription_by_sale(sale.id).await?;
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
                self.core.store.record_payment(sale.id, report, self.core.now()).await?;
                let plan = self.plan_for(&sale);
                self.core.store.open_subscription(sale.id, &customer, chosen, &plan.plan_id, sale.terms.total).await?
            }
        };
        let Some(card) = row.card.clone() else {
            return Err(SupportError::Unexpected(anyhow::anyhow!("subscription {} has no card", row.id)));
        };
        let plan = self.plan_for(&sale);
        let namespace = &self.core.config.namespace;
        self.core
            .gateway
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
        match self.core.gateway.create_subscription(request, key).await {
            Ok(started) => {
                let row = self.core.store.record_subscription(row.id, &started, self.core.now()).await?;
                if let Some(invoice_id) = &started.latest_invoice {
                    match self.core.gateway.invoice(invoice_id).await {
                        Ok(invoice) => self.core.apply_invoice(&invoice, PaymentEventKind::InvoicePaid).await?,
                        Err(error) => {
                            tracing::warn!(%error, "first invoice not read; the webhook or reconciler records it")
                        }
                    }
                }
                let sale = self.core.store.sale(sale.id).await?.ok_or(SupportError::NotFound)?;
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
                self.core.store.record_subscription(row.id, &ended, self.core.now()).await?;
                self.core
                    .record(sale.id, PaymentReport { status: SaleStatus::Failed, ..PaymentReport::empty() })
                    .await?;
                Err(SupportError::Declined)
            }
            Err(error) => Err(provider_error(error)),
        }
    }

    fn plan_for(&self, sale: &SaleRecord) -> MonthlyPlan {
        let name = format!("{}（{}）", sale.project_title, sale.return_title);
        monthly_plan(self.core.config.namespace.name(), sale.return_id.get(), &name, sale.terms.total)
    }
}

/// Who may back a monthly return, and how: members, by a saved card, one unit.
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

/// When the deadline of a transfer placed now falls.
pub fn transfer_deadline_for(now: DateTime<Utc>) -> chrono::NaiveDate {
    bank_transfer_deadline(tokyo_date(now))
}

/// The moment a konbini voucher with last day `deadline` expires: 23:59:59
/// Asia/Tokyo, as the provider's `expires_after_days` would end it, so the
/// voucher and the sale's deadline sweep agree on the day.
pub fn voucher_expires_at(deadline: chrono::NaiveDate) -> DateTime<Utc> {
    let last_second = deadline.and_hms_opt(23, 59, 59).unwrap_or_else(|| deadline.and_time(chrono::NaiveTime::MIN));
    domain::time::from_tokyo(last_second)
}

#[cfg(test)]
#[path = "support_tests.rs"]
mod tests;
