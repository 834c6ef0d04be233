use actix_web::http::StatusCode;
use actix_web::{error, web, HttpResponse, ResponseError};
use serde::{Deserialize, Serialize};

/// The one error shape of the API: a stable snake_case code and a message a
/// person can read (the spec's Japanese text where it has one).
#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ErrorBody {
    pub error: String,
    pub message: String,
}

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{message}")]
    BadRequest { code: &'static str, message: String },
    /// Missing, forged or expired session token.
    #[error("unauthorized")]
    Unauthorized,
    /// Authenticated, but the object belongs to someone else.
    #[error("forbidden")]
    Forbidden,
    #[error("not found")]
    NotFound,
    #[error("rate limited")]
    TooManyRequests,
    /// An answer with extra fields the client reads (e.g. login failures).
    #[error("{status}")]
    Detailed { status: StatusCode, body: serde_json::Value },
    #[error("service unavailable: {0}")]
    Unavailable(&'static str),
    /// The cause goes to the log, never to the client.
    #[error("internal error")]
    Internal,
}

impl ApiError {
    pub fn validation(message: impl Into<String>) -> Self {
        Self::BadRequest { code: "validation_failed", message: message.into() }
    }

    /// The current password given to change a credential is wrong (the seed's
    /// client branches on `detail`).
    pub fn current_password_mismatch() -> Self {
        Self::Detailed {
            status: StatusCode::UNAUTHORIZED,
            body: serde_json::json!({
                "error": "password_mismatch",
                "detail": "E_PASSWORD_MISMATCH",
                "message": MSG_CURRENT_PASSWORD_MISMATCH,
            }),
        }
    }

    /// Too many wrong passwords: `message` says until when, as login does.
    pub fn account_locked(message: String) -> Self {
        Self::Detailed {
            status: StatusCode::TOO_MANY_REQUESTS,
            body: serde_json::json!({"error": "account_locked", "message": message}),
        }
    }

    /// The mail could not even be queued (the database is down).
    pub fn mail_unavailable(cause: &dyn std::error::Error) -> Self {
        tracing::warn!(error = %cause, "mail not accepted");
        Self::Unavailable("mail_unavailable")
    }

    /// Logs the cause of an unexpected failure and answers a bare 500.
    pub fn internal(cause: &dyn std::error::Error) -> Self {
        tracing::error!(error = %cause, source = ?cause.source(), "request failed");
        Self::Internal
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match self {
            Self::BadRequest { .. } => StatusCode::BAD_REQUEST,
            Self::Unauthorized => StatusCode::UNAUTHORIZED,
            Self::Forbidden => StatusCode::FORBIDDEN,
            Self::NotFound => StatusCode::NOT_FOUND,
            Self::TooManyRequests => StatusCode::TOO_MANY_REQUESTS,
            Self::Detailed { status, .. } => *status,
            Self::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            Self::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        let (code, message) = match self {
            Self::Detailed { status, body } => return HttpResponse::build(*status).json(body),
            Self::BadRequest { code, message } => (*code, message.clone()),
            Self::Unauthorized => ("unauthorized", domain::auth::MSG_LOGIN_EXPIRED.to_string()),
            Self::Forbidden => ("forbidden", "この操作を行う権限がありません。".to_string()),
            Self::NotFound => ("not_found", "お探しのページが見つかりませんでした。".to_string()),
            Self::TooManyRequests => {
                ("rate_limited", "リクエストが多すぎます。しばらく時間をおいてから再度お試しください。".to_string())
            }
            Self::Unavailable(code) => {
                (*code, "ただいま処理できません。しばらく時間をおいて再度お試しください。".to_string())
            }
            Self::Internal => {
                ("internal_error", "エラーが発生しました。しばらく時間をおいて再度お試しください。".to_string())
            }
        };
        HttpResponse::build(self.status_code()).json(ErrorBody { error: code.to_string(), message })
    }
}

pub(crate) const MSG_CURRENT_PASSWORD_MISMATCH: &str = "現在のパスワードが正しくありません。";

const MALFORMED_REQUEST: &str = "リクエストの形式が正しくありません。";

/// `400 malformed_request`: the request's shape is wrong (not a field's value).
pub(crate) fn malformed_request() -> ApiError {
    ApiError::BadRequest { code: "malformed_request", message: MALFORMED_REQUEST.into() }
}

pub(crate) fn json_config() -> web::JsonConfig {
    web::JsonConfig::default().limit(64 * 1024).error_handler(|err, _req| {
        tracing::debug!(error = %err, "malformed JSON body");
        error::InternalError::from_response(err, malformed_request().error_response()).into()
    })
}

pub(crate) fn query_config() -> web::QueryConfig {
    web::QueryConfig::default().error_handler(|err, _req| {
        error::InternalError::from_response(err, malformed_request().error_response()).into()
    })
}

pub(crate) async fn not_found() -> Result<HttpResponse, ApiError> {
    Err(ApiError::NotFound)
}
