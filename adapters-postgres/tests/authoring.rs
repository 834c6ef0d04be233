//! The authoring repository against PostgreSQL: new projects are drafts,
//! guarded writes refuse what changed under them, returns keep their order.
#![allow(clippy::unwrap_used, clippy::expect_used)]
use adapters_postgres::testing::{exec, TestDatabase};
use adapters_postgres::{PgCatalogRepository, PgProjectAuthoring};
use chrono::{NaiveDate, TimeZone, Utc};
use diesel::{Connection, RunQueryDsl};
use domain::authoring::{ProjectTerms, ReturnTerms, TaxHandling};
use domain::ids::{ProjectId, ReturnId};
use domain::money::Yen;
use domain::project::FundingModel;
use domain::returns::ReturnType;
use ports::admin::projects::ProjectAuthoringRepository;
use ports::catalog::CatalogRepository;
use ports::RepoError;

fn now() -> chrono::DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 12, 1, 3, 0, 0).unwrap()
}

fn terms(slug: &str) -> ProjectTerms {
    ProjectTerms {
        slug: slug.into(),
        title: "沼田のりんご".into(),
        lead: "りんご畑を守る".into(),
        story: "<p>畑の話</p>".into(),
        goal: Yen(800_000),
        period_end: NaiveDate::from_ymd_opt(2027, 2, 28).unwrap(),
        funding_model: FundingModel::AllOrNothing,
        tax: TaxHandling::Exclusive,
        accepts_card: true,
        accepts_bank_transfer: false,
        accepts_konbini: false,
        area_id: None,
        category_id: None,
        owner_email: None,
        donation_payout_date: None,
    }
}

fn a_return(title: &str) -> ReturnTerms {
    ReturnTerms {
        title: title.into(),
        description: "りんご5kgを12月にお送りします。".into(),
        price: Yen(5000),
        return_type: ReturnType::Individual,
        stock_limit: Some(10),
        lot_fixed: false,
        address_required: true,
        address_label: Some("お届け先".into()),
        disabled: false,
        disabled_comment: None,
        hidden: false,
        delivery_month: NaiveDate::from_ymd_opt(2027, 12, 1),
        monthly: false,
        course: None,
        only_for: None,
    }
}

/// A pending sale of `lots` of a 5,000-yen return (10 % tax on top) by member 50, made here if missing:
/// `payment_type` 1 card, 2 bank transfer.
fn pending_sale(db_url: &str, project: ProjectId, ret: ReturnId, lots: i64, payment_type: i16) {
    exec(
        db_url,
        "INSERT INTO users (id, email, status, password_hash) VALUES (50, 'a@example.jp', 'member', 'x') \
         ON CONFLICT (id) DO NOTHING",
    );
    let amount = 5_000 * lots;
    exec(
        db_url,
        &format!(
            "INSERT INTO sales (project_id, return_id, user_id, price, lot, amount, tax, total, tax_mode, \
               tax_rate_percent, payment_type, status, idempotency_key) \
             VALUES ({}, {}, 50, 5000, {lots}, {amount}, {tax}, {total}, 'exclusive', 10, {payment_type}, 'pending', \
               'key-{:06}-{:06}')",
            project.get(),
            ret.get(),
            project.get(),
            ret.get(),
            tax = amount / 10,
            total = amount + amount / 10,
        ),
    );
}

#[tokio::test]
async fn a_new_project_is_a_draft_with_its_terms_and_its_slug_is_its_own() {
    let (_db, pool) = TestDatabase::create().unwrap();
    let repo = PgProjectAuthoring::new(pool.clone());

    let id = repo.create(&terms("numata-apples"), now()).await.unwrap();
    let project = repo.project(id).await.unwrap();

    assert_eq!(project.terms, terms("numata-apples"));
    assert_eq!((project.published_at, project.end_extensions), (None, 0));
    let listed = PgCatalogRepository::new(pool).projects().await.unwrap();
    assert_eq!(listed.iter().find(|p| p.id == id).unwrap().published_at, None, "the catalog sees a draft");
    let again = repo.create(&terms("numata-apples"), now()).await;
    assert!(matches!(again, Err(RepoError::Conflict(ref name)) if name == "projects_slug_key"), "{again:?}");
    assert!(matches!(repo.project(domain::ids::ProjectId(999)).await, Err(RepoError::NotFound)));
}

#[tokio::test]
async fn a_published_project_refuses_a_write_checked_against_other_locked_terms_and_counts_extensions() {
    let (db, pool) = TestDatabase::create().unwrap();
    let repo = PgProjectAuthoring::new(pool);
    let id = repo.create(&terms("numata-apples"), now()).await.unwrap();
    repo.publish(id, now(), now()).await.unwrap();
    let again = repo.publish(id, now(), now()).await;
    assert!(matches!(again, Err(RepoError::Conflict(ref name)) if name == "project_published"), "{again:?}");

    // Checked against a goal that is no longer stored: nothing is written.
    let stale = ProjectTerms { goal: Yen(1), ..terms("numata-apples") };
    let next = ProjectTerms { title: "新しい題".into(), ..stale.clone() };
    let refused = repo.update(id, &stale, &next, false, now()).await;
    assert!(matches!(refused, Err(RepoError::Conflict(ref name)) if name == "project_changed"), "{refused:?}");
    assert_eq!(repo.project(id).await.unwrap().terms.title, "沼田のりんご");

    let mut current = terms("numata-apples");
    for extension in 1..=2 {
        let later = ProjectTerms { period_end: current.period_end + chrono::Duration::days(7), ..current.clone() };
        repo.update(id, &current, &later, true, now()).await.unwrap();
        assert_eq!(repo.project(id).await.unwrap().end_extensions, extension);
        current = later;
    }
    let third = ProjectTerms { period_end: current.period_end + chrono::Duration::days(7), ..current.clone() };
    assert!(matches!(repo.update(id, &current, &third, true, now()).await, Err(RepoError::Conflict(_))));
    exec(&db.url, &format!("UPDATE project_publications SET published_at = NULL WHERE project_id = {}", id.get()));
    let draft_goal = ProjectTerms { goal: Yen(2), ..current.clone() };
    repo.update(id, &current, &draft_goal, false, now()).await.unwrap();
    assert_eq!(repo.project(id).await.unwrap().terms.goal, Yen(2), "a draft changes freely");
}

#[tokio::test]
async fn returns_are_added_in_order_reordered_and_a_backed_one_keeps_price_and_life() {
    let (db, pool) = TestDatabase::create().unwrap();
    let repo = PgProjectAuthoring::new(pool);
    let id = repo.create(&terms("numata-apples"), now()).await.unwrap();
    let first = repo.add_return(id, &a_return("りんご5kg"), now()).await.unwrap();
    let second = repo.add_return(id, &ReturnTerms { hidden: true, ..a_return("りんご10kg") }, now()).await.unwrap();

    let project = repo.project(id).await.unwrap();
    assert_eq!(project.returns.iter().map(|r| r.id).collect::<Vec<_>>(), [first, second]);
    assert!(project.returns[1].terms.hidden);
    assert_eq!(project.returns[0].terms, a_return("りんご5kg"));
    assert!(project.returns.iter().all(|r| r.slug.starts_with('r') && r.slug.len() == 13));

    repo.reorder_returns(id, &[second, first]).await.unwrap();
    assert_eq!(repo.project(id).await.unwrap().returns.iter().map(|r| r.id).collect::<Vec<_>>(), [second, first]);
    assert!(matches!(repo.reorder_returns(id, &[second]).await, Err(RepoError::Conflict(_))), "every return once");

    // Someone holds two lots of the first return (a bank transfer awaited).
    pending_sale(&db.url, id, first, 2, 2);
    let stored = repo.project(id).await.unwrap().returns.into_iter().find(|r| r.id == first).unwrap();
    assert_eq!(stored.lots_taken, 2);
    let cheaper = ReturnTerms { price: Yen(4000), ..a_return("りんご5kg") };
    // Checked against the old price while the stored one differs: nothing changes.
    let stale = ReturnTerms { price: Yen(1), ..a_return("りんご5kg") };
    assert!(matches!(repo.update_return(id, first, &stale, &cheaper, now()).await, Err(RepoError::Conflict(_))));
    let paused = ReturnTerms { disabled: true, disabled_comment: Some("準備中".into()), ..a_return("りんご5kg") };
    repo.update_return(id, first, &a_return("りんご5kg"), &paused, now()).await.unwrap();
    let below = ReturnTerms { stock_limit: Some(1), ..paused.clone() };
    assert!(matches!(repo.update_return(id, first, &paused, &below, now()).await, Err(RepoError::Constraint(_))));
    let deleted = repo.delete_return(id, first).await;
    assert!(matches!(deleted, Err(RepoError::Conflict(ref name)) if name == "return_backed"), "{deleted:?}");
    repo.delete_return(id, second).await.unwrap();
    assert!(matches!(repo.delete_return(id, ReturnId(9999)).await, Err(RepoError::NotFound)));
    let left = repo.project(id).await.unwrap().returns;
    assert_eq!((left.len(), left[0].terms.disabled), (1, true));
}

#[tokio::test]
async fn a_monthly_return_in_a_course_for_one_address_round_trips_and_stays_monthly_once_backed() {
    let (db, pool) = TestDatabase::create().unwrap();
    let repo = PgProjectAuthoring::new(pool);
    let id = repo.create(&terms("numata-monthly"), now()).await.unwrap();
    let monthly = ReturnTerms {
        monthly: true,
        stock_limit: None,
        course: Some("A".into()),
        only_for: Some("vip@example.jp".into()),
        ..a_return("毎月のりんご")
    };
    let ret = repo.add_return(id, &monthly, now()).await.unwrap();
    assert_eq!(repo.project(id).await.unwrap().returns[0].terms, monthly);
    let interval = |db_url: &str| {
        let mut conn = diesel::PgConnection::establish(db_url).unwrap();
        diesel::sql_query(format!("SELECT coalesce(interval, 'once') AS code FROM returns WHERE id = {}", ret.get()))
            .get_result::<Code>(&mut conn)
            .unwrap()
            .code
    };
    assert_eq!(interval(&db.url), "month");

    pending_sale(&db.url, id, ret, 1, 1);
    // Checked as a one-off while it is stored monthly and backed: nothing changes.
    let once = ReturnTerms { monthly: false, ..monthly.clone() };
    assert!(matches!(repo.update_return(id, ret, &once, &once, now()).await, Err(RepoError::Conflict(_))));
    assert_eq!(interval(&db.url), "month");
    let for_everyone = ReturnTerms { course: None, only_for: None, ..monthly.clone() };
    repo.update_return(id, ret, &monthly, &for_everyone, now()).await.unwrap();
    assert_eq!(repo.project(id).await.unwrap().returns[0].terms, for_everyone);
}

#[derive(diesel::QueryableByName)]
struct Code {
    #[diesel(sql_type = diesel::sql_types::Text)]
    code: String,
}

#[tokio::test]
async fn a_scheduled_publication_is_taken_back_but_a_published_one_is_not() {
    let (_db, pool) = TestDatabase::create().unwrap();
    let repo = PgProjectAuthoring::new(pool);
    let id = repo.create(&terms("numata-apples"), now()).await.unwrap();
    repo.publish(id, now() + chrono::Duration::days(1), now()).await.unwrap();

    repo.unschedule(id, now()).await.unwrap();
    assert_eq!(repo.project(id).await.unwrap().published_at, None, "a draft again");

    repo.publish(id, now(), now()).await.unwrap();
    let refused = repo.unschedule(id, now()).await;
    assert!(matches!(refused, Err(RepoError::Conflict(ref name)) if name == "project_not_scheduled"), "{refused:?}");
    assert!(repo.project(id).await.unwrap().published_at.is_some(), "still published");
}

#[tokio::test]
async fn the_list_is_newest_first_with_totals_and_return_counts() {
    let (_db, pool) = TestDatabase::create().unwrap();
    let repo = PgProjectAuthoring::new(pool);
    let older = repo.create(&terms("older-one"), now()).await.unwrap();
    let newer = repo.create(&terms("newer-one"), now() + chrono::Duration::minutes(1)).await.unwrap();
    repo.add_return(newer, &a_return("りんご"), now()).await.unwrap();

    let rows = repo.summaries().await.unwrap();

    assert_eq!(rows.iter().map(|r| r.id).collect::<Vec<_>>(), [newer, older]);
    assert_eq!((rows[0].returns, rows[1].returns), (1, 0));
    assert_eq!(rows[0].raised.supports, 0);
}
