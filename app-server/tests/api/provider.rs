//! The local payment server as the tests reach it directly: what Stripe.js does in a browser, and the
//! test routes of our localstripe wrapper.

use serde_json::Value;

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

/// What Stripe.js does in the browser: the card number goes to the provider, we get a token.
pub async fn card_token(number: &str) -> String {
    let (base, key) = provider();
    let body: Value = reqwest::Client::new()
        .post(format!("{base}/v1/tokens"))
        .basic_auth(key, Some(""))
        .form(&[("card[number]", number), ("card[exp_month]", "12"), ("card[exp_year]", "2031"), ("card[cvc]", "123")])
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    body["id"].as_str().expect("token").to_string()
}
