//! What the terms of use (第18条) let the operator do with what supporters
//! post: hide a comment, with a reason, and show it again. Both are written
//! to the audit log.

use chrono::{DateTime, Utc};
use domain::comment::HIDE_REASON;
use domain::ids::{ProjectId, UserId};
use domain::text::TextError;
use serde_json::json;

use super::audit::{AdminActionKind, AuditLog, NewAdminAction};
use crate::RepoError;

/// A comment as the operator sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModeratedComment {
    pub id: i64,
    pub project: ProjectId,
    pub project_title: String,
    /// The name the public page shows (`匿名` for an anonymous supporter).
    pub author: String,
    pub author_email: String,
    pub comment: String,
    pub shown: bool,
    pub hidden_reason: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait CommentModerationRepository: Send + Sync {
    /// Every comment of the project, shown and hidden, newest first. MUST
    /// return `NotFound` for an unknown project.
    async fn comments(&self, project: ProjectId) -> Result<Vec<ModeratedComment>, RepoError>;

    /// One comment; `NotFound` when no comment has `id`.
    async fn comment(&self, id: i64) -> Result<ModeratedComment, RepoError>;

    /// Hides the comment with `reason` (`Some`) or shows it again (`None`),
    /// leaving its dates (the author's) alone. Idempotent; `NotFound` for an
    /// unknown id.
    async fn set_hidden(&self, id: i64, reason: Option<String>) -> Result<(), RepoError>;
}

#[derive(Debug, thiserror::Error)]
pub enum ModerationError {
    #[error("not found")]
    NotFound,
    #[error(transparent)]
    Reason(TextError),
    #[error(transparent)]
    Repo(RepoError),
}

impl From<RepoError> for ModerationError {
    fn from(error: RepoError) -> Self {
        match error {
            RepoError::NotFound => Self::NotFound,
            other => Self::Repo(other),
        }
    }
}

/// The moderation use cases, as the HTTP layer sees them.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait Moderation: Send + Sync {
    /// A project's comments, shown and hidden; `NotFound` for an unknown project.
    async fn comments(&self, project: ProjectId) -> Result<Vec<ModeratedComment>, ModerationError>;
    /// Hides a comment; the reason is required (`HIDE_REASON`).
    async fn hide(&self, admin: UserId, id: i64, reason: &str) -> Result<ModeratedComment, ModerationError>;
    /// Shows a hidden comment again.
    async fn show(&self, admin: UserId, id: i64) -> Result<ModeratedComment, ModerationError>;
}

pub struct ModerationService<R, A> {
    repo: R,
    audit: A,
}

impl<R: CommentModerationRepository, A: AuditLog> ModerationService<R, A> {
    pub fn new(repo: R, audit: A) -> Self {
        Self { repo, audit }
    }

    async fn set(&self, admin: UserId, id: i64, reason: Option<String>) -> Result<ModeratedComment, ModerationError> {
        let before = self.repo.comment(id).await?;
        let kind = if reason.is_some() { AdminActionKind::CommentHidden } else { AdminActionKind::CommentShown };
        // Written before the change: a crash in between still leaves the attempt on record.
        let detail = json!({
            "commentId": id,
            "projectTitle": before.project_title,
            "author": before.author,
            "excerpt": before.comment.chars().take(40).collect::<String>(),
            "reason": reason,
        });
        let action = NewAdminAction { project_id: Some(before.project), detail, ..NewAdminAction::new(admin, kind) };
        self.audit.record(action).await?;
        self.repo.set_hidden(id, reason).await?;
        Ok(self.repo.comment(id).await?)
    }
}

#[async_trait::async_trait]
impl<R: CommentModerationRepository, A: AuditLog> Moderation for ModerationService<R, A> {
    async fn comments(&self, project: ProjectId) -> Result<Vec<ModeratedComment>, ModerationError> {
        Ok(self.repo.comments(project).await?)
    }

    async fn hide(&self, admin: UserId, id: i64, reason: &str) -> Result<ModeratedComment, ModerationError> {
        let reason = HIDE_REASON.parse(reason).map_err(ModerationError::Reason)?;
        self.set(admin, id, Some(reason)).await
    }

    async fn show(&self, admin: UserId, id: i64) -> Result<ModeratedComment, ModerationError> {
        self.set(admin, id, None).await
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use chrono::TimeZone;

    use super::*;
    use crate::admin::audit::MockAuditLog;

    fn comment(shown: bool) -> ModeratedComment {
        ModeratedComment {
            id: 5,
            project: ProjectId(2),
            project_title: "高崎だるま".into(),
            author: "たろう".into(),
            author_email: "taro@example.jp".into(),
            comment: "応援しています".into(),
            shown,
            hidden_reason: (!shown).then(|| "誹謗中傷のため".into()),
            created_at: Utc.with_ymd_and_hms(2026, 11, 1, 0, 0, 0).unwrap(),
            updated_at: Utc.with_ymd_and_hms(2026, 11, 1, 0, 0, 0).unwrap(),
        }
    }

    #[tokio::test]
    async fn hiding_needs_a_reason_and_writes_nothing_without_one() {
        let mut repo = MockCommentModerationRepository::new();
        repo.expect_set_hidden().never();
        let mut audit = MockAuditLog::new();
        audit.expect_record().never();
        let service = ModerationService::new(repo, audit);

        let error = service.hide(UserId(1), 5, " ").await.unwrap_err();

        assert_eq!(error.to_string(), "非表示の理由を入力してください。");
    }

    #[tokio::test]
    async fn a_hidden_comment_is_logged_with_its_reason_and_project_by_name() {
        let mut repo = MockCommentModerationRepository::new();
        let mut calls = 0;
        repo.expect_comment().returning(move |_| {
            calls += 1;
            Ok(comment(calls == 1))
        });
        repo.expect_set_hidden()
            .withf(|id, reason| *id == 5 && reason.as_deref() == Some("誹謗中傷のため"))
            .times(1)
            .returning(|_, _| Ok(()));
        let mut audit = MockAuditLog::new();
        audit
            .expect_record()
            .withf(|a| {
                a.kind == AdminActionKind::CommentHidden
                    && a.detail["reason"] == "誹謗中傷のため"
                    && a.detail["projectTitle"] == "高崎だるま"
            })
            .times(1)
            .returning(|_| Ok(1));
        let service = ModerationService::new(repo, audit);

        let hidden = service.hide(UserId(1), 5, " 誹謗中傷のため ").await.unwrap();

        assert!(!hidden.shown);
    }
}
