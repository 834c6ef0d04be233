//! `/v1/user/set/updateEmail` (asks for the current password) and
//! `/v1/user/set/updateLoginEmail` (the mailed link; answers a new token,
//! because the change ends every other session).

use actix_web::web::{self, Json};
use actix_web::HttpRequest;
use domain::account::Email;
use ports::accounts::{EmailChangeError, EmailChanges};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::auth::AuthUser;
use crate::profile::same_user;
use crate::rate::{self, Subject};
use crate::routes::Routes;
use crate::session::TokenResponse;
use crate::ApiError;

pub(crate) const MSG_EMAIL_CHANGE_KEY_INVALID: &str =
    "メールアドレス変更用のURLが無効です。お手数ですが再度メールアドレスの変更をお試しください。";

pub(crate) fn config(routes: &mut Routes) {
    routes.post("/user/set/updateEmail", update_email).post("/user/set/updateLoginEmail", update_login_email);
}

fn change_error(error: EmailChangeError) -> ApiError {
    match error {
        EmailChangeError::CurrentPasswordMismatch => ApiError::current_password_mismatch(),
        EmailChangeError::Locked { .. } => ApiError::account_locked(error.to_string()),
        EmailChangeError::InvalidKey => {
            ApiError::BadRequest { code: "invalid_key", message: MSG_EMAIL_CHANGE_KEY_INVALID.to_string() }
        }
        EmailChangeError::MailUnavailable(e) => ApiError::mail_unavailable(&e),
        EmailChangeError::Unexpected(e) => ApiError::internal(e.as_ref()),
    }
}

#[derive(Debug, Deserialize)]
pub(crate) struct UpdateEmailRequest {
    id: Option<Value>,
    email: String,
    /// The current password: a session token alone cannot move the login address.
    #[serde(default)]
    password: String,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct UpdateEmailResponse {
    duplicate: bool,
    not_found: bool,
    sended: bool,
}

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
    let outcome = changes.request(user.0.id, &email, &body.password).await.map_err(change_error)?;
    Ok(Json(UpdateEmailResponse { duplicate: outcome.duplicate, not_found: outcome.not_found, sended: outcome.sended }))
}

#[derive(Debug, Deserialize)]
pub(crate) struct UpdateLoginEmailRequest {
    activatekey: Option<String>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct UpdateLoginEmailResponse {
    updated: bool,
    email: String,
    #[serde(flatten)]
    token: TokenResponse,
}

async fn update_login_email(
    user: AuthUser,
    changes: web::Data<dyn EmailChanges>,
    body: Json<UpdateLoginEmailRequest>,
) -> Result<Json<UpdateLoginEmailResponse>, ApiError> {
    let key = body.into_inner().activatekey.unwrap_or_default();
    let changed = changes.confirm(user.0.id, &key).await.map_err(change_error)?;
    Ok(Json(UpdateLoginEmailResponse {
        updated: true,
        email: changed.email.as_str().to_string(),
        token: changed.token.into(),
    }))
}
