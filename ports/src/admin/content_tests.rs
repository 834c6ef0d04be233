#![allow(clippy::unwrap_used, clippy::expect_used)]
use chrono::TimeZone;
use domain::profile::ImageKind;
use domain::project_content::{ImageFit, OwnerTexts, SliderEdit, MSG_URL};

use super::*;
use crate::admin::audit::MockAuditLog;
use crate::clock::MockClock;
use crate::media::{MockMediaStorage, StoredMedia};

const ADMIN: UserId = UserId(1);
const ID: ProjectId = ProjectId(7);
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n0000";

fn clock() -> MockClock {
    let mut clock = MockClock::new();
    clock.expect_now().returning(|| Utc.with_ymd_and_hms(2026, 12, 1, 3, 0, 0).unwrap());
    clock
}

fn stored() -> ProjectContent {
    ProjectContent {
        id: ID,
        title: "桐生の織機".into(),
        slug: "kiryu-looms".into(),
        main_image_url: Some("/media/projects/7/main/old.png".into()),
        honor_img_url: None,
        honor_img_link: None,
        slider: vec![SliderImage { id: 3, src: "/media/projects/7/slider/a.png".into(), alt: "織機".into() }],
        owner: None,
        faqs: vec![],
        returns: vec![ReturnImage { id: ReturnId(70), title: "手ぬぐい".into(), image_url: None }],
    }
}

fn texts() -> ContentTexts {
    ContentTexts {
        honor_img_link: None,
        slider: vec![SliderEdit { id: 3, alt: "桐生の織機".into() }],
        owner: Some(OwnerTexts { name: "桐生織物協同組合".into(), profile: String::new(), links: vec![] }),
        faqs: vec![FaqEntry { question: "届くのは？".into(), answer: "3月です。".into() }],
    }
}

fn repo_with(content: ProjectContent) -> MockProjectContentRepository {
    let mut repo = MockProjectContentRepository::new();
    repo.expect_content().returning(move |_| Ok(content.clone()));
    repo
}

fn no_audit() -> MockAuditLog {
    let mut audit = MockAuditLog::new();
    audit.expect_record().never();
    audit
}

fn no_media() -> MockMediaStorage {
    let mut media = MockMediaStorage::new();
    media.expect_store_image_fit().never();
    media
}

fn media_storing(fit: ImageFit) -> MockMediaStorage {
    let mut media = MockMediaStorage::new();
    media
        .expect_store_image_fit()
        .withf(move |prefix, kind, _, f| prefix.starts_with("projects/7/") && *kind == ImageKind::Png && *f == fit)
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

#[tokio::test]
async fn saved_texts_are_checked_written_and_logged_with_before_and_after() {
    let mut repo = MockProjectContentRepository::new();
    let mut calls = 0;
    repo.expect_content().returning(move |_| {
        calls += 1;
        let mut content = stored();
        if calls > 1 {
            content.slider[0].alt = "桐生の織機".into();
            content.owner = Some(OwnerProfile {
                name: "桐生織物協同組合".into(),
                image_url: None,
                profile: String::new(),
                links: vec![],
            });
        }
        Ok(content)
    });
    repo.expect_save_texts().withf(|id, t, _| *id == ID && t.faqs.len() == 1).times(1).returning(|_, _, _| Ok(()));
    let mut audit = MockAuditLog::new();
    audit
        .expect_record()
        .withf(|a| {
            let changes = &a.detail["changes"];
            a.kind == AdminActionKind::ProjectContentUpdated
                && a.project_id == Some(ID)
                && changes["ownerName"] == json!([null, "桐生織物協同組合"])
                && changes["slider"] == json!([[["a.png", "織機"]], [["a.png", "桐生の織機"]]])
                && a.detail["projectTitle"] == "桐生の織機"
        })
        .times(1)
        .returning(|_| Ok(1));
    let service = ContentService::new(repo, no_media(), audit, clock());

    let content = service.save(ADMIN, ID, texts()).await.unwrap();

    assert_eq!(content.owner.unwrap().name, "桐生織物協同組合");
}

#[tokio::test]
async fn a_refused_field_writes_and_logs_nothing() {
    let mut repo = repo_with(stored());
    repo.expect_save_texts().never();
    let service = ContentService::new(repo, no_media(), no_audit(), clock());
    let input = ContentTexts { honor_img_link: Some("javascript:alert(1)".into()), ..texts() };

    let Err(ContentError::Invalid(errors)) = service.save(ADMIN, ID, input).await else { panic!("refused") };

    assert_eq!(errors, vec![ContentFieldError::new("honorImgLink", MSG_URL)]);
}

#[tokio::test]
async fn a_slider_changed_by_another_write_meanwhile_asks_to_reload() {
    let mut repo = repo_with(stored());
    repo.expect_save_texts().returning(|_, _, _| Err(RepoError::Conflict("slider_changed".into())));
    let service = ContentService::new(repo, no_media(), no_audit(), clock());

    let Err(ContentError::Invalid(errors)) = service.save(ADMIN, ID, texts()).await else { panic!("refused") };

    assert_eq!(errors[0].field, "slider");
}

#[tokio::test]
async fn an_uploaded_main_image_is_fitted_stored_attached_and_logged() {
    let mut repo = repo_with(stored());
    repo.expect_set_image()
        .withf(|id, target, url, _| {
            *id == ID && *target == ImageTarget::Main && url.as_deref() == Some("/media/projects/7/main/new.png")
        })
        .times(1)
        .returning(|_, _, _, _| Ok(()));
    let mut audit = MockAuditLog::new();
    audit
        .expect_record()
        .withf(|a| {
            a.kind == AdminActionKind::ProjectImageChanged
                && a.detail["slot"] == "main"
                && a.detail["changes"]["image"] == json!(["old.png", "new.png"])
        })
        .times(1)
        .returning(|_| Ok(1));
    let service = ContentService::new(repo, media_storing(ImageFit::Within(1600)), audit, clock());

    service.upload(ADMIN, ID, ImageTarget::Main, PNG.to_vec()).await.unwrap();
}

#[tokio::test]
async fn the_owner_image_is_padded_into_a_square_once_the_owner_exists() {
    let mut with_owner = stored();
    with_owner.owner =
        Some(OwnerProfile { name: "組合".into(), image_url: None, profile: String::new(), links: vec![] });
    let mut repo = repo_with(with_owner);
    repo.expect_set_image().times(1).returning(|_, _, _, _| Ok(()));
    let mut audit = MockAuditLog::new();
    audit.expect_record().times(1).returning(|_| Ok(1));
    let service = ContentService::new(repo, media_storing(ImageFit::PaddedSquare(400)), audit, clock());

    service.upload(ADMIN, ID, ImageTarget::Owner, PNG.to_vec()).await.unwrap();
}

#[tokio::test]
async fn an_owner_image_before_the_owner_is_saved_is_refused_without_storing() {
    let service = ContentService::new(repo_with(stored()), no_media(), no_audit(), clock());

    let Err(ContentError::Invalid(errors)) = service.upload(ADMIN, ID, ImageTarget::Owner, PNG.to_vec()).await else {
        panic!("refused")
    };

    assert_eq!(errors, vec![ContentFieldError::new("file", MSG_OWNER_FIRST)]);
}

#[tokio::test]
async fn a_file_that_is_not_an_image_is_refused_on_the_file_field_without_storing() {
    let service = ContentService::new(repo_with(stored()), no_media(), no_audit(), clock());

    let Err(ContentError::Invalid(errors)) =
        service.upload(ADMIN, ID, ImageTarget::Main, b"%PDF-1.7 not an image".to_vec()).await
    else {
        panic!("refused")
    };

    assert_eq!(errors, vec![ContentFieldError::new("file", UploadError::UnsupportedType.to_string())]);
}

#[tokio::test]
async fn an_image_over_the_pixel_budget_is_refused_with_the_storage_s_message() {
    let mut media = MockMediaStorage::new();
    media.expect_store_image_fit().returning(|_, _, _, _| Err(MediaError::Rejected(UploadError::TooManyPixels)));
    let service = ContentService::new(repo_with(stored()), media, no_audit(), clock());

    let Err(ContentError::Invalid(errors)) = service.upload(ADMIN, ID, ImageTarget::Honor, PNG.to_vec()).await else {
        panic!("refused")
    };

    assert_eq!(errors[0].message, UploadError::TooManyPixels.to_string());
}

#[tokio::test]
async fn an_eleventh_slider_image_is_refused_before_it_is_stored() {
    let mut full = stored();
    full.slider = (0..10).map(|i| SliderImage { id: i, src: format!("/m/{i}.png"), alt: String::new() }).collect();
    let service = ContentService::new(repo_with(full), no_media(), no_audit(), clock());

    let target = ImageTarget::Slider { alt: "山車".into() };
    let Err(ContentError::Invalid(errors)) = service.upload(ADMIN, ID, target, PNG.to_vec()).await else {
        panic!("refused")
    };

    assert_eq!(errors, vec![ContentFieldError::new("file", MSG_SLIDER_FULL)]);
}

#[tokio::test]
async fn another_project_s_return_is_not_found() {
    let service = ContentService::new(repo_with(stored()), no_media(), no_audit(), clock());

    let result = service.upload(ADMIN, ID, ImageTarget::Return(ReturnId(999)), PNG.to_vec()).await;

    assert!(matches!(result, Err(ContentError::NotFound)), "{result:?}");
}

#[tokio::test]
async fn removing_an_image_clears_it_and_logs_it_and_removing_none_does_nothing() {
    let mut repo = repo_with(stored());
    repo.expect_set_image()
        .withf(|_, target, url, _| *target == ImageTarget::Main && url.is_none())
        .times(1)
        .returning(|_, _, _, _| Ok(()));
    let mut audit = MockAuditLog::new();
    audit
        .expect_record()
        .withf(|a| a.detail["changes"]["image"] == json!(["old.png", null]))
        .times(1)
        .returning(|_| Ok(1));
    let service = ContentService::new(repo, no_media(), audit, clock());
    service.remove_image(ADMIN, ID, ImageTarget::Main).await.unwrap();

    let mut untouched = repo_with(stored());
    untouched.expect_set_image().never();
    let service = ContentService::new(untouched, no_media(), no_audit(), clock());
    service.remove_image(ADMIN, ID, ImageTarget::Honor).await.unwrap();
}

#[test]
fn a_change_too_long_for_the_log_keeps_the_changed_field_names() {
    let faqs = |a: &str| {
        Value::Array((0..20).map(|i| json!([format!("{a}{i}{}", "問".repeat(58)), "答".repeat(60)])).collect())
    };
    let logged = changes(
        Some(&[("faqs", faqs("前")), ("ownerName", json!("同じ"))]),
        &[("faqs", faqs("後")), ("ownerName", json!("同じ"))],
    );
    assert_eq!(logged, json!({"fields": ["faqs"]}));
}
