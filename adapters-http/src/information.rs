//! `/v1/information/get/list`: a project's news, newest first.

use actix_web::get;
use actix_web::web::{self, Json};
use chrono::SecondsFormat;
use domain::ids::ProjectId;
use domain::time::tokyo;
use ports::catalog::Catalog;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

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
    /// Sanitised HTML; `null` when the item has none.
    #[schema(required = true)]
    description: Option<String>,
    /// ISO 8601, Tokyo time.
    updated_at: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct InformationListResponse {
    res_information: Vec<InformationDto>,
}

/// A project's published news, newest first.
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
) -> Result<Json<InformationListResponse>, ApiError> {
    let items = catalog.news(ProjectId(query.project_id)).await?;
    Ok(Json(InformationListResponse {
        res_information: items
            .into_iter()
            .map(|n| InformationDto {
                id: n.id,
                title: n.title,
                description: Some(n.description).filter(|d| !d.trim().is_empty()),
                updated_at: n.updated_at.with_timezone(&tokyo()).to_rfc3339_opts(SecondsFormat::Secs, true),
            })
            .collect(),
    }))
}
