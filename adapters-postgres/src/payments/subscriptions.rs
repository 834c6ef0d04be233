//! The storage side of monthly support (`SubscriptionStore`): the subscription row mirrored from the provider, and each paid
//! invoice written as one sale. A paid month is unique by its invoice id
//! (`sales_invoice_id_key`), so a redelivered webhook or a reconciler pass
//! writes nothing twice; the running-totals triggers count each new sale.

use std::sync::LazyLock;

use chrono::{DateTime, NaiveDate, Utc};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Bool, Date, Nullable, Text, Timestamptz};
use diesel::{sql_query, QueryableByName};
use domain::ids::{SaleId, UserId};
use domain::money::Yen;
use domain::payment::SaleStatus;
use ports::payments::gateway::{
    CustomerId, InvoiceId, PaymentMethodId, ProviderInvoice, ProviderSubscription, SubscriptionId, SubscriptionState,
};
use ports::payments::ledger::{MonthRecorded, SubscriptionRecord, SubscriptionTally};
use ports::RepoError;

use async_trait::async_trait;
use ports::clock::Clock;
use ports::payments::ledger::SubscriptionStore;

use super::PgSupportLedger;
use crate::error::{map_diesel, with_conn};
use crate::rows::IdRow;
use crate::sql_rules::{corrupt, paid, sale_status_to_db, settled, stored_id, subscription_running};

#[derive(QueryableByName)]
struct SubscriptionRow {
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
    #[diesel(sql_type = BigInt)]
    sale_id: i64,
    #[diesel(sql_type = Text)]
    displayname: String,
    #[diesel(sql_type = BigInt)]
    amount: i64,
    #[diesel(sql_type = Text)]
    customer_id: String,
    #[diesel(sql_type = Nullable<Text>)]
    subscription_id: Option<String>,
    #[diesel(sql_type = Text)]
    status: String,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    current_period_end: Option<DateTime<Utc>>,
    #[diesel(sql_type = Bool)]
    cancel_at_period_end: bool,
    #[diesel(sql_type = Nullable<Text>)]
    card_id: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    failure_mailed_invoice: Option<String>,
    #[diesel(sql_type = Bool)]
    end_mailed: bool,
    #[diesel(sql_type = Timestamptz)]
    created_at: DateTime<Utc>,
}

impl TryFrom<SubscriptionRow> for SubscriptionRecord {
    type Error = RepoError;
    fn try_from(row: SubscriptionRow) -> Result<Self, RepoError> {
        Ok(Self {
            id: row.id,
            user: stored_id("subscriptions.user_id", row.user_id)?,
            email: domain::account::Email::parse(&row.email).map_err(|e| corrupt("users.email", e))?,
            project_id: stored_id("subscriptions.project_id", row.project_id)?,
            project_slug: row.project_slug,
            project_title: row.project_title,
            return_id: stored_id("subscriptions.return_id", row.return_id)?,
            return_title: row.return_title,
            sale: stored_id("subscriptions.sale_id", row.sale_id)?,
            display_name: row.displayname,
            amount: Yen(row.amount),
            customer: CustomerId::new(row.customer_id),
            provider: row.subscription_id.filter(|s| !s.is_empty()).map(SubscriptionId::new),
            status: SubscriptionState::parse(&row.status)
                .ok_or_else(|| corrupt("subscriptions.status", &row.status))?,
            current_period_end: row.current_period_end,
            cancel_at_period_end: row.cancel_at_period_end,
            card: row.card_id.filter(|c| !c.is_empty()).map(PaymentMethodId::new),
            failure_mailed_invoice: row.failure_mailed_invoice.map(InvoiceId::new),
            end_mailed: row.end_mailed,
            created_at: row.created_at,
        })
    }
}

/// Subscriptions of monthly supports (rows written by the support call).
const SELECT: &str =
    "SELECT b.id, b.user_id, u.email, b.project_id, p.slug AS project_slug, p.title AS project_title, \
       b.return_id, r.title AS return_title, b.sale_id, coalesce(d.displayname, '') AS displayname, b.amount, b.customer_id, \
       b.subscription_id, b.status, b.current_period_end, b.cancel_at_period_end, b.card_id, \
       b.failure_mailed_invoice, b.end_mailed, b.created_at \
     FROM subscriptions b \
     JOIN users u ON u.id = b.user_id \
     JOIN projects p ON p.id = b.project_id \
     JOIN returns r ON r.id = b.return_id \
     LEFT JOIN display_names d ON d.sales_id = b.sale_id";

static RUNNING: LazyLock<String> = LazyLock::new(|| subscription_running("b.status"));

static BY_ID: LazyLock<String> = LazyLock::new(|| format!("{SELECT} WHERE b.id = $1 AND b.sale_id IS NOT NULL"));
static BY_SALE: LazyLock<String> = LazyLock::new(|| format!("{SELECT} WHERE b.sale_id = $1"));
static BY_PROVIDER: LazyLock<String> =
    LazyLock::new(|| format!("{SELECT} WHERE b.subscription_id = $1 AND b.sale_id IS NOT NULL"));
static OF_USER: LazyLock<String> = LazyLock::new(|| {
    format!("{SELECT} WHERE b.user_id = $1 AND b.sale_id IS NOT NULL AND b.subscription_id IS NOT NULL ORDER BY b.created_at DESC, b.id DESC")
});
static RUNNING_PAGE: LazyLock<String> = LazyLock::new(|| {
    format!("{SELECT} WHERE {} AND b.sale_id IS NOT NULL AND b.id > $1 ORDER BY b.id LIMIT $2", *RUNNING)
});
static ENDED_PROJECTS: LazyLock<String> = LazyLock::new(|| {
    format!(
        "{SELECT} WHERE {} AND b.sale_id IS NOT NULL AND NOT b.cancel_at_period_end AND p.period_end < $1 \
         ORDER BY b.id LIMIT $2",
        *RUNNING
    )
});

fn one(conn: &mut PgConnection, sql: &str, id: i64) -> Result<Option<SubscriptionRecord>, RepoError> {
    let row: Option<SubscriptionRow> =
        sql_query(sql).bind::<BigInt, _>(id).get_result(conn).optional().map_err(map_diesel)?;
    row.map(SubscriptionRecord::try_from).transpose()
}

fn many(rows: Vec<SubscriptionRow>) -> Result<Vec<SubscriptionRecord>, RepoError> {
    rows.into_iter().map(SubscriptionRecord::try_from).collect()
}

fn by_id(conn: &mut PgConnection, id: i64) -> Result<Option<SubscriptionRecord>, RepoError> {
    one(conn, BY_ID.as_str(), id)
}

fn by_sale(conn: &mut PgConnection, sale: SaleId) -> Result<Option<SubscriptionRecord>, RepoError> {
    one(conn, BY_SALE.as_str(), sale.get())
}

fn by_provider(conn: &mut PgConnection, id: &str) -> Result<Option<SubscriptionRecord>, RepoError> {
    let row: Option<SubscriptionRow> =
        sql_query(BY_PROVIDER.as_str()).bind::<Text, _>(id).get_result(conn).optional().map_err(map_diesel)?;
    row.map(SubscriptionRecord::try_from).transpose()
}

fn of_user(conn: &mut PgConnection, user: UserId) -> Result<Vec<SubscriptionRecord>, RepoError> {
    many(sql_query(OF_USER.as_str()).bind::<BigInt, _>(user.get()).load(conn).map_err(map_diesel)?)
}

fn running(conn: &mut PgConnection, after: i64, limit: i64) -> Result<Vec<SubscriptionRecord>, RepoError> {
    many(
        sql_query(RUNNING_PAGE.as_str())
            .bind::<BigInt, _>(after)
            .bind::<BigInt, _>(limit)
            .load(conn)
            .map_err(map_diesel)?,
    )
}

fn of_ended_projects(
    conn: &mut PgConnection,
    today: NaiveDate,
    limit: i64,
) -> Result<Vec<SubscriptionRecord>, RepoError> {
    many(
        sql_query(ENDED_PROJECTS.as_str())
            .bind::<Date, _>(today)
            .bind::<BigInt, _>(limit)
            .load(conn)
            .map_err(map_diesel)?,
    )
}

#[derive(QueryableByName)]
struct TallyRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = BigInt)]
    project_id: i64,
    #[diesel(sql_type = Text)]
    subscription_id: String,
    #[diesel(sql_type = Text)]
    status: String,
    #[diesel(sql_type = BigInt)]
    months_paid: i64,
}

fn tallies(conn: &mut PgConnection, after: i64, limit: i64) -> Result<Vec<SubscriptionTally>, RepoError> {
    let rows: Vec<TallyRow> = sql_query(format!(
        "SELECT b.id, b.project_id, b.subscription_id, b.status, \
           (SELECT count(*) FROM sales m WHERE m.subscription_id = b.id AND m.invoice_id IS NOT NULL \
              AND {}) AS months_paid \
         FROM subscriptions b WHERE b.subscription_id IS NOT NULL AND b.id > $1 ORDER BY b.id LIMIT $2",
        paid("m.status")
    ))
    .bind::<BigInt, _>(after)
    .bind::<BigInt, _>(limit)
    .load(conn)
    .map_err(map_diesel)?;
    rows.into_iter()
        .map(|row| {
            Ok(SubscriptionTally {
                id: row.id,
                project_id: stored_id("subscriptions.project_id", row.project_id)?,
                provider: SubscriptionId::new(row.subscription_id),
                status: SubscriptionState::parse(&row.status)
                    .ok_or_else(|| corrupt("subscriptions.status", row.status))?,
                months_paid: row.months_paid,
            })
        })
        .collect()
}

/// The row of a first sale's subscription, written once (a repeat of the
/// support call finds it).
fn open(
    conn: &mut PgConnection,
    sale: SaleId,
    customer: &CustomerId,
    card: &PaymentMethodId,
    plan_id: &str,
    amount: Yen,
) -> Result<SubscriptionRecord, RepoError> {
    sql_query(
        "INSERT INTO subscriptions (user_id, customer_id, plan_id, status, project_id, return_id, sale_id, amount, card_id) \
         SELECT s.user_id, $2, $3, 'incomplete', s.project_id, s.return_id, s.id, $4, $5 FROM sales s WHERE s.id = $1 \
         ON CONFLICT (sale_id) DO NOTHING",
    )
    .bind::<BigInt, _>(sale.get())
    .bind::<Text, _>(customer.as_str())
    .bind::<Text, _>(plan_id)
    .bind::<BigInt, _>(amount.value())
    .bind::<Text, _>(card.as_str())
    .execute(conn)
    .map_err(map_diesel)?;
    by_sale(conn, sale)?.ok_or(RepoError::NotFound)
}

fn record(
    conn: &mut PgConnection,
    id: i64,
    state: &ProviderSubscription,
    now: DateTime<Utc>,
) -> Result<SubscriptionRecord, RepoError> {
    let provider = Some(state.id.as_str()).filter(|p| !p.is_empty());
    // An ended subscription stays ended: the provider does not order its events, and an `updated` sent
    // before the `deleted` may arrive after it.
    sql_query(
        "UPDATE subscriptions SET subscription_id = coalesce(subscription_id, $2), \
           status = CASE WHEN status IN ('canceled', 'incomplete_expired') THEN status ELSE $3 END, \
           current_period_end = coalesce($4, current_period_end), cancel_at_period_end = $5, \
           card_id = coalesce($6, card_id), updated_at = $7, \
           canceled_at = CASE WHEN $3 IN ('canceled', 'incomplete_expired', 'unpaid') THEN coalesce(canceled_at, $7) ELSE canceled_at END \
         WHERE id = $1",
    )
    .bind::<BigInt, _>(id)
    .bind::<Nullable<Text>, _>(provider)
    .bind::<Text, _>(state.status.as_str())
    .bind::<Nullable<Timestamptz>, _>(state.current_period_end)
    .bind::<Bool, _>(state.cancel_at_period_end)
    .bind::<Nullable<Text>, _>(state.card.as_ref().map(PaymentMethodId::as_str))
    .bind::<Timestamptz, _>(now)
    .execute(conn)
    .map_err(map_diesel)?;
    by_id(conn, id)?.ok_or(RepoError::NotFound)
}

/// In one transaction under the subscription's row lock: the invoice's
/// month, once. The first paid invoice is tied to the support's own sale
/// (still unpaid); every later one is a new sale copying the first one's
/// terms, display name and sponsor flag, written paid.
fn record_month(
    conn: &mut PgConnection,
    id: i64,
    invoice: &ProviderInvoice,
    now: DateTime<Utc>,
) -> Result<MonthRecorded, RepoError> {
    let result = conn.transaction(|conn| -> Result<MonthRecorded, Tx> {
        let locked: Option<IdRow> = sql_query("SELECT sale_id AS id FROM subscriptions WHERE id = $1 FOR UPDATE")
            .bind::<BigInt, _>(id)
            .get_result(conn)
            .optional()?;
        let Some(first) = locked else { return Err(Tx::Repo(RepoError::NotFound)) };
        let seen: Option<IdRow> = sql_query("SELECT id FROM sales WHERE invoice_id = $1")
            .bind::<Text, _>(invoice.id.as_str())
            .get_result(conn)
            .optional()?;
        if seen.is_some() {
            return Ok(MonthRecorded::Already);
        }
        let tied = sql_query(format!(
            "UPDATE sales SET invoice_id = $2, subscription_id = $3, updated_at = $4 \
             WHERE id = $1 AND invoice_id IS NULL AND NOT {}",
            settled("status")
        ))
        .bind::<BigInt, _>(first.id)
        .bind::<Text, _>(invoice.id.as_str())
        .bind::<BigInt, _>(id)
        .bind::<Timestamptz, _>(now)
        .execute(conn)?;
        if tied == 1 {
            return Ok(MonthRecorded::First(SaleId(first.id)));
        }
        let key = format!("invoice-{}", invoice.id.as_str());
        let created: IdRow = sql_query(
            "INSERT INTO sales (project_id, return_id, user_id, price, lot, amount, tax, total, tax_mode, \
               tax_rate_percent, application_fee, connected_account_id, payment_type, status, intent_id, \
               idempotency_key, flag, paid_at, card_id, subscription_id, invoice_id) \
             SELECT s.project_id, s.return_id, s.user_id, s.price, s.lot, s.amount, s.tax, s.total, s.tax_mode, \
               s.tax_rate_percent, s.application_fee, s.connected_account_id, s.payment_type, $6, $2, \
               $3, 1, $4, b.card_id, b.id, $5 \
             FROM sales s JOIN subscriptions b ON b.sale_id = s.id WHERE b.id = $1 RETURNING id",
        )
        .bind::<BigInt, _>(id)
        .bind::<Nullable<Text>, _>(invoice.payment.as_ref().map(|p| p.as_str()))
        .bind::<Text, _>(key)
        .bind::<Timestamptz, _>(now)
        .bind::<Text, _>(invoice.id.as_str())
        .bind::<Text, _>(sale_status_to_db(SaleStatus::Succeeded))
        .get_result(conn)?;
        sql_query(
            "INSERT INTO display_names (sales_id, user_id, project_id, return_id, displayname, flag) \
             SELECT $1, d.user_id, d.project_id, d.return_id, d.displayname, d.flag \
             FROM display_names d WHERE d.sales_id = $2",
        )
        .bind::<BigInt, _>(created.id)
        .bind::<BigInt, _>(first.id)
        .execute(conn)?;
        let sale = super::sale_query::sale_by_id(conn, SaleId(created.id))
            .map_err(Tx::Repo)?
            .ok_or_else(|| Tx::Repo(corrupt("sales", format!("month {} vanished after insert", created.id))))?;
        Ok(MonthRecorded::Renewal(Box::new(sale)))
    });
    match result {
        Ok(done) => Ok(done),
        Err(Tx::Db(error)) => Err(map_diesel(error)),
        Err(Tx::Repo(error)) => Err(error),
    }
}

enum Tx {
    Db(diesel::result::Error),
    Repo(RepoError),
}

impl From<diesel::result::Error> for Tx {
    fn from(error: diesel::result::Error) -> Self {
        Self::Db(error)
    }
}

/// Sets a once-only marker; `true` when this call set it.
fn mark_failure(conn: &mut PgConnection, id: i64, invoice: &InvoiceId) -> Result<bool, RepoError> {
    let updated = sql_query(
        "UPDATE subscriptions SET failure_mailed_invoice = $2 \
         WHERE id = $1 AND failure_mailed_invoice IS DISTINCT FROM $2",
    )
    .bind::<BigInt, _>(id)
    .bind::<Text, _>(invoice.as_str())
    .execute(conn)
    .map_err(map_diesel)?;
    Ok(updated == 1)
}

fn mark_end(conn: &mut PgConnection, id: i64) -> Result<bool, RepoError> {
    let updated = sql_query("UPDATE subscriptions SET end_mailed = TRUE WHERE id = $1 AND NOT end_mailed")
        .bind::<BigInt, _>(id)
        .execute(conn)
        .map_err(map_diesel)?;
    Ok(updated == 1)
}

#[async_trait]
impl<C: Clock + 'static> SubscriptionStore for PgSupportLedger<C> {
    async fn open_subscription(
        &self,
        sale: SaleId,
        customer: &CustomerId,
        card: &PaymentMethodId,
        plan_id: &str,
        amount: Yen,
    ) -> Result<SubscriptionRecord, RepoError> {
        let (customer, card, plan_id) = (customer.clone(), card.clone(), plan_id.to_string());
        with_conn(&self.pool, move |conn| open(conn, sale, &customer, &card, &plan_id, amount)).await
    }

    async fn subscription(&self, id: i64) -> Result<Option<SubscriptionRecord>, RepoError> {
        with_conn(&self.pool, move |conn| by_id(conn, id)).await
    }

    async fn subscription_by_sale(&self, sale: SaleId) -> Result<Option<SubscriptionRecord>, RepoError> {
        with_conn(&self.pool, move |conn| by_sale(conn, sale)).await
    }

    async fn subscription_by_provider(&self, id: &SubscriptionId) -> Result<Option<SubscriptionRecord>, RepoError> {
        let id = id.as_str().to_string();
        with_conn(&self.pool, move |conn| by_provider(conn, &id)).await
    }

    async fn record_subscription(
        &self,
        id: i64,
        state: &ProviderSubscription,
        now: DateTime<Utc>,
    ) -> Result<SubscriptionRecord, RepoError> {
        let state = state.clone();
        with_conn(&self.pool, move |conn| record(conn, id, &state, now)).await
    }

    async fn record_month(
        &self,
        id: i64,
        invoice: &ProviderInvoice,
        now: DateTime<Utc>,
    ) -> Result<MonthRecorded, RepoError> {
        let invoice = invoice.clone();
        with_conn(&self.pool, move |conn| record_month(conn, id, &invoice, now)).await
    }

    async fn mark_failure_mailed(&self, id: i64, invoice: &InvoiceId) -> Result<bool, RepoError> {
        let invoice = invoice.clone();
        with_conn(&self.pool, move |conn| mark_failure(conn, id, &invoice)).await
    }

    async fn mark_end_mailed(&self, id: i64) -> Result<bool, RepoError> {
        with_conn(&self.pool, move |conn| mark_end(conn, id)).await
    }

    async fn subscriptions_of(&self, user: UserId) -> Result<Vec<SubscriptionRecord>, RepoError> {
        with_conn(&self.pool, move |conn| of_user(conn, user)).await
    }

    async fn running_subscriptions(&self, after: i64, limit: i64) -> Result<Vec<SubscriptionRecord>, RepoError> {
        with_conn(&self.pool, move |conn| running(conn, after, limit)).await
    }

    async fn subscription_tallies(&self, after: i64, limit: i64) -> Result<Vec<SubscriptionTally>, RepoError> {
        with_conn(&self.pool, move |conn| tallies(conn, after, limit)).await
    }

    async fn subscriptions_of_ended_projects(
        &self,
        today: NaiveDate,
        limit: i64,
    ) -> Result<Vec<SubscriptionRecord>, RepoError> {
        with_conn(&self.pool, move |conn| of_ended_projects(conn, today, limit)).await
    }
}
