//! The HTTP API (`/v1/...`, the seeds' contract): routes, request and
//! response DTOs, and the single mapping from use-case errors to statuses.

mod error;
mod openapi;
mod user;

use actix_web::web;

pub use error::{ApiError, ErrorBody};

/// Everything the handlers need, as trait objects so this crate never names
/// a concrete adapter.
#[derive(Clone)]
pub struct Services {
    pub signup: web::Data<dyn ports::accounts::Signup>,
}

/// Mounts every `/v1` route, with JSON errors for malformed requests and
/// unknown paths.
pub fn configure(services: Services) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg| {
        cfg.app_data(services.signup.clone()).service(
            web::scope("/v1")
                .app_data(error::json_config())
                .app_data(error::query_config())
                .configure(user::config)
                .configure(openapi::config)
                .default_service(web::to(error::not_found)),
        );
    }
}
