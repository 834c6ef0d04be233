//! The operators' moderation of supporter names on a project's pages
//! (terms 第18条): `/v1/admin/projects/{id}/supporters...`. Administrators
//! only ([`AdminUser`]); anyone else gets 404.

use actix_web::{get, post, web, web::Json};
use domain::ids::{ProjectId, UserId};
use ports::admin::supporter_names::{ModeratedSupporter, SupporterNames};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::admin::iso;
use crate::admin_projects::{HideCommentInput, ProjectPath};
use crate::auth::AdminUser;
use crate::{ApiError, ErrorBody};

/// A supporter of the project as the operator sees them.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AdminSupporterDto {
    user_id: i64,
    email: String,
    /// The name they gave (display name on the project, else the account's); null when none.
    #[schema(required = true)]
    name: Option<String>,
    /// They asked to be shown as 匿名 themselves.
    asked_anonymous: bool,
    /// Paid to the project, less refunds (yen).
    amount: i64,
    /// Why an operator hides the name; null while it is shown.
    #[schema(required = true)]
    hidden_reason: Option<String>,
    #[schema(required = true)]
    hidden_at: Option<String>,
}

impl From<ModeratedSupporter> for AdminSupporterDto {
    fn from(s: ModeratedSupporter) -> Self {
        Self {
            user_id: s.user.get(),
            email: s.email,
            name: s.name,
            asked_anonymous: s.asked_anonymous,
            amount: s.amount.0,
            hidden_reason: s.hidden.as_ref().map(|h| h.reason.clone()),
            hidden_at: s.hidden.map(|h| iso(h.at)),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct AdminSupportersResponse {
    supporters: Vec<AdminSupporterDto>,
}

#[derive(Debug, Deserialize, IntoParams)]
pub(crate) struct SupporterPath {
    /// The project.
    id: i64,
    /// The supporter's account.
    user_id: i64,
}

/// The project's supporters, largest amount first (at most 1,000), with the names the public pages show.
#[utoipa::path(
    tag = "admin",
    params(ProjectPath),
    responses(
        (status = 200, description = "The supporters", body = AdminSupportersResponse),
        (status = 400, description = "`malformed_request`: an id that is not a number", body = ErrorBody),
        (status = 404, description = "`not_found`: unknown project, or not an administrator", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[get("/{id}/supporters")]
pub(crate) async fn list_supporters(
    _admin: AdminUser,
    names: web::Data<dyn SupporterNames>,
    path: web::Path<ProjectPath>,
) -> Result<Json<AdminSupportersResponse>, ApiError> {
    let supporters = names.supporters(ProjectId(path.id)).await?;
    Ok(Json(AdminSupportersResponse { supporters: supporters.into_iter().map(Into::into).collect() }))
}

/// Shows the supporter as 匿名 on the project's pages, with a reason (audit log: `supporter_name_hidden`).
#[utoipa::path(
    tag = "admin",
    params(SupporterPath),
    request_body = HideCommentInput,
    responses(
        (status = 200, description = "The supporter", body = AdminSupporterDto),
        (status = 400, description = "`validation_failed` on `reason`: '非表示の理由を入力してください。'; \
            `malformed_request`", body = ErrorBody),
        (status = 404, description = "`not_found`: unknown project, not its supporter, or not an administrator",
            body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[post("/{id}/supporters/{user_id}/hide-name")]
pub(crate) async fn hide_supporter_name(
    admin: AdminUser,
    names: web::Data<dyn SupporterNames>,
    path: web::Path<SupporterPath>,
    body: Result<Json<HideCommentInput>, actix_web::Error>,
) -> Result<Json<AdminSupporterDto>, actix_web::Error> {
    let reason = body?.into_inner().reason;
    let hidden =
        names.hide(admin.0.id, ProjectId(path.id), UserId(path.user_id), &reason).await.map_err(ApiError::from)?;
    Ok(Json(hidden.into()))
}

/// Shows the supporter's own name again (audit log: `supporter_name_shown`).
#[utoipa::path(
    tag = "admin",
    params(SupporterPath),
    responses(
        (status = 200, description = "The supporter", body = AdminSupporterDto),
        (status = 400, description = "`malformed_request`: an id that is not a number", body = ErrorBody),
        (status = 404, description = "`not_found`: unknown project, not its supporter, or not an administrator",
            body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[post("/{id}/supporters/{user_id}/show-name")]
pub(crate) async fn show_supporter_name(
    admin: AdminUser,
    names: web::Data<dyn SupporterNames>,
    path: web::Path<SupporterPath>,
) -> Result<Json<AdminSupporterDto>, ApiError> {
    Ok(Json(names.show(admin.0.id, ProjectId(path.id), UserId(path.user_id)).await?.into()))
}
