#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use chrono::{DateTime, NaiveDate, TimeZone, Utc};
use domain::closing::{CampaignState, CloseOutcome};
use domain::ids::{ProjectId, SaleId, UserId};
use domain::money::{TaxMode, Yen};
use domain::payment::{PayType, SaleStatus};
use domain::project::Progress;

use super::*;
use crate::accounts::{HistoryEntry, MockProfiles};
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

fn service(repo: MockFavouriteRepository) -> FollowingService<MockFavouriteRepository, MockClock> {
    FollowingService::new(repo, catalog(), Arc::new(MockProfiles::new()), clock())
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

fn sale(id: i64, slug: &str, ret: &str, lot: i16, status: SaleStatus, day: u32) -> HistoryEntry {
    HistoryEntry {
        id: SaleId(id),
        created_at: at(day),
        project_title: format!("履歴の{slug}"),
        project_slug: slug.to_string(),
        return_title: ret.to_string(),
        lot,
        amount: 1_000,
        tax: 90,
        total: 1_100 * i64::from(lot),
        tax_mode: TaxMode::Inclusive,
        payment_type: PayType::Card,
        status,
        display_name: None,
        pending_transfer: None,
        voucher: None,
        refunded: Yen(0),
        refunding: Yen(0),
        delivery: None,
    }
}

#[tokio::test]
async fn supported_projects_are_one_line_per_project_from_paid_sales_only() {
    let mut profiles = MockProfiles::new();
    profiles.expect_history().withf(|user| *user == MEMBER).returning(|_| {
        Ok(vec![
            sale(6, "p1", "お礼のメール", 1, SaleStatus::AwaitingBankTransfer, 9),
            sale(5, "p1", "お礼のメール", 2, SaleStatus::Succeeded, 8),
            sale(4, "gone", "記念品", 1, SaleStatus::Succeeded, 7),
            sale(3, "p1", "ばらの花束", 1, SaleStatus::Succeeded, 6),
            sale(2, "p1", "お礼のメール", 1, SaleStatus::Succeeded, 5),
            sale(1, "p2", "記念品", 1, SaleStatus::Failed, 4),
        ])
    });
    let service = FollowingService::new(MockFavouriteRepository::new(), catalog(), Arc::new(profiles), clock());

    let lines = service.supported(MEMBER).await.unwrap();

    assert_eq!(lines.len(), 2, "p2 has no paid sale: {lines:?}");
    let p1 = &lines[0];
    assert_eq!(
        (p1.title.as_str(), p1.project, p1.state),
        ("プロジェクト1", Some(ProjectId(1)), Some(CampaignState::Open))
    );
    assert_eq!(p1.sales, vec![SaleId(5), SaleId(3), SaleId(2)]);
    let returns: Vec<(&str, i64)> = p1.returns.iter().map(|r| (r.title.as_str(), r.lots)).collect();
    assert_eq!(returns, vec![("お礼のメール", 3), ("ばらの花束", 1)]);
    assert_eq!((p1.paid, p1.last_supported_at), (Yen(4_400), at(8)));
    let gone = &lines[1];
    assert_eq!((gone.title.as_str(), gone.project, gone.state), ("履歴のgone", None, None));
}
