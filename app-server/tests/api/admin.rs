//! The admin area through the real wiring: who may call it at all, the resend of registration mail, and the
//! dashboard's figures against the public sums and the reconcile command.

use serde_json::{json, Value};

use crate::helpers::{activation_key, spawn_demo_app, unique_email, TestApp};
use crate::provider::set_up_card;

const ADMIN: &str = "demo-admin@example.jp";
const MEMBER: &str = "demo-taro@example.jp";
const PASSWORD: &str = "demo-password-1";
const PROJECT: &str = "maebashi-rose-garden";

/// Every operation of the OpenAPI document under the tag `admin`, as (method, path with sample values).
fn admin_operations(doc: &Value) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, op) in item.as_object().expect("path item") {
            let is_admin = op["tags"].as_array().is_some_and(|tags| tags.iter().any(|t| t == "admin"));
            if is_admin {
                // Path parameters get a plausible value: the answer must not depend on it.
                let concrete = path
                    .split('/')
                    .map(|seg| if seg.starts_with('{') && seg.ends_with('}') { "1" } else { seg })
                    .collect::<Vec<_>>()
                    .join("/");
                found.push((method.to_uppercase(), concrete));
            }
        }
    }
    found
}

async fn call(app: &TestApp, method: &str, path: &str, token: Option<&str>) -> (u16, Value) {
    let url = format!("{}{path}", app.address);
    let mut req = match method {
        "GET" => app.client.get(&url),
        "POST" => app.client.post(&url).json(&json!({})),
        "PUT" => app.client.put(&url).json(&json!({})),
        "PATCH" => app.client.patch(&url).json(&json!({})),
        "DELETE" => app.client.delete(&url),
        other => panic!("unexpected method {other}"),
    };
    if let Some(token) = token {
        req = req.bearer_auth(token);
    }
    let resp = req.send().await.unwrap();
    let status = resp.status().as_u16();
    (status, resp.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn every_admin_operation_of_the_openapi_document_is_an_unknown_path_to_visitors_and_members() {
    let app = spawn_demo_app().await;
    let member = app.login(MEMBER, PASSWORD).await;
    let admin = app.login(ADMIN, PASSWORD).await;
    let doc: Value = app.get("/v1/openapi.json").await.json().await.unwrap();
    // Project 1 holds no manual sponsor entry in the demo: one is made so that `{sponsor_id}` names an entry of it.
    app.execute("INSERT INTO project_manual_sponsors (project_id, course, name) VALUES (1, 'supporter', '表の確認')");
    let entry = app.query_i64("SELECT max(id) AS value FROM project_manual_sponsors WHERE project_id = 1");
    let operations: Vec<(String, String)> = admin_operations(&doc)
        .into_iter()
        .map(|(method, path)| (method, path.replace("/manual-sponsors/1", &format!("/manual-sponsors/{entry}"))))
        .collect();
    assert!(operations.len() >= 3, "the admin operations were not found in the document: {operations:?}");
    let (_, unknown) = call(&app, "GET", "/v1/admin/get/no-such-thing", None).await;

    let mut wrong = Vec::new();
    for (method, path) in &operations {
        // An empty body and no parameters: a handler that reads its input before the administrator check would
        // answer 400 here and so tell that the path exists.
        for (caller, token) in [("no token", None), ("a member", Some(member.as_str()))] {
            let (status, body) = call(&app, method, path, token).await;
            if status != 404 || body != unknown {
                wrong.push(format!("{method} {path} by {caller}: {status} {body}"));
            }
        }
        // The administrator reaches the handler: whatever it answers, it is not the unknown path's 404.
        let (status, body) = call(&app, method, path, Some(&admin)).await;
        if status == 404 && body == unknown {
            wrong.push(format!("{method} {path} by the administrator: {status} {body}"));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

async fn resend(app: &TestApp, token: &str, email: &str) -> (u16, Value) {
    let resp = app.post_json_with_token("/v1/user/resendRegisterMail", token, &json!({ "email": email })).await;
    let status = resp.status().as_u16();
    (status, resp.json().await.unwrap())
}

async fn set_password(app: &TestApp, key: &str) -> u16 {
    app.post_json("/v1/user/registPassword", &json!({"flag": 1, "password": "new-password-1", "activatekey": key}))
        .await
        .status()
        .as_u16()
}

#[tokio::test]
async fn a_provisional_address_gets_a_new_link_and_the_old_one_stops_working() {
    let app = spawn_demo_app().await;
    let admin = app.login(ADMIN, PASSWORD).await;
    let email = unique_email("provisional");
    app.post_json("/v1/user/register", &json!({"flag": 100, "email": email})).await;
    let first = activation_key(&app.mails_to(&email, 1).await[0]);

    let (status, body) = resend(&app, &admin, &email.to_uppercase()).await;

    assert_eq!(status, 200, "{body}");
    assert_eq!(body, json!({"result": "sent", "message": "再送処理完了", "userFlag": 100}));
    let mails = app.mails_to(&email, 2).await;
    assert_eq!(mails.len(), 2);
    let second = activation_key(&mails[1]);
    assert_ne!(first, second);
    assert!(set_password(&app, &first).await >= 400, "the first link still works");
    assert_eq!(set_password(&app, &second).await, 200);
    assert!(!app.login(&email, "new-password-1").await.is_empty());
    // Written to the audit log the dashboard shows.
    let actions: Value = app.get_with_token("/v1/admin/get/actions", &admin).await.json().await.unwrap();
    let entry = &actions["actions"][0];
    assert_eq!(entry["action"], "register_mail_resent");
    assert_eq!(entry["actorEmail"], ADMIN);
    assert!(entry["targetEmail"].as_str().unwrap().eq_ignore_ascii_case(&email), "{entry}");
    assert_eq!(entry["detail"]["account"], "provisional");
}

#[tokio::test]
async fn a_guest_gets_an_activation_link_that_makes_them_a_member() {
    let app = spawn_demo_app().await;
    let admin = app.login(ADMIN, PASSWORD).await;
    let guest = unique_email("guest");
    app.post_json("/v1/user/register", &json!({"email": guest, "isGuest": true})).await;

    let (status, body) = resend(&app, &admin, &guest).await;

    assert_eq!(status, 200, "{body}");
    assert_eq!(body["message"], "再送処理完了");
    assert_eq!(body["userFlag"], 200);
    let mails = app.mails_to(&guest, 1).await;
    assert_eq!(mails.len(), 1);
    assert_eq!(set_password(&app, &activation_key(&mails[0])).await, 200);
    assert!(!app.login(&guest, "new-password-1").await.is_empty());
}

#[tokio::test]
async fn a_member_and_an_unknown_address_are_told_and_get_no_mail() {
    let app = spawn_demo_app().await;
    let admin = app.login(ADMIN, PASSWORD).await;
    let nobody = unique_email("nobody");
    let users_before = app.query_i64("SELECT count(*) AS value FROM users");
    let actions_before = app.query_i64("SELECT count(*) AS value FROM admin_actions");
    let last_job = app.query_i64("SELECT coalesce(max(id), 0) AS value FROM background_jobs");

    let (member_status, member) = resend(&app, &admin, MEMBER).await;
    let (unknown_status, unknown) = resend(&app, &admin, &nobody).await;

    assert_eq!((member_status, unknown_status), (200, 200));
    assert_eq!(member["result"], "member");
    assert!(member["message"].as_str().unwrap().contains("本登録済み"), "{member}");
    assert_eq!(unknown["result"], "not_registered");
    assert!(unknown["message"].as_str().unwrap().contains("アカウントはありません"), "{unknown}");
    // Nothing was queued for either address: the state, not a wait, says no mail will go.
    let queued = |address: &str| {
        app.query_i64(&format!(
            "SELECT count(*) AS value FROM background_jobs WHERE id > {last_job} AND payload::text LIKE '%{address}%'"
        ))
    };
    assert_eq!((queued(MEMBER), queued(&nobody)), (0, 0));
    assert!(app.mails_to(MEMBER, 0).await.iter().all(|m| !m["subject"].as_str().unwrap_or("").contains("会員登録")));
    assert!(app.mails_to(&nobody, 0).await.is_empty());
    assert_eq!(app.query_i64("SELECT count(*) AS value FROM users"), users_before, "no account was made");
    assert_eq!(app.query_i64("SELECT count(*) AS value FROM admin_actions"), actions_before);
}

#[tokio::test]
async fn resends_to_one_address_are_limited_and_bad_addresses_get_the_spec_messages() {
    let app = spawn_demo_app().await;
    let admin = app.login(ADMIN, PASSWORD).await;
    let email = unique_email("again");
    app.post_json("/v1/user/register", &json!({"flag": 100, "email": email})).await;

    let mut statuses = Vec::new();
    for _ in 0..4 {
        statuses.push(resend(&app, &admin, &email).await.0);
    }
    let (empty_status, empty) = resend(&app, &admin, " ").await;
    let (bad_status, bad) = resend(&app, &admin, "taro@").await;

    assert_eq!(statuses, vec![200, 200, 200, 429]);
    assert_eq!((empty_status, empty["message"].as_str()), (400, Some("メールアドレスを入力してください")));
    assert_eq!((bad_status, bad["message"].as_str()), (400, Some("正しいメールアドレスの形式で入力してください")));
}

async fn support_body(app: &TestApp, project: i64, payment_type: i64) -> Value {
    let ret = app
        .query_i64(&format!("SELECT id AS value FROM returns WHERE project_id = {project} AND slug = 'thanks-mail'"));
    json!({
        "projectId": project, "returnId": ret, "lot": 2, "paymentType": payment_type,
        "idempotencyKey": uuid::Uuid::new_v4().to_string(),
        "displayname": "前橋 花子", "agreeTerms": true, "notAntisocial": true
    })
}

/// `app-server reconcile` over the test's database: (raised as ours for `project`, ids of sales it left apart).
fn reconcile(app: &TestApp, project: i64) -> (i64, Vec<i64>) {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_app-server"))
        .arg("reconcile")
        .env("DATABASE_URL", &app.db.url)
        .env("RUST_LOG", "error")
        .output()
        .unwrap();
    let printed = String::from_utf8_lossy(&output.stdout).to_string();
    assert_eq!(printed.lines().last(), Some("differences: 0"), "{printed}");
    let yen = |s: &str| s.trim_end_matches('円').replace(',', "").parse::<i64>().unwrap();
    let ours = printed
        .lines()
        .map(|line| line.split_whitespace().collect::<Vec<_>>())
        .find(|cols| cols.first() == Some(&project.to_string().as_str()))
        .map_or(0, |cols| yen(cols[1]));
    let apart = printed
        .lines()
        .find_map(|line| line.split("(sales ").nth(1))
        .map(|ids| ids.trim_end_matches(')').split(", ").map(|id| id.parse().unwrap()).collect())
        .unwrap_or_default();
    (ours, apart)
}

#[tokio::test]
async fn the_dashboard_shows_the_public_totals_and_what_reconcile_counts() {
    let app = spawn_demo_app().await;
    let admin = app.login(ADMIN, PASSWORD).await;
    let member = app.login(MEMBER, PASSWORD).await;
    let project = app.project_id(PROJECT).await;
    let figures_of = |board: &Value| board["projects"].as_array().unwrap().iter().find(|p| p["id"] == project).cloned();
    let before =
        figures_of(&app.get_with_token("/v1/admin/get/dashboard", &admin).await.json().await.unwrap()).unwrap();
    // A card payment (paid) and a guest's bank transfer (awaited), through the real provider.
    let mut card = support_body(&app, project, 1).await;
    card["card"] = json!({"paymentMethod": set_up_card("4242424242424242").await});
    let paid = app.post_json_with_token("/v1/payment/set/support", &member, &card).await;
    assert_eq!(paid.status(), 200);
    let paid: Value = paid.json().await.unwrap();
    let guest = unique_email("transfer");
    app.post_json("/v1/user/register", &json!({"email": guest, "isGuest": true})).await;
    let mut bank = support_body(&app, project, 2).await;
    bank["guestEmail"] = json!(guest);
    let awaited: Value = app.post_json("/v1/payment/set/support", &bank).await.json().await.unwrap();
    assert_eq!(awaited["sale"]["status"], "awaiting_bank_transfer", "{awaited}");

    let board: Value = app.get_with_token("/v1/admin/get/dashboard", &admin).await.json().await.unwrap();
    let sum: Value = app.get(&format!("/v1/sales/get/sum?type=project&id={project}")).await.json().await.unwrap();
    let (reconciled, apart) = reconcile(&app, project);

    let figures = figures_of(&board).unwrap();
    // The public figures, from the same running totals.
    assert_eq!(figures["raised"], sum["result"]["amount"]);
    assert_eq!(figures["backers"], sum["result"]["lot"]);
    // Raised: what reconcile counts as ours, plus the demo sales it lists apart (never made at this provider).
    let apart_here = if apart.is_empty() {
        0
    } else {
        let ids = apart.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
        app.query_i64(&format!(
            "SELECT coalesce(sum(total - refunded_amount), 0)::bigint AS value FROM sales \
             WHERE id IN ({ids}) AND project_id = {project} AND status = 'succeeded'"
        ))
    };
    assert!(reconciled >= paid["sale"]["total"].as_i64().unwrap(), "the new payment is at the provider");
    assert_eq!(figures["raised"].as_i64().unwrap(), reconciled + apart_here);
    // The awaited transfer, with its deadline.
    let grew = |key: &str| figures[key].as_i64().unwrap() - before[key].as_i64().unwrap();
    assert_eq!(grew("awaitingTransfer"), awaited["sale"]["total"].as_i64().unwrap());
    assert_eq!(grew("awaitingSales"), 1);
    assert_eq!(grew("paid"), paid["sale"]["total"].as_i64().unwrap());
    assert_eq!(grew("raised"), paid["sale"]["total"].as_i64().unwrap(), "what was paid, tax included");
    let pending = board["pendingTransfers"].as_array().unwrap();
    let listed = pending.iter().find(|t| t["saleId"] == awaited["sale"]["id"]).expect("listed as pending");
    assert_eq!(listed["email"], guest.as_str());
    assert_eq!(listed["deadline"], awaited["bankTransfer"]["deadline"]);
    assert_eq!(listed["overdue"], false);
    // The chart adds up to the raised amount, and today's point holds the new payment.
    let series = figures["series"].as_array().unwrap();
    assert_eq!(series.last().unwrap()["cumulative"], figures["raised"]);
    assert_eq!(series.last().unwrap()["day"], board["today"]);
    assert!(series.last().unwrap()["amount"].as_i64().unwrap() >= paid["sale"]["amount"].as_i64().unwrap());
    // Days left and goal as the public project cards show them.
    let master: Value = app.get("/v1/helper/get/master").await.json().await.unwrap();
    let card = master["master"]["projects"].as_array().unwrap().iter().find(|p| p["slug"] == PROJECT).unwrap();
    assert_eq!(figures["daysLeft"], card["daysLeft"]);
    assert_eq!(figures["goal"], card["target"]);
    assert_eq!(figures["raised"], card["sum"]["amount"]);
}

#[tokio::test]
async fn a_mail_the_queue_gave_up_on_is_listed_without_its_body() {
    let app = spawn_demo_app().await;
    let admin = app.login(ADMIN, PASSWORD).await;
    app.execute(
        "INSERT INTO background_jobs (kind, payload, status, attempts, max_attempts, finished_at, last_error) \
         VALUES ('send_mail', '{\"to\": \"lost@example.jp\", \"subject\": \"【テスト】会員登録のご案内\", \
                 \"text_body\": \"activate=SECRET\"}', 'failed', 8, 8, now(), 'relay refused')",
    );

    let board: Value = app.get_with_token("/v1/admin/get/dashboard", &admin).await.json().await.unwrap();

    let failed = &board["failedMails"][0];
    assert_eq!(failed["to"], "lost@example.jp");
    assert_eq!(failed["subject"], "【テスト】会員登録のご案内");
    assert_eq!(failed["attempts"], 8);
    assert_eq!(failed["mailId"], Value::Null);
    assert!(!board.to_string().contains("SECRET"));
}

#[tokio::test]
async fn a_mass_mail_recipient_the_job_gave_up_on_is_a_failed_mail_linked_to_its_mail() {
    let app = spawn_demo_app().await;
    let admin = app.login(ADMIN, PASSWORD).await;
    let mail = app.query_i64(&format!(
        "INSERT INTO sent_mails (title, content, sender_user_id, segment, status, recipients_total, sent_count, \
           failed_count, finished_at) \
         SELECT '【テスト】秋のお知らせ', '<p>本文</p>', id, 'all_users', 'sent', 2, 0, 2, now() FROM users \
          WHERE email = '{ADMIN}' RETURNING id AS value"
    ));
    app.execute(&format!(
        "INSERT INTO mail_recipients (mail_id, user_id, email, attempts, error, given_up) \
         SELECT {mail}, id, email, 5, 'mailbox unavailable', true FROM users \
          WHERE email IN ('demo-taro@example.jp', 'demo-hanako@example.jp')"
    ));

    let board: Value = app.get_with_token("/v1/admin/get/dashboard", &admin).await.json().await.unwrap();

    let failed: Vec<&Value> =
        board["failedMails"].as_array().unwrap().iter().filter(|m| m["mailId"] == json!(mail)).collect();
    let mut to: Vec<&str> = failed.iter().map(|m| m["to"].as_str().unwrap()).collect();
    to.sort_unstable();
    assert_eq!(to, ["demo-hanako@example.jp", "demo-taro@example.jp"]);
    assert!(failed.iter().all(|m| m["subject"] == "【テスト】秋のお知らせ" && m["attempts"] == 5));
    assert_ne!(failed[0]["key"], failed[1]["key"], "each recipient is its own row");
}
