//! Refunds through `StripeGateway` against the local fake Stripe and its wrapper
//! (`app-server/dev/localstripe_server.py`): the application fee given back in proportion, a refund the
//! provider refuses (failure injection) and a new attempt with a new key, and a bank-transfer refund that
//! waits for the supporter's bank account. Needs `bash app-server/dev/services.sh up`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use domain::ids::SaleId;
use domain::money::Yen;
use ports::payments::gateway::{
    BankTransferRequest, CardCharge, ConnectedAccountId, Destination, GatewayError, IdempotencyKey, KeyPurpose,
    PaymentGateway, PaymentId, RefundRequest, RefundStatus,
};
use support::{card, customer, gateway, namespace, raw, raw_ok};

fn refund_of(payment: &PaymentId, amount: i64) -> RefundRequest {
    RefundRequest {
        payment: payment.clone(),
        amount: Yen(amount),
        reverse_transfer: true,
        refund_application_fee: true,
        instructions_email: None,
    }
}

#[tokio::test]
async fn a_connected_account_payment_is_refunded_with_its_fee_and_read_back() {
    let (gateway, ns) = (gateway("whsec_unused"), namespace());
    let customer = customer(&gateway, &ns, 61).await;
    let visa = card(&gateway, &customer, "4242424242424242").await;
    let destination = Destination { account: ConnectedAccountId::new("acct_1TestLocal"), application_fee: Yen(448) };
    let charge = CardCharge {
        sale_id: SaleId(61),
        amount: Yen(3300),
        payment_method: visa,
        customer: Some(customer.clone()),
        destination: Some(destination),
    };
    let paid =
        gateway.charge_card(charge, IdempotencyKey::for_sale(&ns, SaleId(61), KeyPurpose::Confirm)).await.unwrap();

    let key = IdempotencyKey::for_sale(&ns, SaleId(61), KeyPurpose::Refund { refund_id: 1 });
    let refund = gateway.refund(refund_of(&paid.id, 1650), key).await.unwrap();

    assert_eq!((refund.amount, refund.status), (Yen(1650), RefundStatus::Succeeded));
    let read = gateway.refund_status(&refund.id).await.unwrap();
    assert_eq!(
        (read.id, read.amount, read.status, read.payment),
        (refund.id, Yen(1650), RefundStatus::Succeeded, paid.id)
    );
}

#[tokio::test]
async fn a_refused_refund_is_rejected_with_the_reason_and_a_new_attempt_succeeds_once_allowed() {
    let (gateway, ns) = (gateway("whsec_unused"), namespace());
    let customer = customer(&gateway, &ns, 62).await;
    let visa = card(&gateway, &customer, "4242424242424242").await;
    let charge = CardCharge {
        sale_id: SaleId(62),
        amount: Yen(2000),
        payment_method: visa,
        customer: Some(customer),
        destination: None,
    };
    let paid =
        gateway.charge_card(charge, IdempotencyKey::for_sale(&ns, SaleId(62), KeyPurpose::Confirm)).await.unwrap();
    raw_ok("POST", "/_test/refund_failures", &[("payment_intent", paid.id.as_str())]).await;

    let first = IdempotencyKey::for_sale(&ns, SaleId(62), KeyPurpose::Refund { refund_id: 1 });
    let err = gateway.refund(refund_of(&paid.id, 2000), first.clone()).await.unwrap_err();
    assert!(matches!(&err, GatewayError::Rejected(m) if m.contains("Insufficient funds")), "{err:?}");

    let (status, _) = raw("DELETE", &format!("/_test/refund_failures?payment_intent={}", paid.id), &[]).await;
    assert_eq!(status, 200);
    // The refused attempt's key keeps its answer, as at Stripe; the next attempt has its own key.
    assert!(gateway.refund(refund_of(&paid.id, 2000), first).await.is_err());
    let second = IdempotencyKey::for_sale(&ns, SaleId(62), KeyPurpose::Refund { refund_id: 2 });
    let refund = gateway.refund(refund_of(&paid.id, 2000), second).await.unwrap();
    assert_eq!(refund.status, RefundStatus::Succeeded);
}

#[tokio::test]
async fn a_bank_transfer_refund_waits_for_the_supporters_account_then_succeeds() {
    let (gateway, ns) = (gateway("whsec_unused"), namespace());
    let customer = customer(&gateway, &ns, 63).await;
    let transfer =
        BankTransferRequest { sale_id: SaleId(63), amount: Yen(1000), customer: customer.clone(), destination: None };
    let started = gateway
        .start_bank_transfer(transfer, IdempotencyKey::for_sale(&ns, SaleId(63), KeyPurpose::Confirm))
        .await
        .unwrap();
    raw_ok(
        "POST",
        &format!("/v1/test_helpers/customers/{customer}/fund_cash_balance"),
        &[("amount", "1000"), ("currency", "jpy")],
    )
    .await;

    let request =
        RefundRequest { instructions_email: Some("hanako@example.jp".into()), ..refund_of(&started.id, 1000) };
    let refund = gateway
        .refund(request, IdempotencyKey::for_sale(&ns, SaleId(63), KeyPurpose::Refund { refund_id: 1 }))
        .await
        .unwrap();
    assert_eq!(refund.status, RefundStatus::RequiresAction);
    assert_eq!(gateway.refund_status(&refund.id).await.unwrap().status, RefundStatus::RequiresAction);

    raw_ok("POST", &format!("/_test/refunds/{}/bank_details", refund.id), &[]).await;
    assert_eq!(gateway.refund_status(&refund.id).await.unwrap().status, RefundStatus::Succeeded);
}
