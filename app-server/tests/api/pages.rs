//! What the served pages carry: the meta tags of `/projects/{slug}/`, the
//! API responses and image hint of the first screen, and the precompressed
//! frontend assets.

use serde_json::Value;

use crate::helpers::spawn_demo_app_with;

pub(crate) fn frontend_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("cf-frontend-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("index.html"),
        "<!doctype html><html lang=ja><head><meta charset=utf-8><title>ぐんまクラウドファンディング</title>\
         <meta name=description content=既定の説明><meta property=og:site_name content=サイト></head>\
         <body><div id=root></div></body></html>",
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("assets")).unwrap();
    std::fs::write(dir.join("assets/main.0123abcd.js"), "console.log('plain');").unwrap();
    std::fs::write(dir.join("assets/main.0123abcd.js.br"), b"brotli bytes").unwrap();
    std::fs::write(dir.join("assets/main.0123abcd.js.gz"), b"gzip bytes").unwrap();
    dir
}

/// The JSON the page embeds for the app's API client.
fn embedded_responses(html: &str) -> Value {
    let open = r#"<script id="prefetched-responses" type="application/json">"#;
    let start = html.find(open).expect("the page embeds responses") + open.len();
    let end = start + html[start..].find("</script>").unwrap();
    serde_json::from_str(&html[start..end]).unwrap()
}

async fn json(app: &crate::helpers::TestApp, path: &str) -> Value {
    app.get(path).await.json().await.unwrap()
}

#[tokio::test]
async fn a_project_page_carries_the_projects_title_description_and_image() {
    let dir = frontend_dir();
    let app = spawn_demo_app_with(|s| {
        s.frontend_dir = dir.clone();
        s.public_url = "https://cf.example.jp".into();
    })
    .await;

    let resp = app.get("/projects/maebashi-rose-garden/").await;

    assert_eq!(resp.status(), 200);
    assert!(resp.headers()["content-type"].to_str().unwrap().starts_with("text/html"));
    let html = resp.text().await.unwrap();
    assert!(html.contains(r#"<meta property="og:title" content="前橋ばら園 花壇よみがえりプロジェクト">"#), "{html}");
    assert!(html.contains("<title>前橋ばら園 花壇よみがえりプロジェクト | "));
    assert!(html.contains(r#"<meta property="og:image" content="https://cf.example.jp/media/demo/maebashi-main.svg">"#));
    assert!(html.contains(r#"<meta property="og:url" content="https://cf.example.jp/projects/maebashi-rose-garden/">"#));
    assert!(html.contains(r#"<meta property="og:type" content="article">"#));
    assert!(html.contains(r#"<meta name="description" content="台風で傷んだ前橋の花壇を"#));
    assert!(!html.contains("既定の説明"));
    assert!(html.contains(r#"<div id=root></div>"#));
}

#[tokio::test]
async fn other_routes_get_the_default_page_and_an_unknown_project_is_404() {
    let dir = frontend_dir();
    let app = spawn_demo_app_with(|s| s.frontend_dir = dir.clone()).await;

    let home = app.get("/").await.text().await.unwrap();
    let login = app.get("/login/").await.text().await.unwrap();
    let unknown = app.get("/projects/no-such-project/").await;

    assert!(home.contains("既定の説明") && !home.contains("og:title"));
    assert!(login.contains("既定の説明") && !login.contains("prefetched-responses"));
    assert_eq!(unknown.status(), 404);
    assert!(unknown.text().await.unwrap().contains("既定の説明"));
}

#[tokio::test]
async fn a_title_with_markup_is_escaped() {
    let dir = frontend_dir();
    let app = spawn_demo_app_with(|s| s.frontend_dir = dir.clone()).await;
    app.execute(r#"UPDATE projects SET title = '<script>alert("x")</script>' WHERE slug = 'numata-apple'"#);

    let html = app.get("/projects/numata-apple/").await.text().await.unwrap();

    assert!(!html.contains("<script>alert"));
    assert!(html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"));
    // In the embedded JSON and the structured data too: the title cannot close the elements that carry it
    // (the three elements are the operator's details, the structured data and the responses).
    assert_eq!(html.matches("</script>").count(), 3, "{html}");
    let embedded = embedded_responses(&html);
    assert_eq!(embedded["/project/get/detail?slug=numata-apple"]["project"]["title"], r#"<script>alert("x")</script>"#);
}

#[tokio::test]
async fn home_embeds_the_cards_and_totals_the_api_would_send_and_preloads_the_first_image() {
    let dir = frontend_dir();
    let app = spawn_demo_app_with(|s| s.frontend_dir = dir.clone()).await;

    let html = app.get("/").await.text().await.unwrap();

    let embedded = embedded_responses(&html);
    let master = json(&app, "/v1/helper/get/master").await;
    assert_eq!(embedded["/helper/get/master"], master);
    assert_eq!(embedded["/sales/get/allSum"], json(&app, "/v1/sales/get/allSum").await);
    let first_image = master["master"]["projects"][0]["urls"]["main"].as_str().unwrap();
    let preload = format!(r#"<link rel="preload" as="image" href="{first_image}" fetchpriority="high">"#);
    assert!(html.find(&preload).is_some_and(|at| at < html.find("</head>").unwrap()), "{html}");
}

#[tokio::test]
async fn a_project_page_embeds_the_anonymous_detail_only() {
    let dir = frontend_dir();
    let app = spawn_demo_app_with(|s| s.frontend_dir = dir.clone()).await;

    let html = app.get("/projects/maebashi-rose-garden/").await.text().await.unwrap();

    let embedded = embedded_responses(&html);
    let key = "/project/get/detail?slug=maebashi-rose-garden";
    assert_eq!(embedded[key], json(&app, &format!("/v1{key}")).await);
    let returns = embedded[key]["project"]["returns"].as_array().unwrap();
    assert!(returns.iter().all(|r| r["slug"] != "vip-dinner" && r["slug"] != "staff-only"));
    let hero = embedded[key]["project"]["slider"][0]["src"].as_str().unwrap();
    assert!(html.contains(&format!(r#"<link rel="preload" as="image" href="{hero}" fetchpriority="high">"#)));
}

#[tokio::test]
async fn assets_go_out_precompressed_to_browsers_that_accept_it() {
    let dir = frontend_dir();
    let app = spawn_demo_app_with(|s| s.frontend_dir = dir.clone()).await;
    let fetch = |encoding: &'static str| {
        let request = app.client.get(format!("{}/assets/main.0123abcd.js", app.address));
        async move { request.header("Accept-Encoding", encoding).send().await.unwrap() }
    };

    for (accept, coding, body) in [
        ("gzip, deflate, br", Some("br"), "brotli bytes"),
        ("gzip", Some("gzip"), "gzip bytes"),
        ("identity", None, "console.log('plain');"),
    ] {
        let resp = fetch(accept).await;
        assert_eq!(resp.status(), 200);
        let header = |name: &str| resp.headers().get(name).map(|v| v.to_str().unwrap().to_string());
        assert_eq!(header("content-encoding").as_deref(), coding, "{accept}");
        assert!(header("content-type").unwrap().contains("javascript"));
        assert_eq!(header("vary").as_deref(), Some("accept-encoding"));
        assert_eq!(header("cache-control").as_deref(), Some("public, max-age=31536000, immutable"));
        assert_eq!(resp.bytes().await.unwrap(), body.as_bytes(), "{accept}");
    }
    assert_eq!(app.get("/assets/missing.js").await.status(), 404);
    let head = app.client.head(format!("{}/assets/main.0123abcd.js", app.address)).send().await.unwrap();
    assert_eq!(head.status(), 200);
}

#[tokio::test]
async fn every_page_carries_the_operators_details_from_the_settings() {
    let dir = frontend_dir();
    let app = spawn_demo_app_with(|s| {
        s.frontend_dir = dir.clone();
        s.operator.name = "上州新報株式会社".into();
        s.operator.email = "cf@joshu-shinpo.co.jp".into();
    })
    .await;

    for path in ["/", "/commercial/", "/projects/kiryu-textile/", "/no-such-page/"] {
        let html = app.get(path).await.text().await.unwrap();
        let open = r#"<script id="site-config" type="application/json">"#;
        let start = html.find(open).unwrap_or_else(|| panic!("{path}: {html}")) + open.len();
        let end = start + html[start..].find("</script>").unwrap();
        let config: Value = serde_json::from_str(&html[start..end]).unwrap();
        assert_eq!(config["operator"]["name"], "上州新報株式会社", "{path}");
        assert_eq!(config["operator"]["email"], "cf@joshu-shinpo.co.jp", "{path}");
        assert!(config["operator"]["representative"].is_string(), "{path}");
    }
}
