//! Konbini (コンビニ決済) against the real local payment server and a real database: the voucher on the answer, in
//! the mail and in the history; the store's payment applied once from the provider's own record (a signed event
//! claiming another amount, another sale's payment, a replay or a stale event moves nothing); an expired voucher and
//! a missed deadline cancel the sale and give its lots back; konbini is refused near the project's end.

use std::time::Duration;

use serde_json::{json, Value};

use crate::backing::{place, provider_post, return_id, support_body};
use crate::helpers::{spawn_demo_app, spawn_demo_app_with, unique_email, TestApp};
use crate::monthly::deliver;
use crate::provider::provider_get;

const PASSWORD: &str = "konbini-password-1";
/// An unlimited 3,000 yen return of the 前橋 project.
const RETURN: &str = "thanks-mail";

fn event(id: &str, kind: &str, object: Value) -> String {
    let created = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    json!({
        "id": id, "object": "event", "type": kind, "created": created, "livemode": false,
        "pending_webhooks": 1, "request": {"id": null, "idempotency_key": null},
        "data": {"object": object}
    })
    .to_string()
}

fn new_event_id() -> String {
    format!("evt_konbini_{}", uuid::Uuid::new_v4().simple())
}

fn lots_taken(app: &TestApp, ret: i64) -> i64 {
    app.query_i64(&format!("SELECT lots_taken::bigint AS value FROM returns WHERE id = {ret}"))
}

async fn raised(app: &TestApp, project: i64) -> i64 {
    let sum: Value = app.get(&format!("/v1/sales/get/sum?type=project&id={project}")).await.json().await.unwrap();
    sum["result"]["amount"].as_i64().expect("raised amount")
}

fn status(app: &TestApp, sale: i64) -> String {
    app.query_text(&format!("SELECT status AS value FROM sales WHERE id = {sale}"))
}

fn intent(app: &TestApp, sale: i64) -> String {
    app.query_text(&format!("SELECT intent_id AS value FROM sales WHERE id = {sale}"))
}

/// Waits up to 30 s for sale `sale` to reach `expected`.
async fn eventually_status(app: &TestApp, sale: i64, expected: &str) {
    for _ in 0..300 {
        if status(app, sale) == expected {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("sale {sale} is {}, expected {expected}", status(app, sale));
}

/// The member backs two units by konbini: the answer.
async fn back_by_konbini(app: &TestApp, token: &str) -> Value {
    let body = support_body(app, RETURN, 3).await;
    let (code, answer) = place(app, Some(token), &body).await;
    assert_eq!(code, 200, "{answer}");
    answer
}

/// A member of its own (the mail catcher is shared by the tests running at once): e-mail and token.
async fn member(app: &TestApp) -> (String, String) {
    let email = unique_email("konbini");
    app.register_member(&email, PASSWORD).await;
    let token = app.login(&email, PASSWORD).await;
    (email, token)
}

async fn detail(app: &TestApp) -> Value {
    let body: Value = app.get("/v1/project/get/detail?slug=maebashi-rose-garden").await.json().await.unwrap();
    body["project"].clone()
}

fn subjects(mails: &[Value]) -> Vec<String> {
    mails.iter().map(|m| m["subject"].as_str().unwrap_or_default().to_string()).collect()
}

#[tokio::test]
async fn a_member_backs_by_konbini_sees_the_voucher_and_the_stores_payment_pays_the_sale_once() {
    let app = spawn_demo_app().await;
    let (email, token) = member(&app).await;
    let (project, ret) = return_id(&app, RETURN).await;
    let (lots_before, raised_before) = (lots_taken(&app, ret), raised(&app, project).await);

    let answer = back_by_konbini(&app, &token).await;

    let sale = answer["sale"]["id"].as_i64().unwrap();
    let total = answer["sale"]["total"].as_i64().unwrap();
    assert_eq!(answer["sale"]["status"], "requires_action");
    assert_eq!(answer["sale"]["statusLabel"], "支払い待ち（コンビニ）");
    assert_eq!(answer["sale"]["paymentType"], 3);
    assert_eq!(answer["bankTransfer"], Value::Null);
    assert_eq!(answer["nextAction"], Value::Null, "nothing for the browser to authenticate");
    let voucher = &answer["konbini"];
    let chains: Vec<&str> =
        voucher["stores"].as_array().unwrap().iter().map(|s| s["chainName"].as_str().unwrap()).collect();
    assert_eq!(chains, ["ファミリーマート", "ローソン", "ミニストップ", "セイコーマート"]);
    assert!(voucher["stores"][0]["paymentCode"].as_str().is_some_and(|c| c.len() == 12));
    assert!(voucher["expiresAtText"].as_str().unwrap().ends_with("23:59"), "{voucher}");
    assert!(voucher["expiresAt"].as_str().unwrap().ends_with("T23:59:59+09:00"), "{voucher}");
    assert!(voucher["hostedVoucherUrl"].as_str().is_some_and(|u| u.starts_with("https://")));
    assert_eq!(lots_taken(&app, ret), lots_before + 2, "the lots are held while the voucher waits");
    assert_eq!(raised(&app, project).await, raised_before, "nothing counted before the money");

    // The history shows it waiting, with the same voucher.
    let history: Value = app.get_with_token("/v1/sales/get/list?user_id=me", &token).await.json().await.unwrap();
    let entry = history["data"].as_array().unwrap().iter().find(|e| e["id"] == sale).expect("in the history").clone();
    assert_eq!(entry["statusLabel"], "支払い待ち（コンビニ）");
    assert_eq!(entry["konbini"]["stores"], voucher["stores"]);
    assert_eq!(entry["konbini"]["expiresAtText"], voucher["expiresAtText"]);
    // The mail says how to pay.
    // After the registration mail.
    let mails = app.mails_to(&email, 2).await;
    let how = mails.iter().find(|m| m["subject"].as_str().unwrap_or("").contains("コンビニでのお支払い方法のご案内"));
    let text = how.expect("the voucher mail")["text"].as_str().unwrap_or_default().to_string();
    assert!(text.contains(voucher["stores"][1]["paymentCode"].as_str().unwrap()), "{text}");
    assert!(text.contains(voucher["expiresAtText"].as_str().unwrap()), "{text}");

    // The supporter pays at the store; the provider's event arrives twice, then a stale one.
    let payment = intent(&app, sale);
    provider_post(&format!("/_test/konbini/{payment}/pay"), &[]).await;
    let paid = provider_get(&format!("/v1/payment_intents/{payment}")).await;
    let succeeded = event(&new_event_id(), "payment_intent.succeeded", paid);
    assert_eq!(deliver(&app, &succeeded).await, 200);
    assert_eq!(deliver(&app, &succeeded).await, 200);
    assert_eq!(status(&app, sale), "succeeded");
    let waiting = provider_get(&format!("/v1/payment_intents/{payment}")).await;
    let mut waiting = waiting.clone();
    waiting["status"] = json!("requires_action");
    assert_eq!(deliver(&app, &event(&new_event_id(), "payment_intent.requires_action", waiting)).await, 200);

    assert_eq!(status(&app, sale), "succeeded", "a late requires_action changes nothing");
    assert_eq!(raised(&app, project).await, raised_before + total, "counted once, tax included");
    assert_eq!(lots_taken(&app, ret), lots_before + 2);
    let paid_status: Value = app.get_with_token("/v1/sales/get/list?user_id=me", &token).await.json().await.unwrap();
    let entry = paid_status["data"].as_array().unwrap().iter().find(|e| e["id"] == sale).unwrap().clone();
    assert_eq!((entry["statusLabel"].as_str(), &entry["konbini"]), (Some("支払い済み"), &Value::Null));
    let mails = app.mails_to(&email, 3).await;
    assert_eq!(
        subjects(&mails).iter().filter(|s| s.contains("お支払いを確認しました")).count(),
        1,
        "{:?}",
        subjects(&mails)
    );

    app.assert_reconciled();
}

#[tokio::test]
async fn a_signed_event_claiming_another_amount_or_for_another_sales_payment_moves_nothing() {
    let app = spawn_demo_app().await;
    let (_, token) = member(&app).await;
    let (project, _) = return_id(&app, RETURN).await;
    let raised_before = raised(&app, project).await;
    let first = back_by_konbini(&app, &token).await["sale"]["id"].as_i64().unwrap();
    let second = back_by_konbini(&app, &token).await["sale"]["id"].as_i64().unwrap();
    let own = provider_get(&format!("/v1/payment_intents/{}", intent(&app, first))).await;

    // The sale's own payment, claimed paid for 100 yen: read back, it still waits for the store.
    let mut forged = own.clone();
    forged["status"] = json!("succeeded");
    forged["amount"] = json!(100);
    forged["amount_received"] = json!(100);
    assert_eq!(deliver(&app, &event(&new_event_id(), "payment_intent.succeeded", forged)).await, 200);
    assert_eq!(status(&app, first), "requires_action");

    // The second sale's voucher, paid for real, but its event rewritten to name the first sale: the payment read
    // back is the second sale's (its metadata), and the first sale's own payment is another one.
    let other = intent(&app, second);
    provider_post(&format!("/_test/konbini/{other}/pay"), &[]).await;
    let mut misdirected = provider_get(&format!("/v1/payment_intents/{other}")).await;
    misdirected["metadata"]["sale_id"] = json!(first.to_string());
    assert_eq!(deliver(&app, &event(&new_event_id(), "payment_intent.succeeded", misdirected)).await, 200);
    assert_eq!(status(&app, first), "requires_action", "the first sale is not paid by another's money");
    assert_eq!(status(&app, second), "succeeded", "the money paid the sale it was for");
    let total = app.query_i64(&format!("SELECT total AS value FROM sales WHERE id = {second}"));
    assert_eq!(raised(&app, project).await, raised_before + total);

    // A payment of the right amount at the provider, tagged with the first sale but not its own: ignored.
    let ns = own["metadata"]["key_namespace"].as_str().unwrap_or_default().to_string();
    let total_first = app.query_i64(&format!("SELECT total AS value FROM sales WHERE id = {first}")).to_string();
    let stranger = provider_post(
        "/v1/payment_intents",
        &[
            ("amount", total_first.as_str()),
            ("currency", "jpy"),
            ("payment_method_types[]", "konbini"),
            ("payment_method_data[type]", "konbini"),
            ("payment_method_data[billing_details][name]", "誰か"),
            ("payment_method_data[billing_details][email]", "someone@example.jp"),
            ("confirm", "true"),
            ("metadata[sale_id]", first.to_string().as_str()),
            ("metadata[key_namespace]", ns.as_str()),
        ],
    )
    .await;
    let stranger_id = stranger["id"].as_str().expect("a payment").to_string();
    provider_post(&format!("/_test/konbini/{stranger_id}/pay"), &[]).await;
    let paid = provider_get(&format!("/v1/payment_intents/{stranger_id}")).await;
    assert_eq!(deliver(&app, &event(&new_event_id(), "payment_intent.succeeded", paid)).await, 200);
    assert_eq!(status(&app, first), "requires_action");
    assert_eq!(raised(&app, project).await, raised_before + total);

    app.assert_reconciled();
}

#[tokio::test]
async fn an_expired_voucher_and_a_missed_deadline_cancel_the_sale_and_its_lots_return() {
    let app = spawn_demo_app_with(|s| {
        s.payment_sweep_seconds = 1;
        s.reconcile_after_seconds = 3600;
    })
    .await;
    let (email, token) = member(&app).await;
    let (project, ret) = return_id(&app, RETURN).await;
    let (lots_before, raised_before) = (lots_taken(&app, ret), raised(&app, project).await);

    // The provider lets the voucher expire and says so.
    let expired = back_by_konbini(&app, &token).await["sale"]["id"].as_i64().unwrap();
    assert_eq!(lots_taken(&app, ret), lots_before + 2);
    let payment = intent(&app, expired);
    provider_post(&format!("/_test/konbini/{payment}/expire"), &[]).await;
    let failed = provider_get(&format!("/v1/payment_intents/{payment}")).await;
    assert_eq!(deliver(&app, &event(&new_event_id(), "payment_intent.payment_failed", failed)).await, 200);
    assert_eq!(status(&app, expired), "canceled");
    assert_eq!(lots_taken(&app, ret), lots_before, "the lots returned");

    // Our deadline passes first: the sweep cancels the sale and its voucher at the provider.
    let overdue = back_by_konbini(&app, &token).await["sale"]["id"].as_i64().unwrap();
    app.execute(&format!("UPDATE sales SET transfer_deadline = current_date - 1 WHERE id = {overdue}"));
    eventually_status(&app, overdue, "canceled").await;
    assert_eq!(lots_taken(&app, ret), lots_before);
    let at_provider = provider_get(&format!("/v1/payment_intents/{}", intent(&app, overdue))).await;
    assert_eq!(at_provider["status"], "canceled", "the voucher can no longer be paid");
    assert_eq!(raised(&app, project).await, raised_before);
    let mails = app.mails_to(&email, 5).await;
    assert_eq!(subjects(&mails).iter().filter(|s| s.contains("キャンセル")).count(), 2, "{:?}", subjects(&mails));
    let history: Value = app.get_with_token("/v1/sales/get/list?user_id=me", &token).await.json().await.unwrap();
    let entry = history["data"].as_array().unwrap().iter().find(|e| e["id"] == overdue).unwrap().clone();
    assert_eq!((entry["statusLabel"].as_str(), &entry["konbini"]), (Some("キャンセル"), &Value::Null));

    app.assert_reconciled();
}

#[tokio::test]
async fn konbini_is_not_offered_and_refused_when_its_voucher_would_outlive_the_project() {
    let app = spawn_demo_app().await;
    let (_, token) = member(&app).await;
    let before = detail(&app).await;
    assert!(before["paymentTypes"].as_array().unwrap().contains(&json!(3)), "{before}");
    assert_eq!(before["unavailablePaymentTypes"], json!([]));

    let (project, _) = return_id(&app, RETURN).await;
    // Two days left: a voucher ordered today would run for three.
    app.execute(&format!("UPDATE projects SET period_end = current_date + 2 WHERE id = {project}"));
    let (code, answer) = place(&app, Some(&token), &support_body(&app, RETURN, 3).await).await;
    assert_eq!((code, answer["error"].as_str()), (409, Some("payment_type_unavailable")), "{answer}");
    assert!(answer["message"].as_str().unwrap().contains("プロジェクトの終了日を過ぎる"));
    assert_eq!(app.query_i64("SELECT count(*) AS value FROM sales WHERE payment_type = 3"), 0, "nothing written");

    // Step 2 is told why (the public read may be cached for a moment).
    let mut after = Value::Null;
    for _ in 0..100 {
        after = detail(&app).await;
        if !after["paymentTypes"].as_array().unwrap().contains(&json!(3)) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(after["paymentTypes"], json!([1, 2]), "{after}");
    assert_eq!(after["unavailablePaymentTypes"][0]["paymentType"], 3);
    assert_eq!(after["unavailablePaymentTypes"][0]["message"], answer["message"]);

    // A card and a transfer are still taken.
    let (code, answer) = place(&app, Some(&token), &support_body(&app, RETURN, 2).await).await;
    assert_eq!(code, 200, "{answer}");
}
