//! The storage side of the backing flow (`ports::payments::ledger`): the
//! checkout read, a support written in one transaction (the stock trigger
//! takes its lots), provider reports applied under the sale's row lock,
//! the sweeps' reads, provider customers and events, and guest accounts.
//! Plain SQL, like the profile reads, so that the joins read as they run.

use std::sync::LazyLock;

use async_trait::async_trait;
use chrono::{DateTime, NaiveDate, Utc};
use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel::sql_types::{BigInt, Bool, Date, Integer, Nullable, SmallInt, Text, Timestamptz};
use diesel::{sql_query, QueryableByName};
use domain::account::{AccountStatus, Email};
use domain::ids::{ProjectId, ReturnId, SaleId, UserId};
use domain::lot::Lot;
use domain::money::{FeeSchedule, PriceBreakdown, TaxMode, TaxRate, Yen};
use domain::payment::{BankTransferInstructions, PayType, SaleStatus};
use domain::project::is_open;
use domain::returns::{is_hidden, transfer_hold_block, PurchaseBlock, Remaining, ReturnType};
use domain::time::tokyo_date;
use ports::clock::{Clock, SystemClock};
use ports::payments::gateway::{
    ConnectedAccountId, CustomerId, InvoiceId, PaymentId, PaymentMethodId, ProviderInvoice, ProviderSubscription,
    SubscriptionId,
};
use ports::payments::ledger::{
    AdditionalQuestion, Checkout, DeliveryAddress, GuestLookup, MonthRecorded, NewSale, PaymentReport, PlaceError,
    Placed, Recorded, SaleRecord, SubscriptionRecord, SubscriptionTally, SupportLedger,
};
use ports::RepoError;

use crate::error::{expect_row, map_diesel, run_blocking, with_conn};
use crate::sql_rules::{
    awaiting_payment, corrupt, sale_status_from_db, sale_status_to_db, stored_id, transfer_awaited,
};
use crate::users::{status_from_db, status_to_db};
use crate::PgPool;

/// The CHECK that refuses lots beyond a return's stock (raised by the
/// `sales_sync_return_lots` trigger in the sale's own statement).
const STOCK_CHECK: &str = "returns_lots_taken_within_stock_limit";
/// One sale per (user, idempotency key).
const IDEMPOTENCY_KEY: &str = "sales_idempotency_key_key";
/// Case-insensitive unique e-mail of `users`.
const USER_EMAIL_KEY: &str = "users_email_lower_key";

/// `ports::payments::ledger::SupportLedger` over PostgreSQL. The clock only
/// decides whether a project is still open at checkout (its period ends on
/// a Tokyo calendar day).
#[derive(Clone)]
pub struct PgSupportLedger<C = SystemClock> {
    pool: PgPool,
    clock: C,
}

impl PgSupportLedger {
    pub fn new(pool: PgPool) -> Self {
        Self { pool, clock: SystemClock }
    }
}

impl<C: Clock> PgSupportLedger<C> {
    pub fn with_clock(pool: PgPool, clock: C) -> Self {
        Self { pool, clock }
    }
}

/// A transaction's failure: a database error still to be looked at (the
/// stock CHECK and the key's unique index mean something to `place`), or a
/// port error already decided.
enum TxError {
    Db(DieselError),
    Repo(RepoError),
    /// A rule checked inside the transaction refused the sale.
    Blocked(PurchaseBlock),
}

impl From<DieselError> for TxError {
    fn from(error: DieselError) -> Self {
        Self::Db(error)
    }
}

impl From<RepoError> for TxError {
    fn from(error: RepoError) -> Self {
        Self::Repo(error)
    }
}

impl TxError {
    fn into_repo(self) -> RepoError {
        match self {
            Self::Db(error) => map_diesel(error),
            Self::Repo(error) => error,
            Self::Blocked(block) => RepoError::Unexpected(anyhow::anyhow!("{block}")),
        }
    }
}

/// The constraint that refused a statement, if one did.
fn refused_by(error: &DieselError) -> Option<&str> {
    match error {
        DieselError::DatabaseError(_, info) => info.constraint_name(),
        _ => None,
    }
}

fn fee_schedule(code: &str) -> Result<FeeSchedule, RepoError> {
    match code {
        "standard" => Ok(FeeSchedule::Standard),
        "internal" => Ok(FeeSchedule::Internal),
        other => Err(corrupt("projects.fee_schedule", format!("{other:?}"))),
    }
}

fn pay_type(code: i16) -> Result<PayType, RepoError> {
    PayType::from_code(i32::from(code)).map_err(|e| corrupt("sales.payment_type", e))
}

fn parse_email(column: &str, raw: &str) -> Result<Email, RepoError> {
    Email::parse(raw).map_err(|e| corrupt(column, e))
}

/// Provider ids are optional text; an empty one is none.
fn provider_id<T>(raw: Option<String>, make: fn(String) -> T) -> Option<T> {
    raw.filter(|id| !id.trim().is_empty()).map(make)
}

// ---------------------------------------------------------------- sales ----

#[derive(QueryableByName)]
struct SaleRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = BigInt)]
    user_id: i64,
    #[diesel(sql_type = Text)]
    email: String,
    #[diesel(sql_type = BigInt)]
    project_id: i64,
    #[diesel(sql_type = Text)]
    project_slug: String,
    #[diesel(sql_type = Text)]
    project_title: String,
    #[diesel(sql_type = BigInt)]
    return_id: i64,
    #[diesel(sql_type = Text)]
    return_title: String,
    #[diesel(sql_type = SmallInt)]
    payment_type: i16,
    #[diesel(sql_type = Text)]
    status: String,
    #[diesel(sql_type = BigInt)]
    price: i64,
    #[diesel(sql_type = SmallInt)]
    lot: i16,
    #[diesel(sql_type = BigInt)]
    amount: i64,
    #[diesel(sql_type = BigInt)]
    tax: i64,
    #[diesel(sql_type = BigInt)]
    total: i64,
    #[diesel(sql_type = Text)]
    tax_mode: String,
    #[diesel(sql_type = SmallInt)]
    tax_rate_percent: i16,
    #[diesel(sql_type = BigInt)]
    application_fee: i64,
    #[diesel(sql_type = Nullable<Text>)]
    connected_account_id: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    intent_id: Option<String>,
    #[diesel(sql_type = Text)]
    displayname: String,
    #[diesel(sql_type = Nullable<BigInt>)]
    amount_remaining: Option<i64>,
    #[diesel(sql_type = Nullable<Text>)]
    bank_instructions: Option<String>,
    #[diesel(sql_type = Nullable<Date>)]
    transfer_deadline: Option<NaiveDate>,
    #[diesel(sql_type = Nullable<Text>)]
    card_id: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    one_time_card_id: Option<String>,
    #[diesel(sql_type = Bool)]
    refund_required: bool,
    #[diesel(sql_type = BigInt)]
    refunded_amount: i64,
    #[diesel(sql_type = Timestamptz)]
    created_at: DateTime<Utc>,
}

impl TryFrom<SaleRow> for SaleRecord {
    type Error = RepoError;
    fn try_from(row: SaleRow) -> Result<Self, RepoError> {
        let lot = Lot::parse(i64::from(row.lot)).map_err(|e| corrupt("sales.lot", e))?;
        let rate = u32::try_from(row.tax_rate_percent)
            .ok()
            .and_then(|percent| TaxRate::new(percent).ok())
            .ok_or_else(|| corrupt("sales.tax_rate_percent", row.tax_rate_percent))?;
        let terms = PriceBreakdown {
            price: Yen(row.price),
            lot,
            amount: Yen(row.amount),
            tax: Yen(row.tax),
            total: Yen(row.total),
            mode: TaxMode::parse(&row.tax_mode).map_err(|e| corrupt("sales.tax_mode", e))?,
            rate,
        };
        let instructions = row
            .bank_instructions
            .map(|json| serde_json::from_str::<BankTransferInstructions>(&json))
            .transpose()
            .map_err(|e| corrupt("sales.bank_instructions", e))?;
        Ok(SaleRecord {
            id: stored_id("sales.id", row.id)?,
            user: stored_id("sales.user_id", row.user_id)?,
            email: parse_email("users.email", &row.email)?,
            project_id: stored_id("sales.project_id", row.project_id)?,
            project_slug: row.project_slug,
            project_title: row.project_title,
            return_id: stored_id("sales.return_id", row.return_id)?,
            return_title: row.return_title,
            pay_type: pay_type(row.payment_type)?,
            status: sale_status_from_db(&row.status)?,
            terms,
            application_fee: Yen(row.application_fee),
            connected_account: provider_id(row.connected_account_id, ConnectedAccountId::new),
            payment: provider_id(row.intent_id, PaymentId::new),
            display_name: row.displayname,
            amount_remaining: row.amount_remaining.map(Yen),
            instructions,
            transfer_deadline: row.transfer_deadline,
            one_time_card: provider_id(row.one_time_card_id, PaymentMethodId::new),
            card: provider_id(row.card_id, PaymentMethodId::new),
            refund_required: row.refund_required,
            refunded: Yen(row.refunded_amount),
            created_at: row.created_at,
        })
    }
}

/// A sale with what the flow, the mails and the history show beside it.
/// Sales written before the backing flow may have no display name: empty.
const SALE_SELECT: &str = "SELECT s.id, s.user_id, u.email, s.project_id, p.slug AS project_slug, \
       p.title AS project_title, s.return_id, r.title AS return_title, s.payment_type, s.status, s.price, s.lot, \
       s.amount, s.tax, s.total, s.tax_mode, s.tax_rate_percent, s.application_fee, s.connected_account_id, \
       s.intent_id, coalesce(d.displayname, '') AS displayname, s.amount_remaining, \
       s.bank_instructions::text AS bank_instructions, s.transfer_deadline, s.card_id, s.one_time_card_id, \
       s.refund_required, s.refunded_amount, s.created_at \
     FROM sales s \
     JOIN users u ON u.id = s.user_id \
     JOIN projects p ON p.id = s.project_id \
     JOIN returns r ON r.id = s.return_id \
     LEFT JOIN display_names d ON d.sales_id = s.id";

static SALE_BY_ID: LazyLock<String> = LazyLock::new(|| format!("{SALE_SELECT} WHERE s.id = $1"));
static SALE_BY_PAYMENT: LazyLock<String> = LazyLock::new(|| format!("{SALE_SELECT} WHERE s.intent_id = $1"));
static SALE_BY_KEY: LazyLock<String> =
    LazyLock::new(|| format!("{SALE_SELECT} WHERE s.user_id = $1 AND s.idempotency_key = $2"));
static UNSETTLED: LazyLock<String> = LazyLock::new(|| {
    format!(
        "{SALE_SELECT} WHERE {} AND s.updated_at < $1 ORDER BY s.updated_at, s.id LIMIT $2",
        awaiting_payment("s.status")
    )
});
static WITH_PAYMENT: LazyLock<String> = LazyLock::new(|| {
    format!("{SALE_SELECT} WHERE coalesce(s.intent_id, '') <> '' AND s.id > $1 ORDER BY s.id LIMIT $2")
});
static OVERDUE_TRANSFERS: LazyLock<String> = LazyLock::new(|| {
    format!(
        "{SALE_SELECT} WHERE {} AND s.payment_type = {} AND s.transfer_deadline < $1 \
         ORDER BY s.transfer_deadline, s.id LIMIT $2",
        transfer_awaited("s.status"),
        PayType::BankTransfer.code()
    )
});

/// A bank-transfer sale cancelled at its deadline whose provider payment is
/// still open: money sent late still pays it. Written as the partial index
/// `sales_open_late_transfers_idx` states it.
static LATE_OPEN: LazyLock<String> = LazyLock::new(|| {
    format!(
        "s.status = '{}' AND s.payment_type = {} AND s.intent_id IS NOT NULL AND s.intent_closed_at IS NULL \
           AND NOT s.refund_required",
        sale_status_to_db(SaleStatus::Canceled),
        PayType::BankTransfer.code()
    )
});
static LATE_TRANSFERS: LazyLock<String> = LazyLock::new(|| {
    format!("{SALE_SELECT} WHERE {} AND s.updated_at < $1 ORDER BY s.updated_at, s.id LIMIT $2", LATE_OPEN.as_str())
});
static TRANSFERS_TO_CLOSE: LazyLock<String> = LazyLock::new(|| {
    format!(
        "{SALE_SELECT} WHERE {} AND s.transfer_deadline < $1 ORDER BY s.transfer_deadline, s.id LIMIT $2",
        LATE_OPEN.as_str()
    )
});

pub(crate) fn sale_by_id(conn: &mut PgConnection, id: SaleId) -> Result<Option<SaleRecord>, RepoError> {
    let row: Option<SaleRow> =
        sql_query(SALE_BY_ID.as_str()).bind::<BigInt, _>(id.get()).get_result(conn).optional().map_err(map_diesel)?;
    row.map(SaleRecord::try_from).transpose()
}

fn sale_by_key(conn: &mut PgConnection, user: UserId, key: &str) -> Result<Option<SaleRecord>, RepoError> {
    let row: Option<SaleRow> = sql_query(SALE_BY_KEY.as_str())
        .bind::<BigInt, _>(user.get())
        .bind::<Text, _>(key)
        .get_result(conn)
        .optional()
        .map_err(map_diesel)?;
    row.map(SaleRecord::try_from).transpose()
}

fn sale_rows(rows: Vec<SaleRow>) -> Result<Vec<SaleRecord>, RepoError> {
    rows.into_iter().map(SaleRecord::try_from).collect()
}

// ------------------------------------------------------------- checkout ----

#[derive(QueryableByName)]
struct CheckoutRow {
    #[diesel(sql_type = BigInt)]
    project_id: i64,
    #[diesel(sql_type = Text)]
    project_slug: String,
    #[diesel(sql_type = Text)]
    project_title: String,
    #[diesel(sql_type = Date)]
    period_end: NaiveDate,
    #[diesel(sql_type = Bool)]
    is_donation: bool,
    #[diesel(sql_type = Bool)]
    tax_includes: bool,
    #[diesel(sql_type = Nullable<Text>)]
    additional_data_label: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    additional_data_alert: Option<String>,
    #[diesel(sql_type = Bool)]
    accepts_card: bool,
    #[diesel(sql_type = Bool)]
    accepts_bank_transfer: bool,
    #[diesel(sql_type = Nullable<Text>)]
    connected_account_id: Option<String>,
    #[diesel(sql_type = Text)]
    fee_schedule: String,
    #[diesel(sql_type = BigInt)]
    return_id: i64,
    #[diesel(sql_type = Text)]
    return_title: String,
    #[diesel(sql_type = SmallInt)]
    return_type: i16,
    #[diesel(sql_type = BigInt)]
    price: i64,
    #[diesel(sql_type = Bool)]
    lot_disable: bool,
    #[diesel(sql_type = Bool)]
    address_required: bool,
    #[diesel(sql_type = Nullable<Text>)]
    address_label: Option<String>,
    #[diesel(sql_type = Bool)]
    disabled: bool,
    #[diesel(sql_type = SmallInt)]
    flag: i16,
    #[diesel(sql_type = Nullable<Integer>)]
    stock_limit: Option<i32>,
    #[diesel(sql_type = Integer)]
    lots_taken: i32,
    #[diesel(sql_type = Nullable<Text>)]
    show_user_email: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    interval: Option<String>,
}

const CHECKOUT: &str = "SELECT p.id AS project_id, p.slug AS project_slug, p.title AS project_title, p.period_end, \
       p.is_donation, p.tax_includes, p.additional_data_label, p.additional_data_alert, p.accepts_card, \
       p.accepts_bank_transfer, p.connected_account_id, p.fee_schedule, \
       r.id AS return_id, r.title AS return_title, r.return_type, r.price, r.lot_disable, r.address_required, \
       r.address_label, r.disabled, r.flag, r.stock_limit, r.lots_taken, r.show_user_email, r.interval \
     FROM returns r JOIN projects p ON p.id = r.project_id \
       JOIN project_publications pub ON pub.project_id = p.id AND pub.published_at <= now() \
     WHERE r.project_id = $1 AND r.id = $2";

/// Remaining stock from the stored limit and lots taken; negative values
/// are corruption (they would read as unlimited or as free stock).
fn remaining(stock_limit: Option<i32>, lots_taken: i32) -> Result<Remaining, RepoError> {
    let limit = stock_limit.map(|l| u32::try_from(l).map_err(|_| corrupt("returns.stock_limit", l))).transpose()?;
    let taken = u64::try_from(lots_taken).map_err(|_| corrupt("returns.lots_taken", lots_taken))?;
    Ok(Remaining::compute(limit, taken))
}

impl CheckoutRow {
    fn into_checkout(self, today: NaiveDate) -> Result<Option<Checkout>, RepoError> {
        if is_hidden(i32::from(self.flag)) {
            return Ok(None);
        }
        let additional = self
            .additional_data_label
            .filter(|label| !label.trim().is_empty())
            .map(|label| AdditionalQuestion { label, alert: self.additional_data_alert });
        Ok(Some(Checkout {
            project_id: stored_id("projects.id", self.project_id)?,
            project_slug: self.project_slug,
            project_title: self.project_title,
            return_id: stored_id("returns.id", self.return_id)?,
            return_title: self.return_title,
            return_type: ReturnType::from_code(i32::from(self.return_type))
                .map_err(|e| corrupt("returns.return_type", e))?,
            price: Yen(self.price),
            is_donation: self.is_donation,
            tax_includes: self.tax_includes,
            // The rate the catalog prices every return card with.
            tax_rate: TaxRate::STANDARD,
            lot_disable: self.lot_disable,
            address_label: if self.address_required { self.address_label } else { None },
            additional,
            accepts_card: self.accepts_card,
            accepts_bank_transfer: self.accepts_bank_transfer,
            connected_account: provider_id(self.connected_account_id, ConnectedAccountId::new),
            fee_schedule: fee_schedule(&self.fee_schedule)?,
            project_open: is_open(self.period_end, today),
            return_disabled: self.disabled,
            remaining: remaining(self.stock_limit, self.lots_taken)?,
            only_for: self.show_user_email.filter(|e| !e.trim().is_empty()),
            monthly: self.interval.as_deref() == Some("month"),
        }))
    }
}

// ---------------------------------------------------------------- place ----

#[derive(QueryableByName)]
struct IdRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
}

#[derive(QueryableByName)]
struct StockRow {
    #[diesel(sql_type = Nullable<Integer>)]
    stock_limit: Option<i32>,
    #[diesel(sql_type = Integer)]
    lots_taken: i32,
}

/// The address the sale is delivered to: a typed one becomes a new
/// (non-primary) address of the supporter unless the same one is in their
/// address book already (never a duplicate); a saved one must be theirs.
fn delivery_address(conn: &mut PgConnection, user: UserId, address: &DeliveryAddress) -> Result<i64, TxError> {
    match address {
        DeliveryAddress::New(a) => {
            // One statement: the identical address already in the book, or a new one.
            let row: IdRow = sql_query(
                "WITH same AS ( \
                   SELECT id FROM addresses WHERE user_id = $1 AND flag = 1 AND name = $2 AND tel_number = $3 \
                      AND zip = $4 AND pref = $5 AND city = $6 AND address = $7 \
                      AND building IS NOT DISTINCT FROM $8 ORDER BY id LIMIT 1), \
                 added AS ( \
                   INSERT INTO addresses (user_id, is_primary, name, tel_number, zip, pref, city, address, building) \
                   SELECT $1, FALSE, $2, $3, $4, $5, $6, $7, $8 WHERE NOT EXISTS (SELECT 1 FROM same) RETURNING id) \
                 SELECT id FROM same UNION ALL SELECT id FROM added",
            )
            .bind::<BigInt, _>(user.get())
            .bind::<Text, _>(&a.name)
            .bind::<Text, _>(&a.tel_number)
            .bind::<Text, _>(&a.zip)
            .bind::<Text, _>(&a.pref)
            .bind::<Text, _>(&a.city)
            .bind::<Text, _>(&a.address)
            .bind::<Nullable<Text>, _>(a.building.as_deref())
            .get_result(conn)?;
            Ok(row.id)
        }
        DeliveryAddress::Saved(id) => {
            let row: Option<IdRow> = sql_query("SELECT id FROM addresses WHERE id = $1 AND user_id = $2 AND flag = 1")
                .bind::<BigInt, _>(*id)
                .bind::<BigInt, _>(user.get())
                .get_result(conn)
                .optional()?;
            row.map(|r| r.id).ok_or(TxError::Repo(RepoError::NotFound))
        }
    }
}

/// The sponsor wall shows an account's company link (`users.corporateurl`)
/// and its current logo (the newest of its logos), beside the sale's display
/// name. A support that names a link or one of the supporter's logos makes
/// them the account's current ones, as the seed's corporate-data call did
/// at step 1; a logo that is not the supporter's is `NotFound`.
fn sponsor_identity(conn: &mut PgConnection, sale: &NewSale) -> Result<(), TxError> {
    if let Some(logo) = sale.logo_url_id {
        let owned: Option<IdRow> =
            sql_query("SELECT id FROM user_images WHERE id = $1 AND user_id = $2 AND image_type = 1")
                .bind::<BigInt, _>(logo)
                .bind::<BigInt, _>(sale.user.get())
                .get_result(conn)
                .optional()?;
        if owned.is_none() {
            return Err(TxError::Repo(RepoError::NotFound));
        }
        // "Newest is current" (user_images): an older logo chosen again becomes the newest.
        sql_query(
            "UPDATE user_images SET created_at = now() WHERE id = $1 AND EXISTS ( \
               SELECT 1 FROM user_images newer WHERE newer.user_id = $2 AND newer.image_type = 1 \
                 AND (newer.created_at, newer.id) > (user_images.created_at, user_images.id))",
        )
        .bind::<BigInt, _>(logo)
        .bind::<BigInt, _>(sale.user.get())
        .execute(conn)?;
    }
    if let Some(url) = sale.corporate_url.as_deref().filter(|u| !u.trim().is_empty()) {
        sql_query("UPDATE users SET corporateurl = $2, updated_at = now() WHERE id = $1")
            .bind::<BigInt, _>(sale.user.get())
            .bind::<Text, _>(url)
            .execute(conn)?;
    }
    Ok(())
}

fn place_in(conn: &mut PgConnection, sale: &NewSale) -> Result<Placed, TxError> {
    if let Some(existing) = sale_by_key(conn, sale.user, &sale.idempotency_key)? {
        return Ok(Placed::Existing(existing));
    }
    if sale.pay_type == PayType::BankTransfer {
        check_transfer_hold(conn, sale)?;
    }
    let address_id = sale.address.as_ref().map(|a| delivery_address(conn, sale.user, a)).transpose()?;
    sponsor_identity(conn, sale)?;
    let terms = &sale.terms;
    let rate =
        i16::try_from(terms.rate.percent()).map_err(|_| corrupt("sales.tax_rate_percent", terms.rate.percent()))?;
    let pay_code = i16::try_from(sale.pay_type.code()).map_err(|e| RepoError::Unexpected(e.into()))?;
    let row: IdRow = sql_query(
        "INSERT INTO sales (project_id, return_id, user_id, address_id, price, lot, amount, tax, total, tax_mode, \
           tax_rate_percent, application_fee, connected_account_id, payment_type, status, idempotency_key, \
           transfer_deadline) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) RETURNING id",
    )
    .bind::<BigInt, _>(sale.project.get())
    .bind::<BigInt, _>(sale.ret.get())
    .bind::<BigInt, _>(sale.user.get())
    .bind::<Nullable<BigInt>, _>(address_id)
    .bind::<BigInt, _>(terms.price.value())
    .bind::<SmallInt, _>(i16::from(terms.lot.get()))
    .bind::<BigInt, _>(terms.amount.value())
    .bind::<BigInt, _>(terms.tax.value())
    .bind::<BigInt, _>(terms.total.value())
    .bind::<Text, _>(terms.mode.code())
    .bind::<SmallInt, _>(rate)
    .bind::<BigInt, _>(sale.application_fee.value())
    .bind::<Nullable<Text>, _>(sale.connected_account.as_ref().map(ConnectedAccountId::as_str))
    .bind::<SmallInt, _>(pay_code)
    .bind::<Text, _>(sale_status_to_db(SaleStatus::Pending))
    .bind::<Text, _>(&sale.idempotency_key)
    .bind::<Nullable<Date>, _>(sale.transfer_deadline)
    .get_result(conn)?;
    let (id, project, ret, user) = (row.id, sale.project.get(), sale.ret.get(), sale.user.get());
    if let Some(address_id) = address_id {
        // The sale keeps the address as it is now; later edits of the address book change future supports only.
        sql_query(
            "INSERT INTO sale_addresses (sales_id, name, tel_number, zip, pref, city, address, building) \
             SELECT $1, name, tel_number, zip, pref, city, address, building FROM addresses WHERE id = $2",
        )
        .bind::<BigInt, _>(id)
        .bind::<BigInt, _>(address_id)
        .execute(conn)?;
    }

    sql_query(
        "INSERT INTO display_names (sales_id, user_id, project_id, return_id, displayname, flag) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind::<BigInt, _>(id)
    .bind::<BigInt, _>(user)
    .bind::<BigInt, _>(project)
    .bind::<BigInt, _>(ret)
    .bind::<Text, _>(&sale.display_name)
    // The seed's flag: 0 shows 匿名 on the sponsor lists.
    .bind::<SmallInt, _>(if sale.anonymous { 0_i16 } else { 1 })
    .execute(conn)?;

    if let Some(comment) = sale.comment.as_deref().filter(|c| !c.trim().is_empty()) {
        sql_query(
            "INSERT INTO comments (project_id, user_id, sales_id, return_id, comment, flag) \
             VALUES ($1, $2, $3, $4, $5, 1)",
        )
        .bind::<BigInt, _>(project)
        .bind::<BigInt, _>(user)
        .bind::<BigInt, _>(id)
        .bind::<BigInt, _>(ret)
        .bind::<Text, _>(comment)
        .execute(conn)?;
    }

    if let Some((label, value)) = &sale.additional {
        sql_query(
            "INSERT INTO sale_additional_data (sales_id, project_id, return_id, user_id, label, value) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind::<BigInt, _>(id)
        .bind::<BigInt, _>(project)
        .bind::<BigInt, _>(ret)
        .bind::<BigInt, _>(user)
        .bind::<Text, _>(label)
        .bind::<Text, _>(value)
        .execute(conn)?;
    }

    let id = stored_id("sales.id", id)?;
    let record = sale_by_id(conn, id)?.ok_or_else(|| corrupt("sales", format!("sale {id} vanished after insert")))?;
    Ok(Placed::New(record))
}

/// Why the stock CHECK refused: nothing left at all, or less than asked.
/// Read after the rollback, in a statement of its own.
fn stock_block(conn: &mut PgConnection, ret: ReturnId) -> Result<PurchaseBlock, RepoError> {
    let row: StockRow = sql_query("SELECT stock_limit, lots_taken FROM returns WHERE id = $1")
        .bind::<BigInt, _>(ret.get())
        .get_result(conn)
        .map_err(map_diesel)?;
    Ok(if remaining(row.stock_limit, row.lots_taken)?.is_sold_out() {
        PurchaseBlock::SoldOut
    } else {
        PurchaseBlock::NotEnoughLeft
    })
}

#[derive(QueryableByName)]
struct TransferHolds {
    #[diesel(sql_type = BigInt)]
    unpaid_lots: i64,
    #[diesel(sql_type = BigInt)]
    supporter_unpaid: i64,
}

/// The unpaid-transfer hold rule (`domain::returns::transfer_hold_block`),
/// under the return's row lock: concurrent transfers of one return are
/// counted one after the other, so the share is never exceeded. An unlimited
/// return is neither locked here nor counted: its transfers hold nothing.
fn check_transfer_hold(conn: &mut PgConnection, sale: &NewSale) -> Result<(), TxError> {
    // The lock first, the count in a statement of its own: in READ COMMITTED a statement that waited for the
    // lock still counts from the snapshot it started with, and would miss the transfer that held the lock.
    let stock: StockRow = sql_query("SELECT stock_limit, lots_taken FROM returns WHERE id = $1 FOR UPDATE")
        .bind::<BigInt, _>(sale.ret.get())
        .get_result(conn)?;
    let Some(limit) = stock.stock_limit else { return Ok(()) };
    let awaited = transfer_awaited("s.status");
    let holds: TransferHolds = sql_query(format!(
        "SELECT coalesce(sum(s.lot), 0)::bigint AS unpaid_lots, \
                count(*) FILTER (WHERE s.user_id = $2)::bigint AS supporter_unpaid \
           FROM sales s WHERE s.return_id = $1 AND s.payment_type = $3 AND {awaited}"
    ))
    .bind::<BigInt, _>(sale.ret.get())
    .bind::<BigInt, _>(sale.user.get())
    .bind::<SmallInt, _>(i16::try_from(PayType::BankTransfer.code()).unwrap_or(2))
    .get_result(conn)?;
    let lots = i64::from(sale.terms.lot.get());
    match transfer_hold_block(Some(i64::from(limit)), holds.unpaid_lots, holds.supporter_unpaid, lots) {
        Some(block) => Err(TxError::Blocked(block)),
        None => Ok(()),
    }
}

fn place(conn: &mut PgConnection, sale: &NewSale) -> Result<Placed, PlaceError> {
    match conn.transaction(|conn| place_in(conn, sale)) {
        Ok(placed) => Ok(placed),
        Err(TxError::Blocked(block)) => Err(PlaceError::Blocked(block)),
        Err(TxError::Db(error)) if refused_by(&error) == Some(STOCK_CHECK) => {
            Err(PlaceError::Blocked(stock_block(conn, sale.ret)?))
        }
        // A concurrent place of the same key committed first: that sale is the answer.
        Err(TxError::Db(error)) if refused_by(&error) == Some(IDEMPOTENCY_KEY) => {
            match sale_by_key(conn, sale.user, &sale.idempotency_key)? {
                Some(existing) => Ok(Placed::Existing(existing)),
                None => Err(PlaceError::Repo(map_diesel(error))),
            }
        }
        Err(other) => Err(PlaceError::Repo(other.into_repo())),
    }
}

// ------------------------------------------------------- record_payment ----

#[derive(QueryableByName)]
struct LockedSale {
    #[diesel(sql_type = Text)]
    status: String,
    #[diesel(sql_type = Bool)]
    refund_required: bool,
}

fn record_in(
    conn: &mut PgConnection,
    id: SaleId,
    report: &PaymentReport,
    now: DateTime<Utc>,
) -> Result<Recorded, TxError> {
    let locked: LockedSale = sql_query("SELECT status, refund_required FROM sales WHERE id = $1 FOR UPDATE")
        .bind::<BigInt, _>(id.get())
        .get_result(conn)
        .optional()?
        .ok_or(TxError::Repo(RepoError::NotFound))?;
    let current = sale_status_from_db(&locked.status)?;
    let instructions = report
        .instructions
        .as_ref()
        .map(serde_json::to_string)
        .transpose()
        .map_err(|e| RepoError::Unexpected(e.into()))?;

    // What the provider told us is kept whatever the status does; the ids only once. The amount still due
    // only shrinks: a partial funding reported late (events come in any order) must not raise it again.
    sql_query(
        "UPDATE sales SET intent_id = coalesce(intent_id, $2), card_id = coalesce(card_id, $3), \
           one_time_card_id = coalesce(one_time_card_id, $4), amount_remaining = least($5, amount_remaining), \
           bank_instructions = CASE WHEN $5 > amount_remaining THEN bank_instructions \
             ELSE coalesce($6::jsonb, bank_instructions) END, updated_at = $7 \
         WHERE id = $1",
    )
    .bind::<BigInt, _>(id.get())
    .bind::<Nullable<Text>, _>(report.payment.as_ref().map(PaymentId::as_str))
    .bind::<Nullable<Text>, _>(report.card.as_ref().map(PaymentMethodId::as_str))
    .bind::<Nullable<Text>, _>(report.one_time_card.as_ref().map(PaymentMethodId::as_str))
    .bind::<Nullable<BigInt>, _>(report.amount_remaining.map(Yen::value))
    .bind::<Nullable<Text>, _>(instructions)
    .bind::<Timestamptz, _>(now)
    .execute(conn)?;

    // A sale already flagged for refund has been given up for good: a repeated
    // "paid" must not revive it behind the refund's back.
    let next = if locked.refund_required && !current.reserves_stock() {
        None
    } else {
        current.after_provider_report(report.status)
    };
    let mut moved = None;
    let mut refund_required = locked.refund_required;
    if let Some(next) = next {
        let paid = next == SaleStatus::Succeeded;
        // A savepoint: reviving a cancelled sale may meet the stock CHECK.
        let update = conn.transaction(|conn| {
            sql_query(
                "UPDATE sales SET status = $2, paid_at = CASE WHEN $3 THEN $4 ELSE paid_at END, \
                   flag = CASE WHEN $3 THEN 1 ELSE flag END \
                 WHERE id = $1",
            )
            .bind::<BigInt, _>(id.get())
            .bind::<Text, _>(sale_status_to_db(next))
            .bind::<Bool, _>(paid)
            .bind::<Timestamptz, _>(now)
            .execute(conn)
        });
        match update {
            Ok(_) => moved = Some(current),
            Err(error) if paid && refused_by(&error) == Some(STOCK_CHECK) => {
                sql_query("UPDATE sales SET refund_required = TRUE, paid_at = $2 WHERE id = $1")
                    .bind::<BigInt, _>(id.get())
                    .bind::<Timestamptz, _>(now)
                    .execute(conn)?;
                refund_required = true;
            }
            Err(error) => return Err(error.into()),
        }
    }
    let sale = sale_by_id(conn, id)?.ok_or(RepoError::NotFound)?;
    Ok(Recorded { sale, previous: moved, refund_required })
}

// --------------------------------------------------------------- guests ----

#[derive(QueryableByName)]
struct AccountRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = Text)]
    status: String,
}

fn account_by_email(conn: &mut PgConnection, email: &Email) -> Result<Option<(UserId, AccountStatus)>, RepoError> {
    let row: Option<AccountRow> = sql_query("SELECT id, status FROM users WHERE lower(email) = $1")
        .bind::<Text, _>(email.normalized())
        .get_result(conn)
        .optional()
        .map_err(map_diesel)?;
    row.map(|r| Ok((stored_id("users.id", r.id)?, status_from_db(&r.status)?))).transpose()
}

/// Guests and signups not yet activated take supports by e-mail; members log in.
fn guest_lookup(account: Option<(UserId, AccountStatus)>) -> GuestLookup {
    match account {
        None => GuestLookup::Unknown,
        Some((id, AccountStatus::Guest | AccountStatus::Provisional)) => GuestLookup::Guest(id),
        Some((_, AccountStatus::Member)) => GuestLookup::Member,
    }
}

// -------------------------------------------------------------- adapter ----

#[derive(QueryableByName)]
struct TextRow {
    #[diesel(sql_type = Text)]
    value: String,
}

#[derive(QueryableByName)]
struct EventPaymentRow {
    #[diesel(sql_type = Text)]
    event_id: String,
    #[diesel(sql_type = Text)]
    object_id: String,
}

#[async_trait]
impl<C: Clock + 'static> SupportLedger for PgSupportLedger<C> {
    async fn checkout(&self, project: ProjectId, ret: ReturnId) -> Result<Option<Checkout>, RepoError> {
        let today = tokyo_date(self.clock.now());
        with_conn(&self.pool, move |conn| {
            let row: Option<CheckoutRow> = sql_query(CHECKOUT)
                .bind::<BigInt, _>(project.get())
                .bind::<BigInt, _>(ret.get())
                .get_result(conn)
                .optional()
                .map_err(map_diesel)?;
            match row {
                Some(row) => row.into_checkout(today),
                None => Ok(None),
            }
        })
        .await
    }

    async fn member_email(&self, user: UserId) -> Result<Email, RepoError> {
        with_conn(&self.pool, move |conn| {
            let row: TextRow = sql_query("SELECT email AS value FROM users WHERE id = $1")
                .bind::<BigInt, _>(user.get())
                .get_result(conn)
                .map_err(map_diesel)?;
            parse_email("users.email", &row.value)
        })
        .await
    }

    async fn lookup_guest(&self, email: &Email) -> Result<GuestLookup, RepoError> {
        let email = email.clone();
        with_conn(&self.pool, move |conn| Ok(guest_lookup(account_by_email(conn, &email)?))).await
    }

    async fn create_guest(&self, email: &Email) -> Result<UserId, RepoError> {
        let email = email.clone();
        with_conn(&self.pool, move |conn| {
            // A concurrent creation of the same address waits on the unique
            // index and then does nothing; the read below finds that account.
            let created: Option<IdRow> = sql_query(
                "INSERT INTO users (email, status) VALUES ($1, $2) ON CONFLICT (lower(email)) DO NOTHING RETURNING id",
            )
            .bind::<Text, _>(email.as_str())
            .bind::<Text, _>(status_to_db(AccountStatus::Guest))
            .get_result(conn)
            .optional()
            .map_err(map_diesel)?;
            if let Some(row) = created {
                return stored_id("users.id", row.id);
            }
            match guest_lookup(account_by_email(conn, &email)?) {
                GuestLookup::Guest(id) => Ok(id),
                GuestLookup::Member => Err(RepoError::Conflict(USER_EMAIL_KEY.to_string())),
                GuestLookup::Unknown => {
                    Err(RepoError::Unexpected(anyhow::anyhow!("users: the address conflicted but no account holds it")))
                }
            }
        })
        .await
    }

    async fn place(&self, sale: NewSale) -> Result<Placed, PlaceError> {
        let pool = self.pool.clone();
        run_blocking(move || {
            let mut conn = pool.get().map_err(|e| RepoError::Unexpected(e.into()))?;
            Ok(place(&mut conn, &sale))
        })
        .await
        .unwrap_or_else(|error| Err(error.into()))
    }

    async fn sale(&self, id: SaleId) -> Result<Option<SaleRecord>, RepoError> {
        with_conn(&self.pool, move |conn| sale_by_id(conn, id)).await
    }

    async fn sale_by_key(&self, user: UserId, key: &str) -> Result<Option<SaleRecord>, RepoError> {
        let key = key.to_string();
        with_conn(&self.pool, move |conn| sale_by_key(conn, user, &key)).await
    }

    async fn sale_by_payment(&self, payment: &PaymentId) -> Result<Option<SaleRecord>, RepoError> {
        let payment = payment.as_str().to_string();
        with_conn(&self.pool, move |conn| {
            let row: Option<SaleRow> = sql_query(SALE_BY_PAYMENT.as_str())
                .bind::<Text, _>(payment)
                .get_result(conn)
                .optional()
                .map_err(map_diesel)?;
            row.map(SaleRecord::try_from).transpose()
        })
        .await
    }

    async fn record_payment(
        &self,
        sale: SaleId,
        report: PaymentReport,
        now: DateTime<Utc>,
    ) -> Result<Recorded, RepoError> {
        with_conn(&self.pool, move |conn| {
            conn.transaction(|conn| record_in(conn, sale, &report, now)).map_err(TxError::into_repo)
        })
        .await
    }

    async fn unsettled(&self, changed_before: DateTime<Utc>, limit: i64) -> Result<Vec<SaleRecord>, RepoError> {
        with_conn(&self.pool, move |conn| {
            sale_rows(
                sql_query(UNSETTLED.as_str())
                    .bind::<Timestamptz, _>(changed_before)
                    .bind::<BigInt, _>(limit)
                    .load(conn)
                    .map_err(map_diesel)?,
            )
        })
        .await
    }

    async fn sales_with_payment(&self, after: SaleId, limit: i64) -> Result<Vec<SaleRecord>, RepoError> {
        with_conn(&self.pool, move |conn| {
            sale_rows(
                sql_query(WITH_PAYMENT.as_str())
                    .bind::<BigInt, _>(after.get())
                    .bind::<BigInt, _>(limit)
                    .load(conn)
                    .map_err(map_diesel)?,
            )
        })
        .await
    }

    async fn overdue_transfers(&self, today: NaiveDate, limit: i64) -> Result<Vec<SaleRecord>, RepoError> {
        with_conn(&self.pool, move |conn| {
            sale_rows(
                sql_query(OVERDUE_TRANSFERS.as_str())
                    .bind::<Date, _>(today)
                    .bind::<BigInt, _>(limit)
                    .load(conn)
                    .map_err(map_diesel)?,
            )
        })
        .await
    }

    async fn late_transfers(&self, changed_before: DateTime<Utc>, limit: i64) -> Result<Vec<SaleRecord>, RepoError> {
        with_conn(&self.pool, move |conn| {
            sale_rows(
                sql_query(LATE_TRANSFERS.as_str())
                    .bind::<Timestamptz, _>(changed_before)
                    .bind::<BigInt, _>(limit)
                    .load(conn)
                    .map_err(map_diesel)?,
            )
        })
        .await
    }

    async fn transfers_to_close(&self, deadline_before: NaiveDate, limit: i64) -> Result<Vec<SaleRecord>, RepoError> {
        with_conn(&self.pool, move |conn| {
            sale_rows(
                sql_query(TRANSFERS_TO_CLOSE.as_str())
                    .bind::<Date, _>(deadline_before)
                    .bind::<BigInt, _>(limit)
                    .load(conn)
                    .map_err(map_diesel)?,
            )
        })
        .await
    }

    async fn close_transfer(
        &self,
        sale: SaleId,
        partly_paid: bool,
        now: DateTime<Utc>,
    ) -> Result<SaleRecord, RepoError> {
        with_conn(&self.pool, move |conn| {
            // Only a sale still cancelled is flagged: one revived meanwhile was paid in full.
            let updated = sql_query(format!(
                "UPDATE sales SET intent_closed_at = coalesce(intent_closed_at, $2), updated_at = $2, \
                   refund_required = refund_required OR ($3 AND status = '{}') \
                 WHERE id = $1",
                sale_status_to_db(SaleStatus::Canceled)
            ))
            .bind::<BigInt, _>(sale.get())
            .bind::<Timestamptz, _>(now)
            .bind::<Bool, _>(partly_paid)
            .execute(conn)
            .map_err(map_diesel)?;
            expect_row(updated)?;
            sale_by_id(conn, sale)?.ok_or(RepoError::NotFound)
        })
        .await
    }

    async fn customer(&self, user: UserId) -> Result<Option<CustomerId>, RepoError> {
        with_conn(&self.pool, move |conn| {
            let row: Option<TextRow> =
                sql_query("SELECT customer_id AS value FROM payment_customers WHERE user_id = $1")
                    .bind::<BigInt, _>(user.get())
                    .get_result(conn)
                    .optional()
                    .map_err(map_diesel)?;
            Ok(row.map(|r| CustomerId::new(r.value)))
        })
        .await
    }

    async fn save_customer(&self, user: UserId, customer: &CustomerId) -> Result<CustomerId, RepoError> {
        let customer = customer.as_str().to_string();
        with_conn(&self.pool, move |conn| {
            // The first customer stored wins; a concurrent second one reads it back.
            sql_query(
                "INSERT INTO payment_customers (user_id, customer_id) VALUES ($1, $2) ON CONFLICT (user_id) DO NOTHING",
            )
            .bind::<BigInt, _>(user.get())
            .bind::<Text, _>(customer)
            .execute(conn)
            .map_err(map_diesel)?;
            let row: TextRow = sql_query("SELECT customer_id AS value FROM payment_customers WHERE user_id = $1")
                .bind::<BigInt, _>(user.get())
                .get_result(conn)
                .map_err(map_diesel)?;
            Ok(CustomerId::new(row.value))
        })
        .await
    }

    async fn record_event(
        &self,
        event_id: &str,
        event_type: &str,
        object_id: Option<String>,
        payload: serde_json::Value,
        now: DateTime<Utc>,
    ) -> Result<bool, RepoError> {
        let (event_id, event_type) = (event_id.to_string(), event_type.to_string());
        let payload = payload.to_string();
        with_conn(&self.pool, move |conn| {
            // A redelivery of an event not applied yet is another attempt (the no-op update makes the row count).
            let to_apply = sql_query(
                "INSERT INTO provider_events (event_id, event_type, object_id, payload, received_at) \
                 VALUES ($1, $2, $3, $4::jsonb, $5) \
                 ON CONFLICT (event_id) DO UPDATE SET event_id = EXCLUDED.event_id \
                   WHERE provider_events.processed_at IS NULL",
            )
            .bind::<Text, _>(event_id)
            .bind::<Text, _>(event_type)
            .bind::<Nullable<Text>, _>(object_id)
            .bind::<Text, _>(payload)
            .bind::<Timestamptz, _>(now)
            .execute(conn)
            .map_err(map_diesel)?;
            Ok(to_apply == 1)
        })
        .await
    }

    async fn finish_event(&self, event_id: &str, error: Option<String>, now: DateTime<Utc>) -> Result<(), RepoError> {
        let event_id = event_id.to_string();
        with_conn(&self.pool, move |conn| {
            let updated = match error {
                None => {
                    sql_query("UPDATE provider_events SET processed_at = $2, last_error = NULL WHERE event_id = $1")
                        .bind::<Text, _>(event_id)
                        .bind::<Timestamptz, _>(now)
                        .execute(conn)
                }
                Some(error) => {
                    sql_query("UPDATE provider_events SET attempts = attempts + 1, last_error = $2 WHERE event_id = $1")
                        .bind::<Text, _>(event_id)
                        .bind::<Text, _>(error)
                        .execute(conn)
                }
            }
            .map_err(map_diesel)?;
            expect_row(updated)
        })
        .await
    }

    async fn unapplied_event_payments(&self, limit: i64) -> Result<Vec<(String, PaymentId)>, RepoError> {
        with_conn(&self.pool, move |conn| {
            // `_` is LIKE's one-character wildcard: escaped, the prefix is exactly "pi_".
            let rows: Vec<EventPaymentRow> = sql_query(
                "SELECT event_id, object_id FROM provider_events \
                  WHERE processed_at IS NULL AND object_id LIKE 'pi\\_%' AND attempts < $2 \
                  ORDER BY received_at, event_id LIMIT $1",
            )
            .bind::<BigInt, _>(limit)
            .bind::<Integer, _>(ports::payments::ledger::MAX_EVENT_ATTEMPTS)
            .load(conn)
            .map_err(map_diesel)?;
            Ok(rows.into_iter().map(|r| (r.event_id, PaymentId::new(r.object_id))).collect())
        })
        .await
    }

    async fn open_subscription(
        &self,
        sale: SaleId,
        customer: &CustomerId,
        card: &PaymentMethodId,
        plan_id: &str,
        amount: Yen,
    ) -> Result<SubscriptionRecord, RepoError> {
        let (customer, card, plan_id) = (customer.clone(), card.clone(), plan_id.to_string());
        with_conn(&self.pool, move |conn| crate::subscriptions::open(conn, sale, &customer, &card, &plan_id, amount))
            .await
    }

    async fn subscription(&self, id: i64) -> Result<Option<SubscriptionRecord>, RepoError> {
        with_conn(&self.pool, move |conn| crate::subscriptions::by_id(conn, id)).await
    }

    async fn subscription_by_sale(&self, sale: SaleId) -> Result<Option<SubscriptionRecord>, RepoError> {
        with_conn(&self.pool, move |conn| crate::subscriptions::by_sale(conn, sale)).await
    }

    async fn subscription_by_provider(&self, id: &SubscriptionId) -> Result<Option<SubscriptionRecord>, RepoError> {
        let id = id.as_str().to_string();
        with_conn(&self.pool, move |conn| crate::subscriptions::by_provider(conn, &id)).await
    }

    async fn record_subscription(
        &self,
        id: i64,
        state: &ProviderSubscription,
        now: DateTime<Utc>,
    ) -> Result<SubscriptionRecord, RepoError> {
        let state = state.clone();
        with_conn(&self.pool, move |conn| crate::subscriptions::record(conn, id, &state, now)).await
    }

    async fn record_month(
        &self,
        id: i64,
        invoice: &ProviderInvoice,
        now: DateTime<Utc>,
    ) -> Result<MonthRecorded, RepoError> {
        let invoice = invoice.clone();
        with_conn(&self.pool, move |conn| crate::subscriptions::record_month(conn, id, &invoice, now)).await
    }

    async fn mark_failure_mailed(&self, id: i64, invoice: &InvoiceId) -> Result<bool, RepoError> {
        let invoice = invoice.clone();
        with_conn(&self.pool, move |conn| crate::subscriptions::mark_failure(conn, id, &invoice)).await
    }

    async fn mark_end_mailed(&self, id: i64) -> Result<bool, RepoError> {
        with_conn(&self.pool, move |conn| crate::subscriptions::mark_end(conn, id)).await
    }

    async fn subscriptions_of(&self, user: UserId) -> Result<Vec<SubscriptionRecord>, RepoError> {
        with_conn(&self.pool, move |conn| crate::subscriptions::of_user(conn, user)).await
    }

    async fn running_subscriptions(&self, after: i64, limit: i64) -> Result<Vec<SubscriptionRecord>, RepoError> {
        with_conn(&self.pool, move |conn| crate::subscriptions::running(conn, after, limit)).await
    }

    async fn subscription_tallies(&self, after: i64, limit: i64) -> Result<Vec<SubscriptionTally>, RepoError> {
        with_conn(&self.pool, move |conn| crate::subscriptions::tallies(conn, after, limit)).await
    }

    async fn subscriptions_of_ended_projects(
        &self,
        today: NaiveDate,
        limit: i64,
    ) -> Result<Vec<SubscriptionRecord>, RepoError> {
        with_conn(&self.pool, move |conn| crate::subscriptions::of_ended_projects(conn, today, limit)).await
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use crate::testing::TestDatabase;
    use diesel::{Connection, PgConnection};

    #[derive(QueryableByName)]
    struct PlanLine {
        #[diesel(sql_type = Text, column_name = "QUERY PLAN")]
        line: String,
    }

    fn plan(conn: &mut PgConnection, sql: &str) -> String {
        let lines: Vec<PlanLine> = sql_query(format!("EXPLAIN {sql}")).load(conn).unwrap();
        lines.into_iter().map(|l| l.line).collect::<Vec<_>>().join("\n")
    }

    /// The status filters are generated from the domain; they must still
    /// imply the partial indexes' predicates, or the sweeps scan every sale.
    #[test]
    fn the_sweeps_can_use_the_partial_indexes_of_unpaid_sales() {
        let (db, _pool) = TestDatabase::create().unwrap();
        let mut conn = PgConnection::establish(&db.url).unwrap();
        sql_query("SET enable_seqscan = off").execute(&mut conn).unwrap();

        let overdue = OVERDUE_TRANSFERS.replace("$1", "DATE '2026-11-26'").replace("$2", "10");
        assert!(plan(&mut conn, &overdue).contains("sales_open_transfers_idx"), "{}", plan(&mut conn, &overdue));
        let unsettled = UNSETTLED.replace("$1", "TIMESTAMPTZ '2026-11-26T00:00:00Z'").replace("$2", "10");
        assert!(plan(&mut conn, &unsettled).contains("sales_unpaid_idx"), "{}", plan(&mut conn, &unsettled));
        let to_close = TRANSFERS_TO_CLOSE.replace("$1", "DATE '2026-11-26'").replace("$2", "10");
        assert!(plan(&mut conn, &to_close).contains("sales_open_late_transfers_idx"), "{}", plan(&mut conn, &to_close));
        let late = LATE_TRANSFERS.replace("$1", "TIMESTAMPTZ '2026-11-26T00:00:00Z'").replace("$2", "10");
        assert!(plan(&mut conn, &late).contains("sales_open_late_transfers_idx"), "{}", plan(&mut conn, &late));
    }

    #[test]
    fn the_reconciler_asks_about_every_status_that_holds_lots_unpaid() {
        let filter = awaiting_payment("status");
        for status in SaleStatus::ALL {
            let listed = filter.contains(&format!("'{}'", status.as_str()));
            assert_eq!(listed, status.reserves_stock() && !status.counts_toward_totals(), "{status:?} in {filter}");
        }
    }
}
