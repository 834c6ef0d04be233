//! Payouts to the owners of successful projects. A statement (精算書) is
//! computed from the ledger whenever it is read (`domain::payout`), so it
//! always shows what supporters paid less refunds to the yen; when an
//! operator marks it paid, its figures are frozen as the project's next
//! statement. Figures are cumulative since the end: a later statement's
//! `carried_over` is what earlier ones paid out (bank charges included), so
//! a refund after a payout lowers the next payout or leaves the owner owing.

use chrono::{DateTime, NaiveDate, Utc};
use domain::ids::{ProjectId, UserId};
use domain::money::{FeeSchedule, Yen};
use domain::payout::{project_payout_date, statement, Collection, PayoutStatement, StatementInput, PAYOUT_REFERENCE};
use serde_json::json;

use crate::admin::audit::{AdminActionKind, AuditLog, NewAdminAction};
use crate::clock::Clock;
use crate::RepoError;

pub const MSG_PAYOUT_CHANGED: &str =
    "精算の内容が変わりました（返金や入金があったため）。画面を再読み込みして確認してから登録してください。";
pub const MSG_PAID_ON_FUTURE: &str = "支払日は今日以前の日付を入力してください。";
pub const MSG_NO_STATEMENT: &str = "このプロジェクトの精算書はありません（成立したプロジェクトにだけ作られます）。";

/// A statement marked paid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaidStatement {
    pub seq: i32,
    pub figures: PayoutStatement,
    pub payout_date: NaiveDate,
    pub paid_on: NaiveDate,
    pub reference: String,
    pub created_at: DateTime<Utc>,
}

/// What a successful project's statement is made from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PayoutFacts {
    pub project: ProjectId,
    pub title: String,
    pub slug: String,
    /// The last day of the campaign.
    pub period_end: NaiveDate,
    /// A donation project's own payout date (terms §9); `None` otherwise.
    pub donation_payout_date: Option<NaiveDate>,
    /// Paid less refunds, by method.
    pub card: Yen,
    pub bank: Yen,
    /// `Some` when payments went to the owner's connected account.
    pub connected: Option<FeeSchedule>,
    /// The per-sale application fees taken, less what refunds gave back.
    pub application_fees_taken: Yen,
    /// Earlier statements, oldest first.
    pub paid: Vec<PaidStatement>,
}

/// Where a project's payout stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PayoutStatus {
    /// Something is due to the owner (or from them) that no statement covers.
    Due,
    /// The last statement covers everything.
    Settled,
}

impl PayoutStatus {
    pub const fn code(self) -> &'static str {
        match self {
            Self::Due => "due",
            Self::Settled => "settled",
        }
    }

    pub const fn label(self) -> &'static str {
        match self {
            Self::Due => "未精算",
            Self::Settled => "精算済み",
        }
    }
}

/// The statement as the screens and the export show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatementView {
    pub project: ProjectId,
    pub title: String,
    pub slug: String,
    pub period_end: NaiveDate,
    /// The number the statement gets when marked paid.
    pub seq: i32,
    pub card: Yen,
    pub bank: Yen,
    pub figures: PayoutStatement,
    pub payout_date: NaiveDate,
    pub status: PayoutStatus,
    pub paid: Vec<PaidStatement>,
}

/// An operator's "paid" for the statement they read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarkPaid {
    /// The payout the operator saw: refused when it changed meanwhile.
    pub expected_payout: Yen,
    pub expected_owed: Yen,
    pub paid_on: NaiveDate,
    pub reference: String,
}

#[derive(Debug, thiserror::Error)]
pub enum PayoutError {
    /// Unknown project, or not a successful one.
    #[error("{}", MSG_NO_STATEMENT)]
    NotFound,
    /// A field refused (field, message).
    #[error("{1}")]
    Invalid(&'static str, String),
    /// The statement changed since it was read, or another operator marked it.
    #[error("{}", MSG_PAYOUT_CHANGED)]
    Changed,
    #[error(transparent)]
    Repo(RepoError),
}

impl From<RepoError> for PayoutError {
    fn from(error: RepoError) -> Self {
        match error {
            RepoError::NotFound => Self::NotFound,
            RepoError::Conflict(_) => Self::Changed,
            other => Self::Repo(other),
        }
    }
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait PayoutStore: Send + Sync {
    /// Every project decided successful, earliest end first; empty when none.
    async fn successful(&self) -> Result<Vec<PayoutFacts>, RepoError>;

    /// One successful project's facts; `None` for an unknown project or one
    /// not decided successful.
    async fn facts(&self, project: ProjectId) -> Result<Option<PayoutFacts>, RepoError>;

    /// Freezes a statement as the project's `seq`-th. MUST refuse with
    /// `RepoError::Conflict` when that number is taken (another operator
    /// marked it first); the storage checks the figures balance.
    async fn record_paid(
        &self,
        project: ProjectId,
        seq: i32,
        view: &StatementView,
        mark: &MarkPaid,
        admin: UserId,
    ) -> Result<(), RepoError>;
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait Payouts: Send + Sync {
    /// Every successful project's current statement, by payout date.
    async fn list(&self) -> Result<Vec<StatementView>, PayoutError>;
    /// One project's current statement and its paid ones.
    async fn statement(&self, project: ProjectId) -> Result<StatementView, PayoutError>;
    /// Marks the current statement paid (audited) and answers the new one.
    async fn mark_paid(&self, admin: UserId, project: ProjectId, mark: MarkPaid) -> Result<StatementView, PayoutError>;
}

pub struct PayoutService<S, C> {
    store: S,
    audit: std::sync::Arc<dyn AuditLog>,
    clock: C,
    /// The bank's charge for one transfer to an owner.
    transfer_fee: Yen,
}

impl<S, C> PayoutService<S, C> {
    pub fn new(store: S, audit: std::sync::Arc<dyn AuditLog>, clock: C, transfer_fee: Yen) -> Self {
        Self { store, audit, clock, transfer_fee }
    }
}

/// The current statement of a project from its facts.
pub fn current_statement(facts: PayoutFacts, transfer_fee: Yen) -> StatementView {
    let carried_over = facts.paid.iter().map(|p| p.figures.payout.0 + p.figures.transfer_fee.0).sum::<i64>();
    let collection = facts.connected.map_or(Collection::Platform, Collection::Connected);
    let figures = statement(StatementInput {
        card: facts.card,
        bank: facts.bank,
        collection,
        application_fees_taken: facts.application_fees_taken,
        transfer_fee,
        carried_over: Yen(carried_over),
    });
    let covered = facts.paid.last().is_some_and(|last| {
        last.figures.confirmed == figures.confirmed && last.figures.application_fees == figures.application_fees
    });
    let status = if covered { PayoutStatus::Settled } else { PayoutStatus::Due };
    let seq = facts.paid.last().map_or(1, |last| last.seq + 1);
    StatementView {
        project: facts.project,
        title: facts.title,
        slug: facts.slug,
        period_end: facts.period_end,
        seq,
        card: facts.card,
        bank: facts.bank,
        payout_date: project_payout_date(facts.period_end, facts.donation_payout_date).unwrap_or(facts.period_end),
        figures,
        status,
        paid: facts.paid,
    }
}

#[async_trait::async_trait]
impl<S: PayoutStore, C: Clock> Payouts for PayoutService<S, C> {
    async fn list(&self) -> Result<Vec<StatementView>, PayoutError> {
        let mut views: Vec<_> =
            self.store.successful().await?.into_iter().map(|f| current_statement(f, self.transfer_fee)).collect();
        views.sort_by_key(|v| (v.status != PayoutStatus::Due, v.payout_date, v.project));
        Ok(views)
    }

    async fn statement(&self, project: ProjectId) -> Result<StatementView, PayoutError> {
        let facts = self.store.facts(project).await?.ok_or(PayoutError::NotFound)?;
        Ok(current_statement(facts, self.transfer_fee))
    }

    async fn mark_paid(&self, admin: UserId, project: ProjectId, mark: MarkPaid) -> Result<StatementView, PayoutError> {
        let reference =
            PAYOUT_REFERENCE.parse(&mark.reference).map_err(|e| PayoutError::Invalid("reference", e.to_string()))?;
        if mark.paid_on > domain::time::tokyo_date(self.clock.now()) {
            return Err(PayoutError::Invalid("paidOn", MSG_PAID_ON_FUTURE.to_string()));
        }
        let view = self.statement(project).await?;
        if view.status == PayoutStatus::Settled
            || view.figures.payout != mark.expected_payout
            || view.figures.owed_by_owner != mark.expected_owed
        {
            return Err(PayoutError::Changed);
        }
        let mark = MarkPaid { reference, ..mark };
        let mut action = NewAdminAction::new(admin, AdminActionKind::PayoutMarkedPaid);
        action.project_id = Some(project);
        action.detail =
            json!({ "seq": view.seq, "payout": view.figures.payout.0, "owed": view.figures.owed_by_owner.0 });
        self.audit.record(action).await?;
        self.store.record_paid(project, view.seq, &view, &mark, admin).await?;
        self.statement(project).await
    }
}

/// The payouts as a CSV the operator can hand to the bank or open in Excel:
/// UTF-8 with a byte-order mark, CRLF, every field quoted, and a field that
/// a spreadsheet would run as a formula prefixed with `'`.
pub fn payouts_csv(views: &[StatementView]) -> String {
    let mut out = String::from(domain::csv::BOM);
    let header = [
        "支払予定日",
        "プロジェクトID",
        "プロジェクト名",
        "募集終了日",
        "状態",
        "確定金額",
        "カード",
        "銀行振込",
        "手数料（税込）",
        "うち消費税",
        "決済時手数料",
        "実行者受取済み",
        "振込手数料",
        "既払額",
        "今回支払額",
        "実行者への請求額",
    ];
    push_row(&mut out, header.iter().map(|h| (*h).to_string()));
    for v in views {
        let f = &v.figures;
        push_row(
            &mut out,
            [
                v.payout_date.to_string(),
                v.project.to_string(),
                v.title.clone(),
                v.period_end.to_string(),
                v.status.label().to_string(),
                f.confirmed.0.to_string(),
                v.card.0.to_string(),
                v.bank.0.to_string(),
                f.platform_fee.0.to_string(),
                f.platform_fee_tax.0.to_string(),
                f.application_fees.0.to_string(),
                f.received_directly.0.to_string(),
                f.transfer_fee.0.to_string(),
                f.carried_over.0.to_string(),
                f.payout.0.to_string(),
                f.owed_by_owner.0.to_string(),
            ]
            .into_iter(),
        );
    }
    out
}

fn push_row(out: &mut String, fields: impl Iterator<Item = String>) {
    out.push_str(&domain::csv::row(fields));
}

#[cfg(test)]
#[path = "payouts_tests.rs"]
mod tests;
