//! The receipt use cases against mock ports: who may read which receipt,
//! what it prints, and what an issue records.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use chrono::TimeZone;
use domain::receipt::{MSG_PARTLY_REFUNDED, MSG_REGISTRATION_NUMBER};
use mockall::predicate::eq;

use super::*;
use crate::admin::audit::MockAuditLog;
use crate::clock::MockClock;

const MEMBER: UserId = UserId(7);
const SALE: SaleId = SaleId(41);
const OPERATOR: &str = "上毛新聞社";

fn at(day: u32, hour: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 12, day, hour, 0, 0).unwrap()
}

fn paid_sale() -> ReceiptSale {
    ReceiptSale {
        id: SALE,
        user: MEMBER,
        status: SaleStatus::Succeeded,
        // 23:30 UTC on the 1st is the 2nd in Tokyo.
        paid_at: Some(Utc.with_ymd_and_hms(2026, 12, 1, 23, 30, 0).unwrap()),
        project: ProjectId(2),
        project_title: "前橋ばら園".into(),
        return_title: "お礼のメール".into(),
        lots: 2,
        total: Yen(6_600),
        extra: Yen::ZERO,
        tax_mode: TaxMode::Inclusive,
        tax_rate: TaxRate::STANDARD,
        refunded: Yen::ZERO,
        names: vec![" ".into(), "前橋 太郎".into(), "たろう".into()],
        owner_name: Some("前橋ローズの会".into()),
        issuer: None,
        issued: None,
    }
}

fn clock() -> MockClock {
    let mut clock = MockClock::new();
    clock.expect_now().returning(|| at(3, 1));
    clock
}

fn tokens() -> MockReceiptTokens {
    let mut tokens = MockReceiptTokens::new();
    tokens.expect_verify().returning(|token| (token == "genuine").then_some(SALE));
    tokens
}

fn service(
    store: MockSaleReceiptStore,
) -> SaleReceiptService<MockSaleReceiptStore, MockReceiptTokens, MockAuditLog, MockClock> {
    SaleReceiptService::new(store, tokens(), MockAuditLog::new(), clock(), OPERATOR.into())
}

fn store_of(sale: ReceiptSale) -> MockSaleReceiptStore {
    let mut store = MockSaleReceiptStore::new();
    store.expect_sale().with(eq(sale.id)).returning(move |_| Ok(sale.clone()));
    store
}

#[tokio::test]
async fn a_member_reads_the_receipt_of_their_paid_sale_with_tax_once_per_rate_and_the_paid_day_in_tokyo() {
    let receipt = service(store_of(paid_sale())).receipt(ReceiptAccess::Member(MEMBER, SALE)).await.unwrap();

    assert_eq!(receipt.title, "領収書");
    assert_eq!(receipt.kind, ReceiptKind::Sale);
    assert_eq!(receipt.issued_count, 0);
    assert_eq!(receipt.amount, Yen(6_600));
    assert_eq!(receipt.paid_on, NaiveDate::from_ymd_opt(2026, 12, 2).unwrap());
    assert_eq!(receipt.purpose, "「前橋ばら園」へのご支援として");
    assert_eq!(receipt.rates, vec![RateTotal { rate: Some(TaxRate::STANDARD), total: Yen(6_600), tax: Yen(600) }]);
    assert_eq!(receipt.lines[0].description, "前橋ばら園（お礼のメール）");
    assert_eq!(receipt.lines[0].lots, 2);
    // The first name that is not blank.
    assert_eq!((receipt.addressee.as_str(), receipt.default_addressee.as_str()), ("前橋 太郎", "前橋 太郎"));
    assert_eq!(receipt.refund_note, None);
}

#[tokio::test]
async fn another_members_sale_an_unpaid_one_an_unknown_one_and_a_forged_token_are_all_not_found() {
    let mut unpaid = paid_sale();
    unpaid.status = SaleStatus::AwaitingBankTransfer;
    unpaid.paid_at = None;
    let mut store = MockSaleReceiptStore::new();
    store.expect_sale().with(eq(SALE)).returning(|_| Ok(paid_sale()));
    store.expect_sale().with(eq(SaleId(42))).returning(move |_| Ok(unpaid.clone()));
    store.expect_sale().with(eq(SaleId(43))).returning(|_| Err(RepoError::NotFound));
    store.expect_record_issue().never();
    let service = service(store);

    for access in [
        ReceiptAccess::Member(UserId(8), SALE),
        ReceiptAccess::Member(MEMBER, SaleId(42)),
        ReceiptAccess::Member(MEMBER, SaleId(43)),
        ReceiptAccess::Token("forged".into()),
    ] {
        assert!(matches!(service.receipt(access.clone()).await, Err(ReceiptError::NotFound)), "{access:?}");
        assert!(matches!(service.issue(access.clone(), None).await, Err(ReceiptError::NotFound)), "{access:?}");
    }
}

#[tokio::test]
async fn a_genuine_token_opens_its_sale_whoever_holds_it() {
    let receipt = service(store_of(paid_sale())).receipt(ReceiptAccess::Token("genuine".into())).await.unwrap();

    assert_eq!(receipt.sale, SALE);
}

#[tokio::test]
async fn the_first_issue_is_the_original_and_a_later_one_a_reissue_with_the_new_addressee() {
    let mut store = store_of(paid_sale());
    store.expect_record_issue().with(eq(SALE), eq("株式会社上毛".to_string()), eq(at(3, 1))).times(1).returning(
        |_, addressee, now| Ok(IssueRecord { addressee: addressee.into(), count: 1, first_at: now, last_at: now }),
    );
    store.expect_record_issue().with(eq(SALE), eq("前橋 太郎".to_string()), eq(at(3, 1))).times(1).returning(
        |_, addressee, now| Ok(IssueRecord { addressee: addressee.into(), count: 2, first_at: at(1, 0), last_at: now }),
    );
    let service = service(store);

    let first = service.issue(ReceiptAccess::Member(MEMBER, SALE), Some(" 株式会社上毛 ".into())).await.unwrap();
    // Blank: the member's name.
    let second = service.issue(ReceiptAccess::Token("genuine".into()), Some("　".into())).await.unwrap();

    assert_eq!((first.title, first.issued_count, first.addressee.as_str()), ("領収書", 1, "株式会社上毛"));
    assert_eq!(first.issued_on, NaiveDate::from_ymd_opt(2026, 12, 3));
    assert_eq!((second.title, second.issued_count, second.addressee.as_str()), ("領収書（再発行）", 2, "前橋 太郎"));
}

#[tokio::test]
async fn an_addressee_over_sixty_characters_is_refused_with_its_message_and_nothing_is_recorded() {
    let mut store = store_of(paid_sale());
    store.expect_record_issue().never();

    let error = service(store).issue(ReceiptAccess::Member(MEMBER, SALE), Some("宛".repeat(61))).await.unwrap_err();

    let ReceiptError::Invalid(fields) = error else { panic!("{error:?}") };
    assert_eq!(
        fields,
        vec![FieldError {
            field: "addressee", message: "宛名は60文字以内で入力してください。".into()
        }]
    );
}

#[tokio::test]
async fn a_partly_refunded_sale_shows_what_was_kept_and_taxes_only_that() {
    let mut sale = paid_sale();
    sale.refunded = Yen(3_300);

    let receipt = service(store_of(sale)).receipt(ReceiptAccess::Member(MEMBER, SALE)).await.unwrap();

    assert_eq!((receipt.amount, receipt.paid_total, receipt.refunded), (Yen(3_300), Yen(6_600), Yen(3_300)));
    assert_eq!(receipt.rates[0].tax, Yen(300));
    assert_eq!(receipt.refund_note, Some(MSG_PARTLY_REFUNDED));
}

#[tokio::test]
async fn a_donation_gives_a_donation_receipt_without_tax() {
    let mut sale = paid_sale();
    sale.tax_mode = TaxMode::Exempt;
    sale.tax_rate = TaxRate::new(0).unwrap();

    let receipt = service(store_of(sale)).receipt(ReceiptAccess::Member(MEMBER, SALE)).await.unwrap();

    assert_eq!(receipt.title, "寄附金受領証明書");
    assert_eq!(receipt.purpose, "「前橋ばら園」への寄附として");
    assert_eq!(receipt.rates, vec![RateTotal { rate: None, total: Yen(6_600), tax: Yen::ZERO }]);
}

#[tokio::test]
async fn without_an_issuer_the_operator_receives_on_the_owners_behalf_and_prints_no_number() {
    let plain = service(store_of(paid_sale())).receipt(ReceiptAccess::Member(MEMBER, SALE)).await.unwrap();
    let mut sale = paid_sale();
    let number = RegistrationNumber::parse("T1234567890123").unwrap();
    sale.issuer =
        Some(ReceiptIssuer { name: "前橋ローズ株式会社".into(), registration_number: Some(number.clone()) });
    let qualified = service(store_of(sale)).receipt(ReceiptAccess::Member(MEMBER, SALE)).await.unwrap();

    assert_eq!(
        plain.issuer,
        ReceiptIssuerView {
            name: OPERATOR.into(),
            registration_number: None,
            on_behalf_of: Some("前橋ローズの会".into())
        }
    );
    assert_eq!(
        qualified.issuer,
        ReceiptIssuerView {
            name: "前橋ローズ株式会社".into(), registration_number: Some(number), on_behalf_of: None
        }
    );
}

fn project_issuer(issuer: Option<ReceiptIssuer>) -> ProjectIssuer {
    ProjectIssuer { project: ProjectId(2), project_title: "前橋ばら園".into(), issuer, updated_at: None }
}

#[tokio::test]
async fn an_operator_sets_an_issuer_and_the_audit_log_keeps_before_and_after() {
    let mut store = MockSaleReceiptStore::new();
    let mut answers = vec![project_issuer(None)].into_iter();
    store.expect_project_issuer().times(2).returning(move |_| {
        Ok(answers.next().unwrap_or_else(|| {
            project_issuer(Some(ReceiptIssuer {
                name: "前橋ローズ株式会社".into(),
                registration_number: RegistrationNumber::parse("T1234567890123").ok(),
            }))
        }))
    });
    store
        .expect_set_issuer()
        .withf(|project, issuer, _| {
            *project == ProjectId(2)
                && issuer.name == "前橋ローズ株式会社"
                && issuer.registration_number.as_ref().map(RegistrationNumber::as_str) == Some("T1234567890123")
        })
        .times(1)
        .returning(|_, _, _| Ok(()));
    let mut audit = MockAuditLog::new();
    audit
        .expect_record()
        .withf(|a| {
            a.kind == AdminActionKind::ReceiptIssuerUpdated
                && a.project_id == Some(ProjectId(2))
                && a.detail["before"]["issuerName"].is_null()
                && a.detail["after"]["registrationNumber"] == "T1234567890123"
        })
        .times(1)
        .returning(|_| Ok(1));
    let service = SaleReceiptService::new(store, tokens(), audit, clock(), OPERATOR.into());

    let answer = service
        .set_issuer(UserId(1), ProjectId(2), " 前橋ローズ株式会社".into(), Some("Ｔ1234567890123".into()))
        .await
        .unwrap();

    assert_eq!(answer.issuer.unwrap().name, "前橋ローズ株式会社");
}

#[tokio::test]
async fn a_bad_registration_number_is_refused_with_the_domains_message_and_nothing_is_written() {
    let mut store = MockSaleReceiptStore::new();
    store.expect_set_issuer().never();
    let mut audit = MockAuditLog::new();
    audit.expect_record().never();
    let service = SaleReceiptService::new(store, tokens(), audit, clock(), OPERATOR.into());

    let error =
        service.set_issuer(UserId(1), ProjectId(2), "前橋ローズ".into(), Some("T123-4".into())).await.unwrap_err();

    let ReceiptError::Invalid(fields) = error else { panic!("{error:?}") };
    assert_eq!(fields, vec![FieldError { field: "registrationNumber", message: MSG_REGISTRATION_NUMBER.into() }]);
}

#[test]
fn a_receipt_link_is_the_public_page_with_its_token_and_no_signer_gives_none() {
    let mut tokens = MockReceiptTokens::new();
    tokens.expect_issue().returning(|sale| Some(format!("t{sale}")));
    let links = ReceiptLinks::new(Arc::new(tokens));

    assert_eq!(links.link("https://example.jp", SALE).as_deref(), Some("https://example.jp/receipt/t41"));
    assert_eq!(ReceiptLinks::none().link("https://example.jp", SALE), None);
}

#[tokio::test]
async fn an_extra_amount_is_its_own_untaxed_line_and_a_refund_takes_it_back_first() {
    let with_extra = ReceiptSale { total: Yen(7_600), extra: Yen(1_000), ..paid_sale() };
    let receipt = service(store_of(with_extra.clone())).receipt(ReceiptAccess::Member(MEMBER, SALE)).await.unwrap();

    assert_eq!(receipt.amount, Yen(7_600));
    let lines: Vec<_> = receipt.lines.iter().map(|l| (l.description.as_str(), l.amount, l.rate)).collect();
    assert_eq!(
        lines,
        [("前橋ばら園（お礼のメール）", Yen(6_600), Some(TaxRate::STANDARD)), ("上乗せ支援", Yen(1_000), None)]
    );
    // The tax is still the 600 yen the return contains; the extra is outside consumption tax.
    assert_eq!(
        receipt.rates,
        vec![
            RateTotal { rate: Some(TaxRate::STANDARD), total: Yen(6_600), tax: Yen(600) },
            RateTotal { rate: None, total: Yen(1_000), tax: Yen::ZERO },
        ]
    );

    let refunded = ReceiptSale { refunded: Yen(1_500), ..with_extra };
    let receipt = service(store_of(refunded)).receipt(ReceiptAccess::Member(MEMBER, SALE)).await.unwrap();
    assert_eq!(receipt.amount, Yen(6_100));
    assert_eq!((receipt.lines[0].amount, receipt.lines[1].amount), (Yen(6_100), Yen::ZERO));
}
