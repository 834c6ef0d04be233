#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use chrono::{DateTime, NaiveDate, TimeZone, Utc};
use domain::closing::{CampaignState, CloseOutcome};
use domain::delivery::HeldLots;
use domain::ids::{ProjectId, ReturnId, SaleId, UserId};
use domain::money::Yen;
use domain::payment::SaleStatus;
use domain::project::Progress;

use super::*;
use crate::catalog::{Catalog, MockCatalog, PaidSum, ProjectCard};
use crate::clock::MockClock;

const MEMBER: UserId = UserId(7);

fn at(day: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 12, day, 12, 0, 0).unwrap()
}

fn card(id: i64, open: bool, outcome: Option<CloseOutcome>) -> ProjectCard {
    ProjectCard {
        id: ProjectId(id),
        slug: format!("p{id}"),
        title: format!("プロジェクト{id}"),
        description: String::new(),
        target: Yen(100_000),
        period_end: NaiveDate::from_ymd_opt(2027, 1, 1).unwrap(),
        main_image_url: None,
        is_donation: false,
        tax_includes: true,
        has_anonymous_bank: false,
        days_left: u32::from(open),
        is_open: open,
        paid: PaidSum::default(),
        progress: Progress::new(Yen(0), Yen(100_000)),
        achieved: false,
        area: None,
        category: None,
        outcome,
    }
}

/// The catalog's public list: projects 1 (open) and 2 (ended, succeeded). Project 3 is a draft: not listed.
fn catalog() -> Arc<dyn Catalog> {
    let mut catalog = MockCatalog::new();
    catalog.expect_master().returning(|| Ok(vec![card(1, true, None), card(2, false, Some(CloseOutcome::Succeeded))]));
    Arc::new(catalog)
}

fn clock() -> MockClock {
    let mut clock = MockClock::new();
    clock.expect_now().return_const(at(10));
    clock
}

fn service(repo: MockFavouriteRepository) -> FollowingService<MockFavouriteRepository, MockSupportedStore, MockClock> {
    FollowingService::new(repo, MockSupportedStore::new(), catalog(), clock())
}

#[tokio::test]
async fn keeping_a_public_project_writes_it_with_the_limit_and_the_time() {
    let mut repo = MockFavouriteRepository::new();
    repo.expect_keep()
        .withf(|user, project, now, limit| {
            (*user, *project, *now, *limit) == (MEMBER, ProjectId(1), at(10), FAVOURITES_LIMIT)
        })
        .times(1)
        .returning(|_, _, _, _| Ok(KeepOutcome::Kept));

    service(repo).keep(MEMBER, ProjectId(1)).await.unwrap();
}

#[tokio::test]
async fn keeping_twice_is_not_an_error() {
    let mut repo = MockFavouriteRepository::new();
    repo.expect_keep().returning(|_, _, _, _| Ok(KeepOutcome::AlreadyKept));

    service(repo).keep(MEMBER, ProjectId(1)).await.unwrap();
}

#[tokio::test]
async fn a_draft_or_unknown_project_cannot_be_kept_or_removed_and_storage_is_not_touched() {
    let repo = MockFavouriteRepository::new();
    let service = service(repo);

    for id in [3, 999] {
        assert!(matches!(service.keep(MEMBER, ProjectId(id)).await, Err(FollowingError::NotFound)));
        assert!(matches!(service.remove(MEMBER, ProjectId(id)).await, Err(FollowingError::NotFound)));
    }
}

#[tokio::test]
async fn a_full_list_refuses_with_a_japanese_message_naming_the_limit() {
    let mut repo = MockFavouriteRepository::new();
    repo.expect_keep().returning(|_, _, _, _| Ok(KeepOutcome::Full));

    let error = service(repo).keep(MEMBER, ProjectId(1)).await.unwrap_err();

    assert!(matches!(error, FollowingError::Full));
    assert!(error.to_string().contains("500件まで"), "{error}");
}

#[tokio::test]
async fn the_list_keeps_the_storage_order_drops_projects_no_longer_public_and_names_each_state() {
    let mut repo = MockFavouriteRepository::new();
    repo.expect_kept().withf(|user, limit| (*user, *limit) == (MEMBER, FAVOURITES_LIMIT)).returning(|_, _| {
        Ok(vec![
            KeptProject { project: ProjectId(2), kept_at: at(9) },
            KeptProject { project: ProjectId(3), kept_at: at(8) },
            KeptProject { project: ProjectId(1), kept_at: at(7) },
        ])
    });

    let list = service(repo).favourites(MEMBER).await.unwrap();

    let shown: Vec<(i64, &str)> = list.iter().map(|f| (f.card.id.get(), f.state.label())).collect();
    assert_eq!(shown, vec![(2, "成立"), (1, "募集中")]);
    assert_eq!(list[0].kept_at, at(9));
}

fn sale(id: i64, ret: i64, lot: i16, day: u32) -> SupportedSale {
    SupportedSale {
        id: SaleId(id),
        return_id: ReturnId(ret),
        return_title: format!("リターン{ret}"),
        lot,
        status: SaleStatus::Succeeded,
        total: Yen(1_100 * i64::from(lot)),
        refunding: Yen(0),
        refunded: Yen(0),
        shipped_on: None,
        created_at: at(day),
    }
}

fn headline(id: i64) -> NewsHeadline {
    NewsHeadline { id, title: format!("活動報告{id}"), published_at: at(9) }
}

fn supports_service(
    store: MockSupportedStore,
) -> FollowingService<MockFavouriteRepository, MockSupportedStore, MockClock> {
    FollowingService::new(MockFavouriteRepository::new(), store, catalog(), clock())
}

#[tokio::test]
async fn a_supported_project_sums_each_held_returns_lots_with_where_they_stand_and_keeps_its_news() {
    let shipped_on = NaiveDate::from_ymd_opt(2026, 12, 9).unwrap();
    let mut store = MockSupportedStore::new();
    store
        .expect_supported()
        .withf(|user, page, per_page, now| (*user, *page, *per_page, *now) == (MEMBER, 2, SUPPORTS_PER_PAGE, at(10)))
        .times(1)
        .returning(move |_, _, _, _| {
            let shipped = SupportedSale { shipped_on: Some(shipped_on), ..sale(2, 10, 2, 5) };
            let refunded_in_full = SupportedSale { refunding: Yen(1_100), refunded: Yen(1_100), ..sale(3, 20, 1, 6) };
            Ok(SupportedPage {
                total: 23,
                page: 2,
                projects: vec![
                    SupportedRecord {
                        project: ProjectId(1),
                        slug: "p1".into(),
                        title: "古い題".into(),
                        sales: vec![sale(1, 10, 1, 4), shipped, refunded_in_full, sale(4, 10, 3, 8)],
                        latest_news: Some(headline(5)),
                    },
                    SupportedRecord {
                        project: ProjectId(3),
                        slug: "draft".into(),
                        title: "下書きに戻った".into(),
                        sales: vec![sale(9, 30, 1, 3)],
                        latest_news: Some(headline(6)),
                    },
                ],
            })
        });

    let list = supports_service(store).supported(MEMBER, 2).await.unwrap();

    assert_eq!((list.total, list.page, list.per_page), (23, 2, SUPPORTS_PER_PAGE));
    let p1 = &list.projects[0];
    assert_eq!(
        (p1.title.as_str(), p1.project, p1.state),
        ("プロジェクト1", Some(ProjectId(1)), Some(CampaignState::Open))
    );
    assert_eq!(p1.sales, vec![SaleId(4), SaleId(3), SaleId(2), SaleId(1)], "newest first, the refunded one too");
    assert_eq!((p1.paid, p1.refunded, p1.last_supported_at), (Yen(7_700), Yen(1_100), at(8)));
    assert_eq!(p1.returns.len(), 1, "return 20 was refunded in full: not held any more");
    let held = &p1.returns[0];
    assert_eq!((held.title.as_str(), held.lots), ("リターン10", 6));
    assert_eq!(
        held.deliveries,
        vec![HeldLots { shipped_on: Some(shipped_on), lots: 2 }, HeldLots { shipped_on: None, lots: 4 }]
    );
    assert_eq!(p1.latest_news, Some(headline(5)));
    let draft = &list.projects[1];
    assert_eq!((draft.title.as_str(), draft.project, draft.state), ("下書きに戻った", None, None));
    assert_eq!(draft.latest_news, None, "no page to read it on");
}
