//! The OpenAPI description of `/v1`, kept by hand beside the routes and
//! checked against them by a test.

use actix_web::{web, HttpResponse};

pub(crate) const DOCUMENT: &str = include_str!("openapi.json");

pub(crate) fn config(cfg: &mut web::ServiceConfig) {
    cfg.route("/openapi.json", web::get().to(serve));
}

async fn serve() -> HttpResponse {
    HttpResponse::Ok().content_type("application/json").body(DOCUMENT)
}

#[cfg(test)]
mod tests {
    use super::DOCUMENT;

    /// Every `/v1` route mounted by this crate, as "METHOD path".
    const ROUTES: &[(&str, &str)] = &[
        ("post", "/v1/user/register"),
        ("post", "/v1/user/reRegister"),
        ("post", "/v1/user/registPassword"),
        ("post", "/v1/user/login"),
        ("get", "/v1/user/loginCheck"),
        ("get", "/v1/user/get/authUser"),
        ("post", "/v1/user/forgotPassword"),
        ("post", "/v1/user/resetPassword"),
        ("post", "/v1/user/set/updatePassword"),
        ("post", "/v1/user/set/update"),
        ("post", "/v1/user/set/uploadfile"),
        ("post", "/v1/user/set/updateEmail"),
        ("post", "/v1/user/set/updateLoginEmail"),
        ("post", "/v1/user/set/updateCorporateData"),
        ("post", "/v1/address/set/register"),
        ("post", "/v1/address/set/updater"),
        ("get", "/v1/address/get/zip"),
        ("get", "/v1/sales/get/list"),
        ("post", "/v1/displayname/set/update"),
        ("get", "/v1/openapi.json"),
        ("get", "/v1/helper/get/master"),
        ("get", "/v1/project/get/detail"),
        ("get", "/v1/sales/get/sum"),
        ("get", "/v1/sales/get/allSum"),
        ("get", "/v1/sponsors/get/list"),
        ("get", "/v1/sponsors/get/footer"),
        ("get", "/v1/information/get/list"),
        ("get", "/v1/comment/get/list"),
        ("post", "/v1/comment/set/update"),
    ];

    #[test]
    fn the_document_describes_every_route() {
        let doc: serde_json::Value = serde_json::from_str(DOCUMENT).unwrap();
        for (method, path) in ROUTES {
            assert!(doc["paths"][path][method].is_object(), "{method} {path} missing from openapi.json");
        }
        let documented: usize =
            doc["paths"].as_object().unwrap().values().map(|ops| ops.as_object().unwrap().len()).sum();
        assert_eq!(documented, ROUTES.len(), "openapi.json describes a route that is not mounted");
    }

    #[actix_web::test]
    async fn the_document_is_served_as_json() {
        use actix_web::{test, App};
        let app = test::init_service(App::new().service(actix_web::web::scope("/v1").configure(super::config))).await;
        let body: serde_json::Value =
            test::call_and_read_body_json(&app, test::TestRequest::get().uri("/v1/openapi.json").to_request()).await;
        assert_eq!(body["openapi"], "3.0.3");
    }
}
