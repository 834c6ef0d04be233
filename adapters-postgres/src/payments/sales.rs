//! Checkout, supporter accounts and sales: a support written in one
//! transaction (the stock trigger takes its lots) and provider reports
//! applied under the sale's row lock.

use async_trait::async_trait;
use chrono::{DateTime, NaiveDate, Utc};
use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel::sql_types::{BigInt, Bool, Date, Integer, Nullable, SmallInt, Text, Timestamptz};
use diesel::{sql_query, QueryableByName};
use domain::account::{AccountStatus, Email};
use domain::ids::{ProjectId, ReturnId, SaleId, UserId};
use domain::money::{TaxRate, Yen};
use domain::payment::SaleStatus;
use domain::project::is_open;
use domain::returns::{is_hidden, transfer_hold_block, PurchaseBlock, Remaining, ReturnType};
use domain::time::tokyo_date;
use ports::clock::Clock;
use ports::payments::gateway::{ConnectedAccountId, PaymentId, PaymentMethodId};
use ports::payments::ledger::{
    AdditionalQuestion, Checkout, DeliveryAddress, GuestLookup, NewSale, PaymentReport, PlaceError, Placed, Recorded,
    SaleRecord, SaleStore,
};
use ports::RepoError;

use super::sale_query::{provider_id, sale_by_id, sale_by_key, SaleRow, SALE_BY_PAYMENT};
use super::PgSupportLedger;
use crate::error::{map_diesel, run_blocking, with_conn};
use crate::rows::IdRow;
use crate::sql_rules::{
    corrupt, fee_schedule_from_db, sale_status_from_db, sale_status_to_db, stored_id, transfer_awaited, waits_for_money,
};
use crate::users::{status_from_db, status_to_db};

/// The CHECK that refuses lots beyond a return's stock (raised by the
/// `sales_sync_return_lots` trigger in the sale's own statement).
const STOCK_CHECK: &str = "returns_lots_taken_within_stock_limit";
/// One sale per (user, idempotency key).
const IDEMPOTENCY_KEY: &str = "sales_idempotency_key_key";
/// Case-insensitive unique e-mail of `users`.
const USER_EMAIL_KEY: &str = "users_email_lower_key";

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
    #[diesel(sql_type = Bool)]
    accepts_konbini: bool,
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
       p.accepts_bank_transfer, p.accepts_konbini, p.connected_account_id, p.fee_schedule, \
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
            accepts_konbini: self.accepts_konbini,
            period_end: self.period_end,
            connected_account: provider_id(self.connected_account_id, ConnectedAccountId::new),
            fee_schedule: fee_schedule_from_db(&self.fee_schedule)?,
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
    if sale.pay_type.waits_for_money() {
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
           transfer_deadline, extra_amount) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18) RETURNING id",
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
    .bind::<BigInt, _>(terms.extra.value())
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
/// for bank transfers and konbini vouchers together, under the return's row lock: concurrent transfers of one return are
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
    let waiting = waits_for_money("s.payment_type");
    let holds: TransferHolds = sql_query(format!(
        "SELECT coalesce(sum(s.lot), 0)::bigint AS unpaid_lots, \
                count(*) FILTER (WHERE s.user_id = $2)::bigint AS supporter_unpaid \
           FROM sales s WHERE s.return_id = $1 AND {waiting} AND {awaited}"
    ))
    .bind::<BigInt, _>(sale.ret.get())
    .bind::<BigInt, _>(sale.user.get())
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
    let voucher =
        report.voucher.as_ref().map(serde_json::to_string).transpose().map_err(|e| RepoError::Unexpected(e.into()))?;

    // What the provider told us is kept whatever the status does; the ids only once. The amount still due
    // only shrinks: a partial funding reported late (events come in any order) must not raise it again.
    sql_query(
        "UPDATE sales SET intent_id = coalesce(intent_id, $2), card_id = coalesce(card_id, $3), \
           one_time_card_id = coalesce(one_time_card_id, $4), amount_remaining = least($5, amount_remaining), \
           bank_instructions = CASE WHEN $5 > amount_remaining THEN bank_instructions \
             ELSE coalesce($6::jsonb, bank_instructions) END, updated_at = $7, \
           konbini_voucher = coalesce($8::jsonb, konbini_voucher) \
         WHERE id = $1",
    )
    .bind::<BigInt, _>(id.get())
    .bind::<Nullable<Text>, _>(report.payment.as_ref().map(PaymentId::as_str))
    .bind::<Nullable<Text>, _>(report.card.as_ref().map(PaymentMethodId::as_str))
    .bind::<Nullable<Text>, _>(report.one_time_card.as_ref().map(PaymentMethodId::as_str))
    .bind::<Nullable<BigInt>, _>(report.amount_remaining.map(Yen::value))
    .bind::<Nullable<Text>, _>(instructions)
    .bind::<Timestamptz, _>(now)
    .bind::<Nullable<Text>, _>(voucher)
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

#[async_trait]
impl<C: Clock + 'static> SaleStore for PgSupportLedger<C> {
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
}
