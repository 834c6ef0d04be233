//! Mass mail through the real wiring and the mail catcher: a relay outage in
//! the middle of a 500-recipient mail, sanitising, and the opt-out.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};
use tokio::net::{TcpListener, TcpStream};

use crate::helpers::{spawn_demo_app_with, TestApp};

const ADMIN: &str = "demo-admin@example.jp";
const PASSWORD: &str = "demo-password-1";

/// The catcher's SMTP port (the one the app would use without the relay in front).
fn catcher_smtp_port() -> u16 {
    std::env::var("SMTP_PORT").ok().and_then(|p| p.parse().ok()).unwrap_or(1025)
}

/// A relay in front of the catcher that the test can stop and start again: while stopped nothing listens on its
/// port (connections are refused, as when a relay is down); sessions already under way finish.
struct Relay {
    port: u16,
    /// Sessions let through so far.
    passed: Arc<AtomicUsize>,
    stop_after: usize,
    restart: Arc<tokio::sync::Notify>,
}

impl Relay {
    async fn start(stop_after: usize) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let passed = Arc::new(AtomicUsize::new(0));
        let restart = Arc::new(tokio::sync::Notify::new());
        let (counter, again) = (Arc::clone(&passed), Arc::clone(&restart));
        tokio::spawn(async move {
            let mut listener = Some(listener);
            loop {
                let Some(open) = listener.as_ref() else {
                    again.notified().await;
                    listener = Some(TcpListener::bind(("127.0.0.1", port)).await.unwrap());
                    continue;
                };
                let (client, _) = open.accept().await.unwrap();
                let n = counter.fetch_add(1, Ordering::SeqCst) + 1;
                tokio::spawn(forward(client));
                if n == stop_after {
                    // The relay goes down: the port is closed until the test starts it again.
                    listener = None;
                }
            }
        });
        Self { port, passed, stop_after, restart }
    }
}

async fn forward(mut client: TcpStream) {
    let Ok(mut upstream) = TcpStream::connect(("127.0.0.1", catcher_smtp_port())).await else {
        return;
    };
    let _ = tokio::io::copy_bidirectional(&mut client, &mut upstream).await;
}

async fn admin_token(app: &TestApp) -> String {
    app.login(ADMIN, PASSWORD).await
}

/// Polls the detail until the job is over; returns the detail.
async fn wait_until_finished(app: &TestApp, token: &str, id: i64, seconds: u64) -> Value {
    let mut last = Value::Null;
    for _ in 0..seconds * 5 {
        let body: Value =
            app.get_with_token(&format!("/v1/mail/get/detail?id={id}"), token).await.json().await.unwrap();
        let status = body["mail"]["progress"]["status"].as_str().unwrap_or_default().to_string();
        last = body;
        if status == "sent" || status == "failed" {
            return last;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    panic!("mail {id} not finished after {seconds} s: {}", last["mail"]["progress"]);
}

/// Every mail the catcher holds, as (recipient, subject) pairs.
async fn catcher_mails(app: &TestApp) -> Vec<Value> {
    let web = std::env::var("MAILDEV_URL").unwrap_or_else(|_| "http://127.0.0.1:1080".into());
    app.client.get(format!("{web}/api/email")).send().await.unwrap().json().await.unwrap()
}

fn recipients_of(mail: &Value) -> Vec<String> {
    mail["to"]
        .as_array()
        .map(|to| to.iter().filter_map(|a| a["address"].as_str().map(str::to_lowercase)).collect())
        .unwrap_or_default()
}

#[tokio::test]
async fn a_relay_outage_half_way_through_500_recipients_still_mails_each_exactly_once() {
    let relay = Relay::start(250).await;
    let port = relay.port;
    let app = spawn_demo_app_with(move |s| {
        s.smtp.port = port;
        s.mass_mail_pause_seconds = 1;
    })
    .await;
    let run = uuid::Uuid::new_v4().simple().to_string();
    // 500 members (the demo members come on top).
    app.execute(&format!(
        "INSERT INTO users (email, status, password_hash) \
         SELECT 'mass-{run}-' || n || '@example.jp', 'member', 'x' FROM generate_series(1, 500) n"
    ));
    let token = admin_token(&app).await;
    let subject = format!("お知らせ {run}");

    let resp = app
        .post_json_with_token(
            "/v1/mail/set/register",
            &token,
            &json!({"projectId": null, "title": subject, "content": "<p>いつもありがとうございます。</p>"}),
        )
        .await;
    assert_eq!(resp.status(), 200);
    let created: Value = resp.json().await.unwrap();
    let id = created["id"].as_i64().unwrap();
    let addresses: Vec<String> =
        created["emails"].as_array().unwrap().iter().map(|e| e.as_str().unwrap().to_lowercase()).collect();
    let mine: Vec<&String> = addresses.iter().filter(|a| a.starts_with(&format!("mass-{run}-"))).collect();
    assert_eq!(mine.len(), 500);

    // The relay stops after 250 sessions: the job pauses with the rest pending.
    let mut paused = Value::Null;
    let started = std::time::Instant::now();
    for _ in 0..600 {
        let body: Value =
            app.get_with_token(&format!("/v1/mail/get/detail?id={id}"), &token).await.json().await.unwrap();
        let error_seen = body["mail"]["recipients"].as_array().unwrap().iter().any(|r| !r["error"].is_null());
        if error_seen {
            paused = body;
            break;
        }
        paused = body;
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let progress = &paused["mail"]["progress"];
    eprintln!("paused after {:?}: {progress}, relay passed {}", started.elapsed(), relay.passed.load(Ordering::SeqCst));
    assert_eq!(progress["status"], "sending", "{progress}");
    assert_eq!(progress["sent"], relay.stop_after, "{progress}");
    assert_eq!(progress["failed"], 0, "{progress}");
    assert!(relay.passed.load(Ordering::SeqCst) >= relay.stop_after);

    // Paused retries find the relay still down (waited for by the attempts they record, not by the clock), and
    // nothing is sent meanwhile; then it comes back.
    let attempts =
        format!("SELECT coalesce(max(attempts), 0)::bigint AS value FROM mail_recipients WHERE mail_id = {id}");
    let first_failure = app.query_i64(&attempts);
    let mut retried = first_failure;
    for _ in 0..300 {
        retried = app.query_i64(&attempts);
        if retried >= first_failure + 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(retried >= first_failure + 2, "two paused retries while the relay is down: {first_failure} -> {retried}");
    assert_eq!(paused_sent(&app, &token, id).await, relay.stop_after, "nothing is sent while the relay is down");
    relay.restart.notify_one();
    let done = wait_until_finished(&app, &token, id, 120).await;

    let progress = &done["mail"]["progress"];
    assert_eq!(progress["status"], "sent", "{progress}");
    assert_eq!(progress["sent"].as_u64().unwrap() as usize, addresses.len(), "{progress}");
    assert_eq!(progress["failed"], 0, "{progress}");
    // Count in the catcher, per recipient: exactly one mail with this subject each.
    let mut per_recipient = std::collections::HashMap::<String, usize>::new();
    for mail in catcher_mails(&app).await {
        if mail["subject"].as_str() == Some(subject.as_str()) {
            for to in recipients_of(&mail) {
                *per_recipient.entry(to).or_default() += 1;
            }
        }
    }
    let wrong: Vec<_> = addresses
        .iter()
        .filter(|a| per_recipient.get(*a) != Some(&1))
        .map(|a| format!("{a}: {:?}", per_recipient.get(a)))
        .collect();
    assert!(
        wrong.is_empty(),
        "{} recipients without exactly one mail: {:?}",
        wrong.len(),
        &wrong[..wrong.len().min(5)]
    );
    assert_eq!(per_recipient.len(), addresses.len(), "nobody else got it");
}

async fn paused_sent(app: &TestApp, token: &str, id: i64) -> usize {
    let body: Value = app.get_with_token(&format!("/v1/mail/get/detail?id={id}"), token).await.json().await.unwrap();
    body["mail"]["progress"]["sent"].as_u64().unwrap() as usize
}

#[tokio::test]
async fn scripts_and_event_handlers_never_reach_a_mail_or_the_detail_page() {
    let app = spawn_demo_app_with(|_| {}).await;
    let token = admin_token(&app).await;
    let run = uuid::Uuid::new_v4().simple().to_string();
    let subject = format!("安全確認 {run}");
    let content = "<p onclick=\"steal()\">本文です</p><script>alert('x')</script>\
                   <img src=\"x\" onerror=\"alert(1)\"><a href=\"javascript:alert(2)\">リンク</a>";

    let resp =
        app.post_json_with_token("/v1/mail/set/register", &token, &json!({"title": subject, "content": content})).await;
    assert_eq!(resp.status(), 200);
    let id = resp.json::<Value>().await.unwrap()["id"].as_i64().unwrap();
    let done = wait_until_finished(&app, &token, id, 30).await;

    let stored = done["mail"]["content"].as_str().unwrap();
    assert!(stored.contains("本文です"), "{stored}");
    for bad in ["<script", "onerror", "onclick", "javascript:"] {
        assert!(!stored.contains(bad), "{bad} in the detail: {stored}");
    }
    let mails: Vec<Value> =
        catcher_mails(&app).await.into_iter().filter(|m| m["subject"].as_str() == Some(subject.as_str())).collect();
    assert!(!mails.is_empty());
    for mail in &mails {
        let html = mail["html"].as_str().unwrap_or_default();
        let text = mail["text"].as_str().unwrap_or_default();
        assert!(html.contains("本文です") && text.contains("本文です"), "both parts carry the body");
        for bad in ["<script", "onerror", "onclick", "javascript:", "alert("] {
            assert!(!html.contains(bad) && !text.contains(bad), "{bad} in a mail");
        }
        // A mail to every member carries the opt-out link in both parts.
        assert!(text.contains("/mail/optout/?token="), "{text}");
        assert!(html.contains("/mail/optout/?token="), "{html}");
    }
}

#[tokio::test]
async fn a_member_who_opted_out_through_the_link_is_skipped_next_time() {
    let app = spawn_demo_app_with(|_| {}).await;
    let token = admin_token(&app).await;
    let run = uuid::Uuid::new_v4().simple().to_string();
    let member = format!("optout-{run}@example.jp");
    app.execute(&format!("INSERT INTO users (email, status, password_hash) VALUES ('{member}', 'member', 'x')"));
    let first_subject = format!("一通目 {run}");

    let resp = app
        .post_json_with_token("/v1/mail/set/register", &token, &json!({"title": first_subject, "content": "<p>1</p>"}))
        .await;
    let first: Value = resp.json().await.unwrap();
    assert!(first["emails"].as_array().unwrap().iter().any(|e| e == member.as_str()));
    let mails = app.mails_to(&member, 1).await;
    let text = mails.last().expect("the first mail").get("text").and_then(Value::as_str).unwrap().to_string();
    let start = text.find("?token=").expect("opt-out link") + "?token=".len();
    let opt_out_token = text[start..].split_whitespace().next().unwrap();

    let forged = app.post_json("/v1/mail/set/optOut", &json!({"token": format!("{opt_out_token}x")})).await;
    assert_eq!(forged.status(), 400);
    let resp = app.post_json("/v1/mail/set/optOut", &json!({"token": opt_out_token})).await;
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.json::<Value>().await.unwrap()["optedOut"], true);

    let resp = app
        .post_json_with_token(
            "/v1/mail/set/register",
            &token,
            &json!({"title": format!("二通目 {run}"), "content": "<p>2</p>"}),
        )
        .await;
    let second: Value = resp.json().await.unwrap();
    let second_emails = second["emails"].as_array().unwrap();
    assert!(!second_emails.is_empty());
    assert!(second_emails.iter().all(|e| e != member.as_str()), "the opted-out member is skipped");
}

#[tokio::test]
async fn the_form_messages_and_the_list_and_detail_as_the_screens_read_them() {
    let app = spawn_demo_app_with(|_| {}).await;
    let token = admin_token(&app).await;

    let resp =
        app.post_json_with_token("/v1/mail/set/register", &token, &json!({"title": " ", "content": "<p></p>"})).await;
    assert_eq!(resp.status(), 400);
    let body: Value = resp.json().await.unwrap();
    let messages: Vec<&str> =
        body["errors"].as_array().unwrap().iter().map(|e| e["message"].as_str().unwrap()).collect();
    assert_eq!(messages, ["タイトルを入力してください。", "内容を入力してください。"]);

    let unknown = app
        .post_json_with_token(
            "/v1/mail/set/register",
            &token,
            &json!({"projectId": 999_999, "title": "t", "content": "<p>c</p>"}),
        )
        .await;
    assert_eq!(unknown.status(), 400);

    let long = format!("<p>{}</p>", "あ".repeat(120));
    let resp =
        app.post_json_with_token("/v1/mail/set/register", &token, &json!({"title": "長い本文", "content": long})).await;
    let id = resp.json::<Value>().await.unwrap()["id"].as_i64().unwrap();
    let list: Value = app.get_with_token("/v1/mail/get/list", &token).await.json().await.unwrap();
    let first = &list["mails"]["data"][0];
    assert_eq!(first["id"], id, "newest first");
    assert_eq!(first["excerpt"], format!("{}…", "あ".repeat(95)));
    assert_eq!(first["senderEmail"], ADMIN);
    assert_eq!(list["mails"]["pages"][0]["page"], 1);

    let missing = app.get_with_token("/v1/mail/get/detail?id=987654", &token).await;
    assert_eq!(missing.status(), 404);
    let member = app.login("demo-hanako@example.jp", PASSWORD).await;
    let hidden = app.get_with_token(&format!("/v1/mail/get/detail?id={id}"), &member).await;
    assert_eq!(hidden.status(), 404, "a member gets the not-found of an unknown path");
}
