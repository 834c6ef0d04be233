#![allow(clippy::unwrap_used, clippy::expect_used)]
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use chrono::{Duration, TimeZone};
use domain::news::{NewsAudience, MSG_RETURN_UNKNOWN, MSG_TITLE_REQUIRED};

use super::*;
use crate::admin::audit::MockAuditLog;
use crate::clock::MockClock;
use crate::html::MockHtmlSanitizer;

const ADMIN: UserId = UserId(1);
const PROJECT: ProjectId = ProjectId(7);
const NEWS: i64 = 40;

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 12, 1, 3, 0, 0).unwrap()
}

fn clock() -> MockClock {
    let mut clock = MockClock::new();
    clock.expect_now().returning(now);
    clock
}

fn sanitizer() -> MockHtmlSanitizer {
    let mut html = MockHtmlSanitizer::new();
    html.expect_sanitize().returning(|s| s.replace("<script>x</script>", ""));
    html
}

fn project() -> NewsProject {
    NewsProject {
        title: "桐生の織機".into(), slug: "kiryu-looms".into(), returns: vec![ReturnId(70), ReturnId(71)]
    }
}

fn terms(mail: bool) -> NewsTerms {
    NewsTerms {
        title: "織機が届きました".into(),
        body: "<p>報告</p><script>x</script>".into(),
        audience: NewsAudience::Public,
        mail_supporters: mail,
    }
}

fn form(mail: bool, publish: bool, at: Option<DateTime<Utc>>) -> NewsForm {
    NewsForm { terms: terms(mail), publish, publish_at: at }
}

fn stored(published_at: Option<DateTime<Utc>>, mail: bool, mail_id: Option<i64>) -> AuthoredNews {
    AuthoredNews {
        id: NEWS,
        project_id: PROJECT,
        terms: NewsTerms { body: "<p>報告</p>".into(), ..terms(mail) },
        published_at,
        mail_id,
        mail_queued_at: mail_id.map(|_| now()),
        updated_at: now(),
        updated_by: Some(ADMIN),
    }
}

fn audit_of(kinds: &'static [AdminActionKind]) -> MockAuditLog {
    let mut audit = MockAuditLog::new();
    for kind in kinds {
        audit
            .expect_record()
            .withf(move |a| a.kind == *kind && a.project_id == Some(PROJECT))
            .times(1)
            .returning(|_| Ok(1));
    }
    audit
}

fn service(
    repo: MockProjectNewsRepository,
    audit: MockAuditLog,
) -> (NewsAuthoring<MockProjectNewsRepository, MockAuditLog, MockClock, MockHtmlSanitizer>, Arc<AtomicU32>) {
    let woken = Arc::new(AtomicU32::new(0));
    let counter = Arc::clone(&woken);
    let service = NewsAuthoring::new(repo, audit, clock(), sanitizer(), "https://example.jp".into(), move || {
        counter.fetch_add(1, Ordering::SeqCst);
    });
    (service, woken)
}

fn created_mail() -> Option<CreatedMail> {
    Some(CreatedMail { id: 900, emails: vec!["a@example.jp".into()] })
}

#[tokio::test]
async fn a_draft_is_saved_without_a_time_sanitised_and_logged_and_nothing_is_mailed() {
    let mut repo = MockProjectNewsRepository::new();
    repo.expect_project().returning(|_| Ok(project()));
    repo.expect_create()
        .withf(|p, t, at, admin, _| *p == PROJECT && t.body == "<p>報告</p>" && at.is_none() && *admin == ADMIN)
        .times(1)
        .returning(|_, _, _, _, _| Ok(NEWS));
    repo.expect_get().returning(|_, _| Ok(stored(None, true, None)));
    repo.expect_queue_mail().never();
    let (service, woken) = service(repo, audit_of(&[AdminActionKind::NewsCreated]));

    let view = service.create(ADMIN, PROJECT, form(true, false, None)).await.unwrap();

    assert_eq!(view.state, NewsState::Draft);
    assert_eq!(woken.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn publishing_now_with_the_mail_box_queues_the_mail_once_and_wakes_the_sender() {
    let mut repo = MockProjectNewsRepository::new();
    repo.expect_project().returning(|_| Ok(project()));
    repo.expect_create().withf(|_, _, at, _, _| *at == Some(now())).returning(|_, _, _, _, _| Ok(NEWS));
    repo.expect_get().returning(|_, _| Ok(stored(Some(now()), true, None)));
    repo.expect_queue_mail()
        .withf(|id, mail, kind, _, _| {
            *id == NEWS
                && kind == SEND_MASS_MAIL
                && mail.subject == "【活動報告】織機が届きました"
                && mail.content.contains("https://example.jp/projects/kiryu-looms/")
                && !mail.content.contains("<script>")
        })
        .times(1)
        .returning(|_, _, _, _, _| Ok(created_mail()));
    let (service, woken) = service(repo, audit_of(&[AdminActionKind::NewsCreated, AdminActionKind::MailSent]));

    let view = service.create(ADMIN, PROJECT, form(true, true, None)).await.unwrap();

    assert_eq!(view.state, NewsState::Published);
    assert_eq!(woken.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_scheduled_item_is_not_mailed_when_saved() {
    let later = now() + Duration::hours(5);
    let mut repo = MockProjectNewsRepository::new();
    repo.expect_project().returning(|_| Ok(project()));
    repo.expect_create().withf(move |_, _, at, _, _| *at == Some(later)).returning(|_, _, _, _, _| Ok(NEWS));
    repo.expect_get().returning(move |_, _| Ok(stored(Some(later), true, None)));
    repo.expect_queue_mail().never();
    let (service, _) = service(repo, audit_of(&[AdminActionKind::NewsCreated]));

    let view = service.create(ADMIN, PROJECT, form(true, true, Some(later))).await.unwrap();

    assert_eq!(view.state, NewsState::Scheduled);
}

#[tokio::test]
async fn the_sweep_mails_a_scheduled_item_that_became_public_and_an_already_mailed_one_is_skipped() {
    let mut repo = MockProjectNewsRepository::new();
    repo.expect_mails_due().returning(|_, _| Ok(vec![(PROJECT, NEWS), (PROJECT, NEWS + 1)]));
    repo.expect_get().returning(|_, id| {
        Ok(if id == NEWS { stored(Some(now()), true, None) } else { stored(Some(now()), true, Some(5)) })
    });
    repo.expect_project().returning(|_| Ok(project()));
    repo.expect_queue_mail().withf(|id, _, _, _, _| *id == NEWS).times(1).returning(|_, _, _, _, _| Ok(created_mail()));
    let (service, _) = service(repo, audit_of(&[AdminActionKind::MailSent]));

    assert_eq!(service.mail_due().await.unwrap(), 1);
}

#[tokio::test]
async fn a_mail_another_process_queued_first_counts_as_not_queued_here() {
    let mut repo = MockProjectNewsRepository::new();
    repo.expect_mails_due().returning(|_, _| Ok(vec![(PROJECT, NEWS)]));
    repo.expect_get().returning(|_, _| Ok(stored(Some(now()), true, None)));
    repo.expect_project().returning(|_| Ok(project()));
    repo.expect_queue_mail().times(1).returning(|_, _, _, _, _| Ok(None));
    let (service, woken) = service(repo, MockAuditLog::new());

    assert_eq!(service.mail_due().await.unwrap(), 0);
    assert_eq!(woken.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn an_edit_logs_what_changed_from_what_to_what_and_keeps_the_publication_time() {
    let earlier = now() - Duration::days(1);
    let mut repo = MockProjectNewsRepository::new();
    repo.expect_project().returning(|_| Ok(project()));
    repo.expect_get().returning(move |_, _| Ok(stored(Some(earlier), false, None)));
    repo.expect_update()
        .withf(move |_, _, _, at, _, _| *at == Some(earlier))
        .times(1)
        .returning(|_, _, _, _, _, _| Ok(()));
    let mut audit = MockAuditLog::new();
    audit
        .expect_record()
        .withf(|a| {
            a.kind == AdminActionKind::NewsUpdated
                && a.detail["changes"]["audience"] == json!(["public", "supporters"])
                && a.detail["changes"]["returnIds"] == json!([[], [70]])
                && a.detail["changes"].get("title").is_none()
                && a.detail["projectTitle"] == "桐生の織機"
        })
        .times(1)
        .returning(|_| Ok(1));
    let (service, _) = service(repo, audit);
    let next = NewsForm {
        terms: NewsTerms { audience: NewsAudience::Supporters { returns: vec![ReturnId(70)] }, ..terms(false) },
        publish: true,
        publish_at: None,
    };

    service.update(ADMIN, PROJECT, NEWS, next).await.unwrap();
}

#[tokio::test]
async fn a_blank_title_and_a_return_of_another_project_are_refused_and_nothing_is_written() {
    let mut repo = MockProjectNewsRepository::new();
    repo.expect_project().returning(|_| Ok(project()));
    repo.expect_create().never();
    let (service, _) = service(repo, MockAuditLog::new());
    let bad = NewsForm {
        terms: NewsTerms {
            title: " ".into(),
            audience: NewsAudience::Supporters { returns: vec![ReturnId(999)] },
            ..terms(false)
        },
        publish: true,
        publish_at: None,
    };

    let Err(AuthoringError::Invalid(errors)) = service.create(ADMIN, PROJECT, bad).await else { panic!() };
    assert_eq!(errors[0].message, MSG_TITLE_REQUIRED);
    assert_eq!(errors[1].message, MSG_RETURN_UNKNOWN);
}

#[tokio::test]
async fn an_item_of_another_project_is_not_found_and_not_deleted() {
    let mut repo = MockProjectNewsRepository::new();
    repo.expect_project().returning(|_| Ok(project()));
    repo.expect_get().returning(|_, _| Err(RepoError::NotFound));
    repo.expect_delete().never();
    let (service, _) = service(repo, MockAuditLog::new());

    assert!(matches!(service.delete(ADMIN, PROJECT, 12345).await, Err(AuthoringError::NotFound)));
}

#[tokio::test]
async fn deleting_an_item_is_logged_with_its_title() {
    let mut repo = MockProjectNewsRepository::new();
    repo.expect_project().returning(|_| Ok(project()));
    repo.expect_get().returning(|_, _| Ok(stored(None, false, None)));
    repo.expect_delete().times(1).returning(|_, _| Ok(()));
    let mut audit = MockAuditLog::new();
    audit
        .expect_record()
        .withf(|a| a.kind == AdminActionKind::NewsDeleted && a.detail["title"] == "織機が届きました")
        .times(1)
        .returning(|_| Ok(1));
    let (service, _) = service(repo, audit);

    service.delete(ADMIN, PROJECT, NEWS).await.unwrap();
}
