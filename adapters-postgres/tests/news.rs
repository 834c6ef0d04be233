//! News on PostgreSQL: drafts and scheduled items stay off the public list,
//! a supporters-only item knows whom it admits, and its mail is queued once,
//! to the supporters it admits who did not opt out.
#![allow(clippy::unwrap_used, clippy::expect_used)]
use adapters_postgres::testing::{exec, TestDatabase};
use adapters_postgres::{PgCatalogRepository, PgProjectAuthoring, PgProjectNews};
use chrono::{Duration, NaiveDate, TimeZone, Utc};
use diesel::{sql_query, Connection, PgConnection, QueryableByName, RunQueryDsl};
use domain::authoring::{ProjectTerms, ReturnTerms, TaxHandling};
use domain::ids::{ProjectId, ReturnId, UserId};
use domain::money::Yen;
use domain::news::{NewsAudience, NewsTerms};
use domain::project::FundingModel;
use domain::returns::ReturnType;
use ports::admin::news::{NewsMail, ProjectNewsRepository};
use ports::admin::projects::ProjectAuthoringRepository;
use ports::catalog::CatalogRepository;
use ports::RepoError;

const ADMIN: UserId = UserId(1);

fn now() -> chrono::DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 12, 1, 3, 0, 0).unwrap()
}

#[derive(QueryableByName)]
struct Value {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    value: i64,
}

fn count(url: &str, sql: &str) -> i64 {
    let mut conn = PgConnection::establish(url).unwrap();
    sql_query(sql).get_result::<Value>(&mut conn).unwrap().value
}

fn news(title: &str, audience: NewsAudience, mail: bool) -> NewsTerms {
    NewsTerms { title: title.into(), body: "<p>報告</p>".into(), audience, mail_supporters: mail }
}

fn mail() -> NewsMail {
    NewsMail { subject: "【活動報告】お知らせ".into(), content: "<p>報告</p>".into() }
}

/// A published project with two returns; users 1 (admin) to 5; user 2 backs return A, user 3 return B, user 4
/// backs A but opted out, user 5 only has a pending sale.
async fn setup(url: &str, pool: adapters_postgres::PgPool) -> (ProjectId, ReturnId, ReturnId) {
    let authoring = PgProjectAuthoring::new(pool);
    let terms = ProjectTerms {
        slug: "numata-apples".into(),
        title: "沼田のりんご".into(),
        lead: "りんご畑を守る".into(),
        story: "<p>畑の話</p>".into(),
        goal: Yen(800_000),
        period_end: NaiveDate::from_ymd_opt(2027, 2, 28).unwrap(),
        funding_model: FundingModel::AllIn,
        tax: TaxHandling::Inclusive,
        accepts_card: true,
        accepts_bank_transfer: true,
        accepts_konbini: false,
        area_id: None,
        category_id: None,
        owner_email: None,
        donation_payout_date: None,
    };
    let project = authoring.create(&terms, now()).await.unwrap();
    let ret = |title: &str| ReturnTerms {
        title: title.into(),
        description: "お礼のメール".into(),
        price: Yen(3000),
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
    let a = authoring.add_return(project, &ret("A"), now()).await.unwrap();
    let b = authoring.add_return(project, &ret("B"), now()).await.unwrap();
    authoring.publish(project, now() - Duration::days(1), now()).await.unwrap();
    exec(
        url,
        "INSERT INTO users (id, email, status, password_hash) VALUES (1, 'admin@example.jp', 'member', 'x'), \
           (2, 'a@example.jp', 'member', 'x'), (3, 'b@example.jp', 'member', 'x'), \
           (4, 'out@example.jp', 'member', 'x'), (5, 'pending@example.jp', 'member', 'x')",
    );
    exec(url, "INSERT INTO mail_opt_outs (user_id) VALUES (4)");
    for (id, user, ret, status) in [
        (1, 2, a, "succeeded"),
        (2, 3, b, "succeeded"),
        (3, 4, a, "succeeded"),
        (4, 5, a, "pending"),
        (5, 2, a, "succeeded"),
    ] {
        let paid = if status == "succeeded" { "now()" } else { "NULL" };
        exec(
            url,
            &format!(
                "INSERT INTO sales (id, project_id, return_id, user_id, price, lot, amount, tax, total, tax_mode, \
                   tax_rate_percent, payment_type, status, intent_id, idempotency_key, paid_at) \
                 VALUES ({id}, {}, {}, {user}, 3000, 1, 3000, 272, 3000, 'inclusive', 10, 1, '{status}', 'pi_{id}', \
                   'key-{id:06}', {paid})",
                project.get(),
                ret.get()
            ),
        );
    }
    (project, a, b)
}

#[tokio::test]
async fn drafts_and_scheduled_items_are_not_public_and_a_published_one_carries_its_audience() {
    let (db, pool) = TestDatabase::create().unwrap();
    let (project, a, _) = setup(&db.url, pool.clone()).await;
    let repo = PgProjectNews::new(pool.clone());
    let catalog = PgCatalogRepository::new(pool);
    let supporters = NewsAudience::Supporters { returns: vec![a] };
    let draft = repo.create(project, &news("下書き", NewsAudience::Public, false), None, ADMIN, now()).await.unwrap();
    let later = Some(now() + Duration::hours(2));
    repo.create(project, &news("予約", NewsAudience::Public, false), later, ADMIN, now()).await.unwrap();
    let shown =
        repo.create(project, &news("公開", supporters.clone(), false), Some(now()), ADMIN, now()).await.unwrap();

    let public = catalog.news(project, now()).await.unwrap();
    assert_eq!(public.iter().map(|n| n.id).collect::<Vec<_>>(), [shown]);
    assert_eq!(public[0].audience, supporters);
    assert_eq!(repo.list(project).await.unwrap().len(), 3, "the operator sees all three");
    assert_eq!(repo.get(project, draft).await.unwrap().published_at, None);
    assert!(matches!(repo.get(ProjectId(project.get() + 1), draft).await, Err(RepoError::NotFound)));
    assert!(matches!(repo.delete(ProjectId(project.get() + 1), draft).await, Err(RepoError::NotFound)));
    repo.delete(project, draft).await.unwrap();
    assert!(matches!(repo.get(project, draft).await, Err(RepoError::NotFound)));
}

#[tokio::test]
async fn a_supporter_reads_the_returns_of_paid_sales_only() {
    let (db, pool) = TestDatabase::create().unwrap();
    let (project, a, b) = setup(&db.url, pool.clone()).await;
    let catalog = PgCatalogRepository::new(pool);

    assert_eq!(catalog.supported_returns(project, UserId(2)).await.unwrap(), [a]);
    assert_eq!(catalog.supported_returns(project, UserId(3)).await.unwrap(), [b]);
    assert!(catalog.supported_returns(project, UserId(5)).await.unwrap().is_empty(), "a pending sale opens nothing");
}

#[tokio::test]
async fn the_mail_goes_once_to_the_admitted_supporters_who_did_not_opt_out() {
    let (db, pool) = TestDatabase::create().unwrap();
    let (project, a, _) = setup(&db.url, pool.clone()).await;
    let repo = PgProjectNews::new(pool);
    let only_a = news("Aの方へ", NewsAudience::Supporters { returns: vec![a] }, true);
    let id = repo.create(project, &only_a, Some(now()), ADMIN, now()).await.unwrap();

    assert_eq!(repo.mails_due(now(), 10).await.unwrap(), [(project, id)]);
    let created = repo.queue_mail(id, &mail(), "send_mass_mail", 5, now()).await.unwrap().unwrap();
    // User 2 backed A twice and gets one mail; 3 backed B, 4 opted out, 5 has not paid.
    assert_eq!(created.emails, ["a@example.jp"]);
    assert!(repo.queue_mail(id, &mail(), "send_mass_mail", 5, now()).await.unwrap().is_none(), "a repeat mails nobody");
    assert!(repo.mails_due(now(), 10).await.unwrap().is_empty());
    let stored = repo.get(project, id).await.unwrap();
    assert_eq!((stored.mail_id, stored.mail_queued_at), (Some(created.id), Some(now())));
    assert_eq!(count(&db.url, "SELECT count(*) AS value FROM background_jobs WHERE kind = 'send_mass_mail'"), 1);
    assert_eq!(
        count(
            &db.url,
            &format!("SELECT count(*) AS value FROM sent_mails WHERE segment = 'project_news' AND id = {}", created.id)
        ),
        1
    );
}

#[tokio::test]
async fn a_scheduled_item_is_not_mailed_before_it_is_public_nor_an_item_without_the_box() {
    let (db, pool) = TestDatabase::create().unwrap();
    let (project, _, _) = setup(&db.url, pool.clone()).await;
    let repo = PgProjectNews::new(pool);
    let later = now() + Duration::hours(2);
    let scheduled =
        repo.create(project, &news("予約", NewsAudience::Public, true), Some(later), ADMIN, now()).await.unwrap();
    let quiet =
        repo.create(project, &news("静か", NewsAudience::Public, false), Some(now()), ADMIN, now()).await.unwrap();

    assert!(repo.mails_due(now(), 10).await.unwrap().is_empty());
    assert!(repo.queue_mail(scheduled, &mail(), "send_mass_mail", 5, now()).await.unwrap().is_none());
    assert!(repo.queue_mail(quiet, &mail(), "send_mass_mail", 5, now()).await.unwrap().is_none());
    assert_eq!(repo.mails_due(later, 10).await.unwrap(), [(project, scheduled)]);
    let created = repo.queue_mail(scheduled, &mail(), "send_mass_mail", 5, later).await.unwrap().unwrap();
    // A public item goes to every paying supporter who did not opt out.
    assert_eq!(created.emails, ["a@example.jp", "b@example.jp"]);
}
