//! Moving the login address: the current password first, notices to the old
//! address, the mailed link, and the end of every other session.

use serde_json::{json, Value};

use crate::helpers::{link_key, spawn_app, unique_email, TestApp};

const PASSWORD: &str = "correct-horse-1";

async fn member(app: &TestApp, prefix: &str) -> (String, String) {
    let email = unique_email(prefix);
    app.register_member(&email, PASSWORD).await;
    let token = app.login(&email, PASSWORD).await;
    (email, token)
}

async fn request_change(app: &TestApp, token: &str, email: &str, password: &str) -> reqwest::Response {
    app.post_json_with_token("/v1/user/set/updateEmail", token, &json!({"email": email, "password": password})).await
}

#[tokio::test]
async fn an_email_change_needs_the_current_password() {
    let app = spawn_app().await;
    let (_, token) = member(&app, "pw").await;
    let new_email = unique_email("new");

    let missing = app.post_json_with_token("/v1/user/set/updateEmail", &token, &json!({"email": new_email})).await;
    assert_eq!(missing.status(), 400);
    assert_eq!(missing.json::<Value>().await.unwrap()["message"], "パスワードを入力してください");

    let wrong = request_change(&app, &token, &new_email, "not-my-password").await;
    assert_eq!(wrong.status(), 401);
    let body: Value = wrong.json().await.unwrap();
    assert_eq!(body["detail"], "E_PASSWORD_MISMATCH");
    assert_eq!(body["message"], "現在のパスワードが正しくありません。");
    assert!(app.mails_to(&new_email, 1).await.is_empty(), "no link is mailed without the password");
}

#[tokio::test]
async fn a_change_tells_the_old_address_completes_through_the_link_and_ends_other_sessions() {
    let app = spawn_app().await;
    let (old_email, token) = member(&app, "old").await;
    let other_device = app.login(&old_email, PASSWORD).await;
    let new_email = unique_email("new");

    let resp = request_change(&app, &token, &new_email, PASSWORD).await;
    assert_eq!(resp.json::<Value>().await.unwrap(), json!({"duplicate": false, "notFound": false, "sended": true}));

    let notice = &app.mails_to(&old_email, 2).await[1];
    let text = notice["text"].as_str().unwrap();
    assert!(text.contains("変更するお手続きを受け付けました"), "{text}");
    assert!(text.contains("ne***@ex***.jp"), "the new address is masked: {text}");
    assert!(!text.contains(&new_email));

    let key = link_key(&app.mails_to(&new_email, 1).await[0], "/edit/email/updated?activate=");
    let wrong =
        app.post_json_with_token("/v1/user/set/updateLoginEmail", &token, &json!({"activatekey": "nope"})).await;
    assert_eq!(wrong.status(), 400);
    assert_eq!(wrong.json::<Value>().await.unwrap()["error"], "invalid_key");

    let done = app.post_json_with_token("/v1/user/set/updateLoginEmail", &token, &json!({"activatekey": key})).await;
    assert_eq!(done.status(), 200);
    let body: Value = done.json().await.unwrap();
    assert_eq!(body["updated"], true);
    assert_eq!(body["email"], new_email.as_str());
    let fresh = body["token"].as_str().unwrap();

    assert_eq!(app.get_with_token("/v1/user/loginCheck", &other_device).await.status(), 401);
    assert_eq!(app.get_with_token("/v1/user/loginCheck", &token).await.status(), 401);
    let me: Value = app.get_with_token("/v1/user/get/authUser", fresh).await.json().await.unwrap();
    assert_eq!(me["user"]["email"], new_email.as_str());
    let changed = &app.mails_to(&old_email, 3).await[2];
    assert!(changed["text"].as_str().unwrap().contains("変更されました"));
    app.login(&new_email, PASSWORD).await;
    let old = app.post_json("/v1/user/login", &json!({"email": old_email, "password": PASSWORD})).await;
    assert_eq!(old.status(), 401);
}

#[tokio::test]
async fn an_address_held_by_another_account_is_reported_as_duplicate() {
    let app = spawn_app().await;
    let (taken, _) = member(&app, "taken").await;
    let (_, token) = member(&app, "mover").await;

    let resp = request_change(&app, &token, &taken, PASSWORD).await;

    assert_eq!(resp.json::<Value>().await.unwrap(), json!({"duplicate": true, "notFound": false, "sended": false}));
}

#[tokio::test]
async fn a_change_link_redeemed_by_another_member_is_refused_and_changes_nothing() {
    let app = spawn_app().await;
    let (owner_email, owner) = member(&app, "owner").await;
    let (thief_email, thief) = member(&app, "thief").await;
    let new_email = unique_email("target");
    request_change(&app, &owner, &new_email, PASSWORD).await;
    let key = link_key(&app.mails_to(&new_email, 1).await[0], "/edit/email/updated?activate=");

    let stolen = app.post_json_with_token("/v1/user/set/updateLoginEmail", &thief, &json!({"activatekey": key})).await;

    assert_eq!(stolen.status(), 400);
    let thief_now: Value = app.get_with_token("/v1/user/get/authUser", &thief).await.json().await.unwrap();
    assert_eq!(thief_now["user"]["email"], thief_email.as_str());
    let owner_now: Value = app.get_with_token("/v1/user/get/authUser", &owner).await.json().await.unwrap();
    assert_eq!(owner_now["user"]["email"], owner_email.as_str());
}

#[tokio::test]
async fn the_sixth_change_request_within_an_hour_is_rate_limited() {
    let app = spawn_app().await;
    let (_, token) = member(&app, "spam").await;

    for attempt in 1..=5 {
        let resp = request_change(&app, &token, &unique_email("victim"), PASSWORD).await;
        assert_eq!(resp.status(), 200, "request {attempt}");
    }
    let sixth = request_change(&app, &token, &unique_email("victim"), PASSWORD).await;

    assert_eq!(sixth.status(), 429);
    assert_eq!(sixth.json::<Value>().await.unwrap()["error"], "rate_limited");
}

#[tokio::test]
async fn wrong_current_passwords_on_an_email_change_lock_the_account_like_login() {
    let app = spawn_app().await;
    let (email, token) = member(&app, "guess").await;

    for attempt in 1..=9 {
        app.execute("DELETE FROM rate_limit_buckets");
        let resp = request_change(&app, &token, &unique_email("x"), "wrong-guess").await;
        assert_eq!(resp.status(), 401, "guess {attempt}");
    }
    app.execute("DELETE FROM rate_limit_buckets");
    let tenth = request_change(&app, &token, &unique_email("x"), "wrong-guess").await;

    assert_eq!(tenth.status(), 429);
    let body: Value = tenth.json().await.unwrap();
    assert_eq!(body["error"], "account_locked");
    assert!(body["message"].as_str().unwrap().starts_with("パスワードを10回間違えたため、"));
    let login = app.post_json("/v1/user/login", &json!({"email": email, "password": PASSWORD})).await;
    assert_eq!(login.status(), 403, "the right password is refused while locked");
}
