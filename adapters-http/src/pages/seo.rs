//! What search engines and link previews read: `/robots.txt`, `/sitemap.xml` (the home, the legal pages and
//! every public project; drafts, scheduled and hidden projects never, as the catalog lists public projects only)
//! and the schema.org data of a project page. Addresses are absolute, on the site's `PUBLIC_URL`.

use actix_web::http::header;
use actix_web::{web, HttpResponse};
use ports::catalog::{Catalog, ProjectDetail};
use serde_json::{json, Value};

use super::spa::escape;

/// The site's public origin (`PUBLIC_URL`, no trailing slash), for absolute addresses.
#[derive(Debug, Clone)]
pub struct PublicUrl(pub String);

impl PublicUrl {
    pub fn new(url: &str) -> Self {
        Self(url.trim_end_matches('/').to_string())
    }

    /// `path` (starting with `/`) on the public origin; an absolute http(s) address is kept as it is.
    pub fn absolute(&self, path: &str) -> String {
        if path.starts_with("http://") || path.starts_with("https://") {
            path.to_string()
        } else {
            format!("{}/{}", self.0, path.trim_start_matches('/'))
        }
    }
}

/// Pages that are neither projects nor personal: the home, the project list and the legal pages
/// (`frontend/src/config/paths.ts`).
const STATIC_PAGES: [&str; 5] = ["/", "/projects/", "/policy/", "/terms/", "/commercial/"];

/// Paths no search engine should crawl: operators' screens, my page and its edit screens, payment steps,
/// receipts, mail links and the API.
const DISALLOWED: [&str; 8] =
    ["/admin/", "/account/", "/edit/", "/payment/", "/receipt/", "/mail/", "/signup/password/", "/v1/"];

/// `/robots.txt` and `/sitemap.xml`, served whether or not the app's pages are.
pub fn config(public_url: PublicUrl) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg| {
        cfg.app_data(web::Data::new(public_url))
            .route("/robots.txt", web::get().to(robots))
            .route("/sitemap.xml", web::get().to(sitemap));
    }
}

pub fn robots_txt(public_url: &PublicUrl) -> String {
    let mut text = String::from("User-agent: *\n");
    for path in DISALLOWED {
        text.push_str(&format!("Disallow: {path}\n"));
    }
    text.push_str(&format!("\nSitemap: {}\n", public_url.absolute("/sitemap.xml")));
    text
}

/// The sitemap of the static pages and of `projects` (slugs), in that order.
pub fn sitemap_xml<'a>(public_url: &PublicUrl, projects: impl IntoIterator<Item = &'a str>) -> String {
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    let project_paths = projects.into_iter().map(|slug| format!("/projects/{slug}/"));
    for path in STATIC_PAGES.iter().map(|p| (*p).to_string()).chain(project_paths) {
        xml.push_str(&format!("  <url><loc>{}</loc></url>\n", escape(&public_url.absolute(&path))));
    }
    xml.push_str("</urlset>\n");
    xml
}

async fn robots(public_url: web::Data<PublicUrl>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/plain; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "public, max-age=3600"))
        .body(robots_txt(&public_url))
}

async fn sitemap(public_url: web::Data<PublicUrl>, catalog: web::Data<dyn Catalog>) -> HttpResponse {
    match catalog.master().await {
        Ok(cards) => HttpResponse::Ok()
            .content_type("application/xml; charset=utf-8")
            .insert_header((header::CACHE_CONTROL, "public, max-age=600"))
            .body(sitemap_xml(&public_url, cards.iter().map(|c| c.slug.as_str()))),
        Err(e) => {
            tracing::error!(error = %e, "sitemap unavailable");
            HttpResponse::ServiceUnavailable().insert_header((header::RETRY_AFTER, "60")).finish()
        }
    }
}

/// A project page's schema.org data: the project as a `Product` whose offers are its returns (price range in
/// yen, tax included, available until its last day while open), with its image, owner and category. The
/// amount raised and the goal are in `additionalProperty`, since schema.org has no crowdfunding type.
pub fn project_structured_data(detail: &ProjectDetail, public_url: &PublicUrl) -> Value {
    let card = &detail.card;
    let url = public_url.absolute(&format!("/projects/{}/", card.slug));
    let mut images: Vec<String> = detail.slider.iter().map(|s| public_url.absolute(&s.src)).collect();
    if images.is_empty() {
        images.extend(card.main_image_url.iter().map(|u| public_url.absolute(u)));
    }
    let mut data = json!({
        "@context": "https://schema.org",
        "@type": "Product",
        "name": card.title,
        "description": card.description,
        "url": url,
        "additionalProperty": [
            { "@type": "PropertyValue", "name": "目標金額", "value": card.target.0, "unitCode": "JPY" },
            { "@type": "PropertyValue", "name": "支援総額", "value": card.paid.amount.0, "unitCode": "JPY" },
            { "@type": "PropertyValue", "name": "支援者数", "value": card.paid.supports },
        ],
    });
    if !images.is_empty() {
        data["image"] = json!(images);
    }
    if let Some(owner) = &detail.owner {
        data["brand"] = json!({ "@type": "Organization", "name": owner.name });
    }
    if let Some(category) = &card.category {
        data["category"] = json!(category.name);
    }
    let prices: Vec<i64> = detail.returns.iter().map(|r| r.price.total.0).collect();
    if let (Some(low), Some(high)) = (prices.iter().min(), prices.iter().max()) {
        data["offers"] = json!({
            "@type": "AggregateOffer",
            "priceCurrency": "JPY",
            "lowPrice": low,
            "highPrice": high,
            "offerCount": prices.len(),
            "availability": if card.is_open { "https://schema.org/InStock" } else { "https://schema.org/Discontinued" },
            "url": url,
            // The last day supports are taken (Tokyo).
            "priceValidUntil": card.period_end.to_string(),
        });
    }
    data
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn robots_keeps_crawlers_out_of_personal_and_operator_paths_and_names_the_sitemap() {
        let text = robots_txt(&PublicUrl::new("https://cf.example.jp/"));

        for path in ["/admin/", "/account/", "/edit/", "/payment/"] {
            assert!(text.contains(&format!("Disallow: {path}\n")), "{text}");
        }
        assert!(text.ends_with("Sitemap: https://cf.example.jp/sitemap.xml\n"), "{text}");
        assert!(!text.contains("Disallow: /\n"), "the public pages stay open");
    }

    #[test]
    fn the_sitemap_lists_the_static_pages_then_the_projects_as_absolute_escaped_addresses() {
        let xml = sitemap_xml(&PublicUrl::new("https://cf.example.jp"), ["maebashi-rose-garden", "a&b"]);

        assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"));
        let locs: Vec<&str> = xml.split("<loc>").skip(1).map(|s| s.split("</loc>").next().unwrap()).collect();
        assert_eq!(
            locs,
            [
                "https://cf.example.jp/",
                "https://cf.example.jp/projects/",
                "https://cf.example.jp/policy/",
                "https://cf.example.jp/terms/",
                "https://cf.example.jp/commercial/",
                "https://cf.example.jp/projects/maebashi-rose-garden/",
                "https://cf.example.jp/projects/a&amp;b/",
            ]
        );
    }

    #[test]
    fn the_static_pages_are_routes_of_the_app() {
        for path in STATIC_PAGES {
            assert!(super::super::is_app_route(path), "{path}");
        }
    }
}
