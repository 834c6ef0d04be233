//! The server-side meta tags of `/projects/{slug}/`.

use crate::helpers::spawn_demo_app_with;

fn frontend_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("cf-frontend-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("index.html"),
        "<!doctype html><html lang=ja><head><meta charset=utf-8><title>ぐんまクラウドファンディング</title>\
         <meta name=description content=既定の説明><meta property=og:site_name content=サイト></head>\
         <body><div id=root></div></body></html>",
    )
    .unwrap();
    dir
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
    assert!(login.contains("既定の説明"));
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
}
