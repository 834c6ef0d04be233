//! Monthly support against the local payment server: a member backs the demo's サポーターズクラブ
//! (1,000円 + tax a month) with a saved card; the provider's renewals, failures and retries reach
//! our sales, totals, history and mails through its webhooks, each applied once.

use std::time::Duration;

use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::helpers::{spawn_demo_app, spawn_demo_app_with, unique_email, TestApp};
use crate::provider::{provider, provider_get, set_up_card};

const PROJECT: &str = "takasaki-daruma";
const CLUB: &str = "supporters-club";
const PASSWORD: &str = "monthly-password-1";

fn webhook_secret() -> String {
    std::env::var("STRIPE_WEBHOOK_SECRET").unwrap_or_else(|_| "whsec_local".into())
}

async fn provider_post(path: &str) -> (u16, Value) {
    let (base, key) = provider();
    let resp = reqwest::Client::new().post(format!("{base}{path}")).basic_auth(key, Some("")).send().await.unwrap();
    (resp.status().as_u16(), resp.json().await.unwrap_or(Value::Null))
}

/// The provider's webhooks to this test's server, removed when the guard is dropped.
struct Hook {
    id: String,
}

impl Hook {
    async fn register(app: &TestApp) -> Self {
        let (base, key) = provider();
        let id = format!("monthly-{}", app.address.rsplit(':').next().unwrap());
        reqwest::Client::new()
            .post(format!("{base}/_config/webhooks/{id}"))
            .basic_auth(&key, Some(""))
            .form(&[("url", format!("{}/v1/stripe/webhook", app.address)), ("secret", webhook_secret())])
            .send()
            .await
            .unwrap();
        Self { id }
    }

    async fn remove(self) {
        let (base, key) = provider();
        reqwest::Client::new()
            .delete(format!("{base}/_config/webhooks/{}", self.id))
            .basic_auth(&key, Some(""))
            .send()
            .await
            .ok();
    }
}

async fn member(app: &TestApp, prefix: &str) -> (String, String) {
    let email = unique_email(prefix);
    app.register_member(&email, PASSWORD).await;
    let token = app.login(&email, PASSWORD).await;
    (email, token)
}

/// Registers a card on the member's account and returns its id.
async fn add_card(app: &TestApp, token: &str, number: &str) -> String {
    let resp = app
        .post_json_with_token(
            "/v1/stripe/customer/set/updater",
            token,
            &json!({"source": set_up_card(number).await, "isCardRegist": true}),
        )
        .await;
    assert_eq!(resp.status(), 200);
    let body: Value = resp.json().await.unwrap();
    body["card"]["id"].as_str().unwrap().to_string()
}

async fn club(app: &TestApp) -> (i64, i64) {
    let project = app.project_id(PROJECT).await;
    let ret =
        app.query_i64(&format!("SELECT id AS value FROM returns WHERE project_id = {project} AND slug = '{CLUB}'"));
    (project, ret)
}

async fn back(app: &TestApp, token: Option<&str>, body: &Value) -> (u16, Value) {
    let resp = match token {
        Some(token) => app.post_json_with_token("/v1/payment/set/support", token, body).await,
        None => app.post_json("/v1/payment/set/support", body).await,
    };
    (resp.status().as_u16(), resp.json().await.unwrap_or(Value::Null))
}

async fn club_body(app: &TestApp, payment_type: i64, card: Option<&str>) -> Value {
    let (project, ret) = club(app).await;
    let mut body = json!({
        "projectId": project, "returnId": ret, "lot": 1, "paymentType": payment_type,
        "idempotencyKey": uuid::Uuid::new_v4().to_string(), "displayname": "高崎 一郎",
        "additionalData": "応援しています", "agreeTerms": true, "notAntisocial": true
    });
    if let Some(card) = card {
        body["card"] = json!({"cardId": card});
    }
    body
}

async fn subscriptions(app: &TestApp, token: &str) -> Vec<Value> {
    let body: Value = app.get_with_token("/v1/stripe/subscription/get/list", token).await.json().await.unwrap();
    body["subscriptions"].as_array().unwrap().clone()
}

/// Waits (up to 30 s: webhooks queue behind every other test's on the shared provider) until `sql` counts
/// `expected`.
async fn eventually(app: &TestApp, sql: &str, expected: i64) {
    let mut last = -1;
    for _ in 0..300 {
        last = app.query_i64(sql);
        if last == expected {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{sql}: {last}, expected {expected}");
}

fn months_sql(id: i64) -> String {
    format!("SELECT count(*) AS value FROM sales WHERE subscription_id = {id} AND status = 'succeeded'")
}

fn subjects(mails: &[Value]) -> Vec<String> {
    mails.iter().map(|m| m["subject"].as_str().unwrap_or_default().to_string()).collect()
}

fn hmac_sha256(key: &[u8], message: &[u8]) -> String {
    let mut block = [0_u8; 64];
    block[..key.len()].copy_from_slice(key);
    let inner: Vec<u8> = block.iter().map(|b| b ^ 0x36).chain(message.iter().copied()).collect();
    let inner = Sha256::digest(&inner);
    let outer: Vec<u8> = block.iter().map(|b| b ^ 0x5c).chain(inner.iter().copied()).collect();
    Sha256::digest(&outer).iter().map(|b| format!("{b:02x}")).collect()
}

/// Sends `payload` to our webhook signed as the provider signs it.
pub(crate) async fn deliver(app: &TestApp, payload: &str) -> u16 {
    let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    let signature = hmac_sha256(webhook_secret().as_bytes(), format!("{t}.{payload}").as_bytes());
    app.client
        .post(format!("{}/v1/stripe/webhook", app.address))
        .header("Stripe-Signature", format!("t={t},v1={signature}"))
        .header("Content-Type", "application/json")
        .body(payload.to_string())
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

#[tokio::test]
async fn a_monthly_return_is_for_members_by_card_and_another_members_subscription_is_unknown() {
    let app = spawn_demo_app().await;
    let (_, ret) = club(&app).await;
    assert_eq!(
        app.query_i64(&format!("SELECT count(*) AS value FROM returns WHERE id = {ret} AND interval = 'month'")),
        1
    );

    let mut guest = club_body(&app, 1, None).await;
    guest["guestEmail"] = json!(unique_email("guest"));
    guest["card"] = json!({"paymentMethod": set_up_card("4242424242424242").await});
    let (status, answer) = back(&app, None, &guest).await;
    assert_eq!((status, answer["error"].as_str()), (409, Some("monthly_refused")), "{answer}");
    assert!(answer["message"].as_str().unwrap().contains("会員の方のみ"));

    let (_, token) = member(&app, "monthly-bank").await;
    let (status, answer) = back(&app, Some(&token), &club_body(&app, 2, None).await).await;
    assert_eq!(status, 409, "{answer}");
    assert_eq!(answer["message"], "毎月のご支援はクレジットカードでのお支払いのみご利用いただけます。");

    let card = add_card(&app, &token, "4242424242424242").await;
    let first = club_body(&app, 1, Some(&card)).await;
    let (status, answer) = back(&app, Some(&token), &first).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["sale"]["status"], "succeeded");
    assert_eq!(answer["sale"]["total"], 1100);
    let id = answer["subscriptionId"].as_i64().unwrap();

    // A second monthly support of the same return (another key) is refused before anything is written; the same
    // key again is the first support, answered once more.
    let sales_before = app.query_i64("SELECT count(*) AS value FROM sales");
    let (status, second) = back(&app, Some(&token), &club_body(&app, 1, Some(&card)).await).await;
    assert_eq!((status, second["error"].as_str()), (409, Some("monthly_running")), "{second}");
    assert!(second["message"].as_str().unwrap().contains("毎月のご支援"), "{second}");
    assert_eq!(app.query_i64("SELECT count(*) AS value FROM sales"), sales_before);
    let (status, again) = back(&app, Some(&token), &first).await;
    assert_eq!((status, again["subscriptionId"].as_i64()), (200, Some(id)), "{again}");
    assert_eq!(subscriptions(&app, &token).await.len(), 1);

    let (_, other) = member(&app, "monthly-other").await;
    assert!(subscriptions(&app, &other).await.is_empty());
    let resp = app.post_json_with_token("/v1/stripe/subscription/set/cancel", &other, &json!({"id": id})).await;
    assert_eq!(resp.status(), 404);
    let listed = subscriptions(&app, &token).await;
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0]["status"], "active", "another member's attempt changed nothing");
}

/// Deletes the card paying subscription `id` (it moves to `left`), plays the next renewal at the provider, and
/// waits for the support to be past due: the mail (among the member's first three) whose subject holds `subject`.
async fn renewal_fails_after_deleting(
    app: &TestApp,
    (email, token): (&str, &str),
    (id, sub): (i64, &str),
    (deleted, left): (&str, &str),
    subject: &str,
) -> Value {
    let resp =
        app.post_json_with_token("/v1/stripe/customer/set/deleteCard", token, &json!({"card_id": deleted})).await;
    assert_eq!(resp.status(), 200);
    assert_eq!(subscriptions(app, token).await[0]["cardId"], left);
    let (status, _) = provider_post(&format!("/_test/subscriptions/{sub}/advance")).await;
    assert_eq!(status, 200);
    eventually(app, &format!("SELECT count(*) AS value FROM subscriptions WHERE id = {id} AND status = 'past_due'"), 1)
        .await;
    // Registration, thanks for month 1, and the failure.
    let mails = app.mails_to(email, 3).await;
    let found = mails.iter().find(|m| m["subject"].as_str().unwrap_or_default().contains(subject));
    let mail = found.unwrap_or_else(|| panic!("{subject} in {:?}", subjects(&mails))).clone();
    assert_eq!(app.query_i64(&months_sql(id)), 1, "no sale for the failed month");
    mail
}

/// A card set up with 3-D Secure starts a monthly support: the provider charges its months with nobody present.
/// The test card that asks on every charge cannot: the first month is refused and no subscription stays.
#[tokio::test]
async fn a_card_authenticated_when_set_up_starts_a_monthly_support() {
    let app = spawn_demo_app().await;
    let (_, token) = member(&app, "monthly-3ds").await;
    let always = add_card(&app, &token, "4000002760003184").await;
    let (status, refused) = back(&app, Some(&token), &club_body(&app, 1, Some(&always)).await).await;
    assert_eq!((status, refused["error"].as_str()), (402, Some("card_declined")), "{refused}");
    assert!(subscriptions(&app, &token).await.is_empty());

    let secure = add_card(&app, &token, "4000002500003155").await;
    let (status, answer) = back(&app, Some(&token), &club_body(&app, 1, Some(&secure)).await).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["sale"]["status"], "succeeded");
    let listed = subscriptions(&app, &token).await;
    assert_eq!((listed.len(), listed[0]["status"].as_str()), (1, Some("active")));
    assert_eq!(listed[0]["cardLast4"], "3155");
}

/// A renewal the bank refuses with "authentication required" mails the supporter the page that completes it; the
/// support stays past due until they authenticate there, then the month is paid and recorded once.
#[tokio::test]
async fn a_renewal_that_needs_authentication_is_completed_from_the_mailed_page() {
    let app = spawn_demo_app().await;
    let hook = Hook::register(&app).await;
    let (email, token) = member(&app, "monthly-auth").await;
    let visa = add_card(&app, &token, "4242424242424242").await;
    let always = add_card(&app, &token, "4000002760003184").await;
    let (status, answer) = back(&app, Some(&token), &club_body(&app, 1, Some(&visa)).await).await;
    assert_eq!(status, 200, "{answer}");
    let id = answer["subscriptionId"].as_i64().unwrap();
    let sub = app.query_text(&format!("SELECT subscription_id AS value FROM subscriptions WHERE id = {id}"));
    let url = format!("/v1/stripe/subscription/get/authentication?id={id}");
    let nothing: Value = app.get_with_token(&url, &token).await.json().await.unwrap();
    assert_eq!(
        (nothing["clientSecret"].clone(), nothing["subscription"]["status"].clone()),
        (Value::Null, json!("active"))
    );

    // The paying card is deleted: the subscription moves to the card whose bank asks on every charge.
    let supporter = (email.as_str(), token.as_str());
    let asked = renewal_fails_after_deleting(&app, supporter, (id, &sub), (&visa, &always), "本人認証が必要です").await;
    assert!(asked["text"].as_str().unwrap_or_default().contains(&format!("/account/monthly/{id}/authenticate")));

    // Only the member sees the month; they authenticate it in the browser (Stripe.js's confirmCardPayment).
    let (_, other) = member(&app, "monthly-auth-other").await;
    assert_eq!(app.get_with_token(&url, &other).await.status(), 404);
    let pending: Value = app.get_with_token(&url, &token).await.json().await.unwrap();
    assert_eq!(pending["amount"], 1100, "{pending}");
    let secret = pending["clientSecret"].as_str().unwrap();
    let intent = secret.split("_secret_").next().unwrap();
    let (base, key) = provider();
    let authenticated = reqwest::Client::new()
        .post(format!("{base}/v1/payment_intents/{intent}/_authenticate?success=true"))
        .basic_auth(key, Some(""))
        .form(&[("client_secret", secret)])
        .send()
        .await
        .unwrap();
    assert_eq!(authenticated.status(), 200);

    let resp = app.post_json_with_token("/v1/stripe/subscription/set/authenticated", &token, &json!({"id": id})).await;
    assert_eq!(resp.status(), 200);
    let after: Value = resp.json().await.unwrap();
    assert_eq!(after["subscription"]["status"], "active", "{after}");
    assert_eq!(app.query_i64(&months_sql(id)), 2, "the month is recorded at once");
    // The webhooks of the same payment arrive later and change nothing.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(app.query_i64(&months_sql(id)), 2);
    let again: Value = app.get_with_token(&url, &token).await.json().await.unwrap();
    assert_eq!(again["clientSecret"], Value::Null);
    hook.remove().await;
}

#[tokio::test]
async fn three_months_with_one_failed_and_retried_make_three_sales_each_mailed_and_counted_once() {
    let app = spawn_demo_app().await;
    let hook = Hook::register(&app).await;
    let (email, token) = member(&app, "monthly").await;
    let first_card = add_card(&app, &token, "4242424242424242").await;
    let failing = add_card(&app, &token, "4000000000000341").await;
    let (project, _) = club(&app).await;
    let raised_before =
        app.query_i64(&format!("SELECT coalesce(sum(total - refunded_amount), 0)::bigint AS value FROM sales WHERE project_id = {project} AND status = 'succeeded'"));

    // Month 1: paid at once with the chosen saved card.
    let (status, answer) = back(&app, Some(&token), &club_body(&app, 1, Some(&first_card)).await).await;
    assert_eq!(status, 200, "{answer}");
    let id = answer["subscriptionId"].as_i64().unwrap();
    // Read again by its receipt (a reload of the complete page): still a monthly support.
    let receipt = answer["receipt"].as_str().unwrap();
    let again: Value = app.get(&format!("/v1/payment/get/status?receipt={receipt}")).await.json().await.unwrap();
    assert_eq!(again["subscriptionId"], id, "{again}");
    let listed = subscriptions(&app, &token).await;
    assert_eq!(listed[0]["amount"], 1100);
    assert_eq!(listed[0]["cardLast4"], "4242");
    assert_eq!(listed[0]["projectSlug"], PROJECT);
    assert!(listed[0]["nextChargeDate"].as_str().is_some());
    let sub = app.query_text(&format!("SELECT subscription_id AS value FROM subscriptions WHERE id = {id}"));

    // The paying card is deleted: the subscription moves to the one left (which fails every charge). Month 2
    // fails: past due, the supporter is asked to change the card, no sale.
    let supporter = (email.as_str(), token.as_str());
    let failure = renewal_fails_after_deleting(
        &app,
        supporter,
        (id, &sub),
        (&first_card, &failing),
        "お支払いができませんでした",
    )
    .await;
    assert!(failure["text"].as_str().unwrap_or_default().contains("/edit/payment"));
    assert_eq!(subscriptions(&app, &token).await[0]["status"], "past_due");

    // A new default card takes over; the provider's retry pays month 2.
    let good = add_card(&app, &token, "4242424242424242").await;
    let resp =
        app.post_json_with_token("/v1/stripe/customer/set/changeDefaultCard", &token, &json!({"card_id": good})).await;
    assert_eq!(resp.status(), 200);
    assert_eq!(subscriptions(&app, &token).await[0]["cardId"], good.as_str());
    provider_post(&format!("/_test/subscriptions/{sub}/advance")).await;
    eventually(&app, &months_sql(id), 2).await;

    // Month 3 is paid on time.
    provider_post(&format!("/_test/subscriptions/{sub}/advance")).await;
    eventually(&app, &months_sql(id), 3).await;
    eventually(&app, &format!("SELECT count(*) AS value FROM subscriptions WHERE id = {id} AND status = 'active'"), 1)
        .await;

    // Each month counted once in the totals, listed in the history, mailed.
    let raised_after =
        app.query_i64(&format!("SELECT coalesce(sum(total - refunded_amount), 0)::bigint AS value FROM sales WHERE project_id = {project} AND status = 'succeeded'"));
    assert_eq!(raised_after - raised_before, 3 * 1100, "three months as paid, tax included");
    let sum: Value = app.get(&format!("/v1/sales/get/sum?type=project&id={project}")).await.json().await.unwrap();
    assert_eq!(sum["result"]["amount"], raised_after);
    let history: Value = app.get_with_token("/v1/sales/get/list?user_id=me", &token).await.json().await.unwrap();
    let months = history["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["return"]["title"].as_str().unwrap_or_default().contains("サポーターズクラブ"))
        .count();
    assert_eq!(months, 3);
    let mails = app.mails_to(&email, 5).await;
    let subjects = subjects(&mails);
    assert_eq!(subjects.iter().filter(|s| s.contains("ご支援ありがとうございます")).count(), 1, "{subjects:?}");
    assert_eq!(subjects.iter().filter(|s| s.contains("お支払いができませんでした")).count(), 1, "{subjects:?}");
    assert_eq!(subjects.iter().filter(|s| s.contains("お支払いが完了しました")).count(), 2, "{subjects:?}");

    // The provider sends invoice.paid and invoice.payment_succeeded for every month, and may repeat
    // either: a renewal's event delivered again (with a new id) writes nothing.
    let payload = app.query_text(
        "SELECT payload::text AS value FROM provider_events WHERE event_type = 'invoice.paid' \
         ORDER BY received_at DESC LIMIT 1",
    );
    let mut again: Value = serde_json::from_str(&payload).unwrap();
    again["id"] = json!("evt_redelivered_month");
    let again = again.to_string();
    assert_eq!(deliver(&app, &again).await, 200);
    assert_eq!(deliver(&app, &again).await, 200);
    assert_eq!(app.query_i64(&months_sql(id)), 3);
    assert_eq!(
        app.query_i64(&format!("SELECT count(DISTINCT invoice_id) AS value FROM sales WHERE subscription_id = {id}")),
        3
    );

    // Stopped by the member: runs to the period's end, mailed once, then ends at the provider.
    let resp = app.post_json_with_token("/v1/stripe/subscription/set/cancel", &token, &json!({"id": id})).await;
    assert_eq!(resp.status(), 200);
    let body: Value = resp.json().await.unwrap();
    assert_eq!(body["subscription"]["status"], "canceling");
    assert!(body["subscription"]["endsOn"].as_str().is_some());
    let repeat = app.post_json_with_token("/v1/stripe/subscription/set/cancel", &token, &json!({"id": id})).await;
    assert_eq!(repeat.status(), 200);
    provider_post(&format!("/_test/subscriptions/{sub}/advance")).await;
    eventually(
        &app,
        &format!("SELECT count(*) AS value FROM subscriptions WHERE id = {id} AND status = 'canceled'"),
        1,
    )
    .await;
    assert_eq!(subscriptions(&app, &token).await[0]["status"], "ended");
    let mails = app.mails_to(&email, 7).await;
    let subjects = self::subjects(&mails);
    assert_eq!(subjects.iter().filter(|s| s.contains("停止について")).count(), 1, "{subjects:?}");
    assert_eq!(subjects.iter().filter(|s| s.contains("終了しました")).count(), 1, "{subjects:?}");
    assert_eq!(app.query_i64(&months_sql(id)), 3);
    hook.remove().await;

    // `app-server reconcile`: every month's payment, the subscription's status and its paid months agree.
    app.assert_reconciled();
    // A month the provider was paid and we lost is seen.
    app.execute(&format!("UPDATE sales SET invoice_id = NULL, subscription_id = NULL WHERE id = (SELECT max(id) FROM sales WHERE subscription_id = {id})"));
    let (printed, success) = app.reconcile();
    assert!(printed.contains(&format!("difference: monthly support {id} ")), "{printed}");
    assert_eq!((printed.lines().last(), success), (Some("differences: 1"), false), "{printed}");
}

#[tokio::test]
async fn a_renewal_that_fails_every_retry_ends_the_subscription_and_tells_the_supporter() {
    let app = spawn_demo_app().await;
    let hook = Hook::register(&app).await;
    let (email, token) = member(&app, "monthly-fail").await;
    let card = add_card(&app, &token, "4242424242424242").await;
    let failing = add_card(&app, &token, "4000000000000341").await;
    let (_, answer) = back(&app, Some(&token), &club_body(&app, 1, Some(&card)).await).await;
    let id = answer["subscriptionId"].as_i64().unwrap();
    let sub = app.query_text(&format!("SELECT subscription_id AS value FROM subscriptions WHERE id = {id}"));
    app.post_json_with_token("/v1/stripe/customer/set/deleteCard", &token, &json!({"card_id": card})).await;
    assert_eq!(subscriptions(&app, &token).await[0]["cardId"], failing.as_str());

    for _ in 0..3 {
        provider_post(&format!("/_test/subscriptions/{sub}/advance")).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    eventually(
        &app,
        &format!("SELECT count(*) AS value FROM subscriptions WHERE id = {id} AND status = 'canceled'"),
        1,
    )
    .await;
    assert_eq!(app.query_i64(&months_sql(id)), 1);
    // Registration, thanks, one failure mail for the month (three attempts), the end.
    let mails = app.mails_to(&email, 4).await;
    let subjects = subjects(&mails);
    assert_eq!(subjects.iter().filter(|s| s.contains("お支払いができませんでした")).count(), 1, "{subjects:?}");
    let ended =
        mails.iter().find(|m| m["subject"].as_str().unwrap_or_default().contains("終了しました")).expect("end mail");
    assert!(ended["text"].as_str().unwrap_or_default().contains("完了できなかった"));
    hook.remove().await;
}

#[tokio::test]
async fn a_monthly_support_stops_by_itself_when_its_project_ends_and_the_supporter_is_told() {
    let app = spawn_demo_app_with(|s| s.payment_sweep_seconds = 1).await;
    let (email, token) = member(&app, "monthly-end").await;
    let card = add_card(&app, &token, "4242424242424242").await;
    let (project, _) = club(&app).await;
    let (status, answer) = back(&app, Some(&token), &club_body(&app, 1, Some(&card)).await).await;
    assert_eq!(status, 200, "{answer}");
    let id = answer["subscriptionId"].as_i64().unwrap();
    let sub = app.query_text(&format!("SELECT subscription_id AS value FROM subscriptions WHERE id = {id}"));

    app.execute(&format!("UPDATE projects SET period_end = current_date - 1 WHERE id = {project}"));

    eventually(
        &app,
        &format!("SELECT count(*) AS value FROM subscriptions WHERE id = {id} AND cancel_at_period_end"),
        1,
    )
    .await;
    let at_provider = provider_get(&format!("/v1/subscriptions/{sub}")).await;
    assert_eq!(at_provider["cancel_at_period_end"], true, "stopped at the provider, at the end of the paid month");
    // The registration mail, the thanks for the first month, then the stop.
    let mails = app.mails_to(&email, 3).await;
    assert!(
        mails.iter().any(|m| m["text"]
            .as_str()
            .is_some_and(|t| t.contains("プロジェクトの終了にともない、毎月のご支援を停止します。"))),
        "{:?}",
        subjects(&mails)
    );
    assert_eq!(subscriptions(&app, &token).await[0]["status"], "canceling");
}
