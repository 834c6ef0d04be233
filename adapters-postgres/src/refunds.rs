//! The refund ledger (`ports::admin::refunds::RefundLedger`): reservations
//! under the sale's row lock, the provider's answer applied in one
//! transaction with the flag (the running-totals triggers follow it), and the
//! bulk jobs on `background_jobs`.

use std::sync::LazyLock;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel::sql_query;
use diesel::sql_types::{BigInt, Bool, Integer, Nullable, Text, Timestamptz};
use domain::ids::{ProjectId, SaleId, UserId};
use domain::money::Yen;
use domain::payment::PayType;
use domain::refund::RefundFlag;
use ports::admin::refunds::{
    AwaitingAccount, BeginRefundError, BulkJob, BulkPayload, BulkRow, NewRefund, OpenRefund, OpenRefundOf,
    OpenRefundStatus, RefundLedger, RefundProject, RefundResult, RefundSale, BULK_MAX_ATTEMPTS, BULK_REFUND,
};
use ports::payments::gateway::{PaymentId, RefundId};
use ports::RepoError;

use crate::error::{map_diesel, with_conn};
use crate::rows::{CountRow, IdRow};
use crate::{sql_rules, PgPool};

#[derive(Clone)]
pub struct PgRefundLedger {
    pool: PgPool,
}

impl PgRefundLedger {
    pub fn new(pool: PgPool) -> Self {
        Self { pool }
    }
}

/// Advisory-lock class of "one bulk refund per project at a time".
const BULK_LOCK_CLASS: i32 = 7411;

/// The refund table's columns and joins, after `SELECT`.
static SALE_COLUMNS: LazyLock<String> = LazyLock::new(|| {
    format!(
        "s.id, s.project_id, s.created_at, u.username, u.displayname, u.corporatename, u.email, \
    coalesce(dn.displayname, u.displayname, '') AS sale_display_name, p.title AS project_title, \
    r.title AS return_title, r.course, s.lot::int4 AS lot, s.amount, s.total, s.payment_type::int4 AS payment_type, \
    {flag} AS flag, s.refund_required, \
    coalesce((SELECT sum(f.amount) FROM refunds f WHERE f.sales_id = s.id AND f.status = 'succeeded'), 0)::int8 \
        AS refunded, \
    coalesce((SELECT sum(f.amount) FROM refunds f WHERE f.sales_id = s.id AND f.status = 'unclaimed'), 0)::int8 \
        AS unclaimed, \
    o.id AS open_id, o.amount AS open_amount, o.status AS open_status, o.provider_refund_id AS open_provider, \
    (SELECT f.failure_reason FROM refunds f WHERE f.sales_id = s.id AND f.status = 'failed' \
        ORDER BY f.id DESC LIMIT 1) AS last_failure, \
    s.intent_id, s.connected_account_id IS NOT NULL AS connected \
    FROM sales s JOIN users u ON u.id = s.user_id JOIN projects p ON p.id = s.project_id \
    JOIN returns r ON r.id = s.return_id \
    LEFT JOIN display_names dn ON dn.sales_id = s.id \
    LEFT JOIN refunds o ON o.sales_id = s.id AND o.status IN ('pending', 'requires_action')",
        flag = sql_rules::refund_flag("s")
    )
});

#[derive(QueryableByName)]
struct SaleRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = BigInt)]
    project_id: i64,
    #[diesel(sql_type = Timestamptz)]
    created_at: DateTime<Utc>,
    #[diesel(sql_type = Nullable<Text>)]
    username: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    displayname: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    corporatename: Option<String>,
    #[diesel(sql_type = Text)]
    email: String,
    #[diesel(sql_type = Text)]
    sale_display_name: String,
    #[diesel(sql_type = Text)]
    project_title: String,
    #[diesel(sql_type = Text)]
    return_title: String,
    #[diesel(sql_type = Nullable<Text>)]
    course: Option<String>,
    #[diesel(sql_type = Integer)]
    lot: i32,
    #[diesel(sql_type = BigInt)]
    amount: i64,
    #[diesel(sql_type = BigInt)]
    total: i64,
    #[diesel(sql_type = Integer)]
    payment_type: i32,
    #[diesel(sql_type = Integer)]
    flag: i32,
    #[diesel(sql_type = Bool)]
    refund_required: bool,
    #[diesel(sql_type = BigInt)]
    refunded: i64,
    #[diesel(sql_type = BigInt)]
    unclaimed: i64,
    #[diesel(sql_type = Nullable<BigInt>)]
    open_id: Option<i64>,
    #[diesel(sql_type = Nullable<BigInt>)]
    open_amount: Option<i64>,
    #[diesel(sql_type = Nullable<Text>)]
    open_status: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    open_provider: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    last_failure: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    intent_id: Option<String>,
    #[diesel(sql_type = Bool)]
    connected: bool,
}

fn open_status(raw: &str) -> Result<OpenRefundStatus, RepoError> {
    match raw {
        "pending" => Ok(OpenRefundStatus::Pending),
        "requires_action" => Ok(OpenRefundStatus::RequiresAction),
        other => Err(RepoError::Unexpected(anyhow::anyhow!("refund status {other:?} is not open"))),
    }
}

impl TryFrom<SaleRow> for RefundSale {
    type Error = RepoError;

    fn try_from(row: SaleRow) -> Result<Self, RepoError> {
        let open_refund = match (row.open_id, row.open_amount, row.open_status) {
            (Some(id), Some(amount), Some(status)) => Some(OpenRefund {
                id,
                amount: Yen(amount),
                status: open_status(&status)?,
                provider: row.open_provider.map(RefundId::new),
            }),
            _ => None,
        };
        let flag = RefundFlag::from_code(row.flag);
        Ok(RefundSale {
            id: SaleId(row.id),
            project_id: ProjectId(row.project_id),
            created_at: row.created_at,
            username: row.username,
            displayname: row.displayname,
            corporatename: row.corporatename,
            email: row.email,
            sale_display_name: row.sale_display_name,
            project_title: row.project_title,
            return_title: row.return_title,
            course: row.course,
            lot: row.lot,
            amount: Yen(row.amount),
            total: Yen(row.total),
            pay_type: PayType::from_code(row.payment_type).map_err(|e| RepoError::Unexpected(e.into()))?,
            flag,
            refund_required: row.refund_required,
            refunded: Yen(row.refunded),
            unclaimed: Yen(row.unclaimed),
            // A reason matters only while the sale is still to be refunded.
            last_failure: if flag == RefundFlag::Refundable && open_refund.is_none() { row.last_failure } else { None },
            open_refund,
            payment: row.intent_id.map(PaymentId::new),
            connected: row.connected,
        })
    }
}

#[derive(QueryableByName)]
struct ProjectRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = Text)]
    slug: String,
    #[diesel(sql_type = Text)]
    title: String,
    #[diesel(sql_type = BigInt)]
    refundable: i64,
    #[diesel(sql_type = BigInt)]
    refunded: i64,
    #[diesel(sql_type = BigInt)]
    refund_required: i64,
}

#[derive(QueryableByName)]
struct LockedSale {
    #[diesel(sql_type = Integer)]
    flag: i32,
    #[diesel(sql_type = Bool)]
    refund_required: bool,
    #[diesel(sql_type = BigInt)]
    total: i64,
    #[diesel(sql_type = BigInt)]
    refunded_amount: i64,
}

#[derive(QueryableByName)]
struct RefundStateRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = BigInt)]
    sales_id: i64,
    #[diesel(sql_type = BigInt)]
    amount: i64,
    #[diesel(sql_type = Text)]
    status: String,
    #[diesel(sql_type = Nullable<Text>)]
    provider_refund_id: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    failure_reason: Option<String>,
}

#[derive(QueryableByName)]
struct AwaitingRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = BigInt)]
    sales_id: i64,
    #[diesel(sql_type = BigInt)]
    amount: i64,
    #[diesel(sql_type = Text)]
    provider_refund_id: String,
    #[diesel(sql_type = Timestamptz)]
    created_at: DateTime<Utc>,
    #[diesel(sql_type = Integer)]
    sent: i32,
    #[diesel(sql_type = Text)]
    email: String,
    #[diesel(sql_type = Text)]
    name: String,
    #[diesel(sql_type = Text)]
    project_title: String,
}

#[derive(QueryableByName)]
struct JobRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = Text)]
    status: String,
    #[diesel(sql_type = Text)]
    payload: String,
    #[diesel(sql_type = Nullable<Integer>)]
    progress_total: Option<i32>,
    #[diesel(sql_type = Integer)]
    progress_done: i32,
    #[diesel(sql_type = Timestamptz)]
    created_at: DateTime<Utc>,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    finished_at: Option<DateTime<Utc>>,
}

enum Tx {
    Db(DieselError),
    Begin(BeginRefundError),
}

impl From<DieselError> for Tx {
    fn from(e: DieselError) -> Self {
        Self::Db(e)
    }
}

fn count(n: i64) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[async_trait]
impl RefundLedger for PgRefundLedger {
    async fn refund_projects(&self) -> Result<Vec<RefundProject>, RepoError> {
        let rows: Vec<ProjectRow> = with_conn(&self.pool, |conn| {
            sql_query(format!(
                "SELECT p.id, p.slug, p.title, \
                   count(s.id) FILTER (WHERE {flag} = {refundable}) AS refundable, \
                   count(s.id) FILTER (WHERE s.flag = {refunded}) AS refunded, \
                   count(s.id) FILTER (WHERE s.refund_required AND s.flag <> {refunded}) AS refund_required \
                 FROM projects p LEFT JOIN sales s ON s.project_id = p.id \
                 GROUP BY p.id ORDER BY p.id",
                flag = sql_rules::refund_flag("s"),
                refundable = RefundFlag::Refundable.code(),
                refunded = RefundFlag::Refunded.code(),
            ))
            .load(conn)
            .map_err(map_diesel)
        })
        .await?;
        Ok(rows
            .into_iter()
            .map(|r| RefundProject {
                id: ProjectId(r.id),
                slug: r.slug,
                title: r.title,
                refundable: count(r.refundable),
                refunded: count(r.refunded),
                refund_required: count(r.refund_required),
            })
            .collect())
    }

    async fn refund_sales(&self, project: ProjectId) -> Result<Vec<RefundSale>, RepoError> {
        let rows: Vec<SaleRow> = with_conn(&self.pool, move |conn| {
            let exists: CountRow = sql_query("SELECT count(*) AS n FROM projects WHERE id = $1")
                .bind::<BigInt, _>(project.0)
                .get_result(conn)
                .map_err(map_diesel)?;
            if exists.n == 0 {
                return Err(RepoError::NotFound);
            }
            // Sales never sent to the provider (pending, failed) are not purchases yet.
            sql_query(format!(
                "SELECT {} WHERE s.project_id = $1 AND s.status NOT IN ('pending', 'failed') \
                 ORDER BY s.created_at DESC, s.id DESC",
                SALE_COLUMNS.as_str()
            ))
            .bind::<BigInt, _>(project.0)
            .load(conn)
            .map_err(map_diesel)
        })
        .await?;
        rows.into_iter().map(RefundSale::try_from).collect()
    }

    async fn refund_sale(&self, sale: SaleId) -> Result<RefundSale, RepoError> {
        let row: SaleRow = with_conn(&self.pool, move |conn| {
            sql_query(format!("SELECT {} WHERE s.id = $1", SALE_COLUMNS.as_str()))
                .bind::<BigInt, _>(sale.0)
                .get_result(conn)
                .map_err(map_diesel)
        })
        .await?;
        row.try_into()
    }

    async fn begin_refund(&self, refund: NewRefund, now: DateTime<Utc>) -> Result<i64, BeginRefundError> {
        let pool = self.pool.clone();
        let result = crate::error::run_blocking(move || {
            let mut conn = pool.get().map_err(|e| RepoError::Unexpected(e.into()))?;
            let outcome = conn.transaction::<i64, Tx, _>(|conn| {
                let locked: Option<LockedSale> = sql_query(
                    "SELECT flag::int4 AS flag, refund_required, total, refunded_amount FROM sales \
                     WHERE id = $1 FOR UPDATE",
                )
                .bind::<BigInt, _>(refund.sale.0)
                .get_result(conn)
                .optional()?;
                let Some(locked) = locked else {
                    return Err(Tx::Begin(BeginRefundError::Repo(RepoError::NotFound)));
                };
                if RefundFlag::of_sale(locked.flag, locked.refund_required) != RefundFlag::Refundable {
                    return Err(Tx::Begin(BeginRefundError::NotRefundable));
                }
                let open: CountRow = sql_query(
                    "SELECT count(*) AS n FROM refunds WHERE sales_id = $1 AND status IN ('pending', 'requires_action')",
                )
                .bind::<BigInt, _>(refund.sale.0)
                .get_result(conn)?;
                if open.n > 0 {
                    return Err(Tx::Begin(BeginRefundError::NotRefundable));
                }
                if let Some(job) = refund.job {
                    let tried: CountRow =
                        sql_query("SELECT count(*) AS n FROM refunds WHERE job_id = $1 AND sales_id = $2")
                            .bind::<BigInt, _>(job)
                            .bind::<BigInt, _>(refund.sale.0)
                            .get_result(conn)?;
                    if tried.n > 0 {
                        return Err(Tx::Begin(BeginRefundError::AlreadyTried));
                    }
                }
                if refund.amount.0 <= 0 || refund.amount.0 > locked.total - locked.refunded_amount {
                    return Err(Tx::Begin(BeginRefundError::AboveSponsored));
                }
                let row: IdRow = sql_query(
                    "INSERT INTO refunds (sales_id, amount, status, requested_by, job_id, created_at, updated_at) \
                     VALUES ($1, $2, 'pending', $3, $4, $5, $5) RETURNING id",
                )
                .bind::<BigInt, _>(refund.sale.0)
                .bind::<BigInt, _>(refund.amount.0)
                .bind::<Nullable<BigInt>, _>(refund.admin.map(|a| a.0))
                .bind::<Nullable<BigInt>, _>(refund.job)
                .bind::<Timestamptz, _>(now)
                .get_result(conn)?;
                Ok(row.id)
            });
            Ok(outcome)
        })
        .await
        .map_err(BeginRefundError::Repo)?;
        result.map_err(|e| match e {
            Tx::Begin(b) => b,
            // Two attempts at once: the unique indexes say the sale is taken.
            Tx::Db(db) => match map_diesel(db) {
                RepoError::Conflict(name) if name == "refunds_one_open_per_sale" => BeginRefundError::NotRefundable,
                RepoError::Conflict(name) if name == "refunds_job_sale_key" => BeginRefundError::AlreadyTried,
                other => BeginRefundError::Repo(other),
            },
        })
    }

    async fn finish_refund(&self, refund: i64, result: RefundResult, now: DateTime<Utc>) -> Result<bool, RepoError> {
        with_conn(&self.pool, move |conn| {
            conn.transaction::<bool, DieselError, _>(|conn| {
                let Some(sale) = sql_query("SELECT sales_id AS id FROM refunds WHERE id = $1")
                    .bind::<BigInt, _>(refund)
                    .get_result::<IdRow>(conn)
                    .optional()?
                else {
                    return Err(DieselError::NotFound);
                };
                // The sale's lock first, as begin_refund takes it: one order, no deadlock.
                sql_query("SELECT id FROM sales WHERE id = $1 FOR UPDATE")
                    .bind::<BigInt, _>(sale.id)
                    .get_result::<IdRow>(conn)?;
                let current: RefundStateRow = sql_query(
                    "SELECT id, sales_id, amount, status, provider_refund_id, failure_reason FROM refunds \
                     WHERE id = $1 FOR UPDATE",
                )
                .bind::<BigInt, _>(refund)
                .get_result(conn)?;
                if !matches!(current.status.as_str(), "pending" | "requires_action") {
                    return Ok(false);
                }
                let set = |status: &str, provider: Option<&RefundId>, reason: Option<&str>| {
                    sql_query(
                        "UPDATE refunds SET status = $2, provider_refund_id = coalesce($3, provider_refund_id), \
                           failure_reason = $4, updated_at = $5 WHERE id = $1",
                    )
                    .bind::<BigInt, _>(refund)
                    .bind::<Text, _>(status.to_string())
                    .bind::<Nullable<Text>, _>(provider.map(|p| p.as_str().to_string()))
                    .bind::<Nullable<Text>, _>(reason.map(|r| r.chars().take(1000).collect::<String>()))
                    .bind::<Timestamptz, _>(now)
                };
                match &result {
                    RefundResult::Succeeded { provider } => {
                        set("succeeded", Some(provider), None).execute(conn)?;
                        // Flag 11 in this transaction: the running totals and walls follow by trigger.
                        sql_query("UPDATE sales SET flag = 11, updated_at = $2 WHERE id = $1 AND flag IN (0, 1)")
                            .bind::<BigInt, _>(sale.id)
                            .bind::<Timestamptz, _>(now)
                            .execute(conn)?;
                        Ok(true)
                    }
                    RefundResult::NeedsBankDetails { provider } => {
                        set("requires_action", Some(provider), None).execute(conn)?;
                        Ok(false)
                    }
                    RefundResult::Accepted { provider } => {
                        set(&current.status, Some(provider), None).execute(conn)?;
                        Ok(false)
                    }
                    RefundResult::Failed { reason, provider } => {
                        set("failed", provider.as_ref(), Some(reason)).execute(conn)?;
                        Ok(false)
                    }
                }
            })
            .map_err(map_diesel)
        })
        .await
    }

    async fn open_refunds(&self, before: DateTime<Utc>, limit: i64) -> Result<Vec<OpenRefundOf>, RepoError> {
        let rows: Vec<RefundStateRow> = with_conn(&self.pool, move |conn| {
            sql_query(
                "SELECT id, sales_id, amount, status, provider_refund_id, failure_reason FROM refunds \
                 WHERE status IN ('pending', 'requires_action') AND updated_at < $1 \
                   AND NOT (status = 'requires_action' AND ($1 AT TIME ZONE 'Asia/Tokyo')::date \
                     > ((created_at AT TIME ZONE 'Asia/Tokyo') + interval '6 months')::date) \
                 ORDER BY updated_at, id LIMIT $2",
            )
            .bind::<Timestamptz, _>(before)
            .bind::<BigInt, _>(limit)
            .load(conn)
            .map_err(map_diesel)
        })
        .await?;
        rows.into_iter()
            .map(|r| {
                Ok(OpenRefundOf {
                    refund: r.id,
                    sale: SaleId(r.sales_id),
                    amount: Yen(r.amount),
                    status: open_status(&r.status)?,
                    provider: r.provider_refund_id.map(RefundId::new),
                })
            })
            .collect()
    }

    async fn awaiting_account(&self, limit: i64) -> Result<Vec<AwaitingAccount>, RepoError> {
        let rows: Vec<AwaitingRow> = with_conn(&self.pool, move |conn| {
            sql_query(
                "SELECT f.id, f.sales_id, f.amount, f.provider_refund_id, f.created_at, f.reminders_sent::int4 AS sent, \
                   u.email, coalesce(dn.displayname, u.displayname, '') AS name, p.title AS project_title \
                 FROM refunds f JOIN sales s ON s.id = f.sales_id JOIN users u ON u.id = s.user_id \
                   JOIN projects p ON p.id = s.project_id LEFT JOIN display_names dn ON dn.sales_id = s.id \
                 WHERE f.status = 'requires_action' AND f.provider_refund_id IS NOT NULL \
                 ORDER BY f.created_at, f.id LIMIT $1",
            )
            .bind::<BigInt, _>(limit)
            .load(conn)
            .map_err(map_diesel)
        })
        .await?;
        rows.into_iter()
            .map(|r| {
                Ok(AwaitingAccount {
                    refund: r.id,
                    sale: SaleId(r.sales_id),
                    amount: Yen(r.amount),
                    provider: RefundId::new(r.provider_refund_id),
                    asked_at: r.created_at,
                    reminders_sent: u32::try_from(r.sent)
                        .map_err(|_| RepoError::Unexpected(anyhow::anyhow!("reminders_sent {}", r.sent)))?,
                    email: r.email,
                    name: r.name,
                    project_title: r.project_title,
                })
            })
            .collect()
    }

    async fn queue_reminder(
        &self,
        refund: i64,
        sent: u32,
        owed: u32,
        payload: serde_json::Value,
    ) -> Result<bool, RepoError> {
        let (sent, owed) = (i32::try_from(sent).unwrap_or(i32::MAX), i32::try_from(owed).unwrap_or(i32::MAX));
        with_conn(&self.pool, move |conn| {
            conn.transaction::<bool, DieselError, _>(|conn| {
                // The compare-and-set on the counter: one process queues the reminder due, every other finds it raised.
                let won = sql_query(
                    "UPDATE refunds SET reminders_sent = $3, updated_at = updated_at \
                     WHERE id = $1 AND status = 'requires_action' AND reminders_sent = $2",
                )
                .bind::<BigInt, _>(refund)
                .bind::<Integer, _>(sent)
                .bind::<Integer, _>(owed)
                .execute(conn)?;
                if won == 1 {
                    crate::jobs::queue_mail_in(conn, &payload)?;
                }
                Ok(won == 1)
            })
            .map_err(map_diesel)
        })
        .await
    }

    async fn mark_unclaimed(&self, refund: i64, now: DateTime<Utc>) -> Result<bool, RepoError> {
        with_conn(&self.pool, move |conn| {
            // Not 'failed': the amount stays in sales.refunded_amount (the trigger), passed to the company.
            let updated = sql_query(
                "UPDATE refunds SET status = 'unclaimed', unclaimed_at = $2, updated_at = $2 \
                 WHERE id = $1 AND status = 'requires_action'",
            )
            .bind::<BigInt, _>(refund)
            .bind::<Timestamptz, _>(now)
            .execute(conn)
            .map_err(map_diesel)?;
            Ok(updated == 1)
        })
        .await
    }

    async fn job_refund(&self, job: i64, sale: SaleId) -> Result<Option<(i64, String)>, RepoError> {
        let row: Option<RefundStateRow> = with_conn(&self.pool, move |conn| {
            sql_query(
                "SELECT id, sales_id, amount, status, provider_refund_id, failure_reason FROM refunds \
                 WHERE job_id = $1 AND sales_id = $2",
            )
            .bind::<BigInt, _>(job)
            .bind::<BigInt, _>(sale.0)
            .get_result(conn)
            .optional()
            .map_err(map_diesel)
        })
        .await?;
        Ok(row.map(|r| (r.id, r.status)))
    }

    async fn create_bulk(
        &self,
        admin: Option<UserId>,
        project: ProjectId,
        payload: serde_json::Value,
        total: u32,
    ) -> Result<i64, RepoError> {
        let total = i32::try_from(total).unwrap_or(i32::MAX);
        let max_attempts = i32::try_from(BULK_MAX_ATTEMPTS).unwrap_or(5);
        with_conn(&self.pool, move |conn| {
            // The refusal is an answer inside a committed (write-free) transaction, so diesel's error type stays.
            conn.transaction::<Result<i64, RepoError>, DieselError, _>(|conn| {
                // One bulk run per project at a time, across processes.
                sql_query("SELECT pg_advisory_xact_lock($1, hashint8($2))")
                    .bind::<Integer, _>(BULK_LOCK_CLASS)
                    .bind::<BigInt, _>(project.0)
                    .execute(conn)?;
                let running: CountRow = sql_query(
                    "SELECT count(*) AS n FROM background_jobs WHERE kind = $1 AND status IN ('queued', 'running') \
                       AND payload->>'project_id' = $2::text",
                )
                .bind::<Text, _>(BULK_REFUND)
                .bind::<BigInt, _>(project.0)
                .get_result(conn)?;
                if running.n > 0 {
                    return Ok(Err(RepoError::Conflict("bulk_refund_running".into())));
                }
                let row: IdRow = sql_query(
                    "INSERT INTO background_jobs (kind, payload, max_attempts, progress_total, created_by) \
                     VALUES ($1, $2::jsonb, $3, $4, $5) RETURNING id",
                )
                .bind::<Text, _>(BULK_REFUND)
                .bind::<Text, _>(payload.to_string())
                .bind::<Integer, _>(max_attempts)
                .bind::<Integer, _>(total)
                .bind::<Nullable<BigInt>, _>(admin.map(|a| a.0))
                .get_result(conn)?;
                Ok(Ok(row.id))
            })
            .map_err(map_diesel)?
        })
        .await
    }

    async fn set_bulk_progress(&self, job: i64, done: u32, now: DateTime<Utc>) -> Result<(), RepoError> {
        let done = i32::try_from(done).unwrap_or(i32::MAX);
        with_conn(&self.pool, move |conn| {
            sql_query("UPDATE background_jobs SET progress_done = $2, updated_at = $3 WHERE id = $1")
                .bind::<BigInt, _>(job)
                .bind::<Integer, _>(done)
                .bind::<Timestamptz, _>(now)
                .execute(conn)
                .map(|_| ())
                .map_err(map_diesel)
        })
        .await
    }

    async fn latest_bulk(&self, project: ProjectId) -> Result<Option<BulkJob>, RepoError> {
        let found: Option<(JobRow, Vec<RefundStateRow>)> = with_conn(&self.pool, move |conn| {
            let job: Option<JobRow> = sql_query(
                "SELECT id, status, payload::text AS payload, progress_total, progress_done, created_at, finished_at \
                 FROM background_jobs WHERE kind = $1 AND payload->>'project_id' = $2::text ORDER BY id DESC LIMIT 1",
            )
            .bind::<Text, _>(BULK_REFUND)
            .bind::<BigInt, _>(project.0)
            .get_result(conn)
            .optional()
            .map_err(map_diesel)?;
            let Some(job) = job else { return Ok(None) };
            let refunds: Vec<RefundStateRow> = sql_query(
                "SELECT id, sales_id, amount, status, provider_refund_id, failure_reason FROM refunds WHERE job_id = $1",
            )
            .bind::<BigInt, _>(job.id)
            .load(conn)
            .map_err(map_diesel)?;
            Ok(Some((job, refunds)))
        })
        .await?;
        let Some((job, refunds)) = found else { return Ok(None) };
        let payload: BulkPayload = serde_json::from_str(&job.payload).map_err(|e| RepoError::Unexpected(e.into()))?;
        let done = u32::try_from(job.progress_done).unwrap_or(0);
        let finished = matches!(job.status.as_str(), "succeeded" | "failed" | "canceled");
        let rows = payload
            .items
            .iter()
            .enumerate()
            .map(|(index, item)| match refunds.iter().find(|r| r.sales_id == item.sale) {
                Some(r) => BulkRow {
                    sale: SaleId(item.sale),
                    amount: Yen(r.amount),
                    status: r.status.clone(),
                    reason: r.failure_reason.clone(),
                },
                None => BulkRow {
                    sale: SaleId(item.sale),
                    amount: Yen(item.amount),
                    // Reached (or the job ended) without an attempt: it was no longer refundable.
                    status: if finished || (index as u64) < u64::from(done) { "skipped" } else { "waiting" }.into(),
                    reason: None,
                },
            })
            .collect();
        Ok(Some(BulkJob {
            id: job.id,
            status: job.status,
            mode: payload.mode,
            total: job.progress_total.and_then(|t| u32::try_from(t).ok()).unwrap_or(0),
            done,
            created_at: job.created_at,
            finished_at: job.finished_at,
            rows,
        }))
    }
}
