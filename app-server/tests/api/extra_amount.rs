//! 上乗せ支援 through the real wiring, the local payment server and a real database: the server adds the extra
//! to its own figures (never the client's), the provider is charged that total, and the totals, the sponsor
//! amount, the history, the receipt and the reconcile report all hold it.

use serde_json::{json, Value};

use crate::backing::{customer_of, place, provider_post, return_id, status_of, support_body};
use crate::helpers::{spawn_demo_app, unique_email, TestApp};
use crate::provider::set_up_card;

const MEMBER: &str = "demo-taro@example.jp";
const PASSWORD: &str = "demo-password-1";

async fn quote(app: &TestApp, body: &Value, extra: Option<i64>) -> (u16, Value) {
    let mut url = format!(
        "/v1/payment/get/quote?projectId={}&returnId={}&lot={}",
        body["projectId"], body["returnId"], body["lot"]
    );
    if let Some(extra) = extra {
        url.push_str(&format!("&extraAmount={extra}"));
    }
    let resp = app.get(&url).await;
    (resp.status().as_u16(), resp.json().await.unwrap_or(Value::Null))
}

fn sponsor_amount(app: &TestApp, project: i64, email: &str) -> i64 {
    app.query_i64(&format!(
        "SELECT coalesce(sum(t.amount), 0)::bigint AS value FROM sponsor_totals t JOIN users u ON u.id = t.user_id \
          WHERE t.project_id = {project} AND lower(u.email) = lower('{email}')"
    ))
}

fn raised(app: &TestApp, project: i64) -> i64 {
    app.query_i64(&format!(
        "SELECT coalesce(sum(paid_amount), 0)::bigint AS value FROM project_totals WHERE project_id = {project}"
    ))
}

#[tokio::test]
async fn a_member_backs_with_an_extra_by_card_and_every_figure_holds_it_while_a_client_total_is_ignored() {
    let app = spawn_demo_app().await;
    // A new member: their mailbox holds the activation mail only, so the thanks mail is told apart.
    let member = unique_email("extra-member");
    app.register_member(&member, PASSWORD).await;
    let token = app.login(&member, PASSWORD).await;
    let (project, _) = return_id(&app, "thanks-mail").await;
    let (raised_before, sponsor_before) = (raised(&app, project), sponsor_amount(&app, project, &member));
    let mut body = support_body(&app, "thanks-mail", 1).await;
    let (_, plain) = quote(&app, &body, None).await;
    let (status, figures) = quote(&app, &body, Some(1_500)).await;
    assert_eq!(status, 200, "{figures}");
    // The extra goes on top, untaxed: same tax, total 1,500 higher.
    assert_eq!(figures["extraAmount"], 1_500);
    assert_eq!(figures["tax"], plain["tax"]);
    let total = plain["total"].as_i64().unwrap() + 1_500;
    assert_eq!(figures["total"], total);
    body["card"] = json!({"paymentMethod": set_up_card("4242424242424242").await});
    body["extraAmount"] = json!(1_500);
    body["total"] = json!(1);
    body["amount"] = json!(1);

    let (status, answer) = place(&app, Some(&token), &body).await;

    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["sale"]["status"], "succeeded");
    assert_eq!((answer["sale"]["extraAmount"].as_i64(), answer["sale"]["total"].as_i64()), (Some(1_500), Some(total)));
    let sale = answer["sale"]["id"].as_i64().unwrap();
    assert_eq!(app.query_i64(&format!("SELECT extra_amount AS value FROM sales WHERE id = {sale}")), 1_500);
    // The platform's fee is its share of everything the project receives, extra included.
    let schedule = app.query_text(&format!("SELECT fee_schedule AS value FROM projects WHERE id = {project}"));
    let connected = app.query_i64(&format!(
        "SELECT count(*) AS value FROM projects WHERE id = {project} AND connected_account_id IS NOT NULL"
    ));
    let basis_points = match (connected, schedule.as_str()) {
        (0, _) => 0,
        (_, "internal") => 1060,
        _ => 1360,
    };
    let fee = app.query_i64(&format!("SELECT application_fee AS value FROM sales WHERE id = {sale}"));
    assert_eq!(fee, total * basis_points / 10_000);
    // The project's total and the supporter's sponsor amount rise by everything paid.
    assert_eq!(raised(&app, project) - raised_before, total);
    assert_eq!(sponsor_amount(&app, project, &member) - sponsor_before, total);
    let history: Value = app.get_with_token("/v1/sales/get/list?user_id=me", &token).await.json().await.unwrap();
    assert_eq!(
        (history["data"][0]["id"].as_i64(), history["data"][0]["extraAmount"].as_i64()),
        (Some(sale), Some(1_500))
    );
    let receipt: Value = app.get_with_token(&format!("/v1/user/receipts/{sale}"), &token).await.json().await.unwrap();
    assert_eq!(receipt["amount"], total, "{receipt}");
    let extra_line = receipt["lines"].as_array().unwrap().iter().find(|l| l["description"] == "上乗せ支援").cloned();
    assert_eq!(
        extra_line.map(|l| (l["amount"].clone(), l["rateLabel"].clone())),
        Some((json!(1_500), json!("対象外")))
    );
    let mails = app.mails_to(&member, 2).await;
    assert!(mails.iter().any(|m| m["text"].as_str().unwrap_or("").contains("上乗せ支援：1,500円")));

    // The provider was charged the server's total: reconcile agrees on every payment.
    app.assert_reconciled();
}

#[tokio::test]
async fn a_guest_transfers_a_total_with_its_extra_and_reconcile_finds_no_difference() {
    let app = spawn_demo_app().await;
    let guest = unique_email("extra-guest");
    let mut body = support_body(&app, "thanks-mail", 2).await;
    body["guestEmail"] = json!(guest);
    body["extraAmount"] = json!(700);
    let total = quote(&app, &body, Some(700)).await.1["total"].as_i64().unwrap();

    let (status, answer) = place(&app, None, &body).await;

    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["bankTransfer"]["amountRemaining"], total);
    let customer = customer_of(&app, &guest);
    provider_post(
        &format!("/v1/test_helpers/customers/{customer}/fund_cash_balance"),
        &[("amount", total.to_string().as_str()), ("currency", "jpy")],
    )
    .await;
    let paid = status_of(&app, answer["receipt"].as_str().unwrap()).await;
    assert_eq!((paid["sale"]["status"].as_str(), paid["sale"]["extraAmount"].as_i64()), (Some("succeeded"), Some(700)));

    app.assert_reconciled();
}

#[tokio::test]
async fn bad_extra_amounts_are_refused_with_the_fields_message_and_nothing_is_written() {
    let app = spawn_demo_app().await;
    let token = app.login(MEMBER, PASSWORD).await;
    let sales_before = app.query_i64("SELECT count(*) AS value FROM sales");
    let range = "上乗せ支援額は0円から1,000,000円までの整数（円単位）で入力してください。";
    for bad in [json!(-1), json!(1_000_001), json!(100.5), json!(1e20)] {
        let mut body = support_body(&app, "thanks-mail", 2).await;
        body["extraAmount"] = bad.clone();
        let (status, answer) = place(&app, Some(&token), &body).await;
        assert_eq!(status, 400, "{bad}: {answer}");
        assert_eq!((answer["field"].as_str(), answer["message"].as_str()), (Some("extraAmount"), Some(range)), "{bad}");
    }
    let mut body = support_body(&app, "thanks-mail", 2).await;
    body["extraAmount"] = json!("1000");
    assert_eq!(place(&app, Some(&token), &body).await.0, 400, "a string is no amount");
    let (status, answer) = quote(&app, &body, Some(-5)).await;
    assert_eq!((status, answer["field"].as_str()), (400, Some("extraAmount")));

    // A monthly return takes none: it would be a recurring change of the subscription.
    let monthly = app.project_id("takasaki-daruma").await;
    let club = app.query_i64(&format!(
        "SELECT id AS value FROM returns WHERE project_id = {monthly} AND slug = 'supporters-club'"
    ));
    let body = json!({
        "projectId": monthly, "returnId": club, "lot": 1, "paymentType": 1,
        "idempotencyKey": uuid::Uuid::new_v4().to_string(), "displayname": "高崎 一郎",
        "additionalData": "応援しています", "agreeTerms": true, "notAntisocial": true,
        "card": {"cardId": "pm_not_checked_yet"}, "extraAmount": 500
    });
    let (status, answer) = place(&app, Some(&token), &body).await;
    assert_eq!(status, 400, "{answer}");
    assert_eq!(answer["message"], "毎月のご支援には上乗せ支援をご利用いただけません。");

    assert_eq!(app.query_i64("SELECT count(*) AS value FROM sales"), sales_before, "nothing written");
}
