use crate::helpers::spawn_app;

#[tokio::test]
async fn healthz_and_readyz_answer_ok_with_a_database() {
    let app = spawn_app().await;

    assert_eq!(app.get("/healthz").await.status(), 200);
    let ready = app.get("/readyz").await;
    assert_eq!(ready.status(), 200);
    assert_eq!(ready.json::<serde_json::Value>().await.unwrap()["status"], "ok");
}

#[tokio::test]
async fn responses_carry_security_headers() {
    let app = spawn_app().await;

    let resp = app.get("/healthz").await;

    assert_eq!(resp.headers()["x-content-type-options"], "nosniff");
    assert_eq!(resp.headers()["x-frame-options"], "DENY");
}
