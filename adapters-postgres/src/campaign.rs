//! The end of a campaign over PostgreSQL: the closing sweep's reads and its
//! once-only decision (`ports::campaign::closing::ClosingStore`), and the
//! payout statements (`ports::campaign::payouts::PayoutStore`). Every total
//! is the one basis of `sql_rules::counted_amount`.

use std::collections::HashMap;
use std::sync::LazyLock;

use async_trait::async_trait;
use chrono::{DateTime, NaiveDate, Utc};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Date, Integer, Nullable, SmallInt, Text, Timestamptz};
use diesel::{sql_query, QueryableByName};
use domain::account::Email;
use domain::closing::CloseOutcome;
use domain::ids::{ProjectId, UserId};
use domain::money::Yen;
use domain::payment::{PayType, SaleStatus};
use domain::payout::PayoutStatement;
use domain::project::FundingModel;
use ports::campaign::closing::{CloseFacts, ClosingStore, FollowUp, Recipient};
use ports::campaign::payouts::{MarkPaid, PaidStatement, PayoutFacts, PayoutStore, StatementView};
use ports::clock::{Clock, SystemClock};
use ports::RepoError;

use crate::error::{expect_row, map_diesel, with_conn};
use crate::sql_rules::{awaiting_payment, corrupt, counted_amount, fee_schedule_from_db, sale_status_to_db, stored_id};
use crate::PgPool;

/// The closing sweep's and the payouts' storage.
#[derive(Clone)]
pub struct PgCampaigns<C = SystemClock> {
    pool: PgPool,
    clock: C,
}

impl PgCampaigns {
    pub fn new(pool: PgPool) -> Self {
        Self { pool, clock: SystemClock }
    }
}

impl<C: Clock> PgCampaigns<C> {
    pub fn with_clock(pool: PgPool, clock: C) -> Self {
        Self { pool, clock }
    }
}

#[derive(QueryableByName)]
struct FactsRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = Text)]
    title: String,
    #[diesel(sql_type = Text)]
    slug: String,
    #[diesel(sql_type = Text)]
    funding_model: String,
    #[diesel(sql_type = BigInt)]
    target_amount: i64,
    #[diesel(sql_type = BigInt)]
    counted: i64,
    #[diesel(sql_type = BigInt)]
    pending: i64,
    #[diesel(sql_type = Nullable<Text>)]
    owner_email: Option<String>,
}

impl FactsRow {
    fn into_facts(self) -> Result<CloseFacts, RepoError> {
        Ok(CloseFacts {
            project: stored_id("projects.id", self.id)?,
            title: self.title,
            slug: self.slug,
            model: FundingModel::parse(&self.funding_model)
                .ok_or_else(|| corrupt("projects.funding_model", &self.funding_model))?,
            goal: Yen(self.target_amount),
            counted: Yen(self.counted),
            pending: Yen(self.pending),
            owner_email: self.owner_email,
        })
    }
}

/// A project's close facts as of `$1` (today, Tokyo): what counts, and the
/// unpaid supports that may still be paid: a transfer within its deadline,
/// money being settled, or a card payment started within the hour (3-D
/// Secure in progress; an older one was abandoned and the reconciler ends it).
static FACTS_COLUMNS: LazyLock<String> = LazyLock::new(|| {
    format!(
        "p.id, p.title, p.slug, p.funding_model, p.target_amount, p.owner_email, \
           coalesce((SELECT sum({counted}) FROM sales s WHERE s.project_id = p.id), 0)::bigint AS counted, \
           coalesce((SELECT sum(s.total) FROM sales s WHERE s.project_id = p.id AND {awaiting} \
               AND (s.status = '{processing}' OR (s.payment_type = {bank} AND s.transfer_deadline >= $1) \
                    OR s.payment_type = {konbini} \
                    OR (s.payment_type = {card} AND s.created_at > now() - interval '1 hour'))), 0)::bigint \
             AS pending",
        counted = counted_amount("s"),
        awaiting = awaiting_payment("s.status"),
        bank = PayType::BankTransfer.code(),
        // A voucher's deadline is never after the project's last day (`payment::method_unavailable`): one still
        // awaited after the end waits only until the deadline sweep reads and cancels it.
        konbini = PayType::Konbini.code(),
        card = PayType::Card.code(),
        processing = sale_status_to_db(SaleStatus::Processing),
    )
});

static DUE: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT {} FROM projects p JOIN project_publications pp ON pp.project_id = p.id \
           LEFT JOIN project_closings c ON c.project_id = p.id \
         WHERE pp.published_at IS NOT NULL AND pp.published_at <= $2 AND p.period_end < $1 AND c.decided_at IS NULL \
         ORDER BY p.period_end, p.id LIMIT $3",
        FACTS_COLUMNS.as_str()
    )
});

#[derive(QueryableByName)]
struct FollowUpRow {
    #[diesel(embed)]
    facts: FactsRow,
    #[diesel(sql_type = Text)]
    outcome: String,
    #[diesel(sql_type = diesel::sql_types::Bool)]
    mailed: bool,
    #[diesel(sql_type = diesel::sql_types::Bool)]
    owner_mailed: bool,
    #[diesel(sql_type = diesel::sql_types::Bool)]
    needs_refund: bool,
}

/// A failed project needs a (new) bulk refund while a sale is refundable
/// (flag 1, something kept) and either none was started or the sale was
/// paid after the last one was queued (late money); no bulk may be running.
static FOLLOW_UPS: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT * FROM (\
           SELECT {select}, c.outcome, c.mailed_at IS NOT NULL AS mailed, \
             c.owner_mailed_at IS NOT NULL AS owner_mailed, \
             (c.outcome = 'failed' AND EXISTS (\
                SELECT 1 FROM sales s WHERE s.project_id = p.id AND {counts} AND s.flag = 1 \
                  AND (c.refund_job_id IS NULL OR s.paid_at > (SELECT j.created_at FROM background_jobs j \
                                                               WHERE j.id = c.refund_job_id))) \
              AND NOT EXISTS (SELECT 1 FROM background_jobs j WHERE j.kind = 'bulk_refund' \
                  AND j.status IN ('queued', 'running') AND j.payload->>'project_id' = p.id::text)) AS needs_refund \
           FROM projects p JOIN project_closings c ON c.project_id = p.id \
           WHERE c.decided_at IS NOT NULL\
         ) f WHERE NOT f.mailed OR f.needs_refund OR (NOT f.owner_mailed AND f.owner_email IS NOT NULL) \
         ORDER BY f.id LIMIT $2",
        select = FACTS_COLUMNS.as_str(),
        counts = crate::sql_rules::counts_toward_totals("s"),
    )
});

#[derive(QueryableByName)]
struct RecipientRow {
    #[diesel(sql_type = Text)]
    email: String,
    #[diesel(sql_type = Text)]
    name: String,
    #[diesel(sql_type = SmallInt)]
    pay_type: i16,
}

#[derive(QueryableByName)]
struct IdOnly {
    #[diesel(sql_type = BigInt)]
    #[allow(dead_code)]
    id: i64,
}

fn outcome(raw: &str) -> Result<CloseOutcome, RepoError> {
    CloseOutcome::parse(raw).ok_or_else(|| corrupt("project_closings.outcome", raw))
}

#[async_trait]
impl<C: Clock + 'static> ClosingStore for PgCampaigns<C> {
    async fn due(&self, today: NaiveDate, limit: i64) -> Result<Vec<CloseFacts>, RepoError> {
        let now = self.clock.now();
        with_conn(&self.pool, move |conn| {
            let rows: Vec<FactsRow> = sql_query(DUE.as_str())
                .bind::<Date, _>(today)
                .bind::<Timestamptz, _>(now)
                .bind::<BigInt, _>(limit)
                .load(conn)
                .map_err(map_diesel)?;
            rows.into_iter().map(FactsRow::into_facts).collect()
        })
        .await
    }

    async fn record_waiting(&self, facts: &CloseFacts, now: DateTime<Utc>) -> Result<(), RepoError> {
        let facts = facts.clone();
        with_conn(&self.pool, move |conn| {
            sql_query(
                "INSERT INTO project_closings (project_id, outcome, goal, counted, pending, checked_at) \
                 VALUES ($1, 'awaiting_funds', $2, $3, $4, $5) \
                 ON CONFLICT (project_id) DO UPDATE SET counted = EXCLUDED.counted, pending = EXCLUDED.pending, \
                   goal = EXCLUDED.goal, checked_at = EXCLUDED.checked_at \
                 WHERE project_closings.decided_at IS NULL",
            )
            .bind::<BigInt, _>(facts.project.get())
            .bind::<BigInt, _>(facts.goal.0)
            .bind::<BigInt, _>(facts.counted.0.max(0))
            .bind::<BigInt, _>(facts.pending.0.max(0))
            .bind::<Timestamptz, _>(now)
            .execute(conn)
            .map_err(map_diesel)?;
            Ok(())
        })
        .await
    }

    async fn decide(&self, facts: &CloseFacts, outcome: CloseOutcome, now: DateTime<Utc>) -> Result<bool, RepoError> {
        let facts = facts.clone();
        with_conn(&self.pool, move |conn| {
            // Whoever inserts or turns the waiting row into a result decided; everyone else finds it decided.
            let decided = sql_query(
                "INSERT INTO project_closings (project_id, outcome, goal, counted, pending, checked_at, decided_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $6) \
                 ON CONFLICT (project_id) DO UPDATE SET outcome = EXCLUDED.outcome, goal = EXCLUDED.goal, \
                   counted = EXCLUDED.counted, pending = EXCLUDED.pending, checked_at = EXCLUDED.checked_at, \
                   decided_at = EXCLUDED.decided_at \
                 WHERE project_closings.decided_at IS NULL",
            )
            .bind::<BigInt, _>(facts.project.get())
            .bind::<Text, _>(outcome.code())
            .bind::<BigInt, _>(facts.goal.0)
            .bind::<BigInt, _>(facts.counted.0.max(0))
            .bind::<BigInt, _>(facts.pending.0.max(0))
            .bind::<Timestamptz, _>(now)
            .execute(conn)
            .map_err(map_diesel)?;
            Ok(decided == 1)
        })
        .await
    }

    async fn follow_ups(&self, limit: i64) -> Result<Vec<FollowUp>, RepoError> {
        let today = domain::time::tokyo_date(self.clock.now());
        with_conn(&self.pool, move |conn| {
            let rows: Vec<FollowUpRow> = sql_query(FOLLOW_UPS.as_str())
                .bind::<Date, _>(today)
                .bind::<BigInt, _>(limit)
                .load(conn)
                .map_err(map_diesel)?;
            rows.into_iter()
                .map(|row| {
                    Ok(FollowUp {
                        outcome: outcome(&row.outcome)?,
                        mailed: row.mailed,
                        owner_mailed: row.owner_mailed,
                        needs_refund: row.needs_refund,
                        facts: row.facts.into_facts()?,
                    })
                })
                .collect()
        })
        .await
    }

    async fn recipients(&self, project: ProjectId) -> Result<Vec<Recipient>, RepoError> {
        with_conn(&self.pool, move |conn| {
            let rows: Vec<RecipientRow> = sql_query(format!(
                "SELECT u.email, coalesce(max(d.displayname), '') AS name, max(s.payment_type) AS pay_type \
                 FROM sales s JOIN users u ON u.id = s.user_id LEFT JOIN display_names d ON d.sales_id = s.id \
                 WHERE s.project_id = $1 AND s.status = '{}' \
                 GROUP BY u.email ORDER BY u.email",
                sale_status_to_db(SaleStatus::Succeeded)
            ))
            .bind::<BigInt, _>(project.get())
            .load(conn)
            .map_err(map_diesel)?;
            rows.into_iter()
                .filter_map(|row| Email::parse(&row.email).ok().map(|email| (email, row)))
                .map(|(email, row)| {
                    let paid_by =
                        PayType::from_code(i32::from(row.pay_type)).map_err(|e| corrupt("sales.payment_type", e))?;
                    Ok(Recipient { email, name: row.name, paid_by })
                })
                .collect()
        })
        .await
    }

    async fn mark_mailed(&self, project: ProjectId, now: DateTime<Utc>) -> Result<(), RepoError> {
        with_conn(&self.pool, move |conn| {
            let updated = sql_query(
                "UPDATE project_closings SET mailed_at = coalesce(mailed_at, $2) \
                 WHERE project_id = $1 AND decided_at IS NOT NULL",
            )
            .bind::<BigInt, _>(project.get())
            .bind::<Timestamptz, _>(now)
            .execute(conn)
            .map_err(map_diesel)?;
            expect_row(updated)
        })
        .await
    }

    async fn queue_owner_mail(
        &self,
        project: ProjectId,
        payload: serde_json::Value,
        now: DateTime<Utc>,
    ) -> Result<bool, RepoError> {
        with_conn(&self.pool, move |conn| {
            conn.transaction::<Option<bool>, diesel::result::Error, _>(|conn| {
                // The compare-and-set: one run records the owner told, and only that run queues the mail.
                let won = sql_query(
                    "UPDATE project_closings SET owner_mailed_at = $2 \
                     WHERE project_id = $1 AND decided_at IS NOT NULL AND owner_mailed_at IS NULL",
                )
                .bind::<BigInt, _>(project.get())
                .bind::<Timestamptz, _>(now)
                .execute(conn)?;
                if won == 1 {
                    crate::jobs::queue_mail_in(conn, &payload)?;
                    return Ok(Some(true));
                }
                let decided = sql_query(
                    "SELECT project_id AS id FROM project_closings WHERE project_id = $1 AND decided_at IS NOT NULL",
                )
                .bind::<BigInt, _>(project.get())
                .get_result::<IdOnly>(conn)
                .optional()?;
                Ok(decided.map(|_| false))
            })
            .map_err(map_diesel)?
            .ok_or(RepoError::NotFound)
        })
        .await
    }

    async fn mark_refund_started(&self, project: ProjectId, job: i64) -> Result<(), RepoError> {
        with_conn(&self.pool, move |conn| {
            let updated = sql_query("UPDATE project_closings SET refund_job_id = $2 WHERE project_id = $1")
                .bind::<BigInt, _>(project.get())
                .bind::<BigInt, _>(job)
                .execute(conn)
                .map_err(map_diesel)?;
            expect_row(updated)
        })
        .await
    }
}

// -------------------------------------------------------------- payouts ----

#[derive(QueryableByName)]
struct PayoutFactsRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = Text)]
    title: String,
    #[diesel(sql_type = Text)]
    slug: String,
    #[diesel(sql_type = Date)]
    period_end: NaiveDate,
    #[diesel(sql_type = Nullable<Date>)]
    donation_payout_date: Option<NaiveDate>,
    #[diesel(sql_type = BigInt)]
    card: i64,
    #[diesel(sql_type = BigInt)]
    bank: i64,
    #[diesel(sql_type = Nullable<Text>)]
    fee_schedule: Option<String>,
    #[diesel(sql_type = BigInt)]
    application_fees: i64,
}

/// A successful project's payout facts. The application fee a refund gives
/// back is its share of the refund (the provider refunds it in proportion).
static PAYOUT_FACTS: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT p.id, p.title, p.slug, p.period_end, \
           CASE WHEN p.is_donation THEN p.donation_payout_date END AS donation_payout_date, \
           coalesce((SELECT sum({counted}) FROM sales s WHERE s.project_id = p.id AND s.payment_type = {card}), 0)::bigint \
             AS card, \
           coalesce((SELECT sum({counted}) FROM sales s WHERE s.project_id = p.id AND {waiting}), 0)::bigint \
             AS bank, \
           CASE WHEN coalesce(p.connected_account_id, '') <> '' THEN p.fee_schedule END AS fee_schedule, \
           coalesce((SELECT sum(s.application_fee - s.application_fee * s.refunded_amount / s.total) FROM sales s \
                     WHERE s.project_id = p.id AND {counts} AND s.total > 0), 0)::bigint AS application_fees \
         FROM projects p JOIN project_closings c ON c.project_id = p.id AND c.outcome = 'succeeded'",
        counted = counted_amount("s"),
        counts = crate::sql_rules::counts_toward_totals("s"),
        card = PayType::Card.code(),
        // Money paid in cash, by transfer or at a konbini store, is one line of the statement.
        waiting = crate::sql_rules::waits_for_money("s.payment_type"),
    )
});

#[derive(QueryableByName)]
struct PaidRow {
    #[diesel(sql_type = BigInt)]
    project_id: i64,
    #[diesel(sql_type = Integer)]
    seq: i32,
    #[diesel(sql_type = BigInt)]
    confirmed: i64,
    #[diesel(sql_type = BigInt)]
    platform_fee: i64,
    #[diesel(sql_type = BigInt)]
    platform_fee_tax: i64,
    #[diesel(sql_type = BigInt)]
    application_fees: i64,
    #[diesel(sql_type = BigInt)]
    received_directly: i64,
    #[diesel(sql_type = BigInt)]
    transfer_fee: i64,
    #[diesel(sql_type = BigInt)]
    carried_over: i64,
    #[diesel(sql_type = BigInt)]
    payout: i64,
    #[diesel(sql_type = BigInt)]
    owed_by_owner: i64,
    #[diesel(sql_type = Date)]
    payout_date: NaiveDate,
    #[diesel(sql_type = Date)]
    paid_on: NaiveDate,
    #[diesel(sql_type = Text)]
    reference: String,
    #[diesel(sql_type = Timestamptz)]
    created_at: DateTime<Utc>,
}

impl PaidRow {
    fn into_paid(self) -> PaidStatement {
        PaidStatement {
            seq: self.seq,
            figures: PayoutStatement {
                confirmed: Yen(self.confirmed),
                platform_fee: Yen(self.platform_fee),
                platform_fee_tax: Yen(self.platform_fee_tax),
                application_fees: Yen(self.application_fees),
                received_directly: Yen(self.received_directly),
                transfer_fee: Yen(self.transfer_fee),
                carried_over: Yen(self.carried_over),
                payout: Yen(self.payout),
                owed_by_owner: Yen(self.owed_by_owner),
            },
            payout_date: self.payout_date,
            paid_on: self.paid_on,
            reference: self.reference,
            created_at: self.created_at,
        }
    }
}

fn payout_facts(conn: &mut PgConnection, only: Option<ProjectId>) -> Result<Vec<PayoutFacts>, RepoError> {
    // `$1` is the one project asked for, or NULL for every successful one.
    let id = only.map(ProjectId::get);
    let rows: Vec<PayoutFactsRow> =
        sql_query(format!("{} WHERE $1 IS NULL OR p.id = $1 ORDER BY p.period_end, p.id", PAYOUT_FACTS.as_str()))
            .bind::<Nullable<BigInt>, _>(id)
            .load(conn)
            .map_err(map_diesel)?;
    let paid: Vec<PaidRow> = sql_query(
        "SELECT project_id, seq, confirmed, platform_fee, platform_fee_tax, application_fees, received_directly, \
           transfer_fee, carried_over, payout, owed_by_owner, payout_date, paid_on, reference, created_at \
         FROM payout_statements WHERE $1 IS NULL OR project_id = $1 ORDER BY project_id, seq",
    )
    .bind::<Nullable<BigInt>, _>(id)
    .load(conn)
    .map_err(map_diesel)?;
    let mut paid_by_project: HashMap<i64, Vec<PaidStatement>> = HashMap::new();
    for row in paid {
        paid_by_project.entry(row.project_id).or_default().push(row.into_paid());
    }
    rows.into_iter()
        .map(|row| {
            Ok(PayoutFacts {
                project: stored_id("projects.id", row.id)?,
                title: row.title,
                slug: row.slug,
                period_end: row.period_end,
                donation_payout_date: row.donation_payout_date,
                card: Yen(row.card),
                bank: Yen(row.bank),
                connected: row.fee_schedule.as_deref().map(fee_schedule_from_db).transpose()?,
                application_fees_taken: Yen(row.application_fees),
                paid: paid_by_project.remove(&row.id).unwrap_or_default(),
            })
        })
        .collect()
}

#[async_trait]
impl<C: Clock + 'static> PayoutStore for PgCampaigns<C> {
    async fn successful(&self) -> Result<Vec<PayoutFacts>, RepoError> {
        with_conn(&self.pool, move |conn| payout_facts(conn, None)).await
    }

    async fn facts(&self, project: ProjectId) -> Result<Option<PayoutFacts>, RepoError> {
        with_conn(&self.pool, move |conn| Ok(payout_facts(conn, Some(project))?.into_iter().next())).await
    }

    async fn record_paid(
        &self,
        project: ProjectId,
        seq: i32,
        view: &StatementView,
        mark: &MarkPaid,
        admin: UserId,
    ) -> Result<(), RepoError> {
        let (view, mark) = (view.clone(), mark.clone());
        with_conn(&self.pool, move |conn| {
            let f = view.figures;
            sql_query(
                "INSERT INTO payout_statements (project_id, seq, card, bank, confirmed, platform_fee, platform_fee_tax, \
                   application_fees, received_directly, transfer_fee, carried_over, payout, owed_by_owner, payout_date, \
                   paid_on, reference, paid_by) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)",
            )
            .bind::<BigInt, _>(project.get())
            .bind::<Integer, _>(seq)
            .bind::<BigInt, _>(view.card.0)
            .bind::<BigInt, _>(view.bank.0)
            .bind::<BigInt, _>(f.confirmed.0)
            .bind::<BigInt, _>(f.platform_fee.0)
            .bind::<BigInt, _>(f.platform_fee_tax.0)
            .bind::<BigInt, _>(f.application_fees.0)
            .bind::<BigInt, _>(f.received_directly.0)
            .bind::<BigInt, _>(f.transfer_fee.0)
            .bind::<BigInt, _>(f.carried_over.0)
            .bind::<BigInt, _>(f.payout.0)
            .bind::<BigInt, _>(f.owed_by_owner.0)
            .bind::<Date, _>(view.payout_date)
            .bind::<Date, _>(mark.paid_on)
            .bind::<Text, _>(mark.reference)
            .bind::<BigInt, _>(admin.get())
            .execute(conn)
            .map_err(map_diesel)?;
            Ok(())
        })
        .await
    }
}
