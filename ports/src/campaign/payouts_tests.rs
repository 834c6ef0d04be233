//! The statement as operators read and mark it, against a mock store.

use chrono::{TimeZone, Utc};
use domain::ids::{ProjectId, UserId};
use domain::money::Yen;

use super::*;
use crate::admin::audit::MockAuditLog;
use crate::clock::MockClock;

fn facts(card: i64, bank: i64, paid: Vec<PaidStatement>) -> PayoutFacts {
    PayoutFacts {
        project: ProjectId(5),
        title: "花壇よみがえり".into(),
        slug: "flowers".into(),
        period_end: NaiveDate::from_ymd_opt(2026, 10, 19).unwrap(),
        donation_payout_date: None,
        card: Yen(card),
        bank: Yen(bank),
        connected: None,
        application_fees_taken: Yen::ZERO,
        paid,
    }
}

fn service(store: MockPayoutStore, audited: usize) -> PayoutService<MockPayoutStore, MockClock> {
    let mut audit = MockAuditLog::new();
    audit.expect_record().times(audited).returning(|_| Ok(1));
    let mut clock = MockClock::new();
    clock.expect_now().returning(|| Utc.with_ymd_and_hms(2026, 12, 3, 3, 0, 0).unwrap());
    PayoutService::new(store, std::sync::Arc::new(audit), clock, Yen(440))
}

#[test]
fn the_first_statement_pays_what_supporters_paid_less_the_fee_and_the_bank_charge_on_the_terms_day() {
    let view = current_statement(facts(80_000, 20_000, vec![]), Yen(440));
    assert_eq!(view.figures.confirmed, Yen(100_000));
    assert_eq!(view.figures.platform_fee, Yen(20_000));
    assert_eq!(view.figures.platform_fee_tax, Yen(1_818));
    assert_eq!(view.figures.payout, Yen(100_000 - 20_000 - 440));
    // Ended 2026-10-19: the 3rd bank business day of December 2026 (1st is a Tuesday).
    assert_eq!(view.payout_date, NaiveDate::from_ymd_opt(2026, 12, 3).unwrap());
    assert_eq!((view.seq, view.status), (1, PayoutStatus::Due));
}

#[test]
fn a_donation_project_is_paid_out_on_its_own_date() {
    let own = NaiveDate::from_ymd_opt(2026, 11, 16).unwrap();
    let view = current_statement(PayoutFacts { donation_payout_date: Some(own), ..facts(50_000, 0, vec![]) }, Yen(440));
    assert_eq!(view.payout_date, own);
}

#[test]
fn a_refund_after_a_payout_leaves_the_owner_owing_what_was_overpaid() {
    let first = current_statement(facts(100_000, 0, vec![]), Yen(440));
    let paid = PaidStatement {
        seq: 1,
        figures: first.figures,
        payout_date: first.payout_date,
        paid_on: first.payout_date,
        reference: "振込 001".into(),
        created_at: Utc.with_ymd_and_hms(2026, 12, 3, 3, 0, 0).unwrap(),
    };
    assert_eq!(current_statement(facts(100_000, 0, vec![paid.clone()]), Yen(440)).status, PayoutStatus::Settled);
    // 10,000 yen refunded after the payout: the fee shrinks by 2,000, the owner owes 8,000.
    let second = current_statement(facts(90_000, 0, vec![paid]), Yen(440));
    assert_eq!(second.status, PayoutStatus::Due);
    assert_eq!(second.seq, 2);
    assert_eq!((second.figures.payout, second.figures.owed_by_owner), (Yen::ZERO, Yen(8_000)));
    let f = second.figures;
    assert_eq!(
        f.confirmed.0 + f.owed_by_owner.0,
        f.platform_fee.0
            + f.application_fees.0
            + f.received_directly.0
            + f.transfer_fee.0
            + f.carried_over.0
            + f.payout.0
    );
}

#[tokio::test]
async fn marking_paid_records_the_statement_read_and_refuses_one_that_changed() {
    let mut store = MockPayoutStore::new();
    store.expect_facts().returning(|_| Ok(Some(facts(100_000, 0, vec![]))));
    store.expect_record_paid().times(1).returning(|_, seq, _, _, _| {
        assert_eq!(seq, 1);
        Ok(())
    });
    let payouts = service(store, 1);
    let mark = |payout| MarkPaid {
        expected_payout: Yen(payout),
        expected_owed: Yen::ZERO,
        paid_on: NaiveDate::from_ymd_opt(2026, 12, 3).unwrap(),
        reference: "  振込 001 ".into(),
    };
    assert!(matches!(payouts.mark_paid(UserId(1), ProjectId(5), mark(70_000)).await, Err(PayoutError::Changed)));
    payouts.mark_paid(UserId(1), ProjectId(5), mark(79_560)).await.unwrap();
}

#[tokio::test]
async fn a_reference_is_required_and_a_payment_date_cannot_be_in_the_future() {
    let mut store = MockPayoutStore::new();
    store.expect_record_paid().never();
    let payouts = service(store, 0);
    let mark = |reference: &str, day| MarkPaid {
        expected_payout: Yen(79_560),
        expected_owed: Yen::ZERO,
        paid_on: NaiveDate::from_ymd_opt(2026, 12, day).unwrap(),
        reference: reference.into(),
    };
    let Err(PayoutError::Invalid(field, message)) = payouts.mark_paid(UserId(1), ProjectId(5), mark(" ", 3)).await
    else {
        panic!("an empty reference must be refused");
    };
    assert_eq!((field, message.as_str()), ("reference", "振込の控え番号・メモを入力してください。"));
    let Err(PayoutError::Invalid(field, message)) = payouts.mark_paid(UserId(1), ProjectId(5), mark("x", 4)).await
    else {
        panic!("a future date must be refused");
    };
    assert_eq!((field, message.as_str()), ("paidOn", MSG_PAID_ON_FUTURE));
}

#[test]
fn the_export_is_excel_safe() {
    let mut view = current_statement(facts(100_000, 0, vec![]), Yen(440));
    view.title = "=HYPERLINK(\"x\")".into();
    let csv = payouts_csv(&[view]);
    assert!(csv.starts_with('\u{feff}'));
    assert!(csv.contains("\r\n"));
    assert!(csv.contains("\"'=HYPERLINK(\"\"x\"\")\""), "{csv}");
    assert!(csv.contains("\"79560\""));
}
