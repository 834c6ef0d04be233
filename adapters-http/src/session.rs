//! `/v1/user/login`, `/v1/user/loginCheck`.

use actix_web::web::{self, Json};
use actix_web::{get, post, HttpRequest};
use chrono::SecondsFormat;
use domain::account::Email;
use domain::time::tokyo;
use ports::accounts::{IssuedToken, Sessions};
use ports::payments::cards::Cards;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::auth::AuthUser;
use crate::rate::{self, Subject};
use crate::{ApiError, ErrorBody, LoginFailureBody};

pub(crate) fn config(cfg: &mut ServiceConfig) {
    cfg.service(login).service(login_check);
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct LoginRequest {
    #[schema(example = "taro@example.jp")]
    email: String,
    password: String,
    /// Sent by the seed's client after registration; no effect on the server.
    #[allow(dead_code)]
    #[schema(value_type = Option<bool>)]
    is_regist: Option<serde_json::Value>,
}

/// A session token for `Authorization: Bearer <token>`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TokenResponse {
    pub(crate) token: String,
    /// Always `Bearer`.
    #[serde(rename = "type")]
    #[schema(example = "Bearer")]
    pub(crate) kind: &'static str,
    /// Expiry, ISO 8601 in Tokyo time.
    #[schema(example = "2026-11-26T21:30:00+09:00")]
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

/// Log in.
///
/// The 10th consecutive wrong password locks the account for 30 minutes
/// (403 `login_locked`, even with the right password). Rate limit: 30 per
/// 5 minutes per client address.
#[utoipa::path(
    tag = "accounts",
    responses(
        (status = 200, description = "Session token", body = TokenResponse),
        (status = 400, description = "`malformed_request` or `validation_failed`", body = ErrorBody),
        (status = 401, description = "`login_failed`: unknown address or wrong password", body = LoginFailureBody),
        (status = 403, description = "`login_locked` until `unbannedTime`", body = LoginFailureBody),
        (status = 429, description = "`rate_limited`", body = ErrorBody),
    )
)]
#[post("/user/login")]
async fn login(
    req: HttpRequest,
    sessions: web::Data<dyn Sessions>,
    body: Json<LoginRequest>,
) -> Result<Json<TokenResponse>, ApiError> {
    rate::enforce(&req, &[(rate::LOGIN_PER_IP, Subject::Ip)]).await?;
    let LoginRequest { email, password, .. } = body.into_inner();
    let email = Email::parse(&email).map_err(|e| ApiError::validation(e.to_string()))?;
    domain::auth::require_current_password(&password).map_err(|e| ApiError::validation(e.to_string()))?;
    Ok(Json(sessions.login(&email, &password).await?.into()))
}

/// `{"data": {"flag": 1, ...}}`: the seed's client reads `data.data` of the
/// axios response.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct LoginCheckResponse {
    data: LoginCheckData,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct LoginCheckData {
    /// 1: the token is valid.
    #[schema(example = 1)]
    flag: i32,
    user_id: i64,
    /// The member's payment-provider customer, `null` until the first card or
    /// bank transfer made one: the session loads cards and monthly supports
    /// only when it is there.
    #[schema(required = true)]
    customer: Option<SessionCustomer>,
    /// Decided on the server (configured list or `administrators` table).
    is_admin: bool,
}

/// The seed's `customer` of a session (`customer_id` as the seed names it).
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct SessionCustomer {
    #[schema(example = "cus_1Abc")]
    customer_id: String,
}

/// Check the session token.
#[utoipa::path(
    tag = "accounts",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The token is valid", body = LoginCheckResponse),
        (status = 401, description = "`unauthorized`", body = ErrorBody),
    )
)]
#[get("/user/loginCheck")]
async fn login_check(user: AuthUser, cards: web::Data<dyn Cards>) -> Result<Json<LoginCheckResponse>, ApiError> {
    let user = user.0;
    let customer =
        cards.customer(user.id).await?.map(|customer| SessionCustomer { customer_id: customer.as_str().to_string() });
    Ok(Json(LoginCheckResponse {
        data: LoginCheckData { flag: 1, user_id: user.id.0, customer, is_admin: user.is_admin },
    }))
}
