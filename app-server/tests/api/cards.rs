//! Saved cards (`/v1/stripe/customer/...`) against the real local payment server: each member sees and acts
//! on their own cards only, whatever ids a client sends.

use serde_json::{json, Value};

use crate::helpers::{spawn_demo_app, TestApp};
use crate::provider::card_token;

const TARO: &str = "demo-taro@example.jp";
const HANAKO: &str = "demo-hanako@example.jp";
const PASSWORD: &str = "demo-password-1";
const PROJECT: &str = "maebashi-rose-garden";

async fn cards_of(app: &TestApp, token: &str) -> Value {
    let resp = app.get_with_token("/v1/stripe/customer/get/cards", token).await;
    assert_eq!(resp.status(), 200);
    resp.json::<Value>().await.unwrap()["data"].clone()
}

/// Registers a card through the API as the register modal does; answers the new card's id.
async fn register(app: &TestApp, token: &str, number: &str) -> String {
    let source = card_token(number).await;
    let resp = app
        .post_json_with_token(
            "/v1/stripe/customer/set/updater",
            token,
            &json!({"source": source, "isCardRegist": true}),
        )
        .await;
    let status = resp.status().as_u16();
    let body: Value = resp.json().await.unwrap();
    assert_eq!(status, 200, "{body}");
    body["card"]["id"].as_str().unwrap().to_string()
}

fn ids(cards: &Value) -> Vec<String> {
    cards["cards"].as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap().to_string()).collect()
}

/// Two demo members with a card each: Taro's Visa, Hanako's MasterCard.
async fn two_members_with_cards(app: &TestApp) -> ((String, String), (String, String)) {
    let taro = app.login(TARO, PASSWORD).await;
    let hanako = app.login(HANAKO, PASSWORD).await;
    let taro_card = register(app, &taro, "4242424242424242").await;
    let hanako_card = register(app, &hanako, "5555555555554444").await;
    ((taro, taro_card), (hanako, hanako_card))
}

#[tokio::test]
async fn a_member_lists_only_their_own_cards_whatever_customer_id_is_sent() {
    let app = spawn_demo_app().await;
    let ((taro, taro_card), (hanako, hanako_card)) = two_members_with_cards(&app).await;
    let taro_customer: Value = app.get_with_token("/v1/user/loginCheck", &taro).await.json::<Value>().await.unwrap()
        ["data"]["customer"]
        .clone();
    let taro_customer = taro_customer["customer_id"].as_str().unwrap().to_string();

    // The seed's client sent `customerId`: Taro's customer id in Hanako's request changes nothing.
    let url = format!("/v1/stripe/customer/get/cards?customerId={taro_customer}");
    let seen: Value = app.get_with_token(&url, &hanako).await.json::<Value>().await.unwrap()["data"].clone();

    assert_eq!(ids(&seen), vec![hanako_card.clone()]);
    assert_eq!(seen["default"], json!(hanako_card));
    assert_eq!(seen["cards"][0]["brand"], "MasterCard");
    assert_eq!(ids(&cards_of(&app, &taro).await), vec![taro_card]);
}

#[tokio::test]
async fn another_members_card_can_be_neither_made_default_nor_deleted() {
    let app = spawn_demo_app().await;
    let ((taro, taro_card), (hanako, hanako_card)) = two_members_with_cards(&app).await;
    let before = cards_of(&app, &taro).await;

    for path in ["/v1/stripe/customer/set/changeDefaultCard", "/v1/stripe/customer/set/deleteCard"] {
        let resp =
            app.post_json_with_token(path, &hanako, &json!({"card_id": taro_card, "customer_id": "ignored"})).await;
        assert_eq!(resp.status(), 404, "{path}");
    }

    assert_eq!(cards_of(&app, &taro).await, before, "Taro's cards are untouched");
    assert_eq!(ids(&cards_of(&app, &hanako).await), vec![hanako_card]);
}

#[tokio::test]
async fn a_member_without_a_customer_cannot_act_on_someone_elses_card_either() {
    let app = spawn_demo_app().await;
    let taro = app.login(TARO, PASSWORD).await;
    let taro_card = register(&app, &taro, "4242424242424242").await;
    let jiro = app.login("demo-jiro@example.jp", PASSWORD).await;

    let check: Value = app.get_with_token("/v1/user/loginCheck", &jiro).await.json().await.unwrap();
    assert_eq!(check["data"]["customer"], Value::Null, "no card yet, no customer");
    assert_eq!(cards_of(&app, &jiro).await, json!({"cards": [], "default": null}));
    for path in ["/v1/stripe/customer/set/changeDefaultCard", "/v1/stripe/customer/set/deleteCard"] {
        let resp = app.post_json_with_token(path, &jiro, &json!({"card_id": taro_card})).await;
        assert_eq!(resp.status(), 404, "{path}");
    }
    assert_eq!(ids(&cards_of(&app, &taro).await), vec![taro_card]);
}

#[tokio::test]
async fn a_support_cannot_be_paid_with_another_members_saved_card() {
    let app = spawn_demo_app().await;
    let ((taro, taro_card), (hanako, _)) = two_members_with_cards(&app).await;
    let project = app.project_id(PROJECT).await;
    let ret = app
        .query_i64(&format!("SELECT id AS value FROM returns WHERE project_id = {project} AND slug = 'thanks-mail'"));
    let body = json!({
        "projectId": project, "returnId": ret, "lot": 1, "paymentType": 1,
        "idempotencyKey": uuid::Uuid::new_v4().to_string(), "card": {"cardId": taro_card},
        "displayname": "前橋 花子", "agreeTerms": true, "notAntisocial": true
    });

    let resp = app.post_json_with_token("/v1/payment/set/support", &hanako, &body).await;

    assert_eq!(resp.status(), 404);
    let paid = app.query_i64(&format!(
        "SELECT count(*) AS value FROM sales WHERE project_id = {project} AND status = 'succeeded' \
         AND created_at > now() - interval '1 minute'"
    ));
    assert_eq!(paid, 0, "nothing was charged");
    assert_eq!(ids(&cards_of(&app, &taro).await), vec![taro_card]);
}

#[tokio::test]
async fn the_owner_sets_the_default_and_deletes_and_login_check_names_the_customer() {
    let app = spawn_demo_app().await;
    let taro = app.login(TARO, PASSWORD).await;
    let first = register(&app, &taro, "4242424242424242").await;
    let check: Value = app.get_with_token("/v1/user/loginCheck", &taro).await.json().await.unwrap();
    assert!(check["data"]["customer"]["customer_id"].as_str().unwrap().starts_with("cus_"), "{check}");
    // The 3-D Secure test card registers like any other: authentication is asked when it pays.
    let second = register(&app, &taro, "4000002500003155").await;
    assert_eq!(cards_of(&app, &taro).await["default"], json!(first), "the first card stays the default");

    let resp =
        app.post_json_with_token("/v1/stripe/customer/set/changeDefaultCard", &taro, &json!({"card_id": second})).await;
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.json::<Value>().await.unwrap()["data"]["default"], json!(second));

    let resp = app.post_json_with_token("/v1/stripe/customer/set/deleteCard", &taro, &json!({"card_id": first})).await;
    assert_eq!(resp.status(), 200);
    let left = resp.json::<Value>().await.unwrap()["data"].clone();
    assert_eq!(ids(&left), vec![second.clone()]);
    assert_eq!(left["cards"][0]["last4"], "3155");
}

#[tokio::test]
async fn a_card_the_provider_refuses_is_402_with_the_message_and_nothing_is_saved() {
    let app = spawn_demo_app().await;
    let taro = app.login(TARO, PASSWORD).await;
    let source = card_token("4000000000000002").await;

    let resp = app.post_json_with_token("/v1/stripe/customer/set/updater", &taro, &json!({"source": source})).await;

    assert_eq!(resp.status(), 402);
    let body: Value = resp.json().await.unwrap();
    assert_eq!(body["error"], "card_declined");
    assert_eq!(body["message"], "カードが承認されませんでした。別のカードをお試しください。");
    assert_eq!(cards_of(&app, &taro).await["cards"], json!([]));
}
