use std::sync::{Arc, Mutex};

use chrono::TimeZone;
use mockall::predicate::eq;

use super::*;
use crate::admin::audit::MockAuditLog;
use crate::clock::MockClock;
use crate::jobs::{ClaimedJob, MockJobQueue};
use crate::mailer::MockMailer;
use crate::payments::gateway::MockPaymentGateway;

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 27, 3, 0, 0).unwrap()
}

fn sale(id: i64, total: i64) -> RefundSale {
    RefundSale {
        id: SaleId(id),
        project_id: ProjectId(1),
        created_at: now(),
        username: None,
        displayname: Some("前橋 花子".into()),
        corporatename: Some("花子商店".into()),
        email: "hanako@example.jp".into(),
        sale_display_name: "花子".into(),
        project_title: "バラ園".into(),
        return_title: "お礼メール".into(),
        course: Some("A".into()),
        lot: 1,
        amount: Yen(total),
        total: Yen(total),
        pay_type: PayType::Card,
        flag: RefundFlag::Refundable,
        refund_required: false,
        refunded: Yen(0),
        unclaimed: Yen(0),
        open_refund: None,
        last_failure: None,
        payment: Some(PaymentId::new(format!("pi_{id}"))),
        connected: true,
    }
}

struct Mocks {
    ledger: MockRefundLedger,
    gateway: MockPaymentGateway,
    queue: MockJobQueue,
    mailer: MockMailer,
    audit: MockAuditLog,
}

impl Mocks {
    fn new() -> Self {
        Self {
            ledger: MockRefundLedger::new(),
            gateway: MockPaymentGateway::new(),
            queue: MockJobQueue::new(),
            mailer: MockMailer::new(),
            audit: MockAuditLog::new(),
        }
    }

    fn service(self) -> RefundService<MockRefundLedger, MockPaymentGateway, MockJobQueue, MockMailer, MockClock> {
        let mut clock = MockClock::new();
        clock.expect_now().returning(now);
        RefundService::new(
            self.ledger,
            self.gateway,
            self.queue,
            self.mailer,
            clock,
            Arc::new(self.audit),
            RefundConfig {
                namespace: KeyNamespace::none(),
                site: SiteInfo {
                    site_name: "上毛クラウドファンディング".into(),
                    public_url: "http://localhost".into(),
                    operator: Default::default(),
                },
                bulk_lease: chrono::Duration::seconds(crate::admin::refunds::BULK_LEASE_SECONDS),
            },
        )
    }
}

fn provider_refund(status: RefundStatus) -> Refund {
    Refund {
        id: RefundId::new("re_1"),
        payment: PaymentId::new("pi_5"),
        amount: Yen(400),
        status,
        failure_reason: None,
    }
}

#[tokio::test]
async fn a_refund_above_what_was_paid_is_refused_before_anything_is_written_or_asked() {
    let mut m = Mocks::new();
    m.ledger.expect_refund_sale().returning(|_| Ok(sale(5, 1_000)));
    m.audit.expect_record().never();
    m.ledger.expect_begin_refund().never();
    m.gateway.expect_refund().never();
    let err = m.service().refund_one(UserId(9), SaleId(5), Some(Yen(1_001))).await.unwrap_err();
    assert_eq!(err.to_string(), "返金額が協賛金額の合計を超えています");
}

#[tokio::test]
async fn an_empty_amount_asks_for_one() {
    let mut m = Mocks::new();
    m.ledger.expect_refund_sale().returning(|_| Ok(sale(5, 1_000)));
    let err = m.service().refund_one(UserId(9), SaleId(5), None).await.unwrap_err();
    assert_eq!(err.to_string(), "返金額を入力してください");
}

#[tokio::test]
async fn a_refund_is_logged_reserved_then_asked_with_its_own_key_and_the_fee_returned() {
    let order = Arc::new(Mutex::new(Vec::new()));
    let mut m = Mocks::new();
    m.ledger.expect_refund_sale().returning(|_| Ok(sale(5, 1_000)));
    let o = Arc::clone(&order);
    m.audit.expect_record().times(1).returning(move |a| {
        assert_eq!(a.sale_id, Some(SaleId(5)));
        assert_eq!(a.detail["amount"], 400);
        o.lock().unwrap().push("audit");
        Ok(1)
    });
    let o = Arc::clone(&order);
    m.ledger.expect_begin_refund().times(1).returning(move |r, _| {
        assert_eq!((r.sale, r.amount, r.job), (SaleId(5), Yen(400), None));
        o.lock().unwrap().push("reserve");
        Ok(9)
    });
    let o = Arc::clone(&order);
    m.gateway.expect_refund().times(1).returning(move |request, key| {
        assert_eq!(key.as_str(), "sale-5-refund-9");
        assert!(request.refund_application_fee && request.reverse_transfer);
        assert_eq!((request.amount, request.instructions_email), (Yen(400), None));
        o.lock().unwrap().push("provider");
        Ok(provider_refund(RefundStatus::Succeeded))
    });
    m.ledger
        .expect_finish_refund()
        .with(eq(9), eq(RefundResult::Succeeded { provider: RefundId::new("re_1") }), eq(now()))
        .times(1)
        .returning(|_, _, _| Ok(true));
    m.mailer.expect_send().times(1).returning(|mail| {
        assert_eq!(mail.to.as_str(), "hanako@example.jp");
        assert!(mail.text_body.contains("400円を返金しました"), "{}", mail.text_body);
        Ok(())
    });

    let outcome = m.service().refund_one(UserId(9), SaleId(5), Some(Yen(400))).await.unwrap();

    assert_eq!(outcome, RefundOutcome::Succeeded);
    assert_eq!(*order.lock().unwrap(), vec!["audit", "reserve", "provider"]);
}

#[tokio::test]
async fn a_refund_the_provider_refuses_is_failed_with_its_reason_and_mails_nobody() {
    let mut m = Mocks::new();
    m.ledger.expect_refund_sale().returning(|_| Ok(sale(5, 1_000)));
    m.audit.expect_record().returning(|_| Ok(1));
    m.ledger.expect_begin_refund().returning(|_, _| Ok(9));
    m.gateway.expect_refund().returning(|_, _| Err(GatewayError::Rejected("HTTP 400: balance_insufficient".into())));
    m.ledger
        .expect_finish_refund()
        .withf(|id, result, _| {
            *id == 9 && matches!(result, RefundResult::Failed { reason, .. } if reason.contains("balance_insufficient"))
        })
        .times(1)
        .returning(|_, _, _| Ok(false));
    m.mailer.expect_send().never();
    let outcome = m.service().refund_one(UserId(9), SaleId(5), Some(Yen(1_000))).await.unwrap();
    assert!(matches!(outcome, RefundOutcome::Failed { reason } if reason.contains("balance_insufficient")));
}

#[tokio::test]
async fn an_unreachable_provider_leaves_the_refund_open_for_the_sweep() {
    let mut m = Mocks::new();
    m.ledger.expect_refund_sale().returning(|_| Ok(sale(5, 1_000)));
    m.audit.expect_record().returning(|_| Ok(1));
    m.ledger.expect_begin_refund().returning(|_, _| Ok(9));
    m.gateway.expect_refund().returning(|_, _| Err(GatewayError::Unavailable("timeout".into())));
    m.ledger.expect_finish_refund().never();
    let outcome = m.service().refund_one(UserId(9), SaleId(5), Some(Yen(1_000))).await.unwrap();
    assert_eq!(outcome, RefundOutcome::Pending);
}

#[tokio::test]
async fn a_bank_transfer_refund_asks_the_supporter_for_an_account_and_waits() {
    let mut m = Mocks::new();
    m.ledger.expect_refund_sale().returning(|_| Ok(RefundSale { pay_type: PayType::BankTransfer, ..sale(5, 1_000) }));
    m.audit.expect_record().returning(|_| Ok(1));
    m.ledger.expect_begin_refund().returning(|_, _| Ok(9));
    m.gateway.expect_refund().returning(|request, _| {
        assert_eq!(request.instructions_email.as_deref(), Some("hanako@example.jp"));
        Ok(provider_refund(RefundStatus::RequiresAction))
    });
    m.ledger
        .expect_finish_refund()
        .withf(|_, result, _| matches!(result, RefundResult::NeedsBankDetails { .. }))
        .returning(|_, _, _| Ok(false));
    m.mailer.expect_send().never();
    let outcome = m.service().refund_one(UserId(9), SaleId(5), Some(Yen(1_000))).await.unwrap();
    assert_eq!(outcome, RefundOutcome::NeedsBankDetails);
}

#[tokio::test]
async fn a_sale_with_a_refund_under_way_cannot_be_refunded_again() {
    let mut m = Mocks::new();
    m.ledger.expect_refund_sale().returning(|_| {
        Ok(RefundSale {
            open_refund: Some(OpenRefund { id: 3, amount: Yen(10), status: OpenRefundStatus::Pending, provider: None }),
            ..sale(5, 1_000)
        })
    });
    m.gateway.expect_refund().never();
    let err = m.service().refund_one(UserId(9), SaleId(5), Some(Yen(1))).await.unwrap_err();
    assert!(matches!(err, RefundError::Rule(RefundRuleError::NotRefundable)));
}

#[tokio::test]
async fn a_bulk_run_plans_only_refundable_sales_and_logs_before_queueing() {
    let mut m = Mocks::new();
    m.ledger.expect_refund_sales().returning(|_| {
        Ok(vec![
            sale(1, 1_001),
            RefundSale { flag: RefundFlag::Refunded, refunded: Yen(500), ..sale(2, 500) },
            sale(3, 3_000),
        ])
    });
    m.audit.expect_record().times(1).returning(|a| {
        assert_eq!(a.detail["sales"], 2);
        assert_eq!(a.detail["amount"], 500 + 1_500);
        Ok(1)
    });
    m.ledger.expect_create_bulk().times(1).returning(|_, _, payload, total| {
        let payload: BulkPayload = serde_json::from_value(payload).unwrap();
        assert_eq!(payload.items, vec![BulkItem { sale: 1, amount: 500 }, BulkItem { sale: 3, amount: 1_500 }]);
        assert_eq!(total, 2);
        Ok(7)
    });
    m.ledger.expect_latest_bulk().returning(|_| {
        Ok(Some(BulkJob {
            id: 7,
            status: "queued".into(),
            mode: 2,
            total: 2,
            done: 0,
            created_at: now(),
            finished_at: None,
            rows: vec![],
        }))
    });
    let job = m.service().start_bulk(UserId(9), ProjectId(1), BulkMode::Half).await.unwrap();
    assert_eq!(job.id, 7);
}

#[tokio::test]
async fn a_bulk_run_while_another_runs_is_refused() {
    let mut m = Mocks::new();
    m.ledger.expect_refund_sales().returning(|_| Ok(vec![sale(1, 1_000)]));
    m.audit.expect_record().returning(|_| Ok(1));
    m.ledger.expect_create_bulk().returning(|_, _, _, _| Err(RepoError::Conflict("bulk_refund_running".into())));
    let err = m.service().start_bulk(UserId(9), ProjectId(1), BulkMode::Full).await.unwrap_err();
    assert_eq!(err.to_string(), MSG_BULK_RUNNING);
}

#[tokio::test]
async fn a_resumed_bulk_job_repeats_its_open_attempt_with_the_same_key_and_skips_finished_ones() {
    let mut m = Mocks::new();
    let payload = BulkPayload {
        project_id: 1,
        admin: Some(9),
        mode: 1,
        items: vec![BulkItem { sale: 1, amount: 100 }, BulkItem { sale: 2, amount: 200 }],
    };
    let value = serde_json::to_value(&payload).unwrap();
    let claimed = value.clone();
    m.queue.expect_claim().returning(move |_, _, _, _| {
        Ok(Some(ClaimedJob { id: 4, kind: BULK_REFUND.into(), payload: claimed.clone(), attempts: 2, max_attempts: 5 }))
    });
    m.ledger.expect_job_refund().with(eq(4), eq(SaleId(1))).returning(|_, _| Ok(Some((11, "succeeded".into()))));
    m.ledger.expect_job_refund().with(eq(4), eq(SaleId(2))).returning(|_, _| Ok(Some((12, "pending".into()))));
    m.ledger.expect_begin_refund().never();
    m.ledger.expect_refund_sale().returning(|id| Ok(sale(id.0, 1_000)));
    m.gateway.expect_refund().times(1).returning(|request, key| {
        assert_eq!(key.as_str(), "sale-2-refund-12");
        assert_eq!(request.amount, Yen(200));
        Ok(provider_refund(RefundStatus::Succeeded))
    });
    m.ledger.expect_finish_refund().times(1).returning(|_, _, _| Ok(true));
    m.mailer.expect_send().times(1).returning(|_| Ok(()));
    m.ledger.expect_set_bulk_progress().times(2).returning(|_, _, _| Ok(()));
    m.queue.expect_succeed().times(1).returning(|_, _, _| Ok(()));
    assert!(m.service().run_next_bulk("w1").await.unwrap());
}

#[test]
fn the_sponsor_name_is_the_first_non_blank_of_username_displayname_corporatename() {
    let mut s = sale(1, 1);
    s.username = Some("  ".into());
    assert_eq!(s.sponsor_name(), "前橋 花子");
    s.displayname = None;
    assert_eq!(s.sponsor_name(), "花子商店");
    s.username = Some("hanako".into());
    assert_eq!(s.sponsor_name(), "hanako");
}

fn waiting(refund: i64, asked: (i32, u32, u32), sent: u32) -> AwaitingAccount {
    AwaitingAccount {
        refund,
        sale: SaleId(refund * 10),
        amount: Yen(3_300),
        provider: RefundId::new(format!("re_{refund}")),
        // Tokyo noon of the day asked.
        asked_at: Utc.with_ymd_and_hms(asked.0, asked.1, asked.2, 3, 0, 0).unwrap(),
        reminders_sent: sent,
        email: format!("bank{refund}@example.jp"),
        name: "山田".into(),
        project_title: "沼田の花".into(),
    }
}

#[tokio::test]
async fn a_waiting_bank_refund_is_reminded_once_per_due_date_and_a_late_job_sends_one_not_a_burst() {
    let mut m = Mocks::new();
    m.ledger.expect_awaiting_account().returning(|_| {
        Ok(vec![
            waiting(1, (2026, 11, 20), 0), // day 7: the first reminder
            waiting(2, (2026, 9, 28), 2),  // day 60: both due ones sent
            waiting(3, (2026, 7, 30), 0),  // day 120, job was down: one mail, the count catches up to 2
            waiting(4, (2026, 11, 21), 0), // day 6: nothing yet
        ])
    });
    let queued = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&queued);
    m.ledger.expect_queue_reminder().times(2).returning(move |refund, sent, owed, payload| {
        log.lock().unwrap().push((refund, sent, owed, payload));
        Ok(true)
    });
    m.gateway.expect_cancel_refund().never();
    m.ledger.expect_mark_unclaimed().never();

    let report = m.service().remind_and_lapse().await.unwrap();

    assert_eq!((report.reminded, report.lapsed, report.answered), (2, 0, 0));
    let queued = queued.lock().unwrap();
    assert_eq!(queued.iter().map(|q| (q.0, q.1, q.2)).collect::<Vec<_>>(), vec![(1, 0, 1), (3, 0, 2)]);
    assert_eq!(queued[0].3["to"], "bank1@example.jp");
    assert_eq!(queued[0].3["subject"], "【上毛クラウドファンディング】返金先口座のご入力のお願い（再送のご案内）");
    let body = queued[0].3["text_body"].as_str().unwrap();
    assert!(body.starts_with("山田 様"), "{body}");
    assert!(
        body.contains("決済事業者（Stripe）から届いた「返金先口座の入力」のメールを開き、メール内のリンクから"),
        "{body}"
    );
    assert!(body.contains("2027年5月20日までにご入力がない場合、利用規約により返金の権利は失われ"), "{body}");
}

#[tokio::test]
async fn a_reminder_another_process_queued_first_is_not_counted_again() {
    let mut m = Mocks::new();
    m.ledger.expect_awaiting_account().returning(|_| Ok(vec![waiting(1, (2026, 11, 20), 0)]));
    m.ledger.expect_queue_reminder().times(1).returning(|_, _, _, _| Ok(false));
    assert_eq!(m.service().remind_and_lapse().await.unwrap().reminded, 0);
}

#[tokio::test]
async fn after_six_months_unanswered_the_refund_is_cancelled_at_the_provider_and_recorded_unclaimed() {
    let mut m = Mocks::new();
    // Asked 2026-05-26: its last day is 2026-11-26, and today (Tokyo) is 2026-11-27.
    m.ledger.expect_awaiting_account().returning(|_| Ok(vec![waiting(5, (2026, 5, 26), 3)]));
    m.gateway
        .expect_cancel_refund()
        .with(eq(RefundId::new("re_5")))
        .times(1)
        .returning(|_| Ok(provider_refund(RefundStatus::Canceled)));
    m.ledger.expect_mark_unclaimed().with(eq(5), eq(now())).times(1).returning(|_, _| Ok(true));
    m.ledger.expect_finish_refund().never();
    m.ledger.expect_queue_reminder().never();
    m.mailer.expect_send().never();

    let report = m.service().remind_and_lapse().await.unwrap();

    assert_eq!((report.reminded, report.lapsed, report.answered), (0, 1, 0));
}

#[tokio::test]
async fn a_lapse_cancelled_at_the_provider_before_a_crash_is_recorded_unclaimed_on_the_next_run() {
    let mut m = Mocks::new();
    m.ledger.expect_awaiting_account().returning(|_| Ok(vec![waiting(5, (2026, 5, 26), 3)]));
    // The first run's cancel went through; repeated, the provider refuses it.
    m.gateway
        .expect_cancel_refund()
        .times(1)
        .returning(|_| Err(GatewayError::Rejected("This refund cannot be canceled.".into())));
    m.gateway
        .expect_refund_status()
        .with(eq(RefundId::new("re_5")))
        .times(1)
        .returning(|_| Ok(provider_refund(RefundStatus::Canceled)));
    m.ledger.expect_mark_unclaimed().with(eq(5), eq(now())).times(1).returning(|_, _| Ok(true));
    m.ledger.expect_finish_refund().never();

    let report = m.service().remind_and_lapse().await.unwrap();

    assert_eq!((report.reminded, report.lapsed, report.answered), (0, 1, 0));
}

#[tokio::test]
async fn the_last_day_still_waits_and_a_supporter_who_answered_before_the_cancel_is_refunded_as_usual() {
    let mut m = Mocks::new();
    m.ledger.expect_awaiting_account().returning(|_| {
        Ok(vec![
            waiting(6, (2026, 5, 27), 3), // its last day is today: still waits, nothing due
            waiting(7, (2026, 5, 20), 3), // lapsed, but the supporter answered meanwhile
        ])
    });
    m.gateway
        .expect_cancel_refund()
        .with(eq(RefundId::new("re_7")))
        .times(1)
        .returning(|_| Ok(provider_refund(RefundStatus::Succeeded)));
    m.ledger.expect_mark_unclaimed().never();
    m.ledger
        .expect_finish_refund()
        .withf(|refund, result, _| *refund == 7 && matches!(result, RefundResult::Succeeded { .. }))
        .times(1)
        .returning(|_, _, _| Ok(true));
    m.ledger.expect_refund_sale().returning(|_| Ok(RefundSale { pay_type: PayType::BankTransfer, ..sale(70, 3_300) }));
    m.mailer.expect_send().times(1).returning(|mail| {
        assert_eq!(mail.subject, "【上毛クラウドファンディング】ご支援の返金のお知らせ");
        Ok(())
    });

    let report = m.service().remind_and_lapse().await.unwrap();

    assert_eq!((report.reminded, report.lapsed, report.answered), (0, 0, 1));
}
