//! News (活動報告) through the real wiring: an operator writes, schedules and publishes; a supporters-only item is
//! locked for everyone it does not admit; its mail reaches the supporters once, with the opt-out link, and never
//! an opted-out member; nobody but an administrator can change anything.

use serde_json::{json, Value};

use crate::helpers::{spawn_demo_app, unique_email, TestApp};

const ADMIN: &str = "demo-admin@example.jp";
const SUPPORTER: &str = "demo-taro@example.jp";
const PASSWORD: &str = "demo-password-1";
const SLUG: &str = "maebashi-rose-garden";

fn input(title: &str, audience: &str, mail: bool) -> Value {
    json!({
        "title": title, "body": "<p>苗を植えました。</p><script>alert(1)</script>", "audience": audience,
        "returnIds": [], "publish": true, "publishAt": null, "mailSupporters": mail
    })
}

fn unique_title(prefix: &str) -> String {
    format!("{prefix}{}", &uuid::Uuid::new_v4().simple().to_string()[..8])
}

async fn post(app: &TestApp, token: &str, path: &str, body: &Value) -> (u16, Value) {
    let response = app.post_json_with_token(path, token, body).await;
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// The public list as `token` reads it, polled until `check` holds (public reads may be cached for a moment).
async fn news_until(app: &TestApp, project: i64, token: Option<&str>, check: impl Fn(&[Value]) -> bool) -> Vec<Value> {
    let path = format!("/v1/information/get/list?project_id={project}");
    let mut last = Vec::new();
    for _ in 0..50 {
        let response = match token {
            Some(token) => app.get_with_token(&path, token).await,
            None => app.get(&path).await,
        };
        let body: Value = response.json().await.unwrap();
        last = body["resInformation"].as_array().unwrap().clone();
        if check(&last) {
            return last;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("the news never matched: {last:?}");
}

fn item<'a>(list: &'a [Value], title: &str) -> Option<&'a Value> {
    list.iter().find(|n| n["title"] == title)
}

#[tokio::test]
async fn a_supporters_only_item_published_with_mail_is_locked_for_others_read_by_the_supporter_and_mailed_once() {
    let app = spawn_demo_app().await;
    let project = app.project_id(SLUG).await;
    let paid = app.query_i64(&format!(
        "SELECT count(*) AS value FROM sales s JOIN users u ON u.id = s.user_id \
          WHERE s.project_id = {project} AND u.email = '{SUPPORTER}' AND s.status = 'succeeded'"
    ));
    assert!(paid > 0, "the demo supporter backs the project");
    let admin = app.login(ADMIN, PASSWORD).await;
    let title = unique_title("支援者の皆さまへ");

    let (status, created) =
        post(&app, &admin, &format!("/v1/admin/projects/{project}/news"), &input(&title, "supporters", true)).await;
    assert_eq!(status, 200, "{created}");
    assert_eq!(created["state"], "published");
    assert!(!created["body"].as_str().unwrap().contains("script"), "sanitised: {created}");
    assert!(created["mailQueuedAt"].is_string(), "mailed at once: {created}");
    let news_id = created["id"].as_i64().unwrap();

    // A guest and a member who backs nothing see a locked teaser: the title, no body.
    let guest = news_until(&app, project, None, |l| item(l, &title).is_some()).await;
    let teaser = item(&guest, &title).unwrap();
    assert_eq!((teaser["locked"].clone(), teaser["description"].clone()), (json!(true), Value::Null));
    assert_eq!(teaser["audience"], "supporters");
    let stranger_email = unique_email("stranger");
    app.register_member(&stranger_email, PASSWORD).await;
    let stranger = app.login(&stranger_email, PASSWORD).await;
    let list = news_until(&app, project, Some(&stranger), |l| item(l, &title).is_some()).await;
    assert_eq!(item(&list, &title).unwrap()["description"], Value::Null);
    // The supporter reads it in full.
    let supporter = app.login(SUPPORTER, PASSWORD).await;
    let list = news_until(&app, project, Some(&supporter), |l| item(l, &title).is_some()).await;
    let full = item(&list, &title).unwrap();
    assert_eq!(full["locked"], false);
    assert_eq!(full["description"], "<p>苗を植えました。</p>");

    // The mail arrives with the item and the one-click opt-out link.
    let mails = app.mails_to(SUPPORTER, 1).await;
    let mail = mails.iter().find(|m| m["subject"].as_str().is_some_and(|s| s.contains(&title))).expect("news mail");
    assert!(mail["text"].as_str().unwrap().contains("/mail/optout/?token="), "{mail}");
    assert!(mail["html"].as_str().unwrap().contains(&format!("/projects/{SLUG}/")), "{mail}");

    // Saving it again (a retried publish) mails nobody again.
    let (status, again) =
        post(&app, &admin, &format!("/v1/admin/projects/{project}/news/{news_id}"), &input(&title, "supporters", true))
            .await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["mailId"], created["mailId"]);
    let sent_mails = app.query_i64(&format!(
        "SELECT count(*) AS value FROM mail_recipients r JOIN sent_mails m ON m.id = r.mail_id \
          JOIN users u ON u.id = r.user_id WHERE m.segment = 'project_news' AND m.title LIKE '%{title}%' \
          AND u.email = '{SUPPORTER}'"
    ));
    assert_eq!(sent_mails, 1);
    let stranger_mails = app.query_i64(&format!(
        "SELECT count(*) AS value FROM mail_recipients r JOIN users u ON u.id = r.user_id \
          WHERE r.mail_id = {} AND u.email = '{stranger_email}'",
        created["mailId"]
    ));
    assert_eq!(stranger_mails, 0, "a non-supporter is not mailed a supporters-only item");

    // Each change is in the audit log, by name.
    let actions = app.query_text(&format!(
        "SELECT string_agg(action, ',' ORDER BY id) AS value FROM admin_actions \
          WHERE project_id = {project} AND (detail->>'newsId')::bigint = {news_id}"
    ));
    assert_eq!(actions, "news_created,mail_sent,news_updated");
}

#[tokio::test]
async fn a_draft_and_a_scheduled_item_stay_off_the_public_list_and_a_deleted_one_leaves_it() {
    let app = spawn_demo_app().await;
    let project = app.project_id(SLUG).await;
    let admin = app.login(ADMIN, PASSWORD).await;
    let draft_title = unique_title("下書き");
    let scheduled_title = unique_title("予約");
    let public_title = unique_title("公開");
    let path = format!("/v1/admin/projects/{project}/news");

    let mut draft_input = input(&draft_title, "public", true);
    draft_input["publish"] = json!(false);
    let (status, draft) = post(&app, &admin, &path, &draft_input).await;
    assert_eq!((status, draft["state"].clone(), draft["mailQueuedAt"].clone()), (200, json!("draft"), Value::Null));
    let mut scheduled_input = input(&scheduled_title, "public", false);
    scheduled_input["publishAt"] = json!((chrono::Utc::now() + chrono::Duration::hours(3)).to_rfc3339());
    let (status, scheduled) = post(&app, &admin, &path, &scheduled_input).await;
    assert_eq!((status, scheduled["state"].clone()), (200, json!("scheduled")));
    let (_, public) = post(&app, &admin, &path, &input(&public_title, "public", false)).await;

    let list = news_until(&app, project, None, |l| item(l, &public_title).is_some()).await;
    assert!(item(&list, &draft_title).is_none() && item(&list, &scheduled_title).is_none());
    assert_eq!(item(&list, &public_title).unwrap()["description"], "<p>苗を植えました。</p>");

    let (status, remaining) = post(&app, &admin, &format!("{path}/{}/delete", public["id"]), &json!({})).await;
    assert_eq!(status, 200, "{remaining}");
    news_until(&app, project, None, |l| item(l, &public_title).is_none()).await;
    let (status, _) = post(&app, &admin, &format!("{path}/{}/delete", public["id"]), &json!({})).await;
    assert_eq!(status, 404, "already gone");
}

#[tokio::test]
async fn a_member_cannot_write_news_and_a_blank_title_is_refused_with_its_message() {
    let app = spawn_demo_app().await;
    let project = app.project_id(SLUG).await;
    let member = app.login(SUPPORTER, PASSWORD).await;
    let path = format!("/v1/admin/projects/{project}/news");

    let (status, _) = post(&app, &member, &path, &input("乗っ取り", "public", true)).await;
    assert_eq!(status, 404);
    let any = app.query_i64(&format!("SELECT min(id) AS value FROM project_news WHERE project_id = {project}"));
    let (status, _) = post(&app, &member, &format!("{path}/{any}/delete"), &json!({})).await;
    assert_eq!(status, 404);
    assert_eq!(app.query_i64(&format!("SELECT count(*) AS value FROM project_news WHERE id = {any}")), 1);

    let admin = app.login(ADMIN, PASSWORD).await;
    let (status, body) = post(&app, &admin, &path, &input("  ", "public", false)).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"], "validation_failed");
    assert!(body.to_string().contains("タイトルを入力してください。"), "{body}");
    let (status, body) = post(
        &app,
        &admin,
        &path,
        &json!({"title": "t", "body": "", "audience": "public", "returnIds": [1], "publish": true, "mailSupporters": false}),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    // Another project's item is not this project's.
    let other = app.project_id("kiryu-textile").await;
    let (status, _) =
        post(&app, &admin, &format!("/v1/admin/projects/{other}/news/{any}"), &input("t", "public", false)).await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn an_opted_out_supporter_is_not_mailed_the_news() {
    let app = spawn_demo_app().await;
    let project = app.project_id(SLUG).await;
    app.execute(&format!("INSERT INTO mail_opt_outs (user_id) SELECT id FROM users WHERE email = '{SUPPORTER}'"));
    let admin = app.login(ADMIN, PASSWORD).await;
    let title = unique_title("お礼");

    let (status, created) =
        post(&app, &admin, &format!("/v1/admin/projects/{project}/news"), &input(&title, "public", true)).await;
    assert_eq!(status, 200, "{created}");
    let mail_id = created["mailId"].as_i64().expect("queued");

    let recipients = app.query_i64(&format!("SELECT count(*) AS value FROM mail_recipients WHERE mail_id = {mail_id}"));
    assert!(recipients > 0, "other supporters are mailed");
    let opted_out = app.query_i64(&format!(
        "SELECT count(*) AS value FROM mail_recipients r JOIN users u ON u.id = r.user_id \
          WHERE r.mail_id = {mail_id} AND u.email = '{SUPPORTER}'"
    ));
    assert_eq!(opted_out, 0);
}
