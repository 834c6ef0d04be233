//! `/v1/user/login`, `/v1/user/loginCheck`.

use actix_web::http::StatusCode;
use actix_web::web::{self, Json};
use actix_web::HttpRequest;
use chrono::SecondsFormat;
use domain::account::Email;
use domain::auth::LoginFailure;
use domain::time::tokyo;
use ports::accounts::{IssuedToken, LoginError, Sessions};
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::auth::AuthUser;
use crate::rate::{self, Subject};
use crate::routes::Routes;
use crate::ApiError;

pub(crate) fn config(routes: &mut Routes) {
    routes.post("/user/login", login).get("/user/loginCheck", login_check);
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct LoginRequest {
    email: String,
    password: String,
    /// Sent by the seed's client after registration; no effect on the server.
    #[allow(dead_code)]
    is_regist: Option<serde_json::Value>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TokenResponse {
    pub(crate) token: String,
    #[serde(rename = "type")]
    pub(crate) kind: &'static str,
    pub(crate) expires_at: String,
}

impl From<IssuedToken> for TokenResponse {
    fn from(issued: IssuedToken) -> Self {
        Self {
            token: issued.token,
            kind: "Bearer",
            expires_at: issued.expires_at.with_timezone(&tokyo()).to_rfc3339_opts(SecondsFormat::Secs, true),
        }
    }
}

/// The seed's client reads `detail`, `isBanned`, `unbannedTime` and `failedStatus`.
fn refused(failure: LoginFailure, banned_until: Option<chrono::DateTime<chrono::Utc>>) -> ApiError {
    let unbanned = banned_until.map(|t| t.with_timezone(&tokyo()).to_rfc3339_opts(SecondsFormat::Secs, true));
    let is_banned = unbanned.is_some();
    let (status, code) =
        if is_banned { (StatusCode::FORBIDDEN, "login_locked") } else { (StatusCode::UNAUTHORIZED, "login_failed") };
    ApiError::Detailed {
        status,
        body: json!({
            "error": code,
            "message": failure.to_string(),
            "detail": failure.detail(),
            "isBanned": is_banned,
            "unbannedTime": unbanned,
            "failedStatus": {"isBanned": is_banned, "unbannedTime": unbanned},
        }),
    }
}

async fn login(
    req: HttpRequest,
    sessions: web::Data<dyn Sessions>,
    body: Json<LoginRequest>,
) -> Result<Json<TokenResponse>, ApiError> {
    rate::enforce(&req, &[(rate::LOGIN_PER_IP, Subject::Ip)]).await?;
    let LoginRequest { email, password, .. } = body.into_inner();
    let email = Email::parse(&email).map_err(|e| ApiError::validation(e.to_string()))?;
    domain::auth::require_current_password(&password).map_err(|e| ApiError::validation(e.to_string()))?;
    match sessions.login(&email, &password).await {
        Ok(token) => Ok(Json(token.into())),
        Err(LoginError::Refused { failure, banned_until }) => Err(refused(failure, banned_until)),
        Err(LoginError::Unexpected(e)) => Err(ApiError::internal(e.as_ref())),
    }
}

/// `{"data": {"flag": 1, ...}}`: the seed's client reads `data.data` of the
/// axios response. `customer` is filled once payments exist.
async fn login_check(user: AuthUser) -> Json<serde_json::Value> {
    let user = user.0;
    Json(json!({"data": {"flag": 1, "userId": user.id.0, "customer": null, "isAdmin": user.is_admin}}))
}
