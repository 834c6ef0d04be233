//! What search engines read, through the real wiring: `/sitemap.xml` lists public projects only, `/robots.txt`
//! keeps crawlers out of personal and operator paths, and a project page carries its canonical address and its
//! schema.org data, escaped.

use serde_json::Value;

use crate::helpers::{spawn_demo_app_with, TestApp};
use crate::pages::frontend_dir;

async fn app() -> TestApp {
    let dir = frontend_dir();
    spawn_demo_app_with(|s| {
        s.frontend_dir = dir.clone();
        s.public_url = "https://cf.example.jp".into();
    })
    .await
}

fn locs(xml: &str) -> Vec<String> {
    xml.split("<loc>").skip(1).map(|s| s.split("</loc>").next().unwrap().to_string()).collect()
}

#[tokio::test]
async fn the_sitemap_lists_the_home_the_legal_pages_and_public_projects_never_a_draft_or_scheduled_one() {
    let app = app().await;
    let daruma = app.project_id("takasaki-daruma").await;
    let rose = app.project_id("maebashi-rose-garden").await;
    app.execute(&format!("UPDATE project_publications SET published_at = NULL WHERE project_id = {daruma}"));
    app.execute(&format!(
        "UPDATE project_publications SET published_at = now() + interval '1 day' WHERE project_id = {rose}"
    ));

    let resp = app.get("/sitemap.xml").await;

    assert_eq!(resp.status(), 200);
    assert!(resp.headers()["content-type"].to_str().unwrap().starts_with("application/xml"));
    let locs = locs(&resp.text().await.unwrap());
    for page in [
        "/",
        "/projects/",
        "/policy/",
        "/terms/",
        "/commercial/",
        "/projects/kiryu-textile/",
        "/projects/numata-apple/",
    ] {
        assert!(locs.contains(&format!("https://cf.example.jp{page}")), "{page} in {locs:?}");
    }
    assert_eq!(
        locs.len(),
        5 + 5,
        "five static pages, seven demo projects less the draft and the scheduled one: {locs:?}"
    );
    assert!(!locs.iter().any(|l| l.contains("takasaki-daruma") || l.contains("maebashi-rose-garden")), "{locs:?}");
}

#[tokio::test]
async fn robots_keeps_crawlers_out_of_my_page_admin_and_payment_and_points_to_the_sitemap() {
    let app = app().await;

    let resp = app.get("/robots.txt").await;

    assert_eq!(resp.status(), 200);
    let text = resp.text().await.unwrap();
    for line in ["Disallow: /admin/", "Disallow: /account/", "Disallow: /edit/", "Disallow: /payment/"] {
        assert!(text.lines().any(|l| l == line), "{line} in {text}");
    }
    assert!(text.lines().any(|l| l == "Sitemap: https://cf.example.jp/sitemap.xml"), "{text}");
}

/// The JSON-LD block of a page.
fn structured_data(html: &str) -> Value {
    let open = r#"<script type="application/ld+json">"#;
    let start = html.find(open).expect("the page carries structured data") + open.len();
    let end = start + html[start..].find("</script>").unwrap();
    assert!(end < html.find("</head>").unwrap(), "in the head");
    serde_json::from_str(&html[start..end]).unwrap()
}

#[tokio::test]
async fn a_project_page_has_its_canonical_address_and_its_structured_data() {
    let app = app().await;

    let html = app.get("/projects/maebashi-rose-garden").await.text().await.unwrap();

    assert!(html.contains(r#"<link rel="canonical" href="https://cf.example.jp/projects/maebashi-rose-garden/">"#));
    let data = structured_data(&html);
    assert_eq!(data["@context"], "https://schema.org");
    assert_eq!(data["@type"], "Product");
    assert_eq!(data["name"], "前橋ばら園 花壇よみがえりプロジェクト");
    assert_eq!(data["url"], "https://cf.example.jp/projects/maebashi-rose-garden/");
    assert!(data["image"][0].as_str().unwrap().starts_with("https://cf.example.jp/media/demo/"), "{data}");
    assert_eq!(data["offers"]["priceCurrency"], "JPY");
    assert_eq!(data["offers"]["availability"], "https://schema.org/InStock");
    assert!(data["offers"]["lowPrice"].as_i64().unwrap() <= data["offers"]["highPrice"].as_i64().unwrap());
    assert!(!html.contains("関係者用"), "a hidden return is no offer");
}

#[tokio::test]
async fn a_title_holding_a_closing_script_tag_cannot_break_out_of_the_structured_data() {
    let app = app().await;
    let title = r#"前橋</script><script>alert("x")</script> & 'ばら'"#;
    app.execute(&format!(
        "UPDATE projects SET title = '{}' WHERE slug = 'maebashi-rose-garden'",
        title.replace('\'', "''")
    ));

    let html = app.get("/projects/maebashi-rose-garden/").await.text().await.unwrap();

    assert_eq!(structured_data(&html)["name"], title);
    assert!(!html.contains("<script>alert"), "{html}");
}
