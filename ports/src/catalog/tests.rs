//! The catalog use cases against mocked ports.

use chrono::{DateTime, NaiveDate, TimeZone, Utc};
use domain::account::Email;
use domain::comment::CommentText;
use domain::ids::{ProjectId, ReturnId};
use domain::money::Yen;
use domain::news::NewsAudience;
use domain::returns::{PurchaseBlock, Remaining, ReturnType};
use domain::sponsor::{ManualCourse, SponsorSale, SponsorTier};

use super::*;
use crate::accounts::UserId;
use crate::clock::MockClock;
use crate::html::MockHtmlSanitizer;
use crate::RepoError;

/// 2026-11-25 21:00 in Tokyo (12:00 UTC).
fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 25, 12, 0, 0).unwrap()
}

fn day(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

fn clock() -> MockClock {
    let mut clock = MockClock::new();
    clock.expect_now().return_const(now());
    clock
}

/// Marks sanitised text so tests can see it passed through the sanitiser.
fn sanitizer() -> MockHtmlSanitizer {
    let mut html = MockHtmlSanitizer::new();
    html.expect_sanitize().returning(|s| format!("[clean]{}", s.replace("<script>", "")));
    html
}

fn project(id: i64, slug: &str, end: NaiveDate) -> ProjectRecord {
    ProjectRecord {
        id: ProjectId(id),
        slug: slug.into(),
        title: format!("プロジェクト{id}"),
        description: "説明".into(),
        content: "<p>本文</p><script>".into(),
        target: Yen(1_000_000),
        period_end: end,
        main_image_url: Some(format!("/media/demo/p{id}.svg")),
        honor_img_url: None,
        honor_img_link: None,
        is_donation: false,
        tax_includes: true,
        anonymous_bank: None,
        uses_manual_sponsors: false,
        hide_footer_sponsors: false,
        slider: vec![],
        accepts_card: true,
        accepts_bank_transfer: false,
        accepts_konbini: false,
        additional_data: None,
        funding_model: domain::project::FundingModel::AllIn,
        owner: None,
        faqs: vec![],
        published_at: Some(now() - chrono::Duration::days(30)),
        closing: None,
        area: None,
        category: None,
        search_text: domain::search::index_text(&format!("プロジェクト{id}"), "説明", "<p>本文</p>", None, []),
        former_slugs: vec![],
    }
}

fn ret(id: i64, price: i64) -> ReturnRecord {
    ReturnRecord {
        id: ReturnId(id),
        project_id: ProjectId(1),
        slug: format!("r{id}"),
        return_type: ReturnType::Individual,
        title: format!("リターン{id}"),
        description: "<b>内容</b>".into(),
        price: Yen(price),
        stock_limit: None,
        lots_taken: 0,
        disabled: false,
        disabled_comment: None,
        flag: 0,
        course: None,
        image_src: None,
        description_image: None,
        description_comment: None,
        lot_disable: false,
        monthly: false,
        address_required: false,
        address_label: None,
        show_user_email: None,
        delivery_month: None,
        supporters: 0,
    }
}

fn service(repo: MockCatalogRepository) -> CatalogService<MockCatalogRepository, MockClock, MockHtmlSanitizer> {
    CatalogService::new(repo, clock(), sanitizer())
}

/// Each project's paid total is `sum(id)`, read one by one or several together.
fn with_sums(repo: &mut MockCatalogRepository, sum: fn(ProjectId) -> PaidSum) {
    repo.expect_paid_sum_project().returning(move |id| Ok(sum(id)));
    repo.expect_paid_sums_of().returning(move |ids| Ok(ids.into_iter().map(|id| (id, sum(id))).collect()));
}

fn with_projects(repo: &mut MockCatalogRepository, projects: Vec<ProjectRecord>) {
    repo.expect_projects().returning(move || Ok(std::sync::Arc::new(projects.clone())));
}

#[tokio::test]
async fn a_former_address_leads_to_the_public_project_that_had_it_and_nowhere_for_a_draft() {
    let mut repo = MockCatalogRepository::new();
    let moved = ProjectRecord { former_slugs: vec!["old-roses".into()], ..project(1, "roses", day(2027, 1, 31)) };
    let draft = ProjectRecord {
        published_at: None,
        former_slugs: vec!["old-draft".into()],
        ..project(2, "d", day(2027, 1, 31))
    };
    with_projects(&mut repo, vec![moved, draft]);
    let service = service(repo);
    assert_eq!(service.moved_to("old-roses".into()).await.unwrap().as_deref(), Some("roses"));
    assert_eq!(service.moved_to("old-draft".into()).await.unwrap(), None);
    assert_eq!(service.moved_to("roses".into()).await.unwrap(), None);
}

#[tokio::test]
async fn drafts_and_scheduled_projects_are_nowhere_public_but_operators_preview_them() {
    let mut repo = MockCatalogRepository::new();
    let draft = ProjectRecord { published_at: None, ..project(2, "draft", day(2027, 1, 31)) };
    let scheduled = ProjectRecord {
        published_at: Some(now() + chrono::Duration::hours(1)),
        ..project(3, "soon", day(2027, 1, 31))
    };
    with_projects(&mut repo, vec![project(1, "open", day(2027, 1, 31)), draft, scheduled]);
    with_sums(&mut repo, |_| PaidSum::default());
    repo.expect_visible_returns().returning(|_, _| Ok(vec![]));
    repo.expect_news().returning(|_, _| Ok(vec![]));
    let service = service(repo);

    let slugs: Vec<String> = service.master().await.unwrap().into_iter().map(|c| c.slug).collect();
    assert_eq!(slugs, ["open"]);
    for slug in ["draft", "soon"] {
        assert!(matches!(service.project_detail(slug.into(), None).await, Err(CatalogError::NotFound)), "{slug}");
    }
    assert!(matches!(service.news(ProjectId(2), None).await, Err(CatalogError::NotFound)));
    assert!(matches!(service.paid_sum(SumTarget::Project(ProjectId(3))).await, Err(CatalogError::NotFound)));
    let preview = service.project_preview(ProjectId(2)).await.unwrap();
    assert_eq!(preview.card.slug, "draft");
    assert_eq!(preview.content, "[clean]<p>本文</p>");
}

#[tokio::test]
async fn the_home_lists_open_projects_first_with_days_left_and_progress_from_paid_sums() {
    let mut repo = MockCatalogRepository::new();
    with_projects(
        &mut repo,
        vec![
            project(1, "ended", day(2026, 11, 1)),
            project(2, "soon", day(2026, 11, 30)),
            project(3, "later", day(2027, 1, 31)),
        ],
    );
    with_sums(&mut repo, |id| PaidSum { amount: Yen(id.get() * 123_450), supports: id.get() });

    let cards = service(repo).master().await.unwrap();

    let slugs: Vec<&str> = cards.iter().map(|c| c.slug.as_str()).collect();
    assert_eq!(slugs, vec!["later", "soon", "ended"]);
    let soon = &cards[1];
    assert_eq!((soon.days_left, soon.is_open), (6, true));
    assert_eq!(soon.paid, PaidSum { amount: Yen(246_900), supports: 2 });
    assert_eq!(soon.progress.card_label(), "24.7");
    assert_eq!((cards[2].days_left, cards[2].is_open), (0, false));
}

#[tokio::test]
async fn an_unknown_slug_is_not_found() {
    let mut repo = MockCatalogRepository::new();
    with_projects(&mut repo, vec![project(1, "known", day(2026, 12, 31))]);

    let err = service(repo).project_detail("unknown".into(), None).await.unwrap_err();

    assert!(matches!(err, CatalogError::NotFound));
}

#[tokio::test]
async fn a_project_page_prices_its_returns_and_says_why_one_cannot_be_bought() {
    let mut repo = MockCatalogRepository::new();
    with_projects(&mut repo, vec![project(1, "p", day(2026, 12, 31))]);
    with_sums(&mut repo, |_| PaidSum::default());
    repo.expect_visible_returns().returning(|_, _| {
        Ok(vec![
            ReturnRecord { stock_limit: Some(10), lots_taken: 4, ..ret(1, 3_300) },
            ReturnRecord { stock_limit: Some(5), lots_taken: 5, ..ret(2, 5_000) },
            ReturnRecord { disabled: true, disabled_comment: Some("準備中".into()), ..ret(3, 1_000) },
        ])
    });

    let detail = service(repo).project_detail("p".into(), None).await.unwrap();

    assert_eq!(detail.content, "[clean]<p>本文</p>");
    let [limited, sold_out, disabled] = &detail.returns[..] else { panic!("{:?}", detail.returns) };
    // Tax included: 3,300 yen contains 300 yen of tax.
    assert_eq!((limited.price.total, limited.price.tax, limited.price.mode.label()), (Yen(3_300), Yen(300), "税込"));
    assert_eq!((limited.remaining, limited.block), (Remaining::Limited(6), None));
    assert_eq!(limited.description, "[clean]<b>内容</b>");
    assert_eq!(sold_out.block, Some(PurchaseBlock::SoldOut));
    assert_eq!(disabled.block, Some(PurchaseBlock::Disabled));
}

#[tokio::test]
async fn a_project_page_carries_its_owner_faq_funding_model_closing_minute_and_result() {
    use crate::catalog::{Faq, OwnerLink, ProjectOwner};
    let owner = ProjectOwner {
        name: "前橋ばら会".into(),
        image_url: None,
        profile: Some("ばらを育てて30年".into()),
        links: vec![OwnerLink { label: "公式サイト".into(), url: "https://example.jp/".into() }],
    };
    let faqs = vec![Faq { question: "いつ届きますか".into(), answer: "3月です".into() }];
    let mut repo = MockCatalogRepository::new();
    with_projects(
        &mut repo,
        vec![ProjectRecord {
            funding_model: domain::project::FundingModel::AllOrNothing,
            owner: Some(owner.clone()),
            faqs: faqs.clone(),
            ..project(1, "p", day(2026, 12, 31))
        }],
    );
    with_sums(&mut repo, |_| PaidSum { amount: Yen(1_000_000), supports: 3 });
    repo.expect_visible_returns().returning(|_, _| {
        Ok(vec![ReturnRecord { supporters: 2, delivery_month: Some(day(2027, 3, 1)), ..ret(1, 3_300) }])
    });

    let detail = service(repo).project_detail("p".into(), None).await.unwrap();

    assert_eq!((detail.owner, detail.faqs), (Some(owner), faqs));
    assert_eq!(detail.funding_model, domain::project::FundingModel::AllOrNothing);
    assert_eq!(detail.closes_at.to_string(), "2026-12-31 23:59:00");
    assert!(detail.card.achieved, "1,000,000 of 1,000,000 reaches the goal");
    assert_eq!((detail.returns[0].supporters, detail.returns[0].delivery_month), (2, Some(day(2027, 3, 1))));
}

#[tokio::test]
async fn an_ended_project_blocks_every_return_and_a_donation_has_no_tax() {
    let mut repo = MockCatalogRepository::new();
    with_projects(&mut repo, vec![ProjectRecord { is_donation: true, ..project(1, "p", day(2026, 11, 24)) }]);
    with_sums(&mut repo, |_| PaidSum::default());
    repo.expect_visible_returns().returning(|_, _| Ok(vec![ret(1, 10_000)]));

    let detail = service(repo).project_detail("p".into(), None).await.unwrap();

    let only = &detail.returns[0];
    assert_eq!(only.block, Some(PurchaseBlock::ProjectEnded));
    assert_eq!((only.price.tax, only.price.total, only.price.mode.label()), (Yen(0), Yen(10_000), "非課税"));
}

#[tokio::test]
async fn hidden_and_other_users_returns_never_leave_even_if_storage_answers_them() {
    let mut repo = MockCatalogRepository::new();
    with_projects(&mut repo, vec![project(1, "p", day(2026, 12, 31))]);
    with_sums(&mut repo, |_| PaidSum::default());
    repo.expect_visible_returns().returning(|_, _| {
        Ok(vec![
            ret(1, 1_000),
            ReturnRecord { flag: 900, ..ret(2, 1_000) },
            ReturnRecord { show_user_email: Some("vip@example.jp".into()), ..ret(3, 1_000) },
        ])
    });
    let service = service(repo);

    let anonymous = service.project_detail("p".into(), None).await.unwrap();
    let vip = service.project_detail("p".into(), Some(Email::parse("VIP@example.jp").unwrap())).await.unwrap();

    assert_eq!(anonymous.returns.iter().map(|r| r.id).collect::<Vec<_>>(), vec![ReturnId(1)]);
    assert_eq!(vip.returns.iter().map(|r| r.id).collect::<Vec<_>>(), vec![ReturnId(1), ReturnId(3)]);
}

#[tokio::test]
async fn the_viewer_address_is_passed_to_storage() {
    let mut repo = MockCatalogRepository::new();
    with_projects(&mut repo, vec![project(1, "p", day(2026, 12, 31))]);
    with_sums(&mut repo, |_| PaidSum::default());
    repo.expect_visible_returns().withf(|_, viewer| viewer.is_none()).times(1).returning(|_, _| Ok(vec![]));
    repo.expect_visible_returns()
        .withf(|_, viewer| viewer.as_ref().is_some_and(|e| e.as_str() == "a@example.jp"))
        .times(1)
        .returning(|_, _| Ok(vec![]));
    let service = service(repo);

    service.project_detail("p".into(), None).await.unwrap();
    service.project_detail("p".into(), Some(Email::parse("a@example.jp").unwrap())).await.unwrap();
}

#[tokio::test]
async fn the_home_cards_and_the_project_page_show_only_sanitised_html() {
    let mut repo = MockCatalogRepository::new();
    with_projects(&mut repo, vec![project(1, "p", day(2026, 12, 31))]);
    with_sums(&mut repo, |_| PaidSum::default());
    repo.expect_visible_returns().returning(|_, _| Ok(vec![]));
    repo.expect_news().returning(|_, _| {
        Ok(vec![NewsItem {
            id: 1,
            title: "お知らせ".into(),
            description: "<i>x</i><script>".into(),
            updated_at: now(),
            audience: NewsAudience::Public,
        }])
    });
    let service = service(repo);

    assert_eq!(service.project_detail("p".into(), None).await.unwrap().content, "[clean]<p>本文</p>");
    assert_eq!(service.news(ProjectId(1), None).await.unwrap()[0].item.description, "[clean]<i>x</i>");
}

fn news_item(id: i64, audience: NewsAudience) -> NewsItem {
    NewsItem { id, title: format!("報告{id}"), description: "<p>本文</p>".into(), updated_at: now(), audience }
}

#[tokio::test]
async fn a_supporters_only_item_is_locked_for_a_guest_and_reads_no_supports() {
    let mut repo = MockCatalogRepository::new();
    with_projects(&mut repo, vec![project(1, "p", day(2026, 12, 31))]);
    repo.expect_news().returning(|_, _| {
        Ok(vec![news_item(1, NewsAudience::Supporters { returns: vec![] }), news_item(2, NewsAudience::Public)])
    });
    repo.expect_supported_returns().never();
    let news = service(repo).news(ProjectId(1), None).await.unwrap();

    assert!(news[0].locked);
    assert_eq!(news[0].item.description, "");
    assert_eq!(news[0].item.title, "報告1");
    assert!(!news[1].locked);
    assert_eq!(news[1].item.description, "[clean]<p>本文</p>");
}

#[tokio::test]
async fn a_supporter_of_a_chosen_return_reads_the_item_and_a_supporter_of_another_return_does_not() {
    let mut repo = MockCatalogRepository::new();
    with_projects(&mut repo, vec![project(1, "p", day(2026, 12, 31))]);
    repo.expect_news().returning(|_, _| {
        Ok(vec![
            news_item(1, NewsAudience::Supporters { returns: vec![ReturnId(10)] }),
            news_item(2, NewsAudience::Supporters { returns: vec![ReturnId(11)] }),
        ])
    });
    repo.expect_supported_returns()
        .withf(|project, user| *project == ProjectId(1) && *user == UserId(7))
        .returning(|_, _| Ok(vec![ReturnId(10)]));
    let news = service(repo).news(ProjectId(1), Some(UserId(7))).await.unwrap();

    assert!(!news[0].locked);
    assert_eq!(news[0].item.description, "[clean]<p>本文</p>");
    assert!(news[1].locked);
    assert_eq!(news[1].item.description, "");
}

#[tokio::test]
async fn sums_of_unknown_projects_and_returns_are_not_found() {
    let mut repo = MockCatalogRepository::new();
    with_projects(&mut repo, vec![project(1, "p", day(2026, 12, 31))]);
    repo.expect_paid_sum_project().never();
    repo.expect_paid_sum_return().returning(|_| Ok(None));

    let service = service(repo);

    assert!(matches!(service.paid_sum(SumTarget::Project(ProjectId(99))).await, Err(CatalogError::NotFound)));
    assert!(matches!(service.paid_sum(SumTarget::Return(ReturnId(99))).await, Err(CatalogError::NotFound)));
}

fn sale_record(name: &str, kind: ReturnType, anonymous: bool) -> PublicSaleRecord {
    PublicSaleRecord {
        created_at: now(),
        return_type: kind,
        displayname: Some(name.into()),
        anonymous,
        corporatename: Some("上毛商事".into()),
        corporateurl: Some("https://example.co.jp".into()),
        logo_url: Some("/media/logo.png".into()),
    }
}

#[tokio::test]
async fn the_public_supporter_list_masks_anonymous_supporters_and_shows_company_details_only_for_companies() {
    let mut repo = MockCatalogRepository::new();
    with_projects(&mut repo, vec![project(1, "p", day(2026, 12, 31))]);
    repo.expect_public_sales().returning(|_, _| {
        Ok(vec![
            sale_record("上毛商事", ReturnType::Company, false),
            sale_record("隠れ社長", ReturnType::Company, true),
            sale_record("群馬 太郎", ReturnType::Individual, false),
        ])
    });

    let sales = service(repo).public_sales(ProjectId(1)).await.unwrap();

    assert_eq!(sales[0].corporatename.as_deref(), Some("上毛商事"));
    assert_eq!((sales[1].displayname.as_str(), &sales[1].corporatename, &sales[1].logo_url), ("匿名", &None, &None));
    assert_eq!((sales[2].displayname.as_str(), &sales[2].corporatename), ("群馬 太郎", &None));
}

fn sponsor_sale(id: i64, amount: i64, company: bool, anonymous: bool) -> SponsorSale {
    SponsorSale {
        supporter_id: UserId(id),
        display_name: Some(format!("支援者{id}")),
        anonymous,
        amount: Yen(amount),
        created_at: now().naive_utc(),
        return_type: if company { ReturnType::Company } else { ReturnType::Individual },
        logo_url: company.then(|| format!("/media/logo{id}.png")),
        link: company.then(|| "https://example.co.jp".to_string()),
    }
}

#[tokio::test]
async fn the_sponsor_wall_groups_logos_by_size_and_lists_personal_names_with_tokumei() {
    let mut repo = MockCatalogRepository::new();
    with_projects(&mut repo, vec![project(1, "p", day(2026, 12, 31))]);
    repo.expect_sponsor_sales().withf(|p| *p == Some(ProjectId(1))).returning(|_| {
        Ok(vec![
            sponsor_sale(1, 600_000, true, false),
            sponsor_sale(2, 60_000, true, false),
            sponsor_sale(3, 35_000, true, false),
            sponsor_sale(4, 10_000, true, false),
            sponsor_sale(5, 5_000, false, false),
            sponsor_sale(6, 90_000, true, true),
        ])
    });

    let SponsorList::Automatic { size3, size2, size1, personal } = service(repo).sponsors(ProjectId(1)).await.unwrap()
    else {
        panic!("automatic expected")
    };

    assert_eq!(
        size3.iter().map(|s| (s.name.as_str(), s.tier)).collect::<Vec<_>>(),
        vec![("支援者1", SponsorTier::Largest), ("支援者2", SponsorTier::Large)]
    );
    assert_eq!(size2[0].tier, SponsorTier::Medium);
    assert_eq!(size1[0].tier, SponsorTier::Small);
    // The anonymous company lost its logo and is listed by '匿名' among personal names, largest first.
    assert_eq!(personal, vec!["匿名".to_string(), "支援者5".to_string()]);
}

#[tokio::test]
async fn a_project_with_a_manual_list_shows_its_courses_in_order_with_undisclosed_amounts_last() {
    let mut repo = MockCatalogRepository::new();
    with_projects(&mut repo, vec![ProjectRecord { uses_manual_sponsors: true, ..project(1, "p", day(2026, 12, 31)) }]);
    repo.expect_sponsor_sales().never();
    let entry = |course: ManualCourse, name: &str, amount: Option<i64>, position: i32| ManualSponsorRecord {
        id: i64::from(position) + 10,
        course,
        name: name.into(),
        logo_src: Some("/media/x.svg".into()),
        link: None,
        amount: amount.map(Yen),
        latest_date: None,
        position,
    };
    repo.expect_manual_sponsors().returning(move |_| {
        Ok(vec![
            entry(ManualCourse::A, "非公開", None, -1),
            entry(ManualCourse::A, "小", Some(1_000), 0),
            entry(ManualCourse::A, "大", Some(9_000), 1),
            entry(ManualCourse::A, "無償", Some(0), 2),
            entry(ManualCourse::B, "B社", None, 0),
            entry(ManualCourse::Supporter, "山田 花子", None, 0),
        ])
    });

    let SponsorList::Manual(courses) = service(repo).sponsors(ProjectId(1)).await.unwrap() else {
        panic!("manual expected")
    };

    assert_eq!(courses.a.iter().map(|l| l.name.as_str()).collect::<Vec<_>>(), vec!["大", "小", "無償", "非公開"]);
    assert_eq!(courses.b.len(), 1);
    assert!(courses.c.is_empty());
    assert_eq!(courses.supporters, vec!["山田 花子".to_string()]);
}

#[tokio::test]
async fn the_footer_is_hidden_on_a_project_that_hides_it_and_otherwise_tiers_company_sponsors() {
    let mut repo = MockCatalogRepository::new();
    with_projects(
        &mut repo,
        vec![
            ProjectRecord { hide_footer_sponsors: true, ..project(1, "quiet", day(2026, 12, 31)) },
            project(2, "loud", day(2026, 12, 31)),
        ],
    );
    repo.expect_sponsor_sales().withf(|p| p.is_none()).times(1).returning(|_| {
        Ok(vec![
            sponsor_sale(1, 500_000, true, false),
            sponsor_sale(2, 70_000, true, false),
            sponsor_sale(3, 1_000, false, false),
        ])
    });
    let service = service(repo);

    let hidden = service.footer_sponsors(Some("quiet".into())).await.unwrap();
    let shown = service.footer_sponsors(Some("loud".into())).await.unwrap();

    assert!(hidden.hidden && hidden.tiers.is_empty());
    assert!(!shown.hidden);
    let sizes: Vec<(SponsorTier, usize)> = shown.tiers.iter().map(|(t, s)| (*t, s.len())).collect();
    assert_eq!(
        sizes,
        vec![(SponsorTier::Largest, 1), (SponsorTier::Large, 0), (SponsorTier::Medium, 1), (SponsorTier::Small, 0)]
    );
}

fn comment(id: i64, author: i64, anonymous: bool) -> CommentRecord {
    CommentRecord {
        id,
        project_id: ProjectId(1),
        user_id: UserId(author),
        comment: "応援しています".into(),
        updated_at: now(),
        author_displayname: Some("たろう".into()),
        author_icon: Some("/media/icon.png".into()),
        sale_displayname: Some("群馬 太郎".into()),
        author_anonymous: anonymous,
    }
}

#[tokio::test]
async fn an_anonymous_supporters_comment_shows_neither_name_nor_icon() {
    let mut repo = MockCatalogRepository::new();
    with_projects(&mut repo, vec![project(1, "p", day(2026, 12, 31))]);
    repo.expect_comments().returning(|_| Ok(vec![comment(1, 7, false), comment(2, 8, true)]));

    let comments = service(repo).comments(ProjectId(1)).await.unwrap();

    assert_eq!((comments[0].author_name.as_str(), comments[0].author_icon.is_some()), ("たろう", true));
    assert_eq!((comments[1].author_name.as_str(), &comments[1].author_icon), ("匿名", &None));
    assert_eq!(comments[1].sale_name.as_deref(), Some("匿名"));
}

#[tokio::test]
async fn only_the_author_may_edit_a_comment() {
    let mut repo = MockCatalogRepository::new();
    repo.expect_comment_author().returning(|_| Ok((UserId(7), ProjectId(1))));
    repo.expect_update_comment().never();

    let err = service(repo).update_comment(UserId(8), 5, CommentText::parse("書き換え").unwrap()).await.unwrap_err();

    assert!(matches!(err, CommentUpdateError::NotAuthor));
}

#[tokio::test]
async fn the_author_edit_is_stored_trimmed() {
    let mut repo = MockCatalogRepository::new();
    repo.expect_comment_author().returning(|_| Ok((UserId(7), ProjectId(1))));
    repo.expect_update_comment()
        .withf(|id, author, text, at| *id == 5 && *author == UserId(7) && text == "書き換えました" && *at == now())
        .times(1)
        .returning(|_, _, _, _| Ok(()));

    service(repo).update_comment(UserId(7), 5, CommentText::parse(" 書き換えました ").unwrap()).await.unwrap();
}

#[tokio::test]
async fn editing_an_unknown_comment_is_not_found() {
    let mut repo = MockCatalogRepository::new();
    repo.expect_comment_author().returning(|_| Err(RepoError::NotFound));

    let err = service(repo).update_comment(UserId(7), 404, CommentText::parse("x").unwrap()).await.unwrap_err();

    assert!(matches!(err, CommentUpdateError::NotFound));
}

#[tokio::test]
async fn lists_of_an_unknown_project_are_not_found() {
    let mut repo = MockCatalogRepository::new();
    with_projects(&mut repo, vec![project(1, "p", day(2026, 12, 31))]);
    let service = service(repo);

    assert!(matches!(service.news(ProjectId(2), None).await, Err(CatalogError::NotFound)));
    assert!(matches!(service.comments(ProjectId(2)).await, Err(CatalogError::NotFound)));
    assert!(matches!(service.sponsors(ProjectId(2)).await, Err(CatalogError::NotFound)));
    assert!(matches!(service.public_sales(ProjectId(2)).await, Err(CatalogError::NotFound)));
}

mod discovery {
    use domain::discovery::{ListSort, ListState, LIST_PAGE_SIZE, MAX_RELATED};
    use domain::search::SearchQuery;

    use super::*;
    use crate::catalog::{ListQuery, Taxon};

    fn taxon(id: i64, slug: &str) -> Option<Taxon> {
        Some(Taxon { id, slug: slug.into(), name: slug.into() })
    }

    /// A public project placed in `area` and `category`, titled `title`, published `published_days_ago`.
    fn placed(id: i64, title: &str, end: NaiveDate, area: (i64, &str), category: (i64, &str)) -> ProjectRecord {
        ProjectRecord {
            title: title.into(),
            area: taxon(area.0, area.1),
            category: taxon(category.0, category.1),
            published_at: Some(now() - chrono::Duration::days(40 - id)),
            search_text: domain::search::index_text(title, "説明", "<p>本文</p>", None, [("お礼状", "")]),
            ..project(id, &format!("p{id}"), end)
        }
    }

    /// Maebashi food (1), Takasaki culture (2), Maebashi culture ended (3), Kiryu food (4), a draft in Maebashi (5).
    fn catalog() -> MockCatalogRepository {
        let mut repo = MockCatalogRepository::new();
        let maebashi = (1, "maebashi");
        let (takasaki, kiryu) = ((2, "takasaki"), (3, "kiryu"));
        let (food, culture) = ((1, "food"), (2, "culture"));
        with_projects(
            &mut repo,
            vec![
                placed(1, "前橋ばら園", day(2026, 12, 20), maebashi, food),
                placed(2, "高崎だるま", day(2026, 12, 1), takasaki, culture),
                placed(3, "前橋の映画祭", day(2026, 11, 1), maebashi, culture),
                placed(4, "桐生の畑", day(2027, 3, 1), kiryu, food),
                ProjectRecord {
                    published_at: None, ..placed(5, "前橋の下書き", day(2027, 1, 1), maebashi, food)
                },
            ],
        );
        repo.expect_paid_sums().returning(|| {
            Ok(std::sync::Arc::new(
                [(1, 50_000, 3), (2, 90_000, 2), (3, 10_000, 9)]
                    .into_iter()
                    .map(|(id, amount, supports)| (ProjectId(id), PaidSum { amount: Yen(amount), supports }))
                    .collect(),
            ))
        });
        with_sums(&mut repo, |_| PaidSum::default());
        repo
    }

    async fn slugs(query: ListQuery) -> (Vec<String>, usize) {
        let page = service(catalog()).list(query).await.unwrap();
        (page.cards.into_iter().map(|c| c.slug).collect(), page.total)
    }

    fn keyword(text: &str) -> Option<SearchQuery> {
        SearchQuery::parse(text).unwrap()
    }

    #[tokio::test]
    async fn the_list_shows_public_projects_only_newest_first() {
        let (slugs, total) = slugs(ListQuery::default()).await;
        assert_eq!((slugs, total), (vec!["p4".into(), "p3".into(), "p2".into(), "p1".into()], 4));
    }

    #[tokio::test]
    async fn area_category_and_state_filter_together() {
        let in_maebashi = ListQuery { area: Some("maebashi".into()), ..Default::default() };
        assert_eq!(slugs(in_maebashi.clone()).await.0, ["p3", "p1"], "the draft in Maebashi is not listed");
        let open_in_maebashi = ListQuery { state: ListState::Open, ..in_maebashi.clone() };
        assert_eq!(slugs(open_in_maebashi).await.0, ["p1"]);
        let ended = ListQuery { state: ListState::Ended, ..Default::default() };
        assert_eq!(slugs(ended).await.0, ["p3"]);
        let food = ListQuery { category: Some("food".into()), ..Default::default() };
        assert_eq!(slugs(food).await.0, ["p4", "p1"]);
        let culture_in_maebashi = ListQuery { category: Some("culture".into()), ..in_maebashi };
        assert_eq!(slugs(culture_in_maebashi).await.0, ["p3"]);
        let nowhere = ListQuery { area: Some("atlantis".into()), ..Default::default() };
        assert_eq!(slugs(nowhere).await, (vec![], 0));
    }

    #[tokio::test]
    async fn each_order_puts_first_what_its_label_says() {
        let by = |sort| ListQuery { sort, ..Default::default() };
        assert_eq!(slugs(by(ListSort::Raised)).await.0, ["p2", "p1", "p3", "p4"]);
        assert_eq!(slugs(by(ListSort::Backers)).await.0, ["p3", "p1", "p2", "p4"]);
        // Open ones ending soonest first (p2 ends 12-01), the ended one last.
        assert_eq!(slugs(by(ListSort::Ending)).await.0, ["p2", "p1", "p4", "p3"]);
    }

    #[tokio::test]
    async fn keywords_find_titles_typed_in_the_other_kana_and_width_and_return_titles() {
        assert_eq!(slugs(ListQuery { keyword: keyword("バラ"), ..Default::default() }).await.0, ["p1"]);
        assert_eq!(slugs(ListQuery { keyword: keyword("ﾀﾞﾙﾏ"), ..Default::default() }).await.0, ["p2"]);
        assert_eq!(slugs(ListQuery { keyword: keyword("前橋　映画"), ..Default::default() }).await.0, ["p3"]);
        assert_eq!(slugs(ListQuery { keyword: keyword("お礼状"), ..Default::default() }).await.1, 4);
        assert_eq!(slugs(ListQuery { keyword: keyword("下書き"), ..Default::default() }).await.1, 0);
    }

    #[tokio::test]
    async fn pages_hold_the_page_size_and_carry_the_total() {
        let mut repo = MockCatalogRepository::new();
        let many: Vec<ProjectRecord> = (1..=30).map(|id| project(id, &format!("p{id}"), day(2027, 1, 31))).collect();
        with_projects(&mut repo, many);
        repo.expect_paid_sums().returning(|| Ok(std::sync::Arc::default()));
        let service = service(repo);

        let first = service.list(ListQuery::default()).await.unwrap();
        let second = service.list(ListQuery { page: 2, ..Default::default() }).await.unwrap();
        let past = service.list(ListQuery { page: 3, ..Default::default() }).await.unwrap();

        assert_eq!((first.cards.len(), first.total, first.page_size), (LIST_PAGE_SIZE, 30, LIST_PAGE_SIZE));
        assert_eq!((second.cards.len(), second.page, second.cards[0].slug.as_str()), (6, 2, "p6"));
        assert_eq!((past.cards.len(), past.total), (0, 30));
    }

    #[tokio::test]
    async fn related_projects_are_open_public_others_of_the_same_area_or_category_closest_first() {
        let mut repo = catalog();
        repo.expect_visible_returns().returning(|_, _| Ok(vec![]));

        let detail = service(repo).project_detail("p1".into(), None).await.unwrap();

        // p4 shares the category, p3 the area but has ended, p5 is a draft, p2 shares nothing.
        let related: Vec<&str> = detail.related.iter().map(|c| c.slug.as_str()).collect();
        assert_eq!(related, ["p4"]);
        assert!(detail.related.len() <= MAX_RELATED);
    }

    #[tokio::test]
    async fn at_most_three_related_projects_the_same_area_and_category_first() {
        let mut repo = MockCatalogRepository::new();
        let end = day(2027, 1, 31);
        let (maebashi, ota) = ((1, "maebashi"), (2, "ota"));
        let (food, sports) = ((1, "food"), (2, "sports"));
        with_projects(
            &mut repo,
            vec![
                placed(1, "本人", end, maebashi, food),
                placed(2, "同じ地域", end, maebashi, sports),
                placed(3, "同じカテゴリー", end, ota, food),
                placed(4, "両方同じ", end, maebashi, food),
                placed(5, "同じ地域2", end, maebashi, sports),
                placed(6, "無関係", end, ota, sports),
            ],
        );
        with_sums(&mut repo, |_| PaidSum::default());
        repo.expect_visible_returns().returning(|_, _| Ok(vec![]));

        let detail = service(repo).project_detail("p1".into(), None).await.unwrap();

        let related: Vec<&str> = detail.related.iter().map(|c| c.slug.as_str()).collect();
        assert_eq!(related, ["p4", "p5", "p3"], "both first, then the newest of the rest");
    }
}
