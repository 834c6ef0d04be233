//! Integration test of `StripeGateway` against the local fake Stripe (localstripe behind
//! `app-server/dev/localstripe_server.py`), started by `bash app-server/dev/services.sh up`.
//! Reads `STRIPE_API_BASE` (default `http://127.0.0.1:8420/`).
//!
//! Everything runs in one test function because it wipes localstripe's store first.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::time::Duration;

use adapters_stripe::{
    CardPayment, GatewayError, NewCustomer, PaymentStatus, StripeGateway, WebhookEvent, WebhookObject,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;

const SECRET_KEY: &str = "sk_test_local";
const WEBHOOK_ID: &str = "adapters-stripe-test";
const WEBHOOK_SECRET: &str = "whsec_adapters_stripe_test";

fn api_base() -> String {
    std::env::var("STRIPE_API_BASE").unwrap_or_else(|_| "http://127.0.0.1:8420/".to_owned())
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

/// A minimal HTTP/1.0 client for the calls the gateway does not make (test setup and
/// localstripe's `/_config` endpoints). Returns (status, body).
async fn raw(method: &str, path: &str, form: &[(&str, &str)]) -> (u16, String) {
    let authority = authority();
    let mut stream = TcpStream::connect(&authority).await.unwrap_or_else(|e| {
        panic!("localstripe not reachable at {authority} ({e}); run `bash app-server/dev/services.sh up`")
    });
    let body = form_encode(form);
    let request = format!(
        "{method} {path} HTTP/1.0\r\nHost: {authority}\r\nAuthorization: Bearer {SECRET_KEY}\r\n\
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

async fn raw_ok(method: &str, path: &str, form: &[(&str, &str)]) -> serde_json::Value {
    let (status, body) = raw(method, path, form).await;
    assert_eq!(status, 200, "{method} {path}: {body}");
    serde_json::from_str(&body).unwrap_or(serde_json::Value::Null)
}

async fn card_payment_method(number: &str, customer: &str) -> String {
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
    raw_ok("POST", &format!("/v1/payment_methods/{id}/attach"), &[("customer", customer)]).await;
    id
}

/// A delivered webhook: (Stripe-Signature header, body).
type Delivery = (String, String);

/// A tiny webhook receiver on 127.0.0.1:0 answering 200 to every POST.
async fn webhook_listener() -> (String, mpsc::UnboundedReceiver<Delivery>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/stripe/webhook", listener.local_addr().unwrap());
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        loop {
            let Ok((mut stream, _)) = listener.accept().await else {
                return;
            };
            let tx = tx.clone();
            tokio::spawn(async move {
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
            });
        }
    });
    (url, rx)
}

/// Collects deliveries until `done` says the wanted events are in (or 15 s pass).
async fn collect_webhooks(
    rx: &mut mpsc::UnboundedReceiver<Delivery>,
    done: impl Fn(&[WebhookEvent]) -> bool,
) -> Vec<(Delivery, WebhookEvent)> {
    let mut deliveries = Vec::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
    loop {
        let events: Vec<WebhookEvent> = deliveries.iter().map(|(_, e): &(Delivery, WebhookEvent)| e.clone()).collect();
        if done(&events) {
            return deliveries;
        }
        let Ok(Some(delivery)) = tokio::time::timeout_at(deadline, rx.recv()).await else {
            panic!(
                "timed out waiting for webhooks; got {:?}",
                events.iter().map(|e| &e.event_type).collect::<Vec<_>>()
            );
        };
        // Every event localstripe sends must be correctly signed and readable by async-stripe.
        let event = StripeGateway::verify_webhook(&delivery.1, &delivery.0, WEBHOOK_SECRET)
            .unwrap_or_else(|e| panic!("webhook refused: {e}\n{}", delivery.1));
        deliveries.push((delivery, event));
    }
}

fn payment(amount_yen: i64, payment_method: &str, customer: &str) -> CardPayment {
    CardPayment {
        amount_yen,
        payment_method: payment_method.to_owned(),
        customer_id: Some(customer.to_owned()),
        off_session: false,
        metadata: BTreeMap::from([("sale_id".to_owned(), "sale-1".to_owned())]),
    }
}

fn parse<T: miniserde::Deserialize>(what: &str, value: &serde_json::Value) -> T {
    miniserde::json::from_str(&value.to_string())
        .unwrap_or_else(|_| panic!("async-stripe cannot read this {what}: {value:#}"))
}

#[tokio::test]
async fn card_payments_refunds_and_webhooks_against_localstripe() {
    raw_ok("DELETE", "/_config/data", &[]).await;
    let (url, mut webhooks) = webhook_listener().await;
    raw_ok("POST", &format!("/_config/webhooks/{WEBHOOK_ID}"), &[("url", &url), ("secret", WEBHOOK_SECRET)]).await;

    let gateway = StripeGateway::new(SECRET_KEY, &api_base()).unwrap();

    // Customer.
    let customer = gateway
        .create_customer(&NewCustomer {
            email: "taro@example.jp".to_owned(),
            name: Some("山田 太郎".to_owned()),
            user_id: "42".to_owned(),
        })
        .await
        .unwrap();
    assert!(customer.id.starts_with("cus_"), "{customer:?}");
    let stored = raw_ok("GET", &format!("/v1/customers/{}", customer.id), &[]).await;
    assert_eq!(stored["metadata"]["user_id"], "42");
    assert_eq!(stored["preferred_locales"][0], "ja");
    assert_eq!(stored["name"], "山田 太郎");

    // A 3,300 yen card payment, confirmed at once.
    let visa = card_payment_method("4242424242424242", &customer.id).await;
    let paid = gateway.create_card_payment(&payment(3300, &visa, &customer.id), "sale-1-attempt-1").await.unwrap();
    assert_eq!(paid.status, PaymentStatus::Succeeded);
    assert_eq!((paid.amount, paid.amount_received, paid.currency.as_str()), (3300, 3300, "jpy"));
    assert_eq!(paid.customer_id.as_deref(), Some(customer.id.as_str()));
    assert!(paid.latest_charge_id.as_deref().is_some_and(|c| c.starts_with("ch_")), "{paid:?}");
    assert_eq!(paid.metadata.get("sale_id").map(String::as_str), Some("sale-1"));

    // A double-clicked confirm (same idempotency key) charges once.
    let again = gateway.create_card_payment(&payment(3300, &visa, &customer.id), "sale-1-attempt-1").await.unwrap();
    assert_eq!(again.id, paid.id);
    let charges = raw_ok("GET", &format!("/v1/charges?customer={}", customer.id), &[]).await;
    assert_eq!(charges["data"].as_array().unwrap().len(), 1, "{charges:#}");
    // The same key with other parameters is refused.
    let err = gateway.create_card_payment(&payment(3400, &visa, &customer.id), "sale-1-attempt-1").await.unwrap_err();
    assert!(matches!(&err, GatewayError::Api { status: 400, kind, .. } if kind == "idempotency_error"), "{err:?}");

    let fetched = gateway.retrieve_payment(&paid.id).await.unwrap();
    assert_eq!(fetched, paid);

    // Partial refund.
    let refund = gateway.refund(&paid.id, Some(1000), "refund-sale-1-1").await.unwrap();
    assert!(refund.id.starts_with("re_"), "{refund:?}");
    assert_eq!((refund.amount, refund.currency.as_str()), (1000, "jpy"));
    assert_eq!(refund.status.as_deref(), Some("succeeded"));
    assert_eq!(refund.charge_id, paid.latest_charge_id);
    let charge = raw_ok("GET", &format!("/v1/charges/{}", paid.latest_charge_id.as_deref().unwrap()), &[]).await;
    assert_eq!(charge["amount_refunded"], 1000);
    let charge: stripe_shared::Charge = parse("charge", &charge);
    assert_eq!(charge.amount_refunded, 1000);

    // A declined card and a card that needs 3-D Secure.
    let declined = card_payment_method("4000000000000341", &customer.id).await;
    let err = gateway.create_card_payment(&payment(3300, &declined, &customer.id), "sale-2").await.unwrap_err();
    assert!(matches!(&err, GatewayError::CardDeclined { code: Some(code), .. } if code == "card_declined"), "{err:?}");
    let secure = card_payment_method("4000002500003155", &customer.id).await;
    let pending = gateway.create_card_payment(&payment(3300, &secure, &customer.id), "sale-3").await.unwrap();
    assert_eq!(pending.status, PaymentStatus::RequiresAction);
    assert!(pending.client_secret.is_some());
    assert!(matches!(gateway.retrieve_payment("pi_missing").await, Err(GatewayError::Api { status: 404, .. })));

    // Subscription shapes (billing objects) must be readable too, in responses and webhooks.
    let product = raw_ok("POST", "/v1/products", &[("name", "毎月の応援"), ("type", "service")]).await;
    let _: stripe_shared::Product = parse("product", &product);
    let plan = raw_ok(
        "POST",
        "/v1/plans",
        &[("amount", "1000"), ("currency", "jpy"), ("interval", "month"), ("product", product["id"].as_str().unwrap())],
    )
    .await;
    let _: stripe_shared::Plan = parse("plan", &plan);
    raw_ok("POST", &format!("/v1/customers/{}", customer.id), &[("invoice_settings[default_payment_method]", &visa)])
        .await;
    let subscription = raw_ok(
        "POST",
        "/v1/subscriptions",
        &[("customer", &customer.id), ("items[0][plan]", plan["id"].as_str().unwrap())],
    )
    .await;
    let subscription: stripe_shared::Subscription = parse("subscription", &subscription);
    assert_eq!(subscription.items.data[0].price.unit_amount, Some(1000));
    let invoices = raw_ok("GET", &format!("/v1/invoices?customer={}", customer.id), &[]).await;
    let invoice: stripe_shared::Invoice = parse("invoice", &invoices["data"][0]);
    assert_eq!(invoice.amount_paid, 1000);

    // Signed webhooks: wait for our payment's event and the subscription's.
    let deliveries = collect_webhooks(&mut webhooks, |events| {
        let has = |t: &str| events.iter().any(|e| e.event_type == t);
        has("customer.subscription.created")
            && events.iter().any(|e| matches!(&e.object, WebhookObject::PaymentIntent(pi) if pi.id == paid.id))
    })
    .await;
    let ((signature, body), event) = deliveries
        .iter()
        .find(|(_, e)| matches!(&e.object, WebhookObject::PaymentIntent(pi) if pi.id == paid.id))
        .unwrap();
    assert_eq!(event.event_type, "payment_intent.succeeded");
    assert!(event.id.starts_with("evt_"));
    let WebhookObject::PaymentIntent(pi) = &event.object else { unreachable!() };
    assert_eq!((pi.status.clone(), pi.amount, pi.currency.as_str()), (PaymentStatus::Succeeded, 3300, "jpy"));
    assert!(signature.starts_with("t=") && signature.contains(",v1="), "{signature}");

    // Tampered payload, wrong secret, missing signature: refused.
    let tampered = body.replacen("3300", "330", 1);
    assert_ne!(&tampered, body);
    assert!(matches!(
        StripeGateway::verify_webhook(&tampered, signature, WEBHOOK_SECRET),
        Err(GatewayError::WebhookSignature(_))
    ));
    assert!(matches!(
        StripeGateway::verify_webhook(body, signature, "whsec_wrong"),
        Err(GatewayError::WebhookSignature(_))
    ));
    assert!(StripeGateway::verify_webhook(body, "", WEBHOOK_SECRET).is_err());

    let seen: Vec<&str> = deliveries.iter().map(|(_, e)| e.event_type.as_str()).collect();
    for expected in
        ["customer.created", "product.created", "plan.created", "invoice.created", "invoice.payment_succeeded"]
    {
        assert!(seen.contains(&expected), "no {expected} webhook among {seen:?}");
    }

    // Leave no webhook pointing at this test's (soon closed) port.
    raw_ok(
        "POST",
        &format!("/_config/webhooks/{WEBHOOK_ID}"),
        &[("url", "http://127.0.0.1:9/"), ("secret", WEBHOOK_SECRET), ("events[]", "none")],
    )
    .await;
}
