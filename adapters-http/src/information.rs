//! `/v1/information/get/list`: a project's news, newest first.

use actix_web::web::{self, Json};
use chrono::SecondsFormat;
use domain::time::tokyo;
use ports::catalog::Catalog;
use serde::Serialize;

use crate::project::catalog_error;
use crate::routes::Routes;
use crate::sales::ProjectQuery;
use crate::ApiError;

pub(crate) fn config(routes: &mut Routes) {
    routes.get("/information/get/list", list);
}

#[derive(Debug, Serialize)]
struct InformationDto {
    id: i64,
    title: String,
    /// Sanitised HTML; `null` when the item has none.
    description: Option<String>,
    updated_at: String,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ListResponse {
    res_information: Vec<InformationDto>,
}

async fn list(
    catalog: web::Data<dyn Catalog>,
    query: web::Query<ProjectQuery>,
) -> Result<Json<ListResponse>, ApiError> {
    let items = catalog.news(query.project_id).await.map_err(catalog_error)?;
    Ok(Json(ListResponse {
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
