//! The local payment server as the tests reach it directly: what Stripe.js does in a browser, and the
//! test routes of our localstripe wrapper.

use serde_json::{json, Value};

/// The provider's base URL (no trailing slash) and secret key, from the environment `services.sh` writes.
pub fn provider() -> (String, String) {
    let base = std::env::var("STRIPE_API_BASE").expect("STRIPE_API_BASE: run `bash app-server/dev/services.sh up`");
    let key = std::env::var("STRIPE_SECRET_KEY").unwrap_or_else(|_| "sk_test_local".into());
    (base.trim_end_matches('/').to_string(), key)
}

/// `GET {path}` at the provider (a payment, a subscription, a list page), as JSON.
pub async fn provider_get(path: &str) -> Value {
    let (base, key) = provider();
    reqwest::Client::new()
        .get(format!("{base}{path}"))
        .basic_auth(key, Some(""))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

/// What Stripe.js's `confirmCardSetup` does in the browser with the client secret of a set-up: the card
/// number goes to the provider, and the 3-D Secure box (for a card that asks) is answered `authenticate`.
/// The PaymentMethod, or the provider's error.
pub async fn confirm_card_setup(client_secret: &str, number: &str, authenticate: bool) -> Result<String, Value> {
    let (base, key) = provider();
    let id = client_secret.split("_secret_").next().unwrap();
    let client = reqwest::Client::new();
    let confirm = |form: Vec<(&'static str, String)>| {
        client.post(format!("{base}/v1/setup_intents/{id}/confirm")).basic_auth(&key, Some("")).form(&form).send()
    };
    let secret = ("client_secret", client_secret.to_owned());
    let card = |field: &'static str, value: &str| (field, value.to_owned());
    let mut seti: Value = confirm(vec![
        secret.clone(),
        card("payment_method_data[type]", "card"),
        card("payment_method_data[card][number]", number),
        card("payment_method_data[card][exp_month]", "12"),
        card("payment_method_data[card][exp_year]", "2031"),
        card("payment_method_data[card][cvc]", "123"),
    ])
    .await
    .unwrap()
    .json()
    .await
    .unwrap();
    if seti["status"] == "requires_action" {
        if !authenticate {
            return Err(json!({"message": "3-D Secure failed"}));
        }
        seti = confirm(vec![secret]).await.unwrap().json().await.unwrap();
    }
    match seti["payment_method"].as_str() {
        Some(card) if seti["status"] == "succeeded" => Ok(card.to_owned()),
        _ => Err(seti["error"].clone()),
    }
}

/// `POST {path}` at the provider with a form, as JSON (its error object too).
pub async fn provider_form(path: &str, form: &[(&str, &str)]) -> Value {
    let (base, key) = provider();
    let resp = reqwest::Client::new().post(format!("{base}{path}")).basic_auth(key, Some("")).form(form).send();
    resp.await.unwrap().json().await.unwrap()
}

/// A card typed in a guest's browser: a set-up under nobody, confirmed (3-D Secure passed). Its PaymentMethod.
pub async fn set_up_card(number: &str) -> String {
    let seti = provider_form("/v1/setup_intents", &[("usage", "off_session")]).await;
    confirm_card_setup(seti["client_secret"].as_str().expect("client secret"), number, true).await.expect("set up")
}
