//! Every `/v1` route is mounted through [`Routes`], which also records it, so the list of mounted routes can be
//! read back without a server ([`crate::mounted_routes`]). The OpenAPI check and the API's access-table test
//! compare against that list, so a route cannot be added without them noticing.

use actix_web::{web, FromRequest, Handler, Responder};

/// One mounted route: `GET` or `POST` and its full path (`/v1/...`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct MountedRoute {
    pub method: &'static str,
    pub path: String,
}

/// Mounts routes on a `ServiceConfig` (or, without one, only records them).
pub(crate) struct Routes<'a> {
    cfg: Option<&'a mut web::ServiceConfig>,
    prefix: &'static str,
    seen: Vec<MountedRoute>,
}

impl<'a> Routes<'a> {
    /// Mounts on `cfg`, which is the scope `prefix` (e.g. `/v1`).
    pub(crate) fn mounting(cfg: &'a mut web::ServiceConfig, prefix: &'static str) -> Self {
        Self { cfg: Some(cfg), prefix, seen: Vec::new() }
    }

    /// Records only.
    pub(crate) fn recording(prefix: &'static str) -> Self {
        Self { cfg: None, prefix, seen: Vec::new() }
    }

    pub(crate) fn get<F, Args>(&mut self, path: &'static str, handler: F) -> &mut Self
    where
        F: Handler<Args>,
        Args: FromRequest + 'static,
        F::Output: Responder + 'static,
    {
        self.add("GET", path, || web::get().to(handler))
    }

    pub(crate) fn post<F, Args>(&mut self, path: &'static str, handler: F) -> &mut Self
    where
        F: Handler<Args>,
        Args: FromRequest + 'static,
        F::Output: Responder + 'static,
    {
        self.add("POST", path, || web::post().to(handler))
    }

    fn add(&mut self, method: &'static str, path: &'static str, route: impl FnOnce() -> actix_web::Route) -> &mut Self {
        if let Some(cfg) = self.cfg.as_deref_mut() {
            cfg.route(path, route());
        }
        self.seen.push(MountedRoute { method, path: format!("{}{path}", self.prefix) });
        self
    }

    pub(crate) fn into_mounted(self) -> Vec<MountedRoute> {
        self.seen
    }
}
