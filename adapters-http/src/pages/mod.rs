//! The HTML side of the site: `/` and `/projects/{slug}/` (the app's
//! `index.html` with meta tags and first-screen data), the answer for paths
//! no screen of the app handles, and the health probes. app-server reads
//! `index.html` from disk and serves the static files; everything decided
//! per request is here.

pub mod app_routes;
pub mod seo;
pub mod spa;

use actix_web::http::header::{self, CacheControl, CacheDirective};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use ports::catalog::{Catalog, CatalogError};
use ports::first_screen::{FirstScreen, FirstScreenRenderer};
use ports::health::Readiness;
use std::sync::Arc;

use crate::page_data;
use crate::SiteEnv;
pub use app_routes::is_app_route;
pub use spa::{Page, PageMeta, SpaIndex};

/// `index.html` with the site's public origin and name, for server-side meta
/// tags, and the renderer of the first screen, if there is one.
pub struct SpaPages {
    index: SpaIndex,
    public_url: String,
    site_name: String,
    renderer: Option<Arc<dyn FirstScreenRenderer>>,
}

impl SpaPages {
    pub fn new(index: SpaIndex, public_url: impl Into<String>, site_name: impl Into<String>) -> Self {
        Self { index, public_url: public_url.into(), site_name: site_name.into(), renderer: None }
    }

    /// Pages with first-screen data arrive with their first screen rendered.
    #[must_use]
    pub fn with_renderer(mut self, renderer: Arc<dyn FirstScreenRenderer>) -> Self {
        self.renderer = Some(renderer);
        self
    }

    pub fn index_html(&self) -> &str {
        self.index.html()
    }

    /// `index.html` for `page` at `path`, with its first screen when the
    /// renderer has one (else without: the browser renders it). The page then
    /// carries the responses that screen was rendered from, which may be a
    /// moment older than its own, so the app hydrates the tree it was sent.
    async fn html(&self, path: &str, mut page: Page) -> String {
        if let (Some(renderer), Some(responses)) = (&self.renderer, &page.responses) {
            let screen = FirstScreen { path, responses, site: self.index.site_config() };
            if let Some(rendered) = renderer.render(screen).await {
                if *rendered.responses != **responses {
                    page.responses = Some(rendered.responses.to_string());
                }
                page.first_screen = Some(rendered.html.to_string());
            }
        }
        self.index.render(&page)
    }
}

/// `/healthz` (the process answers) and `/readyz` (it can reach its database).
/// Needs a `web::Data<dyn Readiness>` in the app.
pub fn probes(cfg: &mut web::ServiceConfig) {
    cfg.route("/healthz", web::get().to(healthz)).route("/readyz", web::get().to(readyz));
}

/// `/` and `/projects/{slug}/` (with or without the trailing slash), rendered from `pages`.
pub fn config(pages: web::Data<SpaPages>) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg| {
        cfg.app_data(pages)
            .route("/", web::get().to(home_page))
            .route("/projects/{slug}/", web::get().to(project_page))
            .route("/projects/{slug}", web::get().to(project_page));
    }
}

/// An HTML page that browsers revalidate on every visit.
pub fn html_page(status: StatusCode, body: String) -> HttpResponse {
    HttpResponse::build(status)
        .content_type("text/html; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .body(body)
}

/// The answer for a path that is not a file: `None` when a screen of the app
/// handles it (serve `index.html` as is), else the app with `404` (it shows
/// its not-found screen) so crawlers do not index it.
pub fn unknown_app_path(path: &str, index_html: &str) -> Option<HttpResponse> {
    (!is_app_route(path)).then(|| html_page(StatusCode::NOT_FOUND, index_html.to_owned()))
}

fn absolute(public_url: &str, url: &str) -> String {
    if url.starts_with("http://") || url.starts_with("https://") {
        url.to_string()
    } else {
        format!("{public_url}/{}", url.trim_start_matches('/'))
    }
}

/// `/`: the app with the project cards and totals it would fetch first.
async fn home_page(catalog: web::Data<dyn Catalog>, env: web::Data<SiteEnv>, spa: web::Data<SpaPages>) -> HttpResponse {
    let page = match page_data::home(catalog.get_ref(), &env).await {
        Ok(data) => Page::with_data(None, data),
        Err(e) => {
            // The app fetches what it needs itself; the page still loads.
            tracing::error!(error = %e, "home page data unavailable");
            Page::default()
        }
    };
    html_page(StatusCode::OK, spa.html("/", page).await)
}

/// `/projects/{slug}/`: the app with the project's title, description and
/// image in `<title>`, the description and OGP tags, and its detail as a
/// logged-out visitor sees it. An unknown slug gets the plain page with
/// status 404 (the app shows its not-found view).
async fn project_page(
    slug: web::Path<String>,
    catalog: web::Data<dyn Catalog>,
    spa: web::Data<SpaPages>,
) -> HttpResponse {
    let slug = slug.into_inner();
    match catalog.project_detail(slug.clone(), None).await {
        Ok(detail) => {
            let card = &detail.card;
            let structured_data = Some(seo::project_structured_data(&detail, &seo::PublicUrl::new(&spa.public_url)));
            let meta = PageMeta {
                document_title: format!("{} | {}", card.title, spa.site_name),
                title: card.title.clone(),
                description: card.description.clone(),
                image: card.main_image_url.as_deref().map(|u| absolute(&spa.public_url, u)),
                url: format!("{}/projects/{}/", spa.public_url, card.slug),
                structured_data,
            };
            let path = format!("/projects/{}/", card.slug);
            let page = Page::with_data(Some(meta), page_data::project(detail));
            html_page(StatusCode::OK, spa.html(&path, page).await)
        }
        Err(CatalogError::NotFound) => match catalog.moved_to(slug.clone()).await {
            // A published project renamed by its operator: old links and bookmarks keep working.
            Ok(Some(current)) => HttpResponse::MovedPermanently()
                .insert_header((header::LOCATION, format!("/projects/{current}/")))
                .finish(),
            _ => html_page(StatusCode::NOT_FOUND, spa.index.html().to_string()),
        },
        Err(CatalogError::Unexpected(e)) => {
            tracing::error!(error = %e, slug, "project page data unavailable");
            html_page(StatusCode::OK, spa.index.html().to_string())
        }
    }
}

fn status(value: &'static str) -> std::collections::HashMap<&'static str, &'static str> {
    std::collections::HashMap::from([("status", value)])
}

async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(status("ok"))
}

async fn readyz(readiness: web::Data<dyn Readiness>) -> HttpResponse {
    if readiness.is_ready().await {
        HttpResponse::Ok().json(status("ok"))
    } else {
        HttpResponse::ServiceUnavailable()
            .insert_header(CacheControl(vec![CacheDirective::NoStore]))
            .json(status("database unavailable"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::{call_service, init_service, TestRequest};
    use actix_web::App;
    use ports::catalog::{MockCatalog, PaidSum};
    use ports::first_screen::{MockFirstScreenRenderer, RenderedScreen};
    use ports::health::MockReadiness;

    #[test]
    fn image_urls_become_absolute_on_the_public_origin() {
        assert_eq!(absolute("https://cf.example", "/media/a.svg"), "https://cf.example/media/a.svg");
        assert_eq!(absolute("https://cf.example", "https://cdn.example/a.png"), "https://cdn.example/a.png");
    }

    #[test]
    fn a_path_no_screen_handles_gets_the_app_with_404_and_a_screen_gets_none() {
        let page = unknown_app_path("/no-such-page/", "<html></html>").map(|r| r.status());
        assert_eq!(page, Some(StatusCode::NOT_FOUND));
        assert!(unknown_app_path("/login/", "<html></html>").is_none());
    }

    async fn home_html(renderer: Option<MockFirstScreenRenderer>) -> String {
        let mut catalog = MockCatalog::new();
        catalog.expect_master().returning(|| Ok(vec![]));
        catalog.expect_paid_sum().returning(|_| Ok(PaidSum { amount: domain::money::Yen(12_000), supports: 3 }));
        let catalog: Arc<dyn Catalog> = Arc::new(catalog);
        let index = SpaIndex::from_html("<html><head></head><body><div id=root></div></body></html>").with_site_config(
            &ports::accounts::Operator { name: "上州新報".into(), ..Default::default() },
            "https://cf.example",
        );
        let mut spa = SpaPages::new(index, "https://cf.example", "サイト");
        if let Some(renderer) = renderer {
            spa = spa.with_renderer(Arc::new(renderer));
        }
        let env = SiteEnv { name: "local".into(), payment: crate::project::PaymentClient::local() };
        let app = init_service(
            App::new()
                .app_data(web::Data::from(catalog))
                .app_data(web::Data::new(env))
                .configure(config(web::Data::new(spa))),
        )
        .await;
        let resp = call_service(&app, TestRequest::get().uri("/").to_request()).await;
        assert_eq!(resp.status(), StatusCode::OK);
        String::from_utf8(actix_web::test::read_body(resp).await.to_vec()).unwrap()
    }

    #[actix_web::test]
    async fn home_arrives_with_its_first_screen_rendered_from_the_data_it_carries() {
        let mut renderer = MockFirstScreenRenderer::new();
        renderer
            .expect_render()
            .withf(|screen| {
                let responses: serde_json::Value = serde_json::from_str(screen.responses).unwrap();
                screen.path == "/"
                    && responses["/sales/get/allSum"]["result"]["amount"] == 12000
                    && screen.site.contains("上州新報")
            })
            .times(1)
            .returning(|screen| Some(rendered("<main>12,000円</main>", screen.responses)));

        let html = home_html(Some(renderer)).await;

        assert!(html.contains("<div id=root><main>12,000円</main></div>"), "{html}");
        let responses = embedded_responses(&html);
        assert_eq!(responses["/sales/get/allSum"]["result"]["amount"], 12000, "the app gets the data to hydrate with");
    }

    #[actix_web::test]
    async fn the_page_carries_the_responses_its_first_screen_was_rendered_from() {
        let mut renderer = MockFirstScreenRenderer::new();
        renderer.expect_render().times(1).returning(|_| {
            Some(rendered("<main>11,000円</main>", r#"{"/sales/get/allSum":{"result":{"amount":11000}}}"#))
        });

        let html = home_html(Some(renderer)).await;

        assert!(html.contains("<div id=root><main>11,000円</main></div>"), "{html}");
        let responses = embedded_responses(&html);
        assert_eq!(responses["/sales/get/allSum"]["result"]["amount"], 11000, "not the page's own 12,000");
        assert_eq!(html.matches(r#"<script id="prefetched-responses""#).count(), 1);
    }

    fn rendered(html: &str, responses: &str) -> RenderedScreen {
        RenderedScreen { html: html.into(), responses: responses.into() }
    }

    fn embedded_responses(html: &str) -> serde_json::Value {
        let open = r#"<script id="prefetched-responses" type="application/json">"#;
        let start = html.find(open).expect("the responses are embedded") + open.len();
        let end = start + html[start..].find("</script>").unwrap();
        serde_json::from_str(&html[start..end]).unwrap()
    }

    #[actix_web::test]
    async fn without_an_answer_from_the_renderer_the_page_still_comes_for_the_browser_to_render() {
        let mut renderer = MockFirstScreenRenderer::new();
        renderer.expect_render().returning(|_| None);

        for html in [home_html(Some(renderer)).await, home_html(None).await] {
            assert!(html.contains("<div id=root></div>"), "{html}");
            assert!(html.contains(r#"<script id="prefetched-responses""#));
        }
    }

    #[actix_web::test]
    async fn readyz_says_503_and_is_not_stored_when_the_database_is_away() {
        let mut readiness = MockReadiness::new();
        readiness.expect_is_ready().return_const(false);
        let readiness: Arc<dyn Readiness> = Arc::new(readiness);
        let app = init_service(App::new().app_data(web::Data::from(readiness)).configure(probes)).await;

        let resp = call_service(&app, TestRequest::get().uri("/readyz").to_request()).await;

        assert_eq!(resp.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(resp.headers().get(header::CACHE_CONTROL).unwrap(), "no-store");
    }
}
