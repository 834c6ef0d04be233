//! Operators keep a project's manual sponsor list through the real wiring: an entry with a logo (a real PNG,
//! re-encoded and served) reaches the public wall within a second even with the read cache on; refused fields
//! get their messages; entries are edited, moved and deleted; another project's entry is not found; every
//! change is in the activity log by name; members cannot touch any of it.

use serde_json::{json, Value};

use crate::helpers::{spawn_demo_app, spawn_demo_app_with, TestApp};

const ADMIN: &str = "demo-admin@example.jp";
const MEMBER: &str = "demo-taro@example.jp";
const PASSWORD: &str = "demo-password-1";
/// The demo project with the manual list switched on.
const MANUAL: &str = "kiryu-textile";

/// A real 4x2 PNG, encoded here.
fn small_png() -> Vec<u8> {
    let img = image::RgbImage::from_fn(4, 2, |x, _| image::Rgb([x as u8 * 60, 20, 200]));
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

/// Sends the entry form as the screen does: every text, and the file when there is one.
async fn send_form(
    app: &TestApp,
    token: Option<&str>,
    path: &str,
    fields: &[(&str, &str)],
    file: Option<Vec<u8>>,
) -> (u16, Value) {
    let boundary = "----sponsor-test-boundary";
    let mut body = Vec::new();
    for (name, value) in fields {
        body.extend_from_slice(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n").as_bytes(),
        );
    }
    if let Some(bytes) = file {
        body.extend_from_slice(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"logo.png\"\r\n\
                 Content-Type: image/png\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend_from_slice(&bytes);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    let mut request = app
        .client
        .post(format!("{}{path}", app.address))
        .header("content-type", format!("multipart/form-data; boundary={boundary}"))
        .body(body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn post(app: &TestApp, token: &str, path: &str, body: &Value) -> (u16, Value) {
    let response = app.post_json_with_token(path, token, body).await;
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

fn field_message<'a>(body: &'a Value, field: &str) -> &'a str {
    body["errors"].as_array().unwrap().iter().find(|e| e["field"] == field).unwrap()["message"].as_str().unwrap()
}

fn names_of(list: &Value, course: &str) -> Vec<String> {
    list["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["course"] == course)
        .map(|e| e["name"].as_str().unwrap().to_string())
        .collect()
}

fn entry<'a>(list: &'a Value, name: &str) -> &'a Value {
    list["entries"].as_array().unwrap().iter().find(|e| e["name"] == name).unwrap()
}

async fn wall(app: &TestApp, id: i64) -> Value {
    app.get(&format!("/v1/sponsors/get/list?project_id={id}")).await.json().await.unwrap()
}

#[tokio::test]
async fn a_course_a_sponsor_with_a_logo_is_on_the_public_wall_within_a_second_with_the_cache_on() {
    let app = spawn_demo_app_with(|s| s.catalog_cache_ttl_ms = 3_000).await;
    let admin = app.login(ADMIN, PASSWORD).await;
    let id = app.project_id(MANUAL).await;
    // The wall is read (and cached) before the edit.
    let before = wall(&app, id).await;
    assert_eq!(before["manual"], true);

    let fields = [
        ("course", "A"),
        ("name", " 桐生信用金庫 "),
        ("link", "https://kiryu-shinkin.example.jp"),
        ("amount", ""),
        ("latestDate", ""),
    ];
    let path = format!("/v1/admin/projects/{id}/manual-sponsors");
    let (status, list) = send_form(&app, Some(&admin), &path, &fields, Some(small_png())).await;
    assert_eq!(status, 200, "{list}");
    let added = entry(&list, "桐生信用金庫");
    let logo = added["logoSrc"].as_str().unwrap().to_string();
    assert!(logo.starts_with(&format!("/media/projects/{id}/sponsors/")) && logo.ends_with(".png"), "{added}");
    assert_eq!(names_of(&list, "A").last().map(String::as_str), Some("桐生信用金庫"), "the end of course A");
    let served = image::load_from_memory(&app.get(&logo).await.bytes().await.unwrap()).unwrap();
    assert_eq!((served.width(), served.height()), (4, 2));

    let saved_at = std::time::Instant::now();
    let shown = loop {
        let now = wall(&app, id).await;
        let on_a = now["courses"]["A"].as_array().unwrap().iter().any(|l| l["name"] == "桐生信用金庫");
        if on_a {
            break now;
        }
        assert!(saved_at.elapsed() < std::time::Duration::from_millis(1_500), "not on the wall: {now}");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    };
    let shown_logo = shown["courses"]["A"].as_array().unwrap().iter().find(|l| l["name"] == "桐生信用金庫").unwrap();
    assert_eq!(shown_logo["src"], logo.as_str());
    assert_eq!(shown_logo["link"], "https://kiryu-shinkin.example.jp");
}

#[tokio::test]
async fn refused_fields_get_their_messages_and_nothing_is_added() {
    let app = spawn_demo_app().await;
    let admin = app.login(ADMIN, PASSWORD).await;
    let id = app.project_id(MANUAL).await;
    let path = format!("/v1/admin/projects/{id}/manual-sponsors");
    let count =
        app.get_with_token(&path, &admin).await.json::<Value>().await.unwrap()["entries"].as_array().unwrap().len();

    let fields = [
        ("course", "B"),
        ("name", " "),
        ("link", "javascript:alert(1)"),
        ("amount", "1.5"),
        ("latestDate", "2026-02-30"),
    ];
    let (status, body) = send_form(&app, Some(&admin), &path, &fields, None).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"], "validation_failed");
    assert_eq!(field_message(&body, "name"), "スポンサー名を入力してください。");
    assert_eq!(field_message(&body, "link"), "リンク先はhttp://またはhttps://で始まるURLを入力してください。");
    assert_eq!(field_message(&body, "amount"), "金額は0円以上10億円以下の整数（円）で入力してください。");
    assert_eq!(field_message(&body, "latestDate"), "最新の支援日を正しい日付で入力してください。");
    assert_eq!(field_message(&body, "file"), "A・B・Cコースにはロゴ画像が必要です。画像を選択してください。");

    let (status, body) = send_form(&app, Some(&admin), &path, &[("course", "D"), ("name", "x")], None).await;
    assert_eq!(
        (status, field_message(&body, "course")),
        (400, "コースはA・B・C・個人サポーターのいずれかを選んでください。")
    );
    let (status, body) = send_form(
        &app,
        Some(&admin),
        &path,
        &[("course", "A"), ("name", "x")],
        Some(b"%PDF-1.4 not an image".to_vec()),
    )
    .await;
    assert_eq!((status, field_message(&body, "file")), (400, "jpg、jpeg、png、gif形式の画像を選択してください。"));
    let long = "あ".repeat(101);
    let (status, body) = send_form(&app, Some(&admin), &path, &[("course", "supporter"), ("name", &long)], None).await;
    assert_eq!((status, field_message(&body, "name")), (400, "スポンサー名は100文字以内で入力してください。"));

    let after = app.get_with_token(&path, &admin).await.json::<Value>().await.unwrap();
    assert_eq!(after["entries"].as_array().unwrap().len(), count);
}

#[tokio::test]
async fn entries_are_edited_moved_and_deleted_and_each_change_is_logged_by_name() {
    let app = spawn_demo_app().await;
    let admin = app.login(ADMIN, PASSWORD).await;
    let id = app.project_id(MANUAL).await;
    let base = format!("/v1/admin/projects/{id}/manual-sponsors");
    let list = app.get_with_token(&base, &admin).await.json::<Value>().await.unwrap();
    assert_eq!(list["usesManualSponsors"], true);
    let supporters = names_of(&list, "supporter");
    assert_eq!(supporters, vec!["榛名 優子", "赤城 次郎", "群馬 太郎", "上州 花子"]);
    // Undisclosed amounts and no dates: every neighbour ties, so only the ends cannot move.
    let first = entry(&list, "榛名 優子");
    assert_eq!((first["canMoveUp"].as_bool(), first["canMoveDown"].as_bool()), (Some(false), Some(true)));

    let second = entry(&list, "赤城 次郎")["id"].as_i64().unwrap();
    let (status, moved) = post(&app, &admin, &format!("{base}/{second}/move"), &json!({"direction": "up"})).await;
    assert_eq!(status, 200, "{moved}");
    assert_eq!(names_of(&moved, "supporter")[..2], ["赤城 次郎".to_string(), "榛名 優子".to_string()]);
    let public = wall(&app, id).await;
    assert_eq!(public["courses"]["supporters"][0], "赤城 次郎");
    let (status, refused) = post(&app, &admin, &format!("{base}/{second}/move"), &json!({"direction": "up"})).await;
    assert_eq!(status, 400, "{refused}");
    assert!(field_message(&refused, "direction").starts_with("金額と最新の支援日の順に並ぶため"));

    // An amount ranks the entry first, whatever its position.
    let last = entry(&moved, "上州 花子")["id"].as_i64().unwrap();
    let fields = [("course", "supporter"), ("name", "上州 花子"), ("amount", "30000"), ("latestDate", "2026-11-01")];
    let (status, edited) = send_form(&app, Some(&admin), &format!("{base}/{last}"), &fields, None).await;
    assert_eq!(status, 200, "{edited}");
    assert_eq!(names_of(&edited, "supporter")[0], "上州 花子");
    assert_eq!(entry(&edited, "上州 花子")["amount"], 30_000);
    assert_eq!(entry(&edited, "上州 花子")["latestDate"], "2026-11-01");

    let (status, deleted) = post(&app, &admin, &format!("{base}/{last}/delete"), &json!({})).await;
    assert_eq!(status, 200, "{deleted}");
    assert!(!names_of(&deleted, "supporter").contains(&"上州 花子".to_string()));
    assert!(!wall(&app, id).await["courses"]["supporters"].as_array().unwrap().iter().any(|n| n == "上州 花子"));

    let actions: Value = app.get_with_token("/v1/admin/get/actions", &admin).await.json().await.unwrap();
    let logged: Vec<(String, String)> = actions["actions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["action"].as_str().unwrap().starts_with("manual_sponsor"))
        .map(|a| (a["action"].as_str().unwrap().to_string(), a["detail"]["title"].as_str().unwrap().to_string()))
        .collect();
    assert_eq!(
        logged,
        vec![
            ("manual_sponsor_deleted".to_string(), "上州 花子".to_string()),
            ("manual_sponsor_updated".to_string(), "上州 花子".to_string()),
            ("manual_sponsors_reordered".to_string(), "赤城 次郎".to_string()),
        ]
    );
    let update =
        actions["actions"].as_array().unwrap().iter().find(|a| a["action"] == "manual_sponsor_updated").unwrap();
    assert_eq!(update["detail"]["changes"]["amount"], json!([null, 30_000]));
    assert_eq!(update["detail"]["projectTitle"], "桐生織 機場（はたば）再生プロジェクト");
}

#[tokio::test]
async fn unknown_projects_entries_and_other_projects_entries_are_not_found_and_members_see_nothing() {
    let app = spawn_demo_app().await;
    let admin = app.login(ADMIN, PASSWORD).await;
    let member = app.login(MEMBER, PASSWORD).await;
    let manual = app.project_id(MANUAL).await;
    let other = app.project_id("maebashi-rose-garden").await;
    let list = app.get_with_token(&format!("/v1/admin/projects/{manual}/manual-sponsors"), &admin).await;
    let list: Value = list.json().await.unwrap();
    let theirs = list["entries"][0]["id"].as_i64().unwrap();

    let fields = [("course", "supporter"), ("name", "乗っ取り")];
    let (status, _) =
        send_form(&app, Some(&admin), &format!("/v1/admin/projects/{other}/manual-sponsors/{theirs}"), &fields, None)
            .await;
    assert_eq!(status, 404);
    let (status, _) =
        post(&app, &admin, &format!("/v1/admin/projects/{other}/manual-sponsors/{theirs}/delete"), &json!({})).await;
    assert_eq!(status, 404);
    let unknown = app.get_with_token("/v1/admin/projects/987654/manual-sponsors", &admin).await;
    assert_eq!(unknown.status(), 404);
    let (status, _) = post(
        &app,
        &admin,
        &format!("/v1/admin/projects/{manual}/manual-sponsors/987654/move"),
        &json!({"direction": "down"}),
    )
    .await;
    assert_eq!(status, 404);

    // A member is answered like an unknown path, and nothing changes.
    let (status, body) =
        send_form(&app, Some(&member), &format!("/v1/admin/projects/{manual}/manual-sponsors"), &fields, None).await;
    assert_eq!((status, body["error"].as_str()), (404, Some("not_found")));
    let (status, _) =
        send_form(&app, None, &format!("/v1/admin/projects/{manual}/manual-sponsors"), &fields, None).await;
    assert_eq!(status, 404);
    let after: Value =
        app.get_with_token(&format!("/v1/admin/projects/{manual}/manual-sponsors"), &admin).await.json().await.unwrap();
    assert_eq!(after["entries"], list["entries"]);
    assert_eq!(names_of(&after, "supporter").len(), 4);
}
