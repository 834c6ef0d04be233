//! The administrators' API (`/v1/admin/...` and the seed's admin paths). Every
//! handler takes [`AdminUser`], so anyone else gets the 404 of an unknown path.
//! This module holds what all admin screens share: the audit log.

use actix_web::get;
use actix_web::web::{self, Json};
use chrono::SecondsFormat;
use domain::time::tokyo;
use ports::admin::audit::{AdminActionEntry, AuditLog};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::auth::AdminUser;
use crate::{ApiError, ErrorBody};

pub(crate) fn config(cfg: &mut ServiceConfig) {
    cfg.service(recent_actions);
}

/// How many entries the dashboard shows unless asked for another number.
const DEFAULT_ACTIONS: u32 = 20;
/// The most entries one request returns.
const MAX_ACTIONS: u32 = 200;

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct ActionsQuery {
    /// 1 to 200 entries; 20 when absent.
    #[param(minimum = 1, maximum = 200)]
    limit: Option<u32>,
}

/// One admin action, as the dashboard lists it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AdminActionDto {
    id: i64,
    /// The administrator's e-mail address.
    actor_email: String,
    /// `refund_requested`, `bulk_refund_started`, `mail_sent`, `register_mail_resent`, ...
    action: String,
    #[schema(required = true)]
    sale_id: Option<i64>,
    #[schema(required = true)]
    mail_id: Option<i64>,
    #[schema(required = true)]
    project_id: Option<i64>,
    #[schema(required = true)]
    target_email: Option<String>,
    /// Amounts, counts or a reason, by action.
    #[schema(value_type = Object)]
    detail: serde_json::Value,
    /// ISO 8601, Tokyo time.
    created_at: String,
}

impl From<AdminActionEntry> for AdminActionDto {
    fn from(entry: AdminActionEntry) -> Self {
        Self {
            id: entry.id,
            actor_email: entry.actor_email,
            action: entry.action,
            sale_id: entry.sale_id.map(|id| id.0),
            mail_id: entry.mail_id,
            project_id: entry.project_id.map(|id| id.0),
            target_email: entry.target_email,
            detail: entry.detail,
            created_at: entry.created_at.with_timezone(&tokyo()).to_rfc3339_opts(SecondsFormat::Secs, true),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct AdminActionsResponse {
    actions: Vec<AdminActionDto>,
}

/// The newest admin actions (the audit log), newest first.
#[utoipa::path(
    params(ActionsQuery),
    tag = "admin",
    responses(
        (status = 200, description = "The newest entries", body = AdminActionsResponse),
        (status = 400, description = "`malformed_request`: `limit` is not 1-200", body = ErrorBody),
        (status = 404, description = "`not_found`: not an administrator (as for an unknown path)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[get("/admin/get/actions")]
async fn recent_actions(
    _admin: AdminUser,
    audit: web::Data<dyn AuditLog>,
    query: web::Query<ActionsQuery>,
) -> Result<Json<AdminActionsResponse>, ApiError> {
    let limit = query.limit.unwrap_or(DEFAULT_ACTIONS);
    if !(1..=MAX_ACTIONS).contains(&limit) {
        return Err(ApiError::BadRequest {
            code: "malformed_request",
            message: format!("limit は 1 から {MAX_ACTIONS} までの整数で指定してください。"),
        });
    }
    let entries = audit.recent(limit).await.map_err(|e| ApiError::internal(&e))?;
    Ok(Json(AdminActionsResponse { actions: entries.into_iter().map(AdminActionDto::from).collect() }))
}
