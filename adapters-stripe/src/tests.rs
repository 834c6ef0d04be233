#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;
use domain::ids::SaleId;
use domain::money::Yen;
use domain::payment::{BankAccountType, IntentStatus};
use ports::payments::gateway::{NextAction, PaymentEventKind};

const SECRET: &str = "whsec_unit";

fn gateway() -> StripeGateway {
    StripeGateway::new(&StripeSettings {
        secret_key: "sk_test_unit".into(),
        api_base: Some("http://127.0.0.1:9".into()),
        webhook_secret: SECRET.into(),
        namespace: KeyNamespace::none(),
    })
    .unwrap()
}

fn now() -> i64 {
    chrono::Utc::now().timestamp()
}

fn intent_json(status: &str, extra: &str) -> String {
    format!(
        r#"{{"id":"pi_1","object":"payment_intent","amount":5000,"amount_capturable":0,"amount_received":0,
        "capture_method":"automatic","confirmation_method":"automatic","created":1700000000,"currency":"jpy",
        "livemode":false,"metadata":{{"sale_id":"42"}},"payment_method_types":["customer_balance"],
        "client_secret":"pi_1_secret_x","status":"{status}"{extra}}}"#
    )
}

const BANK_ACTION: &str = r#","next_action":{"type":"display_bank_transfer_instructions",
    "display_bank_transfer_instructions":{"type":"jp_bank_transfer","currency":"jpy","amount_remaining":3000,
    "reference":"REF123","hosted_instructions_url":null,"financial_addresses":[{"type":"zengin",
    "supported_networks":["zengin"],"zengin":{"account_holder_address":{},"bank_address":{},
    "account_holder_name":"ﾛｰｶﾙｽﾄﾗｲﾌﾟ(ｶ","account_number":"1234567","account_type":"futsu",
    "bank_code":"0999","bank_name":"ローカル銀行","branch_code":"999","branch_name":"テスト支店"}}]}},
    "application_fee_amount":575,"transfer_data":{"destination":"acct_1"}"#;

fn event_json(event_type: &str, object: &str) -> String {
    format!(
        r#"{{"id":"evt_1","object":"event","api_version":"2026-09-30","created":1700000000,"livemode":false,
        "pending_webhooks":1,"type":"{event_type}","data":{{"object":{object}}}}}"#
    )
}

fn intent(json: &str) -> stripe_shared::PaymentIntent {
    miniserde::json::from_str(json).expect("async-stripe reads the test intent")
}

#[test]
fn a_bank_transfer_waiting_for_money_carries_its_instructions_and_the_amount_still_due() {
    let payment = convert::payment(&intent(&intent_json("requires_action", BANK_ACTION)), &Origin::default()).unwrap();
    assert_eq!(payment.status, IntentStatus::RequiresAction);
    assert_eq!((payment.amount, payment.amount_remaining), (Yen(5000), Yen(3000)));
    assert_eq!(payment.sale_id, Some(SaleId(42)));
    let destination = payment.destination.clone().unwrap();
    assert_eq!((destination.account.as_str(), destination.application_fee), ("acct_1", Yen(575)));
    let bank = payment.bank_transfer().unwrap();
    assert_eq!(bank.bank_name, "ローカル銀行");
    assert_eq!(bank.branch_name, "テスト支店");
    assert_eq!(bank.account_type, BankAccountType::Ordinary);
    assert_eq!(bank.account_type.label(), "普通");
    assert_eq!(bank.account_number, "1234567");
    assert_eq!(bank.account_holder_name, "ﾛｰｶﾙｽﾄﾗｲﾌﾟ(ｶ");
    assert_eq!(bank.reference.as_deref(), Some("REF123"));
    assert_eq!(bank.amount_remaining, Yen(3000));
}

#[test]
fn a_card_waiting_for_3d_secure_hands_out_its_client_secret() {
    let payment = convert::payment(&intent(&intent_json("requires_action", "")), &Origin::default()).unwrap();
    assert_eq!(payment.next_action, Some(NextAction::Authenticate { client_secret: "pi_1_secret_x".into() }));
    assert_eq!(payment.amount_remaining, Yen(5000));
}

#[test]
fn a_payment_in_another_currency_than_yen_is_refused() {
    let json = intent_json("succeeded", "").replace(r#""currency":"jpy""#, r#""currency":"usd""#);
    assert!(convert::payment(&intent(&json), &Origin::default()).unwrap_err().contains("not yen"));
}

#[test]
fn instructions_without_an_account_number_are_refused_rather_than_shown_half() {
    let json = intent_json("requires_action", &BANK_ACTION.replace(r#""account_number":"1234567","#, ""));
    assert!(convert::payment(&intent(&json), &Origin::default()).unwrap_err().contains("account number"));
}

#[test]
fn a_signed_partial_funding_event_is_read_with_its_remaining_amount() {
    let payload = event_json("payment_intent.partially_funded", &intent_json("requires_action", BANK_ACTION));
    let header = Webhook::generate_test_header(&payload, SECRET, Some(now()));
    let event = gateway().verify_webhook(&payload, &header).unwrap();
    assert_eq!(event.id.as_str(), "evt_1");
    assert_eq!(event.kind, PaymentEventKind::PartiallyFunded);
    assert_eq!(event.created_at.timestamp(), 1_700_000_000);
    let payment = event.payment.unwrap();
    assert_eq!((payment.id.as_str(), payment.amount_remaining), ("pi_1", Yen(3000)));
}

#[test]
fn a_payment_names_our_sale_only_when_it_carries_our_namespace() {
    let tagged = |tag: &str| intent_json("succeeded", "").replace(r#"{"sale_id":"42"}"#, tag);
    let ours = Origin(Some("test_db_1".into()));
    let sale_of = |json: String, origin: &Origin| convert::payment(&intent(&json), origin).unwrap().sale_id;
    assert_eq!(sale_of(tagged(r#"{"sale_id":"42","key_namespace":"test_db_1"}"#), &ours), Some(SaleId(42)));
    // Another database's sale 42 (a test or a developer on the same provider account) is not ours.
    assert_eq!(sale_of(tagged(r#"{"sale_id":"42","key_namespace":"test_db_2"}"#), &ours), None);
    assert_eq!(sale_of(tagged(r#"{"sale_id":"42"}"#), &ours), None);
    assert_eq!(sale_of(tagged(r#"{"sale_id":"42","key_namespace":"test_db_1"}"#), &Origin::default()), None);
    assert_eq!(sale_of(tagged(r#"{"sale_id":"42"}"#), &Origin::default()), Some(SaleId(42)));
}

#[test]
fn webhooks_with_a_wrong_secret_a_changed_body_or_an_old_timestamp_are_refused() {
    let payload = event_json("payment_intent.succeeded", &intent_json("succeeded", ""));
    let gateway = gateway();
    let other_secret = Webhook::generate_test_header(&payload, "whsec_other", Some(now()));
    assert!(matches!(gateway.verify_webhook(&payload, &other_secret), Err(WebhookError::BadSignature(_))));
    let header = Webhook::generate_test_header(&payload, SECRET, Some(now()));
    let tampered = payload.replace("5000", "50000");
    assert!(matches!(gateway.verify_webhook(&tampered, &header), Err(WebhookError::BadSignature(_))));
    let stale = Webhook::generate_test_header(&payload, SECRET, Some(now() - 600));
    assert!(matches!(gateway.verify_webhook(&payload, &stale), Err(WebhookError::BadSignature(_))));
    assert!(matches!(gateway.verify_webhook(&payload, ""), Err(WebhookError::BadSignature(_))));
    assert!(matches!(gateway.verify_webhook(&payload, "garbage"), Err(WebhookError::BadSignature(_))));
    assert!(gateway.verify_webhook(&payload, &header).is_ok());
}

#[test]
fn a_signed_body_that_is_no_event_is_a_payload_error() {
    let header = Webhook::generate_test_header("{}", SECRET, Some(now()));
    assert!(matches!(gateway().verify_webhook("{}", &header), Err(WebhookError::BadPayload(_))));
}

#[test]
fn events_about_other_objects_are_read_without_a_payment() {
    let customer = r#"{"id":"cus_1","object":"customer","created":1700000000,"livemode":false,"metadata":{},
        "invoice_prefix":"ABC","preferred_locales":[],"tax_exempt":"none","delinquent":false,"balance":0}"#;
    let payload = event_json("customer.created", customer);
    let header = Webhook::generate_test_header(&payload, SECRET, Some(now()));
    let event = gateway().verify_webhook(&payload, &header).unwrap();
    assert_eq!((event.kind, event.payment), (PaymentEventKind::Other, None));
}

fn api(json: &str) -> ApiErrors {
    miniserde::json::from_str(json).unwrap()
}

#[test]
fn stripe_errors_say_whether_a_retry_may_help() {
    let declined = api_error(
        &api(
            r#"{"type":"card_error","code":"card_declined","decline_code":"generic_decline","message":"Your card was declined."}"#,
        ),
        402,
    );
    assert!(
        matches!(&declined, GatewayError::Declined { message, code: Some(code), .. } if message == "Your card was declined." && code == "card_declined")
    );
    let reused = api_error(&api(r#"{"type":"idempotency_error","message":"Keys for idempotent requests"}"#), 400);
    assert!(matches!(reused, GatewayError::KeyReused(_)));
    let missing = api_error(&api(r#"{"type":"invalid_request_error","message":"No such payment_intent"}"#), 404);
    assert!(matches!(missing, GatewayError::NotFound(_)));
    for status in [409, 429, 500, 503] {
        assert!(api_error(&api(r#"{"type":"api_error"}"#), status).is_retryable(), "{status}");
    }
    let invalid = api_error(&api(r#"{"type":"invalid_request_error","message":"Invalid amount"}"#), 400);
    assert!(matches!(invalid, GatewayError::Rejected(_)));
    assert!(gateway_error(StripeError::Timeout).is_retryable());
    assert!(gateway_error(StripeError::ClientError("connection refused".into())).is_retryable());
    assert!(!gateway_error(StripeError::JSONDeserialize("x".into())).is_retryable());
}

#[test]
fn bad_settings_are_refused_at_start() {
    let settings = |key: &str, base: Option<&str>, secret: &str| StripeSettings {
        secret_key: key.into(),
        api_base: base.map(Into::into),
        webhook_secret: secret.into(),
        namespace: KeyNamespace::none(),
    };
    assert!(StripeGateway::new(&settings("", None, "whsec_x")).is_err());
    assert!(StripeGateway::new(&settings("sk_test_x", None, "")).is_err());
    assert!(StripeGateway::new(&settings("sk_test_x", Some("127.0.0.1:8420"), "whsec_x")).is_err());
    assert!(StripeGateway::new(&settings("sk_test_x", Some("http://127.0.0.1:8420"), "whsec_x")).is_ok());
    assert!(StripeGateway::new(&settings("sk_test_x", None, "whsec_x")).is_ok());
    let debug = format!("{:?}", settings("sk_live_secret", None, "whsec_secret"));
    assert!(!debug.contains("secret"), "{debug}");
}

#[test]
fn non_positive_amounts_never_reach_stripe() {
    assert!(matches!(positive(0), Err(GatewayError::Rejected(_))));
    assert!(matches!(positive(-1), Err(GatewayError::Rejected(_))));
    assert_eq!(positive(1).unwrap(), 1);
}

#[test]
fn card_brands_read_the_same_from_a_card_source_or_a_payment_method() {
    let pairs = [
        ("Visa", "visa"),
        ("MasterCard", "mastercard"),
        ("American Express", "amex"),
        ("JCB", "jcb"),
        ("Diners Club", "diners"),
        ("Discover", "discover"),
    ];
    for (source_brand, payment_method_brand) in pairs {
        assert_eq!(convert::brand(source_brand), source_brand);
        assert_eq!(convert::brand(payment_method_brand), source_brand);
    }
    assert_eq!(convert::brand("UnionPay"), "Unknown");
    assert_eq!(convert::brand(""), "Unknown");
}

const KONBINI_ACTION: &str = r#","next_action":{"type":"konbini_display_details","konbini_display_details":{
    "expires_at":1764514799,"hosted_voucher_url":"https://payments.stripe.com/konbini/voucher/test_1",
    "stores":{"familymart":{"confirmation_number":"12345678901","payment_code":"123456789012"},
    "lawson":{"confirmation_number":"12345678901","payment_code":"L23456789012"},
    "ministop":{"confirmation_number":"12345678901","payment_code":"M23456789012"},
    "seicomart":{"confirmation_number":null,"payment_code":"S23456789012"}}}}"#;

#[test]
fn a_konbini_payment_waiting_for_the_store_carries_its_voucher() {
    let payment =
        convert::payment(&intent(&intent_json("requires_action", KONBINI_ACTION)), &Origin::default()).unwrap();
    assert_eq!(payment.status, IntentStatus::RequiresAction);
    let voucher = payment.konbini().unwrap();
    assert_eq!(voucher.expires_at.timestamp(), 1_764_514_799);
    assert_eq!(voucher.hosted_voucher_url.as_deref(), Some("https://payments.stripe.com/konbini/voucher/test_1"));
    let stores: Vec<(&str, &str, Option<&str>)> = voucher
        .stores
        .iter()
        .map(|s| (s.chain.label(), s.payment_code.as_str(), s.confirmation_number.as_deref()))
        .collect();
    assert_eq!(
        stores,
        [
            ("ファミリーマート", "123456789012", Some("12345678901")),
            ("ローソン", "L23456789012", Some("12345678901")),
            ("ミニストップ", "M23456789012", Some("12345678901")),
            ("セイコーマート", "S23456789012", None),
        ]
    );
    assert_eq!(payment.bank_transfer(), None);
}

#[test]
fn a_konbini_voucher_naming_no_store_is_refused() {
    let empty = r#","next_action":{"type":"konbini_display_details","konbini_display_details":{
        "expires_at":1764514799,"hosted_voucher_url":null,"stores":{}}}"#;
    let error = convert::payment(&intent(&intent_json("requires_action", empty)), &Origin::default()).unwrap_err();
    assert!(error.contains("names no store"), "{error}");
}
