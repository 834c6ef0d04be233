//! Refunds by an administrator against the real local provider (localstripe and our wrapper, with its refund
//! failure injection) and a real database: single refunds with the spec's checks, and a bulk refund of 100
//! sales where the provider refuses 7, re-run once the provider accepts them.

use std::time::Duration;

use adapters_stripe::StripeGateway;
use app_server::config::Settings;
use domain::account::Email;
use domain::ids::{SaleId, UserId};
use domain::money::Yen;
use ports::payments::gateway::{
    CardCharge, CustomerId, IdempotencyKey, KeyNamespace, KeyPurpose, NewCustomer, PaymentGateway, PaymentMethodId,
};
use serde_json::{json, Value};

use crate::helpers::{spawn_demo_app, TestApp};
use crate::provider::{provider, set_up_card};

const PROJECT: &str = "maebashi-rose-garden";
const ADMIN: &str = "demo-admin@example.jp";
const MEMBER: &str = "demo-taro@example.jp";
const PASSWORD: &str = "demo-password-1";

async fn provider_call(method: reqwest::Method, path: &str, form: &[(&str, &str)]) -> Value {
    let (base, key) = provider();
    let resp = reqwest::Client::new()
        .request(method, format!("{base}{path}"))
        .basic_auth(key, Some(""))
        .form(form)
        .send()
        .await;
    resp.unwrap().json().await.unwrap()
}

/// Paid card sales of the demo project, made at the provider for real and recorded as the backing flow records
/// them (a copy of a demo sale's terms with the provider's payment).
struct PaidSales {
    gateway: StripeGateway,
    ns: KeyNamespace,
    customer: CustomerId,
    card: PaymentMethodId,
    template: i64,
    total: i64,
}

impl PaidSales {
    async fn new(app: &TestApp, project: i64) -> Self {
        let ns = KeyNamespace::new(&format!("rt{}", uuid::Uuid::new_v4().simple())).unwrap();
        // Our own namespace in the metadata too: the app finds these sales by their payment id only.
        let stripe =
            adapters_stripe::StripeSettings { namespace: ns.clone(), ..Settings::from_env().unwrap().stripe() };
        let gateway = StripeGateway::new(&stripe).unwrap();
        let template = app.query_i64(&format!(
            "SELECT id AS value FROM sales WHERE project_id = {project} AND payment_type = 1 \
               AND status = 'succeeded' ORDER BY id LIMIT 1"
        ));
        let total = app.query_i64(&format!("SELECT total AS value FROM sales WHERE id = {template}"));
        let user = app.query_i64(&format!("SELECT user_id AS value FROM sales WHERE id = {template}"));
        let customer = gateway
            .create_customer(
                NewCustomer {
                    user_id: UserId(user),
                    email: Email::parse("refund-test@example.jp").unwrap(),
                    name: None,
                },
                IdempotencyKey::for_customer(&ns, UserId(user)),
            )
            .await
            .unwrap();
        let card = PaymentMethodId::new(set_up_card("4242424242424242").await);
        gateway.attach_card(&customer, &card).await.unwrap();
        Self { gateway, ns, customer, card, template, total }
    }

    /// One more paid sale: (sale id, payment intent id).
    async fn pay(&self, app: &TestApp) -> (i64, String) {
        let id = app.query_i64("SELECT nextval('sales_id_seq') AS value");
        let charge = CardCharge {
            sale_id: SaleId(id),
            amount: Yen(self.total),
            payment_method: self.card.clone(),
            customer: Some(self.customer.clone()),
            destination: None,
        };
        let paid = self
            .gateway
            .charge_card(charge, IdempotencyKey::for_sale(&self.ns, SaleId(id), KeyPurpose::Confirm))
            .await
            .unwrap();
        app.execute(&format!(
            "INSERT INTO sales (id, project_id, return_id, user_id, address_id, price, lot, amount, tax, total, \
               tax_mode, tax_rate_percent, payment_type, status, intent_id, idempotency_key, flag, paid_at) \
             SELECT {id}, project_id, return_id, user_id, address_id, price, lot, amount, tax, total, tax_mode, \
               tax_rate_percent, 1, 'succeeded', '{pi}', 'refund-test-{id}', 1, now() FROM sales WHERE id = {template}",
            pi = paid.id,
            template = self.template,
        ));
        (id, paid.id.to_string())
    }
}

async fn refund_table(app: &TestApp, admin: &str, project: i64) -> Vec<Value> {
    let url = format!("/v1/sales/get/list?project_id={project}&intent=1&refunds=1");
    let body: Value = app.get_with_token(&url, admin).await.json().await.unwrap();
    body["data"]["data"].as_array().expect("data.data").clone()
}

fn row_of(rows: &[Value], sale: i64) -> &Value {
    rows.iter().find(|r| r["id"] == sale).expect("sale in the refund table")
}

async fn refund(app: &TestApp, admin: &str, sale: i64, amount: Value) -> (u16, Value) {
    let resp = app
        .post_json_with_token("/v1/stripe/intent/set/refund", admin, &json!({"saleId": sale, "amount": amount}))
        .await;
    (resp.status().as_u16(), resp.json().await.unwrap())
}

async fn start_bulk(app: &TestApp, admin: &str, project: i64, mode: i32) -> (u16, Value) {
    let resp =
        app.post_json_with_token("/v1/admin/set/bulkRefund", admin, &json!({"projectId": project, "mode": mode})).await;
    (resp.status().as_u16(), resp.json().await.unwrap())
}

/// Polls the bulk job until it has finished (as the page does).
async fn finished_bulk(app: &TestApp, admin: &str, project: i64) -> Value {
    for _ in 0..600 {
        let body: Value = app
            .get_with_token(&format!("/v1/admin/get/bulkRefund?project_id={project}"), admin)
            .await
            .json()
            .await
            .unwrap();
        if body["job"]["status"] == "succeeded" || body["job"]["status"] == "failed" {
            return body["job"].clone();
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the bulk refund did not finish within 60 s");
}

/// Yen the provider refunded of a payment, from its refund list.
async fn refunded_at_provider(intent: &str) -> i64 {
    let list =
        provider_call(reqwest::Method::GET, &format!("/v1/refunds?payment_intent={intent}&limit=100"), &[]).await;
    list["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["status"] == "succeeded")
        .map(|r| r["amount"].as_i64().unwrap())
        .sum()
}

fn raised(app: &TestApp, project: i64) -> i64 {
    app.query_i64(&format!(
        "SELECT coalesce(sum(total - refunded_amount), 0)::bigint AS value FROM sales \
         WHERE project_id = {project} AND status = 'succeeded'"
    ))
}

#[tokio::test]
async fn a_single_refund_checks_the_amount_asks_the_provider_once_and_mails_the_supporter() {
    let app = spawn_demo_app().await;
    let admin = app.login(ADMIN, PASSWORD).await;
    let project = app.project_id(PROJECT).await;
    let paid = PaidSales::new(&app, project).await;
    let (sale, intent) = paid.pay(&app).await;
    let rows = refund_table(&app, &admin, project).await;
    assert_eq!(
        (row_of(&rows, sale)["flag"].as_i64(), row_of(&rows, sale)["state"].as_str()),
        (Some(1), Some("refundable"))
    );
    // The screen's ceilings come from the server (domain::refund), not from the client's arithmetic.
    assert_eq!(
        (row_of(&rows, sale)["refundableAmount"].as_i64(), row_of(&rows, sale)["halfRefundAmount"].as_i64()),
        (Some(paid.total), Some(paid.total / 2))
    );
    let supporter = app.query_text(&format!(
        "SELECT u.email AS value FROM sales s JOIN users u ON u.id = s.user_id WHERE s.id = {sale}"
    ));
    let mails_before = app.mails_to(&supporter, 0).await.len();

    for amount in [Value::Null, json!(0), json!(-5)] {
        let (status, body) = refund(&app, &admin, sale, amount).await;
        assert_eq!((status, body["message"].as_str()), (400, Some("返金額を入力してください")), "{body}");
    }
    let (status, body) = refund(&app, &admin, sale, json!(paid.total + 1)).await;
    assert_eq!((status, body["message"].as_str()), (400, Some("返金額が協賛金額の合計を超えています")), "{body}");
    assert_eq!(refunded_at_provider(&intent).await, 0, "a refused request asks nothing of the provider");

    // The provider refuses: the sale stays refundable and the table says why.
    provider_call(reqwest::Method::POST, "/_test/refund_failures", &[("payment_intent", intent.as_str())]).await;
    let (status, body) = refund(&app, &admin, sale, json!(1000)).await;
    assert_eq!(
        (status, body["outcome"].as_str(), body["message"].as_str()),
        (200, Some("failed"), Some("返金に失敗しました"))
    );
    // In Japanese on the screen; the provider's own words kept beside it.
    assert!(body["reason"].as_str().unwrap().contains("残高が不足"), "{body}");
    assert!(body["reasonDetail"].as_str().unwrap().contains("Insufficient funds"), "{body}");
    let rows = refund_table(&app, &admin, project).await;
    assert_eq!(
        (row_of(&rows, sale)["flag"].as_i64(), row_of(&rows, sale)["state"].as_str()),
        (Some(1), Some("refundable"))
    );
    assert!(row_of(&rows, sale)["lastFailure"].as_str().unwrap().contains("残高が不足"));
    assert!(row_of(&rows, sale)["lastFailureDetail"].as_str().unwrap().contains("Insufficient funds"));
    provider_call(reqwest::Method::DELETE, &format!("/_test/refund_failures?payment_intent={intent}"), &[]).await;

    let raised_before = raised(&app, project);
    let (status, body) = refund(&app, &admin, sale, json!(1000)).await;
    assert_eq!(
        (status, body["outcome"].as_str(), body["message"].as_str()),
        (200, Some("succeeded"), Some("返金が完了しました。"))
    );

    let rows = refund_table(&app, &admin, project).await;
    let row = row_of(&rows, sale);
    assert_eq!(
        (row["flag"].as_i64(), row["state"].as_str(), row["refundedAmount"].as_i64()),
        (Some(11), Some("refunded"), Some(1000))
    );
    assert_eq!((row["refundableAmount"].as_i64(), row["halfRefundAmount"].as_i64()), (Some(0), None), "{row}");
    assert_eq!(row["lastFailure"], Value::Null);
    assert_eq!(refunded_at_provider(&intent).await, 1000);
    // A partly refunded sale keeps in the totals what was not refunded (same transaction as the flag), and the
    // public figure says so.
    assert_eq!(raised(&app, project), raised_before - 1000);
    let sum: Value = app.get(&format!("/v1/sales/get/sum?type=project&id={project}")).await.json().await.unwrap();
    assert_eq!(sum["result"]["amount"].as_i64(), Some(raised_before - 1000));
    let (status, body) = refund(&app, &admin, sale, json!(1)).await;
    assert_eq!(
        (status, body["message"].as_str()),
        (400, Some("この購入情報は返金できません。")),
        "never twice: {body}"
    );
    assert_eq!(refunded_at_provider(&intent).await, 1000);

    // The supporter's own history says so.
    let token = app.login(&supporter, PASSWORD).await;
    let history: Value = app.get_with_token("/v1/sales/get/list?user_id=me", &token).await.json().await.unwrap();
    let entry = history["data"].as_array().unwrap().iter().find(|e| e["id"] == sale).expect("sale in the history");
    assert_eq!((entry["statusLabel"].as_str(), entry["refundedAmount"].as_i64()), (Some("返金済み"), Some(1000)));

    let refund_mail = |m: &Value| {
        m["subject"].as_str().is_some_and(|s| s.contains("返金"))
            && m["text"].as_str().is_some_and(|t| t.contains("1,000円を返金しました"))
    };
    let mails = app.mails_with(&supporter, refund_mail).await;
    assert!(mails.len() > mails_before, "a new mail");
    assert!(mails.iter().any(refund_mail), "refund mail: {mails:?}");
    let logged = app.query_i64(&format!(
        "SELECT count(*) AS value FROM admin_actions WHERE action = 'refund_requested' AND sale_id = {sale}"
    ));
    assert_eq!(logged, 2, "both attempts are in the audit log");
}

#[tokio::test]
async fn a_bulk_refund_of_100_sales_with_7_refused_refunds_93_and_a_rerun_refunds_exactly_the_7() {
    let app = spawn_demo_app().await;
    let admin = app.login(ADMIN, PASSWORD).await;
    let project = app.project_id(PROJECT).await;
    // The demo's sales were never paid at this provider: out of this run.
    app.execute(&format!("UPDATE sales SET flag = 0 WHERE project_id = {project}"));
    let paid = PaidSales::new(&app, project).await;
    let mut sales = Vec::new();
    for _ in 0..100 {
        sales.push(paid.pay(&app).await);
    }
    let refused: Vec<&(i64, String)> = [3, 17, 29, 41, 58, 72, 96].iter().map(|&i| &sales[i]).collect();
    let form: Vec<(&str, &str)> = refused.iter().map(|(_, pi)| ("payment_intent", pi.as_str())).collect();
    provider_call(reqwest::Method::POST, "/_test/refund_failures", &form).await;
    let raised_before = raised(&app, project);

    let (status, body) = start_bulk(&app, &admin, project, 1).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["job"]["total"], 100);
    // One run at a time per project.
    let (status, body) = start_bulk(&app, &admin, project, 1).await;
    assert!(status == 409 || body["error"] == "validation_failed", "{status} {body}");
    let job = finished_bulk(&app, &admin, project).await;

    assert_eq!((job["status"].as_str(), job["done"].as_i64()), (Some("succeeded"), Some(100)), "{job}");
    assert_eq!((job["succeeded"].as_i64(), job["failed"].as_i64()), (Some(93), Some(7)));
    // Never 一括返金が完了しました when rows failed: how many of each, and that the failed stay refundable.
    assert_eq!(
        job["message"],
        "一括返金が終わりました。93件を返金し、7件は返金に失敗しました。失敗した支援は返金可能のまま残っています。"
    );
    let failed: Vec<i64> = job["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["status"] == "failed")
        .map(|r| r["saleId"].as_i64().unwrap())
        .collect();
    let mut expected: Vec<i64> = refused.iter().map(|(id, _)| *id).collect();
    expected.sort_unstable();
    let mut failed_sorted = failed.clone();
    failed_sorted.sort_unstable();
    assert_eq!(failed_sorted, expected);
    let rows = refund_table(&app, &admin, project).await;
    for (id, _) in &sales {
        let row = row_of(&rows, *id);
        if expected.contains(id) {
            assert_eq!((row["flag"].as_i64(), row["state"].as_str()), (Some(1), Some("refundable")), "{row}");
            assert!(row["lastFailureDetail"].as_str().unwrap().contains("Insufficient funds"), "{row}");
        } else {
            assert_eq!((row["flag"].as_i64(), row["refundedAmount"].as_i64()), (Some(11), Some(paid.total)), "{row}");
        }
    }
    assert_eq!(raised(&app, project), raised_before - 93 * paid.total, "the totals follow each refund");

    // The provider accepts them now: a re-run plans exactly the 7 and refunds each once.
    for (_, pi) in &refused {
        provider_call(reqwest::Method::DELETE, &format!("/_test/refund_failures?payment_intent={pi}"), &[]).await;
    }
    let (status, body) = start_bulk(&app, &admin, project, 1).await;
    assert_eq!((status, body["job"]["total"].as_i64()), (200, Some(7)), "{body}");
    let job = finished_bulk(&app, &admin, project).await;
    assert_eq!((job["succeeded"].as_i64(), job["failed"].as_i64()), (Some(7), Some(0)), "{job}");
    assert_eq!(job["message"], "一括返金が完了しました");
    let mut rerun: Vec<i64> = job["rows"].as_array().unwrap().iter().map(|r| r["saleId"].as_i64().unwrap()).collect();
    rerun.sort_unstable();
    assert_eq!(rerun, expected);

    // Nothing is refunded twice: each payment refunded exactly its total at the provider, once in our records.
    for (id, pi) in &sales {
        assert_eq!(refunded_at_provider(pi).await, paid.total, "sale {id}");
    }
    let ids: Vec<String> = sales.iter().map(|(id, _)| id.to_string()).collect();
    let succeeded = app.query_i64(&format!(
        "SELECT count(*) AS value FROM refunds WHERE status = 'succeeded' AND sales_id IN ({})",
        ids.join(",")
    ));
    assert_eq!(succeeded, 100);
    let (status, body) = start_bulk(&app, &admin, project, 1).await;
    assert_eq!((status, body["message"].as_str()), (400, Some("返金できる購入情報がありません。")), "{body}");
    assert_eq!(raised(&app, project), raised_before - 100 * paid.total);
    app.assert_reconciled();
}

#[tokio::test]
async fn a_member_cannot_see_or_refund_and_an_unknown_sale_is_not_found() {
    let app = spawn_demo_app().await;
    let member = app.login(MEMBER, PASSWORD).await;
    let admin = app.login(ADMIN, PASSWORD).await;
    let project = app.project_id(PROJECT).await;
    let resp =
        app.get_with_token(&format!("/v1/sales/get/list?project_id={project}&intent=1&refunds=1"), &member).await;
    assert_eq!(resp.status().as_u16(), 404);
    let (status, _) = refund(&app, &member, 1, json!(100)).await;
    assert_eq!(status, 404);
    let (status, _) = refund(&app, &admin, 999_999_999, json!(100)).await;
    assert_eq!(status, 404);
    let resp = app.get_with_token("/v1/sales/get/list?project_id=999999999&intent=1&refunds=1", &admin).await;
    assert_eq!(resp.status().as_u16(), 404);
    // The refund index lists every project with its counts.
    let body: Value = app.get_with_token("/v1/admin/get/refundProjects", &admin).await.json().await.unwrap();
    let listed = body["projects"].as_array().unwrap().iter().find(|p| p["slug"] == PROJECT).expect("project");
    assert!(listed["refundable"].as_i64().unwrap() > 0, "{listed}");
}

#[tokio::test]
async fn a_late_transfer_flagged_for_refund_is_listed_refundable_and_refunded() {
    let app = spawn_demo_app().await;
    let admin = app.login(ADMIN, PASSWORD).await;
    let project = app.project_id(PROJECT).await;
    let paid = PaidSales::new(&app, project).await;
    let (sale, intent) = paid.pay(&app).await;
    // As the backing flow leaves money that arrived after its sale was cancelled (no stock left to revive it).
    app.execute(&format!("UPDATE sales SET status = 'canceled', flag = 0, refund_required = TRUE WHERE id = {sale}"));

    let rows = refund_table(&app, &admin, project).await;
    let row = row_of(&rows, sale);
    assert_eq!(
        (
            row["refundRequired"].as_bool(),
            row["flag"].as_i64(),
            row["state"].as_str(),
            row["refundableAmount"].as_i64()
        ),
        (Some(true), Some(1), Some("refundable"), Some(paid.total))
    );
    let body: Value = app.get_with_token("/v1/admin/get/refundProjects", &admin).await.json().await.unwrap();
    let listed = body["projects"].as_array().unwrap().iter().find(|p| p["id"] == project).unwrap().clone();
    assert_eq!(listed["refundRequired"], 1);

    let (status, body) = refund(&app, &admin, sale, json!(paid.total)).await;
    assert_eq!((status, body["outcome"].as_str()), (200, Some("succeeded")), "{body}");
    let rows = refund_table(&app, &admin, project).await;
    assert_eq!(
        (row_of(&rows, sale)["flag"].as_i64(), row_of(&rows, sale)["state"].as_str()),
        (Some(11), Some("refunded"))
    );
    assert_eq!(refunded_at_provider(&intent).await, paid.total);
}
