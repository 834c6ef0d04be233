//! Stripe payment gateway adapter.
//!
//! [`StripeGateway`] talks to the Stripe HTTP API through `async-stripe`. The same code talks to
//! real Stripe (api base `https://api.stripe.com/`) and, in development and tests, to
//! localstripe started by `app-server/dev/services.sh` (api base `http://127.0.0.1:8420/`).
//!
//! The methods take and return small, Stripe-agnostic types ([`PaymentSnapshot`],
//! [`RefundSnapshot`], [`WebhookEvent`], ...) so that the application's ports can wrap them
//! without depending on `async-stripe`. Amounts are integer yen.

use std::collections::BTreeMap;
use std::time::Duration;

use stripe::{Client, ClientBuilder, IdempotencyKey, RequestStrategy, StripeError, StripeRequest};
use stripe_core::customer::CreateCustomer;
use stripe_core::payment_intent::{
    CreatePaymentIntent, CreatePaymentIntentAutomaticPaymentMethods,
    CreatePaymentIntentAutomaticPaymentMethodsAllowRedirects, CreatePaymentIntentOffSession, RetrievePaymentIntent,
};
use stripe_core::refund::CreateRefund;
use stripe_shared::{ApiErrors, PaymentIntent, PaymentIntentStatus, Refund};
use stripe_types::Currency;
use stripe_webhook::{EventObject, Webhook, WebhookError};

/// The API base of real Stripe.
pub const STRIPE_API_BASE: &str = "https://api.stripe.com/";

/// Per-attempt timeout for calls to the Stripe API.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// Everything that can go wrong when talking to Stripe.
#[derive(Debug, thiserror::Error)]
pub enum GatewayError {
    /// The gateway was configured with an unusable key or URL.
    #[error("invalid Stripe configuration: {0}")]
    Config(String),
    /// The idempotency key is empty or longer than 255 characters.
    #[error("invalid idempotency key: {0}")]
    IdempotencyKey(String),
    /// The card was declined (HTTP 402). `payment_intent_id` names the failed PaymentIntent
    /// when Stripe created one.
    #[error("card declined: {message}")]
    CardDeclined {
        code: Option<String>,
        decline_code: Option<String>,
        message: String,
        payment_intent_id: Option<String>,
    },
    /// Stripe refused the request (invalid parameters, unknown object, idempotency key reused
    /// with other parameters, rate limit, ...).
    #[error("Stripe refused the request (HTTP {status}, {kind}): {message}")]
    Api {
        status: u16,
        /// Stripe's error `type`, e.g. `invalid_request_error`, `idempotency_error`.
        kind: String,
        code: Option<String>,
        message: String,
    },
    /// Stripe could not be reached or did not answer in time. Retrying with the same
    /// idempotency key is safe.
    #[error("could not reach Stripe: {0}")]
    Transport(String),
    /// Stripe answered with something this client could not read.
    #[error("unreadable answer from Stripe: {0}")]
    Decode(String),
    /// A webhook's `Stripe-Signature` does not match the payload and secret, is malformed,
    /// or is too old (more than 5 minutes).
    #[error("webhook signature rejected: {0}")]
    WebhookSignature(String),
    /// A correctly signed webhook payload that is not a readable Stripe event.
    #[error("webhook payload unreadable: {0}")]
    WebhookPayload(String),
}

impl GatewayError {
    /// Whether the same call may succeed if repeated (with the same idempotency key).
    pub fn is_retryable(&self) -> bool {
        match self {
            GatewayError::Transport(_) => true,
            GatewayError::Api { status, .. } => matches!(status, 409 | 429 | 500..=599),
            _ => false,
        }
    }
}

impl From<StripeError> for GatewayError {
    fn from(err: StripeError) -> Self {
        match err {
            StripeError::Stripe(api, status) => from_api_error(&api, status),
            StripeError::JSONDeserialize(msg) => GatewayError::Decode(msg),
            StripeError::ClientError(msg) => GatewayError::Transport(msg),
            StripeError::Timeout => GatewayError::Transport("timeout".to_owned()),
            StripeError::ConfigError(msg) => GatewayError::Config(msg),
        }
    }
}

fn from_api_error(api: &ApiErrors, status: u16) -> GatewayError {
    let code = api.code.as_ref().map(|c| c.as_str().to_owned());
    let message = api.message.clone().unwrap_or_else(|| format!("HTTP {status}"));
    if status == 402 {
        return GatewayError::CardDeclined {
            code,
            decline_code: api.decline_code.clone(),
            message,
            payment_intent_id: api.payment_intent.as_ref().map(|pi| pi.id.as_str().to_owned()),
        };
    }
    GatewayError::Api { status, kind: api.type_.as_str().to_owned(), code, message }
}

impl From<WebhookError> for GatewayError {
    fn from(err: WebhookError) -> Self {
        match err {
            WebhookError::BadParse(msg) => GatewayError::WebhookPayload(msg),
            other => GatewayError::WebhookSignature(other.to_string()),
        }
    }
}

/// A customer to create at Stripe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewCustomer {
    pub email: String,
    pub name: Option<String>,
    /// Our user id, stored as the customer's `user_id` metadata.
    pub user_id: String,
}

/// A card payment to create and confirm at once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardPayment {
    /// Amount in yen (JPY has no minor unit).
    pub amount_yen: i64,
    /// A PaymentMethod (`pm_...`), or a legacy card or source (`card_...`, `src_...`).
    pub payment_method: String,
    /// The Stripe customer (`cus_...`) the payment method belongs to, if any.
    pub customer_id: Option<String>,
    /// `true` when the customer is not present (recurring charges of a saved card).
    pub off_session: bool,
    /// Stored on the PaymentIntent; comes back in webhooks (e.g. our sale id).
    pub metadata: BTreeMap<String, String>,
}

/// The Stripe customer that was created.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustomerRef {
    pub id: String,
}

/// Where a PaymentIntent stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PaymentStatus {
    RequiresPaymentMethod,
    RequiresConfirmation,
    /// The customer must act (3-D Secure); the client secret lets Stripe.js finish it.
    RequiresAction,
    Processing,
    RequiresCapture,
    Canceled,
    Succeeded,
    /// A status this adapter does not know yet.
    Other(String),
}

/// Why the last payment attempt failed, as Stripe reported it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentFailure {
    pub code: Option<String>,
    pub decline_code: Option<String>,
    pub message: Option<String>,
}

/// The state of a PaymentIntent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentSnapshot {
    pub id: String,
    pub status: PaymentStatus,
    /// Amount requested, in the currency's smallest unit (yen).
    pub amount: i64,
    /// Amount actually received.
    pub amount_received: i64,
    /// Lowercase ISO code, e.g. `jpy`.
    pub currency: String,
    pub customer_id: Option<String>,
    pub latest_charge_id: Option<String>,
    pub client_secret: Option<String>,
    pub metadata: BTreeMap<String, String>,
    pub last_failure: Option<PaymentFailure>,
}

/// A refund that was created.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefundSnapshot {
    pub id: String,
    pub amount: i64,
    pub currency: String,
    /// `pending`, `succeeded`, `failed`, ... as Stripe reports it.
    pub status: Option<String>,
    pub payment_intent_id: Option<String>,
    pub charge_id: Option<String>,
}

/// What a webhook event is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WebhookObject {
    /// Any `payment_intent.*` event.
    PaymentIntent(Box<PaymentSnapshot>),
    /// Any other event (customer, invoice, subscription, ...); see `event_type`.
    Other,
}

/// A verified webhook event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookEvent {
    /// `evt_...`: deliveries can repeat, so handlers should be idempotent on this id.
    pub id: String,
    /// e.g. `payment_intent.succeeded`.
    pub event_type: String,
    /// Unix seconds.
    pub created: i64,
    pub livemode: bool,
    pub object: WebhookObject,
}

/// A Stripe client for one account (one secret key).
#[derive(Clone, Debug)]
pub struct StripeGateway {
    client: Client,
}

impl StripeGateway {
    /// A gateway for `secret_key` at `api_base`: [`STRIPE_API_BASE`] in production,
    /// `http://127.0.0.1:8420/` for localstripe. A missing trailing slash is added.
    pub fn new(secret_key: &str, api_base: &str) -> Result<Self, GatewayError> {
        if secret_key.trim().is_empty() {
            return Err(GatewayError::Config("empty secret key".to_owned()));
        }
        if !(api_base.starts_with("http://") || api_base.starts_with("https://")) {
            return Err(GatewayError::Config(format!("api base is not an http(s) URL: {api_base}")));
        }
        let mut base = api_base.to_owned();
        if !base.ends_with('/') {
            base.push('/');
        }
        let client = ClientBuilder::new(secret_key).url(base).timeout(REQUEST_TIMEOUT).build()?;
        Ok(Self { client })
    }

    /// Creates a customer with Japanese as preferred locale and our user id as metadata.
    pub async fn create_customer(&self, customer: &NewCustomer) -> Result<CustomerRef, GatewayError> {
        let mut request = CreateCustomer::new()
            .email(customer.email.as_str())
            .preferred_locales(vec!["ja".to_owned()])
            .metadata(std::collections::HashMap::from([("user_id".to_owned(), customer.user_id.clone())]));
        if let Some(name) = &customer.name {
            request = request.name(name.as_str());
        }
        let created = request.send(&self.client).await?;
        Ok(CustomerRef { id: created.id.as_str().to_owned() })
    }

    /// Creates and confirms a JPY PaymentIntent for a card.
    ///
    /// `idempotency_key` makes repeats safe: the same key returns the first result instead of
    /// charging twice (use one key per sale attempt, e.g. derived from our sale id).
    /// A decline is [`GatewayError::CardDeclined`]; a card that needs 3-D Secure gives
    /// [`PaymentStatus::RequiresAction`].
    pub async fn create_card_payment(
        &self,
        payment: &CardPayment,
        idempotency_key: &str,
    ) -> Result<PaymentSnapshot, GatewayError> {
        if payment.amount_yen <= 0 {
            return Err(GatewayError::Api {
                status: 400,
                kind: "invalid_request_error".to_owned(),
                code: Some("amount_too_small".to_owned()),
                message: format!("amount must be positive, got {}", payment.amount_yen),
            });
        }
        let mut request = CreatePaymentIntent::new(payment.amount_yen, Currency::JPY)
            .payment_method(payment.payment_method.as_str())
            .automatic_payment_methods(cards_without_redirects())
            .confirm(true);
        if let Some(customer) = &payment.customer_id {
            request = request.customer(customer.as_str());
        }
        if payment.off_session {
            request = request.off_session(CreatePaymentIntentOffSession::Bool(true));
        }
        if !payment.metadata.is_empty() {
            request = request.metadata(
                payment
                    .metadata
                    .iter()
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect::<std::collections::HashMap<_, _>>(),
            );
        }
        let intent = request.customize().request_strategy(idempotent(idempotency_key)?).send(&self.client).await?;
        Ok(payment_snapshot(&intent))
    }

    /// Reads a PaymentIntent (for reconciliation and server-side status checks).
    pub async fn retrieve_payment(&self, payment_intent_id: &str) -> Result<PaymentSnapshot, GatewayError> {
        let intent = RetrievePaymentIntent::new(payment_intent_id).send(&self.client).await?;
        Ok(payment_snapshot(&intent))
    }

    /// Refunds `amount_yen` of a PaymentIntent, or all of what remains when `None`.
    pub async fn refund(
        &self,
        payment_intent_id: &str,
        amount_yen: Option<i64>,
        idempotency_key: &str,
    ) -> Result<RefundSnapshot, GatewayError> {
        let mut request = CreateRefund::new().payment_intent(payment_intent_id);
        if let Some(amount) = amount_yen {
            request = request.amount(amount);
        }
        let refund = request.customize().request_strategy(idempotent(idempotency_key)?).send(&self.client).await?;
        Ok(refund_snapshot(&refund))
    }

    /// Verifies a webhook's `Stripe-Signature` header against the endpoint `secret` (also
    /// refusing signatures older than 5 minutes) and reads the event.
    pub fn verify_webhook(payload: &str, signature_header: &str, secret: &str) -> Result<WebhookEvent, GatewayError> {
        let event = Webhook::construct_event(payload, signature_header, secret)?;
        let object = match &event.data.object {
            EventObject::PaymentIntentAmountCapturableUpdated(pi)
            | EventObject::PaymentIntentCanceled(pi)
            | EventObject::PaymentIntentCreated(pi)
            | EventObject::PaymentIntentPartiallyFunded(pi)
            | EventObject::PaymentIntentPaymentFailed(pi)
            | EventObject::PaymentIntentProcessing(pi)
            | EventObject::PaymentIntentRequiresAction(pi)
            | EventObject::PaymentIntentSucceeded(pi) => WebhookObject::PaymentIntent(Box::new(payment_snapshot(pi))),
            _ => WebhookObject::Other,
        };
        Ok(WebhookEvent {
            id: event.id.as_str().to_owned(),
            event_type: event.type_.as_str().to_owned(),
            created: event.created,
            livemode: event.livemode,
            object,
        })
    }
}

/// Server-side confirmation without a `return_url`: allow only methods that never redirect
/// (cards), as Stripe requires when automatic payment methods are on (the default).
fn cards_without_redirects() -> CreatePaymentIntentAutomaticPaymentMethods {
    let mut methods = CreatePaymentIntentAutomaticPaymentMethods::new(true);
    methods.allow_redirects = Some(CreatePaymentIntentAutomaticPaymentMethodsAllowRedirects::Never);
    methods
}

fn idempotent(key: &str) -> Result<RequestStrategy, GatewayError> {
    IdempotencyKey::new(key).map(RequestStrategy::Idempotent).map_err(|e| GatewayError::IdempotencyKey(e.to_string()))
}

fn payment_status(status: &PaymentIntentStatus) -> PaymentStatus {
    match status {
        PaymentIntentStatus::RequiresPaymentMethod => PaymentStatus::RequiresPaymentMethod,
        PaymentIntentStatus::RequiresConfirmation => PaymentStatus::RequiresConfirmation,
        PaymentIntentStatus::RequiresAction => PaymentStatus::RequiresAction,
        PaymentIntentStatus::Processing => PaymentStatus::Processing,
        PaymentIntentStatus::RequiresCapture => PaymentStatus::RequiresCapture,
        PaymentIntentStatus::Canceled => PaymentStatus::Canceled,
        PaymentIntentStatus::Succeeded => PaymentStatus::Succeeded,
        other => PaymentStatus::Other(other.as_str().to_owned()),
    }
}

fn payment_snapshot(pi: &PaymentIntent) -> PaymentSnapshot {
    PaymentSnapshot {
        id: pi.id.as_str().to_owned(),
        status: payment_status(&pi.status),
        amount: pi.amount,
        amount_received: pi.amount_received,
        currency: pi.currency.to_string(),
        customer_id: pi.customer.as_ref().map(|c| c.id().as_str().to_owned()),
        latest_charge_id: pi.latest_charge.as_ref().map(|c| c.id().as_str().to_owned()),
        client_secret: pi.client_secret.clone(),
        metadata: pi.metadata.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
        last_failure: pi.last_payment_error.as_ref().map(|e| PaymentFailure {
            code: e.code.as_ref().map(|c| c.as_str().to_owned()),
            decline_code: e.decline_code.clone(),
            message: e.message.clone(),
        }),
    }
}

fn refund_snapshot(refund: &Refund) -> RefundSnapshot {
    RefundSnapshot {
        id: refund.id.as_str().to_owned(),
        amount: refund.amount,
        currency: refund.currency.to_string(),
        status: refund.status.clone(),
        payment_intent_id: refund.payment_intent.as_ref().map(|p| p.id().as_str().to_owned()),
        charge_id: refund.charge.as_ref().map(|c| c.id().as_str().to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAYLOAD: &str = r#"{"id":"evt_1","object":"event","api_version":"2017-08-15","created":1700000000,"livemode":false,"pending_webhooks":1,"type":"payment_intent.succeeded","data":{"object":{"id":"pi_1","object":"payment_intent","amount":3300,"amount_capturable":0,"amount_received":3300,"capture_method":"automatic","confirmation_method":"automatic","created":1700000000,"currency":"jpy","livemode":false,"metadata":{"sale_id":"42"},"payment_method_types":["card"],"status":"succeeded","latest_charge":"ch_1"}}}"#;

    fn now() -> i64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs() as i64)
            .unwrap_or_default()
    }

    #[test]
    fn verifies_and_reads_a_signed_payment_intent_event() {
        let header = Webhook::generate_test_header(PAYLOAD, "whsec_x", Some(now()));
        let event = StripeGateway::verify_webhook(PAYLOAD, &header, "whsec_x").unwrap();
        assert_eq!(event.id, "evt_1");
        assert_eq!(event.event_type, "payment_intent.succeeded");
        let WebhookObject::PaymentIntent(pi) = event.object else { panic!("not a payment intent") };
        assert_eq!(pi.status, PaymentStatus::Succeeded);
        assert_eq!((pi.amount, pi.currency.as_str()), (3300, "jpy"));
        assert_eq!(pi.latest_charge_id.as_deref(), Some("ch_1"));
        assert_eq!(pi.metadata.get("sale_id").map(String::as_str), Some("42"));
    }

    #[test]
    fn refuses_wrong_secret_tampering_and_old_signatures() {
        let header = Webhook::generate_test_header(PAYLOAD, "whsec_x", Some(now()));
        assert!(matches!(
            StripeGateway::verify_webhook(PAYLOAD, &header, "whsec_other"),
            Err(GatewayError::WebhookSignature(_))
        ));
        let tampered = PAYLOAD.replace("3300", "33000");
        assert!(matches!(
            StripeGateway::verify_webhook(&tampered, &header, "whsec_x"),
            Err(GatewayError::WebhookSignature(_))
        ));
        let old = Webhook::generate_test_header(PAYLOAD, "whsec_x", Some(now() - 600));
        assert!(matches!(
            StripeGateway::verify_webhook(PAYLOAD, &old, "whsec_x"),
            Err(GatewayError::WebhookSignature(_))
        ));
        assert!(StripeGateway::verify_webhook(PAYLOAD, "garbage", "whsec_x").is_err());
    }

    #[test]
    fn signed_garbage_is_a_payload_error() {
        let header = Webhook::generate_test_header("{}", "whsec_x", Some(now()));
        assert!(matches!(
            StripeGateway::verify_webhook("{}", &header, "whsec_x"),
            Err(GatewayError::WebhookPayload(_))
        ));
    }

    #[test]
    fn rejects_bad_configuration_and_keys() {
        assert!(matches!(StripeGateway::new("", STRIPE_API_BASE), Err(GatewayError::Config(_))));
        assert!(matches!(StripeGateway::new("sk_test_x", "127.0.0.1:8420"), Err(GatewayError::Config(_))));
        assert!(StripeGateway::new("sk_test_x", "http://127.0.0.1:8420").is_ok());
        assert!(matches!(idempotent(""), Err(GatewayError::IdempotencyKey(_))));
        assert!(matches!(idempotent(&"k".repeat(256)), Err(GatewayError::IdempotencyKey(_))));
    }
}
