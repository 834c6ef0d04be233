//! `/v1/comment/get/list` and `/v1/comment/set/update` (author only).

use actix_web::web::{self, Json};
use chrono::SecondsFormat;
use domain::comment::CommentText;
use domain::time::tokyo;
use ports::catalog::{Catalog, CommentUpdateError, CommentView};
use serde::{Deserialize, Serialize};

use crate::auth::AuthUser;
use crate::constraint::constraint_error;
use crate::ids::Id;
use crate::project::catalog_error;
use crate::routes::Routes;
use crate::sales::ProjectQuery;
use crate::ApiError;

pub(crate) fn config(routes: &mut Routes) {
    routes.get("/comment/get/list", list).post("/comment/set/update", update);
}

#[derive(Debug, Serialize)]
struct UrlDto {
    url: String,
}

#[derive(Debug, Serialize)]
struct IconUrlsDto {
    icon: Vec<UrlDto>,
}

#[derive(Debug, Serialize)]
struct UserDetailDto {
    id: i64,
    displayname: String,
    urls: IconUrlsDto,
}

#[derive(Debug, Serialize)]
struct DisplayNameDto {
    displayname: Option<String>,
}

#[derive(Debug, Serialize)]
struct SalesDetailDto {
    displayname: DisplayNameDto,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct CommentDto {
    id: i64,
    #[serde(rename = "project_id")]
    project_id: i64,
    #[serde(rename = "user_id")]
    user_id: i64,
    comment: String,
    #[serde(rename = "updated_at")]
    updated_at: String,
    user_detail: UserDetailDto,
    sales_detail: SalesDetailDto,
}

impl From<CommentView> for CommentDto {
    fn from(c: CommentView) -> Self {
        Self {
            id: c.id,
            project_id: c.project_id,
            user_id: c.user_id.0,
            comment: c.comment,
            updated_at: c.updated_at.with_timezone(&tokyo()).to_rfc3339_opts(SecondsFormat::Secs, true),
            user_detail: UserDetailDto {
                id: c.user_id.0,
                displayname: c.author_name,
                urls: IconUrlsDto { icon: c.author_icon.into_iter().map(|url| UrlDto { url }).collect() },
            },
            sales_detail: SalesDetailDto { displayname: DisplayNameDto { displayname: c.sale_name } },
        }
    }
}

#[derive(Debug, Serialize)]
struct ListResponse {
    comments: Vec<CommentDto>,
}

async fn list(
    catalog: web::Data<dyn Catalog>,
    query: web::Query<ProjectQuery>,
) -> Result<Json<ListResponse>, ApiError> {
    let comments = catalog.comments(query.project_id).await.map_err(catalog_error)?;
    Ok(Json(ListResponse { comments: comments.into_iter().map(Into::into).collect() }))
}

#[derive(Debug, Deserialize)]
pub(crate) struct UpdateRequest {
    id: Id,
    comment: String,
}

#[derive(Debug, Serialize)]
struct UpdateResponse {
    updated: bool,
}

async fn update(
    user: AuthUser,
    catalog: web::Data<dyn Catalog>,
    body: Json<UpdateRequest>,
) -> Result<Json<UpdateResponse>, ApiError> {
    let UpdateRequest { id, comment } = body.into_inner();
    let text = CommentText::parse(&comment).map_err(|e| ApiError::validation(e.to_string()))?;
    match catalog.update_comment(user.0.id, id.0, text).await {
        Ok(()) => Ok(Json(UpdateResponse { updated: true })),
        Err(CommentUpdateError::NotFound) => Err(ApiError::NotFound),
        Err(CommentUpdateError::NotAuthor) => Err(ApiError::Forbidden),
        Err(CommentUpdateError::Constraint(violation)) => Err(constraint_error(&violation)),
        Err(CommentUpdateError::Unexpected(e)) => Err(ApiError::internal(e.as_ref())),
    }
}
