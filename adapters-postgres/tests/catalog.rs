#![allow(clippy::unwrap_used, clippy::expect_used)]
use adapters_postgres::testing::{exec, TestDatabase};
use adapters_postgres::PgCatalogRepository;
use chrono::Utc;
use domain::account::Email;
use domain::ids::{ProjectId, ReturnId};
use domain::money::Yen;
use domain::payment::SaleStatus::{self, AwaitingBankTransfer, Canceled, Pending, Succeeded};
use domain::sponsor::{sponsor_wall, SponsorTier, ANONYMOUS_NAME};
use ports::accounts::UserId;
use ports::catalog::{CatalogRepository, PaidSum};
use ports::RepoError;

/// Users 1-4, projects 1-2, returns: 1 (individual), 2 (company), 3 (hidden), 4 (restricted to b@), 5 (project 2).
fn fixtures(url: &str) {
    exec(
        url,
        "INSERT INTO users (id, email, status, password_hash, corporatename, corporateurl) VALUES \
           (1, 'a@example.jp', 'member', 'x', NULL, NULL), (2, 'b@example.jp', 'member', 'x', NULL, NULL), \
           (3, 'corp@example.jp', 'member', 'x', '上毛商事', 'https://example.jp'), \
           (4, 'big@example.jp', 'member', 'x', '赤城工業', 'https://akagi.example.jp')",
    );
    exec(
        url,
        "INSERT INTO user_images (user_id, image_type, storage_key, url, content_type, byte_size) VALUES \
           (3, 1, 'k3', '/media/logo3.png', 'image/png', 10), (4, 1, 'k4', '/media/logo4.png', 'image/png', 10)",
    );
    exec(
        url,
        "INSERT INTO projects (id, slug, title, target_amount, period_end) VALUES \
           (1, 'p1', 'P1', 100000, '2030-01-01'), (2, 'p2', 'P2', 100000, '2030-01-01')",
    );
    exec(
        url,
        "INSERT INTO returns (id, project_id, slug, return_type, title, price, flag, show_user_email, position) VALUES \
           (1, 1, 'r1', 0, 'R1', 1000, 0, NULL, 1), (2, 1, 'r2', 1, 'R2', 10000, 0, NULL, 2), \
           (3, 1, 'hidden', 0, 'H', 1000, 900, NULL, 3), (4, 1, 'vip', 0, 'V', 1000, 0, ' B@Example.jp ', 4), \
           (5, 2, 'r5', 0, 'R5', 1000, 0, NULL, 1)",
    );
}

/// A sale of `lot` lots at a tax-included price (the projects' default); paid when `status` is succeeded.
#[allow(clippy::too_many_arguments)]
fn sale(url: &str, id: i64, project: i64, ret: i64, user: i64, price: i64, lot: i64, status: SaleStatus) {
    let paid = if status == SaleStatus::Succeeded { "now()" } else { "NULL" };
    let intent = format!("'pi_{id}'");
    let status = status.as_str();
    exec(
        url,
        &format!(
            "INSERT INTO sales (id, project_id, return_id, user_id, price, lot, amount, tax, total, tax_mode, \
               tax_rate_percent, payment_type, status, intent_id, idempotency_key, paid_at, created_at) \
             VALUES ({id}, {project}, {ret}, {user}, {price}, {lot}, {price} * {lot}, {price} * {lot} * 10 / 110, \
               {price} * {lot}, 'inclusive', 10, 1, \
               '{status}', {intent}, 'key-{id:06}', {paid}, now() - interval '{id} minutes')"
        ),
    );
}

fn display_name(url: &str, sale: i64, name: &str, anonymous: bool) {
    exec(
        url,
        &format!(
            "INSERT INTO display_names (sales_id, user_id, project_id, return_id, displayname, flag) \
             SELECT id, user_id, project_id, return_id, '{name}', {} FROM sales WHERE id = {sale}",
            if anonymous { 0 } else { 1 }
        ),
    );
}

#[tokio::test]
async fn sums_count_only_paid_sales() {
    let (db, pool) = TestDatabase::create().unwrap();
    fixtures(&db.url);
    sale(&db.url, 1, 1, 1, 1, 1000, 3, Succeeded);
    sale(&db.url, 2, 1, 2, 3, 10000, 1, Succeeded);
    sale(&db.url, 3, 1, 1, 2, 1000, 5, AwaitingBankTransfer);
    sale(&db.url, 4, 1, 1, 2, 1000, 7, Canceled);
    sale(&db.url, 5, 1, 1, 2, 1000, 1, Pending);
    sale(&db.url, 6, 2, 5, 1, 1000, 2, Succeeded);
    let repo = PgCatalogRepository::new(pool);

    assert_eq!(repo.paid_sum_project(ProjectId(1)).await.unwrap(), PaidSum { amount: Yen(13_000), supports: 2 });
    assert_eq!(repo.paid_sum_return(ReturnId(1)).await.unwrap(), Some(PaidSum { amount: Yen(3_000), supports: 1 }));
    // A hidden return and one shown to a single address have no public total (as unknown as a missing return).
    assert_eq!(repo.paid_sum_return(ReturnId(3)).await.unwrap(), None);
    assert_eq!(repo.paid_sum_return(ReturnId(4)).await.unwrap(), None);
    assert_eq!(repo.paid_sum_return(ReturnId(999)).await.unwrap(), None);
    assert_eq!(repo.paid_sum_all().await.unwrap(), PaidSum { amount: Yen(15_000), supports: 3 });
}

#[tokio::test]
async fn pending_transfers_hold_lots_but_cancelled_sales_do_not() {
    let (db, pool) = TestDatabase::create().unwrap();
    fixtures(&db.url);
    sale(&db.url, 1, 1, 1, 1, 1000, 3, Succeeded);
    sale(&db.url, 2, 1, 1, 2, 1000, 5, AwaitingBankTransfer);
    sale(&db.url, 3, 1, 1, 2, 1000, 7, Canceled);
    let repo = PgCatalogRepository::new(pool);

    let returns = repo.visible_returns(ProjectId(1), None).await.unwrap();

    assert_eq!(returns.iter().find(|r| r.id == ReturnId(1)).unwrap().lots_taken, 8);
}

#[tokio::test]
async fn hidden_returns_are_absent_and_a_restricted_return_shows_only_to_its_user() {
    let (db, pool) = TestDatabase::create().unwrap();
    fixtures(&db.url);
    let repo = PgCatalogRepository::new(pool);
    let ids = |list: Vec<ports::catalog::ReturnRecord>| list.into_iter().map(|r| r.id.get()).collect::<Vec<_>>();

    let anonymous = repo.visible_returns(ProjectId(1), None).await.unwrap();
    let other = repo.visible_returns(ProjectId(1), Some(Email::parse("a@example.jp").unwrap())).await.unwrap();
    let owner = repo.visible_returns(ProjectId(1), Some(Email::parse("b@EXAMPLE.jp").unwrap())).await.unwrap();

    assert_eq!(ids(anonymous), vec![1, 2]);
    assert_eq!(ids(other), vec![1, 2]);
    assert_eq!(ids(owner), vec![1, 2, 4]);
}

#[tokio::test]
async fn sponsor_sales_feed_the_wall_with_tiers_logos_and_sticky_anonymity() {
    let (db, pool) = TestDatabase::create().unwrap();
    fixtures(&db.url);
    // User 4: 60 × 10,000 = 600,000 in two company sales -> largest logo.
    sale(&db.url, 1, 1, 2, 4, 10000, 10, Succeeded);
    sale(&db.url, 2, 1, 2, 4, 10000, 10, Succeeded);
    sale(&db.url, 9, 1, 2, 4, 10000, 10, Succeeded);
    sale(&db.url, 10, 1, 2, 4, 10000, 10, Succeeded);
    sale(&db.url, 11, 1, 2, 4, 10000, 10, Succeeded);
    sale(&db.url, 12, 1, 2, 4, 10000, 10, Succeeded);
    // User 3: 40,000 company -> medium.
    sale(&db.url, 3, 1, 2, 3, 10000, 4, Succeeded);
    // User 1: named, then anonymous -> '匿名' for good.
    sale(&db.url, 4, 1, 1, 1, 1000, 1, Succeeded);
    sale(&db.url, 5, 1, 1, 1, 1000, 2, Succeeded);
    // User 2: only an unpaid sale -> not a sponsor.
    sale(&db.url, 6, 1, 1, 2, 1000, 9, AwaitingBankTransfer);
    display_name(&db.url, 3, "上毛商事", false);
    display_name(&db.url, 4, "群馬 太郎", false);
    display_name(&db.url, 5, "群馬 太郎", true);
    let repo = PgCatalogRepository::new(pool);

    let sales = repo.sponsor_sales(Some(ProjectId(1))).await.unwrap();
    let wall = sponsor_wall(&sales);

    assert_eq!(sales.len(), 3);
    let tiers: Vec<(SponsorTier, Vec<&str>)> =
        wall.corporate.iter().map(|(t, s)| (*t, s.iter().map(|s| s.name.as_str()).collect())).collect();
    // User 4 gave no display name: the company name stands in.
    assert_eq!(tiers, vec![(SponsorTier::Largest, vec!["赤城工業"]), (SponsorTier::Medium, vec!["上毛商事"])]);
    assert_eq!(wall.corporate[0].1[0].img.as_deref(), Some("/media/logo4.png"));
    assert_eq!(wall.personal.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), vec![ANONYMOUS_NAME]);
    assert_eq!(wall.personal[0].amount, Yen(3_000));

    // An excluded account leaves the project's wall.
    exec(&db.url, "INSERT INTO project_sponsor_exclusions (project_id, user_id) VALUES (1, 4)");
    assert_eq!(repo.sponsor_sales(Some(ProjectId(1))).await.unwrap().len(), 2);
}

#[tokio::test]
async fn a_comment_is_updated_by_its_author_only() {
    let (db, pool) = TestDatabase::create().unwrap();
    fixtures(&db.url);
    exec(&db.url, "INSERT INTO comments (id, project_id, user_id, comment) VALUES (7, 1, 1, 'はじめまして')");
    let repo = PgCatalogRepository::new(pool);

    assert_eq!(repo.comment_author(7).await.unwrap(), (UserId(1), ProjectId(1)));
    assert!(matches!(repo.comment_author(8).await, Err(RepoError::NotFound)));
    let by_other = repo.update_comment(7, UserId(2), "乗っ取り".into(), Utc::now()).await;
    assert!(matches!(by_other, Err(RepoError::NotFound)), "{by_other:?}");
    repo.update_comment(7, UserId(1), "書き直しました".into(), Utc::now()).await.unwrap();

    let comments = repo.comments(ProjectId(1)).await.unwrap();
    assert_eq!(comments.len(), 1);
    assert_eq!(comments[0].comment, "書き直しました");
}

#[tokio::test]
async fn news_in_the_future_and_hidden_comments_are_not_listed() {
    let (db, pool) = TestDatabase::create().unwrap();
    fixtures(&db.url);
    exec(
        &db.url,
        "INSERT INTO project_news (project_id, title, published_at) VALUES \
           (1, 'old', now() - interval '2 days'), (1, 'new', now() - interval '1 day'), (1, 'future', now() + interval '1 day')",
    );
    exec(
        &db.url,
        "INSERT INTO comments (project_id, user_id, comment, flag) VALUES (1, 1, 'shown', 1), (1, 2, 'hidden', 0)",
    );
    let repo = PgCatalogRepository::new(pool);

    let news = repo.news(ProjectId(1), Utc::now()).await.unwrap();
    let comments = repo.comments(ProjectId(1)).await.unwrap();

    assert_eq!(news.iter().map(|n| n.title.as_str()).collect::<Vec<_>>(), vec!["new", "old"]);
    assert_eq!(comments.iter().map(|c| c.comment.as_str()).collect::<Vec<_>>(), vec!["shown"]);
}

#[tokio::test]
async fn projects_come_with_their_slider_in_order_and_bank_details_together() {
    let (db, pool) = TestDatabase::create().unwrap();
    fixtures(&db.url);
    exec(
        &db.url,
        "UPDATE projects SET bank_account = '群馬銀行', bank_branch = '本店', bank_kinds = '普通', \
           bank_number = '1234567', bank_nominee = 'グンマ' WHERE id = 2",
    );
    exec(
        &db.url,
        "INSERT INTO project_slider_images (project_id, position, src) VALUES (1, 2, 'b.svg'), (1, 1, 'a.svg')",
    );
    let repo = PgCatalogRepository::new(pool);

    let projects = repo.projects().await.unwrap();

    assert_eq!(projects[0].slider.iter().map(|s| s.src.as_str()).collect::<Vec<_>>(), vec!["a.svg", "b.svg"]);
    assert!(projects[0].anonymous_bank.is_none());
    assert_eq!(projects[1].anonymous_bank.as_ref().map(|b| b.bank.as_str()), Some("群馬銀行"));
}

#[tokio::test]
async fn corrupt_stock_in_the_database_is_an_error_naming_the_column_not_zero() {
    let (db, pool) = TestDatabase::create().unwrap();
    fixtures(&db.url);
    // Simulates data damaged outside the application (a manual fix, a restore
    // from an older schema): the guards that normally refuse it are dropped.
    exec(&db.url, "ALTER TABLE returns DROP CONSTRAINT returns_lots_taken_non_negative");
    exec(&db.url, "UPDATE returns SET lots_taken = -3 WHERE id = 1");
    let repo = PgCatalogRepository::new(pool);

    let lots = repo.visible_returns(ProjectId(1), None).await;
    let Err(RepoError::Unexpected(error)) = lots else { panic!("a negative lots_taken was read as {lots:?}") };
    assert!(error.to_string().contains("returns.lots_taken"), "{error}");

    exec(&db.url, "UPDATE returns SET lots_taken = 0 WHERE id = 1");
    exec(&db.url, "ALTER TABLE returns DROP CONSTRAINT returns_lots_taken_within_stock_limit");
    exec(&db.url, "ALTER TABLE returns DROP CONSTRAINT returns_stock_limit_check");
    exec(&db.url, "UPDATE returns SET stock_limit = -1 WHERE id = 2");
    // A negative limit must not turn into "unlimited".
    let limit = repo.visible_returns(ProjectId(1), None).await;
    let Err(RepoError::Unexpected(error)) = limit else { panic!("a negative stock_limit was read as {limit:?}") };
    assert!(error.to_string().contains("returns.stock_limit"), "{error}");
}

#[tokio::test]
async fn an_unknown_manual_sponsor_course_is_an_error_naming_the_column_not_a_supporter() {
    let (db, pool) = TestDatabase::create().unwrap();
    fixtures(&db.url);
    exec(&db.url, "ALTER TABLE project_manual_sponsors DROP CONSTRAINT project_manual_sponsors_course_check");
    exec(
        &db.url,
        "INSERT INTO project_manual_sponsors (project_id, course, name, logo_src, position) VALUES \
           (1, 'A', '桐生織物', '/media/a.svg', 0), (1, 'D', '謎の協賛', '/media/d.svg', 1)",
    );
    let repo = PgCatalogRepository::new(pool);

    let list = repo.manual_sponsors(ProjectId(1)).await;
    let Err(RepoError::Unexpected(error)) = list else { panic!("an unknown course was read as {list:?}") };
    assert!(error.to_string().contains("project_manual_sponsors.course"), "{error}");
}

#[tokio::test]
async fn a_negative_id_in_the_database_is_an_error_naming_the_column_not_a_record() {
    let (db, pool) = TestDatabase::create().unwrap();
    fixtures(&db.url);
    // Ids come from sequences; one written by hand outside the application is corrupt.
    exec(&db.url, "INSERT INTO users (id, email, status, password_hash) VALUES (-2, 'm@example.jp', 'member', 'x')");
    exec(&db.url, "INSERT INTO comments (id, project_id, user_id, comment, flag) VALUES (9, 1, -2, 'だれ？', 1)");
    let repo = PgCatalogRepository::new(pool);

    let comments = repo.comments(ProjectId(1)).await;
    let Err(RepoError::Unexpected(error)) = comments else { panic!("a negative user id was read as {comments:?}") };
    assert!(error.to_string().contains("comments.user_id"), "{error}");
    let author = repo.comment_author(9).await;
    let Err(RepoError::Unexpected(error)) = author else { panic!("a negative user id was read as {author:?}") };
    assert!(error.to_string().contains("comments.user_id"), "{error}");
}

/// The supporter's history tells a refund paid out from one still on its way (a bank-transfer refund waiting for
/// the supporter's account): one state, as the admin's refund table shows it.
#[tokio::test]
async fn the_history_counts_as_refunded_only_what_the_provider_paid_out() {
    use adapters_postgres::PgProfileRepository;
    use ports::accounts::ProfileRepository;
    let (db, pool) = TestDatabase::create().unwrap();
    fixtures(&db.url);
    sale(&db.url, 1, 1, 1, 1, 1000, 3, Succeeded);
    sale(&db.url, 2, 1, 1, 1, 1000, 2, Succeeded);
    exec(
        &db.url,
        "INSERT INTO refunds (sales_id, amount, status, provider_refund_id, requested_by) VALUES \
           (1, 1000, 'succeeded', 're_1', 4), (1, 500, 'pending', 're_2', 4), (2, 700, 'failed', NULL, 4)",
    );
    let repo = PgProfileRepository::new(pool);

    let history = repo.history(UserId(1)).await.unwrap();

    let figures = |id: i64| {
        let entry = history.iter().find(|e| e.id.get() == id).unwrap();
        (entry.refunded, entry.refunding)
    };
    assert_eq!(figures(1), (Yen(1000), Yen(500)), "paid out, and still on its way");
    assert_eq!(figures(2), (Yen::ZERO, Yen::ZERO), "a failed refund is no refund");
}

#[tokio::test]
async fn search_texts_hold_public_returns_and_follow_edits_across_reads() {
    let (db, pool) = TestDatabase::create().unwrap();
    fixtures(&db.url);
    let repo = PgCatalogRepository::new(pool);
    let finds = |text: &str, query: &str| domain::search::SearchQuery::parse(query).unwrap().unwrap().matches(text);

    let first = repo.projects().await.unwrap();
    let one = first.iter().find(|p| p.id == ProjectId(1)).unwrap();
    assert!(finds(&one.search_text, "r1") && finds(&one.search_text, "r2"), "{}", one.search_text);
    // A hidden return (flag 900) and one shown to a single address are not public words.
    assert!(!finds(&one.search_text, "h") && !finds(&one.search_text, "v"), "{}", one.search_text);

    exec(&db.url, "UPDATE projects SET title = 'ローズガーデン' WHERE id = 1");
    let second = repo.projects().await.unwrap();

    let one = second.iter().find(|p| p.id == ProjectId(1)).unwrap();
    assert!(finds(&one.search_text, "ﾛｰｽﾞ"), "{}", one.search_text);
    let two = |list: &[ports::catalog::ProjectRecord]| {
        list.iter().find(|p| p.id == ProjectId(2)).unwrap().search_text.clone()
    };
    assert_eq!(two(&second), two(&first));
}

/// `catalog_version` is what lets a server without a cache keep every project in memory: each edit
/// that changes what `projects` answers must change it, and a support of an open project must not
/// (or every sale would make every server read every project again).
#[tokio::test]
async fn every_edit_the_project_index_shows_changes_the_catalog_version_and_a_support_does_not() {
    let (db, pool) = TestDatabase::create().unwrap();
    fixtures(&db.url);
    let repo = PgCatalogRepository::new(pool);
    let edits = [
        "UPDATE projects SET title = '新しい題名' WHERE id = 1",
        "UPDATE project_publications SET published_at = '2026-01-02T03:04:05Z' WHERE project_id = 1",
        "INSERT INTO project_slider_images (project_id, position, src, alt) VALUES (1, 1, '/media/a.jpg', '畑')",
        "INSERT INTO project_owners (project_id, name) VALUES (1, '前橋農園')",
        "INSERT INTO project_owner_links (project_id, position, label, url) VALUES (1, 1, '公式', 'https://example.jp')",
        "INSERT INTO project_faqs (project_id, position, question, answer) VALUES (1, 1, '送料は？', '無料です。')",
        "INSERT INTO project_slug_redirects (old_slug, project_id) VALUES ('p1-old', 1)",
        // The migrations list the prefecture's municipalities and the categories.
        "UPDATE projects SET area_id = (SELECT min(id) FROM areas), category_id = (SELECT min(id) FROM categories) \
           WHERE id = 1",
        "UPDATE areas SET name = '新しい町' WHERE id = (SELECT min(id) FROM areas)",
        "UPDATE categories SET name = '新しい分類' WHERE id = (SELECT min(id) FROM categories)",
        "UPDATE returns SET title = 'バラの苗' WHERE id = 1",
        "INSERT INTO returns (id, project_id, slug, return_type, title, price, flag, position) \
           VALUES (6, 1, 'r6', 0, '新しいリターン', 500, 0, 9)",
        "INSERT INTO project_closings (project_id, outcome, goal, counted, pending, checked_at, decided_at) \
           VALUES (1, 'failed', 100000, 3000, 0, now(), now())",
    ];
    for edit in edits {
        let before = (repo.catalog_version().await.unwrap(), repo.projects().await.unwrap());
        exec(&db.url, edit);
        let after = (repo.catalog_version().await.unwrap(), repo.projects().await.unwrap());
        assert_ne!(before.1, after.1, "the edit shows in the index: {edit}");
        assert_ne!(before.0, after.0, "so it changes the version: {edit}");
    }

    // The close sweep checking a closing again (counts and time) changes nothing the index holds.
    let version = repo.catalog_version().await.unwrap();
    exec(&db.url, "UPDATE project_closings SET checked_at = now(), counted = 3500, pending = 500 WHERE project_id = 1");
    assert_eq!(repo.catalog_version().await.unwrap(), version, "a closing checked again");
    // Its outcome is on the page: changing it does.
    exec(&db.url, "UPDATE project_closings SET outcome = 'succeeded' WHERE project_id = 1");
    assert_ne!(repo.catalog_version().await.unwrap(), version, "a closing decided otherwise");
    exec(&db.url, "UPDATE project_closings SET outcome = 'failed' WHERE project_id = 1");

    // A support of the open project 2, paid: the index holds nothing of it.
    let version = repo.catalog_version().await.unwrap();
    sale(&db.url, 10, 2, 5, 1, 1000, 1, Pending);
    exec(&db.url, "UPDATE sales SET status = 'succeeded', paid_at = now(), updated_at = now() WHERE id = 10");
    assert_eq!(repo.catalog_version().await.unwrap(), version, "a support of an open project");

    // A paid sale of the closed project 1 is a refund still to make; refunding it changes the page.
    sale(&db.url, 11, 1, 1, 1, 1000, 3, Succeeded);
    exec(&db.url, "UPDATE sales SET flag = 1 WHERE id = 11");
    let before = (repo.catalog_version().await.unwrap(), repo.projects().await.unwrap());
    exec(&db.url, "UPDATE sales SET refunded_amount = total, flag = 11 WHERE id = 11");
    let after = (repo.catalog_version().await.unwrap(), repo.projects().await.unwrap());
    assert_ne!(before.1, after.1, "refunds left on the closed project's page");
    assert_ne!(before.0, after.0);
}
