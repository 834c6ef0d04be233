//! Konbini (コンビニ決済) against mock ports: the voucher asked for with the
//! sale's key and deadline, mailed; refused near the project's end; cancelled
//! with its voucher at the deadline; applied from the provider's report
//! exactly as a transfer's.

use domain::payment::{KonbiniChain, KonbiniStore, KonbiniVoucher};

use super::*;

fn konbini_deadline() -> chrono::NaiveDate {
    // Ordered on Thursday 2026-11-26 (Tokyo): three calendar days, weekend included.
    chrono::NaiveDate::from_ymd_opt(2026, 11, 29).unwrap()
}

fn voucher() -> KonbiniVoucher {
    KonbiniVoucher {
        expires_at: Utc.with_ymd_and_hms(2026, 11, 29, 14, 59, 59).unwrap(),
        hosted_voucher_url: Some("https://payments.example/voucher/vch_1".into()),
        stores: KonbiniChain::ALL
            .into_iter()
            .map(|chain| KonbiniStore {
                chain,
                payment_code: format!("{:?}-123456", chain),
                confirmation_number: (chain != KonbiniChain::Seicomart).then(|| "0901234567".into()),
            })
            .collect(),
    }
}

fn open_voucher() -> Payment {
    Payment { next_action: Some(NextAction::Konbini(voucher())), ..payment(IntentStatus::RequiresAction) }
}

/// A konbini sale with its payment `pi_1` and voucher, in `status`.
fn konbini_sale(status: SaleStatus) -> SaleRecord {
    SaleRecord {
        payment: Some(PaymentId::new("pi_1")),
        voucher: Some(voucher()),
        transfer_deadline: Some(konbini_deadline()),
        ..sale(PayType::Konbini, status)
    }
}

#[tokio::test]
async fn a_konbini_support_asks_for_a_voucher_expiring_with_the_sale_and_mails_how_to_pay() {
    let Book { ledger, reports } = book(PayType::Konbini, |mut sale| {
        sale.transfer_deadline = Some(konbini_deadline());
        Placed::New(sale)
    });
    let mut gateway = MockPaymentGateway::new();
    gateway
        .expect_start_konbini()
        .withf(|k, key| {
            k.amount == Yen(6600)
                && k.expires_at == Utc.with_ymd_and_hms(2026, 11, 29, 14, 59, 59).unwrap()
                && k.billing_name == "山田 花子"
                && k.email.as_str() == "supporter@example.jp"
                && k.destination.as_ref().is_some_and(|d| d.application_fee == Yen(897))
                && key.as_str() == "t-sale-41-confirm"
        })
        .times(1)
        .returning(|_, _| Ok(open_voucher()));
    let (mailer, sent) = recording_mailer();

    let outcome = service(ledger, gateway, mailer).supports.place(order(PayType::Konbini)).await.unwrap();

    assert_eq!(outcome.sale.status, SaleStatus::RequiresAction);
    assert_eq!(outcome.sale.status.history_label(PayType::Konbini), "支払い待ち（コンビニ）");
    assert_eq!(reports.lock().unwrap().last().unwrap().voucher, Some(voucher()));
    let sent = sent.lock().unwrap();
    assert_eq!(sent.len(), 1);
    assert!(sent[0].subject.contains("コンビニでのお支払い方法のご案内"));
    let body = &sent[0].text_body;
    assert!(body.contains("2026年11月29日（日）23:59までに"), "{body}");
    assert!(body.contains("6,600円をお支払いください"));
    assert!(body.contains("■ファミリーマート\nお客様番号（受付番号）：Familymart-123456\n確認番号：0901234567"));
    assert!(
        body.contains("■セイコーマート\nお客様番号（受付番号）：Seicomart-123456\n\n"),
        "no confirmation number line"
    );
    assert!(body.contains("https://payments.example/voucher/vch_1"));
}

#[tokio::test]
async fn konbini_is_refused_when_its_voucher_would_outlive_the_project() {
    let mut ledger = MockStores::new();
    no_subscriptions(&mut ledger);
    // Ordered on 11-26, the voucher would run to 11-29; the project's last day is 11-28.
    ledger.expect_checkout().returning(|_, _| {
        Ok(Some(Checkout { period_end: chrono::NaiveDate::from_ymd_opt(2026, 11, 28).unwrap(), ..checkout() }))
    });
    ledger.expect_place().never();
    let mut gateway = MockPaymentGateway::new();
    gateway.expect_start_konbini().never();
    let (mailer, _) = recording_mailer();

    let error = service(ledger, gateway, mailer).supports.place(order(PayType::Konbini)).await.unwrap_err();

    assert!(matches!(error, SupportError::MethodUnavailable(_)));
    assert_eq!(error.to_string(), domain::payment::MSG_KONBINI_TOO_LATE);
}

#[tokio::test]
async fn a_project_that_does_not_take_konbini_refuses_it() {
    let mut ledger = MockStores::new();
    no_subscriptions(&mut ledger);
    ledger.expect_checkout().returning(|_, _| Ok(Some(Checkout { accepts_konbini: false, ..checkout() })));
    ledger.expect_place().never();
    let (mailer, _) = recording_mailer();

    let error = service(ledger, MockPaymentGateway::new(), mailer).supports.place(order(PayType::Konbini)).await;

    assert!(matches!(error, Err(SupportError::PaymentTypeNotAccepted)));
}

#[tokio::test]
async fn an_overdue_voucher_is_cancelled_at_the_provider_with_its_sale_and_the_supporter_told() {
    let Book { mut ledger, reports } = book_of(konbini_sale(SaleStatus::RequiresAction), Placed::New);
    no_late_transfers(&mut ledger);
    ledger.expect_overdue_transfers().returning(|_, _| Ok(vec![konbini_sale(SaleStatus::RequiresAction)]));
    let mut gateway = MockPaymentGateway::new();
    gateway.expect_payment().returning(|_| Ok(open_voucher()));
    gateway
        .expect_cancel_payment()
        .with(eq(PaymentId::new("pi_1")))
        .times(1)
        .returning(|_| Ok(payment(IntentStatus::Canceled)));
    let (mailer, sent) = recording_mailer();

    let report = service(ledger, gateway, mailer).sweeps.expire_transfers().await.unwrap();

    assert_eq!(report, SweepReport { checked: 1, changed: 1, failed: 0 });
    assert_eq!(reports.lock().unwrap().last().unwrap().status, SaleStatus::Canceled);
    let sent = sent.lock().unwrap();
    assert_eq!(sent.len(), 1);
    assert!(sent[0].subject.contains("キャンセル"));
    assert!(sent[0].text_body.contains("コンビニでのお支払いの期限までに"));
}

#[tokio::test]
async fn a_voucher_paid_just_before_the_deadline_sweep_is_kept_paid_and_never_cancelled() {
    let Book { mut ledger, reports } = book_of(konbini_sale(SaleStatus::RequiresAction), Placed::New);
    no_late_transfers(&mut ledger);
    ledger.expect_overdue_transfers().returning(|_, _| Ok(vec![konbini_sale(SaleStatus::RequiresAction)]));
    let mut gateway = MockPaymentGateway::new();
    gateway.expect_payment().returning(|_| Ok(payment(IntentStatus::Succeeded)));
    gateway.expect_cancel_payment().never();
    let (mailer, sent) = recording_mailer();

    service(ledger, gateway, mailer).sweeps.expire_transfers().await.unwrap();

    assert_eq!(reports.lock().unwrap().last().unwrap().status, SaleStatus::Succeeded);
    assert!(sent.lock().unwrap()[0].subject.contains("お支払いを確認しました"));
}

#[tokio::test]
async fn a_voucher_paid_while_the_sweep_cancels_it_is_recorded_paid() {
    let Book { mut ledger, reports } = book_of(konbini_sale(SaleStatus::RequiresAction), Placed::New);
    no_late_transfers(&mut ledger);
    ledger.expect_overdue_transfers().returning(|_, _| Ok(vec![konbini_sale(SaleStatus::RequiresAction)]));
    let mut gateway = MockPaymentGateway::new();
    gateway.expect_payment().returning(|_| Ok(open_voucher()));
    // The provider refuses to cancel a payment that succeeded meanwhile and answers it as it is.
    gateway.expect_cancel_payment().returning(|_| Ok(payment(IntentStatus::Succeeded)));
    let (mailer, _) = recording_mailer();

    service(ledger, gateway, mailer).sweeps.expire_transfers().await.unwrap();

    assert_eq!(reports.lock().unwrap().last().unwrap().status, SaleStatus::Succeeded);
}

fn konbini_event(id: &str) -> PaymentEvent {
    PaymentEvent { event_type: "payment_intent.payment_failed".into(), ..event(id, IntentStatus::RequiresAction) }
}

/// A webhook service whose stored sale is `stored`, reading back `read_back` at the provider.
fn webhook_ledger(stored: SaleRecord) -> Book {
    let Book { mut ledger, reports } = book_of(stored.clone(), Placed::New);
    ledger.expect_record_event().returning(|_, _, _, _, _| Ok(true));
    ledger.expect_sale().returning(move |_| Ok(Some(stored.clone())));
    ledger.expect_finish_event().returning(|_, _, _| Ok(()));
    Book { ledger, reports }
}

#[tokio::test]
async fn a_voucher_that_expired_at_the_provider_cancels_the_sale_and_its_lots_return() {
    let Book { ledger, reports } = webhook_ledger(konbini_sale(SaleStatus::RequiresAction));
    let mut gateway = MockPaymentGateway::new();
    gateway.expect_verify_webhook().returning(|_, _| Ok(konbini_event("evt_expired")));
    // Read back: the voucher expired unpaid (Stripe puts it back at requires_payment_method).
    gateway.expect_payment().returning(|_| Ok(payment(IntentStatus::RequiresPaymentMethod)));
    let (mailer, sent) = recording_mailer();

    service(ledger, gateway, mailer).webhooks.apply_webhook("{}", "t=1,v1=x").await.unwrap();

    let last = reports.lock().unwrap().last().unwrap().status;
    assert_eq!(last, SaleStatus::Canceled, "cancelled (not failed): nothing was refused");
    assert!(!last.reserves_stock());
    assert!(sent.lock().unwrap()[0].subject.contains("キャンセル"));
}

#[tokio::test]
async fn a_paid_voucher_is_applied_once_from_the_providers_record_and_thanked() {
    let Book { ledger, reports } = webhook_ledger(konbini_sale(SaleStatus::RequiresAction));
    let mut gateway = MockPaymentGateway::new();
    gateway.expect_verify_webhook().returning(|_, _| Ok(event("evt_paid", IntentStatus::Succeeded)));
    gateway.expect_payment().times(1).returning(|_| Ok(payment(IntentStatus::Succeeded)));
    let (mailer, sent) = recording_mailer();

    service(ledger, gateway, mailer).webhooks.apply_webhook("{}", "t=1,v1=x").await.unwrap();

    assert_eq!(reports.lock().unwrap().len(), 1);
    assert_eq!(reports.lock().unwrap()[0].status, SaleStatus::Succeeded);
    let sent = sent.lock().unwrap();
    assert_eq!(sent.len(), 1);
    assert!(sent[0].text_body.contains("コンビニでのお支払いを確認しました"));
    assert!(sent[0].text_body.contains("/receipt/token-of-41"));
}

#[tokio::test]
async fn a_paid_voucher_of_another_amount_or_another_payment_moves_nothing() {
    // Another amount, read back from the provider: not applied, kept with its reason.
    let Book { mut ledger, reports } = book_of(konbini_sale(SaleStatus::RequiresAction), Placed::New);
    ledger.expect_record_event().returning(|_, _, _, _, _| Ok(true));
    ledger.expect_sale().returning(|_| Ok(Some(konbini_sale(SaleStatus::RequiresAction))));
    ledger.expect_finish_event().times(1).returning(|_, error, _| {
        assert!(error.is_some(), "kept with its reason");
        Ok(())
    });
    let mut gateway = MockPaymentGateway::new();
    gateway.expect_verify_webhook().returning(|_, _| Ok(event("evt_wrong", IntentStatus::Succeeded)));
    gateway
        .expect_payment()
        .returning(|_| Ok(Payment { amount: Yen(100), amount_received: Yen(100), ..payment(IntentStatus::Succeeded) }));
    let (mailer, sent) = recording_mailer();
    service(ledger, gateway, mailer).webhooks.apply_webhook("{}", "t=1,v1=x").await.unwrap();
    assert!(reports.lock().unwrap().is_empty());
    assert!(sent.lock().unwrap().is_empty());

    // Another payment than the sale's own (same sale id in the metadata): ignored.
    let Book { ledger, reports } = webhook_ledger(konbini_sale(SaleStatus::RequiresAction));
    let mut gateway = MockPaymentGateway::new();
    gateway.expect_verify_webhook().returning(|_, _| Ok(event("evt_other", IntentStatus::Succeeded)));
    gateway
        .expect_payment()
        .returning(|_| Ok(Payment { id: PaymentId::new("pi_other"), ..payment(IntentStatus::Succeeded) }));
    let (mailer, sent) = recording_mailer();
    service(ledger, gateway, mailer).webhooks.apply_webhook("{}", "t=1,v1=x").await.unwrap();
    assert!(reports.lock().unwrap().is_empty());
    assert!(sent.lock().unwrap().is_empty());
}
