//! Helpers for the tests against the local fake Stripe (localstripe behind
//! `app-server/dev/localstripe_server.py`), started by `bash app-server/dev/services.sh up`.
//! Reads `STRIPE_API_BASE` and `STRIPE_SECRET_KEY` from `.data/services.env` (source it);
//! without them every test fails, saying so.
//!
//! Tests run in parallel against one localstripe: none wipes its store, every test has its
//! own customers, its own idempotency-key namespace and its own webhook registration.
#![allow(clippy::unwrap_used, clippy::expect_used, dead_code)]

use domain::ids::UserId;
use std::time::Duration;

use adapters_stripe::{StripeGateway, StripeSettings};
use domain::account::Email;
use ports::payments::gateway::{
    CustomerId, IdempotencyKey, KeyNamespace, NewCustomer, PaymentEvent, PaymentGateway, PaymentMethodId,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;

fn service_env(name: &str) -> String {
    std::env::var(name).ok().filter(|v| !v.is_empty()).unwrap_or_else(|| {
        panic!(
            "{name} is not set: these tests run against the local fake Stripe. Start it with \
             `bash app-server/dev/services.sh up` and `source .data/services.env` (make test does both)"
        )
    })
}

pub fn api_base() -> String {
    service_env("STRIPE_API_BASE")
}

pub fn secret_key() -> String {
    service_env("STRIPE_SECRET_KEY")
}

/// A gateway whose webhook secret is `webhook_secret`.
pub fn gateway(webhook_secret: &str) -> StripeGateway {
    StripeGateway::new(&StripeSettings {
        secret_key: secret_key(),
        api_base: Some(api_base()),
        webhook_secret: webhook_secret.to_owned(),
        namespace: KeyNamespace::none(),
    })
    .unwrap()
}

/// A namespace no other run shares, so keys like `sale-1-confirm` stay fresh.
pub fn namespace() -> KeyNamespace {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    KeyNamespace::new(&format!("t{nanos}_{}", std::process::id())).unwrap()
}

pub async fn customer(gateway: &StripeGateway, ns: &KeyNamespace, user_id: i64) -> CustomerId {
    let customer = NewCustomer {
        user_id: UserId(user_id),
        email: Email::parse("taro@example.jp").unwrap(),
        name: Some("山田 太郎".to_owned()),
    };
    gateway.create_customer(customer, IdempotencyKey::for_customer(ns, UserId(user_id))).await.unwrap()
}

/// `host:port` of the api base.
fn authority() -> String {
    let base = api_base();
    let rest = base.strip_prefix("http://").expect("localstripe runs on plain http");
    rest.split('/').next().unwrap().to_owned()
}

fn form_encode(pairs: &[(&str, &str)]) -> String {
    fn enc(s: &str) -> String {
        s.bytes()
            .map(|b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
                _ => format!("%{b:02X}"),
            })
            .collect()
    }
    pairs.iter().map(|(k, v)| format!("{}={}", enc(k), enc(v))).collect::<Vec<_>>().join("&")
}

/// A minimal HTTP/1.0 client for the calls the gateway does not make (test setup, test
/// helpers and localstripe's `/_config` endpoints). Returns (status, body).
pub async fn raw(method: &str, path: &str, form: &[(&str, &str)]) -> (u16, String) {
    let authority = authority();
    let mut stream = TcpStream::connect(&authority).await.unwrap_or_else(|e| {
        panic!("localstripe not reachable at {authority} ({e}); run `bash app-server/dev/services.sh up`")
    });
    let body = form_encode(form);
    let secret_key = secret_key();
    let request = format!(
        "{method} {path} HTTP/1.0\r\nHost: {authority}\r\nAuthorization: Bearer {secret_key}\r\n\
         Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    let response = String::from_utf8(response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, body.to_owned())
}

pub async fn raw_ok(method: &str, path: &str, form: &[(&str, &str)]) -> serde_json::Value {
    let (status, body) = raw(method, path, form).await;
    assert_eq!(status, 200, "{method} {path}: {body}");
    serde_json::from_str(&body).unwrap_or(serde_json::Value::Null)
}

/// What the browser does with a card typed on the card form: the server starts a set-up (under
/// `customer`, or nobody for a guest) and Stripe.js's `confirmCardSetup` sends the card with its
/// client secret, completing 3-D Secure when the card asks. The answer is the PaymentMethod.
pub async fn set_up(gateway: &StripeGateway, customer: Option<&CustomerId>, number: &str) -> PaymentMethodId {
    let setup = gateway.start_card_setup(customer.cloned()).await.unwrap();
    let id = setup.client_secret.split("_secret_").next().unwrap().to_owned();
    let path = format!("/v1/setup_intents/{id}/confirm");
    let mut seti = raw_ok(
        "POST",
        &path,
        &[
            ("client_secret", setup.client_secret.as_str()),
            ("payment_method_data[type]", "card"),
            ("payment_method_data[card][number]", number),
            ("payment_method_data[card][exp_month]", "12"),
            ("payment_method_data[card][exp_year]", "2030"),
            ("payment_method_data[card][cvc]", "123"),
        ],
    )
    .await;
    if seti["status"] == "requires_action" {
        // The 3-D Secure box, answered "Complete authentication".
        seti = raw_ok("POST", &path, &[("client_secret", setup.client_secret.as_str())]).await;
    }
    assert_eq!(seti["status"], "succeeded", "{seti:#}");
    PaymentMethodId::new(seti["payment_method"].as_str().unwrap())
}

/// A card typed in the browser and kept by `customer`, as the product does it: set up under
/// the customer, the first card made the default.
pub async fn card(gateway: &StripeGateway, customer: &CustomerId, number: &str) -> PaymentMethodId {
    let card = set_up(gateway, Some(customer), number).await;
    if gateway.cards(customer).await.unwrap().default.is_none() {
        gateway.set_default_card(customer, &card).await.unwrap();
    }
    card
}

/// A card PaymentMethod (`pm_...`) attached to `customer`, for the billing objects
/// (subscriptions charge `invoice_settings.default_payment_method`).
pub async fn payment_method(number: &str, customer: &CustomerId) -> String {
    let pm = raw_ok(
        "POST",
        "/v1/payment_methods",
        &[
            ("type", "card"),
            ("card[number]", number),
            ("card[exp_month]", "12"),
            ("card[exp_year]", "2030"),
            ("card[cvc]", "123"),
        ],
    )
    .await;
    let id = pm["id"].as_str().unwrap().to_owned();
    raw_ok("POST", &format!("/v1/payment_methods/{id}/attach"), &[("customer", customer.as_str())]).await;
    id
}

/// A delivered webhook: (Stripe-Signature header, body).
pub type Delivery = (String, String);

/// A webhook registration at localstripe pointing at a tiny receiver on 127.0.0.1:0
/// that answers 200 to every POST. Dropping it does not unregister: call `close`.
pub struct Webhooks {
    id: String,
    pub secret: String,
    rx: mpsc::UnboundedReceiver<Delivery>,
}

impl Webhooks {
    pub async fn register(name: &str) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/stripe/webhook", listener.local_addr().unwrap());
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(receive(stream, tx.clone()));
            }
        });
        let id = format!("{name}-{}", std::process::id());
        let secret = format!("whsec_{}", name.replace('-', "_"));
        raw_ok("POST", &format!("/_config/webhooks/{id}"), &[("url", &url), ("secret", &secret)]).await;
        Self { id, secret, rx }
    }

    /// Verifies every delivery with `gateway` (they must all be correctly signed and
    /// readable) until `done` holds for the events so far, or 15 s pass.
    pub async fn collect(
        &mut self,
        gateway: &StripeGateway,
        done: impl Fn(&[PaymentEvent]) -> bool,
    ) -> Vec<(Delivery, PaymentEvent)> {
        let mut deliveries: Vec<(Delivery, PaymentEvent)> = Vec::new();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
        loop {
            let events: Vec<PaymentEvent> = deliveries.iter().map(|(_, e)| e.clone()).collect();
            if done(&events) {
                return deliveries;
            }
            let Ok(Some(delivery)) = tokio::time::timeout_at(deadline, self.rx.recv()).await else {
                panic!(
                    "timed out waiting for webhooks; got {:?}",
                    events.iter().map(|e| &e.event_type).collect::<Vec<_>>()
                );
            };
            let event = gateway
                .verify_webhook(&delivery.1, &delivery.0)
                .unwrap_or_else(|e| panic!("webhook refused: {e}\n{}", delivery.1));
            deliveries.push((delivery, event));
        }
    }

    /// Leaves no registration pointing at this test's (soon closed) port.
    pub async fn close(self) {
        raw_ok(
            "POST",
            &format!("/_config/webhooks/{}", self.id),
            &[("url", "http://127.0.0.1:9/"), ("secret", &self.secret), ("events[]", "none")],
        )
        .await;
    }
}

async fn receive(mut stream: TcpStream, tx: mpsc::UnboundedSender<Delivery>) {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    let (head_len, content_length) = loop {
        let n = stream.read(&mut chunk).await.unwrap();
        assert!(n > 0, "webhook connection closed early");
        buf.extend_from_slice(&chunk[..n]);
        if let Some(pos) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..pos]).to_lowercase();
            let length = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .map(|v| v.trim().parse::<usize>().unwrap())
                .unwrap_or(0);
            break (pos + 4, length);
        }
    };
    while buf.len() < head_len + content_length {
        let n = stream.read(&mut chunk).await.unwrap();
        assert!(n > 0, "webhook body cut short");
        buf.extend_from_slice(&chunk[..n]);
    }
    let head = String::from_utf8_lossy(&buf[..head_len]).into_owned();
    let signature = head
        .lines()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("stripe-signature").then(|| value.trim().to_owned())
        })
        .unwrap_or_default();
    let body = String::from_utf8(buf[head_len..].to_vec()).unwrap();
    stream.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n").await.unwrap();
    let _ = tx.send((signature, body));
}

/// Reads `value` with async-stripe's own type, as the gateway would.
pub fn parse<T: miniserde::Deserialize>(what: &str, value: &serde_json::Value) -> T {
    miniserde::json::from_str(&value.to_string())
        .unwrap_or_else(|_| panic!("async-stripe cannot read this {what}: {value:#}"))
}
