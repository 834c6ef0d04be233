//! `/v1/user/registPassword`, `forgotPassword`, `resetPassword`,
//! `set/updatePassword`.

use actix_web::web::{self, Json};
use actix_web::{post, HttpRequest};
use domain::account::Email;
use domain::auth::Password;
use ports::accounts::PasswordFlows;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::auth::AuthUser;
use crate::error::{BadRequestOrExpired, PasswordFlow, UnauthorizedOrMismatch};
use crate::rate::{self, Subject};
use crate::session::TokenResponse;
use crate::{ApiError, ErrorBody};

pub(crate) fn config(cfg: &mut ServiceConfig) {
    cfg.service(regist_password).service(forgot_password).service(reset_password).service(update_password);
}

fn parse_password(raw: &str) -> Result<Password, ApiError> {
    Password::parse(raw).map_err(|e| ApiError::validation(e.to_string()))
}

#[derive(Debug, Deserialize, ToSchema)]
pub(crate) struct RegistPasswordRequest {
    /// Sent by the seed's client (1); ignored.
    #[allow(dead_code)]
    flag: Option<i32>,
    password: String,
    /// The key of the activation mail's link.
    activatekey: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct RegistedResponse {
    /// Always `true`.
    registed: bool,
}

/// Set the first password from the activation key.
///
/// The account becomes a member. Rate limit: 30 per 15 minutes per client
/// address.
#[utoipa::path(
    tag = "accounts",
    responses(
        (status = 200, description = "The password is set", body = RegistedResponse),
        (status = 400, description = "`malformed_request`, `validation_failed` (password) or `invalid_key` \
            (unknown, used or expired key)", body = ErrorBody),
        (status = 429, description = "`rate_limited`", body = ErrorBody),
    )
)]
#[post("/user/registPassword")]
async fn regist_password(
    req: HttpRequest,
    flows: web::Data<dyn PasswordFlows>,
    body: Json<RegistPasswordRequest>,
) -> Result<Json<RegistedResponse>, ApiError> {
    rate::enforce(&req, &[(rate::REGIST_PASSWORD_PER_IP, Subject::Ip)]).await?;
    let RegistPasswordRequest { password, activatekey, .. } = body.into_inner();
    let password = parse_password(&password)?;
    flows
        .register_password(activatekey.as_deref().unwrap_or_default(), &password)
        .await
        .map_err(|e| ApiError::from((PasswordFlow::Activation, e)))?;
    Ok(Json(RegistedResponse { registed: true }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub(crate) struct ForgotRequest {
    #[schema(example = "taro@example.jp")]
    mail: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct UpdatedResponse {
    pub(crate) updated: bool,
}

/// Mail a password reset link (valid 1 hour, once).
///
/// `updated: false` when no member has the address. Rate limits: 20 per
/// 15 minutes per client address, 3 per 15 minutes per e-mail.
#[utoipa::path(
    tag = "accounts",
    responses(
        (status = 200, description = "Whether a link was sent", body = UpdatedResponse),
        (status = 400, description = "`malformed_request` or `validation_failed` (e-mail)", body = ErrorBody),
        (status = 429, description = "`rate_limited`", body = ErrorBody),
        (status = 503, description = "`mail_unavailable`", body = ErrorBody),
    )
)]
#[post("/user/forgotPassword")]
async fn forgot_password(
    req: HttpRequest,
    flows: web::Data<dyn PasswordFlows>,
    body: Json<ForgotRequest>,
) -> Result<Json<UpdatedResponse>, ApiError> {
    let email = Email::parse(&body.mail).map_err(|e| ApiError::validation(e.to_string()))?;
    rate::enforce(
        &req,
        &[(rate::FORGOT_PER_IP, Subject::Ip), (rate::FORGOT_PER_EMAIL, Subject::Email(email.as_str()))],
    )
    .await?;
    let updated = flows.forgot(&email).await.map_err(|e| ApiError::from((PasswordFlow::Reset, e)))?;
    Ok(Json(UpdatedResponse { updated }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub(crate) struct ResetRequest {
    password: String,
    /// The key of the reset mail's link.
    activatekey: Option<String>,
}

/// Reset the password with the mailed key.
///
/// Every earlier session token stops working. Rate limit: 30 per 15 minutes
/// per client address.
#[utoipa::path(
    tag = "accounts",
    responses(
        (status = 200, description = "The password is changed", body = UpdatedResponse),
        (status = 400, description = "`malformed_request`, `validation_failed`, `invalid_key`, or `expired_key` \
            with `expired: true`", body = BadRequestOrExpired),
        (status = 429, description = "`rate_limited`", body = ErrorBody),
    )
)]
#[post("/user/resetPassword")]
async fn reset_password(
    req: HttpRequest,
    flows: web::Data<dyn PasswordFlows>,
    body: Json<ResetRequest>,
) -> Result<Json<UpdatedResponse>, ApiError> {
    rate::enforce(&req, &[(rate::RESET_PER_IP, Subject::Ip)]).await?;
    let ResetRequest { password, activatekey } = body.into_inner();
    let password = parse_password(&password)?;
    flows
        .reset(activatekey.as_deref().unwrap_or_default(), &password)
        .await
        .map_err(|e| ApiError::from((PasswordFlow::Reset, e)))?;
    Ok(Json(UpdatedResponse { updated: true }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct UpdatePasswordRequest {
    /// Sent by the seed's client; the token decides whose password changes.
    #[allow(dead_code)]
    #[schema(value_type = Option<i64>)]
    id: Option<serde_json::Value>,
    /// Sent by the seed's client; ignored.
    #[allow(dead_code)]
    email: Option<String>,
    old_password: String,
    new_password: String,
}

/// The new session (the old token stops working) and `updated: true`.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct UpdatePasswordResponse {
    #[serde(flatten)]
    token: TokenResponse,
    updated: bool,
}

/// Change the password; earlier tokens stop working.
///
/// Wrong current passwords count like failed logins (10 lock the account).
#[utoipa::path(
    tag = "accounts",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "A new token replaces the old one", body = UpdatePasswordResponse),
        (status = 400, description = "`malformed_request` or `validation_failed`", body = ErrorBody),
        (status = 401, description = "`unauthorized`, or `password_mismatch` (wrong current password)",
            body = UnauthorizedOrMismatch),
        (status = 429, description = "`account_locked`: too many wrong passwords", body = ErrorBody),
    )
)]
#[post("/user/set/updatePassword")]
async fn update_password(
    user: AuthUser,
    flows: web::Data<dyn PasswordFlows>,
    body: Json<UpdatePasswordRequest>,
) -> Result<Json<UpdatePasswordResponse>, ApiError> {
    let UpdatePasswordRequest { old_password, new_password, .. } = body.into_inner();
    domain::auth::require_current_password(&old_password).map_err(|e| ApiError::validation(e.to_string()))?;
    let new_password = parse_password(&new_password)?;
    let token = flows
        .change(user.0.id, &old_password, &new_password)
        .await
        .map_err(|e| ApiError::from((PasswordFlow::Change, e)))?;
    Ok(Json(UpdatePasswordResponse { token: token.into(), updated: true }))
}
