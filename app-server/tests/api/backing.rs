//! Backing a project against the real local payment server (localstripe and our wrapper) and a real database:
//! what a supporter sees, and what the ledger and the provider hold afterwards.

use std::time::Duration;

use serde_json::{json, Value};

use crate::helpers::{spawn_demo_app, spawn_demo_app_with, unique_email, TestApp};
use crate::provider::{provider, provider_get, set_up_card};

pub(crate) const PROJECT: &str = "maebashi-rose-garden";
const MEMBER: &str = "demo-taro@example.jp";
const PASSWORD: &str = "demo-password-1";

pub(crate) async fn provider_post(path: &str, form: &[(&str, &str)]) -> Value {
    let (base, key) = provider();
    reqwest::Client::new()
        .post(format!("{base}{path}"))
        .basic_auth(key, Some(""))
        .form(form)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

pub(crate) async fn return_id(app: &TestApp, slug: &str) -> (i64, i64) {
    let project = app.project_id(PROJECT).await;
    let ret =
        app.query_i64(&format!("SELECT id AS value FROM returns WHERE project_id = {project} AND slug = '{slug}'"));
    (project, ret)
}

pub(crate) async fn support_body(app: &TestApp, slug: &str, payment_type: i64) -> Value {
    let (project, ret) = return_id(app, slug).await;
    json!({
        "projectId": project, "returnId": ret, "lot": 2, "paymentType": payment_type,
        "idempotencyKey": uuid::Uuid::new_v4().to_string(),
        "displayname": "前橋 花子", "comment": "応援しています", "agreeTerms": true, "notAntisocial": true
    })
}

pub(crate) async fn place(app: &TestApp, token: Option<&str>, body: &Value) -> (u16, Value) {
    let resp = match token {
        Some(token) => app.post_json_with_token("/v1/payment/set/support", token, body).await,
        None => app.post_json("/v1/payment/set/support", body).await,
    };
    let status = resp.status().as_u16();
    (status, resp.json().await.unwrap_or(Value::Null))
}

/// Step 4's figures for the body's return and lot, as the server prices them.
async fn quote(app: &TestApp, body: &Value) -> Value {
    let url = format!(
        "/v1/payment/get/quote?projectId={}&returnId={}&lot={}",
        body["projectId"], body["returnId"], body["lot"]
    );
    app.get(&url).await.json().await.unwrap()
}

pub(crate) async fn status_of(app: &TestApp, receipt: &str) -> Value {
    let url = format!("/v1/payment/get/status?receipt={}", urlencoding(receipt));
    app.get(&url).await.json().await.unwrap()
}

fn urlencoding(raw: &str) -> String {
    raw.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

#[tokio::test]
async fn a_member_pays_by_new_card_and_sees_it_at_once_in_the_history_and_the_totals() {
    let app = spawn_demo_app().await;
    let token = app.login(MEMBER, PASSWORD).await;
    let (project, _) = return_id(&app, "thanks-mail").await;
    let raised_before = app.query_i64(&format!(
        "SELECT coalesce(sum(total - refunded_amount), 0)::bigint AS value FROM sales WHERE project_id = {project} AND status = 'succeeded'"
    ));
    let mut body = support_body(&app, "thanks-mail", 1).await;
    body["card"] = json!({"paymentMethod": set_up_card("4242424242424242").await, "save": true});

    let (status, answer) = place(&app, Some(&token), &body).await;

    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["sale"]["status"], "succeeded");
    // 3,000 yen x 2, the figures step 4 showed.
    let figures = quote(&app, &body).await;
    assert_eq!(figures["amount"], 6000);
    assert_eq!(answer["sale"]["total"], figures["total"]);
    assert_eq!(answer["sale"]["tax"], figures["tax"]);
    assert_eq!(answer["nextAction"], Value::Null);
    let sale = answer["sale"]["id"].as_i64().unwrap();
    let history: Value = app.get_with_token("/v1/sales/get/list?user_id=me", &token).await.json().await.unwrap();
    assert_eq!(history["data"][0]["id"], sale);
    assert_eq!(history["data"][0]["statusLabel"], "支払い済み");
    let raised_after = app.query_i64(&format!(
        "SELECT coalesce(sum(total - refunded_amount), 0)::bigint AS value FROM sales WHERE project_id = {project} AND status = 'succeeded'"
    ));
    assert_eq!(raised_after - raised_before, figures["total"].as_i64().unwrap(), "what was paid, tax included");
    let sum: Value = app.get(&format!("/v1/sales/get/sum?type=project&id={project}")).await.json().await.unwrap();
    assert_eq!(sum["result"]["amount"], raised_after);
    // The saved card is the member's now.
    let cards: Value = app.get_with_token("/v1/stripe/customer/get/cards", &token).await.json().await.unwrap();
    assert_eq!(cards["data"]["cards"][0]["last4"], "4242");
    assert_eq!(cards["data"]["cards"][0]["brand"], "Visa");
    // Thanks by mail, through the queue.
    let mails = app.mails_to(MEMBER, 1).await;
    assert!(mails.iter().any(|m| m["subject"].as_str().unwrap_or("").contains("ご支援ありがとうございます")));

    app.assert_reconciled();
}

#[tokio::test]
async fn the_same_confirm_sent_five_times_at_once_makes_one_sale_and_one_charge() {
    let app = spawn_demo_app().await;
    let token = app.login(MEMBER, PASSWORD).await;
    let mut body = support_body(&app, "thanks-mail", 1).await;
    body["card"] = json!({"paymentMethod": set_up_card("4242424242424242").await});

    let (a, b, c, d, e) = tokio::join!(
        place(&app, Some(&token), &body),
        place(&app, Some(&token), &body),
        place(&app, Some(&token), &body),
        place(&app, Some(&token), &body),
        place(&app, Some(&token), &body)
    );
    let answers = [a, b, c, d, e];

    let sales: Vec<i64> =
        answers.iter().filter(|(s, _)| *s == 200).map(|(_, a)| a["sale"]["id"].as_i64().unwrap()).collect();
    assert!(!sales.is_empty(), "{answers:?}");
    assert!(sales.iter().all(|id| *id == sales[0]), "one sale: {sales:?}");
    let key = body["idempotencyKey"].as_str().unwrap();
    assert_eq!(app.query_i64(&format!("SELECT count(*) AS value FROM sales WHERE idempotency_key = '{key}'")), 1);
    assert_eq!(
        app.query_i64(&format!("SELECT count(DISTINCT intent_id) AS value FROM sales WHERE idempotency_key = '{key}'")),
        1
    );
    // Again, later: the same sale, no second payment.
    let (status, again) = place(&app, Some(&token), &body).await;
    assert_eq!(status, 200);
    assert_eq!(again["sale"]["id"], sales[0]);
    assert_eq!(again["sale"]["status"], "succeeded");

    app.assert_reconciled();
}

#[tokio::test]
async fn a_confirm_sent_again_after_the_browser_timed_out_makes_one_sale_and_one_charge() {
    let app = spawn_demo_app().await;
    let token = app.login(MEMBER, PASSWORD).await;
    let mut body = support_body(&app, "thanks-mail", 1).await;
    body["card"] = json!({"paymentMethod": set_up_card("4242424242424242").await});
    // The provider carries this app's next charge out, then holds its answer for 4 s (only this app's: tests run
    // at once on one provider).
    let mut settings = app_server::config::Settings::from_env().unwrap();
    settings.database_url = app.db.url.clone();
    let namespace = settings.payment_key_namespace();
    let namespace = namespace.name().unwrap();
    provider_post("/_test/delay_next", &[("path", "/v1/payment_intents"), ("seconds", "4"), ("key_prefix", namespace)])
        .await;

    // The supporter's browser gives up after a second and the supporter presses the button again.
    let impatient = reqwest::Client::builder().timeout(Duration::from_secs(1)).build().unwrap();
    let first =
        impatient.post(format!("{}/v1/payment/set/support", app.address)).bearer_auth(&token).json(&body).send().await;
    assert!(first.as_ref().is_err_and(reqwest::Error::is_timeout), "{first:?}");
    let (status, again) = place(&app, Some(&token), &body).await;

    assert_eq!((status, again["sale"]["status"].as_str()), (200, Some("succeeded")), "{again}");
    let key = body["idempotencyKey"].as_str().unwrap();
    assert_eq!(app.query_i64(&format!("SELECT count(*) AS value FROM sales WHERE idempotency_key = '{key}'")), 1);
    let sale = again["sale"]["id"].as_i64().unwrap().to_string();
    let charged = provider_intents()
        .await
        .iter()
        .filter(|pi| pi["metadata"]["sale_id"] == sale.as_str() && pi["metadata"]["key_namespace"] == namespace)
        .count();
    assert_eq!(charged, 1, "one PaymentIntent at the provider");
    app.assert_reconciled();
}

/// Every PaymentIntent the provider holds, page after page.
async fn provider_intents() -> Vec<Value> {
    let mut intents = Vec::new();
    let mut after = String::new();
    loop {
        let cursor = if after.is_empty() { String::new() } else { format!("&starting_after={after}") };
        let page = provider_get(&format!("/v1/payment_intents?limit=100{cursor}")).await;
        let data = page["data"].as_array().unwrap();
        intents.extend(data.iter().cloned());
        match data.last() {
            Some(last) if page["has_more"] == true => after = last["id"].as_str().unwrap().to_owned(),
            _ => return intents,
        }
    }
}

#[tokio::test]
async fn a_declined_card_is_refused_in_japanese_and_gives_its_lots_back() {
    let app = spawn_demo_app().await;
    let token = app.login(MEMBER, PASSWORD).await;
    let (_, ret) = return_id(&app, "rose-seedling").await;
    let taken =
        |app: &TestApp| app.query_i64(&format!("SELECT lots_taken::bigint AS value FROM returns WHERE id = {ret}"));
    let before = taken(&app);
    let mut body = support_body(&app, "rose-seedling", 1).await;
    body["address"] = json!({"name": "前橋 花子", "telNumber": "0272345678", "zip": "3710023", "pref": "群馬県",
        "city": "前橋市", "address": "本町1-1"});
    body["card"] = json!({"paymentMethod": set_up_card("4000000000000341").await});

    let (status, answer) = place(&app, Some(&token), &body).await;

    assert_eq!(status, 402, "{answer}");
    assert_eq!(answer["message"], "カードが承認されませんでした。別のカードをお試しください。");
    assert_eq!(taken(&app), before);
    let key = body["idempotencyKey"].as_str().unwrap();
    assert_eq!(
        app.query_i64(&format!(
            "SELECT count(*) AS value FROM sales WHERE idempotency_key = '{key}' AND status = 'failed'"
        )),
        1
    );

    app.assert_reconciled();
}

#[tokio::test]
async fn a_3d_secure_card_is_paid_once_the_supporter_authenticates() {
    let app = spawn_demo_app().await;
    let token = app.login(MEMBER, PASSWORD).await;
    let mut body = support_body(&app, "thanks-mail", 1).await;
    body["card"] = json!({"paymentMethod": set_up_card("4000002500003155").await});

    let (status, answer) = place(&app, Some(&token), &body).await;

    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["sale"]["status"], "requires_action");
    let secret = answer["nextAction"]["clientSecret"].as_str().expect("client secret").to_string();
    let intent = secret.split("_secret").next().unwrap().to_string();
    // What the fake Stripe.js does when the supporter presses "Complete authentication".
    provider_post(
        &format!("/v1/payment_intents/{intent}/_authenticate"),
        &[("success", "true"), ("client_secret", &secret)],
    )
    .await;
    let now = status_of(&app, answer["receipt"].as_str().unwrap()).await;
    assert_eq!(now["sale"]["status"], "succeeded", "{now}");

    app.assert_reconciled();
}

#[tokio::test]
async fn a_guest_transfers_in_two_parts_and_the_sale_is_paid_when_the_rest_arrives() {
    let app = spawn_demo_app().await;
    let guest = unique_email("guest");
    let registered: Value =
        app.post_json("/v1/user/register", &json!({"email": guest, "isGuest": true})).await.json().await.unwrap();
    assert_eq!(registered, json!({"userFlag": 200, "exists": false}));
    let again: Value =
        app.post_json("/v1/user/register", &json!({"email": guest, "isGuest": true})).await.json().await.unwrap();
    assert_eq!(again["exists"], true);
    let mut body = support_body(&app, "thanks-mail", 2).await;
    body["guestEmail"] = json!(guest);

    let (status, answer) = place(&app, None, &body).await;

    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["sale"]["status"], "awaiting_bank_transfer");
    let transfer = &answer["bankTransfer"];
    let total = quote(&app, &body).await["total"].as_i64().unwrap();
    assert_eq!(transfer["amountRemaining"], total);
    assert_eq!(transfer["accountTypeLabel"], "普通");
    assert!(transfer["accountNumber"].as_str().is_some_and(|n| !n.is_empty()));
    assert!(transfer["deadline"].as_str().is_some_and(|d| d.len() == 10));
    let mails = app.mails_to(&guest, 1).await;
    assert!(mails.iter().any(|m| m["text"].as_str().unwrap_or("").contains("口座種別：普通")));

    let customer = customer_of(&app, &guest);
    let receipt = answer["receipt"].as_str().unwrap().to_string();
    provider_post(
        &format!("/v1/test_helpers/customers/{customer}/fund_cash_balance"),
        &[("amount", "5000"), ("currency", "jpy")],
    )
    .await;
    let partly = status_of(&app, &receipt).await;
    assert_eq!(partly["sale"]["status"], "awaiting_bank_transfer");
    assert_eq!(partly["bankTransfer"]["amountRemaining"], total - 5000);
    let rest = (total - 5000).to_string();
    provider_post(
        &format!("/v1/test_helpers/customers/{customer}/fund_cash_balance"),
        &[("amount", rest.as_str()), ("currency", "jpy")],
    )
    .await;
    let paid = status_of(&app, &receipt).await;
    assert_eq!(paid["sale"]["status"], "succeeded");
    assert_eq!(paid["bankTransfer"], Value::Null);
    let mails = app.mails_to(&guest, 2).await;
    assert!(mails.iter().any(|m| m["subject"].as_str().unwrap_or("").contains("ご入金を確認しました")));

    app.assert_reconciled();
}

pub(crate) fn customer_of(app: &TestApp, email: &str) -> String {
    app.query_text(&format!(
        "SELECT c.customer_id AS value FROM payment_customers c JOIN users u ON u.id = c.user_id \
          WHERE lower(u.email) = lower('{email}')"
    ))
}

#[tokio::test]
async fn the_providers_webhook_alone_marks_a_transfer_paid_and_a_replay_changes_nothing() {
    let app = spawn_demo_app().await;
    let port = app.address.rsplit(':').next().unwrap().to_string();
    let (base, key) = provider();
    let secret = std::env::var("STRIPE_WEBHOOK_SECRET").unwrap_or_else(|_| "whsec_local".into());
    let hook = format!("api-test-{port}");
    reqwest::Client::new()
        .post(format!("{base}/_config/webhooks/{hook}"))
        .basic_auth(&key, Some(""))
        .form(&[("url", format!("{}/v1/stripe/webhook", app.address)), ("secret", secret)])
        .send()
        .await
        .unwrap();
    let guest = unique_email("hook");
    let mut body = support_body(&app, "thanks-mail", 2).await;
    body["guestEmail"] = json!(guest);
    let (_, answer) = place(&app, None, &body).await;
    let sale = answer["sale"]["id"].as_i64().unwrap();

    let total = answer["sale"]["total"].as_i64().unwrap().to_string();
    provider_post(
        &format!("/v1/test_helpers/customers/{}/fund_cash_balance", customer_of(&app, &guest)),
        &[("amount", total.as_str()), ("currency", "jpy")],
    )
    .await;

    let mut paid = false;
    // Up to 30 s: the provider delivers each event to every test server's hook in turn.
    for _ in 0..300 {
        if app.query_i64(&format!("SELECT count(*) AS value FROM sales WHERE id = {sale} AND status = 'succeeded'"))
            == 1
        {
            paid = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(paid, "the webhook marked the sale paid");
    let events = app.query_i64("SELECT count(*) AS value FROM provider_events WHERE processed_at IS NOT NULL");
    assert!(events >= 1);
    reqwest::Client::new()
        .delete(format!("{base}/_config/webhooks/{hook}"))
        .basic_auth(&key, Some(""))
        .send()
        .await
        .ok();
    let mails = app.mails_to(&guest, 2).await;
    assert_eq!(
        mails.iter().filter(|m| m["subject"].as_str().unwrap_or("").contains("ご入金を確認しました")).count(),
        1
    );

    app.assert_reconciled();
}

#[tokio::test]
async fn the_last_unit_goes_to_one_supporter_and_the_other_gets_the_sold_out_message_without_a_payment() {
    let app = spawn_demo_app().await;
    let (_, ret) = return_id(&app, "thanks-mail").await;
    app.execute(&format!("UPDATE returns SET stock_limit = lots_taken + 2 WHERE id = {ret}"));
    let first = {
        let mut body = support_body(&app, "thanks-mail", 2).await;
        body["guestEmail"] = json!(unique_email("first"));
        place(&app, None, &body).await
    };
    let mut second_body = support_body(&app, "thanks-mail", 2).await;
    second_body["guestEmail"] = json!(unique_email("second"));
    second_body["lot"] = json!(1);
    let second = place(&app, None, &second_body).await;

    assert_eq!(first.0, 200, "{}", first.1);
    assert_eq!(second.0, 409, "{}", second.1);
    assert_eq!(second.1["error"], "sold_out");
    assert_eq!(second.1["message"], "支援上限に達しました");
    let key = second_body["idempotencyKey"].as_str().unwrap();
    assert_eq!(app.query_i64(&format!("SELECT count(*) AS value FROM sales WHERE idempotency_key = '{key}'")), 0);
    assert_eq!(app.query_i64("SELECT count(*) AS value FROM payment_customers c JOIN users u ON u.id = c.user_id WHERE u.email LIKE 'second-%'"), 0, "no provider call for a refused support");

    app.assert_reconciled();
}

#[tokio::test]
async fn an_overdue_transfer_is_cancelled_its_lots_return_and_the_supporter_is_told() {
    let app = spawn_demo_app_with(|s| {
        s.payment_sweep_seconds = 1;
        s.reconcile_after_seconds = 3600;
    })
    .await;
    let (_, ret) = return_id(&app, "rose-seedling").await;
    let taken =
        |app: &TestApp| app.query_i64(&format!("SELECT lots_taken::bigint AS value FROM returns WHERE id = {ret}"));
    let guest = unique_email("late");
    let mut body = support_body(&app, "rose-seedling", 2).await;
    body["guestEmail"] = json!(guest);
    body["address"] = json!({"name": "前橋 花子", "telNumber": "0272345678", "zip": "3710023", "pref": "群馬県",
        "city": "前橋市", "address": "本町1-1"});
    let before = taken(&app);
    let (status, answer) = place(&app, None, &body).await;
    assert_eq!(status, 200, "{answer}");
    let sale = answer["sale"]["id"].as_i64().unwrap();
    assert_eq!(taken(&app), before + 2);

    app.execute(&format!("UPDATE sales SET transfer_deadline = current_date - 2 WHERE id = {sale}"));
    let mut cancelled = false;
    for _ in 0..300 {
        if app.query_i64(&format!("SELECT count(*) AS value FROM sales WHERE id = {sale} AND status = 'canceled'")) == 1
        {
            cancelled = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(cancelled, "the deadline sweep cancelled the transfer");
    assert_eq!(taken(&app), before);
    let mails = app.mails_to(&guest, 2).await;
    assert!(mails.iter().any(|m| m["subject"].as_str().unwrap_or("").contains("キャンセル")));

    app.assert_reconciled();
}

#[tokio::test]
async fn a_project_says_which_methods_it_takes_and_its_question_is_required_with_its_own_message() {
    let app = spawn_demo_app().await;
    let detail: Value = app.get("/v1/project/get/detail?slug=takasaki-daruma").await.json().await.unwrap();
    assert_eq!(detail["project"]["paymentTypes"], json!([1, 2, 3]), "card, bank transfer and konbini");
    assert_eq!(detail["project"]["additionalData"]["label"], "職人へのメッセージ");
    let custom =
        detail["project"]["returns"].as_array().unwrap().iter().find(|r| r["slug"] == "custom-daruma").unwrap();
    assert_eq!(custom["addressLabel"], "お届け先");
    let card_only: Value = app.get("/v1/project/get/detail?slug=ota-monozukuri").await.json().await.unwrap();
    assert_eq!(card_only["project"]["paymentTypes"], json!([1]));

    let project = app.project_id("takasaki-daruma").await;
    let ret = app
        .query_i64(&format!("SELECT id AS value FROM returns WHERE project_id = {project} AND slug = 'custom-daruma'"));
    let body = json!({
        "projectId": project, "returnId": ret, "lot": 2, "paymentType": 2, "idempotencyKey": "question-0001",
        "displayname": "", "agreeTerms": false, "notAntisocial": false, "guestEmail": unique_email("question")
    });
    let (status, answer) = place(&app, None, &body).await;
    assert_eq!(status, 400, "{answer}");
    let messages: Vec<&str> =
        answer["errors"].as_array().unwrap().iter().filter_map(|e| e["message"].as_str()).collect();
    for expected in [
        "表示名を入力してください。",
        "このリターンは口数を選択できません。",
        "お届け先を入力してください",
        "職人へのメッセージを入力してください。",
        "利用規約に同意してください。",
        "反社会的勢力に該当しないことを確認してください。",
    ] {
        assert!(messages.contains(&expected), "{expected} missing from {messages:?}");
    }

    let ota = app.project_id("ota-monozukuri").await;
    let ota_return = app.query_i64(&format!("SELECT min(id) AS value FROM returns WHERE project_id = {ota}"));
    let bank = json!({
        "projectId": ota, "returnId": ota_return, "lot": 1, "paymentType": 2, "idempotencyKey": "bank-at-ota-1",
        "displayname": "群馬 太郎", "agreeTerms": true, "notAntisocial": true, "guestEmail": unique_email("ota")
    });
    let (status, answer) = place(&app, None, &bank).await;
    assert_eq!(status, 400, "{answer}");
    assert_eq!(answer["error"], "payment_type_not_accepted");
}
