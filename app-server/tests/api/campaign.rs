//! The end of a campaign against the real local payment server and a real database: the closing sweep decides a
//! project once its end has passed, waits for bank transfers still within their deadline, refunds a failed
//! all-or-nothing project in full through the provider, tells its supporters, and a successful project's payout
//! statement reconciles to the yen and is marked paid once.

use std::time::Duration;

use serde_json::{json, Value};

use crate::backing::{customer_of, place, provider_post, return_id, support_body, PROJECT};
use crate::helpers::{spawn_demo_app_with, unique_email, TestApp};
use crate::provider::set_up_card;

const ADMIN: &str = "demo-admin@example.jp";
const PASSWORD: &str = "demo-password-1";

/// A guest's paid card support of the demo project; its total.
async fn card_support(app: &TestApp, guest: &str) -> i64 {
    let mut body = support_body(app, "thanks-mail", 1).await;
    body["guestEmail"] = json!(guest);
    body["card"] = json!({"paymentMethod": set_up_card("4242424242424242").await, "save": false});
    let (status, answer) = place(app, None, &body).await;
    assert_eq!((status, &answer["sale"]["status"]), (200, &json!("succeeded")), "{answer}");
    answer["sale"]["total"].as_i64().unwrap()
}

/// Ends the demo project yesterday as an all-or-nothing project with `goal`.
fn end_yesterday(app: &TestApp, project: i64, goal: i64) {
    app.execute(&format!(
        "UPDATE projects SET period_end = (now() AT TIME ZONE 'Asia/Tokyo')::date - 1, \
           funding_model = 'all_or_nothing', target_amount = {goal} WHERE id = {project}"
    ));
}

async fn until(what: &str, mut check: impl FnMut() -> bool) {
    for _ in 0..300 {
        if check() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{what} did not happen within 30 s");
}

fn closing_of(app: &TestApp, project: i64) -> String {
    app.query_text(&format!(
        "SELECT coalesce((SELECT outcome FROM project_closings WHERE project_id = {project} \
           AND (outcome = 'awaiting_funds' OR mailed_at IS NOT NULL)), 'none') AS value"
    ))
}

async fn result_on_the_page(app: &TestApp) -> Value {
    let detail: Value = app.get(&format!("/v1/project/get/detail?slug={PROJECT}")).await.json().await.unwrap();
    detail["project"]["result"].clone()
}

#[tokio::test]
async fn a_failed_all_or_nothing_project_refunds_every_card_in_full_and_tells_its_supporters() {
    let app = spawn_demo_app_with(|s| s.campaign_close_seconds = 1).await;
    let (project, _) = return_id(&app, "thanks-mail").await;
    let (first, second) = (unique_email("aon-a"), unique_email("aon-b"));
    let paid = card_support(&app, &first).await + card_support(&app, &second).await;

    end_yesterday(&app, project, 1_000_000_000);
    until("the close", || closing_of(&app, project) == "failed").await;

    // Both supporters get every yen back from the provider, through the bulk-refund job.
    until("the refunds", || {
        app.query_i64(&format!(
            "SELECT coalesce(sum(s.refunded_amount), 0)::bigint AS value FROM sales s JOIN users u ON u.id = s.user_id \
              WHERE s.project_id = {project} AND lower(u.email) IN (lower('{first}'), lower('{second}')) \
                AND EXISTS (SELECT 1 FROM refunds r WHERE r.sales_id = s.id AND r.status = 'succeeded')"
        )) == paid
    })
    .await;
    assert_eq!(
        app.query_i64(&format!(
            "SELECT count(*) AS value FROM refunds r JOIN sales s ON s.id = r.sales_id JOIN users u ON u.id = s.user_id \
              WHERE lower(u.email) = lower('{first}') AND r.requested_by IS NULL"
        )),
        1,
        "asked for by the site, once"
    );
    let mails = app.mails_to(&first, 3).await;
    let result = mails
        .iter()
        .find(|m| m["subject"].as_str().is_some_and(|s| s.contains("プロジェクト不成立と返金のお知らせ")))
        .expect("the result mail");
    assert!(result["text"].as_str().unwrap().contains("全額返金します"));
    let page = result_on_the_page(&app).await;
    assert_eq!((page["outcome"].as_str(), page["label"].as_str()), (Some("failed"), Some("不成立")));

    // A later pass decides nothing again and sends nothing again.
    let sent = app.mails_to(&first, 3).await.len();
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    assert_eq!(app.mails_to(&first, 0).await.len(), sent);
    assert_eq!(
        app.query_i64(&format!("SELECT count(*) AS value FROM project_closings WHERE project_id = {project}")),
        1
    );
}

#[tokio::test]
async fn a_project_waits_for_a_transfer_within_its_deadline_and_succeeds_when_it_is_paid_then_pays_its_owner_once() {
    let app = spawn_demo_app_with(|s| s.campaign_close_seconds = 1).await;
    let (project, _) = return_id(&app, "thanks-mail").await;
    let guest = unique_email("aon-transfer");
    let mut body = support_body(&app, "thanks-mail", 2).await;
    body["guestEmail"] = json!(guest);
    let (status, answer) = place(&app, None, &body).await;
    assert_eq!(status, 200, "{answer}");
    let transfer = answer["sale"]["total"].as_i64().unwrap();
    let counted = app.query_i64(&format!(
        "SELECT coalesce(sum(total - refunded_amount), 0)::bigint AS value FROM sales \
          WHERE project_id = {project} AND status = 'succeeded'"
    ));

    // The demo's own unpaid transfer is past its deadline: only ours is awaited.
    app.execute(&format!(
        "UPDATE sales SET transfer_deadline = current_date - 7 WHERE project_id = {project} \
           AND status = 'awaiting_bank_transfer' AND id <> {}",
        answer["sale"]["id"]
    ));
    // The goal is reached only with the transfer placed before the end.
    end_yesterday(&app, project, counted + transfer);
    until("the wait", || closing_of(&app, project) == "awaiting_funds").await;
    assert_eq!(result_on_the_page(&app).await["outcome"], "awaiting_funds");

    let customer = customer_of(&app, &guest);
    let amount = transfer.to_string();
    provider_post(
        &format!("/v1/test_helpers/customers/{customer}/fund_cash_balance"),
        &[("amount", amount.as_str()), ("currency", "jpy")],
    )
    .await;
    let paid = crate::backing::status_of(&app, answer["receipt"].as_str().unwrap()).await;
    assert_eq!(paid["sale"]["status"], "succeeded");
    until("the success", || closing_of(&app, project) == "succeeded").await;
    let mails = app.mails_to(&guest, 3).await;
    assert!(mails.iter().any(|m| m["subject"].as_str().is_some_and(|s| s.contains("プロジェクト成立のお知らせ"))));

    // The owner's statement: what supporters paid less refunds, less the terms' 20 %, to the yen.
    let admin = app.login(ADMIN, PASSWORD).await;
    let statement: Value =
        app.get_with_token(&format!("/v1/admin/payouts/{project}"), &admin).await.json().await.unwrap();
    let figures = &statement["figures"];
    let confirmed = counted + transfer;
    assert_eq!(figures["confirmed"], confirmed);
    assert_eq!(figures["platformFee"], confirmed * 2 / 10);
    assert_eq!(figures["payout"], confirmed - confirmed * 2 / 10);
    assert_eq!((statement["status"].as_str(), statement["seq"].as_i64()), (Some("due"), Some(1)));

    let mark = json!({
        "expectedPayout": figures["payout"], "expectedOwed": 0,
        "paidOn": statement["payoutDate"], "reference": "振込 0001"
    });
    // A payout date in the future cannot be a day the money was sent.
    let early = app.post_json_with_token(&format!("/v1/admin/payouts/{project}/paid"), &admin, &mark).await;
    let early_status = early.status().as_u16();
    let early_body: Value = early.json().await.unwrap();
    let today = app.query_text("SELECT ((now() AT TIME ZONE 'Asia/Tokyo')::date)::text AS value");
    if statement["payoutDate"].as_str().unwrap() > today.as_str() {
        assert_eq!(early_status, 400, "{early_body}");
        assert_eq!(
            (early_body["field"].as_str(), early_body["message"].as_str()),
            (Some("paidOn"), Some("支払日は今日以前の日付を入力してください。"))
        );
    }
    let mut mark = mark;
    mark["paidOn"] = json!(today);
    let settled: Value = app
        .post_json_with_token(&format!("/v1/admin/payouts/{project}/paid"), &admin, &mark)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(settled["status"], "settled", "{settled}");
    assert_eq!(settled["paid"][0]["reference"], "振込 0001");
    // The same statement marked again (another operator's screen) is refused: nothing is paid twice.
    let again = app.post_json_with_token(&format!("/v1/admin/payouts/{project}/paid"), &admin, &mark).await;
    assert_eq!(again.status().as_u16(), 409);
    let csv = app.get_with_token("/v1/admin/payouts/export.csv", &admin).await.text().await.unwrap();
    assert!(csv.starts_with('\u{feff}'), "Excel reads UTF-8 by its byte-order mark");
    assert!(csv.contains(&format!("\"{}\"", confirmed - confirmed * 2 / 10)));
}

/// The operators' edit body of a project as it stands, with `owner_email`.
async fn with_owner(app: &TestApp, token: &str, project: i64, owner_email: &str) -> Value {
    let current: Value =
        app.get_with_token(&format!("/v1/admin/projects/{project}"), token).await.json().await.unwrap();
    let mut body = json!({});
    for field in [
        "slug",
        "title",
        "lead",
        "story",
        "goal",
        "periodEnd",
        "fundingModel",
        "taxHandling",
        "acceptsCard",
        "acceptsBankTransfer",
        "areaId",
        "categoryId",
    ] {
        body[field] = current[field].clone();
    }
    body["ownerEmail"] = json!(owner_email);
    body
}

#[tokio::test]
async fn the_owner_set_on_the_edit_form_is_told_a_failed_result_once_however_often_the_close_runs() {
    let app = spawn_demo_app_with(|s| s.campaign_close_seconds = 1).await;
    let admin = app.login(ADMIN, PASSWORD).await;
    let (project, _) = return_id(&app, "thanks-mail").await;
    let path = format!("/v1/admin/projects/{project}");

    // A bad address is refused on its field, in Japanese; a good one is kept and shown back.
    let refused = app.post_json_with_token(&path, &admin, &with_owner(&app, &admin, project, "owner@").await).await;
    assert_eq!(refused.status(), 400);
    let refused: Value = refused.json().await.unwrap();
    assert_eq!(refused["field"], "ownerEmail", "{refused}");
    assert_eq!(refused["message"], "プロジェクト実行者のメールアドレスを正しい形式（254文字以内）で入力してください。");
    let owner = unique_email("owner");
    let saved = app.post_json_with_token(&path, &admin, &with_owner(&app, &admin, project, &owner).await).await;
    assert_eq!(saved.status(), 200);
    let shown: Value = app.get_with_token(&path, &admin).await.json().await.unwrap();
    assert_eq!(shown["ownerEmail"], json!(owner));

    card_support(&app, &unique_email("owner-backer")).await;
    end_yesterday(&app, project, 1_000_000_000);
    until("the close", || closing_of(&app, project) == "failed").await;
    let mails = app.mails_to(&owner, 1).await;
    assert_eq!(mails.len(), 1, "{mails:?}");
    assert!(mails[0]["subject"].as_str().unwrap().contains("募集終了のお知らせ"), "{}", mails[0]["subject"]);
    assert!(mails[0]["subject"].as_str().unwrap().ends_with("（不成立）"));
    assert!(mails[0]["text"].as_str().unwrap().contains("全額返金します。お支払いはありません。"));

    // The close runs again (every second) and a second server's close too: still one mail.
    app.execute(&format!("UPDATE project_closings SET mailed_at = NULL WHERE project_id = {project}"));
    until("the supporters' round again", || closing_of(&app, project) == "failed").await;
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    assert_eq!(app.mails_to(&owner, 0).await.len(), 1);
    assert_eq!(
        app.query_i64(&format!(
            "SELECT count(*) AS value FROM background_jobs WHERE kind = 'send_mail' AND payload->>'to' = '{owner}'"
        )),
        1
    );
}

/// Our reminders of a refund waiting for the supporter's account, sent to `to`.
async fn reminders_to(app: &TestApp, to: &str) -> usize {
    app.mails_to(to, 0)
        .await
        .into_iter()
        .filter(|m| m["subject"].as_str().is_some_and(|s| s.contains("返金先口座のご入力のお願い")))
        .count()
}

#[tokio::test]
async fn a_bank_refund_left_unanswered_is_reminded_once_per_due_date_then_lapses_unclaimed_after_six_months() {
    let app = spawn_demo_app_with(|s| s.payment_sweep_seconds = 1).await;
    let admin = app.login(ADMIN, PASSWORD).await;
    let (project, _) = return_id(&app, "thanks-mail").await;
    let guest = unique_email("unclaimed");
    let mut body = support_body(&app, "thanks-mail", 2).await;
    body["guestEmail"] = json!(guest);
    let (status, answer) = place(&app, None, &body).await;
    assert_eq!(status, 200, "{answer}");
    let (sale, total) = (answer["sale"]["id"].as_i64().unwrap(), answer["sale"]["total"].as_i64().unwrap());
    let amount = total.to_string();
    provider_post(
        &format!("/v1/test_helpers/customers/{}/fund_cash_balance", customer_of(&app, &guest)),
        &[("amount", amount.as_str()), ("currency", "jpy")],
    )
    .await;
    until("the transfer paid", || {
        app.query_text(&format!("SELECT status AS value FROM sales WHERE id = {sale}")) == "succeeded"
    })
    .await;
    let refunded = app
        .post_json_with_token("/v1/stripe/intent/set/refund", &admin, &json!({"saleId": sale, "amount": total}))
        .await;
    assert_eq!(refunded.status(), 200);
    let refund_row = |column: &str| {
        app.query_text(&format!(
            "SELECT {column}::text AS value FROM refunds WHERE sales_id = {sale} ORDER BY id DESC LIMIT 1"
        ))
    };
    assert_eq!(refund_row("status"), "requires_action");

    // A week after it was asked (time moved by dating the request back): one reminder, and only one.
    app.execute(&format!("UPDATE refunds SET created_at = now() - interval '8 days' WHERE sales_id = {sale}"));
    until("the first reminder recorded", || refund_row("reminders_sent") == "1").await;
    let mut reminder = None;
    for _ in 0..100 {
        reminder = app
            .mails_to(&guest, 0)
            .await
            .into_iter()
            .find(|m| m["subject"].as_str().is_some_and(|s| s.contains("返金先口座のご入力のお願い")));
        if reminder.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let reminder = reminder.expect("the reminder mail");
    assert!(reminder["text"].as_str().unwrap().contains("メール内のリンクから口座をご入力ください"), "{reminder}");
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    assert_eq!(reminders_to(&app, &guest).await, 1);
    assert_eq!(refund_row("reminders_sent"), "1");

    // Seven months on without an answer: cancelled at the provider, recorded unclaimed, shown so, never refundable.
    app.execute(&format!("UPDATE refunds SET created_at = now() - interval '7 months' WHERE sales_id = {sale}"));
    until("the lapse", || refund_row("status") == "unclaimed").await;
    let provider_id = refund_row("provider_refund_id");
    let (base, key) = crate::provider::provider();
    let at_provider: Value = reqwest::Client::new()
        .get(format!("{base}/v1/refunds/{provider_id}"))
        .basic_auth(key, Some(""))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(at_provider["status"], "canceled");
    assert_eq!(app.query_i64(&format!("SELECT refunded_amount AS value FROM sales WHERE id = {sale}")), total);
    let url = format!("/v1/sales/get/list?project_id={project}&intent=1&refunds=1");
    let table: Value = app.get_with_token(&url, &admin).await.json().await.unwrap();
    let row = table["data"]["data"].as_array().unwrap().iter().find(|r| r["id"] == sale).unwrap().clone();
    assert_eq!((row["state"].as_str(), row["refundableAmount"].as_i64()), (Some("unclaimed"), Some(0)), "{row}");
    // No reminder after the lapse.
    assert_eq!(reminders_to(&app, &guest).await, 1);
}
