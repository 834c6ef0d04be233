//! Japanese bank transfers through `StripeGateway` against the local fake Stripe, whose
//! wrapper (`app-server/dev/localstripe_server.py`) emulates Stripe's `jp_bank_transfer`:
//! instructions, `fund_cash_balance`, partial and full funding and their webhooks.
//! Needs `bash app-server/dev/services.sh up`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use domain::ids::SaleId;
use domain::money::Yen;
use domain::payment::{BankAccountType, IntentStatus};
use ports::payments::gateway::{
    BankTransferRequest, ConnectedAccountId, CustomerId, Destination, GatewayError, IdempotencyKey, KeyPurpose,
    PaymentEvent, PaymentEventKind, PaymentGateway, PaymentId, RefundRequest, RefundStatus,
};
use support::{customer, gateway, namespace, raw, raw_ok, Webhooks};

fn transfer(sale_id: i64, amount: i64, customer: &CustomerId) -> BankTransferRequest {
    BankTransferRequest { sale_id: SaleId(sale_id), amount: Yen(amount), customer: customer.clone(), destination: None }
}

/// Plays the supporter's transfer arriving at the bank.
async fn fund(customer: &CustomerId, amount: i64, reference: Option<&str>) -> serde_json::Value {
    let amount = amount.to_string();
    let mut form = vec![("amount", amount.as_str()), ("currency", "jpy")];
    if let Some(reference) = reference {
        form.push(("reference", reference));
    }
    raw_ok("POST", &format!("/v1/test_helpers/customers/{customer}/fund_cash_balance"), &form).await
}

fn about(id: &PaymentId, kind: PaymentEventKind) -> impl Fn(&PaymentEvent) -> bool + '_ {
    move |e| e.kind == kind && e.payment.as_ref().is_some_and(|p| &p.id == id)
}

#[tokio::test]
async fn a_transfer_gets_instructions_then_is_paid_in_two_parts_with_a_webhook_for_each() {
    let mut webhooks = Webhooks::register("bank-transfer").await;
    let (gateway, ns) = (gateway(&webhooks.secret), namespace());
    let customer = customer(&gateway, &ns, 1).await;
    let key = IdempotencyKey::for_sale(&ns, SaleId(21), KeyPurpose::Confirm);
    let mut request = transfer(21, 5000, &customer);
    request.destination =
        Some(Destination { account: ConnectedAccountId::new("acct_project1"), application_fee: Yen(575) });

    let started = gateway.start_bank_transfer(request.clone(), key.clone()).await.unwrap();
    assert_eq!(started.status, IntentStatus::RequiresAction);
    assert_eq!((started.amount, started.amount_received, started.amount_remaining), (Yen(5000), Yen(0), Yen(5000)));
    assert_eq!(started.sale_id, Some(SaleId(21)));
    assert_eq!(started.destination, request.destination);
    let bank = started.bank_transfer().expect("transfer instructions").clone();
    assert_eq!(bank.amount_remaining, Yen(5000));
    assert_eq!((bank.bank_name.as_str(), bank.branch_name.as_str()), ("ローカル銀行", "テスト支店"));
    assert_eq!(bank.account_type, BankAccountType::Ordinary);
    assert_eq!(bank.account_number.len(), 7);
    assert!(!bank.account_holder_name.is_empty());
    let reference = bank.reference.clone().expect("a reference to quote");

    // A retry of the same confirm returns the same payment and the same account.
    assert_eq!(gateway.start_bank_transfer(request, key).await.unwrap(), started);

    // 2,000 yen arrive: still waiting, 3,000 to go.
    let funded = fund(&customer, 2000, Some(&reference)).await;
    assert_eq!(
        (funded["object"].as_str(), funded["net_amount"].as_i64()),
        (Some("customer_cash_balance_transaction"), Some(2000))
    );
    let partly = gateway.payment(&started.id).await.unwrap();
    assert_eq!(partly.status, IntentStatus::RequiresAction);
    assert_eq!(partly.amount_remaining, Yen(3000));
    assert_eq!(partly.bank_transfer().unwrap().account_number, bank.account_number);

    let events =
        webhooks.collect(&gateway, |e| e.iter().any(about(&started.id, PaymentEventKind::PartiallyFunded))).await;
    let (_, event) = events.iter().find(|(_, e)| about(&started.id, PaymentEventKind::PartiallyFunded)(e)).unwrap();
    assert_eq!(event.event_type, "payment_intent.partially_funded");
    assert_eq!(event.payment.as_ref().unwrap().amount_remaining, Yen(3000));

    // The other 3,000 yen arrive: paid.
    fund(&customer, 3000, None).await;
    let paid = gateway.payment(&started.id).await.unwrap();
    assert_eq!(paid.status, IntentStatus::Succeeded);
    assert_eq!((paid.amount_received, paid.amount_remaining, paid.next_action), (Yen(5000), Yen(0), None));

    let events = webhooks.collect(&gateway, |e| e.iter().any(about(&started.id, PaymentEventKind::Succeeded))).await;
    let (_, event) = events.iter().find(|(_, e)| about(&started.id, PaymentEventKind::Succeeded)(e)).unwrap();
    let payment = event.payment.as_ref().unwrap();
    assert_eq!(
        (payment.status, payment.amount_received, payment.sale_id),
        (IntentStatus::Succeeded, Yen(5000), Some(SaleId(21)))
    );
    webhooks.close().await;
}

#[tokio::test]
async fn a_transfer_in_full_pays_the_sale_at_once_and_the_surplus_waits_for_the_next_one() {
    let (gateway, ns) = (gateway("whsec_unused"), namespace());
    let customer = customer(&gateway, &ns, 2).await;
    let first = gateway
        .start_bank_transfer(
            transfer(22, 3000, &customer),
            IdempotencyKey::for_sale(&ns, SaleId(22), KeyPurpose::Confirm),
        )
        .await
        .unwrap();

    fund(&customer, 4000, None).await;
    let paid = gateway.payment(&first.id).await.unwrap();
    assert_eq!((paid.status, paid.amount_received), (IntentStatus::Succeeded, Yen(3000)));

    // The 1,000 yen left in the customer's balance go to their next transfer.
    let second = gateway
        .start_bank_transfer(
            transfer(23, 2500, &customer),
            IdempotencyKey::for_sale(&ns, SaleId(23), KeyPurpose::Confirm),
        )
        .await
        .unwrap();
    let second = gateway.payment(&second.id).await.unwrap();
    assert_eq!((second.status, second.amount_remaining), (IntentStatus::RequiresAction, Yen(1500)));
}

#[tokio::test]
async fn each_customer_has_its_own_account_number_and_keeps_it() {
    let (gateway, ns) = (gateway("whsec_unused"), namespace());
    let taro = customer(&gateway, &ns, 3).await;
    let hanako = customer(&gateway, &ns, 4).await;
    let start = |sale: i64, who: &CustomerId| {
        gateway.start_bank_transfer(
            transfer(sale, 1000, who),
            IdempotencyKey::for_sale(&ns, SaleId(sale), KeyPurpose::Confirm),
        )
    };
    let number = |p: ports::payments::gateway::Payment| p.bank_transfer().unwrap().account_number.clone();
    let taro_first = number(start(31, &taro).await.unwrap());
    let taro_second = number(start(32, &taro).await.unwrap());
    let hanako_first = number(start(33, &hanako).await.unwrap());
    assert_eq!(taro_first, taro_second);
    assert_ne!(taro_first, hanako_first);
}

#[tokio::test]
async fn a_quoted_reference_pays_that_transfer_before_older_ones() {
    let (gateway, ns) = (gateway("whsec_unused"), namespace());
    let customer = customer(&gateway, &ns, 5).await;
    let older = gateway
        .start_bank_transfer(
            transfer(41, 1000, &customer),
            IdempotencyKey::for_sale(&ns, SaleId(41), KeyPurpose::Confirm),
        )
        .await
        .unwrap();
    let newer = gateway
        .start_bank_transfer(
            transfer(42, 2000, &customer),
            IdempotencyKey::for_sale(&ns, SaleId(42), KeyPurpose::Confirm),
        )
        .await
        .unwrap();
    fund(&customer, 2000, newer.bank_transfer().unwrap().reference.as_deref()).await;
    assert_eq!(gateway.payment(&newer.id).await.unwrap().status, IntentStatus::Succeeded);
    assert_eq!(gateway.payment(&older.id).await.unwrap().amount_remaining, Yen(1000));
}

#[tokio::test]
async fn the_test_helper_refuses_what_stripe_refuses() {
    let (gateway, ns) = (gateway("whsec_unused"), namespace());
    let customer = customer(&gateway, &ns, 6).await;
    let path = format!("/v1/test_helpers/customers/{customer}/fund_cash_balance");
    assert_eq!(raw("POST", &path, &[("amount", "0"), ("currency", "jpy")]).await.0, 400);
    assert_eq!(raw("POST", &path, &[("amount", "1000"), ("currency", "usd")]).await.0, 400);
    let unknown = "/v1/test_helpers/customers/cus_nobody/fund_cash_balance";
    assert_eq!(raw("POST", unknown, &[("amount", "1000"), ("currency", "jpy")]).await.0, 404);
}

#[tokio::test]
async fn a_transfer_needs_a_customer() {
    let (gateway, ns) = (gateway("whsec_unused"), namespace());
    // Without a customer there is no account to transfer to.
    let err = gateway
        .start_bank_transfer(
            transfer(51, 1000, &CustomerId::new("cus_nobody")),
            IdempotencyKey::for_sale(&ns, SaleId(51), KeyPurpose::Confirm),
        )
        .await
        .unwrap_err();
    assert!(matches!(err, GatewayError::NotFound(_)), "{err:?}");
}

#[tokio::test]
async fn a_paid_transfer_is_refunded_in_parts_never_above_what_arrived() {
    let (gateway, ns) = (gateway("whsec_unused"), namespace());
    let customer = customer(&gateway, &ns, 7).await;
    let started = gateway
        .start_bank_transfer(
            transfer(52, 1000, &customer),
            IdempotencyKey::for_sale(&ns, SaleId(52), KeyPurpose::Confirm),
        )
        .await
        .unwrap();
    let refund_key = |refund_id| IdempotencyKey::for_sale(&ns, SaleId(52), KeyPurpose::Refund { refund_id });
    let part = |amount| RefundRequest {
        payment: started.id.clone(),
        amount: Yen(amount),
        reverse_transfer: false,
        refund_application_fee: false,
        instructions_email: None,
    };

    // Nothing arrived yet: nothing to refund.
    let err = gateway.refund(part(500), refund_key(1)).await.unwrap_err();
    assert!(matches!(err, GatewayError::Rejected(_)), "{err:?}");

    fund(&customer, 1000, None).await;
    let refund = gateway.refund(part(600), refund_key(2)).await.unwrap();
    assert_eq!((refund.amount, refund.status, &refund.payment), (Yen(600), RefundStatus::Succeeded, &started.id));
    assert_eq!(gateway.refund(part(600), refund_key(2)).await.unwrap().id, refund.id, "a retry refunds once");

    let err = gateway.refund(part(500), refund_key(3)).await.unwrap_err();
    assert!(matches!(err, GatewayError::Rejected(_)), "only 400 yen are left: {err:?}");
    assert_eq!(gateway.refund(part(400), refund_key(4)).await.unwrap().amount, Yen(400));
}

#[tokio::test]
async fn an_overdue_transfer_is_cancelled_and_money_arriving_later_stays_in_the_balance() {
    let mut webhooks = Webhooks::register("bank-transfer-cancel").await;
    let (gateway, ns) = (gateway(&webhooks.secret), namespace());
    let customer = customer(&gateway, &ns, 8).await;
    let started = gateway
        .start_bank_transfer(
            transfer(53, 2000, &customer),
            IdempotencyKey::for_sale(&ns, SaleId(53), KeyPurpose::Confirm),
        )
        .await
        .unwrap();

    let cancelled = gateway.cancel_payment(&started.id).await.unwrap();
    assert_eq!(
        (cancelled.status, cancelled.next_action, cancelled.amount_received),
        (IntentStatus::Canceled, None, Yen(0))
    );
    // Cancelling again (the reconciler retrying) answers the same.
    assert_eq!(gateway.cancel_payment(&started.id).await.unwrap().status, IntentStatus::Canceled);
    let events = webhooks.collect(&gateway, |e| e.iter().any(about(&started.id, PaymentEventKind::Canceled))).await;
    let (_, event) = events.iter().find(|(_, e)| about(&started.id, PaymentEventKind::Canceled)(e)).unwrap();
    assert_eq!(event.event_type, "payment_intent.canceled");

    // The supporter transfers anyway: the cancelled payment stays cancelled and the money
    // pays their next transfer.
    fund(&customer, 2000, started.bank_transfer().unwrap().reference.as_deref()).await;
    assert_eq!(gateway.payment(&started.id).await.unwrap().status, IntentStatus::Canceled);
    let next = gateway
        .start_bank_transfer(
            transfer(54, 2000, &customer),
            IdempotencyKey::for_sale(&ns, SaleId(54), KeyPurpose::Confirm),
        )
        .await
        .unwrap();
    assert_eq!(gateway.payment(&next.id).await.unwrap().status, IntentStatus::Succeeded);
    webhooks.close().await;
}

#[tokio::test]
async fn a_transfer_paid_before_its_cancellation_stays_paid() {
    let (gateway, ns) = (gateway("whsec_unused"), namespace());
    let customer = customer(&gateway, &ns, 9).await;
    let started = gateway
        .start_bank_transfer(
            transfer(55, 1500, &customer),
            IdempotencyKey::for_sale(&ns, SaleId(55), KeyPurpose::Confirm),
        )
        .await
        .unwrap();
    fund(&customer, 1500, None).await;
    let kept = gateway.cancel_payment(&started.id).await.unwrap();
    assert_eq!((kept.status, kept.amount_received), (IntentStatus::Succeeded, Yen(1500)));
}

#[tokio::test]
async fn cancelling_an_unknown_payment_is_not_found() {
    let err = gateway("whsec_unused").cancel_payment(&PaymentId::new("pi_missing")).await.unwrap_err();
    assert!(matches!(err, GatewayError::NotFound(_)), "{err:?}");
}
