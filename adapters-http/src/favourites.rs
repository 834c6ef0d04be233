//! My page's following: `/v1/user/favourites` (projects the member keeps, お気に入り) and `/v1/user/supports`
//! (the projects the member supports, one line each). Always the caller's own: no id of a member is read.

use actix_web::http::StatusCode;
use actix_web::web::{self, Json};
use actix_web::{get, post};
use domain::closing::CampaignState;
use domain::ids::ProjectId;
use ports::following::{FavouriteCard, Following, FollowingError, SupportedProject, FAVOURITES_LIMIT};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::admin::iso;
use crate::auth::AuthUser;
use crate::project::ProjectCardDto;
use crate::{ApiError, ErrorBody};

pub(crate) fn config(cfg: &mut ServiceConfig) {
    cfg.service(
        utoipa_actix_web::scope("/user/favourites")
            .app_data(crate::error::path_config())
            .default_service(web::to(crate::error::not_found))
            .service(favourites)
            .service(keep)
            .service(remove),
    );
    cfg.service(supports);
}

impl From<FollowingError> for ApiError {
    fn from(error: FollowingError) -> Self {
        match error {
            FollowingError::NotFound => Self::NotFound,
            FollowingError::Full => Self::refused(StatusCode::CONFLICT, "favourites_full", error.to_string()),
            FollowingError::Unexpected(e) => Self::internal(e.as_ref()),
        }
    }
}

/// Where a project stands: `open` 募集中, `ended` 終了 (not decided yet), `succeeded` 成立, `failed` 不成立.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum CampaignStateDto {
    Open,
    Ended,
    Succeeded,
    Failed,
}

impl From<CampaignState> for CampaignStateDto {
    fn from(state: CampaignState) -> Self {
        match state {
            CampaignState::Open => Self::Open,
            CampaignState::Ended => Self::Ended,
            CampaignState::Succeeded => Self::Succeeded,
            CampaignState::Failed => Self::Failed,
        }
    }
}

/// A kept project: its card, where it stands and since when it is kept.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct FavouriteDto {
    project: ProjectCardDto,
    state: CampaignStateDto,
    /// 募集中, 終了, 成立 or 不成立.
    #[schema(example = "募集中")]
    state_label: String,
    /// ISO 8601, Tokyo time.
    kept_at: String,
}

impl From<FavouriteCard> for FavouriteDto {
    fn from(f: FavouriteCard) -> Self {
        Self {
            project: f.card.into(),
            state: f.state.into(),
            state_label: f.state.label().to_string(),
            kept_at: iso(f.kept_at),
        }
    }
}

/// The caller's kept projects, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct FavouritesResponse {
    favourites: Vec<FavouriteDto>,
    /// The most projects a member keeps.
    #[schema(example = 500)]
    limit: i64,
}

#[derive(Debug, Deserialize, IntoParams)]
pub(crate) struct ProjectPath {
    /// The project's id.
    id: i64,
}

/// Whether the project is kept now.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct KeptResponse {
    kept: bool,
}

/// The caller's kept projects (お気に入り), newest first, with their cards and state.
///
/// Only public projects are listed: one that becomes a draft again (or is removed) drops out.
#[utoipa::path(
    tag = "my page",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The kept projects", body = FavouritesResponse),
        (status = 401, description = "`unauthorized`", body = ErrorBody),
    )
)]
#[get("")]
async fn favourites(user: AuthUser, following: web::Data<dyn Following>) -> Result<Json<FavouritesResponse>, ApiError> {
    let list = following.favourites(user.0.id).await?;
    Ok(Json(FavouritesResponse { favourites: list.into_iter().map(Into::into).collect(), limit: FAVOURITES_LIMIT }))
}

/// Keeps a public project (お気に入りに追加). Idempotent.
#[utoipa::path(
    tag = "my page",
    params(ProjectPath),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Kept", body = KeptResponse),
        (status = 400, description = "`malformed_request`: an id that is not a number", body = ErrorBody),
        (status = 401, description = "`unauthorized`", body = ErrorBody),
        (status = 404, description = "`not_found`: no public project has the id (drafts and scheduled ones \
            included)", body = ErrorBody),
        (status = 409, description = "`favourites_full`: 'お気に入りは500件まで登録できます。ほかのプロジェクトを外してから\
            追加してください。'", body = ErrorBody),
    )
)]
#[post("/{id}")]
async fn keep(
    user: AuthUser,
    following: web::Data<dyn Following>,
    path: web::Path<ProjectPath>,
) -> Result<Json<KeptResponse>, ApiError> {
    following.keep(user.0.id, ProjectId(path.id)).await?;
    Ok(Json(KeptResponse { kept: true }))
}

/// Stops keeping a public project (お気に入りから外す). Idempotent.
#[utoipa::path(
    tag = "my page",
    params(ProjectPath),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Not kept", body = KeptResponse),
        (status = 400, description = "`malformed_request`: an id that is not a number", body = ErrorBody),
        (status = 401, description = "`unauthorized`", body = ErrorBody),
        (status = 404, description = "`not_found`: no public project has the id", body = ErrorBody),
    )
)]
#[post("/{id}/delete")]
async fn remove(
    user: AuthUser,
    following: web::Data<dyn Following>,
    path: web::Path<ProjectPath>,
) -> Result<Json<KeptResponse>, ApiError> {
    following.remove(user.0.id, ProjectId(path.id)).await?;
    Ok(Json(KeptResponse { kept: false }))
}

/// A return the caller supports in the project, its paid lots together.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct SupportedReturnDto {
    title: String,
    lots: i64,
}

/// One project the caller supports: every paid sale of it on one line.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SupportedProjectDto {
    /// Null when the project is no longer public (listed without a link).
    #[schema(required = true)]
    project_id: Option<i64>,
    slug: String,
    title: String,
    /// Null when the project is no longer public.
    #[schema(required = true)]
    state: Option<CampaignStateDto>,
    /// 募集中, 終了, 成立 or 不成立; null when the project is no longer public.
    #[schema(required = true)]
    state_label: Option<String>,
    /// In the order first supported.
    returns: Vec<SupportedReturnDto>,
    /// The paid sales, newest first: each has a receipt at `/v1/user/receipts/{sale_id}`.
    sale_ids: Vec<i64>,
    /// Paid, tax included.
    paid: i64,
    /// Paid back of that.
    refunded: i64,
    /// ISO 8601, Tokyo time.
    last_supported_at: String,
}

impl From<SupportedProject> for SupportedProjectDto {
    fn from(p: SupportedProject) -> Self {
        Self {
            project_id: p.project.map(ProjectId::get),
            slug: p.slug,
            title: p.title,
            state: p.state.map(Into::into),
            state_label: p.state.map(|s| s.label().to_string()),
            returns: p.returns.into_iter().map(|r| SupportedReturnDto { title: r.title, lots: r.lots }).collect(),
            sale_ids: p.sales.into_iter().map(|s| s.get()).collect(),
            paid: p.paid.0,
            refunded: p.refunded.0,
            last_supported_at: iso(p.last_supported_at),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct SupportsResponse {
    projects: Vec<SupportedProjectDto>,
}

/// The projects the caller supports (支援したプロジェクト): one line per project from the paid sales, the latest
/// support first.
#[utoipa::path(
    tag = "my page",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The supported projects", body = SupportsResponse),
        (status = 401, description = "`unauthorized`", body = ErrorBody),
    )
)]
#[get("/user/supports")]
async fn supports(user: AuthUser, following: web::Data<dyn Following>) -> Result<Json<SupportsResponse>, ApiError> {
    let list = following.supported(user.0.id).await?;
    Ok(Json(SupportsResponse { projects: list.into_iter().map(Into::into).collect() }))
}

#[cfg(test)]
mod tests {
    use actix_web::test as web_test;

    use super::*;
    use crate::test_support::Mocks;

    #[actix_web::test]
    async fn a_full_list_is_a_409_with_the_japanese_message() {
        let mut mocks = Mocks::default();
        mocks.sessions.expect_authenticate().returning(|_| {
            Ok(ports::accounts::SessionUser {
                id: domain::ids::UserId(3),
                email: domain::account::Email::parse("m@example.jp").unwrap(),
                is_admin: false,
            })
        });
        mocks.following.expect_keep().returning(|_, _| Err(FollowingError::Full));
        let app =
            web_test::init_service(actix_web::App::new().configure(crate::configure(mocks.into_services()))).await;

        let req = web_test::TestRequest::post()
            .uri("/v1/user/favourites/5")
            .insert_header(("authorization", "Bearer t"))
            .to_request();
        let resp = web_test::call_service(&app, req).await;

        assert_eq!(resp.status(), 409);
        let body: serde_json::Value = web_test::read_body_json(resp).await;
        assert_eq!(body["error"], "favourites_full");
        assert!(body["message"].as_str().unwrap().contains("500件まで"));
    }
}
