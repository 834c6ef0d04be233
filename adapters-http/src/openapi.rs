//! The OpenAPI description of `/v1`, kept by hand beside the routes and
//! checked by a test against the routes actually mounted.

use actix_web::HttpResponse;

use crate::routes::Routes;

pub(crate) const DOCUMENT: &str = include_str!("openapi.json");

pub(crate) fn config(routes: &mut Routes) {
    routes.get("/openapi.json", serve);
}

async fn serve() -> HttpResponse {
    HttpResponse::Ok().content_type("application/json").body(DOCUMENT)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::DOCUMENT;

    #[test]
    fn the_document_describes_exactly_the_mounted_routes() {
        let doc: serde_json::Value = serde_json::from_str(DOCUMENT).unwrap();
        let documented: BTreeSet<(String, String)> = doc["paths"]
            .as_object()
            .unwrap()
            .iter()
            .flat_map(|(path, ops)| ops.as_object().unwrap().keys().map(|m| (m.to_uppercase(), path.clone())))
            .collect();
        let mounted: BTreeSet<(String, String)> =
            crate::mounted_routes().into_iter().map(|r| (r.method.to_string(), r.path)).collect();
        let undocumented: Vec<_> = mounted.difference(&documented).collect();
        let not_mounted: Vec<_> = documented.difference(&mounted).collect();
        assert!(undocumented.is_empty(), "mounted but missing from openapi.json: {undocumented:?}");
        assert!(not_mounted.is_empty(), "in openapi.json but not mounted: {not_mounted:?}");
    }

    #[actix_web::test]
    async fn the_document_is_served_as_json() {
        use actix_web::{test, web, App};
        let app = test::init_service(
            App::new()
                .service(web::scope("/v1").configure(|cfg| super::config(&mut super::Routes::mounting(cfg, "/v1")))),
        )
        .await;
        let body: serde_json::Value =
            test::call_and_read_body_json(&app, test::TestRequest::get().uri("/v1/openapi.json").to_request()).await;
        assert_eq!(body["openapi"], "3.0.3");
    }
}
