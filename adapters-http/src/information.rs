//! `/v1/information/get/list`: a project's news, newest first. The token is
//! optional: a supporters-only item comes locked (no body) unless the reader
//! is a supporter it admits (`domain::news::NewsAudience::admits`).

use actix_web::get;
use actix_web::web::{self, Json};
use chrono::SecondsFormat;
use domain::ids::ProjectId;
use domain::time::tokyo;
use ports::catalog::{Catalog, NewsView};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::auth::MaybeAuthUser;
use crate::sales::ProjectQuery;
use crate::{ApiError, ErrorBody};

pub(crate) fn config(cfg: &mut ServiceConfig) {
    cfg.service(news_list);
}

#[derive(Debug, Serialize, ToSchema)]
/// One news item.
struct InformationDto {
    id: i64,
    title: String,
    /// Sanitised HTML; `null` when the item has none or is locked.
    #[schema(required = true)]
    description: Option<String>,
    /// ISO 8601, Tokyo time.
    updated_at: String,
    /// `public` or `supporters` (支援者限定).
    audience: &'static str,
    /// A supporters-only item this reader may not read: show its title as a teaser.
    locked: bool,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct InformationListResponse {
    res_information: Vec<InformationDto>,
}

/// A project's published news, newest first. With a member's token, the
/// supporters-only items that member's paid supports admit come with their body.
#[utoipa::path(
    params(ProjectQuery),
    tag = "public",
    responses(
        (status = 200, description = "The news", body = InformationListResponse),
        (status = 400, description = "`malformed_request`: no or a non-integer `project_id`", body = ErrorBody),
        (status = 404, description = "`not_found`", body = ErrorBody),
    )
)]
#[get("/information/get/list")]
async fn news_list(
    catalog: web::Data<dyn Catalog>,
    query: web::Query<ProjectQuery>,
    viewer: MaybeAuthUser,
) -> Result<Json<InformationListResponse>, ApiError> {
    let items = catalog.news(ProjectId(query.project_id), viewer.0.map(|user| user.id)).await?;
    Ok(Json(InformationListResponse {
        res_information: items
            .into_iter()
            .map(|NewsView { item: n, locked }| InformationDto {
                id: n.id,
                title: n.title,
                description: Some(n.description).filter(|d| !locked && !d.trim().is_empty()),
                updated_at: n.updated_at.with_timezone(&tokyo()).to_rfc3339_opts(SecondsFormat::Secs, true),
                audience: n.audience.code(),
                locked,
            })
            .collect(),
    }))
}
