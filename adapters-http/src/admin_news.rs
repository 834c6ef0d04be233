//! The operators' news (活動報告) of a project (`/v1/admin/projects/{id}/news...`):
//! list, write, schedule, publish, edit and delete. Mounted in the project
//! screens' scope, so only administrators reach them (anyone else: 404).

use actix_web::web::{self, Json};
use actix_web::{get, post};
use chrono::{DateTime, Utc};
use domain::ids::{ProjectId, ReturnId};
use domain::news::{NewsAudience, NewsState, NewsTerms};
use ports::admin::news::{NewsAdminView, NewsForm, ProjectNews};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::admin::iso;
use crate::admin_projects::ProjectPath;
use crate::auth::AdminUser;
use crate::{ApiError, ErrorBody};

/// `draft`, `scheduled` (public from `publishedAt` on) or `published`.
#[derive(Debug, Clone, Copy, Serialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub(crate) enum NewsStateDto {
    Draft,
    Scheduled,
    Published,
}

impl From<NewsState> for NewsStateDto {
    fn from(state: NewsState) -> Self {
        match state {
            NewsState::Draft => Self::Draft,
            NewsState::Scheduled => Self::Scheduled,
            NewsState::Published => Self::Published,
        }
    }
}

/// `public`: everyone reads it; `supporters`: only supporters of the project
/// (of `returnIds` when not empty) read the body, others see a locked teaser.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub(crate) enum NewsAudienceDto {
    Public,
    Supporters,
}

/// A news item as the operator edits it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AdminNewsDto {
    id: i64,
    project_id: i64,
    title: String,
    /// Sanitised HTML.
    body: String,
    audience: NewsAudienceDto,
    return_ids: Vec<i64>,
    state: NewsStateDto,
    /// ISO 8601, Tokyo time; null for a draft.
    #[schema(required = true)]
    published_at: Option<String>,
    mail_supporters: bool,
    /// When its mail was queued; null: not mailed (yet).
    #[schema(required = true)]
    mail_queued_at: Option<String>,
    /// The mail in the sent-mail list (`/admin/mail/{id}`), once queued.
    #[schema(required = true)]
    mail_id: Option<i64>,
    updated_at: String,
}

impl From<NewsAdminView> for AdminNewsDto {
    fn from(view: NewsAdminView) -> Self {
        let news = view.news;
        Self {
            id: news.id,
            project_id: news.project_id.get(),
            return_ids: news.terms.audience.returns().iter().map(|r| r.0).collect(),
            audience: match news.terms.audience {
                NewsAudience::Public => NewsAudienceDto::Public,
                NewsAudience::Supporters { .. } => NewsAudienceDto::Supporters,
            },
            title: news.terms.title,
            body: news.terms.body,
            state: view.state.into(),
            published_at: news.published_at.map(iso),
            mail_supporters: news.terms.mail_supporters,
            mail_queued_at: news.mail_queued_at.map(iso),
            mail_id: news.mail_id,
            updated_at: iso(news.updated_at),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct AdminNewsListResponse {
    news: Vec<AdminNewsDto>,
}

/// A news item as the form sends it (create and update send every field).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct NewsInput {
    #[schema(max_length = 100)]
    title: String,
    /// HTML from the rich-text editor; sanitised on the server.
    #[schema(max_length = 100000)]
    body: String,
    audience: NewsAudienceDto,
    /// Only with `supporters`: the returns whose supporters may read it; empty = every supporter.
    #[serde(default)]
    #[schema(max_items = 100)]
    return_ids: Vec<i64>,
    /// False: a draft (a published item becomes one again).
    publish: bool,
    /// With `publish`: a future instant schedules it; null or past: now (an item already public keeps its time).
    #[serde(default)]
    #[schema(value_type = Option<String>, format = DateTime)]
    publish_at: Option<DateTime<Utc>>,
    /// 支援者にメールで知らせる: mailed once, when it is public, to those who may read it and did not opt out.
    mail_supporters: bool,
}

const MSG_PUBLIC_WITH_RETURNS: &str = domain::news::MSG_PUBLIC_WITH_RETURNS;

impl NewsInput {
    fn into_form(self) -> Result<NewsForm, ApiError> {
        let audience = match self.audience {
            NewsAudienceDto::Public if !self.return_ids.is_empty() => {
                return Err(ApiError::fields([("returnIds".to_string(), MSG_PUBLIC_WITH_RETURNS.to_string())]));
            }
            NewsAudienceDto::Public => NewsAudience::Public,
            NewsAudienceDto::Supporters => {
                NewsAudience::Supporters { returns: self.return_ids.into_iter().map(ReturnId).collect() }
            }
        };
        Ok(NewsForm {
            terms: NewsTerms { title: self.title, body: self.body, audience, mail_supporters: self.mail_supporters },
            publish: self.publish,
            publish_at: self.publish_at,
        })
    }
}

#[derive(Debug, Deserialize, IntoParams)]
pub(crate) struct NewsPath {
    /// The project.
    id: i64,
    /// The news item.
    news_id: i64,
}

/// Every news item of a project (drafts and scheduled ones too), newest first.
#[utoipa::path(
    tag = "admin",
    params(ProjectPath),
    responses(
        (status = 200, description = "The news", body = AdminNewsListResponse),
        (status = 400, description = "`malformed_request`: an id that is not a number", body = ErrorBody),
        (status = 404, description = "`not_found`: unknown project, or not an administrator", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[get("/{id}/news")]
pub(crate) async fn list_news(
    _admin: AdminUser,
    news: web::Data<dyn ProjectNews>,
    path: web::Path<ProjectPath>,
) -> Result<Json<AdminNewsListResponse>, ApiError> {
    let list = news.list(ProjectId(path.id)).await?;
    Ok(Json(AdminNewsListResponse { news: list.into_iter().map(Into::into).collect() }))
}

/// A new news item: a draft, published now, or scheduled (audit log: `news_created`; with the mail box ticked and
/// published now, its mail is queued at once: `mail_sent`).
#[utoipa::path(
    tag = "admin",
    params(ProjectPath),
    request_body = NewsInput,
    responses(
        (status = 200, description = "The item", body = AdminNewsDto),
        (status = 400, description = "`validation_failed` with every refused field (`errors`), e.g. \
            'タイトルを入力してください。'; `malformed_request`", body = ErrorBody),
        (status = 404, description = "`not_found`: unknown project, or not an administrator", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[post("/{id}/news")]
pub(crate) async fn create_news(
    admin: AdminUser,
    news: web::Data<dyn ProjectNews>,
    path: web::Path<ProjectPath>,
    body: Result<Json<NewsInput>, actix_web::Error>,
) -> Result<Json<AdminNewsDto>, actix_web::Error> {
    let form = body?.into_inner().into_form()?;
    let view = news.create(admin.0.id, ProjectId(path.id), form).await.map_err(ApiError::from)?;
    Ok(Json(view.into()))
}

/// New terms of a news item (audit log: `news_updated` with what changed). Its mail goes once at most.
#[utoipa::path(
    tag = "admin",
    params(NewsPath),
    request_body = NewsInput,
    responses(
        (status = 200, description = "The item", body = AdminNewsDto),
        (status = 400, description = "`validation_failed` with every refused field (`errors`); \
            `malformed_request`", body = ErrorBody),
        (status = 404, description = "`not_found`: unknown project or item, or not an administrator", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[post("/{id}/news/{news_id}")]
pub(crate) async fn update_news(
    admin: AdminUser,
    news: web::Data<dyn ProjectNews>,
    path: web::Path<NewsPath>,
    body: Result<Json<NewsInput>, actix_web::Error>,
) -> Result<Json<AdminNewsDto>, actix_web::Error> {
    let form = body?.into_inner().into_form()?;
    let view = news.update(admin.0.id, ProjectId(path.id), path.news_id, form).await.map_err(ApiError::from)?;
    Ok(Json(view.into()))
}

/// Deletes a news item (audit log: `news_deleted`); answers the project's remaining news.
#[utoipa::path(
    tag = "admin",
    params(NewsPath),
    responses(
        (status = 200, description = "The remaining news", body = AdminNewsListResponse),
        (status = 400, description = "`malformed_request`: an id that is not a number", body = ErrorBody),
        (status = 404, description = "`not_found`: unknown project or item, or not an administrator", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[post("/{id}/news/{news_id}/delete")]
pub(crate) async fn delete_news(
    admin: AdminUser,
    news: web::Data<dyn ProjectNews>,
    path: web::Path<NewsPath>,
) -> Result<Json<AdminNewsListResponse>, ApiError> {
    let project = ProjectId(path.id);
    news.delete(admin.0.id, project, path.news_id).await?;
    let list = news.list(project).await?;
    Ok(Json(AdminNewsListResponse { news: list.into_iter().map(Into::into).collect() }))
}
