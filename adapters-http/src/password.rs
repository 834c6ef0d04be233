//! `/v1/user/registPassword`, `forgotPassword`, `resetPassword`,
//! `set/updatePassword`.

use actix_web::http::StatusCode;
use actix_web::web::{self, Json};
use actix_web::HttpRequest;
use domain::account::Email;
use domain::auth::{Password, MSG_ACTIVATION_KEY_INVALID};
use ports::accounts::{PasswordFlowError, PasswordFlows};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::auth::AuthUser;
use crate::rate::{self, Subject};
use crate::routes::Routes;
use crate::session::TokenResponse;
use crate::ApiError;

pub(crate) const MSG_RESET_KEY_INVALID: &str =
    "パスワード再設定用のURLが無効です。お手数ですが再度パスワード再発行の手続きを行ってください。";
pub(crate) const MSG_RESET_KEY_EXPIRED: &str =
    "パスワード再設定用のURLの有効期限が切れています。お手数ですが再度パスワード再発行の手続きを行ってください。";

pub(crate) fn config(routes: &mut Routes) {
    routes
        .post("/user/registPassword", regist_password)
        .post("/user/forgotPassword", forgot_password)
        .post("/user/resetPassword", reset_password)
        .post("/user/set/updatePassword", update_password);
}

fn parse_password(raw: &str) -> Result<Password, ApiError> {
    Password::parse(raw).map_err(|e| ApiError::validation(e.to_string()))
}

/// Maps the flow's errors; `invalid_key_message` differs between activation and reset.
fn flow_error(error: PasswordFlowError, invalid_key_message: &str) -> ApiError {
    match error {
        PasswordFlowError::InvalidKey => {
            ApiError::BadRequest { code: "invalid_key", message: invalid_key_message.to_string() }
        }
        PasswordFlowError::ExpiredKey => ApiError::Detailed {
            status: StatusCode::BAD_REQUEST,
            body: json!({"error": "expired_key", "expired": true, "message": MSG_RESET_KEY_EXPIRED}),
        },
        PasswordFlowError::CurrentPasswordMismatch => ApiError::current_password_mismatch(),
        PasswordFlowError::Locked { .. } => ApiError::account_locked(error.to_string()),
        PasswordFlowError::MailUnavailable(e) => ApiError::mail_unavailable(&e),
        PasswordFlowError::Unexpected(e) => ApiError::internal(e.as_ref()),
    }
}

#[derive(Debug, Deserialize)]
pub(crate) struct RegistPasswordRequest {
    #[allow(dead_code)]
    flag: Option<i32>,
    password: String,
    activatekey: Option<String>,
}

async fn regist_password(
    req: HttpRequest,
    flows: web::Data<dyn PasswordFlows>,
    body: Json<RegistPasswordRequest>,
) -> Result<Json<Value>, ApiError> {
    rate::enforce(&req, &[(rate::REGIST_PASSWORD_PER_IP, Subject::Ip)]).await?;
    let RegistPasswordRequest { password, activatekey, .. } = body.into_inner();
    let password = parse_password(&password)?;
    // An activation key that expired reads like any other invalid key (the spec has one message).
    match flows.register_password(activatekey.as_deref().unwrap_or_default(), &password).await {
        Ok(()) => Ok(Json(json!({"registed": true}))),
        Err(PasswordFlowError::ExpiredKey) => {
            Err(flow_error(PasswordFlowError::InvalidKey, MSG_ACTIVATION_KEY_INVALID))
        }
        Err(other) => Err(flow_error(other, MSG_ACTIVATION_KEY_INVALID)),
    }
}

#[derive(Debug, Deserialize)]
pub(crate) struct ForgotRequest {
    mail: String,
}

async fn forgot_password(
    req: HttpRequest,
    flows: web::Data<dyn PasswordFlows>,
    body: Json<ForgotRequest>,
) -> Result<Json<Value>, ApiError> {
    let email = Email::parse(&body.mail).map_err(|e| ApiError::validation(e.to_string()))?;
    rate::enforce(
        &req,
        &[(rate::FORGOT_PER_IP, Subject::Ip), (rate::FORGOT_PER_EMAIL, Subject::Email(email.as_str()))],
    )
    .await?;
    let updated = flows.forgot(&email).await.map_err(|e| flow_error(e, MSG_RESET_KEY_INVALID))?;
    Ok(Json(json!({"updated": updated})))
}

#[derive(Debug, Deserialize)]
pub(crate) struct ResetRequest {
    password: String,
    activatekey: Option<String>,
}

async fn reset_password(
    req: HttpRequest,
    flows: web::Data<dyn PasswordFlows>,
    body: Json<ResetRequest>,
) -> Result<Json<Value>, ApiError> {
    rate::enforce(&req, &[(rate::RESET_PER_IP, Subject::Ip)]).await?;
    let ResetRequest { password, activatekey } = body.into_inner();
    let password = parse_password(&password)?;
    flows
        .reset(activatekey.as_deref().unwrap_or_default(), &password)
        .await
        .map_err(|e| flow_error(e, MSG_RESET_KEY_INVALID))?;
    Ok(Json(json!({"updated": true})))
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct UpdatePasswordRequest {
    /// The seed's client sends its user id and e-mail; the token decides whose password changes.
    #[allow(dead_code)]
    id: Option<Value>,
    #[allow(dead_code)]
    email: Option<String>,
    old_password: String,
    new_password: String,
}

async fn update_password(
    user: AuthUser,
    flows: web::Data<dyn PasswordFlows>,
    body: Json<UpdatePasswordRequest>,
) -> Result<Json<Value>, ApiError> {
    let UpdatePasswordRequest { old_password, new_password, .. } = body.into_inner();
    domain::auth::require_current_password(&old_password).map_err(|e| ApiError::validation(e.to_string()))?;
    let new_password = parse_password(&new_password)?;
    let token = flows
        .change(user.0.id, &old_password, &new_password)
        .await
        .map_err(|e| flow_error(e, MSG_RESET_KEY_INVALID))?;
    let TokenResponse { token, kind, expires_at } = token.into();
    Ok(Json(json!({"token": token, "type": kind, "expiresAt": expires_at, "updated": true})))
}
