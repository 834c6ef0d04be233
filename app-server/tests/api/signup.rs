use diesel::{Connection, RunQueryDsl};
use serde_json::json;

use crate::helpers::{activation_key, spawn_app, unique_email};

#[tokio::test]
async fn a_new_address_gets_flag_100_and_an_activation_mail() {
    let app = spawn_app().await;
    let email = unique_email("signup");

    let resp = app.post_json("/v1/user/register", &json!({"flag": 100, "email": email})).await;

    assert_eq!(resp.status(), 200);
    assert_eq!(resp.json::<serde_json::Value>().await.unwrap(), json!({"userFlag": 100}));
    let mails = app.mails_to(&email, 1).await;
    assert_eq!(mails.len(), 1);
    assert!(mails[0]["subject"].as_str().unwrap().contains("会員登録"));
    assert!(mails[0]["text"].as_str().unwrap().contains("/signup/password/?activate="));
    assert!(activation_key(&mails[0]).len() >= 32);
}

#[tokio::test]
async fn signing_up_twice_sends_a_new_key_and_the_old_one_stops_working() {
    let app = spawn_app().await;
    let email = unique_email("twice");

    app.post_json("/v1/user/register", &json!({"flag": 100, "email": email})).await;
    let resp = app.post_json("/v1/user/register", &json!({"flag": 100, "email": email.to_uppercase()})).await;

    assert_eq!(resp.json::<serde_json::Value>().await.unwrap()["userFlag"], 100);
    let mails = app.mails_to(&email, 2).await;
    assert_eq!(mails.len(), 2);
    assert_ne!(activation_key(&mails[0]), activation_key(&mails[1]));
    assert_eq!(scalar(&app.db.url, "SELECT count(*) FROM users"), 1);
    assert_eq!(scalar(&app.db.url, "SELECT count(*) FROM user_keys WHERE used_at IS NULL"), 1);
}

#[tokio::test]
async fn a_guest_gets_flag_200_and_reregister_mails_the_activation_link() {
    let app = spawn_app().await;
    let email = unique_email("guest");
    execute(&app.db.url, &format!("INSERT INTO users (email, status) VALUES ('{email}', 'guest')"));

    let resp = app.post_json("/v1/user/register", &json!({"flag": 100, "email": email})).await;
    assert_eq!(resp.json::<serde_json::Value>().await.unwrap()["userFlag"], 200);
    assert!(app.mails_to(&email, 0).await.is_empty());

    let resp = app.post_json("/v1/user/reRegister", &json!({"flag": 100, "email": email})).await;
    assert_eq!(resp.json::<serde_json::Value>().await.unwrap()["userFlag"], 100);
    assert_eq!(app.mails_to(&email, 1).await.len(), 1);
}

#[tokio::test]
async fn a_member_gets_flag_1_and_no_mail() {
    let app = spawn_app().await;
    let email = unique_email("member");
    execute(
        &app.db.url,
        &format!("INSERT INTO users (email, status, password_hash) VALUES ('{email}', 'member', 'x')"),
    );

    let resp = app.post_json("/v1/user/register", &json!({"flag": 100, "email": email})).await;

    assert_eq!(resp.json::<serde_json::Value>().await.unwrap()["userFlag"], 1);
}

#[tokio::test]
async fn reregistering_an_unknown_address_is_a_400_with_a_message() {
    let app = spawn_app().await;

    let resp = app.post_json("/v1/user/reRegister", &json!({"flag": 100, "email": unique_email("nobody")})).await;

    assert_eq!(resp.status(), 400);
    assert_eq!(resp.json::<serde_json::Value>().await.unwrap()["error"], "not_a_guest");
}

#[tokio::test]
async fn bad_input_gets_a_clear_400_and_creates_nothing() {
    let app = spawn_app().await;

    for (body, message) in [
        (json!({"flag": 100, "email": ""}), "メールアドレスを入力してください"),
        (json!({"flag": 100, "email": "abc"}), "正しいメールアドレスの形式で入力してください"),
        (json!({"flag": 100}), "リクエストの形式が正しくありません。"),
        (json!({"flag": 100, "email": 42}), "リクエストの形式が正しくありません。"),
    ] {
        let resp = app.post_json("/v1/user/register", &body).await;
        assert_eq!(resp.status(), 400, "{body}");
        assert_eq!(resp.json::<serde_json::Value>().await.unwrap()["message"], message, "{body}");
    }
    assert_eq!(scalar(&app.db.url, "SELECT count(*) FROM users"), 0);
}

fn execute(url: &str, sql: &str) {
    let mut conn = diesel::PgConnection::establish(url).unwrap();
    diesel::sql_query(sql).execute(&mut conn).unwrap();
}

fn scalar(url: &str, sql: &str) -> i64 {
    #[derive(diesel::QueryableByName)]
    struct Row {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        count: i64,
    }
    let mut conn = diesel::PgConnection::establish(url).unwrap();
    diesel::sql_query(sql).get_result::<Row>(&mut conn).unwrap().count
}
