//! Caching headers of the API. A response to a request that carries a token,
//! or to any request that changes something (log-in, sign-up and password
//! answers carry tokens), is per user: `Cache-Control: no-store`, so neither
//! a shared cache nor the browser's disk keeps it. Public reads keep what
//! their handler set; those whose body depends on an optional token say
//! `Vary: Authorization` themselves (see `project::detail`).

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderValue};
use actix_web::http::Method;
use actix_web::middleware::Next;

pub(crate) async fn no_store_when_personal(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let personal = req.headers().contains_key(header::AUTHORIZATION)
        || !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    let mut res = next.call(req).await?;
    if personal {
        res.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    Ok(res)
}
