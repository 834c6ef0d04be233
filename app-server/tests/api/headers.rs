//! Security and caching headers (issue #8 item 6) and the status of unknown
//! paths (item 15).

use crate::helpers::{spawn_demo_app_with, TestApp};
use crate::pages::frontend_dir;

const DEMO_PASSWORD: &str = "demo-password-1";
const PROJECT: &str = "maebashi-rose-garden";

async fn site() -> TestApp {
    let dir = frontend_dir();
    spawn_demo_app_with(move |s| {
        s.frontend_dir = dir;
        s.stripe_api_base = Some("http://127.0.0.1:8420/".into());
    })
    .await
}

fn header(resp: &reqwest::Response, name: &str) -> Option<String> {
    resp.headers().get(name).map(|v| v.to_str().unwrap().to_string())
}

fn directive(policy: &str, name: &str) -> String {
    policy.split("; ").find(|d| d.split(' ').next() == Some(name)).unwrap_or_default().to_string()
}

#[tokio::test]
async fn pages_carry_a_content_security_policy_allowing_only_our_scripts_and_the_payment_providers() {
    let app = site().await;

    for path in ["/", &format!("/projects/{PROJECT}/"), "/login/", "/no-such-page/"] {
        let resp = app.get(path).await;
        let policy = header(&resp, "content-security-policy").unwrap_or_else(|| panic!("no policy on {path}"));
        assert_eq!(
            directive(&policy, "script-src"),
            "script-src 'self' https://js.stripe.com https://*.js.stripe.com http://127.0.0.1:8420",
            "{path}"
        );
        assert!(directive(&policy, "frame-src").contains("https://js.stripe.com"), "{policy}");
        for fixed in ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"] {
            assert!(policy.split("; ").any(|d| d == fixed), "{fixed} on {path}: {policy}");
        }
        assert!(!policy.contains("unsafe-inline"), "{policy}");
    }
    let api = app.get("/v1/helper/get/master").await;
    assert_eq!(header(&api, "content-security-policy"), None, "JSON needs no page policy");
}

#[tokio::test]
async fn answers_for_a_token_and_log_in_answers_are_never_stored() {
    let app = site().await;

    let login = app
        .post_json("/v1/user/login", &serde_json::json!({"email": "demo-taro@example.jp", "password": DEMO_PASSWORD}))
        .await;
    assert_eq!(login.status(), 200);
    assert_eq!(header(&login, "cache-control").as_deref(), Some("no-store"));
    let token = login.json::<serde_json::Value>().await.unwrap()["token"].as_str().unwrap().to_string();

    for path in ["/v1/user/loginCheck", "/v1/user/get/authUser", "/v1/helper/get/master"] {
        let resp = app.get_with_token(path, &token).await;
        assert_eq!(resp.status(), 200, "{path}");
        assert_eq!(header(&resp, "cache-control").as_deref(), Some("no-store"), "{path}");
    }
    let refused = app.get_with_token("/v1/user/get/authUser", "not-a-token").await;
    assert_eq!(refused.status(), 401);
    assert_eq!(header(&refused, "cache-control").as_deref(), Some("no-store"));

    let public = app.get("/v1/helper/get/master").await;
    assert_ne!(header(&public, "cache-control").as_deref(), Some("no-store"), "anonymous reads stay cacheable");
}

#[tokio::test]
async fn the_project_detail_says_it_varies_with_the_token() {
    let app = site().await;
    let token = app.login("demo-vip@example.jp", DEMO_PASSWORD).await;
    let path = format!("/v1/project/get/detail?slug={PROJECT}");

    let anonymous = app.get(&path).await;
    let personal = app.get_with_token(&path, &token).await;

    for resp in [&anonymous, &personal] {
        assert_eq!(resp.status(), 200);
        let vary = header(resp, "vary").unwrap_or_default().to_ascii_lowercase();
        assert!(vary.contains("authorization"), "{vary}");
    }
    assert_eq!(header(&personal, "cache-control").as_deref(), Some("no-store"));
    // Why it must vary: the invited supporter sees a return the anonymous answer lacks.
    let returns = |body: serde_json::Value| body["project"]["returns"].as_array().unwrap().len();
    let (a, p) = (anonymous.json().await.unwrap(), personal.json().await.unwrap());
    assert!(returns(p) > returns(a));
}

#[tokio::test]
async fn a_path_no_screen_handles_answers_404_with_the_app_and_known_screens_200() {
    let app = site().await;
    let index = app.get("/login/").await.text().await.unwrap();

    for path in
        ["/no-such-page/", "/projects/no-such-project/", "/edit/nothing", "/admin/nothing/", "/favicon-missing.ico"]
    {
        let resp = app.get(path).await;
        assert_eq!(resp.status(), 404, "{path}");
        assert!(header(&resp, "content-type").unwrap().starts_with("text/html"), "{path}");
        assert_eq!(resp.text().await.unwrap(), index, "{path}: the same app, which shows its not-found screen");
    }
    // Screens whose answer depends on the browser's session get the app with 200; the app decides.
    for path in ["/login/", "/edit/profile", "/account/", "/admin/mail/12/", &format!("/payment/info/{PROJECT}/x/")] {
        assert_eq!(app.get(path).await.status(), 200, "{path}");
    }
    assert_eq!(app.get(&format!("/projects/{PROJECT}/")).await.status(), 200);
    // The project list is a public screen of its own.
    assert_eq!(app.get("/projects/").await.status(), 200);
}
