//! The one sale read every payments store answers with: a sale joined to
//! its supporter, project, return and display name.

use std::sync::LazyLock;

use chrono::{DateTime, NaiveDate, Utc};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Bool, Date, Nullable, SmallInt, Text, Timestamptz};
use diesel::{sql_query, QueryableByName};
use domain::account::Email;
use domain::ids::{SaleId, UserId};
use domain::lot::Lot;
use domain::money::{PriceBreakdown, TaxMode, TaxRate, Yen};
use domain::payment::{BankTransferInstructions, KonbiniVoucher, PayType};
use ports::payments::gateway::{ConnectedAccountId, PaymentId, PaymentMethodId};
use ports::payments::ledger::SaleRecord;
use ports::RepoError;

use crate::error::map_diesel;
use crate::sql_rules::{corrupt, sale_status_from_db, stored_id};

pub(super) fn pay_type(code: i16) -> Result<PayType, RepoError> {
    PayType::from_code(i32::from(code)).map_err(|e| corrupt("sales.payment_type", e))
}

pub(super) fn parse_email(column: &str, raw: &str) -> Result<Email, RepoError> {
    Email::parse(raw).map_err(|e| corrupt(column, e))
}

/// Provider ids are optional text; an empty one is none.
pub(super) fn provider_id<T>(raw: Option<String>, make: fn(String) -> T) -> Option<T> {
    raw.filter(|id| !id.trim().is_empty()).map(make)
}

#[derive(QueryableByName)]
pub(super) struct SaleRow {
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
    extra_amount: i64,
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
    #[diesel(sql_type = Nullable<Text>)]
    konbini_voucher: Option<String>,
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
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    unclaimed_amount: i64,
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
            extra: Yen(row.extra_amount),
            total: Yen(row.total),
            mode: TaxMode::parse(&row.tax_mode).map_err(|e| corrupt("sales.tax_mode", e))?,
            rate,
        };
        let instructions = row
            .bank_instructions
            .map(|json| serde_json::from_str::<BankTransferInstructions>(&json))
            .transpose()
            .map_err(|e| corrupt("sales.bank_instructions", e))?;
        let voucher = row
            .konbini_voucher
            .map(|json| serde_json::from_str::<KonbiniVoucher>(&json))
            .transpose()
            .map_err(|e| corrupt("sales.konbini_voucher", e))?;
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
            voucher,
            transfer_deadline: row.transfer_deadline,
            one_time_card: provider_id(row.one_time_card_id, PaymentMethodId::new),
            card: provider_id(row.card_id, PaymentMethodId::new),
            refund_required: row.refund_required,
            refunded: Yen(row.refunded_amount),
            unclaimed: Yen(row.unclaimed_amount),
            created_at: row.created_at,
        })
    }
}

/// A sale with what the flow, the mails and the history show beside it.
/// Sales written before the backing flow may have no display name: empty.
pub(super) const SALE_SELECT: &str = "SELECT s.id, s.user_id, u.email, s.project_id, p.slug AS project_slug, \
       p.title AS project_title, s.return_id, r.title AS return_title, s.payment_type, s.status, s.price, s.lot, \
       s.amount, s.tax, s.extra_amount, s.total, s.tax_mode, s.tax_rate_percent, s.application_fee, s.connected_account_id, \
       s.intent_id, coalesce(d.displayname, '') AS displayname, s.amount_remaining, \
       s.bank_instructions::text AS bank_instructions, s.konbini_voucher::text AS konbini_voucher, s.transfer_deadline, s.card_id, s.one_time_card_id, \
       s.refund_required, s.refunded_amount, s.created_at, \
       coalesce((SELECT sum(f.amount) FROM refunds f WHERE f.sales_id = s.id AND f.status = 'unclaimed'), 0)::int8 \
         AS unclaimed_amount \
     FROM sales s \
     JOIN users u ON u.id = s.user_id \
     JOIN projects p ON p.id = s.project_id \
     JOIN returns r ON r.id = s.return_id \
     LEFT JOIN display_names d ON d.sales_id = s.id";

static SALE_BY_ID: LazyLock<String> = LazyLock::new(|| format!("{SALE_SELECT} WHERE s.id = $1"));
pub(super) static SALE_BY_PAYMENT: LazyLock<String> = LazyLock::new(|| format!("{SALE_SELECT} WHERE s.intent_id = $1"));
static SALE_BY_KEY: LazyLock<String> =
    LazyLock::new(|| format!("{SALE_SELECT} WHERE s.user_id = $1 AND s.idempotency_key = $2"));
pub(crate) fn sale_by_id(conn: &mut PgConnection, id: SaleId) -> Result<Option<SaleRecord>, RepoError> {
    let row: Option<SaleRow> =
        sql_query(SALE_BY_ID.as_str()).bind::<BigInt, _>(id.get()).get_result(conn).optional().map_err(map_diesel)?;
    row.map(SaleRecord::try_from).transpose()
}

pub(super) fn sale_by_key(conn: &mut PgConnection, user: UserId, key: &str) -> Result<Option<SaleRecord>, RepoError> {
    let row: Option<SaleRow> = sql_query(SALE_BY_KEY.as_str())
        .bind::<BigInt, _>(user.get())
        .bind::<Text, _>(key)
        .get_result(conn)
        .optional()
        .map_err(map_diesel)?;
    row.map(SaleRecord::try_from).transpose()
}

pub(super) fn sale_rows(rows: Vec<SaleRow>) -> Result<Vec<SaleRecord>, RepoError> {
    rows.into_iter().map(SaleRecord::try_from).collect()
}
