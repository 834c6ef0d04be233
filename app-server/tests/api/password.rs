use serde_json::{json, Value};

use crate::helpers::{link_key, spawn_app, unique_email};

const PASSWORD: &str = "correct-horse-1";

#[tokio::test]
async fn a_forgotten_password_is_reset_through_the_mailed_link() {
    let app = spawn_app().await;
    let email = unique_email("forgot");
    app.register_member(&email, PASSWORD).await;

    let resp = app.post_json("/v1/user/forgotPassword", &json!({"mail": email})).await;
    assert_eq!(resp.json::<Value>().await.unwrap(), json!({"updated": true}));
    let mails = app.mails_to(&email, 2).await;
    let secret = link_key(mails.last().unwrap(), "/reset-password/?secret=");

    let reset =
        app.post_json("/v1/user/resetPassword", &json!({"password": "after-reset-4", "activatekey": secret})).await;
    assert_eq!(reset.json::<Value>().await.unwrap(), json!({"updated": true}));
    app.login(&email, "after-reset-4").await;

    let again =
        app.post_json("/v1/user/resetPassword", &json!({"password": "after-reset-5", "activatekey": secret})).await;
    assert_eq!(again.status(), 400);
    assert_eq!(again.json::<Value>().await.unwrap()["error"], "invalid_key");
}

#[tokio::test]
async fn an_expired_reset_link_says_expired() {
    let app = spawn_app().await;
    let email = unique_email("expired");
    app.register_member(&email, PASSWORD).await;
    app.post_json("/v1/user/forgotPassword", &json!({"mail": email})).await;
    let secret = link_key(app.mails_to(&email, 2).await.last().unwrap(), "?secret=");
    app.execute("UPDATE user_keys SET expires_at = now() - interval '1 second' WHERE purpose = 'reset_password'");

    let resp =
        app.post_json("/v1/user/resetPassword", &json!({"password": "after-reset-4", "activatekey": secret})).await;

    assert_eq!(resp.status(), 400);
    let body: Value = resp.json().await.unwrap();
    assert_eq!(body["error"], "expired_key");
    assert_eq!(body["expired"], true);
    app.login(&email, PASSWORD).await;
}

#[tokio::test]
async fn a_reset_makes_earlier_tokens_stop_working() {
    let app = spawn_app().await;
    let email = unique_email("reset-token");
    app.register_member(&email, PASSWORD).await;
    let token = app.login(&email, PASSWORD).await;
    app.post_json("/v1/user/forgotPassword", &json!({"mail": email})).await;
    let secret = link_key(app.mails_to(&email, 2).await.last().unwrap(), "?secret=");

    app.post_json("/v1/user/resetPassword", &json!({"password": "after-reset-4", "activatekey": secret})).await;

    assert_eq!(app.get_with_token("/v1/user/loginCheck", &token).await.status(), 401);
}

#[tokio::test]
async fn forgot_for_an_unknown_address_answers_not_updated_and_sends_nothing() {
    let app = spawn_app().await;
    let email = unique_email("unknown");

    let resp = app.post_json("/v1/user/forgotPassword", &json!({"mail": email})).await;

    assert_eq!(resp.json::<Value>().await.unwrap(), json!({"updated": false}));
    assert!(app.mails_to(&email, 0).await.is_empty());
}

#[tokio::test]
async fn repeated_reset_requests_for_one_address_are_rate_limited() {
    let app = spawn_app().await;
    let email = unique_email("limit");

    for _ in 0..3 {
        assert_eq!(app.post_json("/v1/user/forgotPassword", &json!({"mail": email})).await.status(), 200);
    }
    let fourth = app.post_json("/v1/user/forgotPassword", &json!({"mail": email})).await;

    assert_eq!(fourth.status(), 429);
    let body: Value = fourth.json().await.unwrap();
    assert_eq!(body["error"], "rate_limited");
    assert_eq!(body["message"], "リクエストが多すぎます。しばらく時間をおいてから再度お試しください。");
}
