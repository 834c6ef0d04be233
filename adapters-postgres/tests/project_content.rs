//! A project page's content against PostgreSQL: saves replace the owner, links and FAQ in order, keep and
//! reorder the slider (removing what was left out), refuse a slider changed meanwhile or full, and the catalog
//! (what the public page reads) sees it all.
#![allow(clippy::unwrap_used, clippy::expect_used)]
use adapters_postgres::testing::TestDatabase;
use adapters_postgres::{PgCatalogRepository, PgProjectAuthoring, PgProjectContent};
use chrono::{NaiveDate, TimeZone, Utc};
use domain::authoring::{ProjectTerms, ReturnTerms, TaxHandling};
use domain::ids::{ProjectId, ReturnId};
use domain::money::Yen;
use domain::project::FundingModel;
use domain::project_content::{ContentTexts, FaqEntry, OwnerLink, OwnerTexts, SliderEdit, MAX_SLIDER_IMAGES};
use domain::returns::ReturnType;
use ports::admin::content::{ImageTarget, ProjectContentRepository};
use ports::admin::projects::ProjectAuthoringRepository;
use ports::catalog::CatalogRepository;
use ports::RepoError;

fn now() -> chrono::DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 12, 1, 3, 0, 0).unwrap()
}

async fn project(pool: &adapters_postgres::PgPool) -> (ProjectId, ReturnId) {
    let authoring = PgProjectAuthoring::new(pool.clone());
    let terms = ProjectTerms {
        slug: "minakami-rafting".into(),
        title: "水上のラフティング".into(),
        lead: "川を案内します".into(),
        story: "<p>川の話</p>".into(),
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
    let id = authoring.create(&terms, now()).await.unwrap();
    let ret = ReturnTerms {
        title: "体験券".into(),
        description: "春の川下り1回分".into(),
        price: Yen(8000),
        return_type: ReturnType::Individual,
        stock_limit: None,
        lot_fixed: false,
        address_required: false,
        address_label: None,
        disabled: false,
        disabled_comment: None,
        hidden: false,
        delivery_month: None,
        monthly: false,
        course: None,
        only_for: None,
    };
    let ret = authoring.add_return(id, &ret, now()).await.unwrap();
    (id, ret)
}

fn slide(alt: &str) -> ImageTarget {
    ImageTarget::Slider { alt: alt.into() }
}

#[tokio::test]
async fn saved_content_is_read_back_in_order_and_reaches_the_catalog() {
    let (_db, pool) = TestDatabase::create().unwrap();
    let repo = PgProjectContent::new(pool.clone());
    let (id, ret) = project(&pool).await;
    for alt in ["一", "二", "三"] {
        repo.set_image(id, &slide(alt), Some(format!("/media/s/{alt}.png")), now()).await.unwrap();
    }
    repo.set_image(id, &ImageTarget::Main, Some("/media/m.png".into()), now()).await.unwrap();
    repo.set_image(id, &ImageTarget::Return(ret), Some("/media/r.png".into()), now()).await.unwrap();
    let ids: Vec<i64> = repo.content(id).await.unwrap().slider.iter().map(|s| s.id).collect();

    let texts = ContentTexts {
        honor_img_link: Some("https://example.jp".into()),
        slider: vec![SliderEdit { id: ids[2], alt: "三番".into() }, SliderEdit { id: ids[0], alt: "一番".into() }],
        owner: Some(OwnerTexts {
            name: "水上ラフティング組合".into(),
            profile: "".into(),
            links: vec![
                OwnerLink { label: "公式".into(), url: "https://a.example.jp".into() },
                OwnerLink { label: "SNS".into(), url: "https://b.example.jp".into() },
            ],
        }),
        faqs: vec![
            FaqEntry { question: "雨でも？".into(), answer: "はい".into() },
            FaqEntry { question: "子どもは？".into(), answer: "小学生から".into() },
        ],
    };
    repo.save_texts(id, &texts, now()).await.unwrap();
    repo.set_image(id, &ImageTarget::Owner, Some("/media/o.png".into()), now()).await.unwrap();
    // A second save keeps the owner's image.
    repo.save_texts(id, &texts, now()).await.unwrap();

    let content = repo.content(id).await.unwrap();
    let alts: Vec<&str> = content.slider.iter().map(|s| s.alt.as_str()).collect();
    assert_eq!(alts, vec!["三番", "一番"]);
    let owner = content.owner.unwrap();
    assert_eq!((owner.image_url.as_deref(), owner.links.len()), (Some("/media/o.png"), 2));
    assert_eq!(owner.links[1].label, "SNS");
    assert_eq!(content.faqs[1].question, "子どもは？");
    assert_eq!(content.returns[0].image_url.as_deref(), Some("/media/r.png"));

    let listed = PgCatalogRepository::new(pool).projects().await.unwrap();
    let page = listed.iter().find(|p| p.id == id).unwrap();
    assert_eq!(page.main_image_url.as_deref(), Some("/media/m.png"));
    assert_eq!(page.slider.iter().map(|s| s.alt.as_str()).collect::<Vec<_>>(), vec!["三番", "一番"]);
    assert_eq!(page.owner.as_ref().unwrap().name, "水上ラフティング組合");
    assert_eq!(page.faqs.len(), 2);
    assert_eq!(page.honor_img_link.as_deref(), Some("https://example.jp"));

    // No owner: the profile, its links and its image go.
    repo.save_texts(id, &ContentTexts { owner: None, ..texts }, now()).await.unwrap();
    assert_eq!(repo.content(id).await.unwrap().owner, None);
}

#[tokio::test]
async fn guarded_writes_refuse_what_changed_under_them() {
    let (_db, pool) = TestDatabase::create().unwrap();
    let repo = PgProjectContent::new(pool.clone());
    let (id, _) = project(&pool).await;

    let stale = ContentTexts {
        honor_img_link: None,
        slider: vec![SliderEdit { id: 424_242, alt: String::new() }],
        owner: None,
        faqs: vec![FaqEntry { question: "Q".into(), answer: "A".into() }],
    };
    let refused = repo.save_texts(id, &stale, now()).await;
    assert!(matches!(refused, Err(RepoError::Conflict(ref n)) if n == "slider_changed"), "{refused:?}");
    assert!(repo.content(id).await.unwrap().faqs.is_empty(), "nothing was written");

    let owner = repo.set_image(id, &ImageTarget::Owner, Some("/media/o.png".into()), now()).await;
    assert!(matches!(owner, Err(RepoError::Conflict(ref n)) if n == "owner_missing"), "{owner:?}");

    for i in 0..MAX_SLIDER_IMAGES {
        repo.set_image(id, &slide(""), Some(format!("/media/{i}.png")), now()).await.unwrap();
    }
    let full = repo.set_image(id, &slide(""), Some("/media/x.png".into()), now()).await;
    assert!(matches!(full, Err(RepoError::Conflict(ref n)) if n == "slider_full"), "{full:?}");

    let foreign = repo.set_image(id, &ImageTarget::Return(ReturnId(424_242)), None, now()).await;
    assert!(matches!(foreign, Err(RepoError::NotFound)), "{foreign:?}");
    assert!(matches!(repo.content(ProjectId(424_242)).await, Err(RepoError::NotFound)));
    let unknown = repo.set_image(ProjectId(424_242), &ImageTarget::Main, None, now()).await;
    assert!(matches!(unknown, Err(RepoError::NotFound)), "{unknown:?}");
}

#[tokio::test]
async fn settings_are_written_and_a_published_project_keeps_the_account_it_was_checked_with() {
    use adapters_postgres::PgProjectSettings;
    use domain::money::FeeSchedule;
    use domain::project_settings::{AdditionalQuestion, BankDetails, ProjectSettings};
    use ports::admin::settings::ProjectSettingsRepository;

    let (_db, pool) = TestDatabase::create().unwrap();
    let repo = PgProjectSettings::new(pool.clone());
    let (id, _) = project(&pool).await;
    let next = ProjectSettings {
        additional: Some(AdditionalQuestion {
            label: "参加人数".into(),
            text: None,
            description: Some("大人と子どもの人数".into()),
            alert: None,
            form_line: 2,
        }),
        bank: Some(BankDetails {
            bank: "群馬銀行".into(),
            branch: "水上支店".into(),
            kinds: "普通".into(),
            number: "7654321".into(),
            nominee: "ミナカミラフティング".into(),
        }),
        connected_account_id: Some("acct_1abc".into()),
        fee_schedule: FeeSchedule::Internal,
        uses_manual_sponsors: true,
        hide_footer_sponsors: true,
    };
    repo.save(id, &next_clone(), &next, now()).await.unwrap();
    let stored = repo.settings(id).await.unwrap();
    assert_eq!((stored.settings, stored.published_at), (next.clone(), None));
    let page = PgCatalogRepository::new(pool.clone()).projects().await.unwrap();
    let page = page.iter().find(|p| p.id == id).unwrap();
    assert_eq!(page.additional_data.as_ref().unwrap().form_line, Some(2));
    assert_eq!(page.anonymous_bank.as_ref().unwrap().branch, "水上支店");
    assert!(page.uses_manual_sponsors && page.hide_footer_sponsors);

    PgProjectAuthoring::new(pool.clone()).publish(id, now(), now()).await.unwrap();
    // Checked against another account, or other rates, than the published project has: nothing is written.
    for checked in [
        ProjectSettings { connected_account_id: Some("acct_other".into()), ..next.clone() },
        ProjectSettings { fee_schedule: FeeSchedule::Standard, ..next.clone() },
    ] {
        let stale = repo.save(id, &checked, &next_clone(), now()).await;
        assert!(matches!(stale, Err(RepoError::Conflict(ref n)) if n == "project_changed"), "{stale:?}");
    }
    assert_eq!(repo.settings(id).await.unwrap().settings, next);
    repo.save(id, &next, &ProjectSettings { bank: None, ..next.clone() }, now()).await.unwrap();
    assert_eq!(repo.settings(id).await.unwrap().settings.bank, None);
    let unknown = repo.save(ProjectId(424_242), &next_clone(), &next_clone(), now()).await;
    assert!(matches!(unknown, Err(RepoError::NotFound)), "{unknown:?}");
}

fn next_clone() -> domain::project_settings::ProjectSettings {
    domain::project_settings::ProjectSettings {
        additional: None,
        bank: None,
        connected_account_id: None,
        fee_schedule: domain::money::FeeSchedule::Standard,
        uses_manual_sponsors: false,
        hide_footer_sponsors: false,
    }
}
