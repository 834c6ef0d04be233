//! Mail about kept projects (お気に入り) through the real wiring: the member-level opt-in is the member's own, a
//! public news item reaches followers who opted in (one mail for a supporter who also keeps the project), and the
//! mail 48 hours before a kept project ends goes once per project and member.

use serde_json::{json, Value};

use crate::helpers::{spawn_demo_app, unique_email, TestApp};

const ADMIN: &str = "demo-admin@example.jp";
const SUPPORTER: &str = "demo-taro@example.jp";
const PASSWORD: &str = "demo-password-1";
const SLUG: &str = "maebashi-rose-garden";

async fn member(app: &TestApp, label: &str) -> (String, String) {
    let email = unique_email(label);
    app.register_member(&email, PASSWORD).await;
    let token = app.login(&email, PASSWORD).await;
    (email, token)
}

async fn setting(app: &TestApp, token: &str, enabled: Option<bool>) -> Value {
    let response = match enabled {
        Some(enabled) => app.post_json_with_token("/v1/user/favouriteMail", token, &json!({"enabled": enabled})).await,
        None => app.get_with_token("/v1/user/favouriteMail", token).await,
    };
    assert_eq!(response.status().as_u16(), 200);
    response.json().await.unwrap()
}

async fn keep(app: &TestApp, token: &str, project: i64) {
    let response = app.post_json_with_token(&format!("/v1/user/favourites/{project}"), token, &json!({})).await;
    assert_eq!(response.status().as_u16(), 200);
}

fn recipients_of(app: &TestApp, mail_id: i64, email: &str) -> i64 {
    app.query_i64(&format!(
        "SELECT count(*) AS value FROM mail_recipients r JOIN users u ON u.id = r.user_id \
          WHERE r.mail_id = {mail_id} AND lower(u.email) = lower('{email}')"
    ))
}

#[tokio::test]
async fn the_opt_in_is_off_until_chosen_and_is_each_members_own() {
    let app = spawn_demo_app().await;
    let (_, one) = member(&app, "follow-one").await;
    let (_, other) = member(&app, "follow-other").await;

    assert_eq!(setting(&app, &one, None).await, json!({"enabled": false}));
    assert_eq!(setting(&app, &one, Some(true)).await, json!({"enabled": true}));
    assert_eq!(setting(&app, &one, Some(true)).await, json!({"enabled": true}), "a repeat changes nothing");
    assert_eq!(setting(&app, &other, None).await, json!({"enabled": false}));
    assert_eq!(setting(&app, &one, Some(false)).await, json!({"enabled": false}));
    assert_eq!(app.get("/v1/user/favouriteMail").await.status().as_u16(), 401);
}

#[tokio::test]
async fn a_public_news_mail_reaches_opted_in_followers_once_and_not_those_who_did_not_opt_in() {
    let app = spawn_demo_app().await;
    let project = app.project_id(SLUG).await;
    let (follower, follower_token) = member(&app, "follower").await;
    keep(&app, &follower_token, project).await;
    setting(&app, &follower_token, Some(true)).await;
    let (quiet, quiet_token) = member(&app, "quiet").await;
    keep(&app, &quiet_token, project).await;
    // The supporter also keeps the project and opted in: still one mail.
    let supporter = app.login(SUPPORTER, PASSWORD).await;
    keep(&app, &supporter, project).await;
    setting(&app, &supporter, Some(true)).await;
    let admin = app.login(ADMIN, PASSWORD).await;

    let body = |audience: &str| {
        json!({"title": format!("{audience}のお知らせ"), "body": "<p>開花しました。</p>", "audience": audience,
               "returnIds": [], "publish": true, "publishAt": null, "mailSupporters": true})
    };
    let response =
        app.post_json_with_token(&format!("/v1/admin/projects/{project}/news"), &admin, &body("public")).await;
    let public: Value = response.json().await.unwrap();
    let mail = public["mailId"].as_i64().expect("queued");
    assert_eq!(recipients_of(&app, mail, &follower), 1);
    assert_eq!(recipients_of(&app, mail, SUPPORTER), 1);
    assert_eq!(recipients_of(&app, mail, &quiet), 0, "keeping alone is not asking for mail");
    // After the registration mail, the news.
    let mails = app.mails_to(&follower, 2).await;
    let news = mails.iter().find(|m| m["subject"] == "【活動報告】publicのお知らせ").expect("the news mail");
    assert!(news["text"].as_str().unwrap().contains("/mail/optout/?token="), "{news}");

    // A supporters-only item is not sent to a follower who backs nothing.
    let response =
        app.post_json_with_token(&format!("/v1/admin/projects/{project}/news"), &admin, &body("supporters")).await;
    let limited: Value = response.json().await.unwrap();
    let mail = limited["mailId"].as_i64().expect("queued");
    assert_eq!(recipients_of(&app, mail, &follower), 0);
    assert_eq!(recipients_of(&app, mail, SUPPORTER), 1);
}

#[tokio::test]
async fn a_kept_project_ending_within_48_hours_is_mailed_once_to_opted_in_followers() {
    let app = spawn_demo_app().await;
    let project = app.project_id(SLUG).await;
    let (follower, token) = member(&app, "ending").await;
    keep(&app, &token, project).await;
    setting(&app, &token, Some(true)).await;
    let (quiet, quiet_token) = member(&app, "ending-quiet").await;
    keep(&app, &quiet_token, project).await;
    // The project's last day becomes tomorrow (Tokyo): it closes within 48 hours.
    app.execute(&format!(
        "UPDATE projects SET period_end = (now() AT TIME ZONE 'Asia/Tokyo')::date + 1 WHERE id = {project}"
    ));

    // After the registration mail, the end notice: the sweep runs every 15 s, so wait up to a minute for it.
    let mut mails = Vec::new();
    for _ in 0..3 {
        mails = app.mails_to(&follower, 2).await;
        if mails.len() >= 2 {
            break;
        }
    }
    let ending: Vec<_> = mails.iter().filter(|m| m["subject"].as_str().unwrap().contains("まもなく終了")).collect();
    assert_eq!(ending.len(), 1, "{mails:?}");
    assert!(ending[0]["text"].as_str().unwrap().contains(&format!("/projects/{SLUG}/")));
    assert!(ending[0]["text"].as_str().unwrap().contains("/mail/optout/?token="));
    let notices = format!(
        "SELECT count(*) AS value FROM favourite_end_notices n JOIN users u ON u.id = n.user_id \
          WHERE n.project_id = {project} AND lower(u.email) = lower('{follower}')"
    );
    assert_eq!(app.query_i64(&notices), 1);
    let quiet_notices = notices.replace(&follower, &quiet);
    assert_eq!(app.query_i64(&quiet_notices), 0);
}
