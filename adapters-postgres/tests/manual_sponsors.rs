//! A project's manual sponsor list against PostgreSQL: entries are added at their course's end, edited (a new
//! course goes to its end, the logo kept, set or cleared), deleted and reordered; another project's entry and a
//! stale order are refused; and the catalog (what the public walls read) sees each change.
#![allow(clippy::unwrap_used, clippy::expect_used)]
use adapters_postgres::testing::TestDatabase;
use adapters_postgres::{PgCatalogRepository, PgManualSponsors, PgProjectAuthoring};
use chrono::{NaiveDate, TimeZone, Utc};
use domain::authoring::{ProjectTerms, TaxHandling};
use domain::ids::ProjectId;
use domain::manual_sponsor::{ManualSponsor, MAX_MANUAL_SPONSORS};
use domain::money::Yen;
use domain::project::FundingModel;
use domain::sponsor::ManualCourse;
use ports::admin::projects::ProjectAuthoringRepository;
use ports::admin::sponsors::{LogoChange, ManualSponsorRepository};
use ports::catalog::CatalogRepository;
use ports::RepoError;

fn now() -> chrono::DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 12, 1, 3, 0, 0).unwrap()
}

async fn project(pool: &adapters_postgres::PgPool, slug: &str) -> ProjectId {
    let terms = ProjectTerms {
        slug: slug.into(),
        title: "桐生の機場".into(),
        lead: String::new(),
        story: "<p>機場の話</p>".into(),
        goal: Yen(300_000),
        period_end: NaiveDate::from_ymd_opt(2027, 2, 28).unwrap(),
        funding_model: FundingModel::AllIn,
        tax: TaxHandling::Inclusive,
        accepts_card: true,
        accepts_bank_transfer: false,
        accepts_konbini: false,
        area_id: None,
        category_id: None,
        owner_email: None,
        donation_payout_date: None,
    };
    PgProjectAuthoring::new(pool.clone()).create(&terms, now()).await.unwrap()
}

fn sponsor(course: ManualCourse, name: &str) -> ManualSponsor {
    ManualSponsor { course, name: name.into(), link: None, amount: None, latest_date: None }
}

#[tokio::test]
async fn entries_are_added_edited_moved_and_deleted_and_the_catalog_reads_each_change() {
    let (_db, pool) = TestDatabase::create().unwrap();
    let repo = PgManualSponsors::new(pool.clone());
    let catalog = PgCatalogRepository::new(pool.clone());
    let id = project(&pool, "kiryu-hataba").await;
    let logo = |n: &str| Some(format!("/media/projects/1/sponsors/{n}.png"));

    let a1 = repo.create(id, &sponsor(ManualCourse::A, "上毛電機"), logo("a1"), now()).await.unwrap();
    let a2 = repo.create(id, &sponsor(ManualCourse::A, "赤城食品"), logo("a2"), now()).await.unwrap();
    let s1 = repo.create(id, &sponsor(ManualCourse::Supporter, "群馬 太郎"), None, now()).await.unwrap();
    let full = ManualSponsor {
        link: Some("https://haruna.example.jp".into()),
        amount: Some(Yen(50_000)),
        latest_date: NaiveDate::from_ymd_opt(2026, 11, 3),
        ..sponsor(ManualCourse::B, "榛名印刷")
    };
    let b1 = repo.create(id, &full, logo("b1"), now()).await.unwrap();

    let list = repo.list(id).await.unwrap();
    assert_eq!(list.title, "桐生の機場");
    assert!(!list.uses_manual_sponsors);
    let a: Vec<(i64, i32)> =
        list.entries.iter().filter(|e| e.sponsor.course == ManualCourse::A).map(|e| (e.id, e.position)).collect();
    assert_eq!(a, vec![(a1, 0), (a2, 1)], "added at the end of the course");
    let stored_b = list.entries.iter().find(|e| e.id == b1).unwrap();
    assert_eq!(stored_b.sponsor, full);
    assert_eq!(stored_b.logo_src, logo("b1"));

    // Reordered, then moved to another course (to its end) and given a new logo.
    repo.reorder(id, ManualCourse::A, &[a2, a1], now()).await.unwrap();
    repo.update(id, a1, &sponsor(ManualCourse::B, "上毛電機株式会社"), LogoChange::Set("/media/n.png".into()), now())
        .await
        .unwrap();
    repo.update(id, s1, &sponsor(ManualCourse::Supporter, "群馬 太郎"), LogoChange::Keep, now()).await.unwrap();
    let list = repo.list(id).await.unwrap();
    let moved = list.entries.iter().find(|e| e.id == a1).unwrap();
    assert_eq!((moved.sponsor.course, moved.position), (ManualCourse::B, 1));
    assert_eq!(moved.logo_src.as_deref(), Some("/media/n.png"));
    assert_eq!(list.entries.iter().find(|e| e.id == a2).unwrap().position, 0);

    // What the public walls read.
    let walls = catalog.manual_sponsors(id).await.unwrap();
    let names: Vec<(ManualCourse, &str)> = walls.iter().map(|w| (w.course, w.name.as_str())).collect();
    assert!(names.contains(&(ManualCourse::B, "上毛電機株式会社")));
    assert_eq!(walls.len(), 4);

    repo.update(id, a1, &sponsor(ManualCourse::Supporter, "上毛電機株式会社"), LogoChange::Clear, now()).await.unwrap();
    assert_eq!(repo.list(id).await.unwrap().entries.iter().find(|e| e.id == a1).unwrap().logo_src, None);

    repo.delete(id, a2, now()).await.unwrap();
    let walls = catalog.manual_sponsors(id).await.unwrap();
    assert!(walls.iter().all(|w| w.name != "赤城食品"));
    assert_eq!(walls.len(), 3);
}

#[tokio::test]
async fn another_projects_entry_and_an_unknown_project_are_not_found() {
    let (_db, pool) = TestDatabase::create().unwrap();
    let repo = PgManualSponsors::new(pool.clone());
    let mine = project(&pool, "kiryu-hataba").await;
    let theirs = project(&pool, "ota-kojo").await;
    let entry = repo.create(theirs, &sponsor(ManualCourse::Supporter, "他所の人"), None, now()).await.unwrap();

    let edit = repo.update(mine, entry, &sponsor(ManualCourse::Supporter, "乗っ取り"), LogoChange::Keep, now()).await;
    assert!(matches!(edit, Err(RepoError::NotFound)));
    assert!(matches!(repo.delete(mine, entry, now()).await, Err(RepoError::NotFound)));
    assert!(matches!(repo.list(ProjectId(987_654)).await, Err(RepoError::NotFound)));
    assert!(matches!(
        repo.create(ProjectId(987_654), &sponsor(ManualCourse::Supporter, "x"), None, now()).await,
        Err(RepoError::NotFound)
    ));
    assert_eq!(repo.list(theirs).await.unwrap().entries[0].sponsor.name, "他所の人");
}

#[tokio::test]
async fn a_stale_order_and_a_full_list_are_refused_without_writing() {
    let (_db, pool) = TestDatabase::create().unwrap();
    let repo = PgManualSponsors::new(pool.clone());
    let id = project(&pool, "kiryu-hataba").await;
    let first = repo.create(id, &sponsor(ManualCourse::Supporter, "一"), None, now()).await.unwrap();
    let second = repo.create(id, &sponsor(ManualCourse::Supporter, "二"), None, now()).await.unwrap();

    let stale = repo.reorder(id, ManualCourse::Supporter, &[second], now()).await;
    assert!(matches!(stale, Err(RepoError::Conflict(name)) if name == "manual_sponsors_changed"));
    let twice = repo.reorder(id, ManualCourse::Supporter, &[second, second], now()).await;
    assert!(matches!(twice, Err(RepoError::Conflict(_))));
    let positions: Vec<(i64, i32)> = repo.list(id).await.unwrap().entries.iter().map(|e| (e.id, e.position)).collect();
    assert_eq!(positions, vec![(first, 0), (second, 1)]);

    for i in 2..MAX_MANUAL_SPONSORS {
        repo.create(id, &sponsor(ManualCourse::Supporter, &format!("支援者{i}")), None, now()).await.unwrap();
    }
    let over = repo.create(id, &sponsor(ManualCourse::Supporter, "一人多い"), None, now()).await;
    assert!(matches!(over, Err(RepoError::Conflict(name)) if name == "manual_sponsors_full"));
    assert_eq!(repo.list(id).await.unwrap().entries.len(), MAX_MANUAL_SPONSORS);
}
