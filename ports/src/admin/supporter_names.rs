//! The other moderation the terms of use (第18条) give the operator: hide a
//! supporter's public name on a project's pages (sponsor walls, supporters
//! list, comments, the footer), with a reason, and show it again. The
//! supporter is then shown as 匿名, as if they had asked for it. Both are
//! written to the audit log.

use chrono::{DateTime, Utc};
use domain::comment::HIDE_REASON;
use domain::ids::{ProjectId, UserId};
use domain::money::Yen;
use serde_json::json;

use super::audit::{AdminActionKind, AuditLog, NewAdminAction};
use super::moderation::ModerationError;
use crate::RepoError;

/// How many supporters the operator's list shows (largest backers first).
pub const SUPPORTER_LIST_LIMIT: i64 = 1000;

/// A supporter of a project as the operator moderates their public name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModeratedSupporter {
    pub project: ProjectId,
    pub project_title: String,
    pub user: UserId,
    pub email: String,
    /// The name the supporter gave (their newest display name on the
    /// project, else the account's); `None` when they gave none.
    pub name: Option<String>,
    /// They asked for 匿名 themselves on a support of the project.
    pub asked_anonymous: bool,
    /// What they paid the project, less refunds.
    pub amount: Yen,
    /// Set while an operator hides the name.
    pub hidden: Option<NameHiding>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameHiding {
    pub reason: String,
    pub at: DateTime<Utc>,
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait SupporterNameRepository: Send + Sync {
    /// The supporters of the project (paid sales that count), largest amount
    /// first, at most [`SUPPORTER_LIST_LIMIT`]. MUST return `NotFound` for an
    /// unknown project; an empty list for a project nobody supports.
    async fn supporters(&self, project: ProjectId) -> Result<Vec<ModeratedSupporter>, RepoError>;

    /// One supporter of the project; `NotFound` when the project is unknown
    /// or `user` never had a counting sale of it.
    async fn supporter(&self, project: ProjectId, user: UserId) -> Result<ModeratedSupporter, RepoError>;

    /// Hides the name with `reason` (`Some`, recorded as by `by`) or shows it
    /// again (`None`). Idempotent: hiding a hidden name replaces its reason;
    /// showing a shown name changes nothing.
    async fn set_name_hidden(
        &self,
        project: ProjectId,
        user: UserId,
        reason: Option<String>,
        by: UserId,
    ) -> Result<(), RepoError>;
}

/// The use cases, as the HTTP layer sees them.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait SupporterNames: Send + Sync {
    /// A project's supporters; `NotFound` for an unknown project.
    async fn supporters(&self, project: ProjectId) -> Result<Vec<ModeratedSupporter>, ModerationError>;
    /// Hides a supporter's name on the project; the reason is required (`HIDE_REASON`).
    async fn hide(
        &self,
        admin: UserId,
        project: ProjectId,
        user: UserId,
        reason: &str,
    ) -> Result<ModeratedSupporter, ModerationError>;
    /// Shows a hidden name again.
    async fn show(
        &self,
        admin: UserId,
        project: ProjectId,
        user: UserId,
    ) -> Result<ModeratedSupporter, ModerationError>;
}

pub struct SupporterNameService<R, A> {
    repo: R,
    audit: A,
}

impl<R: SupporterNameRepository, A: AuditLog> SupporterNameService<R, A> {
    pub fn new(repo: R, audit: A) -> Self {
        Self { repo, audit }
    }

    async fn set(
        &self,
        admin: UserId,
        project: ProjectId,
        user: UserId,
        reason: Option<String>,
    ) -> Result<ModeratedSupporter, ModerationError> {
        let before = self.repo.supporter(project, user).await?;
        let kind =
            if reason.is_some() { AdminActionKind::SupporterNameHidden } else { AdminActionKind::SupporterNameShown };
        // Written before the change: a crash in between still leaves the attempt on record.
        let detail = json!({
            "projectTitle": before.project_title,
            "name": before.name,
            "reason": reason,
        });
        let action = NewAdminAction {
            project_id: Some(project),
            target_email: Some(before.email.clone()),
            detail,
            ..NewAdminAction::new(admin, kind)
        };
        self.audit.record(action).await?;
        self.repo.set_name_hidden(project, user, reason, admin).await?;
        Ok(self.repo.supporter(project, user).await?)
    }
}

#[async_trait::async_trait]
impl<R: SupporterNameRepository, A: AuditLog> SupporterNames for SupporterNameService<R, A> {
    async fn supporters(&self, project: ProjectId) -> Result<Vec<ModeratedSupporter>, ModerationError> {
        Ok(self.repo.supporters(project).await?)
    }

    async fn hide(
        &self,
        admin: UserId,
        project: ProjectId,
        user: UserId,
        reason: &str,
    ) -> Result<ModeratedSupporter, ModerationError> {
        let reason = HIDE_REASON.parse(reason).map_err(ModerationError::Reason)?;
        self.set(admin, project, user, Some(reason)).await
    }

    async fn show(
        &self,
        admin: UserId,
        project: ProjectId,
        user: UserId,
    ) -> Result<ModeratedSupporter, ModerationError> {
        self.set(admin, project, user, None).await
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use chrono::TimeZone;

    use super::*;
    use crate::admin::audit::MockAuditLog;

    fn supporter(hidden: bool) -> ModeratedSupporter {
        ModeratedSupporter {
            project: ProjectId(2),
            project_title: "高崎だるま".into(),
            user: UserId(7),
            email: "taro@example.jp".into(),
            name: Some("だるま大好き".into()),
            asked_anonymous: false,
            amount: Yen(5000),
            hidden: hidden.then(|| NameHiding {
                reason: "不適切な表示名のため".into(),
                at: Utc.with_ymd_and_hms(2026, 11, 1, 0, 0, 0).unwrap(),
            }),
        }
    }

    #[tokio::test]
    async fn hiding_a_name_needs_a_reason_and_writes_nothing_without_one() {
        let mut repo = MockSupporterNameRepository::new();
        repo.expect_set_name_hidden().never();
        let mut audit = MockAuditLog::new();
        audit.expect_record().never();
        let service = SupporterNameService::new(repo, audit);

        let error = service.hide(UserId(1), ProjectId(2), UserId(7), "　").await.unwrap_err();

        assert_eq!(error.to_string(), "非表示の理由を入力してください。");
    }

    #[tokio::test]
    async fn a_hidden_name_is_logged_with_the_supporter_the_reason_and_the_project_by_name() {
        let mut repo = MockSupporterNameRepository::new();
        let mut reads = 0;
        repo.expect_supporter().returning(move |_, _| {
            reads += 1;
            Ok(supporter(reads > 1))
        });
        repo.expect_set_name_hidden()
            .withf(|project, user, reason, by| {
                (*project, *user, reason.as_deref(), *by)
                    == (ProjectId(2), UserId(7), Some("不適切な表示名のため"), UserId(1))
            })
            .times(1)
            .returning(|_, _, _, _| Ok(()));
        let mut audit = MockAuditLog::new();
        audit
            .expect_record()
            .withf(|a| {
                a.kind == AdminActionKind::SupporterNameHidden
                    && a.detail["reason"] == "不適切な表示名のため"
                    && a.detail["projectTitle"] == "高崎だるま"
                    && a.target_email.as_deref() == Some("taro@example.jp")
            })
            .times(1)
            .returning(|_| Ok(1));
        let service = SupporterNameService::new(repo, audit);

        let hidden = service.hide(UserId(1), ProjectId(2), UserId(7), " 不適切な表示名のため ").await.unwrap();

        assert!(hidden.hidden.is_some());
    }

    #[tokio::test]
    async fn someone_who_never_supported_the_project_is_not_found_and_nothing_is_logged() {
        let mut repo = MockSupporterNameRepository::new();
        repo.expect_supporter().returning(|_, _| Err(RepoError::NotFound));
        repo.expect_set_name_hidden().never();
        let mut audit = MockAuditLog::new();
        audit.expect_record().never();
        let service = SupporterNameService::new(repo, audit);

        let error = service.show(UserId(1), ProjectId(2), UserId(99)).await.unwrap_err();

        assert!(matches!(error, ModerationError::NotFound));
    }
}
