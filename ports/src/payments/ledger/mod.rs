//! The storage side of the payments core: the records a support, its
//! payment and a monthly support are kept as, and one port per job:
//! [`SaleStore`] (checkout and sales), [`SweepStore`] (what the sweeps and
//! the reconcile report read), [`EventStore`] (the provider's events),
//! [`CustomerStore`] (provider customers) and [`SubscriptionStore`]
//! (monthly supports). Every method is one transaction; none is ever held
//! open across a provider call.

mod customers;
mod events;
mod sales;
mod subscriptions;
mod sweeps;

pub use customers::CustomerStore;
#[cfg(any(test, feature = "mocks"))]
pub use customers::MockCustomerStore;
#[cfg(any(test, feature = "mocks"))]
pub use events::MockEventStore;
pub use events::{EventStore, MAX_EVENT_ATTEMPTS};
#[cfg(any(test, feature = "mocks"))]
pub use sales::MockSaleStore;
pub use sales::SaleStore;
#[cfg(any(test, feature = "mocks"))]
pub use subscriptions::MockSubscriptionStore;
pub use subscriptions::SubscriptionStore;
#[cfg(any(test, feature = "mocks"))]
pub use sweeps::MockSweepStore;
pub use sweeps::SweepStore;

use chrono::{DateTime, NaiveDate, Utc};
use domain::account::Email;
use domain::ids::{ProjectId, ReturnId, SaleId, UserId};
use domain::lot::Lot;
use domain::money::{FeeSchedule, MoneyError, PriceBreakdown, TaxRate, Yen};
use domain::payment::{BankTransferInstructions, KonbiniVoucher, PayType, SaleStatus};
use domain::profile::Address;
use domain::returns::{PurchaseBlock, Remaining, ReturnType};

use super::gateway::{
    ConnectedAccountId, CustomerId, InvoiceId, PaymentId, PaymentMethodId, SubscriptionId, SubscriptionState,
};
use crate::RepoError;

/// What the server needs to know to price and accept a support of one
/// return, read in one go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checkout {
    pub project_id: ProjectId,
    pub project_slug: String,
    pub project_title: String,
    pub return_id: ReturnId,
    pub return_title: String,
    pub return_type: ReturnType,
    /// Unit price as the project lists it (see `TaxMode`).
    pub price: Yen,
    pub is_donation: bool,
    pub tax_includes: bool,
    pub tax_rate: TaxRate,
    pub lot_disable: bool,
    /// `Some(label)` when the return needs a delivery address.
    pub address_label: Option<String>,
    /// The project's extra question: label and its own alert text.
    pub additional: Option<AdditionalQuestion>,
    pub accepts_card: bool,
    pub accepts_bank_transfer: bool,
    pub accepts_konbini: bool,
    /// The project's last open day (Asia/Tokyo).
    pub period_end: NaiveDate,
    /// Payments go to this account, minus the application fee.
    pub connected_account: Option<ConnectedAccountId>,
    pub fee_schedule: FeeSchedule,
    /// The project's period has not ended.
    pub project_open: bool,
    pub return_disabled: bool,
    pub remaining: Remaining,
    /// A return offered to one supporter only (`show_user_email`): their e-mail.
    pub only_for: Option<String>,
    /// A monthly return (`returns.interval = 'month'`): backing it starts a subscription.
    pub monthly: bool,
}

impl Checkout {
    pub const fn accepts(&self, pay_type: PayType) -> bool {
        match pay_type {
            PayType::Card => self.accepts_card,
            PayType::BankTransfer => self.accepts_bank_transfer,
            PayType::Konbini => self.accepts_konbini,
        }
    }

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

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdditionalQuestion {
    pub label: String,
    pub alert: Option<String>,
}

/// Who a guest e-mail belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GuestLookup {
    /// No account: a guest account may be made.
    Unknown,
    /// A guest (or a signup not yet activated): supports go to this account.
    Guest(UserId),
    /// A member: they must log in to support.
    Member,
}

/// The delivery address chosen at step 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeliveryAddress {
    /// Typed at step 1 (already validated); stored as a new address of the supporter.
    New(Address),
    /// One of the supporter's saved addresses; the repository MUST refuse
    /// (`RepoError::NotFound`) an id that is not the supporter's.
    Saved(i64),
}

/// A support to write: everything is already validated and priced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewSale {
    pub user: UserId,
    pub project: ProjectId,
    pub ret: ReturnId,
    pub pay_type: PayType,
    pub terms: PriceBreakdown,
    pub application_fee: Yen,
    pub connected_account: Option<ConnectedAccountId>,
    /// The client's key of this confirm; (user, key) is unique.
    pub idempotency_key: String,
    /// Display, company or organisation name.
    pub display_name: String,
    /// Sponsor lists show 匿名 instead of the name.
    pub anonymous: bool,
    pub corporate_url: Option<String>,
    /// One of the supporter's uploaded logos (company and organisation returns).
    pub logo_url_id: Option<i64>,
    pub comment: Option<String>,
    /// The project's question (label copied) and the answer.
    pub additional: Option<(String, String)>,
    pub address: Option<DeliveryAddress>,
    /// Bank transfers and konbini: the last day to pay.
    pub transfer_deadline: Option<NaiveDate>,
}

/// A sale as the flow, the mails and the history need it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SaleRecord {
    pub id: SaleId,
    pub user: UserId,
    /// The supporter's address, for the mails.
    pub email: Email,
    pub project_id: ProjectId,
    pub project_slug: String,
    pub project_title: String,
    pub return_id: ReturnId,
    pub return_title: String,
    pub pay_type: PayType,
    pub status: SaleStatus,
    pub terms: PriceBreakdown,
    pub application_fee: Yen,
    pub connected_account: Option<ConnectedAccountId>,
    pub payment: Option<PaymentId>,
    pub display_name: String,
    pub amount_remaining: Option<Yen>,
    pub instructions: Option<BankTransferInstructions>,
    /// Konbini: the voucher to pay at the store.
    pub voucher: Option<KonbiniVoucher>,
    /// Bank transfers and konbini: the last day to pay.
    pub transfer_deadline: Option<NaiveDate>,
    pub one_time_card: Option<PaymentMethodId>,
    /// The card charged (set before the charge is sent).
    pub card: Option<PaymentMethodId>,
    pub refund_required: bool,
    /// Refunded to the supporter so far, as the provider confirmed it (0 when nothing).
    pub refunded: Yen,
    /// Of `refunded`, refunds that lapsed unanswered (`unclaimed`): cancelled at
    /// the provider, the amount kept by the company (terms).
    pub unclaimed: Yen,
    pub created_at: DateTime<Utc>,
}

/// Writing a support either makes a sale or finds the one this key made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Placed {
    New(SaleRecord),
    /// The same (user, idempotency key) was placed before: nothing written.
    Existing(SaleRecord),
}

#[derive(Debug, thiserror::Error)]
pub enum PlaceError {
    /// The stock check refused the lots (the return's row lock makes this
    /// exact under any concurrency): nothing was written.
    #[error(transparent)]
    Blocked(#[from] PurchaseBlock),
    #[error(transparent)]
    Repo(#[from] RepoError),
}

/// What the provider said about a sale's payment, to record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentReport {
    pub payment: Option<PaymentId>,
    /// The status the provider's answer means (`IntentStatus::sale_status`).
    pub status: SaleStatus,
    pub amount_remaining: Option<Yen>,
    pub instructions: Option<BankTransferInstructions>,
    /// Konbini: the voucher, replaced when given.
    pub voucher: Option<KonbiniVoucher>,
    /// A card attached for this sale only, to remove once the payment is final.
    pub one_time_card: Option<PaymentMethodId>,
    /// The card the sale is charged to, stored before the charge.
    pub card: Option<PaymentMethodId>,
}

/// The sale after a report, and what changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recorded {
    pub sale: SaleRecord,
    /// The status the sale moved from, when it moved
    /// (`SaleStatus::after_provider_report`).
    pub previous: Option<SaleStatus>,
    /// Money arrived for a cancelled sale whose return has no stock left: the
    /// sale stays cancelled and is flagged for refund.
    pub refund_required: bool,
}

/// A subscription as the reconcile report compares it with the provider.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubscriptionTally {
    pub id: i64,
    pub project_id: ProjectId,
    pub provider: SubscriptionId,
    pub status: SubscriptionState,
    /// Months recorded as paid sales (one per paid invoice).
    pub months_paid: i64,
}

/// A monthly support as we keep it (mirrored from the provider).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubscriptionRecord {
    pub id: i64,
    pub user: UserId,
    pub email: Email,
    pub project_id: ProjectId,
    pub project_slug: String,
    pub project_title: String,
    pub return_id: ReturnId,
    pub return_title: String,
    /// The first month's sale.
    pub sale: SaleId,
    pub display_name: String,
    /// Charged each month, tax included.
    pub amount: Yen,
    pub customer: CustomerId,
    pub provider: Option<SubscriptionId>,
    pub status: SubscriptionState,
    pub current_period_end: Option<DateTime<Utc>>,
    pub cancel_at_period_end: bool,
    pub card: Option<PaymentMethodId>,
    pub failure_mailed_invoice: Option<InvoiceId>,
    pub end_mailed: bool,
    pub created_at: DateTime<Utc>,
}

impl SubscriptionRecord {
    /// Still charging (or still to be charged until the period's end).
    pub const fn is_running(&self) -> bool {
        matches!(self.status, SubscriptionState::Active | SubscriptionState::PastDue | SubscriptionState::Trialing)
    }

    /// Running, or being started (its first payment not settled yet): a
    /// member has at most one such monthly support per return.
    pub const fn holds_its_return(&self) -> bool {
        self.is_running() || matches!(self.status, SubscriptionState::Incomplete)
    }
}

/// What recording a paid invoice did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MonthRecorded {
    /// The first month: the invoice was tied to the support's own sale, which
    /// the caller records as paid through `record_payment`.
    First(SaleId),
    /// A later month: a new sale, written paid.
    Renewal(Box<SaleRecord>),
    /// This invoice was recorded before (a redelivered webhook).
    Already,
}
