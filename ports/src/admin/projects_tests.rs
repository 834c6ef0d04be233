#![allow(clippy::unwrap_used, clippy::expect_used)]
use chrono::{Duration, NaiveDate, TimeZone};
use domain::authoring::{TaxHandling, MSG_BACKED_DELETE, MSG_NO_RETURN};
use domain::money::Yen;
use domain::project::FundingModel;
use domain::returns::ReturnType;
use mockall::predicate::eq;

use super::*;
use crate::admin::audit::MockAuditLog;
use crate::clock::MockClock;
use crate::html::MockHtmlSanitizer;

const ADMIN: UserId = UserId(1);
const ID: ProjectId = ProjectId(7);

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 12, 1, 3, 0, 0).unwrap()
}

fn clock() -> MockClock {
    let mut clock = MockClock::new();
    clock.expect_now().returning(now);
    clock
}

/// Strips `<script>` the way the real sanitiser would, enough to see that the story goes through it.
fn sanitizer() -> MockHtmlSanitizer {
    let mut html = MockHtmlSanitizer::new();
    html.expect_sanitize().returning(|s| s.replace("<script>x</script>", ""));
    html
}

fn audit(kind: AdminActionKind) -> MockAuditLog {
    let mut audit = MockAuditLog::new();
    audit.expect_record().withf(move |a| a.kind == kind && a.project_id == Some(ID)).times(1).returning(|_| Ok(1));
    audit
}

fn terms() -> ProjectTerms {
    ProjectTerms {
        slug: "kiryu-looms".into(),
        title: "桐生の織機".into(),
        lead: "織機を直します。".into(),
        story: "<p>物語</p>".into(),
        goal: Yen(500_000),
        period_end: NaiveDate::from_ymd_opt(2027, 1, 31).unwrap(),
        funding_model: FundingModel::AllOrNothing,
        tax: TaxHandling::Inclusive,
        accepts_card: true,
        accepts_bank_transfer: true,
        accepts_konbini: false,
        area_id: None,
        category_id: None,
        owner_email: None,
        donation_payout_date: None,
    }
}

fn a_return(lots_taken: i32) -> AuthoredReturn {
    AuthoredReturn {
        id: ReturnId(70),
        slug: "r70".into(),
        position: 1,
        terms: ReturnTerms {
            title: "手ぬぐい".into(),
            description: "桐生織の手ぬぐいを1枚お送りします。".into(),
            price: Yen(3000),
            return_type: ReturnType::Individual,
            stock_limit: Some(50),
            lot_fixed: false,
            address_required: true,
            address_label: Some("お届け先".into()),
            disabled: false,
            disabled_comment: None,
            hidden: false,
            delivery_month: None,
            monthly: false,
            course: None,
            only_for: None,
        },
        lots_taken,
    }
}

fn stored(published_at: Option<DateTime<Utc>>, returns: Vec<AuthoredReturn>) -> AuthoredProject {
    AuthoredProject { id: ID, terms: terms(), published_at, end_extensions: 0, raised: PaidSum::default(), returns }
}

fn repo_with(project: AuthoredProject) -> MockProjectAuthoringRepository {
    let mut repo = MockProjectAuthoringRepository::new();
    repo.expect_project().with(eq(ID)).returning(move |_| Ok(project.clone()));
    repo
}

#[tokio::test]
async fn a_new_draft_has_its_story_sanitised_and_is_logged() {
    let mut repo = repo_with(stored(None, vec![]));
    repo.expect_create()
        .withf(|t, _| t.story == "<p>物語</p>" && t.title == "桐生の織機")
        .times(1)
        .returning(|_, _| Ok(ID));
    let service = ProjectAuthoring::new(repo, audit(AdminActionKind::ProjectCreated), clock(), sanitizer());

    let view =
        service.create(ADMIN, ProjectTerms { story: "<p>物語</p><script>x</script>".into(), ..terms() }).await.unwrap();

    assert_eq!(view.state, ProjectState::Draft);
}

#[tokio::test]
async fn a_taken_slug_is_named_on_the_slug_field() {
    let mut repo = MockProjectAuthoringRepository::new();
    repo.expect_create().returning(|_, _| Err(RepoError::Conflict("projects_slug_key".into())));
    let service = ProjectAuthoring::new(repo, MockAuditLog::new(), clock(), sanitizer());

    let Err(AuthoringError::Invalid(errors)) = service.create(ADMIN, terms()).await else { panic!("refused") };
    assert_eq!((errors[0].field, errors[0].message.as_str()), ("slug", MSG_SLUG_TAKEN));
}

#[tokio::test]
async fn a_published_goal_is_refused_and_nothing_is_written_or_logged() {
    let mut repo = repo_with(stored(Some(now() - Duration::days(3)), vec![a_return(0)]));
    repo.expect_update().never();
    let service = ProjectAuthoring::new(repo, MockAuditLog::new(), clock(), sanitizer());

    let result = service.update(ADMIN, ID, ProjectTerms { goal: Yen(900_000), ..terms() }).await;

    let Err(AuthoringError::Invalid(errors)) = result else { panic!("refused") };
    assert_eq!(errors[0].message, "公開後は目標金額を変更できません。");
}

#[tokio::test]
async fn extending_a_published_end_counts_an_extension_and_logs_the_change() {
    let mut repo = repo_with(stored(Some(now() - Duration::days(3)), vec![a_return(0)]));
    repo.expect_update()
        .withf(|_, _, next, extended, _| *extended && next.period_end.to_string() == "2027-02-14")
        .times(1)
        .returning(|_, _, _, _, _| Ok(()));
    let mut log = MockAuditLog::new();
    log.expect_record()
        .withf(|a| {
            a.kind == AdminActionKind::ProjectUpdated
                && a.detail["changes"]["periodEnd"] == json!(["2027-01-31", "2027-02-14"])
                && a.detail["changes"].get("goal").is_none()
        })
        .times(1)
        .returning(|_| Ok(1));
    let service = ProjectAuthoring::new(repo, log, clock(), sanitizer());

    let later = ProjectTerms { period_end: NaiveDate::from_ymd_opt(2027, 2, 14).unwrap(), ..terms() };
    service.update(ADMIN, ID, later).await.unwrap();
}

#[tokio::test]
async fn a_project_without_returns_is_not_published() {
    let mut repo = repo_with(stored(None, vec![]));
    repo.expect_publish().never();
    let service = ProjectAuthoring::new(repo, MockAuditLog::new(), clock(), sanitizer());

    let Err(AuthoringError::Invalid(errors)) = service.publish(ADMIN, ID, None).await else { panic!("refused") };
    assert_eq!(errors[0].message, MSG_NO_RETURN);
}

#[tokio::test]
async fn a_future_time_schedules_and_a_past_one_publishes_now() {
    let later = now() + Duration::hours(5);
    for (asked, expected) in [(Some(later), later), (Some(now() - Duration::hours(1)), now()), (None, now())] {
        let mut repo = repo_with(stored(None, vec![a_return(0)]));
        repo.expect_publish().with(eq(ID), eq(expected), eq(now())).times(1).returning(|_, _, _| Ok(()));
        let service = ProjectAuthoring::new(repo, audit(AdminActionKind::ProjectPublished), clock(), sanitizer());
        service.publish(ADMIN, ID, asked).await.unwrap();
    }
}

#[tokio::test]
async fn a_backed_return_keeps_its_price_and_is_not_deleted() {
    let mut repo = repo_with(stored(Some(now() - Duration::days(3)), vec![a_return(2)]));
    repo.expect_update_return().never();
    repo.expect_delete_return().never();
    let service = ProjectAuthoring::new(repo, MockAuditLog::new(), clock(), sanitizer());

    let dearer = ReturnTerms { price: Yen(4000), ..a_return(2).terms };
    let Err(AuthoringError::Invalid(errors)) = service.update_return(ADMIN, ID, ReturnId(70), dearer).await else {
        panic!("refused")
    };
    assert_eq!(errors[0].message, "支援のあるリターンの金額は変更できません。");
    let Err(AuthoringError::Invalid(errors)) = service.delete_return(ADMIN, ID, ReturnId(70)).await else {
        panic!("refused")
    };
    assert_eq!(errors[0].message, MSG_BACKED_DELETE);
}

#[tokio::test]
async fn a_backed_return_stays_monthly_and_its_course_and_audience_changes_are_logged() {
    let monthly =
        AuthoredReturn { terms: ReturnTerms { monthly: true, stock_limit: None, ..a_return(2).terms }, ..a_return(2) };
    let mut repo = repo_with(stored(Some(now() - Duration::days(3)), vec![monthly.clone()]));
    repo.expect_update_return()
        .withf(|_, _, _, next, _| {
            next.course.as_deref() == Some("A") && next.only_for.as_deref() == Some("vip@example.jp")
        })
        .times(1)
        .returning(|_, _, _, _, _| Ok(()));
    let mut log = MockAuditLog::new();
    log.expect_record()
        .withf(|a| {
            a.detail["changes"]["course"] == json!([null, "A"])
                && a.detail["changes"]["onlyFor"] == json!([null, "vip@example.jp"])
                && a.detail["changes"].get("monthly").is_none()
        })
        .times(1)
        .returning(|_| Ok(1));
    let service = ProjectAuthoring::new(repo, log, clock(), sanitizer());

    let once = ReturnTerms { monthly: false, ..monthly.terms.clone() };
    let Err(AuthoringError::Invalid(errors)) = service.update_return(ADMIN, ID, ReturnId(70), once).await else {
        panic!("refused")
    };
    assert_eq!(errors[0].field, "monthly");
    let in_course =
        ReturnTerms { course: Some("A".into()), only_for: Some("VIP@example.jp".into()), ..monthly.terms.clone() };
    service.update_return(ADMIN, ID, ReturnId(70), in_course).await.unwrap();
}

#[tokio::test]
async fn a_return_of_another_project_is_not_found() {
    let repo = repo_with(stored(None, vec![a_return(0)]));
    let service = ProjectAuthoring::new(repo, MockAuditLog::new(), clock(), sanitizer());

    let result = service.delete_return(ADMIN, ID, ReturnId(71)).await;

    assert!(matches!(result, Err(AuthoringError::NotFound)), "{result:?}");
}

#[tokio::test]
async fn the_list_filters_by_state_and_flags_what_needs_attention() {
    let mut repo = MockProjectAuthoringRepository::new();
    let row = |id, published_at, end: &str, returns| ProjectSummaryRecord {
        id: ProjectId(id),
        slug: format!("p{id}"),
        title: format!("P{id}"),
        published_at,
        period_end: end.parse().unwrap(),
        goal: Yen(100),
        raised: PaidSum::default(),
        returns,
    };
    let rows = vec![
        row(1, None, "2027-03-01", 0),
        row(2, Some(now() - Duration::days(1)), "2026-12-04", 2),
        row(3, Some(now() - Duration::days(90)), "2026-10-01", 1),
    ];
    repo.expect_summaries().returning(move || Ok(rows.clone()));
    let service = ProjectAuthoring::new(repo, MockAuditLog::new(), clock(), sanitizer());

    let all = service.list(None).await.unwrap();
    assert_eq!(
        all.iter().map(|s| s.state).collect::<Vec<_>>(),
        [ProjectState::Draft, ProjectState::Open, ProjectState::Ended]
    );
    assert_eq!(all[0].attention, ["リターンがありません"]);
    assert_eq!(all[1].attention, ["終了まであと3日"]);
    let open = service.list(Some(ProjectState::Open)).await.unwrap();
    assert_eq!(open.iter().map(|s| s.record.id).collect::<Vec<_>>(), [ProjectId(2)]);
}

#[tokio::test]
async fn only_a_scheduled_publication_is_taken_back() {
    let mut repo = repo_with(stored(Some(now() + Duration::hours(2)), vec![a_return(0)]));
    repo.expect_unschedule().with(eq(ID), eq(now())).times(1).returning(|_, _| Ok(()));
    let service = ProjectAuthoring::new(repo, audit(AdminActionKind::ProjectUnscheduled), clock(), sanitizer());
    service.unschedule(ADMIN, ID).await.unwrap();

    let mut public = repo_with(stored(Some(now() - Duration::hours(2)), vec![a_return(0)]));
    public.expect_unschedule().never();
    let service = ProjectAuthoring::new(public, MockAuditLog::new(), clock(), sanitizer());
    let Err(AuthoringError::Invalid(errors)) = service.unschedule(ADMIN, ID).await else { panic!("refused") };
    assert_eq!(errors[0].field, "state");
}
