//! Bank transfers that arrive after their deadline, against the real local provider and a real database: the
//! deadline sweep cancels the sale and returns its lots but leaves the provider's payment open, so money sent late
//! still pays that payment: the sale is revived when stock is left, else kept cancelled and listed for refund; after
//! the grace period the payment is closed, and one that received part of the money is listed for refund too.

use std::time::Duration;

use serde_json::{json, Value};

use crate::backing::{customer_of, place, provider_post, return_id, support_body, PROJECT};
use crate::helpers::{spawn_demo_app_with, unique_email, TestApp};
use crate::provider::provider_get;

const ADMIN: &str = "demo-admin@example.jp";
const PASSWORD: &str = "demo-password-1";
const SEEDLING: &str = "rose-seedling";

/// Sweeps every second; late transfers checked with the provider a second after their last check (no webhook is
/// registered: the reconciler must find the late money); `grace_days` of grace before a payment is closed.
async fn app_sweeping(grace_days: i64) -> TestApp {
    spawn_demo_app_with(move |s| {
        s.payment_sweep_seconds = 1;
        s.reconcile_after_seconds = 3600;
        s.late_transfer_check_seconds = 1;
        s.transfer_grace_days = grace_days;
    })
    .await
}

/// Waits up to 30 s for `sql` (a count) to be 1.
async fn eventually(app: &TestApp, sql: &str) -> bool {
    for _ in 0..300 {
        if app.query_i64(sql) == 1 {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    false
}

fn lots_taken(app: &TestApp, ret: i64) -> i64 {
    app.query_i64(&format!("SELECT lots_taken::bigint AS value FROM returns WHERE id = {ret}"))
}

async fn raised(app: &TestApp, project: i64) -> i64 {
    let sum: Value = app.get(&format!("/v1/sales/get/sum?type=project&id={project}")).await.json().await.unwrap();
    sum["result"]["amount"].as_i64().expect("raised amount")
}

/// A guest's bank transfer of 2 seedlings: (sale id, total, guest e-mail).
async fn transfer(app: &TestApp) -> (i64, i64, String) {
    let guest = unique_email("late");
    let mut body = support_body(app, SEEDLING, 2).await;
    body["guestEmail"] = json!(guest);
    body["address"] = json!({"name": "前橋 花子", "telNumber": "0272345678", "zip": "3710023", "pref": "群馬県",
        "city": "前橋市", "address": "本町1-1"});
    let (status, answer) = place(app, None, &body).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["sale"]["status"], "awaiting_bank_transfer");
    (answer["sale"]["id"].as_i64().unwrap(), answer["sale"]["total"].as_i64().unwrap(), guest)
}

/// Moves the deadline into the past and waits for the sweep to cancel the sale.
async fn miss_the_deadline(app: &TestApp, sale: i64) {
    app.execute(&format!("UPDATE sales SET transfer_deadline = current_date - 2 WHERE id = {sale}"));
    assert!(
        eventually(app, &format!("SELECT count(*) AS value FROM sales WHERE id = {sale} AND status = 'canceled'"))
            .await,
        "the deadline sweep cancelled the sale"
    );
}

async fn fund(app: &TestApp, guest: &str, amount: i64) {
    let amount = amount.to_string();
    provider_post(
        &format!("/v1/test_helpers/customers/{}/fund_cash_balance", customer_of(app, guest)),
        &[("amount", amount.as_str()), ("currency", "jpy")],
    )
    .await;
}

async fn intent_at_provider(app: &TestApp, sale: i64) -> Value {
    let intent = app.query_text(&format!("SELECT intent_id AS value FROM sales WHERE id = {sale}"));
    provider_get(&format!("/v1/payment_intents/{intent}")).await
}

/// The admin refund table of the demo project (as the refund page reads it).
async fn refund_row(app: &TestApp, sale: i64) -> Value {
    let admin = app.login(ADMIN, PASSWORD).await;
    let project = app.project_id(PROJECT).await;
    let url = format!("/v1/sales/get/list?project_id={project}&intent=1&refunds=1");
    let body: Value = app.get_with_token(&url, &admin).await.json().await.unwrap();
    body["data"]["data"].as_array().expect("data.data").iter().find(|r| r["id"] == sale).expect("sale listed").clone()
}

#[tokio::test]
async fn a_transfer_paid_after_its_deadline_is_cancelled_first_then_revived_with_its_lots_and_counted() {
    let app = app_sweeping(30).await;
    let (project, ret) = return_id(&app, SEEDLING).await;
    let (lots_before, raised_before) = (lots_taken(&app, ret), raised(&app, project).await);
    let (sale, total, guest) = transfer(&app).await;
    let amount = app.query_i64(&format!("SELECT amount AS value FROM sales WHERE id = {sale}"));

    miss_the_deadline(&app, sale).await;

    assert_eq!(lots_taken(&app, ret), lots_before, "the lots returned");
    assert!(app.mails_to(&guest, 2).await.iter().any(|m| m["subject"].as_str().unwrap_or("").contains("キャンセル")));
    assert_eq!(intent_at_provider(&app, sale).await["status"], "requires_action", "the payment is left open");
    app.assert_reconciled();

    fund(&app, &guest, total).await;

    assert!(
        eventually(&app, &format!("SELECT count(*) AS value FROM sales WHERE id = {sale} AND status = 'succeeded'"))
            .await,
        "the late money revived the sale"
    );
    assert_eq!(lots_taken(&app, ret), lots_before + 2, "its lots taken again");
    assert_eq!(raised(&app, project).await, raised_before + amount);
    assert_eq!(app.query_i64(&format!("SELECT refund_required::int::bigint AS value FROM sales WHERE id = {sale}")), 0);
    let mails = app.mails_to(&guest, 3).await;
    assert!(mails.iter().any(|m| m["subject"].as_str().unwrap_or("").contains("ご入金を確認しました")));
    app.assert_reconciled();
}

#[tokio::test]
async fn a_transfer_paid_after_its_deadline_with_no_stock_left_stays_cancelled_and_is_listed_for_refund() {
    let app = app_sweeping(30).await;
    let (project, ret) = return_id(&app, SEEDLING).await;
    let (sale, total, guest) = transfer(&app).await;
    miss_the_deadline(&app, sale).await;
    // Someone else took the last seedlings meanwhile.
    app.execute(&format!("UPDATE returns SET stock_limit = lots_taken WHERE id = {ret}"));
    let (lots_before, raised_before) = (lots_taken(&app, ret), raised(&app, project).await);

    fund(&app, &guest, total).await;

    assert!(
        eventually(&app, &format!("SELECT count(*) AS value FROM sales WHERE id = {sale} AND refund_required")).await,
        "the late money flagged the sale for refund"
    );
    assert_eq!(app.query_text(&format!("SELECT status AS value FROM sales WHERE id = {sale}")), "canceled");
    assert_eq!(lots_taken(&app, ret), lots_before);
    assert_eq!(raised(&app, project).await, raised_before);
    let row = refund_row(&app, sale).await;
    assert_eq!(
        (row["refundRequired"].as_bool(), row["flag"].as_i64(), row["state"].as_str()),
        (Some(true), Some(1), Some("refundable")),
        "{row}"
    );
    assert_eq!(intent_at_provider(&app, sale).await["status"], "succeeded");
}

#[tokio::test]
async fn a_partly_paid_transfer_is_listed_for_refund_when_its_payment_is_closed_after_the_grace_period() {
    // No grace: the sweep that cancels the sale closes its payment too.
    let app = app_sweeping(0).await;
    let (sale, total, guest) = transfer(&app).await;
    fund(&app, &guest, 1000).await;
    let partly = intent_at_provider(&app, sale).await;
    let instructions = &partly["next_action"]["display_bank_transfer_instructions"];
    assert_eq!(instructions["amount_remaining"], total - 1000, "part of the money arrived: {partly}");

    miss_the_deadline(&app, sale).await;

    assert!(
        eventually(
            &app,
            &format!(
                "SELECT count(*) AS value FROM sales WHERE id = {sale} AND intent_closed_at IS NOT NULL AND refund_required"
            )
        )
        .await,
        "the payment was closed and the sale flagged for refund"
    );
    assert_eq!(intent_at_provider(&app, sale).await["status"], "canceled");
    assert_eq!(
        app.query_i64(&format!("SELECT amount_remaining AS value FROM sales WHERE id = {sale}")),
        total - 1000,
        "what is still owed stays on the sale"
    );
    let row = refund_row(&app, sale).await;
    assert_eq!((row["refundRequired"].as_bool(), row["state"].as_str()), (Some(true), Some("refundable")), "{row}");
    assert_eq!(app.query_text(&format!("SELECT status AS value FROM sales WHERE id = {sale}")), "canceled");
}

#[tokio::test]
async fn an_unpaid_transfer_past_its_grace_period_is_closed_at_the_provider_and_not_flagged() {
    let app = app_sweeping(0).await;
    let (sale, _, _) = transfer(&app).await;

    miss_the_deadline(&app, sale).await;

    assert!(
        eventually(
            &app,
            &format!("SELECT count(*) AS value FROM sales WHERE id = {sale} AND intent_closed_at IS NOT NULL")
        )
        .await,
        "the payment was closed"
    );
    assert_eq!(intent_at_provider(&app, sale).await["status"], "canceled");
    assert_eq!(app.query_i64(&format!("SELECT refund_required::int::bigint AS value FROM sales WHERE id = {sale}")), 0);
    app.assert_reconciled();
}
