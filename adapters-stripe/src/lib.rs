//! Stripe payment gateway adapter: implements `ports::payments::gateway::PaymentGateway`
//! over `async-stripe`.
//!
//! The same code talks to real Stripe (api base `https://api.stripe.com/`) and, in
//! development and tests, to localstripe behind `app-server/dev/localstripe_server.py`
//! (api base `http://127.0.0.1:8420/`), which also emulates Japanese bank transfers.
//! Each call is one attempt; the caller repeats a `GatewayError::Unavailable` with the
//! same idempotency key.

mod billing;
mod cards;
mod convert;

use std::collections::HashMap;
use std::time::Duration;

use domain::ids::SaleId;
use domain::money::Yen;
use domain::payment::IntentStatus;
use ports::payments::gateway::{
    BankTransferRequest, CardCharge, CardSetup, CustomerCards, CustomerId, Destination, GatewayError, IdempotencyKey,
    InvoiceId, KeyNamespace, KonbiniRequest, MonthlyPlan, NewCustomer, NewSubscription, Payment, PaymentEvent,
    PaymentGateway, PaymentId, PaymentMethodId, ProviderCard, ProviderInvoice, ProviderSubscription, Refund, RefundId,
    RefundRequest, RefundStatus, SavedCard, SubscriptionId, WebhookError,
};
use stripe::{Client, ClientBuilder, RequestStrategy, StripeError, StripeRequest};
use stripe_core::customer::CreateCustomer;
use stripe_core::payment_intent::{
    CancelPaymentIntent, CancelPaymentIntentCancellationReason, CreatePaymentIntent,
    CreatePaymentIntentAutomaticPaymentMethods, CreatePaymentIntentAutomaticPaymentMethodsAllowRedirects,
    CreatePaymentIntentPaymentMethodData, CreatePaymentIntentPaymentMethodDataBillingDetails,
    CreatePaymentIntentPaymentMethodDataType, CreatePaymentIntentPaymentMethodOptions,
    CreatePaymentIntentPaymentMethodOptionsCustomerBalance,
    CreatePaymentIntentPaymentMethodOptionsCustomerBalanceBankTransfer,
    CreatePaymentIntentPaymentMethodOptionsCustomerBalanceBankTransferRequestedAddressTypes,
    CreatePaymentIntentPaymentMethodOptionsCustomerBalanceBankTransferType,
    CreatePaymentIntentPaymentMethodOptionsCustomerBalanceFundingType, CreatePaymentIntentPaymentMethodOptionsKonbini,
    CreatePaymentIntentTransferData, RetrievePaymentIntent,
};
use stripe_core::refund::{CancelRefund, CreateRefund, ListRefund, RetrieveRefund};
use stripe_shared::{ApiErrors, PaymentIntentAllowedPaymentMethodTypes};
use stripe_types::Currency;
use stripe_webhook::Webhook;

/// The API base of real Stripe.
pub const STRIPE_API_BASE: &str = "https://api.stripe.com/";

/// Per-attempt timeout for calls to the Stripe API.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// Stripe's largest page (a supporter keeps a handful of cards; a payment has a few refunds).
const MAX_LISTED: i64 = 100;

/// The metadata key that ties a PaymentIntent to our sale.
pub const SALE_ID_METADATA: &str = "sale_id";

/// The metadata key naming the database whose ids the other metadata carry (absent in production).
pub const NAMESPACE_METADATA: &str = "key_namespace";

/// Whose records the ids in an object's metadata name. Test and developer databases share one provider
/// account, each numbers its sales from 1, and the provider posts every event to every endpoint: an id
/// in the metadata is ours only when the object carries our namespace (none in production).
#[derive(Debug, Clone, Default)]
pub(crate) struct Origin(Option<String>);

impl Origin {
    /// `ids` as metadata, tagged with our namespace when there is one.
    pub(crate) fn metadata(&self, ids: &[(&str, String)]) -> HashMap<String, String> {
        let mut metadata: HashMap<String, String> = ids.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect();
        if let Some(namespace) = &self.0 {
            metadata.insert(NAMESPACE_METADATA.to_owned(), namespace.clone());
        }
        metadata
    }

    /// Whether an object tagged `tag` (its `key_namespace` metadata) was written by us.
    pub(crate) fn owns(&self, tag: Option<&str>) -> bool {
        self.0.as_deref() == tag
    }
}

/// What the gateway needs: `STRIPE_SECRET_KEY`, `STRIPE_API_BASE` (unset = Stripe
/// itself) and `STRIPE_WEBHOOK_SECRET`.
#[derive(Clone)]
pub struct StripeSettings {
    pub secret_key: String,
    pub api_base: Option<String>,
    pub webhook_secret: String,
    /// The namespace of our idempotency keys, also written into the metadata of what we create.
    pub namespace: KeyNamespace,
}

impl std::fmt::Debug for StripeSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Secrets never reach a log.
        f.debug_struct("StripeSettings").field("api_base", &self.api_base).finish_non_exhaustive()
    }
}

#[derive(Debug, thiserror::Error)]
#[error("invalid Stripe configuration: {0}")]
pub struct ConfigError(String);

/// The Stripe client of one account (one secret key) and its webhook endpoint secret.
#[derive(Clone)]
pub struct StripeGateway {
    client: Client,
    webhook_secret: String,
    origin: Origin,
}

impl std::fmt::Debug for StripeGateway {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StripeGateway").finish_non_exhaustive()
    }
}

impl StripeGateway {
    fn sale_metadata(&self, sale_id: SaleId) -> HashMap<String, String> {
        self.origin.metadata(&[(SALE_ID_METADATA, sale_id.to_string())])
    }

    /// A gateway for the settings' key at the api base ([`STRIPE_API_BASE`] when unset;
    /// a missing trailing slash is added).
    pub fn new(settings: &StripeSettings) -> Result<Self, ConfigError> {
        if settings.secret_key.trim().is_empty() {
            return Err(ConfigError("empty secret key".to_owned()));
        }
        if settings.webhook_secret.trim().is_empty() {
            return Err(ConfigError("empty webhook secret".to_owned()));
        }
        let mut base = settings.api_base.clone().unwrap_or_else(|| STRIPE_API_BASE.to_owned());
        if !(base.starts_with("http://") || base.starts_with("https://")) {
            return Err(ConfigError(format!("api base is not an http(s) URL: {base}")));
        }
        if !base.ends_with('/') {
            base.push('/');
        }
        let client = ClientBuilder::new(settings.secret_key.as_str())
            .url(base)
            .timeout(REQUEST_TIMEOUT)
            .build()
            .map_err(|e| ConfigError(e.to_string()))?;
        Ok(Self {
            client,
            webhook_secret: settings.webhook_secret.clone(),
            origin: Origin(settings.namespace.name().map(str::to_owned)),
        })
    }
}

#[async_trait::async_trait]
impl PaymentGateway for StripeGateway {
    async fn create_customer(&self, customer: NewCustomer, key: IdempotencyKey) -> Result<CustomerId, GatewayError> {
        let mut request = CreateCustomer::new()
            .email(customer.email.as_str())
            .preferred_locales(vec!["ja".to_owned()])
            .metadata(HashMap::from([("user_id".to_owned(), customer.user_id.to_string())]));
        if let Some(name) = &customer.name {
            request = request.name(name.as_str());
        }
        let created =
            request.customize().request_strategy(idempotent(&key)?).send(&self.client).await.map_err(gateway_error)?;
        Ok(CustomerId::new(created.id.as_str()))
    }

    async fn charge_card(&self, charge: CardCharge, key: IdempotencyKey) -> Result<Payment, GatewayError> {
        let mut request = CreatePaymentIntent::new(positive(charge.amount.value())?, Currency::JPY)
            .payment_method(charge.payment_method.as_str())
            .automatic_payment_methods(cards_without_redirects())
            .confirm(true)
            .metadata(self.sale_metadata(charge.sale_id));
        if let Some(customer) = &charge.customer {
            request = request.customer(customer.as_str());
        }
        if let Some(destination) = &charge.destination {
            request = with_destination(request, destination);
        }
        let intent =
            request.customize().request_strategy(idempotent(&key)?).send(&self.client).await.map_err(gateway_error)?;
        convert::payment(&intent, &self.origin).map_err(GatewayError::Unexpected)
    }

    async fn start_bank_transfer(
        &self,
        transfer: BankTransferRequest,
        key: IdempotencyKey,
    ) -> Result<Payment, GatewayError> {
        let mut request = CreatePaymentIntent::new(positive(transfer.amount.value())?, Currency::JPY)
            .customer(transfer.customer.as_str())
            .allowed_payment_method_types(vec![PaymentIntentAllowedPaymentMethodTypes::CustomerBalance])
            .payment_method_data(CreatePaymentIntentPaymentMethodData::new(
                CreatePaymentIntentPaymentMethodDataType::CustomerBalance,
            ))
            .payment_method_options(jp_bank_transfer_options())
            .confirm(true)
            .metadata(self.sale_metadata(transfer.sale_id));
        if let Some(destination) = &transfer.destination {
            request = with_destination(request, destination);
        }
        let intent =
            request.customize().request_strategy(idempotent(&key)?).send(&self.client).await.map_err(gateway_error)?;
        convert::payment(&intent, &self.origin).map_err(GatewayError::Unexpected)
    }

    async fn start_konbini(&self, konbini: KonbiniRequest, key: IdempotencyKey) -> Result<Payment, GatewayError> {
        // Stripe creates the konbini PaymentMethod from the payer's name and e-mail, which it requires.
        let mut billing = CreatePaymentIntentPaymentMethodDataBillingDetails::new();
        billing.name = Some(konbini.billing_name.clone());
        billing.email = Some(konbini.email.as_str().to_owned());
        let mut method = CreatePaymentIntentPaymentMethodData::new(CreatePaymentIntentPaymentMethodDataType::Konbini);
        method.billing_details = Some(billing);
        let mut voucher = CreatePaymentIntentPaymentMethodOptionsKonbini::new();
        // One deadline for the voucher and the sale: 23:59:59 Tokyo of the sale's last day.
        voucher.expires_at = Some(konbini.expires_at.timestamp());
        let mut options = CreatePaymentIntentPaymentMethodOptions::new();
        options.konbini = Some(voucher);
        let mut request = CreatePaymentIntent::new(positive(konbini.amount.value())?, Currency::JPY)
            .customer(konbini.customer.as_str())
            .allowed_payment_method_types(vec![PaymentIntentAllowedPaymentMethodTypes::Konbini])
            .payment_method_data(method)
            .payment_method_options(options)
            .confirm(true)
            .metadata(self.sale_metadata(konbini.sale_id));
        if let Some(destination) = &konbini.destination {
            request = with_destination(request, destination);
        }
        let intent =
            request.customize().request_strategy(idempotent(&key)?).send(&self.client).await.map_err(gateway_error)?;
        convert::payment(&intent, &self.origin).map_err(GatewayError::Unexpected)
    }

    async fn start_card_setup(&self, customer: Option<CustomerId>) -> Result<CardSetup, GatewayError> {
        cards::start_setup(&self.client, customer.as_ref()).await
    }

    async fn set_up_card(&self, client_secret: &str) -> Result<PaymentMethodId, GatewayError> {
        cards::set_up_card(&self.client, client_secret).await
    }

    async fn card(&self, card: &PaymentMethodId) -> Result<ProviderCard, GatewayError> {
        cards::card(&self.client, card).await
    }

    async fn attach_card(&self, customer: &CustomerId, card: &PaymentMethodId) -> Result<SavedCard, GatewayError> {
        cards::attach(&self.client, customer, card).await
    }

    async fn cards(&self, customer: &CustomerId) -> Result<CustomerCards, GatewayError> {
        cards::list(&self.client, customer).await
    }

    async fn set_default_card(&self, customer: &CustomerId, card: &PaymentMethodId) -> Result<(), GatewayError> {
        cards::set_default(&self.client, customer, card).await
    }

    async fn delete_card(&self, customer: &CustomerId, card: &PaymentMethodId) -> Result<(), GatewayError> {
        cards::remove(&self.client, customer, card).await
    }

    async fn cancel_payment(&self, id: &PaymentId) -> Result<Payment, GatewayError> {
        let cancelled = CancelPaymentIntent::new(path_segment(id.as_str())?)
            .cancellation_reason(CancelPaymentIntentCancellationReason::Abandoned)
            .send(&self.client)
            .await;
        match cancelled {
            Ok(intent) => convert::payment(&intent, &self.origin).map_err(GatewayError::Unexpected),
            // Paid (or cancelled) meanwhile: Stripe refuses, and the payment as it is
            // is the answer.
            Err(StripeError::Stripe(api, status))
                if api.code.as_ref().is_some_and(|c| c.as_str() == "payment_intent_unexpected_state") =>
            {
                let current = self.payment(id).await?;
                match current.status {
                    IntentStatus::Succeeded | IntentStatus::Canceled => Ok(current),
                    _ => Err(api_error(&api, status)),
                }
            }
            Err(other) => Err(gateway_error(other)),
        }
    }

    async fn payment(&self, id: &PaymentId) -> Result<Payment, GatewayError> {
        let intent =
            RetrievePaymentIntent::new(path_segment(id.as_str())?).send(&self.client).await.map_err(gateway_error)?;
        convert::payment(&intent, &self.origin).map_err(GatewayError::Unexpected)
    }

    async fn refund(&self, refund: RefundRequest, key: IdempotencyKey) -> Result<Refund, GatewayError> {
        let mut request =
            CreateRefund::new().payment_intent(refund.payment.as_str()).amount(positive(refund.amount.value())?);
        if refund.reverse_transfer {
            request = request.reverse_transfer(true);
        }
        if refund.refund_application_fee {
            request = request.refund_application_fee(true);
        }
        if let Some(email) = &refund.instructions_email {
            request = request.instructions_email(email.as_str());
        }
        let created =
            request.customize().request_strategy(idempotent(&key)?).send(&self.client).await.map_err(gateway_error)?;
        convert::refund(&created, &refund.payment).map_err(GatewayError::Unexpected)
    }

    async fn refund_status(&self, id: &RefundId) -> Result<Refund, GatewayError> {
        let refund = RetrieveRefund::new(path_segment(id.as_str())?).send(&self.client).await.map_err(gateway_error)?;
        let payment =
            PaymentId::new(refund.payment_intent.as_ref().map(|p| p.id().as_str().to_owned()).unwrap_or_default());
        convert::refund(&refund, &payment).map_err(GatewayError::Unexpected)
    }

    async fn cancel_refund(&self, id: &RefundId) -> Result<Refund, GatewayError> {
        // POST /v1/refunds/{id}/cancel: Stripe allows it only for `requires_action`. Read the refund back on a
        // refusal, so a supporter who answered meanwhile is seen as answered, not as an error.
        match CancelRefund::new(path_segment(id.as_str())?).send(&self.client).await.map_err(gateway_error) {
            Ok(refund) => {
                let payment = PaymentId::new(
                    refund.payment_intent.as_ref().map(|p| p.id().as_str().to_owned()).unwrap_or_default(),
                );
                convert::refund(&refund, &payment).map_err(GatewayError::Unexpected)
            }
            Err(GatewayError::Rejected(reason)) => {
                let now = self.refund_status(id).await?;
                match now.status {
                    RefundStatus::RequiresAction => Err(GatewayError::Rejected(reason)),
                    _ => Ok(now),
                }
            }
            Err(other) => Err(other),
        }
    }

    async fn refunded(&self, payment: &PaymentId) -> Result<Yen, GatewayError> {
        let mut refunded = 0;
        let mut after: Option<String> = None;
        loop {
            let mut request = ListRefund::new().payment_intent(payment.as_str()).limit(MAX_LISTED);
            if let Some(last) = &after {
                request = request.starting_after(last.as_str());
            }
            let page = request.send(&self.client).await.map_err(gateway_error)?;
            for refund in &page.data {
                let status = convert::refund(refund, payment).map_err(GatewayError::Unexpected)?.status;
                if !matches!(status, RefundStatus::Failed | RefundStatus::Canceled) {
                    refunded += refund.amount;
                }
            }
            match page.data.last() {
                Some(last) if page.has_more => after = Some(last.id.as_str().to_owned()),
                _ => return Ok(Yen(refunded)),
            }
        }
    }

    fn verify_webhook(&self, payload: &str, signature_header: &str) -> Result<PaymentEvent, WebhookError> {
        let event = Webhook::construct_event(payload, signature_header, &self.webhook_secret).map_err(|e| match e {
            stripe_webhook::WebhookError::BadParse(msg) => WebhookError::BadPayload(msg),
            other => WebhookError::BadSignature(other.to_string()),
        })?;
        let mut event = convert::event(&event, &self.origin).map_err(WebhookError::BadPayload)?;
        let is_invoice = event.event_type.starts_with("invoice.");
        if is_invoice || event.event_type.starts_with("customer.subscription.") {
            let body: serde_json::Value =
                serde_json::from_str(payload).map_err(|e| WebhookError::BadPayload(e.to_string()))?;
            let object =
                body.pointer("/data/object").ok_or_else(|| WebhookError::BadPayload("no data.object".into()))?;
            if is_invoice {
                event.invoice = Some(billing::invoice(object).map_err(WebhookError::BadPayload)?);
            } else {
                event.subscription =
                    Some(billing::subscription(object, &self.origin).map_err(WebhookError::BadPayload)?);
            }
        }
        Ok(event)
    }

    async fn ensure_plan(&self, plan: &MonthlyPlan, key: IdempotencyKey) -> Result<(), GatewayError> {
        billing::ensure_plan(&self.client, plan, &key).await
    }

    async fn create_subscription(
        &self,
        subscription: NewSubscription,
        key: IdempotencyKey,
    ) -> Result<ProviderSubscription, GatewayError> {
        billing::create_subscription(&self.client, &self.origin, &subscription, &key).await
    }

    async fn subscription(&self, id: &SubscriptionId) -> Result<ProviderSubscription, GatewayError> {
        billing::retrieve_subscription(&self.client, &self.origin, id).await
    }

    async fn update_subscription(
        &self,
        id: &SubscriptionId,
        card: Option<PaymentMethodId>,
        cancel_at_period_end: Option<bool>,
    ) -> Result<ProviderSubscription, GatewayError> {
        billing::update_subscription(&self.client, &self.origin, id, card.as_ref(), cancel_at_period_end).await
    }

    async fn invoice(&self, id: &InvoiceId) -> Result<ProviderInvoice, GatewayError> {
        billing::retrieve_invoice(&self.client, id).await
    }

    async fn invoices(&self, subscription: &SubscriptionId) -> Result<Vec<ProviderInvoice>, GatewayError> {
        billing::list_invoices(&self.client, subscription).await
    }
}

/// Server-side confirmation without a `return_url`: allow only methods that never redirect
/// (cards), as Stripe requires when automatic payment methods are on (the default).
fn cards_without_redirects() -> CreatePaymentIntentAutomaticPaymentMethods {
    let mut methods = CreatePaymentIntentAutomaticPaymentMethods::new(true);
    methods.allow_redirects = Some(CreatePaymentIntentAutomaticPaymentMethodsAllowRedirects::Never);
    methods
}

/// `customer_balance` funded by a Japanese bank transfer to a zengin account.
fn jp_bank_transfer_options() -> CreatePaymentIntentPaymentMethodOptions {
    let mut bank_transfer = CreatePaymentIntentPaymentMethodOptionsCustomerBalanceBankTransfer::new(
        CreatePaymentIntentPaymentMethodOptionsCustomerBalanceBankTransferType::JpBankTransfer,
    );
    bank_transfer.requested_address_types =
        Some(vec![CreatePaymentIntentPaymentMethodOptionsCustomerBalanceBankTransferRequestedAddressTypes::Zengin]);
    let mut balance = CreatePaymentIntentPaymentMethodOptionsCustomerBalance::new();
    balance.funding_type = Some(CreatePaymentIntentPaymentMethodOptionsCustomerBalanceFundingType::BankTransfer);
    balance.bank_transfer = Some(bank_transfer);
    let mut options = CreatePaymentIntentPaymentMethodOptions::new();
    options.customer_balance = Some(balance);
    options
}

/// A destination charge: the money goes to the project's connected account, our fee stays.
fn with_destination(request: CreatePaymentIntent, destination: &Destination) -> CreatePaymentIntent {
    request
        .application_fee_amount(destination.application_fee.value())
        .transfer_data(CreatePaymentIntentTransferData::new(destination.account.as_str()))
}

/// Stripe refuses non-positive amounts anyway; refusing here keeps a bug from reaching it.
fn positive(amount: i64) -> Result<i64, GatewayError> {
    if amount <= 0 {
        return Err(GatewayError::Rejected(format!("amount must be positive, got {amount} yen")));
    }
    Ok(amount)
}

/// An id put into a request path by hand: Stripe ids are `[A-Za-z0-9_]`, so nothing
/// else (a `/`, a `..`) can reach another endpoint.
fn path_segment(id: &str) -> Result<&str, GatewayError> {
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return Err(GatewayError::NotFound(format!("{id:?} is not a Stripe id")));
    }
    Ok(id)
}

fn idempotent(key: &IdempotencyKey) -> Result<RequestStrategy, GatewayError> {
    stripe::IdempotencyKey::new(key.as_str())
        .map(RequestStrategy::Idempotent)
        .map_err(|e| GatewayError::Rejected(format!("idempotency key {key}: {e}")))
}

/// Stripe's and the transport's errors in the port's terms: what may be repeated, what
/// the supporter must hear, what is a bug.
fn gateway_error(err: StripeError) -> GatewayError {
    match err {
        StripeError::Stripe(api, status) => api_error(&api, status),
        StripeError::ClientError(msg) => GatewayError::Unavailable(msg),
        StripeError::Timeout => GatewayError::Unavailable("timeout".to_owned()),
        StripeError::JSONDeserialize(msg) => GatewayError::Unexpected(msg),
        StripeError::ConfigError(msg) => GatewayError::Rejected(msg),
    }
}

fn api_error(api: &ApiErrors, status: u16) -> GatewayError {
    let code = api.code.as_ref().map(|c| c.as_str().to_owned());
    let message = api.message.clone().unwrap_or_else(|| format!("HTTP {status}"));
    match status {
        402 => GatewayError::Declined {
            message,
            code,
            decline_code: api.decline_code.clone(),
            payment: api.payment_intent.as_ref().map(|pi| PaymentId::new(pi.id.as_str())),
        },
        404 => GatewayError::NotFound(message),
        // An id in the parameters that names nothing (a card that is not the customer's).
        _ if code.as_deref() == Some("resource_missing") => GatewayError::NotFound(message),
        // 409: the same key is still being processed by a concurrent request.
        409 | 429 | 500..=599 => GatewayError::Unavailable(format!("HTTP {status}: {message}")),
        _ if api.type_.as_str() == "idempotency_error" => GatewayError::KeyReused(message),
        _ => GatewayError::Rejected(format!("HTTP {status}: {message}")),
    }
}

#[cfg(test)]
mod tests;
