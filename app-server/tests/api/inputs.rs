//! Hostile and malformed input (security review, issue #8 items 7, 9-12): every
//! bad value is a 400 with the field's message, never a 500 and never stored.

use serde_json::{json, Value};

use crate::helpers::{spawn_app, spawn_demo_app, unique_email, TestApp};
use crate::profile::{auth_user, insert_sale, member};

fn address(tel: &str) -> Value {
    json!({"name": "上毛 太郎", "telNumber": tel, "zip": "3710023", "pref": "群馬県", "city": "前橋市",
           "address": "本町1-1", "building": ""})
}

async fn refused(resp: reqwest::Response) -> Value {
    assert_eq!(resp.status(), 400, "expected a 400");
    resp.json().await.unwrap()
}

#[tokio::test]
async fn phone_numbers_of_the_wrong_length_are_refused_with_the_phone_message_not_a_500() {
    let app = spawn_app().await;
    let (_, token) = member(&app, "tel").await;

    for tel in ["12345", "123456789", "123456789012", "123456789012345"] {
        let body = refused(app.post_json_with_token("/v1/address/set/register", &token, &address(tel)).await).await;
        assert_eq!(body["message"], "電話番号は半角数字10〜11桁（ハイフンなし）で入力してください。", "{tel}");
        assert_eq!(body["errors"][0]["field"], "telNumber");
    }
    let ok = app.post_json_with_token("/v1/address/set/register", &token, &address("09012345678")).await;
    assert_eq!(ok.status(), 200);
}

#[tokio::test]
async fn a_sixty_thousand_character_city_or_building_is_refused() {
    let app = spawn_app().await;
    let (_, token) = member(&app, "long").await;
    // ASCII so that the body stays under the 64 KB JSON limit and reaches the rule.
    let huge = "x".repeat(60_000);

    let mut city = address("0272000000");
    city["city"] = json!(huge);
    let body = refused(app.post_json_with_token("/v1/address/set/register", &token, &city).await).await;
    assert_eq!(body["message"], "市区町村は50文字以内で入力してください。");

    let mut building = address("0272000000");
    building["building"] = json!(huge);
    let body = refused(app.post_json_with_token("/v1/address/set/register", &token, &building).await).await;
    assert_eq!(body["message"], "建物名は100文字以内で入力してください。");
    assert_eq!(auth_user(&app, &token).await["addresses"]["main"], json!([]));
}

#[tokio::test]
async fn a_five_thousand_character_company_name_is_refused() {
    let app = spawn_app().await;
    let (_, token) = member(&app, "corp").await;

    let body = refused(
        app.post_json_with_token(
            "/v1/user/set/updateCorporateData",
            &token,
            &json!({"corporatename": "社".repeat(5000)}),
        )
        .await,
    )
    .await;

    assert_eq!(body["message"], "企業名は100文字以内で入力してください。");
    assert!(auth_user(&app, &token).await["corporatename"].is_null());
}

#[tokio::test]
async fn a_nul_character_in_any_text_field_is_a_400_naming_the_field() {
    let app = spawn_app().await;
    let (email, token) = member(&app, "nul").await;
    let cases: Vec<(&str, Value, &str)> = vec![
        ("/v1/user/set/update", json!({"username": "a\u{0}"}), "ユーザー名"),
        ("/v1/user/set/update", json!({"displayname": "a\u{0}"}), "表示名"),
        ("/v1/user/set/update", json!({"profile": "a\u{0}"}), "プロフィール"),
        ("/v1/user/set/update", json!({"ageGroup": "a\u{0}"}), "年代"),
        ("/v1/user/set/updateCorporateData", json!({"corporatename": "a\u{0}"}), "企業名"),
    ];
    for (path, body, label) in cases {
        let body = refused(app.post_json_with_token(path, &token, &body).await).await;
        assert_eq!(body["message"], format!("{label}に使用できない文字が含まれています。"), "{path} {label}");
    }
    for field in ["name", "city", "address", "building"] {
        let mut body = address("0272000000");
        body[field] = json!("前橋\u{0}");
        let body = refused(app.post_json_with_token("/v1/address/set/register", &token, &body).await).await;
        assert!(body["message"].as_str().unwrap().ends_with("に使用できない文字が含まれています。"), "{field}");
    }
    insert_sale(&app, &email);
    let list: Value = app.get_with_token("/v1/sales/get/list?user_id=me", &token).await.json().await.unwrap();
    let id = list["data"][0]["displayname"]["id"].as_i64().unwrap();
    let body = refused(
        app.post_json_with_token("/v1/displayname/set/update", &token, &json!({"id": id, "displayname": "a\u{0}"}))
            .await,
    )
    .await;
    assert_eq!(body["message"], "表示名に使用できない文字が含まれています。");
}

#[tokio::test]
async fn line_breaks_are_kept_in_the_profile_but_refused_in_a_single_line_field() {
    let app = spawn_app().await;
    let (_, token) = member(&app, "lines").await;

    let ok = app.post_json_with_token("/v1/user/set/update", &token, &json!({"profile": "一行目\n二行目"})).await;
    assert_eq!(ok.status(), 200);
    assert_eq!(auth_user(&app, &token).await["profile"], "一行目\n二行目");

    let body =
        refused(app.post_json_with_token("/v1/user/set/update", &token, &json!({"username": "上毛\n太郎"})).await)
            .await;
    assert_eq!(body["message"], "ユーザー名に使用できない文字が含まれています。");
}

#[tokio::test]
async fn comments_with_a_nul_or_only_invisible_characters_are_refused() {
    let app = spawn_demo_app().await;
    let comment = app.query_i64(
        "SELECT min(c.id) AS value FROM comments c JOIN users u ON u.id = c.user_id WHERE u.email = 'demo-taro@example.jp'",
    );
    let token = app.login("demo-taro@example.jp", "demo-password-1").await;

    let nul = refused(
        app.post_json_with_token("/v1/comment/set/update", &token, &json!({"id": comment, "comment": "応援\u{0}"}))
            .await,
    )
    .await;
    assert_eq!(nul["message"], "コメントに使用できない文字が含まれています。");
    let invisible = refused(
        app.post_json_with_token(
            "/v1/comment/set/update",
            &token,
            &json!({"id": comment, "comment": "\u{200B}\u{FEFF} \u{2060}"}),
        )
        .await,
    )
    .await;
    assert_eq!(invisible["message"], "コメントを入力してください。");
    let by_string_id = app
        .post_json_with_token("/v1/comment/set/update", &token, &json!({"id": comment.to_string(), "comment": "応援"}))
        .await;
    assert_eq!(by_string_id.status(), 200);
}

async fn assert_malformed(resp: reqwest::Response, what: &str) {
    assert_eq!(resp.status(), 400, "{what}");
    let body: Value = resp.json().await.unwrap();
    assert_eq!(body["error"], "malformed_request", "{what}");
}

#[tokio::test]
async fn ids_that_are_not_integers_are_malformed_requests_not_me() {
    let app = spawn_app().await;
    let (_, token) = member(&app, "ids").await;

    for bad in ["abc", "3.0", "%5B2%5D", "12345678901234567890"] {
        assert_malformed(app.get_with_token(&format!("/v1/sales/get/list?user_id={bad}"), &token).await, bad).await;
    }
    for bad in [json!("abc"), json!(3.0), json!([2]), json!("12345678901234567890"), json!(12345678901234567890u64)] {
        let resp = app.post_json_with_token("/v1/user/set/update", &token, &json!({"id": bad, "username": "x"})).await;
        assert_malformed(resp, &bad.to_string()).await;
        let resp =
            app.post_json_with_token("/v1/comment/set/update", &token, &json!({"id": bad, "comment": "x"})).await;
        assert_malformed(resp, &bad.to_string()).await;
        let resp = app
            .post_json_with_token("/v1/displayname/set/update", &token, &json!({"id": bad, "displayname": "x"}))
            .await;
        assert_malformed(resp, &bad.to_string()).await;
    }
    assert_eq!(auth_user(&app, &token).await["username"], Value::Null, "nothing was written as 'me'");

    let me = auth_user(&app, &token).await["id"].as_i64().unwrap();
    let own = json!({"id": me.to_string(), "username": "x"});
    assert_eq!(app.post_json_with_token("/v1/user/set/update", &token, &own).await.status(), 200);
    let other = json!({"id": me + 1, "username": "x"});
    assert_eq!(app.post_json_with_token("/v1/user/set/update", &token, &other).await.status(), 403);
}

fn users_with_email(app: &TestApp, email: &str) -> i64 {
    app.query_i64(&format!("SELECT count(*) AS value FROM users WHERE email = '{}'", email.replace('\'', "''")))
}

#[tokio::test]
async fn addresses_the_mailer_cannot_send_to_are_refused_and_no_account_is_created() {
    let app = spawn_app().await;
    let base = unique_email("bad");
    let (local, domain) = base.split_once('@').unwrap();

    for bad in [
        format!("{local},x@{domain}"),
        format!("{local};x@{domain}"),
        format!("<{local}@{domain}>"),
        format!("{local}>@{domain}"),
        format!("{local} x@{domain}"),
        format!("\"{local}\"@{domain}"),
    ] {
        let resp = app.post_json("/v1/user/register", &json!({"flag": 100, "email": bad})).await;
        assert_eq!(resp.status(), 400, "{bad}");
        let body: Value = resp.json().await.unwrap();
        assert_eq!(body["message"], "正しいメールアドレスの形式で入力してください", "{bad}");
        assert_eq!(users_with_email(&app, &bad), 0, "{bad}");
    }
}
