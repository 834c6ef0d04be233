//! The reconcile report against mock ports: what it sums, what it calls a
//! difference, and that it reads every page.

use std::collections::HashMap;

use chrono::{TimeZone, Utc};
use domain::account::Email;
use domain::ids::{ReturnId, UserId};
use domain::lot::Lot;
use domain::money::{PriceBreakdown, TaxMode, TaxRate};
use domain::payment::PayType;

use super::*;
use crate::payments::gateway::{InvoiceId, MockPaymentGateway, Payment, ProviderInvoice, ProviderSubscription};
use crate::payments::ledger::SubscriptionTally;
use crate::payments::mock_stores::MockStores;

const ROSE: ProjectId = ProjectId(1);
const TEA: ProjectId = ProjectId(2);

/// Sale `id` of `project`: 1 lot at 5,000 yen tax included, paid with `pi_{id}`.
fn sale(id: i64, project: ProjectId, pay_type: PayType, status: SaleStatus) -> SaleRecord {
    let terms =
        PriceBreakdown::compute(Yen(5000), Lot::parse(1).unwrap(), TaxRate::STANDARD, TaxMode::Inclusive).unwrap();
    SaleRecord {
        id: SaleId(id),
        user: UserId(7),
        email: Email::parse("supporter@example.jp").unwrap(),
        project_id: project,
        project_slug: format!("p{}", project.get()),
        project_title: if project == ROSE { "バラ園".into() } else { "茶畑".into() },
        return_id: ReturnId(3),
        return_title: "Aコース".into(),
        pay_type,
        status,
        terms,
        application_fee: Yen::ZERO,
        connected_account: None,
        payment: Some(PaymentId::new(format!("pi_{id}"))),
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

fn payment(id: i64, status: IntentStatus, received: i64) -> Payment {
    Payment {
        id: PaymentId::new(format!("pi_{id}")),
        status,
        amount: Yen(5000),
        amount_received: Yen(received),
        amount_remaining: Yen(5000 - received),
        sale_id: Some(SaleId(id)),
        destination: None,
        next_action: None,
        last_failure: None,
    }
}

/// A ledger serving `sales` in pages, as the real one does (by id, above `after`).
fn ledger(sales: Vec<SaleRecord>) -> MockStores {
    let mut ledger = MockStores::new();
    ledger.expect_sales_with_payment().returning(move |after, limit| {
        Ok(sales.iter().filter(|s| s.id > after).take(usize::try_from(limit).unwrap()).cloned().collect())
    });
    ledger.expect_subscription_tallies().returning(|_, _| Ok(vec![]));
    ledger
}

/// A provider knowing `payments`, none refunded; any other id is not found.
fn provider(payments: Vec<Payment>) -> MockPaymentGateway {
    provider_with_refunds(payments, HashMap::new())
}

/// A provider knowing `payments`, with yen refunded of some (by payment id).
fn provider_with_refunds(payments: Vec<Payment>, refunded: HashMap<PaymentId, Yen>) -> MockPaymentGateway {
    let known: HashMap<PaymentId, Payment> = payments.into_iter().map(|p| (p.id.clone(), p)).collect();
    let mut gateway = MockPaymentGateway::new();
    gateway
        .expect_payment()
        .returning(move |id| known.get(id).cloned().ok_or_else(|| GatewayError::NotFound(id.to_string())));
    gateway.expect_refunded().returning(move |id| Ok(refunded.get(id).copied().unwrap_or(Yen::ZERO)));
    gateway
}

#[tokio::test]
async fn sales_that_agree_with_their_payments_sum_the_same_on_both_sides_with_no_difference() {
    let ledger = ledger(vec![
        sale(1, ROSE, PayType::Card, SaleStatus::Succeeded),
        sale(2, ROSE, PayType::BankTransfer, SaleStatus::AwaitingBankTransfer),
        sale(3, TEA, PayType::BankTransfer, SaleStatus::Succeeded),
        sale(4, TEA, PayType::Card, SaleStatus::Failed),
        sale(5, ROSE, PayType::Card, SaleStatus::RequiresAction),
    ]);
    let gateway = provider(vec![
        payment(1, IntentStatus::Succeeded, 5000),
        payment(2, IntentStatus::RequiresAction, 0),
        payment(3, IntentStatus::Succeeded, 5000),
        payment(4, IntentStatus::RequiresPaymentMethod, 0),
        payment(5, IntentStatus::RequiresAction, 0),
    ]);

    // A page of two: three pages are read.
    let report = reconcile_report(&ledger, &gateway, UnknownPayments::Difference, 2).await.unwrap();

    assert_eq!(
        report.projects,
        vec![
            ProjectTotals {
                project: ROSE,
                title: "バラ園".into(),
                ours: Yen(5000),
                provider: Yen(5000),
                differences: 0
            },
            ProjectTotals {
                project: TEA, title: "茶畑".into(), ours: Yen(5000), provider: Yen(5000), differences: 0
            },
        ]
    );
    assert!(report.differences.is_empty());
}

#[tokio::test]
async fn a_payment_that_succeeded_at_the_provider_for_a_sale_still_pending_here_is_a_difference() {
    let ledger = ledger(vec![
        sale(1, ROSE, PayType::Card, SaleStatus::Pending),
        sale(2, ROSE, PayType::Card, SaleStatus::Succeeded),
    ]);
    let gateway = provider(vec![payment(1, IntentStatus::Succeeded, 5000), payment(2, IntentStatus::Succeeded, 5000)]);

    let report = reconcile_report(&ledger, &gateway, UnknownPayments::Difference, 100).await.unwrap();

    assert_eq!((report.projects[0].ours, report.projects[0].provider), (Yen(5000), Yen(10000)));
    assert_eq!(report.projects[0].differences, 1);
    assert_eq!(
        report.differences,
        vec![Difference {
            sale: SaleId(1),
            project: ROSE,
            payment: PaymentId::new("pi_1"),
            status: SaleStatus::Pending,
            total: Yen(5000),
            refunded: Yen::ZERO,
            provider: ProviderView::Payment {
                status: IntentStatus::Succeeded,
                received: Yen(5000),
                refunded: Yen::ZERO
            },
        }]
    );
}

#[tokio::test]
async fn a_paid_sale_whose_payment_received_another_amount_is_a_difference() {
    let ledger = ledger(vec![sale(1, TEA, PayType::BankTransfer, SaleStatus::Succeeded)]);
    let gateway = provider(vec![payment(1, IntentStatus::Succeeded, 4000)]);

    let report = reconcile_report(&ledger, &gateway, UnknownPayments::Difference, 100).await.unwrap();

    assert_eq!((report.projects[0].ours, report.projects[0].provider), (Yen(5000), Yen(4000)));
    assert_eq!(report.differences.len(), 1);
}

#[tokio::test]
async fn a_refund_recorded_on_one_side_only_is_a_difference() {
    let refunded_here = SaleRecord { refunded: Yen(2000), ..sale(1, ROSE, PayType::Card, SaleStatus::Succeeded) };
    let both = SaleRecord { refunded: Yen(5000), ..sale(2, ROSE, PayType::Card, SaleStatus::Succeeded) };
    let ledger = ledger(vec![refunded_here, both, sale(3, ROSE, PayType::Card, SaleStatus::Succeeded)]);
    let gateway = provider_with_refunds(
        (1..=3).map(|id| payment(id, IntentStatus::Succeeded, 5000)).collect(),
        // Sale 3 was refunded at the provider (its dashboard, say) and never here.
        HashMap::from([(PaymentId::new("pi_2"), Yen(5000)), (PaymentId::new("pi_3"), Yen(1000))]),
    );

    let report = reconcile_report(&ledger, &gateway, UnknownPayments::Difference, 100).await.unwrap();

    let differing: Vec<(SaleId, Yen, ProviderView)> =
        report.differences.iter().map(|d| (d.sale, d.refunded, d.provider)).collect();
    let paid = |refunded| ProviderView::Payment { status: IntentStatus::Succeeded, received: Yen(5000), refunded };
    assert_eq!(differing, vec![(SaleId(1), Yen(2000), paid(Yen::ZERO)), (SaleId(3), Yen::ZERO, paid(Yen(1000)))]);
    assert_eq!(report.projects[0].differences, 2);
}

#[tokio::test]
async fn a_refund_that_lapsed_unclaimed_agrees_with_its_cancellation_at_the_provider_and_is_listed() {
    // 5,000 paid by transfer; 3,000 refunded to the supporter, 2,000 asked for, unanswered, lapsed and cancelled.
    let lapsed = SaleRecord {
        refunded: Yen(5000),
        unclaimed: Yen(2000),
        ..sale(1, ROSE, PayType::BankTransfer, SaleStatus::Succeeded)
    };
    // The same cancellation recorded as if the refund had been paid out: the provider disagrees.
    let wrong = SaleRecord { refunded: Yen(5000), ..sale(2, ROSE, PayType::BankTransfer, SaleStatus::Succeeded) };
    let ledger = ledger(vec![lapsed, wrong]);
    let gateway = provider_with_refunds(
        (1..=2).map(|id| payment(id, IntentStatus::Succeeded, 5000)).collect(),
        HashMap::from([(PaymentId::new("pi_1"), Yen(3000)), (PaymentId::new("pi_2"), Yen(3000))]),
    );

    let report = reconcile_report(&ledger, &gateway, UnknownPayments::Difference, 100).await.unwrap();

    assert_eq!(report.differences.iter().map(|d| d.sale).collect::<Vec<_>>(), vec![SaleId(2)]);
    assert_eq!(report.unclaimed, vec![(SaleId(1), ROSE, Yen(2000))]);
    // Sale 1 raised nothing for the project on either side; sale 2's 2,000 is still at the provider.
    assert_eq!((report.projects[0].ours, report.projects[0].provider), (Yen::ZERO, Yen(2000)));
}

#[tokio::test]
async fn a_sale_paid_here_but_cancelled_at_the_provider_is_a_difference() {
    let ledger = ledger(vec![sale(1, ROSE, PayType::BankTransfer, SaleStatus::Succeeded)]);
    let gateway = provider(vec![payment(1, IntentStatus::Canceled, 0)]);

    let report = reconcile_report(&ledger, &gateway, UnknownPayments::Difference, 100).await.unwrap();

    assert_eq!((report.projects[0].ours, report.projects[0].provider), (Yen(5000), Yen::ZERO));
    assert_eq!(
        report.differences[0].provider,
        ProviderView::Payment { status: IntentStatus::Canceled, received: Yen::ZERO, refunded: Yen::ZERO }
    );
}

#[tokio::test]
async fn a_payment_the_provider_does_not_know_is_a_difference_in_production_and_listed_apart_elsewhere() {
    let sales = vec![sale(1, ROSE, PayType::Card, SaleStatus::Succeeded)];

    let production =
        reconcile_report(&ledger(sales.clone()), &provider(vec![]), UnknownPayments::Difference, 100).await.unwrap();
    let local = reconcile_report(&ledger(sales), &provider(vec![]), UnknownPayments::ListApart, 100).await.unwrap();

    assert_eq!(production.differences.len(), 1);
    assert_eq!(production.differences[0].provider, ProviderView::Unknown);
    assert_eq!(production.projects[0].differences, 1);
    assert!(local.differences.is_empty());
    assert_eq!(local.unknown.len(), 1);
    assert_eq!(
        local.projects[0],
        ProjectTotals {
            project: ROSE, title: "バラ園".into(), ours: Yen::ZERO, provider: Yen::ZERO, differences: 0
        }
    );
}

#[tokio::test]
async fn a_provider_that_cannot_be_read_gives_no_figures() {
    let ledger = ledger(vec![sale(1, ROSE, PayType::Card, SaleStatus::Succeeded)]);
    let mut gateway = MockPaymentGateway::new();
    gateway.expect_payment().returning(|_| Err(GatewayError::Unavailable("timeout".into())));

    let error = reconcile_report(&ledger, &gateway, UnknownPayments::Difference, 100).await.unwrap_err();

    assert!(matches!(error, ReportError::Provider { sale: SaleId(1), .. }), "{error}");
}

/// Monthly support `id` of ROSE as we recorded it.
fn tally(id: i64, status: SubscriptionState, months_paid: i64) -> SubscriptionTally {
    SubscriptionTally { id, project_id: ROSE, provider: SubscriptionId::new(format!("sub_{id}")), status, months_paid }
}

fn invoice(id: &str, subscription: i64, paid: bool) -> ProviderInvoice {
    ProviderInvoice {
        id: InvoiceId::new(id),
        subscription: Some(SubscriptionId::new(format!("sub_{subscription}"))),
        paid,
        amount_paid: if paid { Yen(1100) } else { Yen::ZERO },
        amount_due: Yen(1100),
        payment: None,
        attempt_count: 1,
        next_payment_attempt: None,
    }
}

#[tokio::test]
async fn a_monthly_support_whose_status_or_paid_months_differ_from_the_provider_is_a_difference() {
    let mut ledger = MockStores::new();
    ledger.expect_sales_with_payment().returning(|_, _| Ok(vec![]));
    ledger.expect_subscription_tallies().returning(|after, _| {
        let all = vec![
            tally(1, SubscriptionState::Active, 2),
            // The provider ended it; we still think it runs.
            tally(2, SubscriptionState::Active, 1),
            // The provider was paid a month we never recorded.
            tally(3, SubscriptionState::Active, 1),
        ];
        Ok(all.into_iter().filter(|t| t.id > after).collect())
    });
    let mut gateway = MockPaymentGateway::new();
    gateway.expect_subscription().returning(|id| {
        Ok(ProviderSubscription {
            id: id.clone(),
            status: if id.as_str() == "sub_2" { SubscriptionState::Canceled } else { SubscriptionState::Active },
            current_period_end: None,
            cancel_at_period_end: false,
            card: None,
            latest_invoice: None,
            row: None,
        })
    });
    gateway.expect_invoices().returning(|id| {
        Ok(match id.as_str() {
            "sub_1" => vec![invoice("in_12", 1, true), invoice("in_11", 1, true)],
            "sub_2" => vec![invoice("in_21", 2, true)],
            _ => vec![invoice("in_32", 3, true), invoice("in_31", 3, true), invoice("in_30", 3, false)],
        })
    });

    let report = reconcile_report(&ledger, &gateway, UnknownPayments::Difference, 100).await.unwrap();

    let differing: Vec<(i64, Option<(SubscriptionState, i64)>)> =
        report.subscription_differences.iter().map(|d| (d.id, d.provider)).collect();
    assert_eq!(differing, vec![(2, Some((SubscriptionState::Canceled, 1))), (3, Some((SubscriptionState::Active, 2)))]);
}

#[tokio::test]
async fn a_transfer_cancelled_at_its_deadline_whose_payment_stays_open_is_no_difference_but_a_card_would_be() {
    let ledger = ledger(vec![
        sale(1, ROSE, PayType::BankTransfer, SaleStatus::Canceled),
        sale(2, ROSE, PayType::Card, SaleStatus::Canceled),
    ]);
    let gateway =
        provider(vec![payment(1, IntentStatus::RequiresAction, 0), payment(2, IntentStatus::RequiresAction, 0)]);

    let report = reconcile_report(&ledger, &gateway, UnknownPayments::Difference, 100).await.unwrap();

    assert_eq!(report.differences.iter().map(|d| d.sale).collect::<Vec<_>>(), vec![SaleId(2)]);
}
