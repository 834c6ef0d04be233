#![allow(clippy::unwrap_used, clippy::expect_used)]
use chrono::{NaiveDate, TimeZone};
use domain::manual_sponsor::{MSG_LIST_CHANGED, MSG_LOGO_REQUIRED, MSG_NOT_MOVABLE};
use domain::money::Yen;
use domain::profile::ImageKind;
use domain::project_content::ContentFieldError;

use super::*;
use crate::admin::audit::MockAuditLog;
use crate::clock::MockClock;
use crate::media::{MockMediaStorage, StoredMedia};

const ADMIN: UserId = UserId(1);
const ID: ProjectId = ProjectId(7);
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n0000";

fn clock() -> MockClock {
    let mut clock = MockClock::new();
    // 2026-12-01 12:00 in Tokyo.
    clock.expect_now().returning(|| Utc.with_ymd_and_hms(2026, 12, 1, 3, 0, 0).unwrap());
    clock
}

fn entry(id: i64, course: ManualCourse, name: &str, amount: Option<i64>, position: i32) -> ManualSponsorEntry {
    ManualSponsorEntry {
        id,
        sponsor: ManualSponsor { course, name: name.into(), link: None, amount: amount.map(Yen), latest_date: None },
        logo_src: course.shows_logo().then(|| format!("/media/projects/7/sponsors/{id}.png")),
        position,
    }
}

fn stored() -> ManualSponsorList {
    ManualSponsorList {
        project_id: ID,
        title: "桐生の織機".into(),
        slug: "kiryu-looms".into(),
        uses_manual_sponsors: true,
        entries: vec![
            entry(1, ManualCourse::Supporter, "群馬 太郎", None, 0),
            entry(2, ManualCourse::A, "上毛電機", None, 1),
            entry(3, ManualCourse::A, "赤城食品", None, 0),
            entry(4, ManualCourse::A, "榛名印刷", Some(50_000), 5),
        ],
    }
}

fn repo_with(list: ManualSponsorList) -> MockManualSponsorRepository {
    let mut repo = MockManualSponsorRepository::new();
    repo.expect_list().returning(move |_| Ok(list.clone()));
    repo
}

fn no_audit() -> MockAuditLog {
    let mut audit = MockAuditLog::new();
    audit.expect_record().never();
    audit
}

fn audit_expecting(kind: AdminActionKind, check: impl Fn(&Value) -> bool + Send + 'static) -> MockAuditLog {
    let mut audit = MockAuditLog::new();
    audit
        .expect_record()
        .withf(move |a| {
            a.kind == kind && a.project_id == Some(ID) && a.detail["projectTitle"] == "桐生の織機" && check(&a.detail)
        })
        .times(1)
        .returning(|_| Ok(1));
    audit
}

fn no_media() -> MockMediaStorage {
    let mut media = MockMediaStorage::new();
    media.expect_store_image_fit().never();
    media
}

fn media_storing() -> MockMediaStorage {
    let mut media = MockMediaStorage::new();
    media
        .expect_store_image_fit()
        .withf(|prefix, kind, _, fit| {
            prefix == "projects/7/sponsors" && *kind == ImageKind::Png && *fit == ImageFit::Within(LOGO_EDGE)
        })
        .times(1)
        .returning(|prefix, _, bytes, _| {
            Ok(StoredMedia {
                key: format!("{prefix}/new.png"),
                url: format!("/media/{prefix}/new.png"),
                content_type: "image/png".into(),
                byte_size: bytes.len() as i64,
            })
        });
    media
}

fn form(course: &str, name: &str) -> ManualSponsorForm {
    ManualSponsorForm {
        course: course.into(),
        name: name.into(),
        link: "https://example.jp".into(),
        amount: "30000".into(),
        latest_date: "2026-11-20".into(),
    }
}

#[tokio::test]
async fn the_list_runs_course_by_course_in_the_walls_order() {
    let service = ManualSponsorService::new(repo_with(stored()), no_media(), no_audit(), clock());

    let list = service.list(ID).await.unwrap();

    let names: Vec<&str> = list.entries.iter().map(|e| e.sponsor.name.as_str()).collect();
    assert_eq!(names, vec!["榛名印刷", "赤城食品", "上毛電機", "群馬 太郎"]);
    assert!(!list.can_move(4, Direction::Down), "an amount ranks 榛名印刷 first");
    assert!(list.can_move(3, Direction::Down) && list.can_move(2, Direction::Up));
    assert!(!list.can_move(1, Direction::Up), "the only supporter");
}

#[tokio::test]
async fn a_course_a_entry_with_a_logo_is_stored_re_encoded_and_logged_by_name() {
    let mut repo = repo_with(stored());
    repo.expect_create()
        .withf(|id, sponsor, logo, _| {
            *id == ID
                && sponsor.name == "渋川観光協会"
                && sponsor.amount == Some(Yen(30_000))
                && sponsor.latest_date == NaiveDate::from_ymd_opt(2026, 11, 20)
                && logo.as_deref() == Some("/media/projects/7/sponsors/new.png")
        })
        .times(1)
        .returning(|_, _, _, _| Ok(9));
    let audit = audit_expecting(AdminActionKind::ManualSponsorCreated, |d| {
        d["title"] == "渋川観光協会" && d["sponsorId"] == 9 && d["changes"]["logo"] == json!([null, "new.png"])
    });
    let service = ManualSponsorService::new(repo, media_storing(), audit, clock());

    service.create(ADMIN, ID, form("A", " 渋川観光協会 "), Some(PNG.to_vec())).await.unwrap();
}

#[tokio::test]
async fn a_course_a_entry_without_a_logo_is_refused_before_anything_is_stored() {
    let mut repo = repo_with(stored());
    repo.expect_create().never();
    let service = ManualSponsorService::new(repo, no_media(), no_audit(), clock());

    let Err(ContentError::Invalid(errors)) = service.create(ADMIN, ID, form("A", "渋川観光協会"), None).await
    else {
        panic!("refused")
    };

    assert_eq!(errors, vec![ContentFieldError::new("file", MSG_LOGO_REQUIRED)]);
}

#[tokio::test]
async fn a_file_that_is_not_an_image_is_refused_on_the_file_field() {
    let mut repo = repo_with(stored());
    repo.expect_create().never();
    let service = ManualSponsorService::new(repo, no_media(), no_audit(), clock());

    let result = service.create(ADMIN, ID, form("B", "渋川観光協会"), Some(b"%PDF-1.4".to_vec())).await;

    let Err(ContentError::Invalid(errors)) = result else { panic!("refused") };
    assert_eq!(errors[0].field, "file");
}

#[tokio::test]
async fn a_full_list_takes_no_more_entries() {
    let mut full = stored();
    full.entries = (0..MAX_MANUAL_SPONSORS as i64).map(|i| entry(i, ManualCourse::Supporter, "名", None, 0)).collect();
    let mut repo = repo_with(full);
    repo.expect_create().never();
    let service = ManualSponsorService::new(repo, no_media(), no_audit(), clock());

    let Err(ContentError::Invalid(errors)) = service.create(ADMIN, ID, form("supporter", "新しい人"), None).await
    else {
        panic!("refused")
    };

    assert_eq!(errors, vec![ContentFieldError::new("form", MSG_TOO_MANY)]);
}

#[tokio::test]
async fn an_edit_without_a_file_keeps_the_logo_and_logs_what_changed() {
    let mut repo = repo_with(stored());
    repo.expect_update()
        .withf(|_, id, sponsor, logo, _| *id == 2 && sponsor.name == "上毛電機株式会社" && *logo == LogoChange::Keep)
        .times(1)
        .returning(|_, _, _, _, _| Ok(()));
    let audit = audit_expecting(AdminActionKind::ManualSponsorUpdated, |d| {
        d["changes"]["name"] == json!(["上毛電機", "上毛電機株式会社"]) && d["changes"].get("logo").is_none()
    });
    let service = ManualSponsorService::new(repo, no_media(), audit, clock());

    service.update(ADMIN, ID, 2, form("A", "上毛電機株式会社"), None).await.unwrap();
}

#[tokio::test]
async fn an_entry_moved_to_the_supporters_drops_its_logo() {
    let mut repo = repo_with(stored());
    repo.expect_update()
        .withf(|_, id, sponsor, logo, _| {
            *id == 2 && sponsor.course == ManualCourse::Supporter && *logo == LogoChange::Clear
        })
        .times(1)
        .returning(|_, _, _, _, _| Ok(()));
    let audit =
        audit_expecting(AdminActionKind::ManualSponsorUpdated, |d| d["changes"]["logo"] == json!(["2.png", null]));
    let service = ManualSponsorService::new(repo, no_media(), audit, clock());

    service.update(ADMIN, ID, 2, form("supporter", "上毛電機"), None).await.unwrap();
}

#[tokio::test]
async fn an_entry_of_another_project_is_not_found_and_nothing_is_written() {
    let mut repo = repo_with(stored());
    repo.expect_update().never();
    repo.expect_delete().never();
    let service = ManualSponsorService::new(repo, no_media(), no_audit(), clock());

    assert!(matches!(service.update(ADMIN, ID, 99, form("A", "x"), None).await, Err(ContentError::NotFound)));
    assert!(matches!(service.delete(ADMIN, ID, 99).await, Err(ContentError::NotFound)));
}

#[tokio::test]
async fn an_unknown_project_is_not_found() {
    let mut repo = MockManualSponsorRepository::new();
    repo.expect_list().returning(|_| Err(RepoError::NotFound));
    let service = ManualSponsorService::new(repo, no_media(), no_audit(), clock());

    assert!(matches!(service.list(ID).await, Err(ContentError::NotFound)));
}

#[tokio::test]
async fn a_deletion_is_logged_with_the_name_it_had() {
    let mut repo = repo_with(stored());
    repo.expect_delete().withf(|p, id, _| *p == ID && *id == 3).times(1).returning(|_, _, _| Ok(()));
    let audit =
        audit_expecting(AdminActionKind::ManualSponsorDeleted, |d| d["title"] == "赤城食品" && d["course"] == "A");
    let service = ManualSponsorService::new(repo, no_media(), audit, clock());

    service.delete(ADMIN, ID, 3).await.unwrap();
}

#[tokio::test]
async fn a_move_stores_the_courses_new_order_and_logs_whom_it_passed() {
    let mut repo = repo_with(stored());
    repo.expect_reorder()
        .withf(|_, course, order, _| *course == ManualCourse::A && order == [4, 2, 3])
        .times(1)
        .returning(|_, _, _, _| Ok(()));
    let audit = audit_expecting(AdminActionKind::ManualSponsorsReordered, |d| {
        d["title"] == "上毛電機" && d["passed"] == "赤城食品" && d["direction"] == "up"
    });
    let service = ManualSponsorService::new(repo, no_media(), audit, clock());

    service.move_entry(ADMIN, ID, 2, Direction::Up).await.unwrap();
}

#[tokio::test]
async fn a_move_past_an_entry_ranked_by_its_amount_is_refused() {
    let mut repo = repo_with(stored());
    repo.expect_reorder().never();
    let service = ManualSponsorService::new(repo, no_media(), no_audit(), clock());

    let Err(ContentError::Invalid(errors)) = service.move_entry(ADMIN, ID, 3, Direction::Up).await else {
        panic!("refused")
    };

    assert_eq!(errors, vec![ContentFieldError::new("direction", MSG_NOT_MOVABLE)]);
}

#[tokio::test]
async fn a_list_changed_by_another_operator_asks_for_a_reload() {
    let mut repo = repo_with(stored());
    repo.expect_reorder().returning(|_, _, _, _| Err(RepoError::Conflict("manual_sponsors_changed".into())));
    let service = ManualSponsorService::new(repo, no_media(), no_audit(), clock());

    let Err(ContentError::Invalid(errors)) = service.move_entry(ADMIN, ID, 2, Direction::Up).await else {
        panic!("refused")
    };

    assert_eq!(errors, vec![ContentFieldError::new("form", MSG_LIST_CHANGED)]);
}
