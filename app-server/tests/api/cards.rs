//! Saved cards (`/v1/stripe/customer/...`) against the real local payment server: each member sees and acts
//! on their own cards only, whatever ids a client sends.

use serde_json::{json, Value};

use crate::helpers::{spawn_demo_app, TestApp};
use crate::provider::{confirm_card_setup, provider_form, provider_get, set_up_card};

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
    let source = set_up_card(number).await;
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
    // The card form: the provider refuses the card while it is set up, in the browser, before we hear of it.
    let refused = set_up_through_the_site(&app, Some(&taro), "4000000000000002", true).await.unwrap_err();
    assert_eq!(refused["code"], "card_declined");
    // A PaymentMethod made without a set-up (another client): refused when attached.
    let card = [
        ("type", "card"),
        ("card[number]", "4000000000000002"),
        ("card[exp_month]", "12"),
        ("card[exp_year]", "2031"),
        ("card[cvc]", "123"),
    ];
    let method = provider_form("/v1/payment_methods", &card).await;
    let source = method["id"].as_str().unwrap();

    let resp = app.post_json_with_token("/v1/stripe/customer/set/updater", &taro, &json!({"source": source})).await;

    assert_eq!(resp.status(), 402);
    let body: Value = resp.json().await.unwrap();
    assert_eq!(body["error"], "card_declined");
    assert_eq!(body["message"], "カードが承認されませんでした。別のカードをお試しください。");
    assert_eq!(cards_of(&app, &taro).await["cards"], json!([]));
}

/// What the card form does: a set-up from our server, confirmed by Stripe.js (3-D Secure answered
/// `authenticate`), then the PaymentMethod registered.
async fn set_up_through_the_site(
    app: &TestApp,
    token: Option<&str>,
    number: &str,
    authenticate: bool,
) -> Result<String, Value> {
    let resp = match token {
        Some(token) => app.post_json_with_token("/v1/stripe/set/cardSetup", token, &json!({})).await,
        None => app.post_json("/v1/stripe/set/cardSetup", &json!({})).await,
    };
    assert_eq!(resp.status(), 200);
    let secret = resp.json::<Value>().await.unwrap()["clientSecret"].as_str().unwrap().to_string();
    assert!(secret.starts_with("seti_"), "{secret}");
    confirm_card_setup(&secret, number, authenticate).await
}

#[tokio::test]
async fn a_3d_secure_card_is_saved_once_authenticated_and_not_when_authentication_fails() {
    let app = spawn_demo_app().await;
    let taro = app.login(TARO, PASSWORD).await;

    let refused = set_up_through_the_site(&app, Some(&taro), "4000002760003184", false).await;
    assert!(refused.is_err(), "failed authentication gives no card: {refused:?}");
    assert_eq!(ids(&cards_of(&app, &taro).await), Vec::<String>::new());

    let card = set_up_through_the_site(&app, Some(&taro), "4000002760003184", true).await.unwrap();
    assert!(card.starts_with("pm_"), "{card}");
    let resp = app
        .post_json_with_token("/v1/stripe/customer/set/updater", &taro, &json!({"source": card, "isCardRegist": true}))
        .await;
    assert_eq!(resp.status(), 200);
    let body: Value = resp.json().await.unwrap();
    assert_eq!((body["card"]["last4"].as_str(), body["data"]["default"].as_str()), (Some("3184"), Some(card.as_str())));
    // The card is the member's at the provider, set up for charges with nobody present.
    let method = provider_get(&format!("/v1/payment_methods/{card}")).await;
    let customer: Value = app.get_with_token("/v1/user/loginCheck", &taro).await.json::<Value>().await.unwrap();
    assert_eq!(method["customer"], customer["data"]["customer"]["customer_id"]);
}

#[tokio::test]
async fn another_members_payment_method_can_be_neither_registered_nor_paid_with() {
    let app = spawn_demo_app().await;
    let ((taro, _), (hanako, _)) = two_members_with_cards(&app).await;
    let taros = set_up_through_the_site(&app, Some(&taro), "4242424242424242", true).await.unwrap();

    let resp = app
        .post_json_with_token(
            "/v1/stripe/customer/set/updater",
            &hanako,
            &json!({"source": taros, "isCardRegist": true}),
        )
        .await;
    assert_eq!(resp.status(), 404);
    let project = app.project_id(PROJECT).await;
    let ret = app
        .query_i64(&format!("SELECT id AS value FROM returns WHERE project_id = {project} AND slug = 'thanks-mail'"));
    let body = json!({
        "projectId": project, "returnId": ret, "lot": 1, "paymentType": 1,
        "idempotencyKey": uuid::Uuid::new_v4().to_string(), "card": {"paymentMethod": taros},
        "displayname": "前橋 花子", "agreeTerms": true, "notAntisocial": true
    });
    let resp = app.post_json_with_token("/v1/payment/set/support", &hanako, &body).await;
    assert_eq!(resp.status(), 400);
    assert_eq!(resp.json::<Value>().await.unwrap()["field"], "card");
    assert!(!ids(&cards_of(&app, &hanako).await).contains(&taros));
}

#[tokio::test]
async fn a_guest_sets_up_a_card_without_logging_in_and_pays_with_it_once() {
    let app = spawn_demo_app().await;
    let resp = app.post_json("/v1/stripe/set/cardSetup", &json!({})).await;
    let secret = resp.json::<Value>().await.unwrap()["clientSecret"].as_str().unwrap().to_string();
    let describe = |secret: String| {
        let app = &app;
        async move { app.post_json("/v1/stripe/get/cardSetup", &json!({ "clientSecret": secret })).await }
    };
    let unconfirmed = describe(secret.clone()).await;
    assert_eq!(unconfirmed.status(), 404, "no card before Stripe.js confirms the set-up");
    let card = confirm_card_setup(&secret, "4242424242424242", true).await.unwrap();
    // The confirm step shows the card: its brand and last digits, read back with the secret only.
    let described: Value = describe(secret.clone()).await.json().await.unwrap();
    assert_eq!(
        (described["card"]["id"].as_str(), described["card"]["last4"].as_str()),
        (Some(card.as_str()), Some("4242"))
    );
    let forged = secret.replace("_secret_", "_secret_x");
    assert_eq!(describe(forged).await.status(), 404);
    let project = app.project_id(PROJECT).await;
    let ret = app
        .query_i64(&format!("SELECT id AS value FROM returns WHERE project_id = {project} AND slug = 'thanks-mail'"));
    let body = json!({
        "projectId": project, "returnId": ret, "lot": 1, "paymentType": 1,
        "idempotencyKey": uuid::Uuid::new_v4().to_string(), "card": {"paymentMethod": card},
        "guestEmail": crate::helpers::unique_email("guest-card"),
        "displayname": "ゲスト", "agreeTerms": true, "notAntisocial": true
    });

    let resp = app.post_json("/v1/payment/set/support", &body).await;

    let status = resp.status();
    let answer: Value = resp.json().await.unwrap();
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["sale"]["status"], "succeeded", "{answer}");
    // A guest never keeps a card: once paid, it is detached again.
    let method = provider_get(&format!("/v1/payment_methods/{card}")).await;
    assert_eq!(method["customer"], Value::Null, "{method}");
}
