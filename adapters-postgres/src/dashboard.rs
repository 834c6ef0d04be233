//! The administrators' dashboard, read in one connection: the running totals
//! the public pages read, the money the reconcile report counts, the
//! transfers still awaited and the mails the queue gave up on.

use std::sync::LazyLock;

use async_trait::async_trait;
use chrono::{DateTime, NaiveDate, Utc};
use diesel::prelude::*;
use diesel::sql_query;
use diesel::sql_types::{BigInt, Date, Integer, Nullable, Text, Timestamptz};
use domain::ids::{ProjectId, SaleId};
use domain::money::Yen;
use domain::payment::SaleStatus;
use ports::admin::dashboard::{
    DailyFunding, DashboardRecords, DashboardRepository, FailedMail, FailedMailSource, PendingTransfer,
    ProjectFiguresRecord,
};
use ports::catalog::PaidSum;
use ports::mailer::SEND_MAIL;
use ports::RepoError;

use crate::error::{map_diesel, with_conn};
use crate::sql_rules::{counted_amount, counts_toward_totals, sale_status_to_db, stored_id, transfer_awaited};
use crate::PgPool;

#[derive(Clone)]
pub struct PgDashboard {
    pool: PgPool,
}

impl PgDashboard {
    pub fn new(pool: PgPool) -> Self {
        Self { pool }
    }
}

/// `raised` and `backers` are `project_totals` itself (what `/v1/sales/get/sum` reads); `paid` is every
/// succeeded sale's total, which is what the reconcile report sums as ours.
static PROJECTS: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT p.id, p.slug, p.title, p.target_amount, p.period_end, \
                coalesce(t.paid_amount, 0)::bigint AS raised, coalesce(t.supports, 0)::bigint AS backers, \
                coalesce(s.paid, 0)::bigint AS paid, coalesce(s.paid_sales, 0)::bigint AS paid_sales, \
                coalesce(s.awaiting, 0)::bigint AS awaiting, coalesce(s.awaiting_sales, 0)::bigint AS awaiting_sales, \
                coalesce(r.refunded, 0)::bigint AS refunded, coalesce(r.refunded_sales, 0)::bigint AS refunded_sales \
           FROM projects p \
           LEFT JOIN project_totals t ON t.project_id = p.id \
           LEFT JOIN (SELECT project_id, \
                             sum(total) FILTER (WHERE status = '{succeeded}') AS paid, \
                             count(*) FILTER (WHERE status = '{succeeded}') AS paid_sales, \
                             sum(total) FILTER (WHERE {awaited} AND {waiting}) AS awaiting, \
                             count(*) FILTER (WHERE {awaited} AND {waiting}) AS awaiting_sales \
                        FROM sales GROUP BY project_id) s ON s.project_id = p.id \
           LEFT JOIN (SELECT sa.project_id, sum(f.amount) AS refunded, count(DISTINCT f.sales_id) AS refunded_sales \
                        FROM refunds f JOIN sales sa ON sa.id = f.sales_id \
                       WHERE f.status = 'succeeded' GROUP BY sa.project_id) r ON r.project_id = p.id \
          ORDER BY p.id",
        succeeded = sale_status_to_db(SaleStatus::Succeeded),
        awaited = transfer_awaited("status"),
        waiting = crate::sql_rules::waits_for_money("payment_type"),
    )
});

/// The sales the running totals count, by the Tokyo day the provider reported them paid: the days of a
/// project add up to its `project_totals.paid_amount`.
static DAILY: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT project_id, (paid_at AT TIME ZONE 'Asia/Tokyo')::date AS day, sum({})::bigint AS amount \
           FROM sales WHERE {} \
          GROUP BY project_id, day",
        counted_amount("sales"),
        counts_toward_totals("sales")
    )
});

static PENDING: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT s.id, s.project_id, p.title AS project_title, u.email, s.total, s.amount_remaining, s.created_at, \
                s.transfer_deadline \
           FROM sales s JOIN projects p ON p.id = s.project_id JOIN users u ON u.id = s.user_id \
          WHERE {} AND {} \
          ORDER BY s.transfer_deadline NULLS LAST, s.id LIMIT $1",
        transfer_awaited("s.status"),
        crate::sql_rules::waits_for_money("s.payment_type")
    )
});

/// Only the address and subject: a queued mail's body may hold a one-time key. Mass-mail recipients the
/// sending job gave up on are failed mails too (`mail_id` set, `id` the recipient row).
const FAILED_MAILS: &str = "SELECT id, mail_id, recipient, subject, attempts, failed_at FROM ( \
       SELECT id, NULL::bigint AS mail_id, coalesce(payload->>'to', '') AS recipient, \
              coalesce(payload->>'subject', '') AS subject, attempts, coalesce(finished_at, updated_at) AS failed_at \
         FROM background_jobs WHERE kind = $1 AND status = 'failed' \
       UNION ALL \
       SELECT r.id, m.id, r.email, m.title, r.attempts, coalesce(m.finished_at, m.created_at) \
         FROM mail_recipients r JOIN sent_mails m ON m.id = r.mail_id WHERE r.given_up \
     ) failed ORDER BY failed_at DESC, mail_id NULLS FIRST, id DESC LIMIT $2";

#[derive(QueryableByName)]
struct ProjectRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = Text)]
    slug: String,
    #[diesel(sql_type = Text)]
    title: String,
    #[diesel(sql_type = BigInt)]
    target_amount: i64,
    #[diesel(sql_type = Date)]
    period_end: NaiveDate,
    #[diesel(sql_type = BigInt)]
    raised: i64,
    #[diesel(sql_type = BigInt)]
    backers: i64,
    #[diesel(sql_type = BigInt)]
    paid: i64,
    #[diesel(sql_type = BigInt)]
    paid_sales: i64,
    #[diesel(sql_type = BigInt)]
    awaiting: i64,
    #[diesel(sql_type = BigInt)]
    awaiting_sales: i64,
    #[diesel(sql_type = BigInt)]
    refunded: i64,
    #[diesel(sql_type = BigInt)]
    refunded_sales: i64,
}

#[derive(QueryableByName)]
struct DailyRow {
    #[diesel(sql_type = BigInt)]
    project_id: i64,
    #[diesel(sql_type = Date)]
    day: NaiveDate,
    #[diesel(sql_type = BigInt)]
    amount: i64,
}

#[derive(QueryableByName)]
struct PendingRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = BigInt)]
    project_id: i64,
    #[diesel(sql_type = Text)]
    project_title: String,
    #[diesel(sql_type = Text)]
    email: String,
    #[diesel(sql_type = BigInt)]
    total: i64,
    #[diesel(sql_type = Nullable<BigInt>)]
    amount_remaining: Option<i64>,
    #[diesel(sql_type = Timestamptz)]
    created_at: DateTime<Utc>,
    #[diesel(sql_type = Nullable<Date>)]
    transfer_deadline: Option<NaiveDate>,
}

#[derive(QueryableByName)]
struct FailedRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = Nullable<BigInt>)]
    mail_id: Option<i64>,
    #[diesel(sql_type = Text)]
    recipient: String,
    #[diesel(sql_type = Text)]
    subject: String,
    #[diesel(sql_type = Integer)]
    attempts: i32,
    #[diesel(sql_type = Timestamptz)]
    failed_at: DateTime<Utc>,
}

#[async_trait]
impl DashboardRepository for PgDashboard {
    async fn read(&self, limit: u32) -> Result<DashboardRecords, RepoError> {
        let limit = i64::from(limit);
        let (projects, daily, pending, failed) = with_conn(&self.pool, move |conn| {
            // One snapshot, so the figures of one answer agree with each other.
            conn.build_transaction()
                .read_only()
                .repeatable_read()
                .run(|conn| {
                    let projects: Vec<ProjectRow> = sql_query(PROJECTS.as_str()).load(conn)?;
                    let daily: Vec<DailyRow> = sql_query(DAILY.as_str()).load(conn)?;
                    let pending: Vec<PendingRow> = sql_query(PENDING.as_str()).bind::<BigInt, _>(limit).load(conn)?;
                    let failed: Vec<FailedRow> =
                        sql_query(FAILED_MAILS).bind::<Text, _>(SEND_MAIL).bind::<BigInt, _>(limit).load(conn)?;
                    Ok::<_, diesel::result::Error>((projects, daily, pending, failed))
                })
                .map_err(map_diesel)
        })
        .await?;
        Ok(DashboardRecords {
            projects: projects
                .into_iter()
                .map(|row| {
                    Ok(ProjectFiguresRecord {
                        id: stored_id::<ProjectId>("projects.id", row.id)?,
                        slug: row.slug,
                        title: row.title,
                        goal: Yen(row.target_amount),
                        period_end: row.period_end,
                        raised: PaidSum { amount: Yen(row.raised), supports: row.backers },
                        paid: Yen(row.paid),
                        paid_sales: row.paid_sales,
                        awaiting_transfer: Yen(row.awaiting),
                        awaiting_sales: row.awaiting_sales,
                        refunded: Yen(row.refunded),
                        refunded_sales: row.refunded_sales,
                    })
                })
                .collect::<Result<_, RepoError>>()?,
            daily: daily
                .into_iter()
                .map(|row| {
                    Ok(DailyFunding {
                        project: stored_id::<ProjectId>("sales.project_id", row.project_id)?,
                        day: row.day,
                        amount: Yen(row.amount),
                    })
                })
                .collect::<Result<_, RepoError>>()?,
            pending_transfers: pending
                .into_iter()
                .map(|row| {
                    Ok(PendingTransfer {
                        sale: stored_id::<SaleId>("sales.id", row.id)?,
                        project: stored_id::<ProjectId>("sales.project_id", row.project_id)?,
                        project_title: row.project_title,
                        supporter_email: row.email,
                        total: Yen(row.total),
                        remaining: row.amount_remaining.map(Yen),
                        ordered_at: row.created_at,
                        deadline: row.transfer_deadline,
                    })
                })
                .collect::<Result<_, RepoError>>()?,
            failed_mails: failed
                .into_iter()
                .map(|row| FailedMail {
                    source: match row.mail_id {
                        Some(mail_id) => FailedMailSource::MassMail { mail_id, recipient_id: row.id },
                        None => FailedMailSource::Queued { job_id: row.id },
                    },
                    to: row.recipient,
                    subject: row.subject,
                    attempts: row.attempts,
                    failed_at: row.failed_at,
                })
                .collect(),
        })
    }
}
