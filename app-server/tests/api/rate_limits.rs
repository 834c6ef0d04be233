//! Every rate limit of the auth endpoints, at its production value: the request past the limit answers 429
//! with the API's message, and the ones up to it do not. The limits count per client address (all tests come
//! from 127.0.0.1, each against its own database) and, where a request names an account, per address too.

use serde_json::{json, Value};

use crate::helpers::{spawn_app, unique_email, TestApp};

const MESSAGE: &str = "リクエストが多すぎます。しばらく時間をおいてから再度お試しください。";

async fn assert_rate_limited(response: reqwest::Response) {
    assert_eq!(response.status(), 429);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"], "rate_limited");
    assert_eq!(body["message"], MESSAGE);
}

/// The limits count in fixed windows aligned to the epoch (`RateRule::window_start`). A test that straddled a
/// window's end would see its count restart and no 429, so it starts in a fresh window when the current one has
/// less than half a minute left (each test takes seconds).
async fn start_well_inside_a_window(window_minutes: u64) {
    let window = window_minutes * 60;
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    let left = window - now % window;
    if left < 30 {
        tokio::time::sleep(std::time::Duration::from_secs(left + 1)).await;
    }
}

/// Sends `count` requests built by `body(i)` to `path`; none may be refused as too many.
async fn send_within_limit(app: &TestApp, path: &str, count: usize, body: impl Fn(usize) -> Value) {
    for i in 0..count {
        let status = app.post_json(path, &body(i)).await.status();
        assert_ne!(status, 429, "request {} of {count} to {path} was refused", i + 1);
    }
}

#[tokio::test]
async fn the_thirty_first_login_from_one_address_within_five_minutes_is_refused_even_with_the_right_password() {
    let app = spawn_app().await;
    start_well_inside_a_window(5).await;
    let email = unique_email("login-limit");
    app.register_member(&email, "correct-horse-1").await;

    send_within_limit(
        &app,
        "/v1/user/login",
        30,
        |_| json!({"email": unique_email("nobody"), "password": "wrong-pass-1"}),
    )
    .await;
    let past = app.post_json("/v1/user/login", &json!({"email": email, "password": "correct-horse-1"})).await;

    assert_rate_limited(past).await;
}

#[tokio::test]
async fn the_sixth_signup_mail_to_one_address_within_ten_minutes_is_refused() {
    let app = spawn_app().await;
    start_well_inside_a_window(10).await;
    let email = unique_email("signup-limit");

    send_within_limit(&app, "/v1/user/register", 5, |_| json!({"flag": 100, "email": email})).await;
    let past = app.post_json("/v1/user/register", &json!({"flag": 100, "email": email})).await;

    assert_rate_limited(past).await;
    // Another address from the same client is still served.
    let other = app.post_json("/v1/user/register", &json!({"flag": 100, "email": unique_email("other")})).await;
    assert_eq!(other.status(), 200);
}

#[tokio::test]
async fn re_registration_counts_against_the_same_per_address_signup_limit() {
    let app = spawn_app().await;
    start_well_inside_a_window(10).await;
    let email = unique_email("reregister-limit");

    send_within_limit(&app, "/v1/user/register", 3, |_| json!({"flag": 100, "email": email})).await;
    send_within_limit(&app, "/v1/user/reRegister", 2, |_| json!({"flag": 100, "email": email})).await;
    let past = app.post_json("/v1/user/reRegister", &json!({"flag": 100, "email": email})).await;

    assert_rate_limited(past).await;
}

#[tokio::test]
async fn the_thirty_first_signup_from_one_client_within_ten_minutes_is_refused_for_register_and_re_register() {
    let app = spawn_app().await;
    start_well_inside_a_window(10).await;

    send_within_limit(&app, "/v1/user/register", 30, |_| json!({"flag": 100, "email": unique_email("many")})).await;

    assert_rate_limited(app.post_json("/v1/user/register", &json!({"flag": 100, "email": unique_email("x")})).await)
        .await;
    assert_rate_limited(app.post_json("/v1/user/reRegister", &json!({"flag": 100, "email": unique_email("y")})).await)
        .await;
}

#[tokio::test]
async fn the_twenty_first_forgotten_password_request_from_one_client_within_fifteen_minutes_is_refused() {
    let app = spawn_app().await;
    start_well_inside_a_window(15).await;

    send_within_limit(&app, "/v1/user/forgotPassword", 20, |_| json!({"mail": unique_email("forgot")})).await;
    let past = app.post_json("/v1/user/forgotPassword", &json!({"mail": unique_email("forgot")})).await;

    assert_rate_limited(past).await;
}

#[tokio::test]
async fn the_thirty_first_password_reset_from_one_client_within_fifteen_minutes_is_refused() {
    let app = spawn_app().await;
    start_well_inside_a_window(15).await;
    let guess = |i: usize| json!({"password": "new-password-1", "activatekey": format!("guess-{i}")});

    send_within_limit(&app, "/v1/user/resetPassword", 30, guess).await;
    let past = app.post_json("/v1/user/resetPassword", &guess(31)).await;

    assert_rate_limited(past).await;
}
