//! Shipping the returns: for each project, who must receive what (the paid
//! sales with the address and answer they were placed with), the CSV the
//! operator packs from, and the delivery state per sale (未発送 / 発送済み),
//! set one by one or for a selection, written to the audit log and mailed to
//! the supporter once, when the return is shipped.

use chrono::{DateTime, NaiveDate, Utc};
use domain::account::Email;
use domain::delivery::{
    change, check_selection, requested_state, DeliveryFilter, DeliveryRuleError, DeliveryState, DELIVERIES_PER_PAGE,
    MAX_EXPORT_ROWS,
};
use domain::ids::{ProjectId, ReturnId, SaleId, UserId};
use domain::money::Yen;
use domain::payment::PayType;
use domain::profile::Address;
use domain::time::{tokyo, tokyo_date};
use serde_json::json;

use super::audit::{AdminActionKind, AuditLog, NewAdminAction};
use crate::accounts::SiteInfo;
use crate::clock::Clock;
use crate::mailer::{queued_payload, OutgoingMail};
use crate::RepoError;

/// One sale to deliver, as the list and the CSV show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeliveryRow {
    pub sale: SaleId,
    pub supporter: UserId,
    pub return_id: ReturnId,
    pub return_title: String,
    pub lot: i16,
    /// When the support was placed.
    pub created_at: DateTime<Utc>,
    /// The sale's display name (the name on the walls), if one was given.
    pub display_name: Option<String>,
    /// Where the supporter's mail goes (the account's address, a guest's too).
    pub email: String,
    /// The delivery address the sale was placed with (`None` for a return that needs none).
    pub address: Option<Address>,
    /// The project's additional question and the supporter's answer.
    pub answer: Option<(String, String)>,
    pub total: Yen,
    /// Refunds requested and not failed (a partly refunded sale keeps its return).
    pub refunded: Yen,
    pub pay_type: PayType,
    pub state: DeliveryState,
}

impl DeliveryRow {
    /// The payment state as the list shows it: every listed sale is paid.
    pub fn payment_label(&self) -> &'static str {
        if self.refunded > Yen::ZERO {
            "支払い済み（一部返金）"
        } else {
            "支払い済み"
        }
    }
}

/// What the list is asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DeliveryQuery {
    /// Only this return's sales.
    pub return_id: Option<ReturnId>,
    pub state: DeliveryFilter,
}

/// A return as the filter offers it, with how many of its sales are to deliver and shipped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReturnCount {
    pub id: ReturnId,
    pub title: String,
    pub to_deliver: u64,
    pub shipped: u64,
}

/// The project and its returns, for the list's heading and filter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeliveryOverview {
    pub project: ProjectId,
    pub title: String,
    /// Every return of the project in its order, those without sales included.
    pub returns: Vec<ReturnCount>,
}

/// One page of the list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeliveryPage {
    pub overview: DeliveryOverview,
    pub rows: Vec<DeliveryRow>,
    /// Rows that match the query, on every page.
    pub matching: u64,
    pub page: u32,
    pub per_page: u32,
}

/// What an operator asks: these sales (of the project) to this state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarkDeliveries {
    pub sales: Vec<SaleId>,
    pub shipped: bool,
    pub shipped_on: Option<NaiveDate>,
    pub note: Option<String>,
}

/// A state to write, and the supporter's mail when the write ships the sale.
#[derive(Debug, Clone, PartialEq)]
pub struct StateWrite {
    pub sale: SaleId,
    /// The state read before: the write MUST change nothing when the sale is no longer in it.
    pub before: DeliveryState,
    pub after: DeliveryState,
    /// [`crate::mailer::queued_payload`] of the shipping mail, for 未発送 → 発送済み only.
    pub mail: Option<serde_json::Value>,
}

/// What a mark did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MarkOutcome {
    /// Sales whose state was written.
    pub changed: u32,
    /// Sales already in the state asked for (or changed by someone else meanwhile).
    pub unchanged: u32,
    /// Supporters mailed (each sale's first step to 発送済み).
    pub mailed: u32,
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait DeliveryStore: Send + Sync {
    /// The project's title and its returns with their counts of sales to
    /// deliver (`domain::delivery::must_deliver`) and shipped. MUST return
    /// `NotFound` for an unknown project.
    async fn overview(&self, project: ProjectId) -> Result<DeliveryOverview, RepoError>;

    /// The project's sales to deliver that match `query`, oldest support first,
    /// `offset` and at most `limit` of them, and how many match in all. Never
    /// lists an unpaid or fully refunded sale. An unknown project or return
    /// gives no rows.
    async fn rows(
        &self,
        project: ProjectId,
        query: DeliveryQuery,
        offset: u64,
        limit: u32,
    ) -> Result<(Vec<DeliveryRow>, u64), RepoError>;

    /// The rows of `sales` that belong to `project` and must be delivered, in
    /// any order; ids that do not are left out.
    async fn selected(&self, project: ProjectId, sales: Vec<SaleId>) -> Result<Vec<DeliveryRow>, RepoError>;

    /// Writes every state in one transaction, each only while the sale is
    /// still in `before` (a compare-and-set under the row's lock), and
    /// queues a write's mail in the same transaction only when it was
    /// written: a sale is mailed once per step to 発送済み however many
    /// requests race. Returns the writes that took effect and the mails queued.
    async fn write(&self, actor: UserId, writes: Vec<StateWrite>) -> Result<(u32, u32), RepoError>;
}

#[derive(Debug, thiserror::Error)]
pub enum DeliveryError {
    /// Unknown project.
    #[error("not found")]
    NotFound,
    #[error(transparent)]
    Rule(#[from] DeliveryRuleError),
    /// Some selected sale is not a sale of the project that must be delivered.
    #[error("{}", domain::delivery::MSG_NOT_DELIVERABLE)]
    NotDeliverable,
    #[error(transparent)]
    Repo(RepoError),
}

impl From<RepoError> for DeliveryError {
    fn from(error: RepoError) -> Self {
        match error {
            RepoError::NotFound => Self::NotFound,
            other => Self::Repo(other),
        }
    }
}

/// The delivery use cases, as the HTTP layer sees them.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait Deliveries: Send + Sync {
    /// Page `page` (from 1) of the project's sales to deliver; a page past the
    /// end is empty. `NotFound` for an unknown project.
    async fn list(&self, project: ProjectId, query: DeliveryQuery, page: u32) -> Result<DeliveryPage, DeliveryError>;

    /// The same rows as a CSV for Excel ([`deliveries_csv`]), at most
    /// `MAX_EXPORT_ROWS`. `NotFound` for an unknown project.
    async fn export(&self, project: ProjectId, query: DeliveryQuery) -> Result<String, DeliveryError>;

    /// Sets the selected sales' state. All or nothing: a selection with a
    /// sale that is not the project's or not to deliver changes nothing.
    async fn mark(&self, admin: UserId, project: ProjectId, mark: MarkDeliveries)
        -> Result<MarkOutcome, DeliveryError>;
}

pub struct DeliveryService<S, A, C> {
    store: S,
    audit: A,
    clock: C,
    site: SiteInfo,
}

impl<S: DeliveryStore, A: AuditLog, C: Clock> DeliveryService<S, A, C> {
    pub fn new(store: S, audit: A, clock: C, site: SiteInfo) -> Self {
        Self { store, audit, clock, site }
    }
}

/// The CSV's columns, in order.
pub const CSV_HEADER: [&str; 20] = [
    "支援ID",
    "支援日",
    "会員ID",
    "リターンID",
    "リターン",
    "口数",
    "表示名",
    "メールアドレス",
    "お届け先氏名",
    "電話番号",
    "郵便番号",
    "都道府県",
    "市区町村",
    "番地",
    "建物名",
    "追加質問",
    "追加質問の回答",
    "支払い状況",
    "発送状況",
    "発送日・発送メモ",
];

/// The rows as a CSV that opens in Excel (`domain::csv`): dates in ISO 8601
/// (Asia/Tokyo), one line per sale.
pub fn deliveries_csv(rows: &[DeliveryRow]) -> String {
    let lines: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let address = r.address.as_ref();
            let field = |f: fn(&Address) -> &str| address.map(f).unwrap_or_default().to_string();
            let (question, answer) = r.answer.clone().unwrap_or_default();
            let shipped = match &r.state {
                DeliveryState::Unshipped => String::new(),
                DeliveryState::Shipped { on, note: None } => on.to_string(),
                DeliveryState::Shipped { on, note: Some(note) } => format!("{on} {note}"),
            };
            vec![
                r.sale.to_string(),
                r.created_at.with_timezone(&tokyo()).date_naive().to_string(),
                r.supporter.0.to_string(),
                r.return_id.to_string(),
                r.return_title.clone(),
                r.lot.to_string(),
                r.display_name.clone().unwrap_or_default(),
                r.email.clone(),
                field(|a| &a.name),
                field(|a| &a.tel_number),
                field(|a| &a.zip),
                field(|a| &a.pref),
                field(|a| &a.city),
                field(|a| &a.address),
                address.and_then(|a| a.building.clone()).unwrap_or_default(),
                question,
                answer,
                r.payment_label().to_string(),
                r.state.label().to_string(),
                shipped,
            ]
        })
        .collect();
    domain::csv::file(&CSV_HEADER, lines.iter().map(Vec::as_slice))
}

/// The supporter's mail when their return is shipped (transactional: sent
/// whatever their mass-mail opt-out says).
pub fn shipped_mail(site: &SiteInfo, project_title: &str, row: &DeliveryRow, to: Email) -> Option<OutgoingMail> {
    let DeliveryState::Shipped { on, note } = &row.state else {
        return None;
    };
    let name = row.display_name.as_deref().map(str::trim).filter(|n| !n.is_empty()).unwrap_or("支援者");
    let note = note.as_deref().map(|n| format!("発送メモ・追跡番号：{n}\n")).unwrap_or_default();
    Some(OutgoingMail {
        to,
        subject: format!("【{}】リターンを発送しました", site.site_name),
        text_body: format!(
            "{name} 様\n\nご支援いただいたプロジェクトのリターンを発送しました。\n到着まで今しばらくお待ちください。\n\n\
             プロジェクト：{project}\nリターン：{ret}\n口数：{lot}\n発送日：{day}\n{note}\n\
             お支払い履歴（{url}/edit/payment-list）でも発送状況をご確認いただけます。\n\n\
             ――――――――――――――――――――\n{site}\n{url}/\n",
            project = project_title,
            ret = row.return_title,
            lot = row.lot,
            day = on.format("%Y年%-m月%-d日"),
            site = site.site_name,
            url = site.public_url,
        ),
    })
}

/// The audit entry's `changes`: `[before, after]` of what the request set.
fn audit_changes(befores: &[&DeliveryState], after: &DeliveryState) -> serde_json::Value {
    let mut labels: Vec<&str> = befores.iter().map(|s| s.label()).collect();
    labels.dedup();
    labels.sort_unstable();
    labels.dedup();
    let (on, note) = match after {
        DeliveryState::Unshipped => (None, None),
        DeliveryState::Shipped { on, note } => (Some(on.to_string()), note.clone()),
    };
    json!({
        "state": [labels.join("・"), after.label()],
        "shippedOn": [serde_json::Value::Null, on],
        "note": [serde_json::Value::Null, note],
    })
}

/// Sale ids the audit entry lists (the rest are counted).
const AUDIT_LISTED_SALES: usize = 100;

#[async_trait::async_trait]
impl<S: DeliveryStore, A: AuditLog, C: Clock> Deliveries for DeliveryService<S, A, C> {
    async fn list(&self, project: ProjectId, query: DeliveryQuery, page: u32) -> Result<DeliveryPage, DeliveryError> {
        let overview = self.store.overview(project).await?;
        let page = page.max(1);
        let offset = u64::from(page - 1) * u64::from(DELIVERIES_PER_PAGE);
        let (rows, matching) = self.store.rows(project, query, offset, DELIVERIES_PER_PAGE).await?;
        Ok(DeliveryPage { overview, rows, matching, page, per_page: DELIVERIES_PER_PAGE })
    }

    async fn export(&self, project: ProjectId, query: DeliveryQuery) -> Result<String, DeliveryError> {
        self.store.overview(project).await?;
        let limit = u32::try_from(MAX_EXPORT_ROWS).unwrap_or(u32::MAX);
        let (rows, matching) = self.store.rows(project, query, 0, limit).await?;
        if matching > rows.len() as u64 {
            tracing::warn!(%project, matching, exported = rows.len(), "delivery export cut at its bound");
        }
        Ok(deliveries_csv(&rows))
    }

    async fn mark(
        &self,
        admin: UserId,
        project: ProjectId,
        mark: MarkDeliveries,
    ) -> Result<MarkOutcome, DeliveryError> {
        let mut sales = mark.sales;
        sales.sort_unstable();
        sales.dedup();
        check_selection(sales.len())?;
        let today = tokyo_date(self.clock.now());
        let after = requested_state(mark.shipped, mark.shipped_on, mark.note.as_deref(), today)?;
        let overview = self.store.overview(project).await?;
        let rows = self.store.selected(project, sales.clone()).await?;
        if rows.len() != sales.len() {
            return Err(DeliveryError::NotDeliverable);
        }

        let mut writes = Vec::new();
        let mut befores = Vec::new();
        for row in &rows {
            let step = change(&row.state, &after);
            if !step.writes() {
                continue;
            }
            let mail = if step.mails_supporter() {
                let shipped = DeliveryRow { state: after.clone(), ..row.clone() };
                match Email::parse(&row.email) {
                    Ok(to) => shipped_mail(&self.site, &overview.title, &shipped, to).map(|m| queued_payload(&m)),
                    Err(_) => {
                        tracing::warn!(sale = %row.sale, "shipping mail not sent: the stored address does not parse");
                        None
                    }
                }
            } else {
                None
            };
            befores.push(&row.state);
            writes.push(StateWrite { sale: row.sale, before: row.state.clone(), after: after.clone(), mail });
        }
        let requested = u32::try_from(sales.len()).unwrap_or(u32::MAX);
        if writes.is_empty() {
            return Ok(MarkOutcome { changed: 0, unchanged: requested, mailed: 0 });
        }

        let listed: Vec<i64> = writes.iter().take(AUDIT_LISTED_SALES).map(|w| w.sale.get()).collect();
        let mut action = NewAdminAction::new(admin, AdminActionKind::DeliveriesMarked);
        action.project_id = Some(project);
        if let [only] = writes.as_slice() {
            action.sale_id = Some(only.sale);
        }
        action.detail = json!({
            "projectTitle": overview.title,
            "count": writes.len(),
            "saleIds": listed,
            "more": writes.len().saturating_sub(AUDIT_LISTED_SALES),
            "changes": audit_changes(&befores, &after),
        });
        // Written before the change: a crash in between still leaves the attempt on record.
        self.audit.record(action).await?;
        let (changed, mailed) = self.store.write(admin, writes).await?;
        Ok(MarkOutcome { changed, unchanged: requested.saturating_sub(changed), mailed })
    }
}

#[cfg(test)]
#[path = "deliveries_tests.rs"]
mod tests;
