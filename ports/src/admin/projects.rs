//! Operators author projects: create a draft, edit it, add and order its
//! returns, publish it now or at a set time, and keep editing what the rules
//! of `domain::authoring` leave open once supporters rely on it. Every
//! change is written to the audit log with what changed from what to what.

use chrono::{DateTime, Utc};
use domain::authoring::{
    check_change, check_return, check_return_change, check_return_delete, check_terms, extensions_left,
    publish_problems, EndChange, FieldError, ProjectState, ProjectTerms, ReturnTerms, MSG_ALREADY_PUBLISHED,
    MSG_AREA_UNKNOWN, MSG_BACKED_DELETE, MSG_CATEGORY_UNKNOWN, MSG_NOT_SCHEDULED, MSG_SLUG_TAKEN,
};
use domain::ids::{ProjectId, ReturnId, UserId};
use domain::time::tokyo_date;
use serde_json::{json, Value};

use super::audit::{changes, AdminActionKind, AuditLog, NewAdminAction};
use crate::catalog::PaidSum;
use crate::clock::Clock;
use crate::html::HtmlSanitizer;
use crate::RepoError;

/// Shown when a write met another operator's (or a supporter's) change to
/// the same record: the form is read again and nothing was saved.
pub const MSG_CHANGED_MEANWHILE: &str =
    "保存する間に支援や他の変更がありました。画面を読み込み直して、もう一度お試しください。";

/// A project as the list shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectSummaryRecord {
    pub id: ProjectId,
    pub slug: String,
    pub title: String,
    pub published_at: Option<DateTime<Utc>>,
    pub period_end: chrono::NaiveDate,
    pub goal: domain::money::Yen,
    pub raised: PaidSum,
    pub returns: i64,
}

/// A return as its project's operator edits it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthoredReturn {
    pub id: ReturnId,
    pub slug: String,
    pub position: i32,
    pub terms: ReturnTerms,
    /// Lots held by live supports; above zero the return is backed.
    pub lots_taken: i32,
}

/// A project as its operator edits it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthoredProject {
    pub id: ProjectId,
    pub terms: ProjectTerms,
    pub published_at: Option<DateTime<Utc>>,
    pub end_extensions: u8,
    pub raised: PaidSum,
    /// In position order.
    pub returns: Vec<AuthoredReturn>,
}

/// A project with what the screen derives from it now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectView {
    pub project: AuthoredProject,
    pub state: ProjectState,
    pub extensions_left: u8,
}

/// A list row with its state and what needs attention.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectSummary {
    pub record: ProjectSummaryRecord,
    pub state: ProjectState,
    /// Japanese phrases (empty when nothing needs attention).
    pub attention: Vec<String>,
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait ProjectAuthoringRepository: Send + Sync {
    /// Every project, newest first, with its running totals and number of
    /// returns (empty when there is none).
    async fn summaries(&self) -> Result<Vec<ProjectSummaryRecord>, RepoError>;

    /// One project with its returns in position order. MUST return
    /// `NotFound` for an unknown id.
    async fn project(&self, id: ProjectId) -> Result<AuthoredProject, RepoError>;

    /// Writes a new draft and returns its id. MUST return
    /// `Conflict("projects_slug_key")` when the slug is taken, by a project
    /// or as another project's former address.
    async fn create(&self, terms: &ProjectTerms, now: DateTime<Utc>) -> Result<ProjectId, RepoError>;

    /// Writes `next` over `current`, counting one more end extension when
    /// `extended`. MUST write nothing and return `Conflict("project_changed")`
    /// when the stored project no longer has `current`'s locked terms
    /// (slug, goal, funding model, tax) while published, or already used
    /// its extensions; `Conflict("projects_slug_key")` for a taken slug (as
    /// for `create`); `NotFound` for an unknown id. A published project
    /// whose slug changes MUST keep the old one as a redirect to it, and
    /// taking back a former slug ends that redirect.
    async fn update(
        &self,
        id: ProjectId,
        current: &ProjectTerms,
        next: &ProjectTerms,
        extended: bool,
        now: DateTime<Utc>,
    ) -> Result<(), RepoError>;

    /// Sets the publication time of a draft. MUST return
    /// `Conflict("project_published")` when it is already published or
    /// scheduled, `NotFound` for an unknown id.
    async fn publish(&self, id: ProjectId, at: DateTime<Utc>, now: DateTime<Utc>) -> Result<(), RepoError>;

    /// Takes a scheduled publication back (the project is a draft again).
    /// MUST change nothing and return `Conflict("project_not_scheduled")`
    /// unless the publication is still in the future at `now` (a published
    /// project never returns to draft); `NotFound` for an unknown id.
    async fn unschedule(&self, id: ProjectId, now: DateTime<Utc>) -> Result<(), RepoError>;

    /// Adds a return at the end of the project's order; returns its id.
    /// `NotFound` for an unknown project.
    async fn add_return(
        &self,
        project: ProjectId,
        terms: &ReturnTerms,
        now: DateTime<Utc>,
    ) -> Result<ReturnId, RepoError>;

    /// Writes a return's terms. MUST write nothing and return
    /// `Conflict("return_changed")` when the return became backed with
    /// another price, type or interval than `current`'s, and `Constraint` when its
    /// stock would drop below what is taken; `NotFound` when the return is
    /// not the project's.
    async fn update_return(
        &self,
        project: ProjectId,
        ret: ReturnId,
        current: &ReturnTerms,
        next: &ReturnTerms,
        now: DateTime<Utc>,
    ) -> Result<(), RepoError>;

    /// Deletes a return nobody holds or bought. MUST return
    /// `Conflict("return_backed")` when it is backed (or any sale names it),
    /// `NotFound` when it is not the project's.
    async fn delete_return(&self, project: ProjectId, ret: ReturnId) -> Result<(), RepoError>;

    /// Puts the project's returns in the given order (every one of its
    /// returns exactly once, or `Conflict("return_order")`).
    async fn reorder_returns(&self, project: ProjectId, order: &[ReturnId]) -> Result<(), RepoError>;
}

#[derive(Debug, thiserror::Error)]
pub enum AuthoringError {
    #[error("not found")]
    NotFound,
    /// Refused fields, in form order; the first one's message leads.
    #[error("{}", .0.first().map_or("", |e| e.message.as_str()))]
    Invalid(Vec<FieldError>),
    #[error(transparent)]
    Repo(RepoError),
}

impl From<RepoError> for AuthoringError {
    fn from(error: RepoError) -> Self {
        match error {
            RepoError::NotFound => Self::NotFound,
            RepoError::Conflict(name) if name == "projects_slug_key" => Self::invalid("slug", MSG_SLUG_TAKEN),
            RepoError::Conflict(name) if name == "project_published" => Self::invalid("state", MSG_ALREADY_PUBLISHED),
            RepoError::Conflict(name) if name == "project_not_scheduled" => Self::invalid("state", MSG_NOT_SCHEDULED),
            RepoError::Conflict(name) if name == "return_backed" => Self::invalid("returns", MSG_BACKED_DELETE),
            RepoError::Conflict(_) => Self::invalid("form", MSG_CHANGED_MEANWHILE),
            // The area or category was removed from the list while the form was open (or never was on it).
            RepoError::Constraint(violation) if violation.name == "projects_area_id_fkey" => {
                Self::invalid("areaId", MSG_AREA_UNKNOWN)
            }
            RepoError::Constraint(violation) if violation.name == "projects_category_id_fkey" => {
                Self::invalid("categoryId", MSG_CATEGORY_UNKNOWN)
            }
            // A support took lots between the check and the write.
            RepoError::Constraint(violation) if violation.name == "returns_lots_taken_within_stock_limit" => {
                Self::invalid("stockLimit", MSG_CHANGED_MEANWHILE)
            }
            other => Self::Repo(other),
        }
    }
}

impl AuthoringError {
    fn invalid(field: &'static str, message: &str) -> Self {
        Self::Invalid(vec![FieldError { field, message: message.to_string() }])
    }
}

fn project_fields(terms: &ProjectTerms) -> Vec<(&'static str, Value)> {
    vec![
        ("slug", json!(terms.slug)),
        ("title", json!(terms.title)),
        ("lead", json!(terms.lead)),
        // The story can be long: the log keeps its size, not its text.
        ("storyLength", json!(terms.story.chars().count())),
        ("goal", json!(terms.goal.0)),
        ("periodEnd", json!(terms.period_end.to_string())),
        ("fundingModel", json!(terms.funding_model.code())),
        ("taxHandling", json!(terms.tax.code())),
        ("acceptsCard", json!(terms.accepts_card)),
        ("acceptsBankTransfer", json!(terms.accepts_bank_transfer)),
        ("acceptsKonbini", json!(terms.accepts_konbini)),
        ("areaId", json!(terms.area_id)),
        ("categoryId", json!(terms.category_id)),
        ("ownerEmail", json!(terms.owner_email)),
        ("donationPayoutDate", json!(terms.donation_payout_date.map(|d| d.to_string()))),
    ]
}

fn return_fields(terms: &ReturnTerms) -> Vec<(&'static str, Value)> {
    vec![
        ("title", json!(terms.title)),
        ("description", json!(terms.description)),
        ("price", json!(terms.price.0)),
        ("returnType", json!(terms.return_type.code())),
        ("stockLimit", json!(terms.stock_limit)),
        ("lotFixed", json!(terms.lot_fixed)),
        ("addressRequired", json!(terms.address_required)),
        ("addressLabel", json!(terms.address_label)),
        ("disabled", json!(terms.disabled)),
        ("disabledComment", json!(terms.disabled_comment)),
        ("hidden", json!(terms.hidden)),
        ("deliveryMonth", json!(terms.delivery_month.map(|d| d.format("%Y-%m").to_string()))),
        ("monthly", json!(terms.monthly)),
        ("course", json!(terms.course)),
        ("onlyFor", json!(terms.only_for)),
    ]
}

/// The use cases of the operator's project screens.
pub struct ProjectAuthoring<R, A, C, H> {
    repo: R,
    audit: A,
    clock: C,
    html: H,
}

impl<R: ProjectAuthoringRepository, A: AuditLog, C: Clock, H: HtmlSanitizer> ProjectAuthoring<R, A, C, H> {
    pub fn new(repo: R, audit: A, clock: C, html: H) -> Self {
        Self { repo, audit, clock, html }
    }

    fn view(&self, project: AuthoredProject) -> ProjectView {
        let now = self.clock.now();
        let state = ProjectState::of(project.published_at, project.terms.period_end, now, tokyo_date(now));
        ProjectView { extensions_left: extensions_left(state, project.end_extensions), state, project }
    }

    /// Logs an action on `project`, named by its title so the log reads by name.
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
}

/// The operators' project screens' use cases, as the HTTP layer sees them.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait Projects: Send + Sync {
    /// Every project, newest first, optionally of one state.
    async fn list(&self, only: Option<ProjectState>) -> Result<Vec<ProjectSummary>, AuthoringError>;
    /// One project; `NotFound` for an unknown id.
    async fn get(&self, id: ProjectId) -> Result<ProjectView, AuthoringError>;
    /// A new draft; `Invalid` with every refused field.
    async fn create(&self, admin: UserId, terms: ProjectTerms) -> Result<ProjectView, AuthoringError>;
    /// New terms within the rules of `domain::authoring` (locked once published).
    async fn update(&self, admin: UserId, id: ProjectId, next: ProjectTerms) -> Result<ProjectView, AuthoringError>;
    /// Publishes a draft now (`at` None or past) or at `at`.
    async fn publish(
        &self,
        admin: UserId,
        id: ProjectId,
        at: Option<DateTime<Utc>>,
    ) -> Result<ProjectView, AuthoringError>;
    /// Takes a scheduled publication back; refused once the project is public.
    async fn unschedule(&self, admin: UserId, id: ProjectId) -> Result<ProjectView, AuthoringError>;
    async fn add_return(
        &self,
        admin: UserId,
        project: ProjectId,
        terms: ReturnTerms,
    ) -> Result<ProjectView, AuthoringError>;
    /// A backed return keeps its price and type; `NotFound` when it is not the project's.
    async fn update_return(
        &self,
        admin: UserId,
        project: ProjectId,
        ret: ReturnId,
        next: ReturnTerms,
    ) -> Result<ProjectView, AuthoringError>;
    /// Only a return nobody holds or bought.
    async fn delete_return(
        &self,
        admin: UserId,
        project: ProjectId,
        ret: ReturnId,
    ) -> Result<ProjectView, AuthoringError>;
    /// Every return of the project exactly once, in the new order.
    async fn reorder_returns(
        &self,
        admin: UserId,
        project: ProjectId,
        order: Vec<ReturnId>,
    ) -> Result<ProjectView, AuthoringError>;
}

#[async_trait::async_trait]
impl<R: ProjectAuthoringRepository, A: AuditLog, C: Clock, H: HtmlSanitizer> Projects for ProjectAuthoring<R, A, C, H> {
    /// Every project, newest first, optionally of one state.
    async fn list(&self, only: Option<ProjectState>) -> Result<Vec<ProjectSummary>, AuthoringError> {
        let now = self.clock.now();
        let today = tokyo_date(now);
        Ok(self
            .repo
            .summaries()
            .await?
            .into_iter()
            .map(|record| {
                let state = ProjectState::of(record.published_at, record.period_end, now, today);
                let mut attention = Vec::new();
                if record.returns == 0 {
                    attention.push("リターンがありません".to_string());
                }
                let days = (record.period_end - today).num_days();
                if state == ProjectState::Open && days <= 7 {
                    attention.push(if days == 0 {
                        "本日終了".to_string()
                    } else {
                        format!("終了まであと{days}日")
                    });
                }
                ProjectSummary { record, state, attention }
            })
            .filter(|summary| only.is_none_or(|state| summary.state == state))
            .collect())
    }

    async fn get(&self, id: ProjectId) -> Result<ProjectView, AuthoringError> {
        Ok(self.view(self.repo.project(id).await?))
    }

    /// A new draft.
    async fn create(&self, admin: UserId, terms: ProjectTerms) -> Result<ProjectView, AuthoringError> {
        let now = self.clock.now();
        let terms =
            check_terms(ProjectTerms { story: self.html.sanitize(&terms.story), ..terms }, false, tokyo_date(now))
                .map_err(AuthoringError::Invalid)?;
        let id = self.repo.create(&terms, now).await?;
        self.record(admin, AdminActionKind::ProjectCreated, (id, &terms.title), json!({"slug": terms.slug})).await?;
        self.get(id).await
    }

    async fn update(&self, admin: UserId, id: ProjectId, next: ProjectTerms) -> Result<ProjectView, AuthoringError> {
        let current = self.get(id).await?;
        let now = self.clock.now();
        let today = tokyo_date(now);
        let published = current.state.is_published();
        let next = check_terms(ProjectTerms { story: self.html.sanitize(&next.story), ..next }, published, today)
            .map_err(AuthoringError::Invalid)?;
        let end = check_change(&current.project.terms, &next, current.state, current.project.end_extensions, today)
            .map_err(AuthoringError::Invalid)?;
        self.repo.update(id, &current.project.terms, &next, end == EndChange::Extended && published, now).await?;
        let detail = json!({
            "changes": changes(Some(&project_fields(&current.project.terms)), &project_fields(&next)),
            "extended": end == EndChange::Extended && published,
        });
        self.record(admin, AdminActionKind::ProjectUpdated, (id, &next.title), detail).await?;
        self.get(id).await
    }

    /// Publishes a draft now (`at` None or past) or at `at`.
    async fn publish(
        &self,
        admin: UserId,
        id: ProjectId,
        at: Option<DateTime<Utc>>,
    ) -> Result<ProjectView, AuthoringError> {
        let current = self.get(id).await?;
        if current.state.is_published() {
            return Err(AuthoringError::invalid("state", MSG_ALREADY_PUBLISHED));
        }
        let now = self.clock.now();
        let at = at.filter(|at| *at > now).unwrap_or(now);
        let returns = current.project.returns.len();
        let problems = publish_problems(&current.project.terms, returns, tokyo_date(now), tokyo_date(at));
        if !problems.is_empty() {
            return Err(AuthoringError::Invalid(problems));
        }
        self.repo.publish(id, at, now).await?;
        let title = &current.project.terms.title;
        self.record(admin, AdminActionKind::ProjectPublished, (id, title), json!({"publishAt": at.to_rfc3339()}))
            .await?;
        self.get(id).await
    }

    async fn unschedule(&self, admin: UserId, id: ProjectId) -> Result<ProjectView, AuthoringError> {
        let current = self.get(id).await?;
        if current.state != ProjectState::Scheduled {
            return Err(AuthoringError::invalid("state", MSG_NOT_SCHEDULED));
        }
        self.repo.unschedule(id, self.clock.now()).await?;
        let title = &current.project.terms.title;
        self.record(admin, AdminActionKind::ProjectUnscheduled, (id, title), json!({})).await?;
        self.get(id).await
    }

    async fn add_return(
        &self,
        admin: UserId,
        project: ProjectId,
        terms: ReturnTerms,
    ) -> Result<ProjectView, AuthoringError> {
        let owner = self.repo.project(project).await?;
        let terms = check_return(terms, 0).map_err(AuthoringError::Invalid)?;
        let ret = self.repo.add_return(project, &terms, self.clock.now()).await?;
        let detail = json!({"returnId": ret.0, "title": terms.title});
        self.record(admin, AdminActionKind::ReturnCreated, (project, &owner.terms.title), detail).await?;
        self.get(project).await
    }

    async fn update_return(
        &self,
        admin: UserId,
        project: ProjectId,
        ret: ReturnId,
        next: ReturnTerms,
    ) -> Result<ProjectView, AuthoringError> {
        let current = self.get(project).await?;
        let stored = current.project.returns.iter().find(|r| r.id == ret).ok_or(AuthoringError::NotFound)?;
        let next = check_return(next, stored.lots_taken).map_err(AuthoringError::Invalid)?;
        check_return_change(&stored.terms, &next, stored.lots_taken).map_err(AuthoringError::Invalid)?;
        self.repo.update_return(project, ret, &stored.terms, &next, self.clock.now()).await?;
        let detail = json!({
            "returnId": ret.0,
            "title": next.title,
            "changes": changes(Some(&return_fields(&stored.terms)), &return_fields(&next)),
        });
        self.record(admin, AdminActionKind::ReturnUpdated, (project, &current.project.terms.title), detail).await?;
        self.get(project).await
    }

    async fn delete_return(
        &self,
        admin: UserId,
        project: ProjectId,
        ret: ReturnId,
    ) -> Result<ProjectView, AuthoringError> {
        let current = self.get(project).await?;
        let stored = current.project.returns.iter().find(|r| r.id == ret).ok_or(AuthoringError::NotFound)?;
        check_return_delete(stored.lots_taken).map_err(|e| AuthoringError::Invalid(vec![e]))?;
        self.repo.delete_return(project, ret).await?;
        let detail = json!({"returnId": ret.0, "title": stored.terms.title});
        self.record(admin, AdminActionKind::ReturnDeleted, (project, &current.project.terms.title), detail).await?;
        self.get(project).await
    }

    async fn reorder_returns(
        &self,
        admin: UserId,
        project: ProjectId,
        order: Vec<ReturnId>,
    ) -> Result<ProjectView, AuthoringError> {
        let owner = self.repo.project(project).await?;
        self.repo.reorder_returns(project, &order).await?;
        let ids: Vec<i64> = order.iter().map(|r| r.0).collect();
        self.record(admin, AdminActionKind::ReturnsReordered, (project, &owner.terms.title), json!({"returnIds": ids}))
            .await?;
        self.get(project).await
    }
}

#[cfg(test)]
#[path = "projects_tests.rs"]
mod tests;
