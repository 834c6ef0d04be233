//! The use case against mock ports: what reaches the provider, what is
//! recorded, and what the supporter is told, for every answer the provider
//! can give.

use std::sync::{Arc, Mutex};

use chrono::{TimeZone, Utc};
use domain::money::{FeeSchedule, TaxMode, TaxRate, Yen};
use domain::payment::IntentStatus;
use domain::returns::PurchaseBlock;
use domain::returns::{Remaining, ReturnType};
use mockall::predicate::eq;

use super::*;
use crate::accounts::SiteInfo;
use crate::clock::MockClock;
use crate::mailer::{MockMailer, OutgoingMail};
use crate::payments::gateway::{
    ConnectedAccountId, CustomerCards, EventId, MockPaymentGateway, PaymentEvent, PaymentEventKind, PaymentId,
    ProviderCard, SavedCard,
};
use crate::payments::gateway::{NextAction, Payment, WebhookError};
use crate::payments::ledger::{AdditionalQuestion, Recorded};
use crate::payments::mails::PaymentMails;
use crate::payments::mock_stores::MockStores;
use crate::payments::outcome::*;
use crate::payments::sweeps::Sweeps;
use crate::payments::webhooks::Webhooks;
use crate::payments::PaymentUseCases;
use crate::receipts::{MockReceiptTokens, ReceiptLinks};

const MEMBER: UserId = UserId(7);
const SALE: SaleId = SaleId(41);
const CARD: &str = "card_saved";

fn email() -> Email {
    Email::parse("supporter@example.jp").unwrap()
}

fn checkout() -> Checkout {
    Checkout {
        project_id: ProjectId(1),
        project_slug: "rose".into(),
        project_title: "バラ園".into(),
        return_id: ReturnId(3),
        return_title: "Aコース".into(),
        return_type: ReturnType::Individual,
        price: Yen(3000),
        is_donation: false,
        tax_includes: false,
        tax_rate: TaxRate::STANDARD,
        lot_disable: false,
        address_label: None,
        additional: None,
        accepts_card: true,
        accepts_bank_transfer: true,
        accepts_konbini: true,
        period_end: chrono::NaiveDate::from_ymd_opt(2026, 12, 31).unwrap(),
        connected_account: Some(ConnectedAccountId::new("acct_rose")),
        fee_schedule: FeeSchedule::Standard,
        project_open: true,
        return_disabled: false,
        remaining: Remaining::Limited(5),
        only_for: None,
        monthly: false,
    }
}

fn order(pay_type: PayType) -> SupportOrder {
    SupportOrder {
        supporter: Supporter::Member(MEMBER),
        project: ProjectId(1),
        ret: ReturnId(3),
        lot: 2,
        pay_type,
        idempotency_key: "confirm-key-0001".into(),
        supporter_name: "山田 花子".into(),
        corporate_url: None,
        logo_url_id: None,
        anonymous: false,
        comment: Some("応援しています".into()),
        additional_value: None,
        address: None,
        agreed_to_terms: true,
        not_antisocial: true,
        card: (pay_type == PayType::Card).then(|| CardChoice::Saved(PaymentMethodId::new(CARD))),
        extra_amount: None,
    }
}

fn sale(pay_type: PayType, status: SaleStatus) -> SaleRecord {
    let terms = checkout().price_of(Lot::parse(2).unwrap()).unwrap();
    SaleRecord {
        id: SALE,
        user: MEMBER,
        email: email(),
        project_id: ProjectId(1),
        project_slug: "rose".into(),
        project_title: "バラ園".into(),
        return_id: ReturnId(3),
        return_title: "Aコース".into(),
        pay_type,
        status,
        terms,
        application_fee: checkout().fee_for(terms.total, pay_type),
        connected_account: Some(ConnectedAccountId::new("acct_rose")),
        payment: None,
        display_name: "山田 花子".into(),
        amount_remaining: None,
        instructions: None,
        voucher: None,
        transfer_deadline: None,
        one_time_card: None,
        card: None,
        refund_required: false,
        refunded: Yen::ZERO,
        unclaimed: Yen::ZERO,
        created_at: Utc.with_ymd_and_hms(2026, 11, 26, 1, 0, 0).unwrap(),
    }
}

fn payment(status: IntentStatus) -> Payment {
    Payment {
        id: PaymentId::new("pi_1"),
        status,
        amount: Yen(6600),
        amount_received: Yen(if status == IntentStatus::Succeeded { 6600 } else { 0 }),
        amount_remaining: Yen(if status == IntentStatus::Succeeded { 0 } else { 6600 }),
        sale_id: Some(SALE),
        destination: None,
        next_action: None,
        last_failure: None,
    }
}

/// No monthly supports anywhere: the one-off flow's tests.
fn no_subscriptions(ledger: &mut MockStores) {
    ledger.expect_subscription_by_sale().returning(|_| Ok(None));
    ledger.expect_subscriptions_of_ended_projects().returning(|_, _| Ok(vec![]));
    ledger.expect_running_subscriptions().returning(|_, _| Ok(vec![]));
}

/// A ledger whose sale follows the reports it is given, as the real one does.
struct Book {
    ledger: MockStores,
    reports: Arc<Mutex<Vec<PaymentReport>>>,
}

fn book(pay_type: PayType, placed: fn(SaleRecord) -> Placed) -> Book {
    book_of(sale(pay_type, SaleStatus::Pending), placed)
}

/// Like `book`, with the sale as it stands before the test.
fn book_of(initial: SaleRecord, placed: fn(SaleRecord) -> Placed) -> Book {
    let mut ledger = MockStores::new();
    no_subscriptions(&mut ledger);
    ledger.expect_checkout().returning(|_, _| Ok(Some(checkout())));
    ledger.expect_member_email().returning(|_| Ok(email()));
    ledger.expect_customer().returning(|_| Ok(Some(CustomerId::new("cus_1"))));
    let current = Arc::new(Mutex::new(initial));
    let placed_sale = Arc::clone(&current);
    ledger.expect_place().returning(move |_| {
        let mut stored = placed_sale.lock().unwrap();
        let answer = placed(stored.clone());
        let (Placed::New(sale) | Placed::Existing(sale)) = &answer;
        *stored = sale.clone();
        Ok(answer)
    });
    let reports = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&reports);
    ledger.expect_record_payment().returning(move |_, report: PaymentReport, _| {
        seen.lock().unwrap().push(report.clone());
        let mut sale = current.lock().unwrap();
        let previous = sale.status.after_provider_report(report.status).map(|next| {
            let before = sale.status;
            sale.status = next;
            before
        });
        if report.payment.is_some() {
            sale.payment = report.payment.clone();
        }
        if report.card.is_some() {
            sale.card = report.card.clone();
        }
        sale.instructions = report.instructions.clone().or(sale.instructions.clone());
        sale.voucher = report.voucher.clone().or(sale.voucher.clone());
        Ok(Recorded { sale: sale.clone(), previous, refund_required: false })
    });
    Book { ledger, reports }
}

fn clock() -> MockClock {
    let mut clock = MockClock::new();
    clock.expect_now().returning(|| Utc.with_ymd_and_hms(2026, 11, 26, 1, 0, 0).unwrap());
    clock
}

fn mails() -> PaymentMails {
    let mut tokens = MockReceiptTokens::new();
    tokens.expect_issue().returning(|sale| Some(format!("token-of-{sale}")));
    PaymentMails {
        site: SiteInfo {
            site_name: "まちのクラファン".into(),
            public_url: "http://127.0.0.1:8080".into(),
            operator: Default::default(),
        },
        receipt_links: ReceiptLinks::new(Arc::new(tokens)),
    }
}

fn recording_mailer() -> (MockMailer, Arc<Mutex<Vec<OutgoingMail>>>) {
    let sent = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&sent);
    let mut mailer = MockMailer::new();
    mailer.expect_send().returning(move |mail| {
        log.lock().unwrap().push(mail);
        Ok(())
    });
    (mailer, sent)
}

fn config() -> SupportConfig {
    SupportConfig { namespace: KeyNamespace::new("t").unwrap(), ..SupportConfig::default() }
}

fn owns_the_saved_card(gateway: &mut MockPaymentGateway) {
    gateway.expect_cards().returning(|_| {
        Ok(CustomerCards {
            cards: vec![SavedCard {
                id: PaymentMethodId::new(CARD),
                brand: "Visa".into(),
                last4: "4242".into(),
                exp_month: 12,
                exp_year: 2030,
            }],
            default: Some(PaymentMethodId::new(CARD)),
        })
    });
}

type Service = PaymentUseCases<MockStores, MockPaymentGateway, MockMailer, MockClock>;

fn service(ledger: MockStores, gateway: MockPaymentGateway, mailer: MockMailer) -> Service {
    PaymentUseCases::new(Arc::new(ledger), gateway, mailer, clock(), mails(), config())
}

#[tokio::test]
async fn a_saved_card_is_charged_the_servers_total_with_the_sales_key_and_thanked_by_mail() {
    let Book { ledger, reports } = book(PayType::Card, Placed::New);
    let mut gateway = MockPaymentGateway::new();
    owns_the_saved_card(&mut gateway);
    let charges = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&charges);
    gateway.expect_charge_card().times(1).returning(move |charge, key| {
        seen.lock().unwrap().push((charge, key.to_string()));
        Ok(payment(IntentStatus::Succeeded))
    });
    let (mailer, sent) = recording_mailer();

    let outcome = service(ledger, gateway, mailer).supports.place(order(PayType::Card)).await.unwrap();

    assert_eq!(outcome.sale.status, SaleStatus::Succeeded);
    let (charge, key) = charges.lock().unwrap()[0].clone();
    // 3,000 yen x 2 + 10 % tax, computed by the server; 13.6 % of it to the platform.
    assert_eq!(charge.amount, Yen(6600));
    assert_eq!(charge.destination.unwrap().application_fee, Yen(897));
    assert_eq!(key, "t-sale-41-confirm");
    assert_eq!(reports.lock().unwrap()[0].card, Some(PaymentMethodId::new(CARD)), "card stored before the charge");
    let sent = sent.lock().unwrap();
    assert_eq!(sent.len(), 1);
    assert!(sent[0].subject.contains("ご支援ありがとうございます"));
    assert!(sent[0].text_body.contains("6,600円"));
    assert!(sent[0]
        .text_body
        .contains("領収書は次のページから発行・印刷できます：\nhttp://127.0.0.1:8080/receipt/token-of-41\n"));
}

#[tokio::test]
async fn a_declined_card_fails_the_sale_and_says_so_in_japanese() {
    let Book { ledger, reports } = book(PayType::Card, Placed::New);
    let mut gateway = MockPaymentGateway::new();
    owns_the_saved_card(&mut gateway);
    gateway.expect_charge_card().returning(|_, _| {
        Err(GatewayError::Declined {
            message: "Your card was declined.".into(),
            code: Some("card_declined".into()),
            decline_code: None,
            payment: Some(PaymentId::new("pi_declined")),
        })
    });
    let (mailer, sent) = recording_mailer();

    let error = service(ledger, gateway, mailer).supports.place(order(PayType::Card)).await.unwrap_err();

    assert!(matches!(error, SupportError::Declined));
    assert_eq!(error.to_string(), MSG_CARD_DECLINED);
    assert_eq!(reports.lock().unwrap().last().unwrap().status, SaleStatus::Failed);
    assert!(sent.lock().unwrap().is_empty());
}

#[tokio::test]
async fn a_provider_timeout_leaves_the_sale_pending_and_a_retry_with_the_same_key_charges_once() {
    let Book { ledger, reports } = book(PayType::Card, Placed::New);
    let mut gateway = MockPaymentGateway::new();
    owns_the_saved_card(&mut gateway);
    gateway.expect_charge_card().returning(|_, _| Err(GatewayError::Unavailable("timeout".into())));
    let (mailer, _) = recording_mailer();

    let error = service(ledger, gateway, mailer).supports.place(order(PayType::Card)).await.unwrap_err();

    assert!(matches!(error, SupportError::Unavailable));
    assert!(reports.lock().unwrap().iter().all(|r| r.status == SaleStatus::Pending), "nothing but the card recorded");

    // The retry finds the sale by the same key and repeats the same provider request.
    let Book { ledger, .. } = book(PayType::Card, |mut sale| {
        sale.card = Some(PaymentMethodId::new(CARD));
        Placed::Existing(sale)
    });
    let mut gateway = MockPaymentGateway::new();
    owns_the_saved_card(&mut gateway);
    gateway
        .expect_charge_card()
        .withf(|charge, key| key.as_str() == "t-sale-41-confirm" && charge.payment_method.as_str() == CARD)
        .times(1)
        .returning(|_, _| Ok(payment(IntentStatus::Succeeded)));
    let (mailer, _) = recording_mailer();
    let outcome = service(ledger, gateway, mailer).supports.place(order(PayType::Card)).await.unwrap();
    assert_eq!(outcome.sale.status, SaleStatus::Succeeded);
}

#[tokio::test]
async fn a_repeat_of_a_sale_that_has_its_payment_reads_the_provider_and_never_charges_again() {
    let Book { ledger, .. } = book(PayType::Card, |mut sale| {
        sale.payment = Some(PaymentId::new("pi_1"));
        sale.status = SaleStatus::RequiresAction;
        Placed::Existing(sale)
    });
    let mut gateway = MockPaymentGateway::new();
    owns_the_saved_card(&mut gateway);
    gateway.expect_charge_card().never();
    gateway.expect_payment().with(eq(PaymentId::new("pi_1"))).returning(|_| Ok(payment(IntentStatus::Succeeded)));
    let (mailer, _) = recording_mailer();

    let outcome = service(ledger, gateway, mailer).supports.place(order(PayType::Card)).await.unwrap();

    assert_eq!(outcome.sale.status, SaleStatus::Succeeded);
}

#[tokio::test]
async fn a_3d_secure_card_hands_the_client_secret_to_the_browser() {
    let Book { ledger, .. } = book(PayType::Card, Placed::New);
    let mut gateway = MockPaymentGateway::new();
    owns_the_saved_card(&mut gateway);
    gateway.expect_charge_card().returning(|_, _| {
        let mut pending = payment(IntentStatus::RequiresAction);
        pending.next_action = Some(NextAction::Authenticate { client_secret: "pi_1_secret_x".into() });
        Ok(pending)
    });
    let (mailer, sent) = recording_mailer();

    let outcome = service(ledger, gateway, mailer).supports.place(order(PayType::Card)).await.unwrap();

    assert_eq!(outcome.sale.status, SaleStatus::RequiresAction);
    assert_eq!(outcome.authenticate.as_deref(), Some("pi_1_secret_x"));
    assert!(sent.lock().unwrap().is_empty(), "no thanks before the payment succeeded");
}

#[tokio::test]
async fn a_bank_transfer_mails_the_account_to_pay_into_with_its_deadline() {
    let Book { ledger, .. } = book(PayType::BankTransfer, |mut sale| {
        sale.transfer_deadline = chrono::NaiveDate::from_ymd_opt(2026, 12, 1);
        Placed::New(sale)
    });
    let mut gateway = MockPaymentGateway::new();
    gateway.expect_start_bank_transfer().withf(|t, _| t.amount == Yen(6600)).returning(|_, _| {
        let mut open = payment(IntentStatus::RequiresAction);
        open.next_action = Some(NextAction::BankTransfer(domain::payment::BankTransferInstructions {
            amount_remaining: Yen(6600),
            reference: Some("REF123".into()),
            bank_name: "テスト銀行".into(),
            bank_code: None,
            branch_name: "本店".into(),
            branch_code: None,
            account_type: domain::payment::BankAccountType::Ordinary,
            account_number: "1234567".into(),
            account_holder_name: "ﾏﾁﾉｸﾗﾌｧﾝ".into(),
        }));
        Ok(open)
    });
    let (mailer, sent) = recording_mailer();

    let outcome = service(ledger, gateway, mailer).supports.place(order(PayType::BankTransfer)).await.unwrap();

    assert_eq!(outcome.sale.status, SaleStatus::AwaitingBankTransfer);
    let sent = sent.lock().unwrap();
    assert_eq!(sent.len(), 1);
    assert!(sent[0].text_body.contains("口座番号：1234567"));
    assert!(sent[0].text_body.contains("口座種別：普通"));
    assert!(sent[0].text_body.contains("2026年12月1日"));
}

#[tokio::test]
async fn a_sold_out_return_is_refused_before_anything_is_written_or_charged() {
    let mut ledger = MockStores::new();
    no_subscriptions(&mut ledger);
    ledger.expect_checkout().returning(|_, _| Ok(Some(Checkout { remaining: Remaining::Limited(0), ..checkout() })));
    ledger.expect_member_email().returning(|_| Ok(email()));
    ledger.expect_place().never();
    let (mailer, _) = recording_mailer();

    let error =
        service(ledger, MockPaymentGateway::new(), mailer).supports.place(order(PayType::Card)).await.unwrap_err();

    assert!(matches!(error, SupportError::Blocked(PurchaseBlock::SoldOut)));
}

#[tokio::test]
async fn the_last_lots_taken_by_someone_else_meanwhile_are_refused_without_a_provider_call() {
    let mut ledger = MockStores::new();
    no_subscriptions(&mut ledger);
    ledger.expect_checkout().returning(|_, _| Ok(Some(checkout())));
    ledger.expect_member_email().returning(|_| Ok(email()));
    ledger.expect_customer().returning(|_| Ok(Some(CustomerId::new("cus_1"))));
    ledger.expect_place().returning(|_| Err(PlaceError::Blocked(PurchaseBlock::SoldOut)));
    let mut gateway = MockPaymentGateway::new();
    owns_the_saved_card(&mut gateway);
    gateway.expect_charge_card().never();
    let (mailer, _) = recording_mailer();

    let error = service(ledger, gateway, mailer).supports.place(order(PayType::Card)).await.unwrap_err();

    assert!(matches!(error, SupportError::Blocked(PurchaseBlock::SoldOut)));
}

#[tokio::test]
async fn step_one_problems_are_all_reported_with_the_specs_messages() {
    let mut ledger = MockStores::new();
    no_subscriptions(&mut ledger);
    ledger.expect_checkout().returning(|_, _| {
        Ok(Some(Checkout {
            address_label: Some("お届け先".into()),
            additional: Some(AdditionalQuestion { label: "Tシャツのサイズ".into(), alert: None }),
            ..checkout()
        }))
    });
    ledger.expect_member_email().returning(|_| Ok(email()));
    ledger.expect_place().never();
    let (mailer, _) = recording_mailer();
    let bad = SupportOrder { supporter_name: " ".into(), agreed_to_terms: false, ..order(PayType::Card) };

    let Err(SupportError::Invalid(problems)) =
        service(ledger, MockPaymentGateway::new(), mailer).supports.place(bad).await
    else {
        panic!("expected a validation failure")
    };

    let messages: Vec<&str> = problems.iter().map(|p| p.message.as_str()).collect();
    assert!(messages.contains(&"表示名を入力してください。"));
    assert!(messages.contains(&"利用規約に同意してください。"));
    assert!(messages.contains(&"お届け先を入力してください"));
    assert!(messages.contains(&"Tシャツのサイズを入力してください"));
}

#[tokio::test]
async fn an_over_long_name_or_answer_is_refused_before_anything_is_written() {
    let mut ledger = MockStores::new();
    no_subscriptions(&mut ledger);
    ledger.expect_checkout().returning(|_, _| {
        Ok(Some(Checkout {
            additional: Some(AdditionalQuestion { label: "Tシャツのサイズ".into(), alert: None }),
            ..checkout()
        }))
    });
    ledger.expect_member_email().returning(|_| Ok(email()));
    ledger.expect_place().never();
    let (mailer, _) = recording_mailer();
    let long = SupportOrder {
        supporter_name: "名".repeat(51),
        additional_value: Some("あ".repeat(1001)),
        ..order(PayType::Card)
    };

    let Err(SupportError::Invalid(problems)) =
        service(ledger, MockPaymentGateway::new(), mailer).supports.place(long).await
    else {
        panic!("expected a validation failure")
    };

    let fields: Vec<&str> = problems.iter().map(|p| p.field).collect();
    assert_eq!(fields, ["displayname", "additionalData"]);
}

#[tokio::test]
async fn guests_cannot_use_saved_cards_and_a_members_address_cannot_back_as_a_guest() {
    let (mailer, _) = recording_mailer();
    let guest_with_saved_card = SupportOrder { supporter: Supporter::Guest(email()), ..order(PayType::Card) };
    let error = service(MockStores::new(), MockPaymentGateway::new(), mailer)
        .supports
        .place(guest_with_saved_card)
        .await
        .unwrap_err();
    assert!(matches!(error, SupportError::LoginRequired));

    let mut ledger = MockStores::new();
    no_subscriptions(&mut ledger);
    ledger.expect_checkout().returning(|_, _| Ok(Some(checkout())));
    ledger.expect_lookup_guest().returning(|_| Ok(GuestLookup::Member));
    let (mailer, _) = recording_mailer();
    let guest_bank = SupportOrder { supporter: Supporter::Guest(email()), ..order(PayType::BankTransfer) };
    let error = service(ledger, MockPaymentGateway::new(), mailer).supports.place(guest_bank).await.unwrap_err();
    assert_eq!(error.to_string(), MSG_MEMBER_EXISTS);
}

#[tokio::test]
async fn a_return_offered_to_one_supporter_cannot_be_bought_by_another() {
    let mut ledger = MockStores::new();
    no_subscriptions(&mut ledger);
    ledger
        .expect_checkout()
        .returning(|_, _| Ok(Some(Checkout { only_for: Some("vip@example.jp".into()), ..checkout() })));
    ledger.expect_member_email().returning(|_| Ok(email()));
    ledger.expect_place().never();
    let (mailer, _) = recording_mailer();
    let error =
        service(ledger, MockPaymentGateway::new(), mailer).supports.place(order(PayType::Card)).await.unwrap_err();
    assert!(matches!(error, SupportError::NotFound));
}

#[tokio::test]
async fn a_method_the_project_does_not_take_is_refused() {
    let mut ledger = MockStores::new();
    no_subscriptions(&mut ledger);
    ledger.expect_checkout().returning(|_, _| Ok(Some(Checkout { accepts_bank_transfer: false, ..checkout() })));
    let (mailer, _) = recording_mailer();
    let error = service(ledger, MockPaymentGateway::new(), mailer)
        .supports
        .place(order(PayType::BankTransfer))
        .await
        .unwrap_err();
    assert!(matches!(error, SupportError::PaymentTypeNotAccepted));
}

fn event(id: &str, status: IntentStatus) -> PaymentEvent {
    PaymentEvent {
        id: EventId::new(id),
        event_type: "payment_intent.succeeded".into(),
        kind: PaymentEventKind::Succeeded,
        created_at: Utc::now(),
        payment: Some(payment(status)),
        invoice: None,
        subscription: None,
    }
}

#[tokio::test]
async fn a_redelivered_webhook_is_recorded_once_and_applied_once() {
    let Book { mut ledger, reports } = book(PayType::Card, Placed::New);
    let mut fresh = vec![true, false].into_iter();
    ledger.expect_record_event().returning(move |_, _, _, _, _| Ok(fresh.next().unwrap()));
    ledger.expect_sale().returning(|_| Ok(Some(sale(PayType::Card, SaleStatus::RequiresAction))));
    ledger.expect_finish_event().times(1).returning(|_, error, _| {
        assert_eq!(error, None);
        Ok(())
    });
    let mut gateway = MockPaymentGateway::new();
    gateway.expect_verify_webhook().returning(|_, _| Ok(event("evt_1", IntentStatus::Succeeded)));
    gateway.expect_payment().times(1).returning(|_| Ok(payment(IntentStatus::Succeeded)));
    let (mailer, sent) = recording_mailer();
    let service = service(ledger, gateway, mailer);

    service.webhooks.apply_webhook("{}", "t=1,v1=x").await.unwrap();
    service.webhooks.apply_webhook("{}", "t=1,v1=x").await.unwrap();

    assert_eq!(reports.lock().unwrap().len(), 1);
    assert_eq!(sent.lock().unwrap().len(), 1, "one thanks mail");
}

#[tokio::test]
async fn an_unsigned_webhook_is_refused_and_records_nothing() {
    let mut ledger = MockStores::new();
    no_subscriptions(&mut ledger);
    ledger.expect_record_event().never();
    let mut gateway = MockPaymentGateway::new();
    gateway.expect_verify_webhook().returning(|_, _| Err(WebhookError::BadSignature("no match".into())));
    let (mailer, _) = recording_mailer();

    let error = service(ledger, gateway, mailer).webhooks.apply_webhook("{}", "forged").await.unwrap_err();

    assert!(matches!(error, WebhookApplyError::Refused(_)));
}

/// No cancelled transfer with an open payment: the sweeps' other lists are empty.
fn no_late_transfers(ledger: &mut MockStores) {
    ledger.expect_late_transfers().returning(|_, _| Ok(vec![]));
    ledger.expect_transfers_to_close().returning(|_, _| Ok(vec![]));
}

/// A bank-transfer sale with its payment `pi_1`, in `status`.
fn transfer(status: SaleStatus) -> SaleRecord {
    SaleRecord { payment: Some(PaymentId::new("pi_1")), ..sale(PayType::BankTransfer, status) }
}

/// The transfer's payment with `received` of its 6,600 yen applied so far.
fn open_transfer(received: i64) -> Payment {
    Payment { amount_remaining: Yen(6600 - received), ..payment(IntentStatus::RequiresAction) }
}

#[tokio::test]
async fn an_overdue_transfer_is_cancelled_here_and_the_supporter_told_but_its_payment_stays_open() {
    let Book { mut ledger, reports } = book(PayType::BankTransfer, Placed::New);
    no_late_transfers(&mut ledger);
    ledger.expect_overdue_transfers().returning(|_, _| Ok(vec![transfer(SaleStatus::AwaitingBankTransfer)]));
    let mut gateway = MockPaymentGateway::new();
    gateway.expect_payment().with(eq(PaymentId::new("pi_1"))).returning(|_| Ok(open_transfer(0)));
    gateway.expect_cancel_payment().never();
    let (mailer, sent) = recording_mailer();

    let report = service(ledger, gateway, mailer).sweeps.expire_transfers().await.unwrap();

    assert_eq!(report, SweepReport { checked: 1, changed: 1, failed: 0 });
    assert_eq!(reports.lock().unwrap()[0].status, SaleStatus::Canceled);
    assert!(sent.lock().unwrap()[0].subject.contains("キャンセル"));
}

#[tokio::test]
async fn a_transfer_paid_just_before_its_deadline_sweep_is_kept_as_paid() {
    let Book { mut ledger, reports } = book(PayType::BankTransfer, Placed::New);
    no_late_transfers(&mut ledger);
    ledger.expect_overdue_transfers().returning(|_, _| Ok(vec![transfer(SaleStatus::AwaitingBankTransfer)]));
    let mut gateway = MockPaymentGateway::new();
    gateway.expect_payment().returning(|_| Ok(payment(IntentStatus::Succeeded)));
    gateway.expect_cancel_payment().never();
    let (mailer, _) = recording_mailer();

    service(ledger, gateway, mailer).sweeps.expire_transfers().await.unwrap();

    assert_eq!(reports.lock().unwrap()[0].status, SaleStatus::Succeeded);
}

#[tokio::test]
async fn a_transfer_paid_after_its_cancellation_is_revived_and_the_supporter_gets_the_received_mail() {
    let Book { mut ledger, reports } = book_of(transfer(SaleStatus::Canceled), Placed::New);
    ledger.expect_record_event().returning(|_, _, _, _, _| Ok(true));
    ledger.expect_sale().returning(|_| Ok(Some(transfer(SaleStatus::Canceled))));
    ledger.expect_finish_event().returning(|_, _, _| Ok(()));
    let mut gateway = MockPaymentGateway::new();
    gateway.expect_verify_webhook().returning(|_, _| Ok(event("evt_late", IntentStatus::Succeeded)));
    gateway.expect_payment().returning(|_| Ok(payment(IntentStatus::Succeeded)));
    let (mailer, sent) = recording_mailer();

    service(ledger, gateway, mailer).webhooks.apply_webhook("{}", "t=1,v1=x").await.unwrap();

    assert_eq!(reports.lock().unwrap()[0].status, SaleStatus::Succeeded);
    let sent = sent.lock().unwrap();
    assert_eq!(sent.len(), 1);
    assert!(sent[0].subject.contains("ご入金を確認しました"), "{}", sent[0].subject);
    assert!(sent[0].text_body.contains("http://127.0.0.1:8080/receipt/token-of-41"), "{}", sent[0].text_body);
}

#[tokio::test]
async fn the_reconciler_finds_money_that_arrived_for_a_cancelled_transfer_while_no_webhook_got_through() {
    let Book { mut ledger, reports } = book_of(transfer(SaleStatus::Canceled), Placed::New);
    ledger.expect_unsettled().returning(|_, _| Ok(vec![]));
    ledger.expect_unapplied_event_payments().returning(|_| Ok(vec![]));
    // Checked ten minutes after its last check at the earliest: 2026-11-26 00:50 UTC.
    ledger
        .expect_late_transfers()
        .withf(|before, _| *before == Utc.with_ymd_and_hms(2026, 11, 26, 0, 50, 0).unwrap())
        .returning(|_, _| Ok(vec![transfer(SaleStatus::Canceled)]));
    let mut gateway = MockPaymentGateway::new();
    gateway.expect_payment().returning(|_| Ok(payment(IntentStatus::Succeeded)));
    let (mailer, sent) = recording_mailer();

    let report = service(ledger, gateway, mailer).sweeps.reconcile().await.unwrap();

    assert_eq!(report, SweepReport { checked: 1, changed: 1, failed: 0 });
    assert_eq!(reports.lock().unwrap()[0].status, SaleStatus::Succeeded);
    assert!(sent.lock().unwrap()[0].subject.contains("ご入金を確認しました"));
}

#[tokio::test]
async fn a_cancelled_transfer_with_nothing_received_only_updates_what_it_owes_when_checked() {
    let Book { mut ledger, reports } = book_of(transfer(SaleStatus::Canceled), Placed::New);
    ledger.expect_unsettled().returning(|_, _| Ok(vec![]));
    ledger.expect_unapplied_event_payments().returning(|_| Ok(vec![]));
    ledger.expect_late_transfers().returning(|_, _| Ok(vec![transfer(SaleStatus::Canceled)]));
    let mut gateway = MockPaymentGateway::new();
    gateway.expect_payment().returning(|_| Ok(open_transfer(0)));
    let (mailer, sent) = recording_mailer();

    let report = service(ledger, gateway, mailer).sweeps.reconcile().await.unwrap();

    assert_eq!(report, SweepReport { checked: 1, changed: 0, failed: 0 });
    assert_eq!(reports.lock().unwrap()[0].status, SaleStatus::AwaitingBankTransfer, "stale for a cancelled sale");
    assert!(sent.lock().unwrap().is_empty());
}

/// A ledger for the grace sweep: nothing overdue, `to_close` past its grace period.
fn grace_ledger(to_close: SaleRecord) -> Book {
    let Book { mut ledger, reports } = book_of(to_close.clone(), Placed::New);
    ledger.expect_overdue_transfers().returning(|_, _| Ok(vec![]));
    // 2026-11-26 in Tokyo, thirty days of grace: deadlines up to 2026-10-26 are closed.
    ledger
        .expect_transfers_to_close()
        .withf(|before, _| *before == chrono::NaiveDate::from_ymd_opt(2026, 10, 27).unwrap())
        .returning(move |_, _| Ok(vec![to_close.clone()]));
    Book { ledger, reports }
}

#[tokio::test]
async fn after_the_grace_period_the_sweep_closes_the_payment_at_the_provider() {
    let Book { mut ledger, reports } = grace_ledger(transfer(SaleStatus::Canceled));
    ledger
        .expect_close_transfer()
        .with(eq(SALE), eq(false), mockall::predicate::always())
        .times(1)
        .returning(|_, _, _| Ok(SaleRecord { refund_required: false, ..transfer(SaleStatus::Canceled) }));
    let mut gateway = MockPaymentGateway::new();
    gateway.expect_payment().returning(|_| Ok(open_transfer(0)));
    gateway
        .expect_cancel_payment()
        .with(eq(PaymentId::new("pi_1")))
        .times(1)
        .returning(|_| Ok(Payment { amount_remaining: Yen(6600), ..payment(IntentStatus::Canceled) }));
    let (mailer, sent) = recording_mailer();

    let report = service(ledger, gateway, mailer).sweeps.expire_transfers().await.unwrap();

    assert_eq!(report, SweepReport { checked: 1, changed: 1, failed: 0 });
    assert!(reports.lock().unwrap().is_empty());
    assert!(sent.lock().unwrap().is_empty(), "the supporter was told at the deadline");
}

#[tokio::test]
async fn a_partly_funded_transfer_closed_after_the_grace_period_is_flagged_for_refund() {
    let Book { mut ledger, reports } = grace_ledger(transfer(SaleStatus::Canceled));
    ledger
        .expect_close_transfer()
        .with(eq(SALE), eq(true), mockall::predicate::always())
        .times(1)
        .returning(|_, _, _| Ok(SaleRecord { refund_required: true, ..transfer(SaleStatus::Canceled) }));
    let mut gateway = MockPaymentGateway::new();
    // 4,000 of 6,600 yen arrived: 2,600 still owed when the payment is closed.
    gateway.expect_payment().returning(|_| Ok(open_transfer(4000)));
    gateway.expect_cancel_payment().times(1).returning(|_| Ok(payment(IntentStatus::Canceled)));
    let (mailer, sent) = recording_mailer();

    let report = service(ledger, gateway, mailer).sweeps.expire_transfers().await.unwrap();

    assert_eq!(report, SweepReport { checked: 1, changed: 1, failed: 0 });
    // The amount still owed is kept on the sale (the cancelled payment no longer shows it); nothing moves.
    let reports = reports.lock().unwrap();
    assert_eq!(reports.len(), 1);
    assert_eq!(reports[0].amount_remaining, Some(Yen(2600)));
    assert!(sent.lock().unwrap().is_empty());
}

#[tokio::test]
async fn a_partial_funding_recorded_earlier_flags_the_sale_even_if_the_provider_no_longer_shows_it() {
    let stored = SaleRecord { amount_remaining: Some(Yen(2600)), ..transfer(SaleStatus::Canceled) };
    let Book { mut ledger, .. } = grace_ledger(stored);
    ledger
        .expect_close_transfer()
        .with(eq(SALE), eq(true), mockall::predicate::always())
        .times(1)
        .returning(|_, _, _| Ok(SaleRecord { refund_required: true, ..transfer(SaleStatus::Canceled) }));
    let mut gateway = MockPaymentGateway::new();
    // Cancelled at the provider by someone else already: nothing to cancel, nothing shown as received.
    gateway.expect_payment().returning(|_| Ok(payment(IntentStatus::Canceled)));
    gateway.expect_cancel_payment().never();
    let (mailer, _) = recording_mailer();

    service(ledger, gateway, mailer).sweeps.expire_transfers().await.unwrap();
}

#[tokio::test]
async fn money_that_arrived_before_the_grace_sweep_is_recorded_instead_of_closing_the_payment() {
    let Book { mut ledger, reports } = grace_ledger(transfer(SaleStatus::Canceled));
    ledger.expect_close_transfer().never();
    let mut gateway = MockPaymentGateway::new();
    gateway.expect_payment().returning(|_| Ok(payment(IntentStatus::Succeeded)));
    gateway.expect_cancel_payment().never();
    let (mailer, sent) = recording_mailer();

    service(ledger, gateway, mailer).sweeps.expire_transfers().await.unwrap();

    assert_eq!(reports.lock().unwrap()[0].status, SaleStatus::Succeeded);
    assert!(sent.lock().unwrap()[0].subject.contains("ご入金を確認しました"));
}

#[tokio::test]
async fn money_that_arrives_while_the_payment_is_closed_is_recorded() {
    let Book { mut ledger, reports } = grace_ledger(transfer(SaleStatus::Canceled));
    ledger.expect_close_transfer().never();
    let mut gateway = MockPaymentGateway::new();
    gateway.expect_payment().returning(|_| Ok(open_transfer(0)));
    // The provider answers a payment that succeeded meanwhile as it is.
    gateway.expect_cancel_payment().times(1).returning(|_| Ok(payment(IntentStatus::Succeeded)));
    let (mailer, _) = recording_mailer();

    service(ledger, gateway, mailer).sweeps.expire_transfers().await.unwrap();

    assert_eq!(reports.lock().unwrap()[0].status, SaleStatus::Succeeded);
}

#[tokio::test]
async fn the_reconciler_cancels_a_card_sale_whose_card_never_reached_the_provider() {
    let Book { mut ledger, reports } = book(PayType::Card, Placed::New);
    ledger.expect_unsettled().returning(|_, _| Ok(vec![sale(PayType::Card, SaleStatus::Pending)]));
    ledger.expect_unapplied_event_payments().returning(|_| Ok(vec![]));
    no_late_transfers(&mut ledger);
    let mut gateway = MockPaymentGateway::new();
    gateway.expect_charge_card().never();
    let (mailer, _) = recording_mailer();

    let report = service(ledger, gateway, mailer).sweeps.reconcile().await.unwrap();

    assert_eq!(report.changed, 1);
    assert_eq!(reports.lock().unwrap()[0].status, SaleStatus::Canceled);
}

#[test]
fn the_quote_and_the_sale_share_one_computation() {
    let exclusive = checkout().price_of(Lot::parse(3).unwrap()).unwrap();
    assert_eq!(
        (exclusive.amount, exclusive.tax, exclusive.total, exclusive.mode),
        (Yen(9000), Yen(900), Yen(9900), TaxMode::Exclusive)
    );
    let no_account = Checkout { connected_account: None, ..checkout() };
    assert_eq!(no_account.fee_for(Yen(9900), PayType::Card), Yen::ZERO);
    assert_eq!(checkout().fee_for(Yen(9900), PayType::BankTransfer), Yen(1138));
}

/// A signed event is not believed on its own: the payment is read back, and a paid one for another amount than the
/// sale's total moves nothing (the event is kept with its reason and acknowledged).
#[tokio::test]
async fn a_signed_event_whose_payment_received_one_yen_pays_nothing() {
    let Book { mut ledger, reports } = book(PayType::BankTransfer, Placed::New);
    ledger.expect_record_event().returning(|_, _, _, _, _| Ok(true));
    ledger.expect_sale().returning(|_| Ok(Some(sale(PayType::BankTransfer, SaleStatus::AwaitingBankTransfer))));
    let kept = Arc::new(Mutex::new(Vec::new()));
    let noted = Arc::clone(&kept);
    ledger.expect_finish_event().returning(move |_, error, _| {
        noted.lock().unwrap().push(error);
        Ok(())
    });
    let mut gateway = MockPaymentGateway::new();
    gateway.expect_verify_webhook().returning(|_, _| Ok(event("evt_1yen", IntentStatus::Succeeded)));
    gateway.expect_payment().returning(|_| Ok(Payment { amount_received: Yen(1), ..payment(IntentStatus::Succeeded) }));
    let (mailer, sent) = recording_mailer();

    service(ledger, gateway, mailer).webhooks.apply_webhook("{}", "t=1,v1=x").await.unwrap();

    assert!(reports.lock().unwrap().is_empty(), "nothing recorded on the sale");
    assert!(sent.lock().unwrap().is_empty(), "no thanks mail");
    let kept = kept.lock().unwrap();
    assert!(kept[0].as_deref().is_some_and(|e| e.contains("1円 received")), "{kept:?}");
}

/// The event says succeeded, the provider's own record says the 3-D Secure step was never done: the provider wins.
#[tokio::test]
async fn an_event_that_says_succeeded_for_an_unauthenticated_card_follows_the_provider() {
    let Book { mut ledger, reports } = book(PayType::Card, Placed::New);
    ledger.expect_record_event().returning(|_, _, _, _, _| Ok(true));
    ledger.expect_sale().returning(|_| Ok(Some(sale(PayType::Card, SaleStatus::Pending))));
    ledger.expect_finish_event().returning(|_, _, _| Ok(()));
    let mut gateway = MockPaymentGateway::new();
    gateway.expect_verify_webhook().returning(|_, _| Ok(event("evt_fake", IntentStatus::Succeeded)));
    gateway.expect_payment().returning(|_| {
        let secret = NextAction::Authenticate { client_secret: "pi_1_secret".into() };
        Ok(Payment { next_action: Some(secret), ..payment(IntentStatus::RequiresAction) })
    });
    let (mailer, _) = recording_mailer();

    service(ledger, gateway, mailer).webhooks.apply_webhook("{}", "t=1,v1=x").await.unwrap();

    let reports = reports.lock().unwrap();
    assert_eq!(reports.iter().map(|r| r.status).collect::<Vec<_>>(), vec![SaleStatus::RequiresAction]);
}

/// A signed event of a shape we do not read is acknowledged (the provider stops sending it) and kept.
#[tokio::test]
async fn a_signed_event_we_cannot_read_is_acknowledged_and_kept_with_its_reason() {
    let mut ledger = MockStores::new();
    ledger
        .expect_record_event()
        .withf(|id, kind, object, _, _| id == "evt_new" && kind == "issuing_card.created" && object.is_none())
        .times(1)
        .returning(|_, _, _, _, _| Ok(true));
    ledger
        .expect_finish_event()
        .withf(|id, error, _| id == "evt_new" && error.as_deref().is_some_and(|e| e.starts_with("not read")))
        .times(1)
        .returning(|_, _, _| Ok(()));
    let mut gateway = MockPaymentGateway::new();
    gateway.expect_verify_webhook().returning(|_, _| Err(WebhookError::BadPayload("unknown object".into())));
    let (mailer, _) = recording_mailer();
    let body = r#"{"id":"evt_new","type":"issuing_card.created","data":{"object":{}}}"#;

    service(ledger, gateway, mailer).webhooks.apply_webhook(body, "t=1,v1=x").await.unwrap();
}

/// The same key sent with another lot count is refused, and the first sale is left as it was.
#[tokio::test]
async fn a_key_reused_for_another_order_is_refused() {
    let Book { ledger, reports } = book(PayType::Card, Placed::Existing);
    let mut gateway = MockPaymentGateway::new();
    owns_the_saved_card(&mut gateway);
    gateway.expect_charge_card().never();
    let (mailer, _) = recording_mailer();

    let error = service(ledger, gateway, mailer)
        .supports
        .place(SupportOrder { lot: 3, ..order(PayType::Card) })
        .await
        .unwrap_err();

    assert!(matches!(error, SupportError::KeyReused), "{error:?}");
    assert_eq!(error.to_string(), MSG_KEY_REUSED);
    assert!(reports.lock().unwrap().is_empty());
}

/// Another member's saved card is refused before any sale is written, so no stock is held.
#[tokio::test]
async fn another_members_saved_card_is_refused_before_the_sale_is_written() {
    let mut ledger = MockStores::new();
    no_subscriptions(&mut ledger);
    ledger.expect_checkout().returning(|_, _| Ok(Some(checkout())));
    ledger.expect_member_email().returning(|_| Ok(email()));
    ledger.expect_customer().returning(|_| Ok(Some(CustomerId::new("cus_1"))));
    ledger.expect_place().never();
    let mut gateway = MockPaymentGateway::new();
    gateway.expect_cards().returning(|_| Ok(CustomerCards { cards: vec![], default: None }));
    let (mailer, _) = recording_mailer();

    let error = service(ledger, gateway, mailer).supports.place(order(PayType::Card)).await.unwrap_err();

    assert!(matches!(error, SupportError::NotFound), "{error:?}");
}

/// A typed card the provider does not know, or holds for another customer, is refused with the card field's
/// message, nothing written.
#[tokio::test]
async fn a_made_up_or_someone_elses_card_is_refused_before_the_sale_is_written() {
    let unknown = || Err(GatewayError::NotFound("pm_nonexistent".into()));
    let theirs = || {
        Ok(ProviderCard {
            card: SavedCard {
                id: PaymentMethodId::new("pm_theirs"),
                brand: "Visa".into(),
                last4: "4242".into(),
                exp_month: 1,
                exp_year: 2031,
            },
            customer: Some(CustomerId::new("cus_someone_else")),
        })
    };
    for found in [unknown(), theirs()] {
        let mut ledger = MockStores::new();
        no_subscriptions(&mut ledger);
        ledger.expect_checkout().returning(|_, _| Ok(Some(checkout())));
        ledger.expect_member_email().returning(|_| Ok(email()));
        ledger.expect_customer().returning(|_| Ok(Some(CustomerId::new("cus_member"))));
        ledger.expect_place().never();
        let mut gateway = MockPaymentGateway::new();
        gateway.expect_card().return_once(move |_| found);
        gateway.expect_attach_card().never();
        let (mailer, _) = recording_mailer();
        let typed = CardChoice::New { card: PaymentMethodId::new("pm_theirs"), save: false };

        let error = service(ledger, gateway, mailer)
            .supports
            .place(SupportOrder { card: Some(typed), ..order(PayType::Card) })
            .await;

        let Err(SupportError::Invalid(problems)) = error else { panic!("{error:?}") };
        assert_eq!(problems[0].field, "card");
        assert_eq!(problems[0].message, MSG_CARD_UNUSABLE);
    }
}

/// The webhook table: every payment event type we handle, its payment read back from the provider in a shape
/// that must not move money (another amount, money short of the total, another sale's payment). Nothing is
/// recorded on the sale and no mail goes, whichever type carries it.
#[tokio::test]
async fn no_payment_event_moves_money_that_does_not_match_the_sale() {
    let kinds = [
        ("payment_intent.succeeded", PaymentEventKind::Succeeded),
        ("payment_intent.processing", PaymentEventKind::Processing),
        ("payment_intent.partially_funded", PaymentEventKind::PartiallyFunded),
        ("payment_intent.requires_action", PaymentEventKind::RequiresAction),
        ("payment_intent.payment_failed", PaymentEventKind::Failed),
        ("payment_intent.canceled", PaymentEventKind::Canceled),
    ];
    type ReadBack = (&'static str, fn() -> Payment);
    let read_backs: [ReadBack; 3] = [
        ("another amount", || Payment { amount: Yen(1), amount_received: Yen(1), ..payment(IntentStatus::Succeeded) }),
        ("paid short", || Payment { amount_received: Yen(6599), ..payment(IntentStatus::Succeeded) }),
        ("more received than owed", || Payment { amount_received: Yen(9000), ..payment(IntentStatus::RequiresAction) }),
    ];
    for (event_type, kind) in kinds {
        for (case, read_back) in read_backs {
            let Book { mut ledger, reports } = book(PayType::BankTransfer, Placed::New);
            ledger.expect_record_event().returning(|_, _, _, _, _| Ok(true));
            ledger.expect_sale().returning(|_| Ok(Some(sale(PayType::BankTransfer, SaleStatus::AwaitingBankTransfer))));
            ledger.expect_finish_event().returning(|_, error, _| {
                assert!(error.is_some(), "kept with its reason");
                Ok(())
            });
            let mut gateway = MockPaymentGateway::new();
            gateway.expect_verify_webhook().returning(move |_, _| {
                Ok(PaymentEvent { event_type: event_type.into(), kind, ..event("evt_table", IntentStatus::Succeeded) })
            });
            gateway.expect_payment().returning(move |_| Ok(read_back()));
            let (mailer, sent) = recording_mailer();

            service(ledger, gateway, mailer).webhooks.apply_webhook("{}", "t=1,v1=x").await.unwrap();

            assert!(reports.lock().unwrap().is_empty(), "{event_type}, {case}: nothing recorded");
            assert!(sent.lock().unwrap().is_empty(), "{event_type}, {case}: no mail");
        }
    }
}

fn monthly_order(supporter: Supporter, pay_type: PayType, card: Option<CardChoice>, lot: i64) -> SupportOrder {
    SupportOrder {
        supporter,
        project: ProjectId(1),
        ret: ReturnId(2),
        lot,
        pay_type,
        idempotency_key: "key-12345678".into(),
        supporter_name: "山田".into(),
        corporate_url: None,
        logo_url_id: None,
        anonymous: false,
        comment: None,
        additional_value: None,
        address: None,
        agreed_to_terms: true,
        not_antisocial: true,
        card,
        extra_amount: None,
    }
}

#[test]
fn a_monthly_return_is_for_members_paying_by_a_saved_card_one_unit_at_a_time() {
    let saved = Some(CardChoice::Saved(PaymentMethodId::new("card_1")));
    let member = Supporter::Member(UserId(1));
    assert!(check_monthly_order(&monthly_order(member.clone(), PayType::Card, saved.clone(), 1)).is_ok());
    let guest = Supporter::Guest(Email::parse("g@example.jp").unwrap());
    assert!(matches!(
        check_monthly_order(&monthly_order(guest, PayType::Card, None, 1)),
        Err(SupportError::MonthlyRefused(MSG_MONTHLY_MEMBERS_ONLY))
    ));
    assert!(matches!(
        check_monthly_order(&monthly_order(member.clone(), PayType::BankTransfer, None, 1)),
        Err(SupportError::MonthlyRefused(MSG_MONTHLY_CARD_ONLY))
    ));
    let typed = Some(CardChoice::New { card: PaymentMethodId::new("pm_1"), save: true });
    let Err(SupportError::Invalid(problems)) =
        check_monthly_order(&monthly_order(member.clone(), PayType::Card, typed, 2))
    else {
        panic!("a typed card and two units must be refused");
    };
    let fields: Vec<_> = problems.iter().map(|p| p.field).collect();
    assert_eq!(fields, ["card", "lot"]);
}

fn extra(yen: i64) -> domain::extra_amount::ExtraAmount {
    domain::extra_amount::ExtraAmount::parse(yen).unwrap()
}

/// A ledger that checks out the return and refuses the write after showing what it was asked to write.
fn ledger_seeing_the_new_sale(seen: Arc<Mutex<Option<NewSale>>>) -> MockStores {
    let mut ledger = MockStores::new();
    no_subscriptions(&mut ledger);
    ledger.expect_checkout().returning(|_, _| Ok(Some(checkout())));
    ledger.expect_member_email().returning(|_| Ok(email()));
    ledger.expect_customer().returning(|_| Ok(Some(CustomerId::new("cus_1"))));
    ledger.expect_place().returning(move |new| {
        *seen.lock().unwrap() = Some(new);
        Err(PlaceError::Blocked(PurchaseBlock::SoldOut))
    });
    ledger
}

#[tokio::test]
async fn an_extra_amount_is_written_on_top_of_the_servers_figures_untaxed_and_the_fee_counts_it() {
    let seen = Arc::new(Mutex::new(None));
    let mut gateway = MockPaymentGateway::new();
    owns_the_saved_card(&mut gateway);
    let (mailer, _) = recording_mailer();

    let placed = service(ledger_seeing_the_new_sale(Arc::clone(&seen)), gateway, mailer)
        .supports
        .place(SupportOrder { extra_amount: Some(1_000), ..order(PayType::Card) })
        .await;

    assert!(matches!(placed, Err(SupportError::Blocked(PurchaseBlock::SoldOut))), "{placed:?}");
    let new = seen.lock().unwrap().clone().unwrap();
    // 3,000 yen x 2 + 10 % tax = 6,600, then 1,000 on top without tax; 13.6 % of 7,600 to the platform.
    assert_eq!((new.terms.tax, new.terms.extra, new.terms.total), (Yen(600), Yen(1_000), Yen(7_600)));
    assert_eq!(new.application_fee, Yen(1_033));
}

#[tokio::test]
async fn a_card_support_with_an_extra_is_charged_its_total_and_the_mail_shows_the_extra() {
    let mut with_extra = sale(PayType::Card, SaleStatus::Pending);
    with_extra.terms = with_extra.terms.with_extra(extra(1_000)).unwrap();
    let Book { ledger, .. } = book_of(with_extra, Placed::New);
    let mut gateway = MockPaymentGateway::new();
    owns_the_saved_card(&mut gateway);
    gateway.expect_charge_card().withf(|charge, _| charge.amount == Yen(7_600)).times(1).returning(|_, _| {
        Ok(Payment { amount: Yen(7_600), amount_received: Yen(7_600), ..payment(IntentStatus::Succeeded) })
    });
    let (mailer, sent) = recording_mailer();

    let outcome = service(ledger, gateway, mailer)
        .supports
        .place(SupportOrder { extra_amount: Some(1_000), ..order(PayType::Card) })
        .await
        .unwrap();

    assert_eq!(outcome.sale.status, SaleStatus::Succeeded);
    let sent = sent.lock().unwrap();
    assert!(sent[0].text_body.contains("上乗せ支援：1,000円\n合計金額：7,600円（税込）"), "{}", sent[0].text_body);
}

#[tokio::test]
async fn an_extra_out_of_range_or_on_a_monthly_return_is_refused_before_anything_is_written() {
    use domain::extra_amount::{MSG_EXTRA_AMOUNT_MONTHLY, MSG_EXTRA_AMOUNT_RANGE};
    for (monthly, sent, message) in [
        (false, -1, MSG_EXTRA_AMOUNT_RANGE),
        (false, 1_000_001, MSG_EXTRA_AMOUNT_RANGE),
        (true, 500, MSG_EXTRA_AMOUNT_MONTHLY),
    ] {
        let mut ledger = MockStores::new();
        no_subscriptions(&mut ledger);
        ledger.expect_checkout().returning(move |_, _| Ok(Some(Checkout { monthly, ..checkout() })));
        ledger.expect_member_email().returning(|_| Ok(email()));
        ledger.expect_customer().returning(|_| Ok(Some(CustomerId::new("cus_1"))));
        ledger.expect_subscriptions_of().returning(|_| Ok(vec![]));
        ledger.expect_sale_by_key().returning(|_, _| Ok(None));
        ledger.expect_place().never();
        let mut gateway = MockPaymentGateway::new();
        owns_the_saved_card(&mut gateway);
        let (mailer, _) = recording_mailer();
        let lot = if monthly { 1 } else { 2 };

        let error = service(ledger, gateway, mailer)
            .supports
            .place(SupportOrder { extra_amount: Some(sent), lot, ..order(PayType::Card) })
            .await;

        let Err(SupportError::Invalid(problems)) = error else { panic!("{sent}: {error:?}") };
        assert_eq!((problems[0].field, problems[0].message.as_str()), ("extraAmount", message));
    }
}

#[tokio::test]
async fn the_quote_adds_the_extra_and_refuses_what_the_support_would_refuse() {
    let mut ledger = MockStores::new();
    ledger.expect_checkout().returning(|_, _| Ok(Some(checkout())));
    let supports = service(ledger, MockPaymentGateway::new(), MockMailer::new()).supports;

    let quoted = supports.quote(ProjectId(1), ReturnId(3), 2, Some(2_500), None).await.unwrap();
    assert_eq!((quoted.tax, quoted.extra, quoted.total), (Yen(600), Yen(2_500), Yen(9_100)));
    let none = supports.quote(ProjectId(1), ReturnId(3), 2, None, None).await.unwrap();
    assert_eq!((none.extra, none.total), (Yen::ZERO, Yen(6_600)));
    let refused = supports.quote(ProjectId(1), ReturnId(3), 2, Some(1_000_001), None).await;
    assert!(matches!(refused, Err(SupportError::Invalid(ref p)) if p[0].field == "extraAmount"), "{refused:?}");
}
#[path = "konbini_tests.rs"]
mod konbini;
