//! Operators write a project's news (活動報告): drafts, items published now
//! or at a set time, public or for supporters only, edited and deleted, each
//! change in the audit log. An item asked to be mailed (支援者にメールで知らせる)
//! is mailed once, when it is public, as a mass mail of its own segment
//! (`MailSegment::ProjectNews`): the mass-mail job sends it, with the
//! one-click opt-out link, to its readers who did not opt out.

use chrono::{DateTime, Utc};
use domain::ids::{ProjectId, ReturnId, UserId};
use domain::news::{check_news, publication_time, NewsState, NewsTerms};
use serde_json::{json, Value};

use super::audit::{changes, AdminActionKind, AuditLog, NewAdminAction};
use super::mass_mail::{CreatedMail, MASS_MAIL_MAX_ATTEMPTS, SEND_MASS_MAIL};
use super::projects::AuthoringError;
use crate::clock::Clock;
use crate::html::HtmlSanitizer;
use crate::RepoError;

/// Items mailed per sweep; the rest wait for the next one.
pub const MAILS_PER_SWEEP: u32 = 20;

/// A news item as its operator edits it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthoredNews {
    pub id: i64,
    pub project_id: ProjectId,
    pub terms: NewsTerms,
    /// `None`: a draft.
    pub published_at: Option<DateTime<Utc>>,
    /// The mass mail that carried it, once queued.
    pub mail_id: Option<i64>,
    pub mail_queued_at: Option<DateTime<Utc>>,
    pub updated_at: DateTime<Utc>,
    /// The operator who saved it last (the sender of its mail).
    pub updated_by: Option<UserId>,
}

/// An item with its state now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewsAdminView {
    pub news: AuthoredNews,
    pub state: NewsState,
}

/// What the news form hands in (the body not yet sanitised).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewsForm {
    pub terms: NewsTerms,
    /// False: a draft (a published item taken back becomes one).
    pub publish: bool,
    /// A future time schedules it; `None` or a past time is now (or keeps
    /// the time of an item already public).
    pub publish_at: Option<DateTime<Utc>>,
}

/// The project a news item belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewsProject {
    pub title: String,
    pub slug: String,
    /// Every return of the project (a supporters-only item may name them).
    pub returns: Vec<ReturnId>,
}

/// The mail of one item, composed by the use case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewsMail {
    pub subject: String,
    /// Sanitised HTML.
    pub content: String,
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait ProjectNewsRepository: Send + Sync {
    /// The project's title, slug and returns. MUST return `NotFound` for an
    /// unknown project.
    async fn project(&self, project: ProjectId) -> Result<NewsProject, RepoError>;

    /// Every item of the project (drafts and scheduled ones too), newest
    /// first by creation; empty when there is none.
    async fn list(&self, project: ProjectId) -> Result<Vec<AuthoredNews>, RepoError>;

    /// One item. MUST return `NotFound` when no item of `project` has `id`.
    async fn get(&self, project: ProjectId, id: i64) -> Result<AuthoredNews, RepoError>;

    /// Writes a new item saved by `admin`; returns its id. `NotFound` for an
    /// unknown project.
    async fn create(
        &self,
        project: ProjectId,
        terms: &NewsTerms,
        published_at: Option<DateTime<Utc>>,
        admin: UserId,
        now: DateTime<Utc>,
    ) -> Result<i64, RepoError>;

    /// Writes an item's terms and publication time. MUST return `NotFound`
    /// when no item of `project` has `id`. Never touches the item's mail.
    async fn update(
        &self,
        project: ProjectId,
        id: i64,
        terms: &NewsTerms,
        published_at: Option<DateTime<Utc>>,
        admin: UserId,
        now: DateTime<Utc>,
    ) -> Result<(), RepoError>;

    /// Deletes an item (a mail already queued still goes out). `NotFound`
    /// when no item of `project` has `id`.
    async fn delete(&self, project: ProjectId, id: i64) -> Result<(), RepoError>;

    /// Items whose mail is due at `now` (asked for, not queued, published at
    /// or before `now`), oldest publication first, at most `limit`.
    async fn mails_due(&self, now: DateTime<Utc>, limit: u32) -> Result<Vec<(ProjectId, i64)>, RepoError>;

    /// In ONE transaction, under the item's row lock: when its mail is still
    /// due at `now`, stores `mail` as a `project_news` mass mail from the
    /// operator who last saved the item, with one recipient row per account
    /// that may read the item in full (`domain::news::NewsAudience::admits`
    /// of their paid supports) and did not opt out (`mail_opt_outs`), a
    /// sending job of `job_kind`, and marks the item mailed. MUST return
    /// `Ok(None)` and change nothing when the mail is not due (already
    /// queued, not asked for, not public yet, or the item is gone), so a
    /// repeat never mails twice.
    async fn queue_mail(
        &self,
        id: i64,
        mail: &NewsMail,
        job_kind: &str,
        max_attempts: u32,
        now: DateTime<Utc>,
    ) -> Result<Option<CreatedMail>, RepoError>;
}

/// The operators' news screens and the mail sweep, as the HTTP layer and
/// the workers see them.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait ProjectNews: Send + Sync {
    /// Every item of a project, newest first; `NotFound` for an unknown project.
    async fn list(&self, project: ProjectId) -> Result<Vec<NewsAdminView>, AuthoringError>;
    /// A new item; mailed at once when asked for and published now.
    async fn create(&self, admin: UserId, project: ProjectId, form: NewsForm) -> Result<NewsAdminView, AuthoringError>;
    /// New terms; `NotFound` when the item is not the project's.
    async fn update(
        &self,
        admin: UserId,
        project: ProjectId,
        id: i64,
        form: NewsForm,
    ) -> Result<NewsAdminView, AuthoringError>;
    /// `NotFound` when the item is not the project's.
    async fn delete(&self, admin: UserId, project: ProjectId, id: i64) -> Result<(), AuthoringError>;
    /// Queues the mail of every item that became public since (scheduled
    /// ones); returns how many were queued. Any number of processes may run it.
    async fn mail_due(&self) -> Result<u32, RepoError>;
}

pub struct NewsAuthoring<R, A, C, H> {
    repo: R,
    audit: A,
    clock: C,
    html: H,
    /// The site's public origin, for the link to the project page.
    public_url: String,
    /// Called after a mail was queued, so a sender in this process starts at once.
    on_queued: Box<dyn Fn() + Send + Sync>,
}

impl<R, A, C, H> NewsAuthoring<R, A, C, H> {
    pub fn new(
        repo: R,
        audit: A,
        clock: C,
        html: H,
        public_url: String,
        on_queued: impl Fn() + Send + Sync + 'static,
    ) -> Self {
        Self { repo, audit, clock, html, public_url, on_queued: Box::new(on_queued) }
    }
}

fn news_fields(terms: &NewsTerms, published_at: Option<DateTime<Utc>>) -> Vec<(&'static str, Value)> {
    let returns: Vec<i64> = terms.audience.returns().iter().map(|r| r.0).collect();
    vec![
        ("title", json!(terms.title)),
        // The body can be long: the log keeps its size, not its text.
        ("bodyLength", json!(terms.body.chars().count())),
        ("audience", json!(terms.audience.code())),
        ("returnIds", json!(returns)),
        ("publishedAt", json!(published_at.map(|at| at.to_rfc3339()))),
        ("mailSupporters", json!(terms.mail_supporters)),
    ]
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

impl<R: ProjectNewsRepository, A: AuditLog, C: Clock, H: HtmlSanitizer> NewsAuthoring<R, A, C, H> {
    fn view(&self, news: AuthoredNews) -> NewsAdminView {
        NewsAdminView { state: NewsState::of(news.published_at, self.clock.now()), news }
    }

    fn checked(&self, form: NewsForm, project: &NewsProject) -> Result<NewsTerms, AuthoringError> {
        let terms = NewsTerms { body: self.html.sanitize(&form.terms.body), ..form.terms };
        check_news(terms, &project.returns).map_err(AuthoringError::Invalid)
    }

    async fn record(
        &self,
        admin: UserId,
        kind: AdminActionKind,
        project: (ProjectId, &str),
        mut detail: Value,
    ) -> Result<(), AuthoringError> {
        if let Value::Object(fields) = &mut detail {
            fields.insert("projectTitle".into(), json!(project.1));
        }
        let action = NewAdminAction { project_id: Some(project.0), detail, ..NewAdminAction::new(admin, kind) };
        self.audit.record(action).await?;
        Ok(())
    }

    /// The mail of an item: its title and body, and the way to the project page.
    fn compose(&self, project: &NewsProject, news: &AuthoredNews) -> NewsMail {
        let url = format!("{}/projects/{}/", self.public_url, project.slug);
        let content = format!(
            "<p>「{}」の活動報告です。</p><h2>{}</h2>{}<p><a href=\"{}\">プロジェクトのページを見る</a></p>",
            escape(&project.title),
            escape(&news.terms.title),
            self.html.sanitize(&news.terms.body),
            escape(&url),
        );
        NewsMail { subject: format!("【活動報告】{}", news.terms.title), content }
    }

    /// Queues the item's mail if it is due now; logs `mail_sent` when it was.
    async fn mail_if_due(&self, project: ProjectId, id: i64) -> Result<bool, RepoError> {
        let now = self.clock.now();
        let news = match self.repo.get(project, id).await {
            Ok(news) => news,
            Err(RepoError::NotFound) => return Ok(false),
            Err(e) => return Err(e),
        };
        if !domain::news::mail_due(news.terms.mail_supporters, news.mail_id.is_some(), news.published_at, now) {
            return Ok(false);
        }
        let owner = self.repo.project(project).await?;
        let mail = self.compose(&owner, &news);
        let Some(created) = self.repo.queue_mail(id, &mail, SEND_MASS_MAIL, MASS_MAIL_MAX_ATTEMPTS, now).await? else {
            return Ok(false);
        };
        (self.on_queued)();
        tracing::info!(mail = created.id, news = id, recipients = created.emails.len(), "news mail queued");
        // The mail is queued either way; the log names the item's last editor, who is its sender.
        if let Some(actor) = news.updated_by {
            let mut action = NewAdminAction::new(actor, AdminActionKind::MailSent);
            action.mail_id = Some(created.id);
            action.project_id = Some(project);
            action.detail = json!({
                "recipients": created.emails.len(),
                "segment": "project_news",
                "newsId": id,
                "projectTitle": owner.title,
            });
            if let Err(e) = self.audit.record(action).await {
                tracing::error!(mail = created.id, error = %e, "news mail queued but not written to the audit log");
            }
        }
        Ok(true)
    }
}

#[async_trait::async_trait]
impl<R: ProjectNewsRepository, A: AuditLog, C: Clock, H: HtmlSanitizer> ProjectNews for NewsAuthoring<R, A, C, H> {
    async fn list(&self, project: ProjectId) -> Result<Vec<NewsAdminView>, AuthoringError> {
        self.repo.project(project).await?;
        Ok(self.repo.list(project).await?.into_iter().map(|news| self.view(news)).collect())
    }

    async fn create(&self, admin: UserId, project: ProjectId, form: NewsForm) -> Result<NewsAdminView, AuthoringError> {
        let owner = self.repo.project(project).await?;
        let now = self.clock.now();
        let published_at = publication_time(form.publish, form.publish_at, None, now);
        let terms = self.checked(form, &owner)?;
        let id = self.repo.create(project, &terms, published_at, admin, now).await?;
        let after = news_fields(&terms, published_at);
        let detail = json!({"newsId": id, "title": terms.title, "changes": changes(None, &after)});
        self.record(admin, AdminActionKind::NewsCreated, (project, &owner.title), detail).await?;
        self.mail_if_due(project, id).await?;
        Ok(self.view(self.repo.get(project, id).await?))
    }

    async fn update(
        &self,
        admin: UserId,
        project: ProjectId,
        id: i64,
        form: NewsForm,
    ) -> Result<NewsAdminView, AuthoringError> {
        let owner = self.repo.project(project).await?;
        let current = self.repo.get(project, id).await?;
        let now = self.clock.now();
        let published_at = publication_time(form.publish, form.publish_at, current.published_at, now);
        let terms = self.checked(form, &owner)?;
        self.repo.update(project, id, &terms, published_at, admin, now).await?;
        let detail = json!({
            "newsId": id,
            "title": terms.title,
            "changes": changes(Some(&news_fields(&current.terms, current.published_at)), &news_fields(&terms, published_at)),
        });
        self.record(admin, AdminActionKind::NewsUpdated, (project, &owner.title), detail).await?;
        self.mail_if_due(project, id).await?;
        Ok(self.view(self.repo.get(project, id).await?))
    }

    async fn delete(&self, admin: UserId, project: ProjectId, id: i64) -> Result<(), AuthoringError> {
        let owner = self.repo.project(project).await?;
        let current = self.repo.get(project, id).await?;
        self.repo.delete(project, id).await?;
        let detail = json!({"newsId": id, "title": current.terms.title});
        self.record(admin, AdminActionKind::NewsDeleted, (project, &owner.title), detail).await
    }

    async fn mail_due(&self) -> Result<u32, RepoError> {
        let mut queued = 0;
        for (project, id) in self.repo.mails_due(self.clock.now(), MAILS_PER_SWEEP).await? {
            if self.mail_if_due(project, id).await? {
                queued += 1;
            }
        }
        Ok(queued)
    }
}

#[cfg(test)]
#[path = "news_tests.rs"]
mod tests;
