use super::*;
use crate::admin::audit::MockAuditLog;
use crate::clock::MockClock;
use crate::html::MockHtmlSanitizer;
use crate::jobs::{ClaimedJob, MockJobQueue};
use crate::mailer::MockRichMailer;
use chrono::TimeZone;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 26, 3, 0, 0).unwrap()
}

fn clock() -> MockClock {
    let mut clock = MockClock::new();
    clock.expect_now().return_const(now());
    clock
}

fn tokens() -> MockOptOutTokens {
    let mut tokens = MockOptOutTokens::new();
    tokens.expect_issue().returning(|user| format!("signed-{user}"));
    tokens.expect_verify().returning(|token| token.strip_prefix("signed-").and_then(|id| id.parse().ok()).map(UserId));
    tokens
}

fn form(title: &str, content: &str) -> MailForm {
    MailForm { project_id: None, to_all_members: None, title: title.into(), content: content.into() }
}

fn service(
    repo: MockMassMailRepository,
    sanitizer: MockHtmlSanitizer,
    audit: MockAuditLog,
    woken: Arc<AtomicUsize>,
) -> MassMailService<MockMassMailRepository, MockHtmlSanitizer, MockAuditLog, MockOptOutTokens, MockClock> {
    MassMailService::new(repo, sanitizer, audit, tokens(), clock(), move || {
        woken.fetch_add(1, Ordering::SeqCst);
    })
}

fn stripping_sanitizer() -> MockHtmlSanitizer {
    let mut sanitizer = MockHtmlSanitizer::new();
    sanitizer.expect_sanitize().returning(|html| html.replace("<script>alert(1)</script>", ""));
    sanitizer
}

#[tokio::test]
async fn a_form_without_title_and_body_gets_both_messages_and_stores_nothing() {
    let mut repo = MockMassMailRepository::new();
    repo.expect_create().never();
    let mut audit = MockAuditLog::new();
    audit.expect_record().never();
    let mails = service(repo, stripping_sanitizer(), audit, Arc::default());

    let Err(MassMailError::Invalid(errors)) = mails.register(UserId(1), form(" ", "<p><br></p>")).await else {
        panic!("accepted an empty form");
    };

    let messages: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert_eq!(messages, ["タイトルを入力してください。", "内容を入力してください。"]);
}

#[tokio::test]
async fn a_body_that_is_only_a_script_is_empty_once_sanitised() {
    let mut repo = MockMassMailRepository::new();
    repo.expect_create().never();
    let mails = service(repo, stripping_sanitizer(), MockAuditLog::new(), Arc::default());

    let result = mails.register(UserId(1), form("お知らせ", "<script>alert(1)</script>")).await;

    assert!(matches!(result, Err(MassMailError::Invalid(e)) if e == [MailDraftError::ContentRequired]));
}

#[tokio::test]
async fn a_mail_is_stored_sanitised_with_its_job_logged_and_the_worker_woken() {
    let mut repo = MockMassMailRepository::new();
    repo.expect_count_recipients()
        .withf(|segment| *segment == MailSegment::ProjectSupporters(ProjectId(7)))
        .returning(|_| Ok(2));
    repo.expect_create()
        .withf(|mail, kind, max| {
            mail.content == "<p>本文</p>"
                && mail.segment == MailSegment::ProjectSupporters(ProjectId(7))
                && mail.title == "お知らせ"
                && kind == SEND_MASS_MAIL
                && *max == MASS_MAIL_MAX_ATTEMPTS
        })
        .times(1)
        .returning(|_, _, _| Ok(CreatedMail { id: 9, emails: vec!["a@example.jp".into(), "b@example.jp".into()] }));
    let mut audit = MockAuditLog::new();
    audit
        .expect_record()
        .withf(|a| {
            a.kind == AdminActionKind::MailSent
                && a.mail_id == Some(9)
                && a.project_id == Some(ProjectId(7))
                && a.detail["recipients"] == 2
        })
        .times(1)
        .returning(|_| Ok(1));
    let woken = Arc::new(AtomicUsize::new(0));
    let mails = service(repo, stripping_sanitizer(), audit, Arc::clone(&woken));
    let mut form = form(" お知らせ ", "<p>本文</p><script>alert(1)</script>");
    form.project_id = Some(ProjectId(7));

    let created = mails.register(UserId(1), form).await.unwrap();

    assert_eq!(created.emails, ["a@example.jp", "b@example.jp"]);
    assert_eq!(woken.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn nobody_to_mail_is_refused_before_anything_is_stored() {
    let mut repo = MockMassMailRepository::new();
    repo.expect_count_recipients().returning(|_| Ok(0));
    repo.expect_create().never();
    let mails = service(repo, stripping_sanitizer(), MockAuditLog::new(), Arc::default());

    assert!(matches!(mails.register(UserId(1), form("件名", "<p>本文</p>")).await, Err(MassMailError::NoRecipients)));
}

#[tokio::test]
async fn an_opt_out_needs_a_genuine_token() {
    let mut repo = MockMassMailRepository::new();
    repo.expect_opt_out().withf(|user, _| *user == UserId(5)).times(1).returning(|_, _| Ok(()));
    let mails = service(repo, stripping_sanitizer(), MockAuditLog::new(), Arc::default());

    assert!(!mails.opt_out("forged-5").await.unwrap());
    assert!(mails.opt_out("signed-5").await.unwrap());
}

fn sender_info() -> SenderInfo {
    SenderInfo {
        site_name: "ぐんまクラウドファンディング".into(),
        public_url: "https://cf.example.jp".into(),
        name: "上毛新聞社".into(),
        postal_address: "群馬県前橋市古市町1-50-21".into(),
        contact: "no-reply@example.jp".into(),
    }
}

fn job(attempts: u32) -> ClaimedJob {
    ClaimedJob {
        id: 3,
        kind: SEND_MASS_MAIL.into(),
        payload: serde_json::json!({"mail_id": 9}),
        attempts,
        max_attempts: MASS_MAIL_MAX_ATTEMPTS,
    }
}

fn recipient(id: i64) -> PendingRecipient {
    PendingRecipient { id, user_id: UserId(100 + id), email: format!("u{id}@example.jp"), attempts: 0 }
}

fn to_send(segment: MailSegment) -> MailToSend {
    MailToSend {
        id: 9,
        title: "お知らせ".into(),
        content: "<p>こんにちは</p>".into(),
        segment,
        status: MailStatus::Queued,
    }
}

/// A repository whose pending list is `ids` until they are sent, then empty.
fn repo_with(ids: Vec<i64>, segment: MailSegment) -> MockMassMailRepository {
    let mut repo = MockMassMailRepository::new();
    repo.expect_mail_to_send().returning(move |_| Ok(Some(to_send(segment))));
    repo.expect_resume().returning(|_| Ok(0));
    let served = Arc::new(Mutex::new(false));
    repo.expect_pending().returning(move |_, _| {
        let mut served = served.lock().unwrap();
        let batch = if *served { Vec::new() } else { ids.iter().copied().map(recipient).collect() };
        *served = true;
        Ok(batch)
    });
    repo.expect_start_try().returning(|_, _| Ok(true));
    repo
}

fn sender(
    queue: MockJobQueue,
    repo: MockMassMailRepository,
    relay: MockRichMailer,
) -> MassMailSender<MockJobQueue, MockMassMailRepository, MockRichMailer, MockOptOutTokens, MockClock> {
    let config = SendingConfig { worker: "test:1".into(), pause: Duration::seconds(5) };
    MassMailSender::new(queue, repo, relay, tokens(), clock(), sender_info(), config)
}

#[tokio::test]
async fn every_recipient_is_mailed_once_recorded_and_the_mail_finished() {
    let mut queue = MockJobQueue::new();
    queue.expect_claim().returning(|_, _, _, _| Ok(Some(job(1))));
    queue.expect_succeed().times(1).returning(|_, _, _| Ok(()));
    let mut repo = repo_with(vec![1, 2, 3], MailSegment::ProjectSupporters(ProjectId(7)));
    repo.expect_mark_sent().times(3).returning(|_, _| Ok(()));
    repo.expect_finish()
        .withf(|id, status, _, _| *id == 9 && *status == MailStatus::Sent)
        .times(1)
        .returning(|_, _, _, _| Ok(()));
    let mut relay = MockRichMailer::new();
    relay
        .expect_send_rich()
        .withf(|m| {
            m.unsubscribe_url.is_none()
                && !m.text_body.contains("配信を停止")
                && m.html_body.contains("<p>こんにちは</p>")
                && m.text_body.starts_with("こんにちは")
                && m.text_body.contains("上毛新聞社")
                && m.text_body.contains("群馬県前橋市古市町1-50-21")
        })
        .times(3)
        .returning(|_| Ok(()));

    assert!(sender(queue, repo, relay).run_next().await.unwrap());
}

#[tokio::test]
async fn a_mail_to_all_members_carries_a_signed_opt_out_link_in_both_parts_and_the_header() {
    let mut queue = MockJobQueue::new();
    queue.expect_claim().returning(|_, _, _, _| Ok(Some(job(1))));
    queue.expect_succeed().returning(|_, _, _| Ok(()));
    let mut repo = repo_with(vec![1], MailSegment::AllMembers);
    repo.expect_mark_sent().returning(|_, _| Ok(()));
    repo.expect_finish().returning(|_, _, _, _| Ok(()));
    let mut relay = MockRichMailer::new();
    relay
        .expect_send_rich()
        .withf(|m| {
            let link = "https://cf.example.jp/mail/optout/?token=signed-101";
            m.unsubscribe_url.as_deref() == Some(link)
                && m.text_body.contains(link)
                && m.html_body.contains(link)
                && m.message_id == "<mass-9-1@cf.example.jp>"
        })
        .times(1)
        .returning(|_| Ok(()));

    sender(queue, repo, relay).run_next().await.unwrap();
}

#[tokio::test]
async fn a_relay_outage_pauses_the_job_with_the_recipient_pending_again() {
    let mut queue = MockJobQueue::new();
    queue.expect_claim().returning(|_, _, _, _| Ok(Some(job(1))));
    queue
        .expect_fail()
        .withf(|ticket, _, retry_at, _| ticket.id == 3 && *retry_at == Some(now() + Duration::seconds(5)))
        .times(1)
        .returning(|_, _, _, _| Ok(()));
    queue.expect_succeed().never();
    let mut repo = repo_with(vec![1, 2, 3], MailSegment::AllMembers);
    repo.expect_mark_sent().withf(|id, _| *id == 1).times(1).returning(|_, _| Ok(()));
    repo.expect_mark_retry().withf(|id, _| *id == 2).times(1).returning(|_, _| Ok(()));
    repo.expect_finish().never();
    let mut relay = MockRichMailer::new();
    let calls = Arc::new(AtomicUsize::new(0));
    relay.expect_send_rich().times(2).returning(move |_| {
        if calls.fetch_add(1, Ordering::SeqCst) == 0 {
            Ok(())
        } else {
            Err(MailError::Delivery("connection refused".into()))
        }
    });

    sender(queue, repo, relay).run_next().await.unwrap();
}

#[tokio::test]
async fn a_recipient_another_worker_took_is_not_mailed() {
    let mut queue = MockJobQueue::new();
    queue.expect_claim().returning(|_, _, _, _| Ok(Some(job(2))));
    queue.expect_succeed().returning(|_, _, _| Ok(()));
    let mut repo = MockMassMailRepository::new();
    repo.expect_mail_to_send().returning(|_| Ok(Some(to_send(MailSegment::AllMembers))));
    repo.expect_resume().returning(|_| Ok(1));
    let served = Arc::new(Mutex::new(false));
    repo.expect_pending().returning(move |_, _| {
        let mut served = served.lock().unwrap();
        let batch = if *served { Vec::new() } else { vec![recipient(1)] };
        *served = true;
        Ok(batch)
    });
    repo.expect_start_try().returning(|_, _| Ok(false));
    repo.expect_finish().returning(|_, _, _, _| Ok(()));
    let mut relay = MockRichMailer::new();
    relay.expect_send_rich().never();

    sender(queue, repo, relay).run_next().await.unwrap();
}

#[tokio::test]
async fn an_address_the_relay_refuses_for_good_is_given_up_and_the_rest_go_on() {
    let mut queue = MockJobQueue::new();
    queue.expect_claim().returning(|_, _, _, _| Ok(Some(job(1))));
    queue.expect_succeed().times(1).returning(|_, _, _| Ok(()));
    let mut repo = repo_with(vec![1, 2], MailSegment::AllMembers);
    repo.expect_give_up().withf(|id, _| *id == 1).times(1).returning(|_, _| Ok(()));
    repo.expect_mark_sent().withf(|id, _| *id == 2).times(1).returning(|_, _| Ok(()));
    repo.expect_finish().returning(|_, _, _, _| Ok(()));
    let mut relay = MockRichMailer::new();
    relay.expect_send_rich().returning(|m| {
        if m.to.as_str() == "u1@example.jp" {
            Err(MailError::Rejected("550 no such user".into()))
        } else {
            Ok(())
        }
    });

    sender(queue, repo, relay).run_next().await.unwrap();
}

#[tokio::test]
async fn the_last_allowed_pause_fails_the_mail_and_gives_the_rest_up() {
    let mut queue = MockJobQueue::new();
    queue.expect_claim().returning(|_, _, _, _| Ok(Some(job(MASS_MAIL_MAX_ATTEMPTS))));
    queue.expect_fail().withf(|_, _, retry_at, _| retry_at.is_none()).times(1).returning(|_, _, _, _| Ok(()));
    let mut repo = repo_with(vec![1], MailSegment::AllMembers);
    repo.expect_mark_retry().returning(|_, _| Ok(()));
    repo.expect_finish().withf(|_, status, _, _| *status == MailStatus::Failed).times(1).returning(|_, _, _, _| Ok(()));
    let mut relay = MockRichMailer::new();
    relay.expect_send_rich().returning(|_| Err(MailError::Delivery("connection refused".into())));

    sender(queue, repo, relay).run_next().await.unwrap();
}

#[test]
fn the_list_excerpt_is_95_characters_of_text_not_markup() {
    let summary = MailSummary {
        id: 1,
        title: "t".into(),
        content: format!("<p><strong>{}</strong></p>", "あ".repeat(120)),
        project_id: None,
        project_title: None,
        sender_email: "a@example.jp".into(),
        sender_name: None,
        progress: Progress { status: MailStatus::Sent, total: 1, sent: 1, failed: 0 },
        created_at: now(),
    };
    assert_eq!(excerpt_of(&summary), format!("{}…", "あ".repeat(95)));
}
