//! My page's following: `/v1/user/favourites` (projects the member keeps, お気に入り) and `/v1/user/supports`
//! (the projects the member supports, one line each). Always the caller's own: no id of a member is read.

use actix_web::web::{self, Json};
use actix_web::{get, post};
use domain::closing::CampaignState;
use domain::delivery::HeldLots;
use domain::ids::ProjectId;
use ports::following::{FavouriteCard, Following, SupportedProject, FAVOURITES_LIMIT};
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

/// Lots of a return in one delivery state: `unshipped` (未発送) or `shipped` (発送済み on `shippedOn`).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct HeldLotsDto {
    #[schema(inline)]
    state: HeldStateDto,
    /// 未発送 or 発送済み.
    label: String,
    /// The day it was shipped (YYYY-MM-DD); null while 未発送.
    #[schema(required = true, value_type = Option<String>, format = Date)]
    shipped_on: Option<chrono::NaiveDate>,
    lots: i64,
}

#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum HeldStateDto {
    Unshipped,
    Shipped,
}

impl From<HeldLots> for HeldLotsDto {
    fn from(held: HeldLots) -> Self {
        Self {
            state: if held.shipped_on.is_some() { HeldStateDto::Shipped } else { HeldStateDto::Unshipped },
            label: held.label().to_string(),
            shipped_on: held.shipped_on,
            lots: held.lots,
        }
    }
}

/// A return the caller holds in the project: the lots of its paid sales not refunded in full, and where they stand.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct SupportedReturnDto {
    title: String,
    lots: i64,
    /// One entry per shipping day (newest first), then 未発送; the lots of each add up to `lots`.
    deliveries: Vec<HeldLotsDto>,
}

/// The newest news item of the project that the caller may read in full (never a scheduled one).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct NewsHeadlineDto {
    id: i64,
    title: String,
    /// ISO 8601, Tokyo time.
    published_at: String,
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
    /// In the order first supported; a return whose every sale was refunded in full is left out.
    returns: Vec<SupportedReturnDto>,
    /// The paid sales, newest first: each has a receipt at `/v1/user/receipts/{sale_id}`.
    sale_ids: Vec<i64>,
    /// Paid, tax included.
    paid: i64,
    /// Paid back of that.
    refunded: i64,
    /// ISO 8601, Tokyo time.
    last_supported_at: String,
    /// Null when the caller may read none, or the project is no longer public.
    #[schema(required = true)]
    latest_news: Option<NewsHeadlineDto>,
}

impl From<SupportedProject> for SupportedProjectDto {
    fn from(p: SupportedProject) -> Self {
        Self {
            project_id: p.project.map(ProjectId::get),
            slug: p.slug,
            title: p.title,
            state: p.state.map(Into::into),
            state_label: p.state.map(|s| s.label().to_string()),
            returns: p
                .returns
                .into_iter()
                .map(|r| SupportedReturnDto {
                    title: r.title,
                    lots: r.lots,
                    deliveries: r.deliveries.into_iter().map(Into::into).collect(),
                })
                .collect(),
            sale_ids: p.sales.into_iter().map(|s| s.get()).collect(),
            paid: p.paid.0,
            refunded: p.refunded.0,
            last_supported_at: iso(p.last_supported_at),
            latest_news: p.latest_news.map(|n| NewsHeadlineDto {
                id: n.id,
                title: n.title,
                published_at: iso(n.published_at),
            }),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SupportsResponse {
    projects: Vec<SupportedProjectDto>,
    /// Supported projects on every page.
    total: u64,
    /// The page answered (the last one when a later page was asked for).
    page: u32,
    per_page: u32,
}

/// The highest page the list answers (20 projects a page).
const MAX_SUPPORTS_PAGE: u32 = 1_000;
const MSG_SUPPORTS_PAGE: &str = "pageには1から1000までの数を指定してください。";

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct SupportsQuery {
    /// From 1 (default), at most 1,000; 20 projects a page.
    #[param(minimum = 1, maximum = 1000)]
    page: Option<u32>,
}

/// The projects the caller supports (支援したプロジェクト): one line per project from the paid sales, the latest
/// support first, 20 a page, each with the returns held and their delivery state and the newest news item the
/// caller may read.
#[utoipa::path(
    tag = "my page",
    params(SupportsQuery),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "One page of the supported projects", body = SupportsResponse),
        (status = 400, description = "`malformed_request`: a page that is not a number; `validation_failed`: \
            `page` out of range", body = ErrorBody),
        (status = 401, description = "`unauthorized`", body = ErrorBody),
    )
)]
#[get("/user/supports")]
async fn supports(
    user: AuthUser,
    following: web::Data<dyn Following>,
    query: Result<web::Query<SupportsQuery>, actix_web::Error>,
) -> Result<Json<SupportsResponse>, actix_web::Error> {
    let page = query?.page.unwrap_or(1);
    if !(1..=MAX_SUPPORTS_PAGE).contains(&page) {
        return Err(ApiError::validation(MSG_SUPPORTS_PAGE).into());
    }
    let list = following.supported(user.0.id, page).await.map_err(ApiError::from)?;
    Ok(Json(SupportsResponse {
        projects: list.projects.into_iter().map(Into::into).collect(),
        total: list.total,
        page: list.page,
        per_page: list.per_page,
    }))
}

#[cfg(test)]
mod tests {
    use actix_web::test as web_test;
    use ports::following::FollowingError;

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
