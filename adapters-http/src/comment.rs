//! `/v1/comment/get/list` and `/v1/comment/set/update` (author only).

use actix_web::web::{self, Json};
use actix_web::{get, post};
use chrono::SecondsFormat;
use domain::comment::CommentText;
use domain::ids::ProjectId;
use domain::pagination::{items, page_count, page_slice, Item, COMMENTS_PER_PAGE};
use domain::time::tokyo;
use ports::catalog::{Catalog, CommentView};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::auth::AuthUser;
use crate::ids::Id;
use crate::password::UpdatedResponse;
use crate::{ApiError, ErrorBody};

pub(crate) fn config(cfg: &mut ServiceConfig) {
    cfg.service(comment_list).service(update_comment);
}

#[derive(Debug, Serialize, ToSchema)]
struct IconUrlDto {
    url: String,
}

#[derive(Debug, Serialize, ToSchema)]
struct CommentIconsDto {
    icon: Vec<IconUrlDto>,
}

#[derive(Debug, Serialize, ToSchema)]
/// The author as shown.
struct CommentAuthorDto {
    id: i64,
    displayname: String,
    urls: CommentIconsDto,
}

#[derive(Debug, Serialize, ToSchema)]
struct CommentSaleNameDto {
    #[schema(required = true)]
    displayname: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
/// The display name of the author's sale (anonymous supporters are masked).
struct CommentSaleDto {
    displayname: CommentSaleNameDto,
}

#[derive(Debug, Serialize, ToSchema)]
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
    user_detail: CommentAuthorDto,
    sales_detail: CommentSaleDto,
}

impl From<CommentView> for CommentDto {
    fn from(c: CommentView) -> Self {
        Self {
            id: c.id,
            project_id: c.project_id.get(),
            user_id: c.user_id.get(),
            comment: c.comment,
            updated_at: c.updated_at.with_timezone(&tokyo()).to_rfc3339_opts(SecondsFormat::Secs, true),
            user_detail: CommentAuthorDto {
                id: c.user_id.get(),
                displayname: c.author_name,
                urls: CommentIconsDto { icon: c.author_icon.into_iter().map(|url| IconUrlDto { url }).collect() },
            },
            sales_detail: CommentSaleDto { displayname: CommentSaleNameDto { displayname: c.sale_name } },
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
struct CommentListResponse {
    comments: Vec<CommentDto>,
    /// Shown comments of the project, on every page together.
    total: usize,
    /// Only when `page` was asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pagination: Option<PaginationDto>,
}

/// Where a page sits among the others (spec 000 §9's bar: every page up to
/// five, otherwise a window with dots).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct PaginationDto {
    /// The page answered (an out-of-range request is clamped).
    page: u32,
    pages: u32,
    per_page: u32,
    /// The bar's slots: a page number, or `null` for dots.
    items: Vec<Option<u32>>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct CommentListQuery {
    /// The project's id.
    project_id: i64,
    /// A page of `COMMENTS_PER_PAGE` (10) comments, from 1; without it every comment (the seed's contract).
    #[param(minimum = 1, maximum = 100000)]
    page: Option<u32>,
}

/// A project's shown comments, newest first; with `page`, ten of them and
/// the pagination bar.
#[utoipa::path(
    params(CommentListQuery),
    tag = "public",
    responses(
        (status = 200, description = "The comments", body = CommentListResponse),
        (status = 400, description = "`malformed_request`: no or a non-integer `project_id`", body = ErrorBody),
        (status = 404, description = "`not_found`", body = ErrorBody),
    )
)]
#[get("/comment/get/list")]
async fn comment_list(
    catalog: web::Data<dyn Catalog>,
    query: web::Query<CommentListQuery>,
) -> Result<Json<CommentListResponse>, ApiError> {
    if query.page.is_some_and(|p| !(1..=100_000).contains(&p)) {
        return Err(ApiError::validation("ページの指定が正しくありません。"));
    }
    let mut comments = catalog.comments(ProjectId(query.project_id)).await?;
    let total = comments.len();
    let pagination = query.page.map(|asked| {
        let (range, page) = page_slice(asked, COMMENTS_PER_PAGE, total);
        comments = comments.drain(range).collect();
        let pages = page_count(total, COMMENTS_PER_PAGE);
        let items = items(page, pages)
            .into_iter()
            .map(|item| match item {
                Item::Page(n) => Some(n),
                Item::Dots => None,
            })
            .collect();
        PaginationDto { page, pages, per_page: COMMENTS_PER_PAGE, items }
    });
    Ok(Json(CommentListResponse { comments: comments.into_iter().map(Into::into).collect(), total, pagination }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub(crate) struct UpdateRequest {
    /// The comment's id.
    id: Id,
    #[schema(max_length = 1000)]
    comment: String,
}

/// Edit a comment (its author only).
#[utoipa::path(
    tag = "public",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Saved", body = UpdatedResponse),
        (status = 400, description = "`malformed_request` or `validation_failed`", body = ErrorBody),
        (status = 401, description = "`unauthorized`", body = ErrorBody),
        (status = 403, description = "`forbidden`: someone else's comment", body = ErrorBody),
        (status = 404, description = "`not_found`", body = ErrorBody),
        (status = 409, description = "`conflict`", body = ErrorBody),
    )
)]
#[post("/comment/set/update")]
async fn update_comment(
    user: AuthUser,
    catalog: web::Data<dyn Catalog>,
    body: Json<UpdateRequest>,
) -> Result<Json<UpdatedResponse>, ApiError> {
    let UpdateRequest { id, comment } = body.into_inner();
    let text = CommentText::parse(&comment).map_err(|e| ApiError::validation(e.to_string()))?;
    catalog.update_comment(user.0.id, id.0, text).await?;
    Ok(Json(UpdatedResponse { updated: true }))
}
