//! Who did what, when, on which sale, mail, project or address: one row per
//! admin action, only ever added. The dashboard shows the newest.

use chrono::{DateTime, Utc};
use domain::ids::{ProjectId, SaleId, UserId};
use serde_json::{json, Map, Value};

use crate::RepoError;

/// What an administrator did. The code is what the log stores, so a code
/// never changes once it has been written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AdminActionKind {
    /// A refund of one sale was asked of the provider.
    RefundRequested,
    /// A bulk refund of a project's sales was started.
    BulkRefundStarted,
    /// A mass mail was queued for sending.
    MailSent,
    /// A registration (activation) mail was sent again.
    RegisterMailResent,
    /// A project was created as a draft.
    ProjectCreated,
    /// A project's terms changed (`detail.changes`: field -> [before, after]).
    ProjectUpdated,
    /// A project was published, now or at a set time.
    ProjectPublished,
    /// A scheduled publication was taken back (a draft again).
    ProjectUnscheduled,
    /// A return was added to a project.
    ReturnCreated,
    /// A return's terms changed (`detail.changes` as for projects).
    ReturnUpdated,
    /// A return nobody had backed was deleted.
    ReturnDeleted,
    /// A project's returns were put in a new order.
    ReturnsReordered,
    /// A supporter comment was hidden (`detail.reason`).
    CommentHidden,
    /// A hidden comment was shown again.
    CommentShown,
    /// A payout statement was marked paid (`detail.seq`, `detail.payout`).
    PayoutMarkedPaid,
    /// A project's receipt issuer was set (`detail.before`, `detail.after`).
    ReceiptIssuerUpdated,
    /// A supporter's public name was hidden on a project (`detail.reason`).
    SupporterNameHidden,
    /// A hidden supporter name was shown again.
    SupporterNameShown,
    /// A project's page content changed: honour link, slider order and
    /// texts, owner profile, FAQ (`detail.changes` as for projects).
    ProjectContentUpdated,
    /// A project image was uploaded or removed (`detail.slot`,
    /// `detail.changes`: the image's URL before and after).
    ProjectImageChanged,
    /// A project's settings changed: additional question, bank account for
    /// anonymous transfers, connected account, sponsor switches
    /// (`detail.changes` as for projects).
    ProjectSettingsUpdated,
    /// A news item was written (`detail.changes` from nothing).
    NewsCreated,
    /// A news item changed (`detail.changes` as for projects).
    NewsUpdated,
    /// A news item was deleted.
    NewsDeleted,
    /// Sales' delivery state was set (`detail.changes.state`: [before, after], `detail.count`, `detail.saleIds`).
    DeliveriesMarked,
    /// An entry was added to a project's manual sponsor list (`detail.title`: the name,
    /// `detail.changes` from nothing).
    ManualSponsorCreated,
    /// A manual sponsor entry changed (`detail.title`: the name, `detail.changes` as for projects).
    ManualSponsorUpdated,
    /// A manual sponsor entry was deleted (`detail.title`: the name, `detail.course`).
    ManualSponsorDeleted,
    /// A manual sponsor entry moved one place in its course (`detail.title`: the name,
    /// `detail.direction`, `detail.passed`: the entry it changed places with).
    ManualSponsorsReordered,
}

impl AdminActionKind {
    pub const fn code(self) -> &'static str {
        match self {
            Self::RefundRequested => "refund_requested",
            Self::BulkRefundStarted => "bulk_refund_started",
            Self::MailSent => "mail_sent",
            Self::RegisterMailResent => "register_mail_resent",
            Self::ProjectCreated => "project_created",
            Self::ProjectUpdated => "project_updated",
            Self::ProjectPublished => "project_published",
            Self::ProjectUnscheduled => "project_unscheduled",
            Self::ReturnCreated => "return_created",
            Self::ReturnUpdated => "return_updated",
            Self::ReturnDeleted => "return_deleted",
            Self::ReturnsReordered => "returns_reordered",
            Self::CommentHidden => "comment_hidden",
            Self::CommentShown => "comment_shown",
            Self::PayoutMarkedPaid => "payout_marked_paid",
            Self::ReceiptIssuerUpdated => "receipt_issuer_updated",
            Self::SupporterNameHidden => "supporter_name_hidden",
            Self::SupporterNameShown => "supporter_name_shown",
            Self::ProjectContentUpdated => "project_content_updated",
            Self::ProjectImageChanged => "project_image_changed",
            Self::ProjectSettingsUpdated => "project_settings_updated",
            Self::NewsCreated => "news_created",
            Self::NewsUpdated => "news_updated",
            Self::NewsDeleted => "news_deleted",
            Self::DeliveriesMarked => "deliveries_marked",
            Self::ManualSponsorCreated => "manual_sponsor_created",
            Self::ManualSponsorUpdated => "manual_sponsor_updated",
            Self::ManualSponsorDeleted => "manual_sponsor_deleted",
            Self::ManualSponsorsReordered => "manual_sponsors_reordered",
        }
    }

    /// Every kind (a slice: adding a kind touches one line here).
    pub const ALL: &[Self] = &[
        Self::RefundRequested,
        Self::BulkRefundStarted,
        Self::MailSent,
        Self::RegisterMailResent,
        Self::ProjectCreated,
        Self::ProjectUpdated,
        Self::ProjectPublished,
        Self::ProjectUnscheduled,
        Self::ReturnCreated,
        Self::ReturnUpdated,
        Self::ReturnDeleted,
        Self::ReturnsReordered,
        Self::CommentHidden,
        Self::CommentShown,
        Self::PayoutMarkedPaid,
        Self::ReceiptIssuerUpdated,
        Self::SupporterNameHidden,
        Self::SupporterNameShown,
        Self::ProjectContentUpdated,
        Self::ProjectImageChanged,
        Self::ProjectSettingsUpdated,
        Self::NewsCreated,
        Self::NewsUpdated,
        Self::NewsDeleted,
        Self::DeliveriesMarked,
        Self::ManualSponsorCreated,
        Self::ManualSponsorUpdated,
        Self::ManualSponsorDeleted,
        Self::ManualSponsorsReordered,
    ];

    pub fn from_code(code: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|kind| kind.code() == code)
    }
}

/// One entry to add to the log. `detail` is a small JSON object (amounts,
/// counts, a reason) the dashboard may show; the storage refuses more than
/// 4,096 characters of JSON text.
#[derive(Debug, Clone, PartialEq)]
pub struct NewAdminAction {
    pub actor: UserId,
    pub kind: AdminActionKind,
    pub sale_id: Option<SaleId>,
    pub mail_id: Option<i64>,
    pub project_id: Option<ProjectId>,
    pub target_email: Option<String>,
    pub detail: Value,
}

impl NewAdminAction {
    /// An entry with no target yet; add them with the struct fields.
    pub fn new(actor: UserId, kind: AdminActionKind) -> Self {
        Self {
            actor,
            kind,
            sale_id: None,
            mail_id: None,
            project_id: None,
            target_email: None,
            detail: Value::Object(Default::default()),
        }
    }
}

/// An entry as the dashboard reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct AdminActionEntry {
    pub id: i64,
    pub actor: UserId,
    /// The actor's e-mail address, as it is now.
    pub actor_email: String,
    /// The stored code; [`AdminActionKind::from_code`] reads the known ones.
    pub action: String,
    pub sale_id: Option<SaleId>,
    pub mail_id: Option<i64>,
    pub project_id: Option<ProjectId>,
    pub target_email: Option<String>,
    pub detail: Value,
    pub created_at: DateTime<Utc>,
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait AuditLog: Send + Sync {
    /// Adds one entry and returns its id. MUST be durable when it returns.
    /// Record the action before asking a provider to act, so that a crash
    /// in between still leaves the attempt on record.
    async fn record(&self, action: NewAdminAction) -> Result<i64, RepoError>;

    /// The newest `limit` entries (at most 200), newest first.
    async fn recent(&self, limit: u32) -> Result<Vec<AdminActionEntry>, RepoError>;
}

/// The longest text a logged value keeps before it is shortened with '…':
/// the log's detail is bounded (4,096 characters of JSON).
const LOGGED_CHARS: usize = 60;

/// `text` as the log keeps it: whole, or its first characters and '…'.
pub fn logged_text(text: &str) -> Value {
    if text.chars().count() <= LOGGED_CHARS {
        json!(text)
    } else {
        json!(format!("{}…", text.chars().take(LOGGED_CHARS - 1).collect::<String>()))
    }
}

/// A stored object's name, enough to tell two uploaded images apart in the log.
pub fn logged_file(url: &str) -> String {
    url.rsplit('/').next().unwrap_or(url).to_string()
}

/// What differs between two sets of named values (the same names in the
/// same order), as `detail.changes` keeps it: `{field: [before, after]}`;
/// `before: None` for something new (every field from null). When that
/// would not fit the log, the names of the changed fields only.
pub fn changes(before: Option<&[(&str, Value)]>, after: &[(&str, Value)]) -> Value {
    let mut changed = Map::new();
    for (i, (field, new)) in after.iter().enumerate() {
        let old = before.and_then(|b| b.get(i)).map_or(&Value::Null, |(_, old)| old);
        if old != new {
            changed.insert((*field).to_string(), json!([old, new]));
        }
    }
    if Value::Object(changed.clone()).to_string().chars().count() > 3_000 {
        return json!({ "fields": changed.keys().collect::<Vec<_>>() });
    }
    Value::Object(changed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_reads_back_from_its_stored_code() {
        for &kind in AdminActionKind::ALL {
            assert_eq!(AdminActionKind::from_code(kind.code()), Some(kind));
            assert!(kind.code().bytes().all(|b| b.is_ascii_lowercase() || b == b'_'), "{}", kind.code());
        }
        assert_eq!(AdminActionKind::from_code("dropped_tables"), None);
    }
}
