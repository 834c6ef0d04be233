//! Operators fill a project page through the real wiring: images go through the media pipeline (real PNG
//! decoded, re-encoded and served), refused files get field messages, the owner and FAQ reach the public page
//! and the preview, every change is logged, and members cannot touch any of it.

use serde_json::{json, Value};

use crate::helpers::{spawn_demo_app, TestApp};

const ADMIN: &str = "demo-admin@example.jp";
const MEMBER: &str = "demo-taro@example.jp";
const PASSWORD: &str = "demo-password-1";
const SLUG: &str = "maebashi-rose-garden";

/// A real 3x2 PNG (red, green, blue / white, grey, black), encoded here.
fn small_png() -> Vec<u8> {
    let pixels = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255], [128, 128, 128], [0, 0, 0]];
    let img = image::RgbImage::from_fn(3, 2, |x, y| image::Rgb(pixels[(y * 3 + x) as usize]));
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

async fn upload(app: &TestApp, token: &str, id: i64, query: &str, bytes: Vec<u8>, alt: Option<&str>) -> (u16, Value) {
    let boundary = "----content-test-boundary";
    let mut body = Vec::new();
    if let Some(alt) = alt {
        body.extend_from_slice(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"alt\"\r\n\r\n{alt}\r\n").as_bytes(),
        );
    }
    body.extend_from_slice(
        format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"x.png\"\r\n\
             Content-Type: image/png\r\n\r\n"
        )
        .as_bytes(),
    );
    body.extend_from_slice(&bytes);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    let response = app
        .client
        .post(format!("{}/v1/admin/projects/{id}/images?{query}", app.address))
        .bearer_auth(token)
        .header("content-type", format!("multipart/form-data; boundary={boundary}"))
        .body(body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn post(app: &TestApp, token: &str, path: &str, body: &Value) -> (u16, Value) {
    let response = app.post_json_with_token(path, token, body).await;
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// Polls the public detail until `check` holds (public reads may be served from memory for up to a second).
async fn eventually_public(app: &TestApp, check: impl Fn(&Value) -> bool) -> Value {
    let mut last = Value::Null;
    for _ in 0..30 {
        last = app.get(&format!("/v1/project/get/detail?slug={SLUG}")).await.json().await.unwrap();
        if check(&last["project"]) {
            return last["project"].clone();
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("the public page never matched: {last}");
}

fn field_message<'a>(body: &'a Value, field: &str) -> &'a str {
    body["errors"].as_array().unwrap().iter().find(|e| e["field"] == field).unwrap()["message"].as_str().unwrap()
}

#[tokio::test]
async fn an_operator_uploads_images_writes_the_owner_and_faq_and_the_public_page_shows_them() {
    let app = spawn_demo_app().await;
    let admin = app.login(ADMIN, PASSWORD).await;
    let id = app.project_id(SLUG).await;

    let (status, main) = upload(&app, &admin, id, "slot=main", small_png(), None).await;
    assert_eq!(status, 200, "{main}");
    let main_url = main["mainImageUrl"].as_str().unwrap().to_string();
    assert!(main_url.starts_with(&format!("/media/projects/{id}/main/")) && main_url.ends_with(".png"), "{main}");
    // The stored file is a re-encoded PNG of the same picture, served from /media/.
    let served = app.get(&main_url).await;
    assert_eq!(served.status(), 200);
    let decoded = image::load_from_memory(&served.bytes().await.unwrap()).unwrap();
    assert_eq!((decoded.width(), decoded.height()), (3, 2));

    let (status, with_slide) = upload(&app, &admin, id, "slot=slider", small_png(), Some("満開のばら園")).await;
    assert_eq!(status, 200, "{with_slide}");
    let slides = with_slide["slider"].as_array().unwrap();
    let added = slides.last().unwrap();
    assert_eq!(added["alt"], "満開のばら園");

    // The new slide goes first, the others are removed; the owner and one FAQ entry are written.
    let input = json!({
        "honorImgLink": "https://example.jp/honor",
        "slider": [{"id": added["id"], "alt": "満開のばら園（5月）"}],
        "owner": {"name": "前橋ばら園を守る会", "profile": "市民が手入れを続けています。",
                  "links": [{"label": "会のサイト", "url": "https://roses.example.jp"}]},
        "faqs": [{"question": "見学できますか？", "answer": "開園時間中はいつでもどうぞ。"}]
    });
    let (status, saved) = post(&app, &admin, &format!("/v1/admin/projects/{id}/content"), &input).await;
    assert_eq!(status, 200, "{saved}");
    assert_eq!(saved["slider"].as_array().unwrap().len(), 1);
    assert_eq!(saved["owner"]["name"], "前橋ばら園を守る会");

    let (status, with_logo) = upload(&app, &admin, id, "slot=owner", small_png(), None).await;
    assert_eq!(status, 200, "{with_logo}");
    let logo = app.get(with_logo["owner"]["imageUrl"].as_str().unwrap()).await.bytes().await.unwrap();
    let logo = image::load_from_memory(&logo).unwrap();
    assert_eq!((logo.width(), logo.height()), (3, 3), "a logo is padded into a square");

    let page = eventually_public(&app, |p| p["owner"]["name"] == "前橋ばら園を守る会").await;
    assert_eq!(page["urls"]["main"], main_url.as_str());
    assert_eq!(page["slider"], json!([{"src": added["src"], "alt": "満開のばら園（5月）"}]));
    assert_eq!(page["owner"]["links"][0]["url"], "https://roses.example.jp");
    assert_eq!(page["owner"]["imageUrl"], with_logo["owner"]["imageUrl"]);
    assert_eq!(page["faqs"], json!([{"question": "見学できますか？", "answer": "開園時間中はいつでもどうぞ。"}]));
    let preview: Value =
        app.get_with_token(&format!("/v1/admin/projects/{id}/preview"), &admin).await.json().await.unwrap();
    assert_eq!(preview["project"]["faqs"][0]["question"], "見学できますか？");

    // Every change is in the log with before and after.
    let logged = app.query_text(&format!(
        "SELECT string_agg(action || ' ' || detail::text, E'\\n' ORDER BY id) AS value FROM admin_actions \
          WHERE project_id = {id} AND action IN ('project_content_updated', 'project_image_changed')"
    ));
    assert!(logged.contains(r#""slot": "main""#) || logged.contains(r#""slot":"main""#), "{logged}");
    assert!(logged.contains("前橋ばら園を守る会"), "{logged}");
    assert_eq!(logged.lines().count(), 4, "{logged}");

    // Removing the main image clears it from the page too.
    let (status, removed) =
        post(&app, &admin, &format!("/v1/admin/projects/{id}/images/remove"), &json!({"slot": "main"})).await;
    assert_eq!(status, 200, "{removed}");
    assert!(removed["mainImageUrl"].is_null());
    eventually_public(&app, |p| p["urls"]["main"].is_null()).await;
}

#[tokio::test]
async fn refused_uploads_and_fields_get_field_messages_and_change_nothing() {
    let app = spawn_demo_app().await;
    let admin = app.login(ADMIN, PASSWORD).await;
    let id = app.project_id(SLUG).await;
    let before: Value =
        app.get_with_token(&format!("/v1/admin/projects/{id}/content"), &admin).await.json().await.unwrap();

    let (status, body) = upload(&app, &admin, id, "slot=main", b"%PDF-1.7 a document".to_vec(), None).await;
    assert_eq!((status, field_message(&body, "file")), (400, "jpg、jpeg、png、gif形式の画像を選択してください。"));

    let mut large = small_png();
    large.resize(2_097_153, 0);
    let (status, body) = upload(&app, &admin, id, "slot=main", large, None).await;
    assert_eq!((status, field_message(&body, "file")), (400, "ファイルサイズは2MB以内にしてください。"));

    // A tiny file declaring 7000 x 7000 pixels (49 megapixels) is refused before it is decoded.
    let bomb = app_server::media::crafted_png(7000, 7000);
    let (status, body) = upload(&app, &admin, id, "slot=slider", bomb, Some("x")).await;
    assert_eq!(status, 400, "{body}");
    assert!(field_message(&body, "file").starts_with("画像の縦横が大きすぎます。"), "{body}");

    let (status, body) = post(
        &app,
        &admin,
        &format!("/v1/admin/projects/{id}/content"),
        &json!({"honorImgLink": "javascript:alert(1)", "slider": [], "owner": null,
                "faqs": [{"question": "質問", "answer": " "}]}),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(field_message(&body, "honorImgLink"), "リンク先はhttp://またはhttps://で始まるURLを入力してください。");
    assert_eq!(field_message(&body, "faqs.0.answer"), "回答を入力してください。");

    let after: Value =
        app.get_with_token(&format!("/v1/admin/projects/{id}/content"), &admin).await.json().await.unwrap();
    assert_eq!(before, after);
}

#[tokio::test]
async fn a_member_cannot_read_or_change_a_project_s_content() {
    let app = spawn_demo_app().await;
    let member = app.login(MEMBER, PASSWORD).await;
    let id = app.project_id(SLUG).await;

    let (status, body) = upload(&app, &member, id, "slot=main", small_png(), None).await;
    assert_eq!((status, body["error"].as_str()), (404, Some("not_found")));
    let (status, _) = post(&app, &member, &format!("/v1/admin/projects/{id}/content"), &json!({})).await;
    assert_eq!(status, 404);
    assert_eq!(app.get_with_token(&format!("/v1/admin/projects/{id}/content"), &member).await.status(), 404);
    let files = app.query_i64(&format!(
        "SELECT count(*) AS value FROM admin_actions WHERE project_id = {id} AND action = 'project_image_changed'"
    ));
    assert_eq!(files, 0);
}

#[tokio::test]
async fn an_operator_sets_the_question_the_bank_account_and_the_sponsor_switches_and_the_page_follows() {
    let app = spawn_demo_app().await;
    let admin = app.login(ADMIN, PASSWORD).await;
    let id = app.project_id(SLUG).await;
    let path = format!("/v1/admin/projects/{id}/settings");
    let before: Value = app.get_with_token(&path, &admin).await.json().await.unwrap();
    assert_eq!(before["connectedAccountLocked"], true, "a demo project is published: {before}");

    let settings = |bank: Value, account: &Value| {
        json!({
            "additional": {"label": "Tシャツのサイズ", "text": "S・M・Lからお選びください。", "description": null,
                           "alert": "サイズを入力してください。", "formLine": 1},
            "bank": bank,
            "connectedAccountId": account,
            "usesManualSponsors": false,
            "hideFooterSponsors": true
        })
    };
    let account = &before["connectedAccountId"];
    let partial = json!({"bank": "群馬銀行", "branch": "", "kinds": "普通", "number": "1234567", "nominee": "カイ"});
    let (status, body) = post(&app, &admin, &path, &settings(partial, account)).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(field_message(&body, "bank"), "振込先の口座は5項目すべてを入力するか、すべて空欄にしてください。");
    let (status, body) = post(&app, &admin, &path, &settings(Value::Null, &json!("acct_changed1"))).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(field_message(&body, "connectedAccountId"), "公開後は連結アカウントを変更できません。");
    assert_eq!(before["feeSchedule"], "standard");
    let mut other_rates = settings(Value::Null, account);
    other_rates["feeSchedule"] = json!("internal");
    let (status, body) = post(&app, &admin, &path, &other_rates).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(field_message(&body, "feeSchedule"), "公開後は手数料の区分を変更できません。");

    let bank = json!({"bank": "群馬銀行", "branch": "前橋支店", "kinds": "普通", "number": "1234567",
                      "nominee": "マエバシバラエンノカイ"});
    let (status, saved) = post(&app, &admin, &path, &settings(bank, account)).await;
    assert_eq!(status, 200, "{saved}");
    assert_eq!(saved["bank"]["branch"], "前橋支店");

    let page = eventually_public(&app, |p| p["additionalData"]["label"] == "Tシャツのサイズ").await;
    assert_eq!(page["additionalData"]["alert"], "サイズを入力してください。");
    assert_eq!(page["settings"]["hideFooterSponsors"], true, "{page}");
    assert_eq!(page["anonymousBank"]["branch"], "前橋支店");
    let logged = app.query_text(&format!(
        "SELECT detail::text AS value FROM admin_actions WHERE project_id = {id} \
          AND action = 'project_settings_updated' ORDER BY id DESC LIMIT 1"
    ));
    assert!(logged.contains("hideFooterSponsors") && logged.contains("前橋支店"), "{logged}");
}
