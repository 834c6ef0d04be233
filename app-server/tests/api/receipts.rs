//! Receipts (領収書) through the real wiring: a member's own paid sale, issued and reissued; what others, guests
//! and unpaid sales get; refunds, donations and the issuer an operator sets; and the link of a guest's paid mail.

use app_server::config::Settings;
use domain::receipt::{MSG_PARTLY_REFUNDED, MSG_REGISTRATION_NUMBER};
use serde_json::{json, Value};

use crate::backing::{place, support_body};
use crate::helpers::{spawn_demo_app, unique_email, TestApp};
use crate::provider::set_up_card;

const MEMBER: &str = "demo-taro@example.jp";
const OTHER: &str = "demo-hanako@example.jp";
const ADMIN: &str = "demo-admin@example.jp";
const PASSWORD: &str = "demo-password-1";

/// A demo sale's id by its key (`maebashi-06`: the member's paid support of the rose garden, tax included).
fn sale(app: &TestApp, key: &str) -> i64 {
    app.query_i64(&format!("SELECT id AS value FROM sales WHERE idempotency_key = 'demo-{key}'"))
}

async fn answer(response: reqwest::Response) -> (u16, Value) {
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn receipt(app: &TestApp, token: Option<&str>, sale: i64) -> (u16, Value) {
    let path = format!("/v1/user/receipts/{sale}");
    answer(match token {
        Some(token) => app.get_with_token(&path, token).await,
        None => app.get(&path).await,
    })
    .await
}

async fn issue(app: &TestApp, token: &str, sale: i64, addressee: Value) -> (u16, Value) {
    let path = format!("/v1/user/receipts/{sale}/issue");
    answer(app.post_json_with_token(&path, token, &json!({ "addressee": addressee })).await).await
}

#[tokio::test]
async fn a_member_opens_their_paid_sales_receipt_issues_it_and_the_second_issue_says_reissue() {
    let app = spawn_demo_app().await;
    let token = app.login(MEMBER, PASSWORD).await;
    let id = sale(&app, "maebashi-06");
    let total = app.query_i64(&format!("SELECT total AS value FROM sales WHERE id = {id}"));

    let (status, before) = receipt(&app, Some(&token), id).await;

    assert_eq!(status, 200, "{before}");
    assert_eq!(before["title"], "領収書");
    assert_eq!(before["nextTitle"], "領収書");
    assert_eq!(before["issuedCount"], 0);
    assert_eq!(before["receiptNumber"], format!("R{id:08}"));
    // The account's display name: the member typed nothing.
    assert_eq!(before["addressee"], "群馬 太郎");
    assert_eq!(before["amount"], total);
    assert_eq!(before["kind"], "sale");
    assert_eq!(before["purpose"], "「前橋ばら園 花壇よみがえりプロジェクト」へのご支援として");
    assert_eq!(
        before["rates"],
        json!([{"label": "10%対象", "ratePercent": 10, "total": total, "tax": total * 10 / 110}])
    );
    assert_eq!(before["lines"][0]["lots"], 2);
    assert_eq!(before["refundNote"], Value::Null);
    // No issuer set on the project: the operator receives on the owner's behalf, and no registration number.
    assert_eq!(before["issuer"]["name"], Settings::from_env().unwrap().operator.name);
    assert!(before["issuer"]["onBehalfOf"].as_str().is_some_and(|o| !o.is_empty()), "{before}");
    assert_eq!(before["issuer"]["registrationNumber"], Value::Null);
    assert_eq!(before["qualifiedInvoice"], false);
    assert!(before["paidOn"].as_str().is_some_and(|d| d.len() == 10));

    let (status, first) = issue(&app, &token, id, json!(" 株式会社上毛 ")).await;
    assert_eq!(status, 200, "{first}");
    assert_eq!((first["title"].as_str(), first["issuedCount"].as_i64()), (Some("領収書"), Some(1)));
    assert_eq!(first["addressee"], "株式会社上毛");
    assert_eq!(first["nextTitle"], "領収書（再発行）");
    assert!(first["issuedOn"].as_str().is_some_and(|d| d.len() == 10));

    // Empty: the member's name again.
    let (status, second) = issue(&app, &token, id, json!("")).await;
    assert_eq!(status, 200, "{second}");
    assert_eq!((second["title"].as_str(), second["issuedCount"].as_i64()), (Some("領収書（再発行）"), Some(2)));
    assert_eq!(second["addressee"], "群馬 太郎");
    assert_eq!(second["receiptNumber"], format!("R{id:08}-2"));
    let (_, read) = receipt(&app, Some(&token), id).await;
    assert_eq!(read["title"], "領収書（再発行）");
    assert_eq!(
        app.query_i64(&format!("SELECT issued_count::bigint AS value FROM sale_receipts WHERE sale_id = {id}")),
        2
    );
}

#[tokio::test]
async fn another_members_an_unknown_and_an_unpaid_sale_are_all_not_found_and_no_token_is_unauthorized() {
    let app = spawn_demo_app().await;
    let member = app.login(MEMBER, PASSWORD).await;
    let other = app.login(OTHER, PASSWORD).await;
    let admin = app.login(ADMIN, PASSWORD).await;
    let paid = sale(&app, "maebashi-06");
    let awaiting = sale(&app, "tomioka-02");

    for (who, token, id) in [
        ("another member", &other, paid),
        ("an administrator", &admin, paid),
        ("the owner, unpaid", &member, awaiting),
        ("the owner, unknown", &member, 987_654_321),
    ] {
        let (status, body) = receipt(&app, Some(token), id).await;
        assert_eq!((status, body["error"].as_str()), (404, Some("not_found")), "{who}: {body}");
        let (status, body) = issue(&app, token, id, Value::Null).await;
        assert_eq!((status, body["error"].as_str()), (404, Some("not_found")), "{who}: {body}");
    }
    let (status, _) = receipt(&app, None, paid).await;
    assert_eq!(status, 401);
    let (status, body) = answer(app.get_with_token("/v1/user/receipts/abc", &member).await).await;
    assert_eq!((status, body["error"].as_str()), (400, Some("malformed_request")));
    assert_eq!(app.query_i64("SELECT count(*) AS value FROM sale_receipts"), 0, "nothing was issued");
}

#[tokio::test]
async fn an_addressee_over_sixty_characters_is_refused_with_its_message_and_nothing_is_issued() {
    let app = spawn_demo_app().await;
    let token = app.login(MEMBER, PASSWORD).await;
    let id = sale(&app, "maebashi-06");

    let (status, body) = issue(&app, &token, id, json!("宛".repeat(61))).await;

    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"], "validation_failed");
    assert_eq!(body["field"], "addressee");
    assert_eq!(body["message"], "宛名は60文字以内で入力してください。");
    let (_, read) = receipt(&app, Some(&token), id).await;
    assert_eq!(read["issuedCount"], 0);
}

#[tokio::test]
async fn a_partly_refunded_sale_shows_what_was_kept_as_the_amount_received() {
    let app = spawn_demo_app().await;
    let token = app.login(MEMBER, PASSWORD).await;
    let admin_id = app.query_i64(&format!("SELECT id AS value FROM users WHERE email = '{ADMIN}'"));
    let id = sale(&app, "maebashi-06");
    let total = app.query_i64(&format!("SELECT total AS value FROM sales WHERE id = {id}"));
    // A refund of a third, paid out by the provider (as the refund flow records it).
    let refunded = total / 3;
    app.execute(&format!(
        "INSERT INTO refunds (sales_id, amount, status, requested_by, provider_refund_id) \
         VALUES ({id}, {refunded}, 'succeeded', {admin_id}, 're_receipt_test')"
    ));

    let (status, body) = receipt(&app, Some(&token), id).await;

    assert_eq!(status, 200, "{body}");
    let kept = total - refunded;
    assert_eq!((body["amount"].as_i64(), body["paidTotal"].as_i64()), (Some(kept), Some(total)));
    assert_eq!(body["refunded"], refunded);
    assert_eq!(body["refundNote"], MSG_PARTLY_REFUNDED);
    assert_eq!(body["rates"][0]["total"], kept);
    assert_eq!(body["rates"][0]["tax"], kept * 10 / 110);
}

#[tokio::test]
async fn a_donation_gives_a_donation_receipt_with_no_consumption_tax() {
    let app = spawn_demo_app().await;
    let token = app.login(MEMBER, PASSWORD).await;
    let id = sale(&app, "isesaki-03");

    let (status, body) = receipt(&app, Some(&token), id).await;

    assert_eq!(status, 200, "{body}");
    assert_eq!(body["title"], "寄附金受領証明書");
    assert_eq!(body["kind"], "donation");
    assert_eq!(body["rates"], json!([{"label": "対象外", "ratePercent": null, "total": 3000, "tax": 0}]));
}

#[tokio::test]
async fn an_operator_sets_the_issuer_and_receipts_then_carry_its_registration_number() {
    let app = spawn_demo_app().await;
    let admin = app.login(ADMIN, PASSWORD).await;
    let member = app.login(MEMBER, PASSWORD).await;
    let project = app.project_id("maebashi-rose-garden").await;
    let path = format!("/v1/admin/projects/{project}/receipt-issuer");
    let put = |token: String, body: Value| {
        let request = app.client.put(format!("{}{path}", app.address)).bearer_auth(token).json(&body);
        async move { answer(request.send().await.unwrap()).await }
    };

    let (status, unset) = answer(app.get_with_token(&path, &admin).await).await;
    assert_eq!(status, 200, "{unset}");
    assert_eq!((unset["issuerName"].clone(), unset["registrationNumber"].clone()), (Value::Null, Value::Null));

    let (status, body) =
        put(admin.clone(), json!({"issuerName": "前橋ばら園の会", "registrationNumber": "T12345"})).await;
    assert_eq!(
        (status, body["field"].as_str(), body["message"].as_str()),
        (400, Some("registrationNumber"), Some(MSG_REGISTRATION_NUMBER))
    );
    let (status, body) = put(admin.clone(), json!({"issuerName": " ", "registrationNumber": null})).await;
    assert_eq!((status, body["message"].as_str()), (400, Some("発行者名を入力してください。")), "{body}");
    let (status, body) = put(member.clone(), json!({"issuerName": "前橋ばら園の会", "registrationNumber": null})).await;
    assert_eq!((status, body["error"].as_str()), (404, Some("not_found")), "a member does not see the route");

    let (status, set) = put(
        admin.clone(),
        json!({"issuerName": "一般社団法人 前橋ばら園の会", "registrationNumber": "Ｔ１２３４５６７８９０１２３"}),
    )
    .await;
    assert_eq!(status, 200, "{set}");
    assert_eq!(set["registrationNumber"], "T1234567890123");
    assert!(set["updatedAt"].is_string());

    let (_, read) = receipt(&app, Some(&member), sale(&app, "maebashi-06")).await;
    assert_eq!(
        read["issuer"],
        json!({"name": "一般社団法人 前橋ばら園の会", "registrationNumber": "T1234567890123", "onBehalfOf": null})
    );
    assert_eq!(read["qualifiedInvoice"], true);
    let logged = app.query_text(
        "SELECT detail->'after'->>'registrationNumber' AS value FROM admin_actions \
         WHERE action = 'receipt_issuer_updated' ORDER BY id DESC LIMIT 1",
    );
    assert_eq!(logged, "T1234567890123");
}

#[tokio::test]
async fn a_guests_paid_mail_links_to_the_receipt_which_issues_without_login_and_a_tampered_link_is_not_found() {
    let app = spawn_demo_app().await;
    let guest = unique_email("receipt-guest");
    app.post_json("/v1/user/register", &json!({"email": guest, "isGuest": true})).await;
    let mut body = support_body(&app, "thanks-mail", 1).await;
    body["guestEmail"] = json!(guest);
    body["card"] = json!({"paymentMethod": set_up_card("4242424242424242").await});
    let (status, placed) = place(&app, None, &body).await;
    assert_eq!(status, 200, "{placed}");
    let mails = app.mails_to(&guest, 1).await;
    let text = mails
        .iter()
        .filter_map(|m| m["text"].as_str())
        .find(|t| t.contains("領収書は次のページから発行・印刷できます"))
        .expect("the thanks mail with the receipt link")
        .to_string();
    let link_start = text.find("/receipt/").expect("link") + "/receipt/".len();
    let token = text[link_start..].split_whitespace().next().unwrap().to_string();

    let (status, opened) = answer(app.get(&format!("/v1/receipts/{token}")).await).await;
    assert_eq!(status, 200, "{opened}");
    assert_eq!(opened["saleId"], placed["sale"]["id"]);
    assert_eq!(opened["amount"], placed["sale"]["total"]);
    // The guest typed a display name at checkout: it is the default addressee.
    assert_eq!(opened["addressee"], "前橋 花子");
    let (status, issued) =
        answer(app.post_json(&format!("/v1/receipts/{token}/issue"), &json!({"addressee": "上州商事株式会社"})).await)
            .await;
    assert_eq!(status, 200, "{issued}");
    assert_eq!((issued["issuedCount"].as_i64(), issued["addressee"].as_str()), (Some(1), Some("上州商事株式会社")));

    let mut tampered = token.clone();
    tampered.replace_range(tampered.len() - 4.., "AAAA");
    // The complete page's order token names the same sale but is no receipt link.
    let order = placed["receipt"].as_str().unwrap().to_string();
    for bad in [tampered, order, "not-a-token".to_string()] {
        let (status, body) = answer(app.get(&format!("/v1/receipts/{bad}")).await).await;
        assert_eq!((status, body["error"].as_str()), (404, Some("not_found")), "{bad}: {body}");
        let (status, _) = answer(app.post_json(&format!("/v1/receipts/{bad}/issue"), &json!({})).await).await;
        assert_eq!(status, 404);
    }
}
