use std::future::Future;
use std::pin::Pin;

use actix_web::{dev::Payload, http::header, web, FromRequest, HttpRequest};
use ports::accounts::{AuthError, SessionUser, Sessions};

use crate::ApiError;

/// The logged-in caller. Extracting it refuses the request with 401 when the
/// bearer token is missing, forged, expired or older than a password change.
#[derive(Debug, Clone)]
pub struct AuthUser(pub SessionUser);

/// The caller when a valid token was sent, else `None` (public endpoints
/// that show more to a logged-in user).
#[derive(Debug, Clone)]
pub struct MaybeAuthUser(pub Option<SessionUser>);

fn bearer(req: &HttpRequest) -> Option<String> {
    let value = req.headers().get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    (scheme.eq_ignore_ascii_case("bearer") && !token.trim().is_empty()).then(|| token.trim().to_string())
}

async fn authenticate(
    sessions: Option<web::Data<dyn Sessions>>,
    token: Option<String>,
) -> Result<Option<SessionUser>, ApiError> {
    let Some(token) = token else { return Ok(None) };
    let sessions = sessions.ok_or(ApiError::Internal)?;
    match sessions.authenticate(&token).await {
        Ok(user) => Ok(Some(user)),
        Err(AuthError::Unauthenticated) => Err(ApiError::Unauthorized),
        Err(AuthError::Unexpected(e)) => Err(ApiError::internal(e.as_ref())),
    }
}

impl FromRequest for AuthUser {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let sessions = req.app_data::<web::Data<dyn Sessions>>().cloned();
        let token = bearer(req);
        Box::pin(async move { authenticate(sessions, token).await?.map(AuthUser).ok_or(ApiError::Unauthorized) })
    }
}

impl FromRequest for MaybeAuthUser {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    /// An invalid token is treated like no token: public pages still load.
    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let sessions = req.app_data::<web::Data<dyn Sessions>>().cloned();
        let token = bearer(req);
        Box::pin(async move {
            match authenticate(sessions, token).await {
                Ok(user) => Ok(MaybeAuthUser(user)),
                Err(ApiError::Unauthorized) => Ok(MaybeAuthUser(None)),
                Err(other) => Err(other),
            }
        })
    }
}

/// An administrator. Anyone else — no token, a forged one, a member's — gets
/// the same 404 as an unknown path, so the admin endpoints do not even show
/// that they exist (spec 001 §6: non-administrators see not-found).
#[derive(Debug, Clone)]
pub struct AdminUser(pub SessionUser);

impl FromRequest for AdminUser {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let sessions = req.app_data::<web::Data<dyn Sessions>>().cloned();
        let token = bearer(req);
        Box::pin(async move {
            match authenticate(sessions, token).await {
                Ok(Some(user)) if user.is_admin => Ok(AdminUser(user)),
                Ok(_) | Err(ApiError::Unauthorized) => Err(ApiError::NotFound),
                Err(other) => Err(other),
            }
        })
    }
}
