use serde_json::{json, Value};

use crate::helpers::{spawn_app, spawn_app_with, unique_email, TestApp};

const PASSWORD: &str = "correct-horse-1";

pub(crate) async fn member(app: &TestApp, prefix: &str) -> (String, String) {
    let email = unique_email(prefix);
    app.register_member(&email, PASSWORD).await;
    let token = app.login(&email, PASSWORD).await;
    (email, token)
}

pub(crate) async fn auth_user(app: &TestApp, token: &str) -> Value {
    let resp = app.get_with_token("/v1/user/get/authUser", token).await;
    assert_eq!(resp.status(), 200);
    resp.json::<Value>().await.unwrap()["user"].clone()
}

/// A real 1x1 red PNG, small enough to write out.
fn tiny_png() -> Vec<u8> {
    vec![
        0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00,
        0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53, 0xde, 0x00, 0x00, 0x00,
        0x0c, 0x49, 0x44, 0x41, 0x54, 0x08, 0xd7, 0x63, 0xf8, 0xcf, 0xc0, 0x00, 0x00, 0x03, 0x01, 0x01, 0x00, 0x18,
        0xdd, 0x8d, 0xb0, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
    ]
}

async fn upload(app: &TestApp, token: &str, kind: &str, bytes: Vec<u8>, name: &str) -> reqwest::Response {
    let boundary = "----crowdfunding-test-boundary";
    let mut body = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(&bytes);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    app.client
        .post(format!("{}/v1/user/set/uploadfile?type={kind}", app.address))
        .bearer_auth(token)
        .header("content-type", format!("multipart/form-data; boundary={boundary}"))
        .body(body)
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn auth_user_returns_the_callers_own_data_and_needs_a_token() {
    let app = spawn_app().await;
    let (email, token) = member(&app, "me").await;

    let user = auth_user(&app, &token).await;

    assert_eq!(user["email"], email);
    assert_eq!(user["urls"]["icon"], json!([]));
    assert_eq!(user["addresses"]["main"], json!([]));
    assert_eq!(app.get("/v1/user/get/authUser").await.status(), 401);
}

#[tokio::test]
async fn the_profile_is_updated_for_the_token_user_only() {
    let app = spawn_app().await;
    let (_, token) = member(&app, "profile").await;
    let me = auth_user(&app, &token).await["id"].as_i64().unwrap();

    let resp = app
        .post_json_with_token(
            "/v1/user/set/update",
            &token,
            &json!({"id": me, "username": "上毛 太郎", "displayname": "たろう", "profile": "前橋在住です。", "ageGroup": "30代"}),
        )
        .await;
    assert_eq!(resp.status(), 200);
    let user = auth_user(&app, &token).await;
    assert_eq!(user["username"], "上毛 太郎");
    assert_eq!(user["ageGroup"], "30代");

    // A field left out is left as it is; a blank one clears it (docs/api.md, "Partial updates").
    let partial = app.post_json_with_token("/v1/user/set/update", &token, &json!({"profile": "p2"})).await;
    assert_eq!(partial.status(), 200);
    let user = auth_user(&app, &token).await;
    assert_eq!((user["username"].as_str(), user["displayname"].as_str()), (Some("上毛 太郎"), Some("たろう")));
    assert_eq!((user["profile"].as_str(), user["ageGroup"].as_str()), (Some("p2"), Some("30代")));
    let cleared = app.post_json_with_token("/v1/user/set/update", &token, &json!({"ageGroup": ""})).await;
    assert_eq!(cleared.status(), 200);
    let user = auth_user(&app, &token).await;
    assert!(user["ageGroup"].is_null() || user["ageGroup"] == "", "{user}");
    assert_eq!(user["username"], "上毛 太郎");

    let other = app.post_json_with_token("/v1/user/set/update", &token, &json!({"id": me + 1, "username": "x"})).await;
    assert_eq!(other.status(), 403);
    let long = app.post_json_with_token("/v1/user/set/update", &token, &json!({"username": "あ".repeat(51)})).await;
    assert_eq!(long.status(), 400);
    assert_eq!(long.json::<Value>().await.unwrap()["message"], "ユーザー名は50文字以内で入力してください。");
}

#[tokio::test]
async fn an_uploaded_icon_is_checked_by_content_stored_and_served() {
    let app = spawn_app().await;
    let (_, token) = member(&app, "icon").await;

    let resp = upload(&app, &token, "icon", tiny_png(), "me.png").await;
    assert_eq!(resp.status(), 200);
    let url = resp.json::<Value>().await.unwrap()["data"]["uploaded"]["url"].as_str().unwrap().to_string();
    assert!(url.starts_with("/media/users/"), "{url}");
    let served = app.get(&url).await;
    assert_eq!(served.status(), 200);
    assert_eq!(served.headers()["content-type"], "image/png");
    assert_eq!(served.headers()["cache-control"], "public, max-age=31536000, immutable");
    assert_eq!(auth_user(&app, &token).await["urls"]["icon"][0]["url"], url);

    let svg = upload(&app, &token, "icon", b"<svg xmlns='http://www.w3.org/2000/svg'/>".to_vec(), "x.png").await;
    assert_eq!(svg.status(), 400);
    assert_eq!(svg.json::<Value>().await.unwrap()["message"], "jpg、jpeg、png、gif形式の画像を選択してください。");

    let mut big = tiny_png();
    big.resize(2_097_153, 0);
    let too_big = upload(&app, &token, "logo", big, "big.png").await;
    assert_eq!(too_big.status(), 413);
    assert_eq!(too_big.json::<Value>().await.unwrap()["message"], "ファイルサイズは2MB以内にしてください。");
}

#[tokio::test]
async fn a_png_declaring_20000_by_20000_pixels_is_refused_at_once_with_a_japanese_message() {
    let app = spawn_app().await;
    let (_, token) = member(&app, "bomb").await;
    let bomb = app_server::media::crafted_png(20_000, 20_000);

    let started = std::time::Instant::now();
    let resp = upload(&app, &token, "icon", bomb, "bomb.png").await;
    let elapsed = started.elapsed();

    println!("the 20000x20000 PNG was refused in {elapsed:?}");
    assert_eq!(resp.status(), 400);
    assert_eq!(
        resp.json::<Value>().await.unwrap()["message"],
        "画像の縦横が大きすぎます。縦・横それぞれ8000ピクセル以内、合計4000万画素以内の画像を選択してください。"
    );
    // Decoding it took minutes and 500 MB; the header check (media::tests) takes well under 100 ms, and the
    // whole request, token and rate-limit queries included, well under a second even in a debug build.
    assert!(elapsed < std::time::Duration::from_secs(1), "{elapsed:?}");
    assert_eq!(auth_user(&app, &token).await["urls"]["icon"], json!([]));
}

#[tokio::test]
async fn uploads_past_the_hourly_limit_are_refused_with_429() {
    let app = spawn_app_with(|s| s.uploads_per_hour = 2).await;
    let (_, token) = member(&app, "uploads").await;
    let (_, other) = member(&app, "uploads-other").await;

    for _ in 0..2 {
        assert_eq!(upload(&app, &token, "icon", tiny_png(), "me.png").await.status(), 200);
    }
    let refused = upload(&app, &token, "icon", tiny_png(), "me.png").await;

    assert_eq!(refused.status(), 429);
    assert_eq!(
        refused.json::<Value>().await.unwrap()["message"],
        "リクエストが多すぎます。しばらく時間をおいてから再度お試しください。"
    );
    assert_eq!(upload(&app, &other, "logo", tiny_png(), "logo.png").await.status(), 200, "the limit is per user");
}

#[tokio::test]
async fn corporate_data_is_validated_with_the_spec_messages() {
    let app = spawn_app().await;
    let (_, token) = member(&app, "corp").await;

    let no_name = app
        .post_json_with_token(
            "/v1/user/set/updateCorporateData",
            &token,
            &json!({"corporatename": " ", "corporateurl": ""}),
        )
        .await;
    assert_eq!(no_name.json::<Value>().await.unwrap()["message"], "企業名を入力してください。");
    let bad_url = app
        .post_json_with_token(
            "/v1/user/set/updateCorporateData",
            &token,
            &json!({"corporatename": "上毛商事", "corporateurl": "javascript:alert(1)"}),
        )
        .await;
    assert_eq!(bad_url.json::<Value>().await.unwrap()["message"], "正しいURLの形式で入力してください。");

    let ok = app
        .post_json_with_token(
            "/v1/user/set/updateCorporateData",
            &token,
            &json!({"corporatename": "上毛商事", "corporateurl": "https://jomo.example.jp"}),
        )
        .await;
    assert_eq!(ok.status(), 200);
    let user = auth_user(&app, &token).await;
    assert_eq!(user["corporatename"], "上毛商事");
    assert_eq!(user["corporateurl"], "https://jomo.example.jp");
}

#[tokio::test]
async fn the_delivery_address_is_created_then_replaced() {
    let app = spawn_app().await;
    let (_, token) = member(&app, "address").await;
    let address = json!({
        "name": "上毛 花子", "telNumber": "0272000000", "zip": "3710023", "pref": "群馬県",
        "city": "前橋市", "address": "本町1-1-1", "building": ""
    });

    let created = app.post_json_with_token("/v1/address/set/register", &token, &address).await;
    assert_eq!(created.status(), 200);
    let mut changed = address.clone();
    changed["address"] = json!("本町2-2-2");
    let updated = app.post_json_with_token("/v1/address/set/updater", &token, &changed).await;
    assert_eq!(updated.status(), 200);

    let main = auth_user(&app, &token).await["addresses"]["main"].clone();
    assert_eq!(main.as_array().unwrap().len(), 1);
    assert_eq!(main[0]["address"], "本町2-2-2");
    assert_eq!(main[0]["building"], Value::Null);

    let mut bad = address.clone();
    bad["zip"] = json!("371-0023");
    let refused = app.post_json_with_token("/v1/address/set/register", &token, &bad).await;
    assert_eq!(refused.status(), 400);
    assert_eq!(
        refused.json::<Value>().await.unwrap()["message"],
        "郵便番号は半角数字7桁（ハイフンなし）で入力してください。"
    );
}

#[tokio::test]
async fn a_postal_code_fills_prefecture_city_and_area() {
    let app = spawn_app().await;
    app.execute("INSERT INTO postal_codes (zip, pref, city, town) VALUES ('3710023', '群馬県', '前橋市', '本町')");

    let found = app.get("/v1/address/get/zip?zip=3710023").await;
    assert_eq!(
        found.json::<Value>().await.unwrap(),
        json!({"zip": "3710023", "pref": "群馬県", "city": "前橋市", "address": "本町"})
    );
    assert_eq!(app.get("/v1/address/get/zip?zip=0000000").await.status(), 404);
    assert_eq!(app.get("/v1/address/get/zip?zip=abc").await.status(), 404);
}

/// A project with tax-excluded prices, a return of 3,000 yen and a paid sale of it (3,300 yen with tax) with a
/// display name for `email`'s account.
pub(crate) fn insert_sale(app: &TestApp, email: &str) {
    app.execute(&format!(
        "WITH p AS (INSERT INTO projects (slug, title, target_amount, period_end, tax_includes) \
                    VALUES ('history-{n}', '赤城山の森を守る', 1000000, current_date + 30, FALSE) RETURNING id), \
              r AS (INSERT INTO returns (project_id, slug, return_type, title, price) \
                    SELECT id, 'a', 0, 'お礼のお手紙', 3000 FROM p RETURNING id, project_id), \
              u AS (SELECT id FROM users WHERE lower(email) = lower('{email}')), \
              s AS (INSERT INTO sales (project_id, return_id, user_id, price, lot, amount, tax, total, tax_mode, \
                                       tax_rate_percent, payment_type, status, intent_id, idempotency_key, flag, paid_at) \
                    SELECT r.project_id, r.id, u.id, 3000, 1, 3000, 300, 3300, 'exclusive', 10, 1, 'succeeded', \
                           'pi_test_{n}', 'k-{n}', 1, now() \
                      FROM r, u RETURNING id, project_id, return_id, user_id) \
         INSERT INTO display_names (sales_id, user_id, project_id, return_id, displayname) \
         SELECT id, user_id, project_id, return_id, 'たろう' FROM s",
        n = uuid::Uuid::new_v4().simple()
    ));
}

#[tokio::test]
async fn the_payment_history_lists_only_the_callers_sales_with_labels() {
    let app = spawn_app().await;
    let (email, token) = member(&app, "history").await;
    let (_, other_token) = member(&app, "other").await;

    let empty = app.get_with_token("/v1/sales/get/list?user_id=me", &token).await;
    assert_eq!(empty.json::<Value>().await.unwrap(), json!({"data": []}));

    insert_sale(&app, &email);
    let list: Value = app.get_with_token("/v1/sales/get/list?user_id=me", &token).await.json().await.unwrap();
    let sale = &list["data"][0];
    assert_eq!(sale["project"]["title"], "赤城山の森を守る");
    assert_eq!(sale["total"], 3300);
    assert_eq!(sale["tax"], 300);
    assert_eq!(sale["taxLabel"], "税別");
    assert_eq!(sale["payment_type"], 1);
    assert_eq!(sale["statusLabel"], "支払い済み");
    assert_eq!(sale["displayname"]["displayname"], "たろう");

    let others: Value = app.get_with_token("/v1/sales/get/list?user_id=me", &other_token).await.json().await.unwrap();
    assert_eq!(others["data"], json!([]));
    let me = auth_user(&app, &token).await["id"].as_i64().unwrap();
    let snooping = app.get_with_token(&format!("/v1/sales/get/list?user_id={me}"), &other_token).await;
    assert_eq!(snooping.status(), 403);
}

#[tokio::test]
async fn only_the_owner_renames_a_display_name_and_it_must_not_be_empty() {
    let app = spawn_app().await;
    let (email, token) = member(&app, "owner").await;
    let (_, other_token) = member(&app, "intruder").await;
    insert_sale(&app, &email);
    let list: Value = app.get_with_token("/v1/sales/get/list?user_id=me", &token).await.json().await.unwrap();
    let id = list["data"][0]["displayname"]["id"].as_i64().unwrap();

    let intruder = app
        .post_json_with_token("/v1/displayname/set/update", &other_token, &json!({"id": id, "displayname": "乗っ取り"}))
        .await;
    assert_eq!(intruder.status(), 403);
    let empty =
        app.post_json_with_token("/v1/displayname/set/update", &token, &json!({"id": id, "displayname": "  "})).await;
    assert_eq!(empty.status(), 400);
    assert_eq!(empty.json::<Value>().await.unwrap()["message"], "表示名を入力してください。");

    let ok = app
        .post_json_with_token("/v1/displayname/set/update", &token, &json!({"id": id, "displayname": "上毛の太郎"}))
        .await;
    assert_eq!(ok.status(), 200);
    let list: Value = app.get_with_token("/v1/sales/get/list?user_id=me", &token).await.json().await.unwrap();
    assert_eq!(list["data"][0]["displayname"]["displayname"], "上毛の太郎");
}
