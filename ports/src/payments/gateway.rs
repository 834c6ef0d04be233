//! The payment provider as the application sees it: customers, card
//! payments, Japanese bank transfers, refunds and signed webhooks. Amounts
//! are whole yen; every request that moves money carries an
//! [`IdempotencyKey`] derived from our own records, so that a retry after a
//! timeout, a crash or a double click never charges twice.
//!
//! `adapters-stripe` implements it over Stripe (or the local fake Stripe).

use std::fmt;

use chrono::{DateTime, Utc};
use domain::account::Email;
use domain::ids::{SaleId, UserId};
use domain::money::Yen;
use domain::payment::{BankTransferInstructions, IntentStatus, KonbiniVoucher};

/// Longest key the provider accepts (Stripe: 255 characters).
pub const IDEMPOTENCY_KEY_MAX_LEN: usize = 255;

/// What a provider request with this key does for a sale.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyPurpose {
    /// Creating and confirming the sale's one payment (card or transfer).
    Confirm,
    /// One refund of the sale, named by our refund record's id.
    Refund { refund_id: i64 },
    /// Starting the monthly subscription whose first month is this sale.
    Subscribe,
}

/// Keeps the keys of different databases apart when they share one provider
/// account: every test database, and every developer's, numbers its sales
/// from 1, and the provider remembers a key for 24 hours. Production, alone
/// on its account, uses [`KeyNamespace::none`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct KeyNamespace(Option<String>);

impl KeyNamespace {
    pub const fn none() -> Self {
        Self(None)
    }

    /// The namespace itself (`None` in production), for ids we derive.
    pub fn name(&self) -> Option<&str> {
        self.0.as_deref()
    }

    /// 1 to 40 characters of `a-z`, `0-9` and `_`.
    pub fn new(name: &str) -> Result<Self, InvalidIdempotencyKey> {
        let valid = (1..=40).contains(&name.len())
            && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
        if !valid {
            return Err(InvalidIdempotencyKey(format!("namespace {name:?} is not 1-40 of [a-z0-9_]")));
        }
        Ok(Self(Some(name.to_string())))
    }

    fn prefix(&self, key: String) -> String {
        match &self.0 {
            Some(ns) => format!("{ns}-{key}"),
            None => key,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid idempotency key: {0}")]
pub struct InvalidIdempotencyKey(pub String);

/// The key that makes a provider request safe to repeat: the provider
/// carries out the first request with a key and answers every repeat (same
/// key, same parameters) with the first answer.
///
/// Keys are derived from our records, never random, so that a process that
/// crashed between sending a request and writing its answer sends the very
/// same key again when it (or the reconciler) retries: `sale-123-confirm`,
/// `sale-123-refund-7`, `user-42-customer`, each behind the namespace when
/// there is one.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct IdempotencyKey(String);

impl IdempotencyKey {
    /// The key of `purpose` for sale `sale_id`.
    pub fn for_sale(namespace: &KeyNamespace, sale_id: SaleId, purpose: KeyPurpose) -> Self {
        let key = match purpose {
            KeyPurpose::Confirm => format!("sale-{sale_id}-confirm"),
            KeyPurpose::Refund { refund_id } => format!("sale-{sale_id}-refund-{refund_id}"),
            KeyPurpose::Subscribe => format!("sale-{sale_id}-subscribe"),
        };
        Self(namespace.prefix(key))
    }

    /// The key of creating user `user_id`'s provider customer: two first
    /// card registrations at once make one customer.
    pub fn for_customer(namespace: &KeyNamespace, user_id: UserId) -> Self {
        Self(namespace.prefix(format!("user-{user_id}-customer")))
    }

    /// The key of creating the product and plan `plan_id`.
    pub fn for_plan(namespace: &KeyNamespace, plan_id: &str) -> Self {
        Self(namespace.prefix(format!("plan-{plan_id}")))
    }

    /// The key of changing subscription row `row` (`what`: its card or its stop).
    pub fn for_subscription(namespace: &KeyNamespace, row: i64, what: &str) -> Self {
        Self(namespace.prefix(format!("subscription-{row}-{what}")))
    }

    /// A key read back from storage: printable ASCII, 1 to 255 characters.
    pub fn parse(raw: &str) -> Result<Self, InvalidIdempotencyKey> {
        let valid = (1..=IDEMPOTENCY_KEY_MAX_LEN).contains(&raw.len()) && raw.bytes().all(|b| b.is_ascii_graphic());
        if !valid {
            return Err(InvalidIdempotencyKey(format!("{raw:?} is not 1-255 printable ASCII characters")));
        }
        Ok(Self(raw.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for IdempotencyKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

macro_rules! provider_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(String);

        impl $name {
            pub fn new(id: impl Into<String>) -> Self {
                Self(id.into())
            }

            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }
    };
}

provider_id!(
    /// The provider's customer (`cus_...`), kept in `payment_customers`.
    CustomerId
);
provider_id!(
    /// A payment at the provider (`pi_...`), kept in `sales.intent_id`.
    PaymentId
);
provider_id!(
    /// A card the provider holds (`pm_...`, or a legacy `card_...`).
    PaymentMethodId
);
provider_id!(
    /// A project's connected account (`acct_...`).
    ConnectedAccountId
);
provider_id!(
    /// A refund at the provider (`re_...`).
    RefundId
);
provider_id!(
    /// A provider event (`evt_...`), the key of `provider_events`.
    EventId
);
provider_id!(
    /// A provider subscription (`sub_...`), kept in `subscriptions.subscription_id`.
    SubscriptionId
);
provider_id!(
    /// A provider invoice (`in_...`): one month of a subscription, kept in `sales.invoice_id`.
    InvoiceId
);

/// The provider's product and monthly plan of one return at one price. The
/// ids are ours (derived from the return and the amount), so creating them
/// again is harmless and a new price makes a new plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MonthlyPlan {
    pub product_id: String,
    pub plan_id: String,
    /// The product's name at the provider (project and return titles).
    pub name: String,
    /// Charged every month, tax included.
    pub amount: Yen,
}

/// A subscription to start for the first sale of a monthly support.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewSubscription {
    pub customer: CustomerId,
    /// The member's saved card that pays every month.
    pub card: PaymentMethodId,
    pub plan_id: String,
    /// Stored in the subscription's metadata, so webhooks find our rows.
    pub sale_id: SaleId,
    pub subscription_row: i64,
}

/// A subscription's status as the provider names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubscriptionState {
    Incomplete,
    IncompleteExpired,
    Trialing,
    Active,
    PastDue,
    Canceled,
    Unpaid,
    Paused,
}

impl SubscriptionState {
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Incomplete => "incomplete",
            Self::IncompleteExpired => "incomplete_expired",
            Self::Trialing => "trialing",
            Self::Active => "active",
            Self::PastDue => "past_due",
            Self::Canceled => "canceled",
            Self::Unpaid => "unpaid",
            Self::Paused => "paused",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        Some(match raw {
            "incomplete" => Self::Incomplete,
            "incomplete_expired" => Self::IncompleteExpired,
            "trialing" => Self::Trialing,
            "active" => Self::Active,
            "past_due" => Self::PastDue,
            "canceled" => Self::Canceled,
            "unpaid" => Self::Unpaid,
            "paused" => Self::Paused,
            _ => return None,
        })
    }

    pub const ALL: [Self; 8] = [
        Self::Incomplete,
        Self::IncompleteExpired,
        Self::Trialing,
        Self::Active,
        Self::PastDue,
        Self::Canceled,
        Self::Unpaid,
        Self::Paused,
    ];

    /// Over for good: nothing will be charged again.
    pub const fn is_ended(self) -> bool {
        matches!(self, Self::Canceled | Self::IncompleteExpired | Self::Unpaid)
    }

    /// A monthly support that runs: charged (or about to be, or retrying).
    /// An incomplete one (its first payment never went through) and a
    /// paused one do not run; an ended one never again.
    pub const fn is_running(self) -> bool {
        matches!(self, Self::Active | Self::PastDue | Self::Trialing)
    }
}

/// A subscription as the provider reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderSubscription {
    pub id: SubscriptionId,
    pub status: SubscriptionState,
    /// The end of the paid period: the next charge, or the end when stopping.
    pub current_period_end: Option<DateTime<Utc>>,
    pub cancel_at_period_end: bool,
    pub card: Option<PaymentMethodId>,
    pub latest_invoice: Option<InvoiceId>,
    /// Our subscription row, from the metadata.
    pub row: Option<i64>,
}

/// One invoice (one month) of a subscription.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderInvoice {
    pub id: InvoiceId,
    pub subscription: Option<SubscriptionId>,
    pub paid: bool,
    pub amount_paid: Yen,
    pub amount_due: Yen,
    /// The payment that paid (or last tried to pay) it.
    pub payment: Option<PaymentId>,
    pub attempt_count: u32,
    /// When the provider tries again; `None` after the last failed attempt.
    pub next_payment_attempt: Option<DateTime<Utc>>,
}

/// A provider customer to create for one of our users.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewCustomer {
    pub user_id: UserId,
    pub email: Email,
    pub name: Option<String>,
}

/// Where a payment to a project with a connected account goes: the money
/// to the account, minus our application fee (spec 001 §9).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Destination {
    pub account: ConnectedAccountId,
    pub application_fee: Yen,
}

/// A card the provider keeps for a customer, as the card screens show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavedCard {
    pub id: PaymentMethodId,
    /// The provider's brand name: Visa, MasterCard, American Express, JCB,
    /// Diners Club, Discover (or Unknown).
    pub brand: String,
    pub last4: String,
    pub exp_month: u8,
    pub exp_year: u16,
}

/// A card as the provider holds it, and the customer it is attached to
/// (none yet for a card the browser just set up without one, a guest's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderCard {
    pub card: SavedCard,
    pub customer: Option<CustomerId>,
}

/// A card set-up the browser completes with the provider's library: it sends
/// the card to the provider (never to us), runs 3-D Secure when the card
/// asks, and answers with the PaymentMethod to register or charge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardSetup {
    /// The SetupIntent's client secret, for `stripe.confirmCardSetup`.
    pub client_secret: String,
}

/// A customer's cards and which one is charged by default.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CustomerCards {
    pub cards: Vec<SavedCard>,
    pub default: Option<PaymentMethodId>,
}

/// A card payment for one sale, created and confirmed at once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardCharge {
    /// Stored on the payment (metadata `sale_id`), so webhooks find the sale.
    pub sale_id: SaleId,
    /// The sale's total, tax included.
    pub amount: Yen,
    /// A card attached to `customer` (`pm_...`, or a legacy `card_...`).
    pub payment_method: PaymentMethodId,
    /// The customer the card belongs to: Stripe charges an attached card only
    /// with its customer, so a guest's one-off card is attached to the guest's
    /// customer too. `None` only for a payment method attached to nobody.
    pub customer: Option<CustomerId>,
    pub destination: Option<Destination>,
}

/// A Japanese bank transfer (振込) for one sale.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BankTransferRequest {
    pub sale_id: SaleId,
    pub amount: Yen,
    /// Required: the provider gives each customer its own account number.
    pub customer: CustomerId,
    pub destination: Option<Destination>,
}

/// A konbini payment (コンビニ決済) for one sale: a voucher the supporter
/// pays in cash at a convenience store before `expires_at`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KonbiniRequest {
    pub sale_id: SaleId,
    pub amount: Yen,
    pub customer: CustomerId,
    /// The provider requires the payer's name and e-mail on the voucher.
    pub billing_name: String,
    pub email: Email,
    /// 23:59:59 (Asia/Tokyo) of the sale's deadline day: the voucher and the
    /// sale expire together.
    pub expires_at: DateTime<Utc>,
    pub destination: Option<Destination>,
}

/// What the supporter still has to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NextAction {
    /// 3-D Secure: the browser finishes it with Stripe.js and this secret.
    Authenticate { client_secret: String },
    /// Transfer the money to this account.
    BankTransfer(BankTransferInstructions),
    /// Pay this voucher at a convenience store.
    Konbini(KonbiniVoucher),
}

/// Why the last attempt of a payment failed, as the provider says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentFailure {
    pub code: Option<String>,
    pub message: String,
}

/// A payment as the provider reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Payment {
    pub id: PaymentId,
    pub status: IntentStatus,
    pub amount: Yen,
    /// Money the payment has collected (the whole amount once succeeded).
    pub amount_received: Yen,
    /// What is still to be paid: zero once succeeded; for a bank transfer,
    /// smaller than `amount` after a partial transfer.
    pub amount_remaining: Yen,
    /// Our sale, from the payment's metadata (absent on foreign payments).
    pub sale_id: Option<SaleId>,
    pub destination: Option<Destination>,
    pub next_action: Option<NextAction>,
    pub last_failure: Option<PaymentFailure>,
}

impl Payment {
    /// The transfer instructions, when the payment waits for a transfer.
    pub fn bank_transfer(&self) -> Option<&BankTransferInstructions> {
        match &self.next_action {
            Some(NextAction::BankTransfer(instructions)) => Some(instructions),
            _ => None,
        }
    }

    /// The voucher, when the payment waits for the supporter at a store.
    pub fn konbini(&self) -> Option<&KonbiniVoucher> {
        match &self.next_action {
            Some(NextAction::Konbini(voucher)) => Some(voucher),
            _ => None,
        }
    }
}

/// A refund of part or all of one payment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefundRequest {
    pub payment: PaymentId,
    pub amount: Yen,
    /// For a payment with a [`Destination`]: take the refunded share back
    /// from the connected account too.
    pub reverse_transfer: bool,
    /// For a payment with a [`Destination`]: give back the same share of our
    /// application fee (the provider computes it proportionally to the
    /// refunded amount), so the connected account is not charged our fee
    /// for money it returned.
    pub refund_application_fee: bool,
    /// A bank-transfer payment has no card to pay back to: the provider
    /// mails this address to ask for a bank account, and the refund waits
    /// ([`RefundStatus::RequiresAction`]) until the supporter answers.
    pub instructions_email: Option<String>,
}

/// Where a refund stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefundStatus {
    Pending,
    RequiresAction,
    Succeeded,
    Failed,
    Canceled,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refund {
    pub id: RefundId,
    pub payment: PaymentId,
    pub amount: Yen,
    pub status: RefundStatus,
    /// The provider's reason when the refund failed (`failure_reason`).
    pub failure_reason: Option<String>,
}

/// What a webhook event says happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PaymentEventKind {
    /// `payment_intent.succeeded`: paid in full.
    Succeeded,
    /// `payment_intent.partially_funded`: part of a transfer arrived.
    PartiallyFunded,
    /// `payment_intent.payment_failed`.
    Failed,
    /// `payment_intent.requires_action`.
    RequiresAction,
    /// `payment_intent.processing`.
    Processing,
    /// `payment_intent.canceled`.
    Canceled,
    /// `invoice.paid` / `invoice.payment_succeeded`: a month was paid.
    InvoicePaid,
    /// `invoice.payment_failed`: a month's charge failed.
    InvoicePaymentFailed,
    /// `customer.subscription.created` / `.updated`.
    SubscriptionUpdated,
    /// `customer.subscription.deleted`: the subscription ended.
    SubscriptionDeleted,
    /// Anything else: acknowledge and ignore.
    Other,
}

/// A verified provider event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentEvent {
    /// Events repeat and arrive out of order: apply each id once.
    pub id: EventId,
    /// The provider's name, e.g. `payment_intent.succeeded`.
    pub event_type: String,
    pub kind: PaymentEventKind,
    pub created_at: DateTime<Utc>,
    /// The payment as it was when the event was sent, for payment events.
    /// Its status may already be out of date: apply it with
    /// `SaleStatus::after_provider_report`, or read the payment again.
    pub payment: Option<Payment>,
    /// The invoice, for invoice events.
    pub invoice: Option<ProviderInvoice>,
    /// The subscription, for subscription events.
    pub subscription: Option<ProviderSubscription>,
}

/// Why a provider request failed.
#[derive(Debug, thiserror::Error)]
pub enum GatewayError {
    /// The card was refused (issuer decline, insufficient funds, ...).
    /// `message` is the provider's (English at Stripe's API: log it, and show
    /// the supporter our Japanese text). The payment stays failed: repeating
    /// with the same key gives the same decline.
    #[error("payment declined: {message}")]
    Declined {
        message: String,
        code: Option<String>,
        decline_code: Option<String>,
        /// The failed payment, when the provider created one.
        payment: Option<PaymentId>,
    },
    /// The provider could not be reached, did not answer in time, asked us
    /// to slow down or failed on its side. The request may or may not have
    /// been carried out: repeating it with the same key is safe and gives
    /// the answer of the one request that counts.
    #[error("payment provider unavailable: {0}")]
    Unavailable(String),
    /// No such object at the provider.
    #[error("not found at the payment provider: {0}")]
    NotFound(String),
    /// The key was already used with other parameters: a bug on our side
    /// (a sale's terms never change). Nothing was done.
    #[error("idempotency key reused with other parameters: {0}")]
    KeyReused(String),
    /// The provider refused the request as invalid (a wrong key or account,
    /// a refund above what remains, ...). Repeating cannot help.
    #[error("payment provider refused the request: {0}")]
    Rejected(String),
    /// The provider answered something the adapter cannot read. The request
    /// may have been carried out: leave the sale to the reconciler.
    #[error("unreadable answer from the payment provider: {0}")]
    Unexpected(String),
}

impl GatewayError {
    /// Whether repeating the request with the same key may succeed.
    pub fn is_retryable(&self) -> bool {
        matches!(self, Self::Unavailable(_))
    }
}

/// Why a webhook was refused. Both mean: answer 400, change nothing.
#[derive(Debug, thiserror::Error)]
pub enum WebhookError {
    /// No signature, a signature that does not match the payload and our
    /// secret, or one whose timestamp is too old (replay).
    #[error("webhook signature rejected: {0}")]
    BadSignature(String),
    /// Correctly signed, but not an event this adapter can read.
    #[error("webhook payload unreadable: {0}")]
    BadPayload(String),
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait PaymentGateway: Send + Sync {
    /// Creates the provider customer of a user (Japanese locale, our user id
    /// in its metadata). A repeat with the same key MUST return the same
    /// customer instead of creating a second one.
    async fn create_customer(&self, customer: NewCustomer, key: IdempotencyKey) -> Result<CustomerId, GatewayError>;

    /// Creates and confirms a card payment of `charge.amount` yen, with the
    /// application fee and destination when given and `sale_id` in its
    /// metadata.
    ///
    /// MUST answer:
    /// * `Ok` with status `Succeeded` when the card was charged;
    /// * `Ok` with status `RequiresAction` and [`NextAction::Authenticate`]
    ///   (the client secret) when the card needs 3-D Secure; the result
    ///   then comes by webhook or [`PaymentGateway::payment`];
    /// * [`GatewayError::Declined`] with the provider's message when the
    ///   card was refused.
    ///
    /// A repeat with the same key MUST NOT charge again: it returns the
    /// first answer (the same payment, or the same decline).
    async fn charge_card(&self, charge: CardCharge, key: IdempotencyKey) -> Result<Payment, GatewayError>;

    /// Creates and confirms a Japanese bank transfer of `transfer.amount`
    /// yen from the customer's balance.
    ///
    /// MUST answer `Ok` with status `RequiresAction` and
    /// [`NextAction::BankTransfer`] (bank, branch, 普通 account, number,
    /// holder, reference, `amount_remaining`), or `Succeeded` when money
    /// the customer had already transferred covers it. A repeat with the
    /// same key MUST return the same payment and instructions.
    async fn start_bank_transfer(
        &self,
        transfer: BankTransferRequest,
        key: IdempotencyKey,
    ) -> Result<Payment, GatewayError>;

    /// Creates and confirms a konbini payment of `konbini.amount` yen whose
    /// voucher expires at `konbini.expires_at`.
    ///
    /// MUST answer `Ok` with status `RequiresAction` and
    /// [`NextAction::Konbini`] (the chains with their payment codes and
    /// confirmation numbers, the expiry, the voucher page). A voucher is paid
    /// in full or not at all: the payment then becomes `Succeeded`; one that
    /// expires unpaid comes back `RequiresPaymentMethod` or `Canceled`. A
    /// repeat with the same key MUST return the same payment and voucher.
    async fn start_konbini(&self, konbini: KonbiniRequest, key: IdempotencyKey) -> Result<Payment, GatewayError>;

    /// Starts a card set-up for off-session use (monthly renewals) that the
    /// browser confirms. With a customer, the provider attaches the card to it
    /// once confirmed; without one (a guest), the card stays nobody's until
    /// [`PaymentGateway::attach_card`].
    async fn start_card_setup(&self, customer: Option<CustomerId>) -> Result<CardSetup, GatewayError>;

    /// The card of a set-up the browser confirmed, found by its client
    /// secret. MUST return [`GatewayError::NotFound`] unless the secret is the
    /// set-up's and the set-up succeeded (3-D Secure passed, if asked).
    async fn set_up_card(&self, client_secret: &str) -> Result<PaymentMethodId, GatewayError>;

    /// A card PaymentMethod and whose it is. MUST NOT change anything; MUST
    /// return [`GatewayError::NotFound`] for an unknown id or a payment
    /// method that is not a card.
    async fn card(&self, card: &PaymentMethodId) -> Result<ProviderCard, GatewayError>;

    /// Attaches a card nobody holds yet to the customer (it does not become
    /// the default: see [`PaymentGateway::set_default_card`]). A card the provider refuses is
    /// [`GatewayError::Declined`]; one attached to another customer MUST be
    /// refused. Callers check ownership first with [`PaymentGateway::card`].
    async fn attach_card(&self, customer: &CustomerId, card: &PaymentMethodId) -> Result<SavedCard, GatewayError>;

    /// The customer's cards, oldest first (PaymentMethods, then cards saved
    /// the old way as sources), and its default card.
    /// [`GatewayError::NotFound`] for an unknown customer.
    async fn cards(&self, customer: &CustomerId) -> Result<CustomerCards, GatewayError>;

    /// Makes one of the customer's cards its default. MUST return
    /// [`GatewayError::NotFound`] for a card that is not the customer's.
    async fn set_default_card(&self, customer: &CustomerId, card: &PaymentMethodId) -> Result<(), GatewayError>;

    /// Removes a card from the customer (a repeat is harmless:
    /// [`GatewayError::NotFound`] means it is already gone, or was never
    /// the customer's). When it was the default, the provider makes another
    /// card (if any) the default.
    async fn delete_card(&self, customer: &CustomerId, card: &PaymentMethodId) -> Result<(), GatewayError>;

    /// Cancels a payment nobody will complete (a bank transfer past its
    /// deadline). A payment that succeeded meanwhile cannot be cancelled:
    /// the answer then is the payment as it is, `Succeeded`; a repeat
    /// answers the payment `Canceled`. Money transferred after the
    /// cancellation stays in the customer's balance at the provider.
    async fn cancel_payment(&self, id: &PaymentId) -> Result<Payment, GatewayError>;

    /// Reads a payment as the provider sees it now (for the reconciler and
    /// for server-side checks after 3-D Secure). MUST return
    /// [`GatewayError::NotFound`] for an unknown id.
    async fn payment(&self, id: &PaymentId) -> Result<Payment, GatewayError>;

    /// Refunds `refund.amount` yen of a paid payment. A repeat with the same
    /// key MUST NOT refund again. A refund above what remains refundable, or
    /// one the provider refuses (its balance too low, ...), is
    /// [`GatewayError::Rejected`] with the provider's reason; an unknown
    /// payment is [`GatewayError::NotFound`]. A bank-transfer refund may
    /// answer [`RefundStatus::RequiresAction`] (waiting for the supporter's
    /// bank account) or `Pending`; [`PaymentGateway::refund_status`] tells
    /// how it ended.
    async fn refund(&self, refund: RefundRequest, key: IdempotencyKey) -> Result<Refund, GatewayError>;

    /// Reads a refund as the provider sees it now. MUST return
    /// [`GatewayError::NotFound`] for an unknown id.
    async fn refund_status(&self, id: &RefundId) -> Result<Refund, GatewayError>;

    /// Cancels a refund still waiting for the supporter's bank account
    /// ([`RefundStatus::RequiresAction`]): unanswered for 6 months, it lapses
    /// (terms) and the money stays with us. Answers the refund as it is
    /// then: `Canceled`, or, when the supporter answered meanwhile, how that
    /// stands (a repeat answers `Canceled` again). A refund in another state
    /// is [`GatewayError::Rejected`]; an unknown one [`GatewayError::NotFound`].
    async fn cancel_refund(&self, id: &RefundId) -> Result<Refund, GatewayError>;

    /// Yen the provider has refunded or is refunding of a payment (its
    /// refunds neither failed nor cancelled: a refund waiting for the
    /// supporter's bank account counts, as it does in our
    /// `sales.refunded_amount`), for the reconcile report.
    async fn refunded(&self, payment: &PaymentId) -> Result<Yen, GatewayError>;

    /// Checks a webhook's signature header against the payload and our
    /// webhook secret (refusing timestamps older than the provider's
    /// tolerance, 5 minutes) and reads the event. MUST NOT accept a payload
    /// whose signature does not verify. No side effect: a redelivered event
    /// verifies again, and deduplicating it is the caller's job.
    fn verify_webhook(&self, payload: &str, signature_header: &str) -> Result<PaymentEvent, WebhookError>;

    /// Makes sure the product and monthly plan exist (creating an existing
    /// one is not an error).
    async fn ensure_plan(&self, plan: &MonthlyPlan, key: IdempotencyKey) -> Result<(), GatewayError>;

    /// Starts a subscription on the plan, paid by `card`, charging the first
    /// month at once. A first charge the card refuses is
    /// [`GatewayError::Declined`] and leaves no subscription. A repeat with
    /// the same key MUST NOT start a second one.
    async fn create_subscription(
        &self,
        subscription: NewSubscription,
        key: IdempotencyKey,
    ) -> Result<ProviderSubscription, GatewayError>;

    async fn subscription(&self, id: &SubscriptionId) -> Result<ProviderSubscription, GatewayError>;

    /// Moves the subscription to another card of the customer and/or asks
    /// it to stop at the end of the paid period.
    async fn update_subscription(
        &self,
        id: &SubscriptionId,
        card: Option<PaymentMethodId>,
        cancel_at_period_end: Option<bool>,
    ) -> Result<ProviderSubscription, GatewayError>;

    async fn invoice(&self, id: &InvoiceId) -> Result<ProviderInvoice, GatewayError>;

    /// The subscription's invoices, newest first (the reconciler's view of its months).
    async fn invoices(&self, subscription: &SubscriptionId) -> Result<Vec<ProviderInvoice>, GatewayError>;
}

/// One gateway shared by several use cases.
#[async_trait::async_trait]
impl<G: PaymentGateway + ?Sized> PaymentGateway for std::sync::Arc<G> {
    async fn create_customer(&self, customer: NewCustomer, key: IdempotencyKey) -> Result<CustomerId, GatewayError> {
        (**self).create_customer(customer, key).await
    }

    async fn charge_card(&self, charge: CardCharge, key: IdempotencyKey) -> Result<Payment, GatewayError> {
        (**self).charge_card(charge, key).await
    }

    async fn start_bank_transfer(
        &self,
        transfer: BankTransferRequest,
        key: IdempotencyKey,
    ) -> Result<Payment, GatewayError> {
        (**self).start_bank_transfer(transfer, key).await
    }

    async fn start_konbini(&self, konbini: KonbiniRequest, key: IdempotencyKey) -> Result<Payment, GatewayError> {
        (**self).start_konbini(konbini, key).await
    }

    async fn start_card_setup(&self, customer: Option<CustomerId>) -> Result<CardSetup, GatewayError> {
        (**self).start_card_setup(customer).await
    }

    async fn set_up_card(&self, client_secret: &str) -> Result<PaymentMethodId, GatewayError> {
        (**self).set_up_card(client_secret).await
    }

    async fn card(&self, card: &PaymentMethodId) -> Result<ProviderCard, GatewayError> {
        (**self).card(card).await
    }

    async fn attach_card(&self, customer: &CustomerId, card: &PaymentMethodId) -> Result<SavedCard, GatewayError> {
        (**self).attach_card(customer, card).await
    }

    async fn cards(&self, customer: &CustomerId) -> Result<CustomerCards, GatewayError> {
        (**self).cards(customer).await
    }

    async fn set_default_card(&self, customer: &CustomerId, card: &PaymentMethodId) -> Result<(), GatewayError> {
        (**self).set_default_card(customer, card).await
    }

    async fn delete_card(&self, customer: &CustomerId, card: &PaymentMethodId) -> Result<(), GatewayError> {
        (**self).delete_card(customer, card).await
    }

    async fn cancel_payment(&self, id: &PaymentId) -> Result<Payment, GatewayError> {
        (**self).cancel_payment(id).await
    }

    async fn payment(&self, id: &PaymentId) -> Result<Payment, GatewayError> {
        (**self).payment(id).await
    }

    async fn refund(&self, refund: RefundRequest, key: IdempotencyKey) -> Result<Refund, GatewayError> {
        (**self).refund(refund, key).await
    }

    async fn refund_status(&self, id: &RefundId) -> Result<Refund, GatewayError> {
        (**self).refund_status(id).await
    }

    async fn cancel_refund(&self, id: &RefundId) -> Result<Refund, GatewayError> {
        (**self).cancel_refund(id).await
    }

    async fn refunded(&self, payment: &PaymentId) -> Result<Yen, GatewayError> {
        (**self).refunded(payment).await
    }

    fn verify_webhook(&self, payload: &str, signature_header: &str) -> Result<PaymentEvent, WebhookError> {
        (**self).verify_webhook(payload, signature_header)
    }

    async fn ensure_plan(&self, plan: &MonthlyPlan, key: IdempotencyKey) -> Result<(), GatewayError> {
        (**self).ensure_plan(plan, key).await
    }

    async fn create_subscription(
        &self,
        subscription: NewSubscription,
        key: IdempotencyKey,
    ) -> Result<ProviderSubscription, GatewayError> {
        (**self).create_subscription(subscription, key).await
    }

    async fn subscription(&self, id: &SubscriptionId) -> Result<ProviderSubscription, GatewayError> {
        (**self).subscription(id).await
    }

    async fn update_subscription(
        &self,
        id: &SubscriptionId,
        card: Option<PaymentMethodId>,
        cancel_at_period_end: Option<bool>,
    ) -> Result<ProviderSubscription, GatewayError> {
        (**self).update_subscription(id, card, cancel_at_period_end).await
    }

    async fn invoice(&self, id: &InvoiceId) -> Result<ProviderInvoice, GatewayError> {
        (**self).invoice(id).await
    }

    async fn invoices(&self, subscription: &SubscriptionId) -> Result<Vec<ProviderInvoice>, GatewayError> {
        (**self).invoices(subscription).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_derived_from_the_sale_and_what_the_request_does() {
        let none = KeyNamespace::none();
        assert_eq!(IdempotencyKey::for_sale(&none, SaleId(123), KeyPurpose::Confirm).as_str(), "sale-123-confirm");
        assert_eq!(
            IdempotencyKey::for_sale(&none, SaleId(123), KeyPurpose::Refund { refund_id: 7 }).as_str(),
            "sale-123-refund-7"
        );
        assert_eq!(IdempotencyKey::for_customer(&none, UserId(42)).as_str(), "user-42-customer");
    }

    #[test]
    fn the_same_sale_always_gets_the_same_key_so_a_retry_cannot_charge_twice() {
        let ns = KeyNamespace::new("test_db_1").unwrap();
        assert_eq!(
            IdempotencyKey::for_sale(&ns, SaleId(9), KeyPurpose::Confirm),
            IdempotencyKey::for_sale(&ns, SaleId(9), KeyPurpose::Confirm)
        );
        assert_ne!(
            IdempotencyKey::for_sale(&ns, SaleId(9), KeyPurpose::Confirm),
            IdempotencyKey::for_sale(&ns, SaleId(9), KeyPurpose::Refund { refund_id: 1 })
        );
    }

    #[test]
    fn two_databases_sharing_one_provider_account_never_share_a_key() {
        let a = KeyNamespace::new("db_a").unwrap();
        let b = KeyNamespace::new("db_b").unwrap();
        let key_a = IdempotencyKey::for_sale(&a, SaleId(1), KeyPurpose::Confirm);
        assert_eq!(key_a.as_str(), "db_a-sale-1-confirm");
        assert_ne!(key_a, IdempotencyKey::for_sale(&b, SaleId(1), KeyPurpose::Confirm));
    }

    #[test]
    fn namespaces_and_stored_keys_are_checked() {
        assert!(KeyNamespace::new("").is_err());
        assert!(KeyNamespace::new("Upper").is_err());
        assert!(KeyNamespace::new("with-dash").is_err());
        assert!(KeyNamespace::new(&"a".repeat(41)).is_err());
        assert_eq!(IdempotencyKey::parse("sale-1-confirm").unwrap().to_string(), "sale-1-confirm");
        assert!(IdempotencyKey::parse("").is_err());
        assert!(IdempotencyKey::parse("has space").is_err());
        assert!(IdempotencyKey::parse(&"k".repeat(256)).is_err());
        assert!(IdempotencyKey::parse(&"k".repeat(255)).is_ok());
    }

    #[test]
    fn only_an_unavailable_provider_is_worth_asking_again() {
        assert!(GatewayError::Unavailable("timeout".into()).is_retryable());
        let declined = GatewayError::Declined {
            message: "カードが拒否されました。".into(),
            code: None,
            decline_code: None,
            payment: None,
        };
        assert!(!declined.is_retryable());
        assert!(!GatewayError::KeyReused("x".into()).is_retryable());
        assert!(!GatewayError::Rejected("x".into()).is_retryable());
        assert!(!GatewayError::Unexpected("x".into()).is_retryable());
    }

    #[test]
    fn a_payment_waiting_for_a_transfer_exposes_its_instructions() {
        let instructions = BankTransferInstructions {
            amount_remaining: Yen(3000),
            reference: Some("REF1".into()),
            bank_name: "ローカル銀行".into(),
            bank_code: Some("0999".into()),
            branch_name: "テスト支店".into(),
            branch_code: Some("999".into()),
            account_type: domain::payment::BankAccountType::Ordinary,
            account_number: "1234567".into(),
            account_holder_name: "ﾛｰｶﾙｽﾄﾗｲﾌﾟ(ｶ".into(),
        };
        let mut payment = Payment {
            id: PaymentId::new("pi_1"),
            status: IntentStatus::RequiresAction,
            amount: Yen(5000),
            amount_received: Yen(0),
            amount_remaining: Yen(3000),
            sale_id: Some(SaleId(1)),
            destination: None,
            next_action: Some(NextAction::BankTransfer(instructions.clone())),
            last_failure: None,
        };
        assert_eq!(payment.bank_transfer(), Some(&instructions));
        payment.next_action = Some(NextAction::Authenticate { client_secret: "pi_1_secret".into() });
        assert_eq!(payment.bank_transfer(), None);
    }
}
