//! Refunds by administrators (spec 001 §2, §4, §5; issue #11): a project's
//! sales as the refund table shows them, a single refund, and bulk refunds
//! run as a durable job.
//!
//! The money rules, in the order they happen:
//! 1. the audit log gets the request before anything moves;
//! 2. a `pending` refund row reserves the amount under the sale's row lock
//!    (`RefundLedger::begin_refund`): at most one open refund per sale, never
//!    above what the supporter paid; from then on the reserved amount no
//!    longer counts toward totals and walls (`domain::payment::counted_amount`);
//! 3. the provider is asked with the key `sale-{id}-refund-{refund id}`, so a
//!    retry of the same attempt (a crash, a timeout) refunds once, and a new
//!    attempt after a refusal is a new row and a new key;
//! 4. only the provider's answer (or the refund read back from it by the
//!    sweep) turns flag 1 into 11 (`RefundLedger::finish_refund`); a refusal
//!    frees the reservation (the amount counts again, in the same
//!    transaction) and keeps the reason, so the sale stays refundable.

use chrono::{DateTime, Duration, NaiveDate, Utc};
use domain::closing::{refund_lapsed, refund_reminder_due, refund_reminders_owed, refund_unclaimed_after};
use domain::ids::{ProjectId, SaleId, UserId};
use domain::money::Yen;
use domain::payment::PayType;
use domain::refund::{
    check_single_refund, plan_bulk_refund, refundable_amount, BulkMode, BulkRefundError, RefundFlag, RefundRow,
    RefundRuleError,
};
use domain::time::tokyo_date;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::audit::{AdminActionKind, AuditLog, NewAdminAction};
use crate::accounts::SiteInfo;
use crate::clock::Clock;
use crate::jobs::JobQueue;
use crate::mailer::{queued_payload, Mailer, OutgoingMail};
use crate::payments::gateway::{
    GatewayError, IdempotencyKey, KeyNamespace, KeyPurpose, PaymentGateway, PaymentId, Refund, RefundId, RefundRequest,
    RefundStatus,
};
use crate::RepoError;

/// The job kind of a bulk refund.
pub const BULK_REFUND: &str = "bulk_refund";
/// How long a worker may hold a bulk refund before another process takes it
/// over (it then skips every sale this job already tried), unless configured
/// ([`RefundConfig::bulk_lease`]).
pub const BULK_LEASE_SECONDS: i64 = 600;
/// Tries of a bulk job (a crash or a database outage in the middle).
pub const BULK_MAX_ATTEMPTS: u32 = 5;
/// An open refund untouched this long is asked about again by the sweep.
pub const OPEN_REFUND_RECHECK_SECONDS: i64 = 30;

pub const MSG_REFUND_DONE: &str = "返金が完了しました。";
pub const MSG_REFUND_FAILED: &str = "返金に失敗しました";
pub use domain::refund::MSG_BULK_DONE;
/// The refund waits for the supporter's bank account (bank transfers).
pub const MSG_NEEDS_BANK_DETAILS: &str =
    "返金を受け付けました。支援者へ返金先口座の入力をお願いするメールが送られ、入力され次第返金されます。";
/// The provider did not answer; the sweep asks again with the same key.
pub const MSG_REFUND_PENDING: &str =
    "返金を受け付けました。決済事業者の応答を待っています。結果はこの画面に反映されます。";
pub const MSG_BULK_RUNNING: &str = "このプロジェクトの一括返金を実行中です。完了してからやり直してください。";

/// A project as the refund index lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefundProject {
    pub id: ProjectId,
    pub slug: String,
    pub title: String,
    /// Sales that may be refunded now (flag 1, late transfers included).
    pub refundable: u32,
    /// Sales refunded (flag 11).
    pub refunded: u32,
    /// Late bank transfers waiting for a refund.
    pub refund_required: u32,
}

/// A refund not finished yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OpenRefundStatus {
    /// Written; the provider's answer has not been applied.
    Pending,
    /// The provider waits for the supporter's bank account.
    RequiresAction,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenRefund {
    pub id: i64,
    pub amount: Yen,
    pub status: OpenRefundStatus,
    pub provider: Option<RefundId>,
}

/// One sale as the refund table and the refund rules need it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefundSale {
    pub id: SaleId,
    pub project_id: ProjectId,
    pub created_at: DateTime<Utc>,
    pub username: Option<String>,
    pub displayname: Option<String>,
    pub corporatename: Option<String>,
    /// Where the refund mail goes.
    pub email: String,
    /// The sale's own display name (the mail's salutation).
    pub sale_display_name: String,
    pub project_title: String,
    pub return_title: String,
    pub course: Option<String>,
    pub lot: i32,
    /// price x lot.
    pub amount: Yen,
    /// What the supporter paid (tax included): the refund ceiling.
    pub total: Yen,
    pub pay_type: PayType,
    /// The refund flag as the rules read it: a late transfer flagged
    /// `refund_required` counts as refundable (1) until refunded.
    pub flag: RefundFlag,
    pub refund_required: bool,
    /// Yen of succeeded refunds.
    pub refunded: Yen,
    /// Yen of refunds that lapsed unanswered (`unclaimed`): kept by the company, never refundable again.
    pub unclaimed: Yen,
    pub open_refund: Option<OpenRefund>,
    /// Why the provider refused the last attempt, while the sale is still refundable.
    pub last_failure: Option<String>,
    pub payment: Option<PaymentId>,
    /// Paid to a connected account: the fee and the transfer are returned in proportion.
    pub connected: bool,
}

impl RefundSale {
    /// The first of username, displayname, corporatename that is not blank (spec §2).
    pub fn sponsor_name(&self) -> String {
        [&self.username, &self.displayname, &self.corporatename]
            .into_iter()
            .flatten()
            .map(|s| s.trim())
            .find(|s| !s.is_empty())
            .unwrap_or_default()
            .to_string()
    }

    /// What may still be refunded of this sale (`domain::refund::refundable_amount`): 0 while a refund is
    /// under way or once the sale is not refundable.
    pub fn refundable_amount(&self) -> Yen {
        refundable_amount(self.total, Yen(self.refunded.0.saturating_add(self.unclaimed.0)), self.rule_flag())
    }

    /// The flag the refund rules see: a sale with a refund under way is not
    /// refundable again until that one ends.
    pub fn rule_flag(&self) -> RefundFlag {
        if self.open_refund.is_some() && self.flag == RefundFlag::Refundable {
            RefundFlag::NotRefundable(0)
        } else {
            self.flag
        }
    }
}

/// A refund to reserve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewRefund {
    pub sale: SaleId,
    pub amount: Yen,
    /// The administrator who asked; `None` when the site did (a failed campaign's close).
    pub admin: Option<UserId>,
    pub job: Option<i64>,
}

#[derive(Debug, thiserror::Error)]
pub enum BeginRefundError {
    /// Not flag 1 any more, or another refund of it is open.
    #[error("sale not refundable")]
    NotRefundable,
    /// Above what remains of the sale's total.
    #[error("refund above the sale's total")]
    AboveSponsored,
    /// This bulk job already tried this sale.
    #[error("sale already tried by this job")]
    AlreadyTried,
    #[error(transparent)]
    Repo(#[from] RepoError),
}

/// What the provider said about an attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RefundResult {
    Succeeded {
        provider: RefundId,
    },
    /// Waiting for the supporter's bank account.
    NeedsBankDetails {
        provider: RefundId,
    },
    /// Accepted, not settled yet.
    Accepted {
        provider: RefundId,
    },
    Failed {
        reason: String,
        provider: Option<RefundId>,
    },
}

/// An open refund for the sweep.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenRefundOf {
    pub refund: i64,
    pub sale: SaleId,
    pub amount: Yen,
    pub status: OpenRefundStatus,
    pub provider: Option<RefundId>,
}

/// A bank-transfer refund waiting for the supporter's account
/// (`requires_action`), for the reminders and the lapse after 6 months.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AwaitingAccount {
    pub refund: i64,
    pub sale: SaleId,
    pub amount: Yen,
    pub provider: RefundId,
    /// When the refund was asked for (the provider mailed the supporter then).
    pub asked_at: DateTime<Utc>,
    /// Reminders recorded sent (`refunds.reminders_sent`).
    pub reminders_sent: u32,
    pub email: String,
    /// The sale's display name (the mail's salutation).
    pub name: String,
    pub project_title: String,
}

/// What one pass of reminders and lapses did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ReminderReport {
    pub reminded: u32,
    /// Cancelled at the provider and recorded `unclaimed`.
    pub lapsed: u32,
    /// Answered by the supporter meanwhile: refunded as usual.
    pub answered: u32,
}

/// One row of a bulk job's results.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BulkRow {
    pub sale: SaleId,
    pub amount: Yen,
    /// `succeeded`, `failed`, `pending`, `requires_action`, or `skipped`
    /// (not refundable any more when the job reached it).
    pub status: String,
    pub reason: Option<String>,
}

/// A bulk job as its progress bar shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BulkJob {
    pub id: i64,
    /// `queued`, `running`, `succeeded`, `failed`.
    pub status: String,
    pub mode: i32,
    pub total: u32,
    pub done: u32,
    pub created_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
    pub rows: Vec<BulkRow>,
}

impl BulkJob {
    pub fn count(&self, status: &str) -> usize {
        self.rows.iter().filter(|r| r.status == status).count()
    }
}

/// What a bulk job carries in the queue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BulkPayload {
    pub project_id: i64,
    /// `None`: started by the close of a failed campaign.
    pub admin: Option<i64>,
    pub mode: i32,
    pub items: Vec<BulkItem>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BulkItem {
    pub sale: i64,
    pub amount: i64,
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait RefundLedger: Send + Sync {
    /// Every project, by id, with its refund counts.
    async fn refund_projects(&self) -> Result<Vec<RefundProject>, RepoError>;

    /// A project's sales that were paid or flagged `refund_required`,
    /// newest first. MUST return `NotFound` for an unknown project.
    async fn refund_sales(&self, project: ProjectId) -> Result<Vec<RefundSale>, RepoError>;

    /// One sale. MUST return `NotFound` for an unknown one.
    async fn refund_sale(&self, sale: SaleId) -> Result<RefundSale, RepoError>;

    /// Under the sale's row lock: checks the sale is refundable (flag 1 or
    /// `refund_required`, no open refund), that `amount` fits in what is
    /// left of its total, and (for a job) that the job has not tried it yet;
    /// then writes the `pending` refund, which reserves the amount. Returns
    /// the refund's id. `NotFound` (as `Repo`) for an unknown sale.
    async fn begin_refund(&self, refund: NewRefund, now: DateTime<Utc>) -> Result<i64, BeginRefundError>;

    /// Applies the provider's answer to an open refund, in one transaction:
    /// succeeded -> the refund row, flag 11; failed -> the reservation is
    /// released (totals and walls count it again, by trigger) and the reason kept;
    /// needs bank details / accepted -> the provider id kept. Returns true
    /// only when this call made the refund succeed (so the mail goes once).
    /// A refund already final is left alone (false).
    async fn finish_refund(&self, refund: i64, result: RefundResult, now: DateTime<Utc>) -> Result<bool, RepoError>;

    /// Open refunds not touched since `before`, oldest first, at most `limit`.
    async fn open_refunds(&self, before: DateTime<Utc>, limit: i64) -> Result<Vec<OpenRefundOf>, RepoError>;

    /// Bank-transfer refunds waiting for the supporter's account that have a
    /// provider id, oldest first, at most `limit`.
    async fn awaiting_account(&self, limit: i64) -> Result<Vec<AwaitingAccount>, RepoError>;

    /// Queues a reminder (`payload`: [`crate::mailer::queued_payload`]) and
    /// raises the refund's reminder count from `sent` to `owed`, in one
    /// transaction, only while the refund still waits and its count is still
    /// `sent` (compare-and-set): `true` only for the call that queued it.
    async fn queue_reminder(
        &self,
        refund: i64,
        sent: u32,
        owed: u32,
        payload: serde_json::Value,
    ) -> Result<bool, RepoError>;

    /// Records a refund cancelled at the provider after 6 months unanswered
    /// as `unclaimed` (it stays reserved: the amount passes to the company),
    /// only while it waits (`requires_action`): `true` for the call that did.
    async fn mark_unclaimed(&self, refund: i64, now: DateTime<Utc>) -> Result<bool, RepoError>;

    /// The refund this job made of this sale, if any: (refund id, status).
    async fn job_refund(&self, job: i64, sale: SaleId) -> Result<Option<(i64, String)>, RepoError>;

    /// Writes the bulk job (queued) unless one of the project is queued or
    /// running (`Conflict("bulk_refund_running")`). Returns its id.
    async fn create_bulk(
        &self,
        admin: Option<UserId>,
        project: ProjectId,
        payload: serde_json::Value,
        total: u32,
    ) -> Result<i64, RepoError>;

    /// Items of the job finished so far.
    async fn set_bulk_progress(&self, job: i64, done: u32, now: DateTime<Utc>) -> Result<(), RepoError>;

    /// The project's newest bulk job with a row per planned sale, if any.
    async fn latest_bulk(&self, project: ProjectId) -> Result<Option<BulkJob>, RepoError>;
}

/// The refund table of one project.
#[derive(Debug, Clone, PartialEq)]
pub struct RefundSheet {
    pub sales: Vec<RefundSale>,
    pub bulk: Option<BulkJob>,
}

/// How a single refund ended, as the screen says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RefundOutcome {
    Succeeded,
    NeedsBankDetails,
    /// The provider did not answer: the sweep asks again with the same key.
    Pending,
    Failed {
        reason: String,
    },
}

#[derive(Debug, thiserror::Error)]
pub enum RefundError {
    #[error(transparent)]
    Rule(#[from] RefundRuleError),
    #[error(transparent)]
    Bulk(#[from] BulkRefundError),
    #[error("not found")]
    NotFound,
    #[error("{}", MSG_BULK_RUNNING)]
    BulkRunning,
    #[error(transparent)]
    Repo(RepoError),
}

impl From<RepoError> for RefundError {
    fn from(e: RepoError) -> Self {
        match e {
            RepoError::NotFound => Self::NotFound,
            other => Self::Repo(other),
        }
    }
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait Refunds: Send + Sync {
    async fn projects(&self) -> Result<Vec<RefundProject>, RefundError>;
    /// `NotFound` for an unknown project.
    async fn sheet(&self, project: ProjectId) -> Result<RefundSheet, RefundError>;
    /// One refund of `amount` yen (`None`: nothing typed) of a sale.
    async fn refund_one(&self, admin: UserId, sale: SaleId, amount: Option<Yen>) -> Result<RefundOutcome, RefundError>;
    /// Plans a bulk refund of the project's refundable sales and queues it.
    async fn start_bulk(&self, admin: UserId, project: ProjectId, mode: BulkMode) -> Result<BulkJob, RefundError>;
    /// Queues the full refund of every refundable sale of a failed campaign,
    /// asked for by the site itself (no administrator, no audit entry: the
    /// project's closing records it); the job's id. `Bulk(NothingRefundable)`
    /// when no sale is left to refund, `BulkRunning` while another bulk
    /// refund of the project runs.
    async fn start_close_refund(&self, project: ProjectId) -> Result<i64, RefundError>;
    /// The project's newest bulk job (`None`: never run).
    async fn bulk_status(&self, project: ProjectId) -> Result<Option<BulkJob>, RefundError>;
    /// Runs the oldest due bulk job, if any; true when one was run.
    async fn run_next_bulk(&self, worker: &str) -> Result<bool, RefundError>;
    /// Asks the provider again about open refunds; how many changed. A bank
    /// transfer refund unanswered past its 6 months is left to [`Refunds::remind_and_lapse`].
    async fn sweep_open_refunds(&self) -> Result<usize, RefundError>;
    /// Bank-transfer refunds waiting for the supporter's account: reminds
    /// them on days 7, 30 and 150 (once each), and after 6 months cancels the
    /// refund at the provider and records it `unclaimed` (terms).
    async fn remind_and_lapse(&self) -> Result<ReminderReport, RefundError>;
}

#[derive(Debug, Clone)]
pub struct RefundConfig {
    pub namespace: KeyNamespace,
    pub site: SiteInfo,
    /// How long a crashed worker's bulk refund waits before another process takes it over.
    pub bulk_lease: Duration,
}

pub struct RefundService<L, G, Q, M, C> {
    ledger: L,
    gateway: G,
    queue: Q,
    mailer: M,
    clock: C,
    audit: std::sync::Arc<dyn AuditLog>,
    config: RefundConfig,
}

impl<L, G, Q, M, C> RefundService<L, G, Q, M, C>
where
    L: RefundLedger,
    G: PaymentGateway,
    Q: JobQueue,
    M: Mailer,
    C: Clock,
{
    pub fn new(
        ledger: L,
        gateway: G,
        queue: Q,
        mailer: M,
        clock: C,
        audit: std::sync::Arc<dyn AuditLog>,
        config: RefundConfig,
    ) -> Self {
        Self { ledger, gateway, queue, mailer, clock, audit, config }
    }

    fn request(&self, sale: &RefundSale, amount: Yen) -> Result<RefundRequest, String> {
        let payment = sale.payment.clone().ok_or_else(|| "この購入には決済の記録がありません。".to_string())?;
        // Cash paid by transfer or at a konbini store has no card to go back to.
        let bank = sale.pay_type.waits_for_money();
        Ok(RefundRequest {
            payment,
            amount,
            reverse_transfer: sale.connected,
            refund_application_fee: sale.connected,
            // Money that came by bank transfer goes back to a bank account the supporter names.
            instructions_email: bank.then(|| sale.email.clone()),
        })
    }

    /// Sends one attempt to the provider and applies the answer.
    async fn send(&self, sale: &RefundSale, refund_id: i64, amount: Yen) -> Result<RefundOutcome, RefundError> {
        let key = IdempotencyKey::for_sale(&self.config.namespace, sale.id, KeyPurpose::Refund { refund_id });
        let result = match self.request(sale, amount) {
            Err(reason) => Some(RefundResult::Failed { reason, provider: None }),
            Ok(request) => match self.gateway.refund(request, key).await {
                Ok(refund) => Some(result_of(refund)),
                Err(e) if leaves_it_open(&e) => {
                    tracing::warn!(sale = %sale.id, refund_id, error = %e, "refund left open for the sweep");
                    None
                }
                Err(e) => Some(RefundResult::Failed { reason: reason_of(&e), provider: None }),
            },
        };
        let Some(result) = result else { return Ok(RefundOutcome::Pending) };
        let outcome = outcome_of(&result);
        if self.ledger.finish_refund(refund_id, result, self.clock.now()).await? {
            self.mail_refunded(sale, amount).await;
        }
        Ok(outcome)
    }

    async fn mail_refunded(&self, sale: &RefundSale, amount: Yen) {
        let Ok(to) = domain::account::Email::parse(&sale.email) else {
            tracing::warn!(sale = %sale.id, "refund mail not sent: the address is not valid");
            return;
        };
        let mail = refund_mail(&self.config.site, sale, amount, to);
        if let Err(e) = self.mailer.send(mail).await {
            // The refund stands; the mail is the queue's business and it refused it.
            tracing::warn!(sale = %sale.id, error = %e, "refund mail not queued");
        }
    }

    /// The bulk job's payload for the project's refundable sales, and its total.
    async fn plan_bulk(
        &self,
        admin: Option<UserId>,
        project: ProjectId,
        mode: BulkMode,
    ) -> Result<(BulkPayload, Option<i64>), RefundError> {
        let sales = self.ledger.refund_sales(project).await?;
        let rows: Vec<RefundRow> = sales
            .iter()
            .map(|s| RefundRow { sale_id: s.id, refundable: s.refundable_amount(), flag: s.rule_flag() })
            .collect();
        let plan = plan_bulk_refund(mode, &rows)?;
        let mode_code = match mode {
            BulkMode::None => 0,
            BulkMode::Full => 1,
            BulkMode::Half => 2,
            BulkMode::Specified(_) => 3,
        };
        let payload = BulkPayload {
            project_id: project.0,
            admin: admin.map(|a| a.0),
            mode: mode_code,
            items: plan.iter().map(|p| BulkItem { sale: p.sale_id.0, amount: p.amount.0 }).collect(),
        };
        Ok((payload, domain::refund::plan_total(&plan).map(|y| y.0)))
    }

    /// Queues a planned bulk job; `BulkRunning` while another one of the project runs.
    async fn queue_bulk(
        &self,
        admin: Option<UserId>,
        project: ProjectId,
        payload: &BulkPayload,
    ) -> Result<i64, RefundError> {
        let value = serde_json::to_value(payload).map_err(|e| RefundError::Repo(RepoError::Unexpected(e.into())))?;
        let total = u32::try_from(payload.items.len()).unwrap_or(u32::MAX);
        match self.ledger.create_bulk(admin, project, value, total).await {
            Ok(job) => Ok(job),
            Err(RepoError::Conflict(name)) if name == "bulk_refund_running" => Err(RefundError::BulkRunning),
            Err(e) => Err(e.into()),
        }
    }

    async fn run_job(&self, payload: &BulkPayload, job: i64) -> Result<(), RefundError> {
        for (index, item) in payload.items.iter().enumerate() {
            let sale_id = SaleId(item.sale);
            let amount = Yen(item.amount);
            match self.ledger.job_refund(job, sale_id).await? {
                // A crash between our write and the provider's answer: the same attempt, the same key.
                Some((refund_id, status)) if status == "pending" => {
                    let sale = self.ledger.refund_sale(sale_id).await?;
                    self.send(&sale, refund_id, amount).await?;
                }
                Some(_) => {}
                None => {
                    let begun = self
                        .ledger
                        .begin_refund(
                            NewRefund { sale: sale_id, amount, admin: payload.admin.map(UserId), job: Some(job) },
                            self.clock.now(),
                        )
                        .await;
                    match begun {
                        Ok(refund_id) => {
                            let sale = self.ledger.refund_sale(sale_id).await?;
                            self.send(&sale, refund_id, amount).await?;
                        }
                        // Refunded or taken meanwhile: the row shows "skipped".
                        Err(BeginRefundError::NotRefundable)
                        | Err(BeginRefundError::AboveSponsored)
                        | Err(BeginRefundError::AlreadyTried)
                        | Err(BeginRefundError::Repo(RepoError::NotFound)) => {}
                        Err(BeginRefundError::Repo(e)) => return Err(e.into()),
                    }
                }
            }
            let done = u32::try_from(index + 1).unwrap_or(u32::MAX);
            self.ledger.set_bulk_progress(job, done, self.clock.now()).await?;
        }
        Ok(())
    }
}

fn result_of(refund: Refund) -> RefundResult {
    match refund.status {
        RefundStatus::Succeeded => RefundResult::Succeeded { provider: refund.id },
        RefundStatus::RequiresAction => RefundResult::NeedsBankDetails { provider: refund.id },
        RefundStatus::Pending => RefundResult::Accepted { provider: refund.id },
        RefundStatus::Failed | RefundStatus::Canceled => RefundResult::Failed {
            reason: refund.failure_reason.unwrap_or_else(|| "決済事業者が返金を取り消しました。".into()),
            provider: Some(refund.id),
        },
    }
}

fn outcome_of(result: &RefundResult) -> RefundOutcome {
    match result {
        RefundResult::Succeeded { .. } => RefundOutcome::Succeeded,
        RefundResult::NeedsBankDetails { .. } => RefundOutcome::NeedsBankDetails,
        RefundResult::Accepted { .. } => RefundOutcome::Pending,
        RefundResult::Failed { reason, .. } => RefundOutcome::Failed { reason: reason.clone() },
    }
}

/// An answer that may hide a refund made: keep the attempt open and let the
/// sweep repeat it with the same key.
fn leaves_it_open(e: &GatewayError) -> bool {
    matches!(e, GatewayError::Unavailable(_) | GatewayError::Unexpected(_))
}

/// The provider's reason, for the administrator (stored and shown).
fn reason_of(e: &GatewayError) -> String {
    let text = match e {
        GatewayError::Declined { message, .. } => message.clone(),
        GatewayError::NotFound(m) => format!("決済が見つかりません（{m}）"),
        GatewayError::Rejected(m) | GatewayError::KeyReused(m) => m.clone(),
        other => other.to_string(),
    };
    text.chars().take(500).collect()
}

/// The reminder of a refund waiting for the supporter's bank account.
pub fn reminder_mail(
    site: &SiteInfo,
    waiting: &AwaitingAccount,
    last_day: NaiveDate,
    to: domain::account::Email,
) -> OutgoingMail {
    OutgoingMail {
        to,
        subject: format!("【{}】返金先口座のご入力のお願い（再送のご案内）", site.site_name),
        text_body: format!(
            "{name} 様\n\nご支援の返金{amount}円について、返金先口座のご入力をお待ちしています。\n\
             決済事業者（Stripe）から届いた「返金先口座の入力」のメールを開き、メール内のリンクから口座をご入力ください。\n\
             メールが見当たらない場合は、迷惑メールフォルダもご確認ください。\n\n\
             {last}までにご入力がない場合、利用規約により返金の権利は失われ、返金額は当社に帰属します（返金の依頼から6か月）。\n\n\
             プロジェクト：{project}\n返金額：{amount}円\n\n\
             ――――――――――――――――――――\n{site}\n{url}/\n",
            name = if waiting.name.trim().is_empty() { "支援者" } else { waiting.name.trim() },
            amount = waiting.amount.grouped(),
            last = last_day.format("%Y年%-m月%-d日"),
            project = waiting.project_title,
            site = site.site_name,
            url = site.public_url,
        ),
    }
}

/// The supporter's refund mail.
pub fn refund_mail(site: &SiteInfo, sale: &RefundSale, amount: Yen, to: domain::account::Email) -> OutgoingMail {
    let how = match sale.pay_type {
        PayType::Card => "お支払いに使われたクレジットカードへ返金します。カード会社の処理により、ご利用明細への反映まで日数がかかる場合があります。",
        PayType::BankTransfer => "お振り込みいただいた金額は、決済事業者からのご案内に沿ってご指定の口座へ返金します。",
        PayType::Konbini => "コンビニでお支払いいただいた金額は、決済事業者からのご案内に沿ってご指定の口座へ返金します。",
    };
    OutgoingMail {
        to,
        subject: format!("【{}】ご支援の返金のお知らせ", site.site_name),
        text_body: format!(
            "{name} 様\n\n以下のご支援について、{amount}円を返金しました。\n{how}\n\n\
             プロジェクト：{project}\nリターン：{ret}\n口数：{lot}\nお支払い金額：{total}円（税込）\n返金額：{amount}円\n\n\
             ――――――――――――――――――――\n{site}\n{url}/\n",
            name = sale.sale_display_name,
            amount = amount.grouped(),
            project = sale.project_title,
            ret = sale.return_title,
            lot = sale.lot,
            total = sale.total.grouped(),
            site = site.site_name,
            url = site.public_url,
        ),
    }
}

#[async_trait::async_trait]
impl<L, G, Q, M, C> Refunds for RefundService<L, G, Q, M, C>
where
    L: RefundLedger,
    G: PaymentGateway,
    Q: JobQueue,
    M: Mailer,
    C: Clock,
{
    async fn projects(&self) -> Result<Vec<RefundProject>, RefundError> {
        Ok(self.ledger.refund_projects().await?)
    }

    async fn sheet(&self, project: ProjectId) -> Result<RefundSheet, RefundError> {
        let sales = self.ledger.refund_sales(project).await?;
        let bulk = self.ledger.latest_bulk(project).await?;
        Ok(RefundSheet { sales, bulk })
    }

    async fn refund_one(&self, admin: UserId, sale: SaleId, amount: Option<Yen>) -> Result<RefundOutcome, RefundError> {
        // The cheap check first: no amount needs no sale.
        if !amount.is_some_and(|a| a.is_positive()) {
            return Err(RefundRuleError::AmountRequired.into());
        }
        let record = self.ledger.refund_sale(sale).await?;
        let amount = check_single_refund(amount, record.refundable_amount(), record.rule_flag())?;
        // On record before any money moves (and before the reservation, so a refused one is on record too).
        let mut action = NewAdminAction::new(admin, AdminActionKind::RefundRequested);
        action.sale_id = Some(sale);
        action.project_id = Some(record.project_id);
        action.detail = json!({ "amount": amount.0 });
        self.audit.record(action).await?;
        let refund_id = match self
            .ledger
            .begin_refund(NewRefund { sale, amount, admin: Some(admin), job: None }, self.clock.now())
            .await
        {
            Ok(id) => id,
            Err(BeginRefundError::NotRefundable | BeginRefundError::AlreadyTried) => {
                return Err(RefundRuleError::NotRefundable.into())
            }
            Err(BeginRefundError::AboveSponsored) => return Err(RefundRuleError::AboveSponsored.into()),
            Err(BeginRefundError::Repo(e)) => return Err(e.into()),
        };
        self.send(&record, refund_id, amount).await
    }

    async fn start_bulk(&self, admin: UserId, project: ProjectId, mode: BulkMode) -> Result<BulkJob, RefundError> {
        let (payload, plan_total) = self.plan_bulk(Some(admin), project, mode).await?;
        let mut action = NewAdminAction::new(admin, AdminActionKind::BulkRefundStarted);
        action.project_id = Some(project);
        action.detail = json!({ "mode": payload.mode, "sales": payload.items.len(), "amount": plan_total });
        self.audit.record(action).await?;
        self.queue_bulk(Some(admin), project, &payload).await?;
        self.ledger.latest_bulk(project).await?.ok_or(RefundError::NotFound)
    }

    async fn start_close_refund(&self, project: ProjectId) -> Result<i64, RefundError> {
        let (payload, _) = self.plan_bulk(None, project, BulkMode::Full).await?;
        self.queue_bulk(None, project, &payload).await
    }

    async fn bulk_status(&self, project: ProjectId) -> Result<Option<BulkJob>, RefundError> {
        Ok(self.ledger.latest_bulk(project).await?)
    }

    async fn run_next_bulk(&self, worker: &str) -> Result<bool, RefundError> {
        let now = self.clock.now();
        let Some(job) = self.queue.claim(BULK_REFUND, worker, now, self.config.bulk_lease).await? else {
            return Ok(false);
        };
        let payload: BulkPayload = match serde_json::from_value(job.payload.clone()) {
            Ok(p) => p,
            Err(e) => {
                self.queue.fail(job.ticket(), &format!("unreadable payload: {e}"), None, now).await?;
                return Ok(true);
            }
        };
        match self.run_job(&payload, job.id).await {
            Ok(()) => self.queue.succeed(job.ticket(), job.payload.clone(), self.clock.now()).await?,
            Err(e) => {
                let now = self.clock.now();
                let retry = domain::jobs::may_retry(job.attempts, job.max_attempts)
                    .then(|| now + domain::jobs::retry_delay(job.attempts));
                self.queue.fail(job.ticket(), &e.to_string(), retry, now).await?;
            }
        }
        Ok(true)
    }

    async fn remind_and_lapse(&self) -> Result<ReminderReport, RefundError> {
        let mut report = ReminderReport::default();
        for waiting in self.ledger.awaiting_account(100).await? {
            let now = self.clock.now();
            let (asked, today) = (tokyo_date(waiting.asked_at), tokyo_date(now));
            if refund_lapsed(asked, today) {
                // A cancel that went through before a crash is refused when repeated: then the refund's own
                // state says what happened.
                let answer = match self.gateway.cancel_refund(&waiting.provider).await {
                    Ok(refund) => Ok(refund),
                    Err(refused) => self.gateway.refund_status(&waiting.provider).await.map_err(|_| refused),
                };
                match answer {
                    Ok(refund) if refund.status == RefundStatus::Canceled => {
                        if self.ledger.mark_unclaimed(waiting.refund, now).await? {
                            tracing::info!(refund = waiting.refund, sale = %waiting.sale, "refund lapsed unclaimed");
                            report.lapsed += 1;
                        }
                    }
                    // The supporter answered before the cancel: refunded as today.
                    Ok(refund) => {
                        let result = result_of(refund);
                        if self.ledger.finish_refund(waiting.refund, result, now).await? {
                            let sale = self.ledger.refund_sale(waiting.sale).await?;
                            self.mail_refunded(&sale, waiting.amount).await;
                            report.answered += 1;
                        }
                    }
                    Err(e) => {
                        tracing::warn!(refund = waiting.refund, error = %e, "lapsed refund not cancelled; retried")
                    }
                }
                continue;
            }
            let owed = refund_reminders_owed(asked, today);
            if owed > waiting.reminders_sent && refund_reminder_due(asked, waiting.reminders_sent, today) {
                let Ok(to) = domain::account::Email::parse(&waiting.email) else { continue };
                let mail = reminder_mail(&self.config.site, &waiting, refund_unclaimed_after(asked), to);
                if self
                    .ledger
                    .queue_reminder(waiting.refund, waiting.reminders_sent, owed, queued_payload(&mail))
                    .await?
                {
                    report.reminded += 1;
                }
            }
        }
        Ok(report)
    }

    async fn sweep_open_refunds(&self) -> Result<usize, RefundError> {
        let before = self.clock.now() - Duration::seconds(OPEN_REFUND_RECHECK_SECONDS);
        let open = self.ledger.open_refunds(before, 100).await?;
        let mut changed = 0;
        for refund in open {
            let sale = self.ledger.refund_sale(refund.sale).await?;
            let before_state = refund.status;
            let outcome = match &refund.provider {
                // Answered before: read how it stands now.
                Some(provider) => match self.gateway.refund_status(provider).await {
                    Ok(now) => {
                        let result = result_of(now);
                        let became = self.ledger.finish_refund(refund.refund, result.clone(), self.clock.now()).await?;
                        if became {
                            self.mail_refunded(&sale, refund.amount).await;
                        }
                        outcome_of(&result)
                    }
                    Err(e) => {
                        tracing::warn!(refund = refund.refund, error = %e, "open refund not read");
                        continue;
                    }
                },
                // Never answered: the same request with the same key.
                None => self.send(&sale, refund.refund, refund.amount).await?,
            };
            let still = matches!(
                (&outcome, before_state),
                (RefundOutcome::Pending, OpenRefundStatus::Pending)
                    | (RefundOutcome::NeedsBankDetails, OpenRefundStatus::RequiresAction)
            );
            if !still {
                changed += 1;
            }
        }
        Ok(changed)
    }
}

#[cfg(test)]
#[path = "refunds_tests.rs"]
mod tests;
