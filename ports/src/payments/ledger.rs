//! Where supports (sales) are written and their payments recorded: the
//! storage side of the backing flow. Every method is one transaction; none
//! is ever held open across a provider call.

use chrono::{DateTime, NaiveDate, Utc};
use domain::account::Email;
use domain::ids::{ProjectId, ReturnId, SaleId, UserId};
use domain::money::{FeeSchedule, PriceBreakdown, TaxRate, Yen};
use domain::payment::{BankTransferInstructions, PayType, SaleStatus};
use domain::profile::Address;
use domain::returns::{PurchaseBlock, Remaining, ReturnType};

use super::gateway::{
    ConnectedAccountId, CustomerId, InvoiceId, PaymentId, PaymentMethodId, ProviderInvoice, ProviderSubscription,
    SubscriptionId, SubscriptionState,
};
use crate::RepoError;

/// Failed applications of one provider event after which the reconciler
/// stops retrying it (about ten minutes of sweeps); the sales it names are
/// still asked about by the reconciler's own sweep.
pub const MAX_EVENT_ATTEMPTS: i32 = 20;

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
    /// Bank transfers: the last day to transfer.
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
    pub transfer_deadline: Option<NaiveDate>,
    pub one_time_card: Option<PaymentMethodId>,
    /// The card charged (set before the charge is sent).
    pub card: Option<PaymentMethodId>,
    pub refund_required: bool,
    /// Refunded to the supporter so far, as the provider confirmed it (0 when nothing).
    pub refunded: Yen,
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

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait SupportLedger: Send + Sync {
    /// The project and return as a support needs them; `None` when either is
    /// unknown, hidden, or the return is not the project's.
    async fn checkout(&self, project: ProjectId, ret: ReturnId) -> Result<Option<Checkout>, RepoError>;

    /// The member's e-mail, `NotFound` for an unknown user.
    async fn member_email(&self, user: UserId) -> Result<Email, RepoError>;

    async fn lookup_guest(&self, email: &Email) -> Result<GuestLookup, RepoError>;

    /// Makes a guest account (status guest, the seed's flag 200) for an
    /// address nobody holds; a concurrent creation of the same address
    /// returns that account. `RepoError::Conflict` when a member holds it.
    async fn create_guest(&self, email: &Email) -> Result<UserId, RepoError>;

    /// In ONE transaction: the sale (status pending) with its display name,
    /// comment, additional data and address, taking the return's stock. A
    /// repeat of (user, idempotency key) writes nothing and returns the sale
    /// it made. Oversold stock is `PlaceError::Blocked(SoldOut | NotEnoughLeft)`.
    async fn place(&self, sale: NewSale) -> Result<Placed, PlaceError>;

    async fn sale(&self, id: SaleId) -> Result<Option<SaleRecord>, RepoError>;

    async fn sale_by_payment(&self, payment: &PaymentId) -> Result<Option<SaleRecord>, RepoError>;

    /// The sale `user` placed with idempotency key `key`; `None` when that
    /// key was never used by that user.
    async fn sale_by_key(&self, user: UserId, key: &str) -> Result<Option<SaleRecord>, RepoError>;

    /// Applies a provider report under the sale's row lock: the status moves
    /// only as `SaleStatus::after_provider_report` allows (a stale or
    /// repeated report changes nothing); the payment id and the card are set once;
    /// the remaining amount and instructions are replaced when given. A cancelled
    /// sale that is paid after all takes its lots again, or, with no stock
    /// left, stays cancelled with `refund_required`. `paid_at` and the refund
    /// flag (1 = refundable) are set when the sale becomes succeeded.
    async fn record_payment(
        &self,
        sale: SaleId,
        report: PaymentReport,
        now: DateTime<Utc>,
    ) -> Result<Recorded, RepoError>;

    /// Sales not final (pending, requires_action, processing,
    /// awaiting_bank_transfer) last changed before `changed_before`, oldest
    /// first: the reconciler asks the provider about each.
    async fn unsettled(&self, changed_before: DateTime<Utc>, limit: i64) -> Result<Vec<SaleRecord>, RepoError>;

    /// Sales that have a payment at the provider, by id, the first `limit`
    /// with an id above `after`: the reconcile report reads them page by page.
    async fn sales_with_payment(&self, after: SaleId, limit: i64) -> Result<Vec<SaleRecord>, RepoError>;

    /// Bank-transfer sales still unpaid whose deadline is before `today`.
    async fn overdue_transfers(&self, today: NaiveDate, limit: i64) -> Result<Vec<SaleRecord>, RepoError>;

    /// Bank-transfer sales cancelled at their deadline whose payment at the
    /// provider is still open (not closed by [`Self::close_transfer`], not
    /// flagged for refund), last changed before `changed_before`, least
    /// recently changed first: the reconciler asks the provider whether money
    /// arrived late (recording its answer changes the sale, so the next pass
    /// takes the next ones).
    async fn late_transfers(&self, changed_before: DateTime<Utc>, limit: i64) -> Result<Vec<SaleRecord>, RepoError>;

    /// The same cancelled transfers with an open payment, whose deadline is
    /// before `deadline_before`, oldest deadline first: the grace sweep closes
    /// their payments at the provider.
    async fn transfers_to_close(&self, deadline_before: NaiveDate, limit: i64) -> Result<Vec<SaleRecord>, RepoError>;

    /// Records that the provider's payment of a cancelled transfer was closed,
    /// so the sale leaves both lists above. With `partly_paid` (money arrived
    /// for part of it) a sale still cancelled is flagged `refund_required`, as
    /// a late payment with no stock left is. A sale that was paid meanwhile
    /// keeps its status and is never flagged. MUST return
    /// `RepoError::NotFound` when no sale has `sale`.
    async fn close_transfer(
        &self,
        sale: SaleId,
        partly_paid: bool,
        now: DateTime<Utc>,
    ) -> Result<SaleRecord, RepoError>;

    /// The user's provider customer, if one was made.
    async fn customer(&self, user: UserId) -> Result<Option<CustomerId>, RepoError>;

    /// Stores the user's provider customer; when one is stored already
    /// (a concurrent first card), keeps and returns that one.
    async fn save_customer(&self, user: UserId, customer: &CustomerId) -> Result<CustomerId, RepoError>;

    /// Records a verified provider event; `false` when an event of that id
    /// was applied before (a redelivery), so it is applied once. An event
    /// recorded but not applied yet (its apply failed, or the process died
    /// half way) answers `true` again: a redelivery is another attempt.
    async fn record_event(
        &self,
        event_id: &str,
        event_type: &str,
        object_id: Option<String>,
        payload: serde_json::Value,
        now: DateTime<Utc>,
    ) -> Result<bool, RepoError>;

    /// Marks an event applied (`error: None`) or counts a failed application.
    async fn finish_event(&self, event_id: &str, error: Option<String>, now: DateTime<Utc>) -> Result<(), RepoError>;

    /// Payments named by events received but not yet applied, oldest first,
    /// up to [`MAX_EVENT_ATTEMPTS`] failed attempts each: an event that keeps
    /// failing stays in the table with its last error for an operator.
    async fn unapplied_event_payments(&self, limit: i64) -> Result<Vec<(String, PaymentId)>, RepoError>;

    /// Writes (once per first sale) the subscription row of a monthly
    /// support, status `incomplete`, before the provider is asked.
    async fn open_subscription(
        &self,
        sale: SaleId,
        customer: &CustomerId,
        card: &PaymentMethodId,
        plan_id: &str,
        amount: Yen,
    ) -> Result<SubscriptionRecord, RepoError>;

    async fn subscription(&self, id: i64) -> Result<Option<SubscriptionRecord>, RepoError>;

    async fn subscription_by_sale(&self, sale: SaleId) -> Result<Option<SubscriptionRecord>, RepoError>;

    async fn subscription_by_provider(&self, id: &SubscriptionId) -> Result<Option<SubscriptionRecord>, RepoError>;

    /// Applies the provider's view: its id (once), status, period end, stop
    /// flag and card.
    async fn record_subscription(
        &self,
        id: i64,
        state: &ProviderSubscription,
        now: DateTime<Utc>,
    ) -> Result<SubscriptionRecord, RepoError>;

    /// Records a paid invoice of subscription `id` as a month, once per invoice.
    async fn record_month(
        &self,
        id: i64,
        invoice: &ProviderInvoice,
        now: DateTime<Utc>,
    ) -> Result<MonthRecorded, RepoError>;

    /// `true` the first time for this invoice: the failure mail is due.
    async fn mark_failure_mailed(&self, id: i64, invoice: &InvoiceId) -> Result<bool, RepoError>;

    /// `true` the first time: the end mail is due.
    async fn mark_end_mailed(&self, id: i64) -> Result<bool, RepoError>;

    /// The member's subscriptions (not the ones never started), newest first.
    async fn subscriptions_of(&self, user: UserId) -> Result<Vec<SubscriptionRecord>, RepoError>;

    /// Running subscriptions, by id after `after`: the reconciler's pages.
    async fn running_subscriptions(&self, after: i64, limit: i64) -> Result<Vec<SubscriptionRecord>, RepoError>;

    /// Every subscription the provider knows (all statuses), by id after
    /// `after`, with the months we recorded paid: the reconcile report's pages.
    async fn subscription_tallies(&self, after: i64, limit: i64) -> Result<Vec<SubscriptionTally>, RepoError>;

    /// Running subscriptions not yet stopping whose project ended before `today`.
    async fn subscriptions_of_ended_projects(
        &self,
        today: NaiveDate,
        limit: i64,
    ) -> Result<Vec<SubscriptionRecord>, RepoError>;
}
