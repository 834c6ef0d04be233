//! `app-server seed-demo` is idempotent, and its projects read like real ones: every return says what it
//! holds and how it comes, every story has a budget that adds up to its goal, the walls and the news agree
//! with the supporters, and nothing in it is what the operators' screens would refuse.

use std::collections::{BTreeSet, HashSet};
use std::path::PathBuf;

use adapters_postgres::demo::{DemoProject, DemoReturn, DemoSet};
use adapters_postgres::testing::TestDatabase;
use app_server::config::Settings;
use chrono::{Datelike, NaiveDate};
use domain::authoring::{check_return, check_terms, publish_problems, ProjectTerms, ReturnTerms};
use domain::lot::Lot;
use domain::money::{PriceBreakdown, TaxRate, Yen};
use domain::payment::SaleStatus;
use domain::sponsor::ManualCourse;

use crate::helpers::query_i64_at;

#[tokio::test]
async fn seeding_the_demo_twice_leaves_the_same_rows() {
    let (_db, settings) = seed_settings();

    let first = app_server::demo::seed(&settings).await.unwrap();
    let second = app_server::demo::seed(&settings).await.unwrap();

    assert_eq!(first, second);
    let count = |table: &str| first.0.iter().find(|(t, _)| t == table).map(|(_, c)| *c).unwrap();
    assert!(count("projects") >= 6);
    assert!(count("sales") > 20);
    assert_eq!(count("administrators"), 1);
    assert!(settings.media_dir.join("demo/maebashi-main.svg").is_file());
}

/// How many audit entries of `action` (any, when empty) the demo administrator has in the database at `url`.
fn logged(url: &str, action: &str) -> i64 {
    let of_action = if action.is_empty() { String::new() } else { format!(" AND a.action = '{action}'") };
    query_i64_at(
        url,
        &format!(
            "SELECT count(*) AS value FROM admin_actions a JOIN users u ON u.id = a.actor_user_id \
             WHERE u.email = '{}'{of_action}",
            app_server::demo::DEMO_ADMIN_EMAIL
        ),
    )
}

/// A fresh database and the settings `seed-demo` runs with, its media in a directory of its own.
fn seed_settings() -> (TestDatabase, Settings) {
    let (db, _pool) = TestDatabase::create().unwrap();
    let mut settings = Settings::from_env().unwrap();
    settings.database_url = db.url.clone();
    settings.media_dir = temp_media_dir();
    (db, settings)
}

fn temp_media_dir() -> PathBuf {
    std::env::temp_dir().join(format!("cf-media-{}", uuid::Uuid::new_v4().simple()))
}

#[tokio::test]
async fn the_demo_is_written_through_the_operators_use_cases_and_a_second_seed_needs_none_of_them() {
    let (db, settings) = seed_settings();
    let (set, _) = demo();
    let count = |n: usize| i64::try_from(n).unwrap();

    app_server::demo::seed(&settings).await.unwrap();
    let first = logged(&db.url, "");

    assert_eq!(logged(&db.url, "project_created"), count(set.projects.len()));
    assert_eq!(logged(&db.url, "project_published"), count(set.projects.len()));
    assert_eq!(logged(&db.url, "return_created"), count(set.projects.iter().map(|p| p.returns.len()).sum()));
    assert_eq!(logged(&db.url, "news_created"), count(set.projects.iter().map(|p| p.news.len()).sum()));
    let with_settings = set.projects.iter().filter(|p| {
        p.bank.is_some() || p.additional_data.is_some() || p.uses_manual_sponsors || p.hide_footer_sponsors
    });
    assert_eq!(logged(&db.url, "project_settings_updated"), count(with_settings.count()));
    let named = set.projects.iter().flat_map(|p| &p.manual_sponsors).filter(|s| s.course == ManualCourse::Supporter);
    assert_eq!(logged(&db.url, "manual_sponsor_created"), count(named.count()));

    app_server::demo::seed(&settings).await.unwrap();
    assert_eq!(logged(&db.url, ""), first, "the second seed found everything as the demo wants it");
}

/// The demo set as `seed-demo` builds it today (Asia/Tokyo).
fn demo() -> (DemoSet, NaiveDate) {
    let today = domain::time::tokyo_date(chrono::Utc::now());
    (app_server::demo::demo_set(&temp_media_dir(), today).unwrap(), today)
}

/// What a reader sees of some sanitised HTML: the text without its tags.
fn text_of(html: &str) -> String {
    let mut text = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    text
}

fn returns(set: &DemoSet) -> impl Iterator<Item = (&DemoProject, &DemoReturn)> {
    set.projects.iter().flat_map(|p| p.returns.iter().map(move |r| (p, r)))
}

/// Words that name how a return reaches its supporter.
const DELIVERY_WAYS: [&str; 6] = ["宅配便", "郵送", "メール", "当日", "現地", "掲載"];
/// Ways that need a delivery address.
const SHIPPED: [&str; 2] = ["宅配便", "郵送"];

#[test]
fn every_demo_return_says_what_it_holds_and_how_and_when_it_comes() {
    let (set, _) = demo();
    let mut seen = HashSet::new();
    for (project, r) in returns(&set) {
        let text = text_of(&r.description);
        let at = format!("{} / {}: {text}", project.slug, r.slug);
        assert!(text.chars().count() > 40, "too short to say anything: {at}");
        assert!(seen.insert(text.clone()), "the same description twice: {at}");
        assert!(DELIVERY_WAYS.iter().any(|w| text.contains(w)), "says not how it comes: {at}");
        // Nothing is sent by post or courier unless the supporter is asked where to.
        assert_eq!(SHIPPED.iter().any(|w| text.contains(w)), r.address_required, "shipping vs. address: {at}");
        if let Some(month) = r.delivery_month {
            let month = format!("{}年{}月", month.year(), month.month());
            assert!(text.contains(&month), "the card says {month}, the description does not: {at}");
        }
        if r.return_type != 0 {
            assert!(text.contains("ロゴ") && text.contains("掲載"), "a sponsor return names its logo placement: {at}");
        }
    }
    assert!(seen.len() >= 20, "{} returns", seen.len());
}

/// The yen amounts written in `html` ("420,000円"), in order.
fn yen_amounts(html: &str) -> Vec<i64> {
    html.split('円')
        .filter_map(|before| {
            let digits: String = before.chars().rev().take_while(|c| c.is_ascii_digit() || *c == ',').collect();
            let digits: String = digits.chars().rev().filter(char::is_ascii_digit).collect();
            digits.parse().ok()
        })
        .collect()
}

#[test]
fn every_demo_story_has_a_budget_that_adds_up_to_its_goal_and_says_what_a_missed_goal_means() {
    let (set, _) = demo();
    for p in &set.projects {
        let (_, budget) = p.content.split_once("資金の使いみち").unwrap_or_else(|| panic!("{}: no budget", p.slug));
        let (list, rest) = budget.split_once("</ul>").unwrap_or_else(|| panic!("{}: the budget is no list", p.slug));
        let items: Vec<&str> = list.split("<li>").skip(1).collect();
        assert!(items.len() >= 3, "{}: {} budget items", p.slug, items.len());
        let amounts: Vec<i64> = items.iter().map(|item| *yen_amounts(item).last().unwrap()).collect();
        assert_eq!(amounts.iter().sum::<i64>(), p.target, "{}: the budget {amounts:?} is not the goal", p.slug);
        let total = rest.split_once("合計").map(|(_, after)| yen_amounts(after)[0]);
        assert_eq!(total, Some(p.target), "{}: the 合計 line", p.slug);
        assert!(rest.contains("目標金額に届かなかった場合"), "{}: silent on a missed goal", p.slug);
        if p.all_or_nothing {
            assert!(rest.contains("不成立") && rest.contains("全額返金"), "{}: all-or-nothing unexplained", p.slug);
        }
    }
}

/// A demo project's terms with its own end, as the screens check them.
fn project_terms(p: &DemoProject) -> ProjectTerms {
    app_server::demo::project_terms(p, p.period_end, None, None)
}

fn return_terms(r: &DemoReturn) -> ReturnTerms {
    app_server::demo::return_terms(r).unwrap()
}

#[test]
fn the_operators_screens_would_accept_every_demo_project_and_return_as_it_stands() {
    let (set, today) = demo();
    for p in &set.projects {
        // Every demo project is published; an ended one keeps its past end.
        let checked = check_terms(project_terms(p), true, today);
        assert!(checked.is_ok(), "{}: {:?}", p.slug, checked.err());
        assert_eq!(checked.unwrap(), project_terms(p), "{}: the screens would store it otherwise", p.slug);
        assert_eq!(adapters_http::html::sanitize(&p.content), p.content, "{}: the story as stored", p.slug);
        // An open project could be published as it stands (a donation project with its payout date).
        if p.period_end >= today {
            let problems = publish_problems(&project_terms(p), p.returns.len(), today, today);
            assert!(problems.is_empty(), "{}: {problems:?}", p.slug);
        }
        for r in &p.returns {
            let taken: i64 = p.sales.iter().filter(|s| s.return_slug == r.slug).map(|s| s.lot).sum();
            let checked = check_return(return_terms(r), i32::try_from(taken).unwrap());
            assert!(checked.is_ok(), "{} / {}: {:?}", p.slug, r.slug, checked.err());
            assert_eq!(checked.unwrap().title, r.title, "{} / {}", p.slug, r.slug);
        }
    }
}

/// What the project's paid supports add up to (tax included), counting those placed before `days_ago`.
fn paid_before(p: &DemoProject, days_ago: i64) -> i64 {
    p.sales
        .iter()
        .filter(|s| s.status == SaleStatus::Succeeded && s.days_ago >= days_ago)
        .map(|s| {
            let price = p.returns.iter().find(|r| r.slug == s.return_slug).unwrap().price;
            let lot = Lot::parse(s.lot).unwrap();
            PriceBreakdown::for_project(Yen(price), lot, TaxRate::STANDARD, p.is_donation, p.tax_includes)
                .unwrap()
                .total
                .0
        })
        .sum()
}

/// News titles that claim a share of the goal (percent).
const CLAIMS: [(&str, i64); 2] = [("半分", 50), ("目標を達成", 100)];

#[test]
fn no_demo_news_claims_more_than_was_raised_and_a_failed_project_says_it_failed() {
    let (set, today) = demo();
    for p in &set.projects {
        for news in &p.news {
            for (word, percent) in CLAIMS {
                if news.title.contains(word) {
                    let raised = paid_before(p, news.days_ago);
                    assert!(raised * 100 >= p.target * percent, "{}: 「{}」 at {raised}円", p.slug, news.title);
                }
            }
        }
        let failed = p.all_or_nothing && p.period_end < today && paid_before(p, 0) < p.target;
        if failed {
            assert!(p.news.iter().any(|n| n.title.contains("不成立")), "{}: a failed project says so", p.slug);
            for news in &p.news {
                let said = format!("{}{}", news.title, text_of(&news.description));
                let claims_success = said.contains("発送しました") || said.replace("不成立", "").contains("成立");
                assert!(!claims_success, "{}: {said}", p.slug);
            }
        }
    }
    let numata = set.projects.iter().find(|p| p.slug == "numata-apple").unwrap();
    assert!(numata.all_or_nothing && numata.period_end < today && paid_before(numata, 0) < numata.target);
}

#[test]
fn a_manual_sponsor_list_names_the_projects_own_supporters() {
    let (set, _) = demo();
    let manual: Vec<&DemoProject> = set.projects.iter().filter(|p| p.uses_manual_sponsors).collect();
    assert!(!manual.is_empty());
    for p in manual {
        let listed: BTreeSet<&str> =
            p.manual_sponsors.iter().filter(|s| s.course == ManualCourse::Supporter).map(|s| s.name.as_str()).collect();
        let supporters: BTreeSet<&str> = p
            .sales
            .iter()
            .filter(|s| s.status == SaleStatus::Succeeded)
            .map(|s| if s.anonymous { "匿名" } else { s.displayname.as_str() })
            .collect();
        assert_eq!(listed, supporters, "{}", p.slug);
    }
}
