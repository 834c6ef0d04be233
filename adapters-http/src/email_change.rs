//! `/v1/user/set/updateEmail` (asks for the current password) and
//! `/v1/user/set/updateLoginEmail` (the mailed link; answers a new token,
//! because the change ends every other session).

use actix_web::web::{self, Json};
use actix_web::{post, HttpRequest};
use domain::account::Email;
use ports::accounts::EmailChanges;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::auth::AuthUser;
use crate::error::UnauthorizedOrMismatch;
use crate::profile::same_user;
use crate::rate::{self, Subject};
use crate::session::TokenResponse;
use crate::{ApiError, ErrorBody};

pub(crate) fn config(cfg: &mut ServiceConfig) {
    cfg.service(update_email).service(update_login_email);
}

#[derive(Debug, Deserialize, ToSchema)]
pub(crate) struct UpdateEmailRequest {
    /// The caller's own id when sent (the seed's client sends it).
    #[schema(value_type = Option<i64>)]
    id: Option<Value>,
    /// The new address.
    #[schema(example = "hanako@example.jp")]
    email: String,
    /// The current password: a session token alone cannot move the login address.
    #[serde(default)]
    password: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct UpdateEmailResponse {
    /// Another account has the address.
    duplicate: bool,
    not_found: bool,
    /// The confirmation link was mailed to the new address.
    sended: bool,
}

/// Request an e-mail change.
///
/// A confirmation link (24 hours, once) goes to the new address and the old
/// one is told. Wrong current passwords count like failed logins. Rate
/// limits: 5 per hour per user, 20 per hour per client address.
#[utoipa::path(
    tag = "my page",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "What happened to the request", body = UpdateEmailResponse),
        (status = 400, description = "`malformed_request` or `validation_failed`", body = ErrorBody),
        (status = 401, description = "`unauthorized`, or `password_mismatch` (wrong current password)",
            body = UnauthorizedOrMismatch),
        (status = 403, description = "`forbidden`: `id` is another user's", body = ErrorBody),
        (status = 429, description = "`rate_limited`, or `account_locked` after too many wrong passwords",
            body = ErrorBody),
        (status = 503, description = "`mail_unavailable`", body = ErrorBody),
    )
)]
#[post("/user/set/updateEmail")]
async fn update_email(
    req: HttpRequest,
    user: AuthUser,
    changes: web::Data<dyn EmailChanges>,
    body: Json<UpdateEmailRequest>,
) -> Result<Json<UpdateEmailResponse>, ApiError> {
    let body = body.into_inner();
    same_user(body.id.as_ref(), &user.0)?;
    let email = Email::parse(&body.email).map_err(|e| ApiError::validation(e.to_string()))?;
    domain::auth::require_current_password(&body.password).map_err(|e| ApiError::validation(e.to_string()))?;
    rate::enforce(
        &req,
        &[(rate::EMAIL_CHANGE_PER_USER, Subject::User(user.0.id.0)), (rate::EMAIL_CHANGE_PER_IP, Subject::Ip)],
    )
    .await?;
    let outcome = changes.request(user.0.id, &email, &body.password).await?;
    Ok(Json(UpdateEmailResponse { duplicate: outcome.duplicate, not_found: outcome.not_found, sended: outcome.sended }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub(crate) struct UpdateLoginEmailRequest {
    /// The key of the confirmation mail's link.
    activatekey: Option<String>,
}

/// The new address and a new session (every other one ends).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct UpdateLoginEmailResponse {
    updated: bool,
    email: String,
    #[serde(flatten)]
    token: TokenResponse,
}

/// Complete the e-mail change with the mailed key (its owner, logged in).
#[utoipa::path(
    tag = "my page",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The login address changed", body = UpdateLoginEmailResponse),
        (status = 400, description = "`malformed_request` or `invalid_key` (unknown, used, expired, another user's, \
            or the address was taken meanwhile)", body = ErrorBody),
        (status = 401, description = "`unauthorized`", body = ErrorBody),
    )
)]
#[post("/user/set/updateLoginEmail")]
async fn update_login_email(
    user: AuthUser,
    changes: web::Data<dyn EmailChanges>,
    body: Json<UpdateLoginEmailRequest>,
) -> Result<Json<UpdateLoginEmailResponse>, ApiError> {
    let key = body.into_inner().activatekey.unwrap_or_default();
    let changed = changes.confirm(user.0.id, &key).await?;
    Ok(Json(UpdateLoginEmailResponse {
        updated: true,
        email: changed.email.as_str().to_string(),
        token: changed.token.into(),
    }))
}
