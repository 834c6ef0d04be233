//! Konbini (コンビニ決済) through `StripeGateway` against the local fake Stripe, whose wrapper
//! (`app-server/dev/localstripe_server.py`) emulates Stripe's konbini PaymentIntents: the voucher
//! (`next_action.konbini_display_details`), and test hooks that pay it or let it expire, with
//! their webhooks. Needs `bash app-server/dev/services.sh up`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use chrono::{TimeZone, Utc};
use domain::account::Email;
use domain::ids::SaleId;
use domain::money::Yen;
use domain::payment::{IntentStatus, KonbiniChain, PayType, SaleStatus};
use ports::payments::gateway::{
    ConnectedAccountId, CustomerId, Destination, IdempotencyKey, KeyPurpose, KonbiniRequest, PaymentEvent,
    PaymentEventKind, PaymentGateway, PaymentId, RefundRequest, RefundStatus,
};
use support::{customer, gateway, namespace, raw, raw_ok, Webhooks};

/// Ten days from now, at 23:59:59 Tokyo: a deadline the emulation accepts.
fn expires_at() -> chrono::DateTime<Utc> {
    let day = domain::time::tokyo_date(Utc::now()) + chrono::Duration::days(10);
    domain::time::from_tokyo(day.and_hms_opt(23, 59, 59).unwrap())
}

fn konbini(sale_id: i64, amount: i64, customer: &CustomerId) -> KonbiniRequest {
    KonbiniRequest {
        sale_id: SaleId(sale_id),
        amount: Yen(amount),
        customer: customer.clone(),
        billing_name: "山田 花子".into(),
        email: Email::parse("hanako@example.jp").unwrap(),
        expires_at: expires_at(),
        destination: None,
    }
}

fn about(id: &PaymentId, kind: PaymentEventKind) -> impl Fn(&PaymentEvent) -> bool + '_ {
    move |e| e.kind == kind && e.payment.as_ref().is_some_and(|p| &p.id == id)
}

#[tokio::test]
async fn a_konbini_payment_gets_a_voucher_for_every_chain_and_is_paid_at_the_store_with_a_webhook() {
    let mut webhooks = Webhooks::register("konbini-paid").await;
    let (gateway, ns) = (gateway(&webhooks.secret), namespace());
    let customer = customer(&gateway, &ns, 71).await;
    let key = IdempotencyKey::for_sale(&ns, SaleId(71), KeyPurpose::Confirm);
    let mut request = konbini(71, 6600, &customer);
    request.destination =
        Some(Destination { account: ConnectedAccountId::new("acct_project1"), application_fee: Yen(897) });

    let started = gateway.start_konbini(request.clone(), key.clone()).await.unwrap();
    assert_eq!(started.status, IntentStatus::RequiresAction);
    assert_eq!(started.status.sale_status(PayType::Konbini), SaleStatus::RequiresAction);
    assert_eq!((started.amount, started.amount_received), (Yen(6600), Yen(0)));
    assert_eq!(started.sale_id, Some(SaleId(71)));
    assert_eq!(started.destination, request.destination);
    let voucher = started.konbini().expect("a voucher").clone();
    assert_eq!(voucher.expires_at, request.expires_at, "the voucher expires with the sale");
    let chains: Vec<KonbiniChain> = voucher.stores.iter().map(|s| s.chain).collect();
    assert_eq!(chains, KonbiniChain::ALL);
    assert!(voucher
        .stores
        .iter()
        .all(|s| s.payment_code.len() == 12 && s.payment_code.bytes().all(|b| b.is_ascii_digit())));
    assert!(voucher.hosted_voucher_url.as_deref().is_some_and(|u| u.starts_with("https://")));

    // A retry of the same confirm returns the same payment and the same voucher.
    assert_eq!(gateway.start_konbini(request, key).await.unwrap(), started);

    raw_ok("POST", &format!("/_test/konbini/{}/pay", started.id), &[]).await;
    let paid = gateway.payment(&started.id).await.unwrap();
    assert_eq!(paid.status, IntentStatus::Succeeded);
    assert_eq!((paid.amount_received, paid.amount_remaining, paid.next_action), (Yen(6600), Yen(0), None));

    let events = webhooks.collect(&gateway, |e| e.iter().any(about(&started.id, PaymentEventKind::Succeeded))).await;
    let (_, event) = events.iter().find(|(_, e)| about(&started.id, PaymentEventKind::Succeeded)(e)).unwrap();
    assert_eq!(event.payment.as_ref().unwrap().sale_id, Some(SaleId(71)));
    // A paid voucher cannot be paid again.
    let (status, _) = raw("POST", &format!("/_test/konbini/{}/pay", started.id), &[]).await;
    assert_eq!(status, 400);
    webhooks.close().await;
}

#[tokio::test]
async fn an_expired_voucher_is_reported_failed_and_the_sale_it_belongs_to_is_cancelled() {
    let mut webhooks = Webhooks::register("konbini-expired").await;
    let (gateway, ns) = (gateway(&webhooks.secret), namespace());
    let customer = customer(&gateway, &ns, 72).await;
    let started = gateway
        .start_konbini(konbini(72, 3000, &customer), IdempotencyKey::for_sale(&ns, SaleId(72), KeyPurpose::Confirm))
        .await
        .unwrap();

    raw_ok("POST", &format!("/_test/konbini/{}/expire", started.id), &[]).await;
    let expired = gateway.payment(&started.id).await.unwrap();
    assert_eq!(expired.status, IntentStatus::RequiresPaymentMethod);
    assert_eq!(expired.status.sale_status(PayType::Konbini), SaleStatus::Canceled);
    assert_eq!((expired.amount_received, expired.konbini()), (Yen(0), None));
    let events = webhooks.collect(&gateway, |e| e.iter().any(about(&started.id, PaymentEventKind::Failed))).await;
    assert!(events.iter().any(|(_, e)| e.event_type == "payment_intent.payment_failed"));

    // Closing it answers it cancelled; an expired voucher cannot be paid any more.
    assert_eq!(gateway.cancel_payment(&started.id).await.unwrap().status, IntentStatus::Canceled);
    let (status, _) = raw("POST", &format!("/_test/konbini/{}/pay", started.id), &[]).await;
    assert_eq!(status, 400);
    webhooks.close().await;
}

#[tokio::test]
async fn an_open_voucher_is_cancelled_and_one_paid_meanwhile_stays_paid() {
    let (gateway, ns) = (gateway("whsec_unused"), namespace());
    let customer = customer(&gateway, &ns, 73).await;
    let open = gateway
        .start_konbini(konbini(73, 1000, &customer), IdempotencyKey::for_sale(&ns, SaleId(73), KeyPurpose::Confirm))
        .await
        .unwrap();
    assert_eq!(gateway.cancel_payment(&open.id).await.unwrap().status, IntentStatus::Canceled);

    let paid = gateway
        .start_konbini(konbini(74, 1000, &customer), IdempotencyKey::for_sale(&ns, SaleId(74), KeyPurpose::Confirm))
        .await
        .unwrap();
    raw_ok("POST", &format!("/_test/konbini/{}/pay", paid.id), &[]).await;
    assert_eq!(gateway.cancel_payment(&paid.id).await.unwrap().status, IntentStatus::Succeeded);
}

#[tokio::test]
async fn the_provider_refuses_a_konbini_payment_without_the_payers_name_or_a_deadline_in_range() {
    let (gateway, ns) = (gateway("whsec_unused"), namespace());
    let customer = customer(&gateway, &ns, 75).await;
    let nameless = KonbiniRequest { billing_name: " ".into(), ..konbini(75, 1000, &customer) };
    let key = IdempotencyKey::for_sale(&ns, SaleId(75), KeyPurpose::Confirm);
    assert!(gateway.start_konbini(nameless, key).await.is_err());
    let past = KonbiniRequest {
        expires_at: Utc.with_ymd_and_hms(2020, 1, 1, 14, 59, 59).unwrap(),
        ..konbini(76, 1000, &customer)
    };
    let key = IdempotencyKey::for_sale(&ns, SaleId(76), KeyPurpose::Confirm);
    assert!(gateway.start_konbini(past, key).await.is_err());
}

#[tokio::test]
async fn a_paid_voucher_is_refunded_to_the_bank_account_the_supporter_names() {
    let (gateway, ns) = (gateway("whsec_unused"), namespace());
    let customer = customer(&gateway, &ns, 77).await;
    let paid = gateway
        .start_konbini(konbini(77, 2000, &customer), IdempotencyKey::for_sale(&ns, SaleId(77), KeyPurpose::Confirm))
        .await
        .unwrap();
    raw_ok("POST", &format!("/_test/konbini/{}/pay", paid.id), &[]).await;

    let request = RefundRequest {
        payment: paid.id.clone(),
        amount: Yen(2000),
        reverse_transfer: false,
        refund_application_fee: false,
        instructions_email: Some("hanako@example.jp".into()),
    };
    let key = IdempotencyKey::for_sale(&ns, SaleId(77), KeyPurpose::Refund { refund_id: 1 });
    let refund = gateway.refund(request, key).await.unwrap();
    assert_eq!(refund.status, RefundStatus::RequiresAction);
    assert_eq!(gateway.refunded(&paid.id).await.unwrap(), Yen(2000));
    raw_ok("POST", &format!("/_test/refunds/{}/bank_details", refund.id), &[]).await;
    assert_eq!(gateway.refund_status(&refund.id).await.unwrap().status, RefundStatus::Succeeded);
}
