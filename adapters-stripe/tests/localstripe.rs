//! `StripeGateway` against the local fake Stripe: customers, card payments (success,
//! decline, 3-D Secure), idempotency, refunds, signed webhooks, and the billing objects
//! async-stripe must be able to read. Needs `bash app-server/dev/services.sh up`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use domain::ids::SaleId;
use domain::money::Yen;
use domain::payment::IntentStatus;
use ports::payments::gateway::{
    CardCharge, ConnectedAccountId, Destination, GatewayError, IdempotencyKey, KeyPurpose, NextAction, PaymentEvent,
    PaymentEventKind, PaymentGateway, PaymentId, PaymentMethodId, RefundRequest, RefundStatus, WebhookError,
};
use support::{card, customer, gateway, namespace, parse, payment_method, raw, raw_ok, Webhooks};

fn charge(
    sale_id: i64,
    amount: i64,
    card: &PaymentMethodId,
    customer: &ports::payments::gateway::CustomerId,
) -> CardCharge {
    CardCharge {
        sale_id: SaleId(sale_id),
        amount: Yen(amount),
        payment_method: card.clone(),
        customer: Some(customer.clone()),
        destination: None,
    }
}

#[tokio::test]
async fn one_customer_per_user_even_when_created_twice() {
    let (gateway, ns) = (gateway("whsec_unused"), namespace());
    let first = customer(&gateway, &ns, 42).await;
    let again = customer(&gateway, &ns, 42).await;
    assert!(first.as_str().starts_with("cus_"), "{first}");
    assert_eq!(first, again);
    let stored = raw_ok("GET", &format!("/v1/customers/{first}"), &[]).await;
    assert_eq!(stored["metadata"]["user_id"], "42");
    assert_eq!(stored["preferred_locales"][0], "ja");
    assert_eq!(stored["name"], "山田 太郎");
}

#[tokio::test]
async fn a_card_payment_succeeds_once_per_key_with_fee_and_destination() {
    let (gateway, ns) = (gateway("whsec_unused"), namespace());
    let customer = customer(&gateway, &ns, 1).await;
    let visa = card(&gateway, &customer, "4242424242424242").await;
    let destination = Destination { account: ConnectedAccountId::new("acct_project1"), application_fee: Yen(448) };
    let mut request = charge(11, 3300, &visa, &customer);
    request.destination = Some(destination.clone());
    let key = IdempotencyKey::for_sale(&ns, SaleId(11), KeyPurpose::Confirm);

    let paid = gateway.charge_card(request.clone(), key.clone()).await.unwrap();
    assert_eq!(paid.status, IntentStatus::Succeeded);
    assert_eq!((paid.amount, paid.amount_received, paid.amount_remaining), (Yen(3300), Yen(3300), Yen(0)));
    assert_eq!(paid.sale_id, Some(SaleId(11)));
    assert_eq!(paid.destination, Some(destination));
    assert_eq!(paid.next_action, None);

    // A double-clicked confirm, or a retry after a timeout: the same payment, one charge.
    let again = gateway.charge_card(request.clone(), key.clone()).await.unwrap();
    assert_eq!(again, paid);
    let charges = raw_ok("GET", &format!("/v1/charges?customer={customer}"), &[]).await;
    assert_eq!(charges["data"].as_array().unwrap().len(), 1, "{charges:#}");

    // The same key with other terms is a bug, refused without charging.
    request.amount = Yen(3400);
    let err = gateway.charge_card(request, key).await.unwrap_err();
    assert!(matches!(err, GatewayError::KeyReused(_)), "{err:?}");

    assert_eq!(gateway.payment(&paid.id).await.unwrap(), paid);
}

#[tokio::test]
async fn a_declined_card_fails_with_the_providers_message_every_time_it_is_retried() {
    let (gateway, ns) = (gateway("whsec_unused"), namespace());
    let customer = customer(&gateway, &ns, 2).await;
    let declined = card(&gateway, &customer, "4000000000000341").await;
    let key = IdempotencyKey::for_sale(&ns, SaleId(12), KeyPurpose::Confirm);
    for _ in 0..2 {
        let err = gateway.charge_card(charge(12, 3300, &declined, &customer), key.clone()).await.unwrap_err();
        let GatewayError::Declined { message, code, payment, .. } = &err else { panic!("{err:?}") };
        assert!(!message.is_empty());
        assert_eq!(code.as_deref(), Some("card_declined"));
        assert!(!err.is_retryable());
        if let Some(id) = payment {
            let failed = gateway.payment(id).await.unwrap();
            assert_eq!(failed.status, IntentStatus::RequiresPaymentMethod);
            assert!(failed.last_failure.is_some());
        }
    }
}

/// What the fake Stripe.js's `confirmCardPayment(clientSecret)` sends when the supporter
/// clicks "Complete authentication" (`success=true`) or "Fail authentication" in its box.
async fn authenticate(payment: &PaymentId, client_secret: &str, success: bool) -> (u16, serde_json::Value) {
    let (status, body) = raw(
        "POST",
        &format!("/v1/payment_intents/{payment}/_authenticate?success={success}"),
        &[("client_secret", client_secret)],
    )
    .await;
    (status, serde_json::from_str(&body).unwrap())
}

#[tokio::test]
async fn a_card_needing_3d_secure_waits_with_its_client_secret_and_succeeds_once_authenticated() {
    let mut webhooks = Webhooks::register("three-d-secure-pass").await;
    let (gateway, ns) = (gateway(&webhooks.secret), namespace());
    let customer = customer(&gateway, &ns, 3).await;
    let secure = card(&gateway, &customer, "4000002500003155").await;
    let key = IdempotencyKey::for_sale(&ns, SaleId(13), KeyPurpose::Confirm);

    let pending = gateway.charge_card(charge(13, 5000, &secure, &customer), key.clone()).await.unwrap();
    assert_eq!(pending.status, IntentStatus::RequiresAction);
    assert_eq!((pending.amount_received, pending.amount_remaining), (Yen(0), Yen(5000)));
    let Some(NextAction::Authenticate { client_secret }) = &pending.next_action else { panic!("{pending:?}") };
    assert!(client_secret.starts_with(pending.id.as_str()));
    // A double click while the box is open: the same payment, still waiting.
    assert_eq!(gateway.charge_card(charge(13, 5000, &secure, &customer), key).await.unwrap(), pending);

    let (status, answer) = authenticate(&pending.id, client_secret, true).await;
    assert_eq!((status, answer["status"].as_str()), (200, Some("succeeded")), "{answer:#}");
    let paid = gateway.payment(&pending.id).await.unwrap();
    assert_eq!((paid.status, paid.amount_received, paid.next_action), (IntentStatus::Succeeded, Yen(5000), None));

    let ours =
        |e: &PaymentEvent| e.kind == PaymentEventKind::Succeeded && e.payment.as_ref().is_some_and(|p| p.id == paid.id);
    let events = webhooks.collect(&gateway, |events| events.iter().any(ours)).await;
    let (_, event) = events.iter().find(|(_, e)| ours(e)).unwrap();
    assert_eq!(event.payment.as_ref().unwrap().sale_id, Some(SaleId(13)));
    webhooks.close().await;
}

#[tokio::test]
async fn a_card_failing_3d_secure_is_refused_in_the_browser_and_reported_by_webhook() {
    let mut webhooks = Webhooks::register("three-d-secure-fail").await;
    let (gateway, ns) = (gateway(&webhooks.secret), namespace());
    let customer = customer(&gateway, &ns, 7).await;
    let secure = card(&gateway, &customer, "4000002500003155").await;
    let pending = gateway
        .charge_card(
            charge(14, 5000, &secure, &customer),
            IdempotencyKey::for_sale(&ns, SaleId(14), KeyPurpose::Confirm),
        )
        .await
        .unwrap();
    let Some(NextAction::Authenticate { client_secret }) = &pending.next_action else { panic!("{pending:?}") };

    // The browser gets an error (Stripe.js: `{ error }`), with the payment back at
    // requires_payment_method.
    let (status, answer) = authenticate(&pending.id, client_secret, false).await;
    assert_eq!(status, 400, "{answer:#}");
    assert_eq!(answer["error"]["code"], "payment_intent_authentication_failure");
    assert_eq!(answer["error"]["payment_intent"]["status"], "requires_payment_method");

    let failed = gateway.payment(&pending.id).await.unwrap();
    assert_eq!((failed.status, failed.amount_received), (IntentStatus::RequiresPaymentMethod, Yen(0)));
    assert_eq!(failed.last_failure.unwrap().code.as_deref(), Some("payment_intent_authentication_failure"));

    let ours =
        |e: &PaymentEvent| e.kind == PaymentEventKind::Failed && e.payment.as_ref().is_some_and(|p| p.id == pending.id);
    let events = webhooks.collect(&gateway, |events| events.iter().any(ours)).await;
    let (_, event) = events.iter().find(|(_, e)| ours(e)).unwrap();
    assert_eq!(event.event_type, "payment_intent.payment_failed");
    assert_eq!(event.payment.as_ref().unwrap().status, IntentStatus::RequiresPaymentMethod);

    // Answering the box twice changes nothing.
    assert_eq!(authenticate(&pending.id, client_secret, true).await.0, 400);
    webhooks.close().await;
}

#[tokio::test]
async fn a_partial_refund_is_made_once_per_key_and_never_above_what_was_paid() {
    let (gateway, ns) = (gateway("whsec_unused"), namespace());
    let customer = customer(&gateway, &ns, 4).await;
    let visa = card(&gateway, &customer, "4242424242424242").await;
    let paid = gateway
        .charge_card(charge(15, 3300, &visa, &customer), IdempotencyKey::for_sale(&ns, SaleId(15), KeyPurpose::Confirm))
        .await
        .unwrap();

    let request = RefundRequest {
        payment: paid.id.clone(),
        amount: Yen(1000),
        reverse_transfer: false,
        refund_application_fee: false,
        instructions_email: None,
    };
    let key = IdempotencyKey::for_sale(&ns, SaleId(15), KeyPurpose::Refund { refund_id: 1 });
    let refund = gateway.refund(request.clone(), key.clone()).await.unwrap();
    assert!(refund.id.as_str().starts_with("re_"), "{refund:?}");
    assert_eq!((refund.amount, refund.status, &refund.payment), (Yen(1000), RefundStatus::Succeeded, &paid.id));
    assert_eq!(gateway.refund(request, key).await.unwrap().id, refund.id);
    let charges = raw_ok("GET", &format!("/v1/charges?customer={customer}"), &[]).await;
    assert_eq!(charges["data"][0]["amount_refunded"], 1000, "refunded once");

    // A destination charge's refund may pull the money back from the connected account.
    let second = RefundRequest {
        payment: paid.id.clone(),
        amount: Yen(300),
        reverse_transfer: true,
        refund_application_fee: false,
        instructions_email: None,
    };
    let refund =
        gateway.refund(second, IdempotencyKey::for_sale(&ns, SaleId(15), KeyPurpose::Refund { refund_id: 2 })).await;
    assert_eq!(refund.unwrap().amount, Yen(300));

    let too_much = RefundRequest {
        payment: paid.id.clone(),
        amount: Yen(5000),
        reverse_transfer: false,
        refund_application_fee: false,
        instructions_email: None,
    };
    let err = gateway
        .refund(too_much, IdempotencyKey::for_sale(&ns, SaleId(15), KeyPurpose::Refund { refund_id: 3 }))
        .await
        .unwrap_err();
    assert!(matches!(err, GatewayError::Rejected(_)), "{err:?}");
}

#[tokio::test]
async fn an_unknown_payment_is_not_found() {
    let err = gateway("whsec_unused").payment(&PaymentId::new("pi_missing")).await.unwrap_err();
    assert!(matches!(err, GatewayError::NotFound(_)), "{err:?}");
}

#[tokio::test]
async fn an_unreachable_provider_is_unavailable_and_worth_retrying() {
    let gateway = adapters_stripe::StripeGateway::new(&adapters_stripe::StripeSettings {
        secret_key: support::secret_key(),
        api_base: Some("http://127.0.0.1:9/".to_owned()),
        webhook_secret: "whsec_unused".to_owned(),
        namespace: ports::payments::gateway::KeyNamespace::none(),
    })
    .unwrap();
    let err = gateway.payment(&PaymentId::new("pi_1")).await.unwrap_err();
    assert!(err.is_retryable(), "{err:?}");
}

#[tokio::test]
async fn payment_webhooks_arrive_signed_and_altered_or_stale_ones_are_refused() {
    let mut webhooks = Webhooks::register("cards").await;
    let (gateway, ns) = (gateway(&webhooks.secret), namespace());
    let customer = customer(&gateway, &ns, 5).await;
    let visa = card(&gateway, &customer, "4242424242424242").await;
    let paid = gateway
        .charge_card(charge(16, 3300, &visa, &customer), IdempotencyKey::for_sale(&ns, SaleId(16), KeyPurpose::Confirm))
        .await
        .unwrap();

    let ours = |e: &ports::payments::gateway::PaymentEvent| e.payment.as_ref().is_some_and(|p| p.id == paid.id);
    let deliveries = webhooks.collect(&gateway, |events| events.iter().any(ours)).await;
    let ((signature, body), event) = deliveries.iter().find(|(_, e)| ours(e)).unwrap();
    assert_eq!(event.kind, PaymentEventKind::Succeeded);
    assert_eq!(event.event_type, "payment_intent.succeeded");
    assert!(event.id.as_str().starts_with("evt_"));
    let payment = event.payment.as_ref().unwrap();
    assert_eq!(
        (payment.status, payment.amount, payment.sale_id),
        (IntentStatus::Succeeded, Yen(3300), Some(SaleId(16)))
    );

    let tampered = body.replacen("3300", "330", 1);
    assert_ne!(&tampered, body);
    assert!(matches!(gateway.verify_webhook(&tampered, signature), Err(WebhookError::BadSignature(_))));
    let other_secret = support::gateway("whsec_wrong");
    assert!(matches!(other_secret.verify_webhook(body, signature), Err(WebhookError::BadSignature(_))));
    assert!(matches!(gateway.verify_webhook(body, ""), Err(WebhookError::BadSignature(_))));
    // The same body signed correctly but 10 minutes ago: a replay.
    let stale = stripe_webhook::Webhook::generate_test_header(
        body,
        &webhooks.secret,
        Some(chrono::Utc::now().timestamp() - 600),
    );
    assert!(matches!(gateway.verify_webhook(body, &stale), Err(WebhookError::BadSignature(_))));
    webhooks.close().await;
}

#[tokio::test]
async fn billing_objects_from_localstripe_are_readable_by_async_stripe() {
    let (gateway, ns) = (gateway("whsec_unused"), namespace());
    let customer = customer(&gateway, &ns, 6).await;
    let visa = payment_method("4242424242424242", &customer).await;
    let product = raw_ok("POST", "/v1/products", &[("name", "毎月の応援"), ("type", "service")]).await;
    let _: stripe_shared::Product = parse("product", &product);
    let plan = raw_ok(
        "POST",
        "/v1/plans",
        &[("amount", "1000"), ("currency", "jpy"), ("interval", "month"), ("product", product["id"].as_str().unwrap())],
    )
    .await;
    let _: stripe_shared::Plan = parse("plan", &plan);
    raw_ok("POST", &format!("/v1/customers/{customer}"), &[("invoice_settings[default_payment_method]", &visa)]).await;
    let subscription = raw_ok(
        "POST",
        "/v1/subscriptions",
        &[("customer", customer.as_str()), ("items[0][plan]", plan["id"].as_str().unwrap())],
    )
    .await;
    let subscription: stripe_shared::Subscription = parse("subscription", &subscription);
    assert_eq!(subscription.items.data[0].price.unit_amount, Some(1000));
    let invoices = raw_ok("GET", &format!("/v1/invoices?customer={customer}"), &[]).await;
    let invoice: stripe_shared::Invoice = parse("invoice", &invoices["data"][0]);
    assert_eq!(invoice.amount_paid, 1000);
    let charges = raw_ok("GET", &format!("/v1/charges?customer={customer}"), &[]).await;
    let charge: stripe_shared::Charge = parse("charge", &charges["data"][0]);
    assert_eq!(charge.amount, 1000);
}

#[tokio::test]
async fn localstripe_refuses_a_destination_without_an_account_id() {
    let (status, body) = raw(
        "POST",
        "/v1/payment_intents",
        &[
            ("amount", "1000"),
            ("currency", "jpy"),
            ("application_fee_amount", "100"),
            ("transfer_data[destination]", "x"),
        ],
    )
    .await;
    assert_eq!(status, 400, "{body}");
}
