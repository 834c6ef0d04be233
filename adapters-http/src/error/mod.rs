//! The one error path of the API: every use-case error enum maps to an
//! [`ApiError`] in this module (one `From` each: accounts and catalog here,
//! payments in `payments`, the admin screens in `admin`, receipts in `receipts`), and every
//! `ApiError` answers one of the typed bodies below. Handlers only write `?`.

mod admin;
mod payments;
mod receipts;

use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::{error, web, HttpRequest, HttpResponse, ResponseError};
use chrono::{DateTime, SecondsFormat, Utc};
use domain::auth::LoginFailure;
use domain::profile::UploadError;
use domain::time::tokyo;
use ports::accounts::{AuthError, EmailChangeError, LoginError, PasswordFlowError, ProfileError, SignupError};
use ports::catalog::{CatalogError, CommentUpdateError, ListQueryError};
use ports::following::FollowingError;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::constraint::constraint_error;

/// The one error shape of the API: a stable snake_case code and a message a
/// person can read (the spec's Japanese text where it has one).
#[derive(Debug, Serialize, Deserialize, PartialEq, Eq, ToSchema)]
pub struct ErrorBody {
    #[schema(example = "validation_failed")]
    pub error: String,
    #[schema(example = "正しいメールアドレスの形式で入力してください")]
    pub message: String,
    /// The request field a validation or database-constraint failure belongs
    /// to, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub field: Option<String>,
    /// Every refused field when a form is checked as a whole (the delivery
    /// address); `message` is the first of them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub errors: Option<Vec<FieldMessage>>,
}

impl ErrorBody {
    pub(crate) fn new(error: &str, message: impl Into<String>) -> Self {
        Self { error: error.to_string(), message: message.into(), field: None, errors: None }
    }
}

/// One refused field of a form.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, ToSchema)]
pub struct FieldMessage {
    pub field: String,
    pub message: String,
}

/// A refused login. The seed's client reads `detail`, `isBanned`,
/// `unbannedTime` and `failedStatus`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LoginFailureBody {
    /// `login_failed` (401) or `login_locked` (403).
    pub error: String,
    pub message: String,
    /// `E_USER_NOT_FOUND`, `E_PASSWORD_MISMATCH` or `E_LOGIN_LOCKED`.
    pub detail: String,
    pub is_banned: bool,
    /// End of the lock (ISO 8601, Tokyo time) while the account is locked.
    pub unbanned_time: Option<String>,
    pub failed_status: FailedStatus,
}

/// The lock state again, where the seed's client looks for it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FailedStatus {
    pub is_banned: bool,
    pub unbanned_time: Option<String>,
}

/// The current password given to change a credential is wrong (the seed's
/// client branches on `detail`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, ToSchema)]
pub struct PasswordMismatchBody {
    /// `password_mismatch`.
    pub error: String,
    /// `E_PASSWORD_MISMATCH`.
    pub detail: String,
    pub message: String,
}

/// The password reset link is past its hour.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, ToSchema)]
pub struct ExpiredKeyBody {
    /// `expired_key`.
    pub error: String,
    /// Always `true`.
    pub expired: bool,
    pub message: String,
}

/// Declares a response body that is one of two shapes: `anyOf` in the
/// description, a union in the generated TypeScript. For statuses that carry
/// two bodies (e.g. 401: no session, or a wrong current password).
macro_rules! either_body {
    ($(#[$doc:meta])* $name:ident = $first:ty $(| $rest:ty)+) => {
        $(#[$doc])*
        pub(crate) struct $name;

        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
                use utoipa::ToSchema;
                utoipa::openapi::schema::AnyOfBuilder::new()
                    .item(utoipa::openapi::Ref::from_schema_name(<$first>::name()))
                    $(.item(utoipa::openapi::Ref::from_schema_name(<$rest>::name())))+
                    .into()
            }
        }

        impl utoipa::ToSchema for $name {
            fn schemas(schemas: &mut Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::Schema>)>) {
                use utoipa::PartialSchema;
                schemas.push((<$first>::name().into(), <$first>::schema()));
                <$first>::schemas(schemas);
                $(
                    schemas.push((<$rest>::name().into(), <$rest>::schema()));
                    <$rest>::schemas(schemas);
                )+
            }
        }
    };
}
pub(crate) use either_body;

either_body!(
    /// 401 of a credential change: no session, or the wrong current password.
    UnauthorizedOrMismatch = ErrorBody | PasswordMismatchBody
);
either_body!(
    /// 400 of a password reset: a plain error, or the expired link.
    BadRequestOrExpired = ErrorBody | ExpiredKeyBody
);

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// 400 `{error, message}`.
    #[error("{message}")]
    BadRequest { code: &'static str, message: String },
    /// A field (or, for a form checked as a whole, several) refused, by the
    /// domain or by a storage constraint: 400, or 409 for a conflict.
    #[error("{}", .body.message)]
    Field { status: StatusCode, body: ErrorBody },
    /// Missing, forged or expired session token.
    #[error("unauthorized")]
    Unauthorized,
    /// Authenticated, but the object belongs to someone else.
    #[error("forbidden")]
    Forbidden,
    #[error("not found")]
    NotFound,
    /// A known path asked with a method it does not answer.
    #[error("method not allowed")]
    MethodNotAllowed { allow: String },
    #[error("rate limited")]
    TooManyRequests,
    /// 401 or 403 with the fields the seed's login screen reads.
    #[error("{}", .0.message)]
    LoginRefused(Box<LoginFailureBody>),
    /// 401: the current password given to change a credential is wrong.
    #[error("current password mismatch")]
    CurrentPasswordMismatch,
    /// 429: too many wrong passwords; the message says until when.
    #[error("{0}")]
    AccountLocked(String),
    /// 400 with `expired: true`: a password reset link past its hour.
    #[error("expired key")]
    ExpiredKey,
    /// 413: an upload over the size limit.
    #[error("payload too large")]
    TooLarge,
    #[error("service unavailable: {0}")]
    Unavailable(&'static str),
    /// The cause goes to the log, never to the client.
    #[error("internal error")]
    Internal,
}

pub(crate) const MSG_CURRENT_PASSWORD_MISMATCH: &str = "現在のパスワードが正しくありません。";
pub(crate) const MSG_RESET_KEY_INVALID: &str =
    "パスワード再設定用のURLが無効です。お手数ですが再度パスワード再発行の手続きを行ってください。";
pub(crate) const MSG_RESET_KEY_EXPIRED: &str =
    "パスワード再設定用のURLの有効期限が切れています。お手数ですが再度パスワード再発行の手続きを行ってください。";
pub(crate) const MSG_EMAIL_CHANGE_KEY_INVALID: &str =
    "メールアドレス変更用のURLが無効です。お手数ですが再度メールアドレスの変更をお試しください。";
const MSG_FORBIDDEN: &str = "この操作を行う権限がありません。";
const MSG_NOT_FOUND: &str = "お探しのページが見つかりませんでした。";
const MSG_METHOD_NOT_ALLOWED: &str = "このURLはその方法では利用できません。";
const MSG_RATE_LIMITED: &str = "リクエストが多すぎます。しばらく時間をおいてから再度お試しください。";
const MSG_UNAVAILABLE: &str = "ただいま処理できません。しばらく時間をおいて再度お試しください。";
const MSG_INTERNAL: &str = "エラーが発生しました。しばらく時間をおいて再度お試しください。";
const MALFORMED_REQUEST: &str = "リクエストの形式が正しくありません。";

impl ApiError {
    pub fn validation(message: impl Into<String>) -> Self {
        Self::BadRequest { code: "validation_failed", message: message.into() }
    }

    /// 400 for a form checked as a whole: every refused `(field, message)`, the first as `message` and `field`.
    pub(crate) fn fields(refused: impl IntoIterator<Item = (String, String)>) -> Self {
        let errors: Vec<FieldMessage> =
            refused.into_iter().map(|(field, message)| FieldMessage { field, message }).collect();
        let first = errors.first();
        let body = ErrorBody {
            error: "validation_failed".into(),
            message: first.map(|e| e.message.clone()).unwrap_or_default(),
            field: first.map(|e| e.field.clone()),
            errors: Some(errors),
        };
        Self::Field { status: StatusCode::BAD_REQUEST, body }
    }

    /// A refusal with its own status and code (a conflict, a declined card, a provider that is down).
    pub(crate) fn refused(status: StatusCode, code: &str, message: impl Into<String>) -> Self {
        Self::Field { status, body: ErrorBody::new(code, message) }
    }

    /// The mail could not even be queued (the database is down).
    fn mail_unavailable(cause: &dyn std::error::Error) -> Self {
        tracing::warn!(error = %cause, "mail not accepted");
        Self::Unavailable("mail_unavailable")
    }

    /// Logs the cause of an unexpected failure and answers a bare 500.
    pub fn internal(cause: &dyn std::error::Error) -> Self {
        tracing::error!(error = %cause, source = ?cause.source(), "request failed");
        Self::Internal
    }

    fn login_refused(failure: LoginFailure, banned_until: Option<DateTime<Utc>>) -> Self {
        let unbanned_time = banned_until.map(|t| t.with_timezone(&tokyo()).to_rfc3339_opts(SecondsFormat::Secs, true));
        let is_banned = unbanned_time.is_some();
        Self::LoginRefused(Box::new(LoginFailureBody {
            error: if is_banned { "login_locked" } else { "login_failed" }.to_string(),
            message: failure.to_string(),
            detail: failure.detail().to_string(),
            is_banned,
            unbanned_time: unbanned_time.clone(),
            failed_status: FailedStatus { is_banned, unbanned_time },
        }))
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match self {
            Self::BadRequest { .. } | Self::ExpiredKey => StatusCode::BAD_REQUEST,
            Self::Field { status, .. } => *status,
            Self::Unauthorized | Self::CurrentPasswordMismatch => StatusCode::UNAUTHORIZED,
            Self::Forbidden => StatusCode::FORBIDDEN,
            Self::NotFound => StatusCode::NOT_FOUND,
            Self::MethodNotAllowed { .. } => StatusCode::METHOD_NOT_ALLOWED,
            Self::TooManyRequests | Self::AccountLocked(_) => StatusCode::TOO_MANY_REQUESTS,
            Self::LoginRefused(body) if body.is_banned => StatusCode::FORBIDDEN,
            Self::LoginRefused(_) => StatusCode::UNAUTHORIZED,
            Self::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Self::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            Self::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        let mut response = HttpResponse::build(self.status_code());
        let body = match self {
            Self::LoginRefused(body) => return response.json(body),
            Self::CurrentPasswordMismatch => {
                return response.json(PasswordMismatchBody {
                    error: "password_mismatch".into(),
                    detail: LoginFailure::PasswordMismatch.detail().into(),
                    message: MSG_CURRENT_PASSWORD_MISMATCH.into(),
                })
            }
            Self::ExpiredKey => {
                return response.json(ExpiredKeyBody {
                    error: "expired_key".into(),
                    expired: true,
                    message: MSG_RESET_KEY_EXPIRED.into(),
                })
            }
            Self::Field { body, .. } => return response.json(body),
            Self::BadRequest { code, message } => ErrorBody::new(code, message.clone()),
            Self::Unauthorized => ErrorBody::new("unauthorized", domain::auth::MSG_LOGIN_EXPIRED),
            Self::Forbidden => ErrorBody::new("forbidden", MSG_FORBIDDEN),
            Self::NotFound => ErrorBody::new("not_found", MSG_NOT_FOUND),
            Self::MethodNotAllowed { allow } => {
                if let Ok(value) = HeaderValue::from_str(allow) {
                    response.insert_header((header::ALLOW, value));
                }
                ErrorBody::new("method_not_allowed", MSG_METHOD_NOT_ALLOWED)
            }
            Self::TooManyRequests => ErrorBody::new("rate_limited", MSG_RATE_LIMITED),
            Self::AccountLocked(message) => ErrorBody::new("account_locked", message.clone()),
            Self::TooLarge => ErrorBody::new("too_large", UploadError::TooLarge.to_string()),
            Self::Unavailable(code) => ErrorBody::new(code, MSG_UNAVAILABLE),
            Self::Internal => ErrorBody::new("internal_error", MSG_INTERNAL),
        };
        response.json(body)
    }
}

impl From<SignupError> for ApiError {
    fn from(error: SignupError) -> Self {
        match error {
            SignupError::NotAGuest(e) => Self::BadRequest { code: "not_a_guest", message: e.to_string() },
            SignupError::MailUnavailable(e) => Self::mail_unavailable(&e),
            SignupError::Unexpected(e) => Self::internal(e.as_ref()),
        }
    }
}

impl From<LoginError> for ApiError {
    fn from(error: LoginError) -> Self {
        match error {
            LoginError::Refused { failure, banned_until } => Self::login_refused(failure, banned_until),
            LoginError::Unexpected(e) => Self::internal(e.as_ref()),
        }
    }
}

impl From<AuthError> for ApiError {
    fn from(error: AuthError) -> Self {
        match error {
            AuthError::Unauthenticated => Self::Unauthorized,
            AuthError::Unexpected(e) => Self::internal(e.as_ref()),
        }
    }
}

/// Which password flow failed: a bad key names the link it came from.
#[derive(Debug, Clone, Copy)]
pub(crate) enum PasswordFlow {
    /// The first password, from the registration mail. An expired key reads
    /// like any other invalid one (the spec has one message).
    Activation,
    /// Forgot / reset, from the reset mail.
    Reset,
    /// The logged-in user's change; it has no key.
    Change,
}

impl From<(PasswordFlow, PasswordFlowError)> for ApiError {
    fn from((flow, error): (PasswordFlow, PasswordFlowError)) -> Self {
        let invalid_key = |message: &str| Self::BadRequest { code: "invalid_key", message: message.to_string() };
        match (flow, error) {
            (PasswordFlow::Activation, PasswordFlowError::InvalidKey | PasswordFlowError::ExpiredKey) => {
                invalid_key(domain::auth::MSG_ACTIVATION_KEY_INVALID)
            }
            (PasswordFlow::Reset, PasswordFlowError::InvalidKey) => invalid_key(MSG_RESET_KEY_INVALID),
            (PasswordFlow::Reset, PasswordFlowError::ExpiredKey) => Self::ExpiredKey,
            (PasswordFlow::Change, error @ (PasswordFlowError::InvalidKey | PasswordFlowError::ExpiredKey)) => {
                Self::internal(&error)
            }
            (_, PasswordFlowError::CurrentPasswordMismatch) => Self::CurrentPasswordMismatch,
            (_, error @ PasswordFlowError::Locked { .. }) => Self::AccountLocked(error.to_string()),
            (_, PasswordFlowError::MailUnavailable(e)) => Self::mail_unavailable(&e),
            (_, PasswordFlowError::Unexpected(e)) => Self::internal(e.as_ref()),
        }
    }
}

impl From<EmailChangeError> for ApiError {
    fn from(error: EmailChangeError) -> Self {
        match error {
            EmailChangeError::CurrentPasswordMismatch => Self::CurrentPasswordMismatch,
            EmailChangeError::Locked { .. } => Self::AccountLocked(error.to_string()),
            EmailChangeError::InvalidKey => {
                Self::BadRequest { code: "invalid_key", message: MSG_EMAIL_CHANGE_KEY_INVALID.to_string() }
            }
            EmailChangeError::MailUnavailable(e) => Self::mail_unavailable(&e),
            EmailChangeError::Unexpected(e) => Self::internal(e.as_ref()),
        }
    }
}

impl From<UploadError> for ApiError {
    fn from(error: UploadError) -> Self {
        match error {
            UploadError::TooLarge => Self::TooLarge,
            other => Self::BadRequest { code: "invalid_upload", message: other.to_string() },
        }
    }
}

impl From<ProfileError> for ApiError {
    fn from(error: ProfileError) -> Self {
        match error {
            ProfileError::Forbidden => Self::Forbidden,
            ProfileError::NotFound => Self::NotFound,
            ProfileError::Upload(e) => e.into(),
            ProfileError::Constraint(violation) => constraint_error(&violation),
            ProfileError::Unexpected(e) => Self::internal(e.as_ref()),
        }
    }
}

impl From<CatalogError> for ApiError {
    fn from(error: CatalogError) -> Self {
        match error {
            CatalogError::NotFound => Self::NotFound,
            CatalogError::Unexpected(e) => Self::internal(e.as_ref()),
        }
    }
}

/// 400 `validation_failed` naming the address parameter (`q`, `page`, ...).
impl From<ListQueryError> for ApiError {
    fn from(error: ListQueryError) -> Self {
        let body = ErrorBody {
            error: "validation_failed".into(),
            message: error.to_string(),
            field: Some(error.field().into()),
            errors: None,
        };
        Self::Field { status: StatusCode::BAD_REQUEST, body }
    }
}

impl From<FollowingError> for ApiError {
    fn from(error: FollowingError) -> Self {
        match error {
            FollowingError::NotFound => Self::NotFound,
            FollowingError::Full => Self::refused(StatusCode::CONFLICT, "favourites_full", error.to_string()),
            FollowingError::Unexpected(e) => Self::internal(e.as_ref()),
        }
    }
}

impl From<CommentUpdateError> for ApiError {
    fn from(error: CommentUpdateError) -> Self {
        match error {
            CommentUpdateError::NotFound => Self::NotFound,
            CommentUpdateError::NotAuthor => Self::Forbidden,
            CommentUpdateError::Constraint(violation) => constraint_error(&violation),
            CommentUpdateError::Unexpected(e) => Self::internal(e.as_ref()),
        }
    }
}

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

/// A path segment that does not parse (an id that is not a number) is a malformed request, as a bad query is.
pub(crate) fn path_config() -> web::PathConfig {
    web::PathConfig::default().error_handler(|err, _req| {
        error::InternalError::from_response(err, malformed_request().error_response()).into()
    })
}

pub(crate) fn query_config() -> web::QueryConfig {
    web::QueryConfig::default().error_handler(|err, _req| {
        error::InternalError::from_response(err, malformed_request().error_response()).into()
    })
}

/// Anything under `/v1` no handler took: a described path asked with
/// another method is a 405 naming the methods it has, anything else a 404.
pub(crate) async fn not_found(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    match crate::openapi::methods_of(req.path()) {
        Some(allow) => Err(ApiError::MethodNotAllowed { allow }),
        None => Err(ApiError::NotFound),
    }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    fn sources(dir: &Path, found: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                sources(&path, found);
            } else if path.extension().is_some_and(|ext| ext == "rs") {
                found.push(path);
            }
        }
    }

    /// Every use case's error becomes an API answer here, so a reader finds each status and message in one
    /// folder: a `From<…> for ApiError` in a handler's module fails this test.
    #[test]
    fn every_error_mapping_lives_in_the_error_folder() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        sources(&root, &mut files);
        let strays: Vec<_> = files
            .iter()
            .filter(|file| !file.starts_with(root.join("error")))
            .filter(|file| std::fs::read_to_string(file).unwrap().contains(" for ApiError {"))
            .map(|file| file.strip_prefix(&root).unwrap().display().to_string())
            .collect();
        assert!(strays.is_empty(), "error mappings outside src/error/: {strays:?}");
        assert!(files.len() > 20, "the sources were read");
    }
}
