//! The SQL of the public pages pre-aggregates for speed; these properties pin
//! that it still answers what the domain's rules answer. Random projects,
//! returns, accounts and sales (every status, some anonymous, several per
//! supporter) are written to PostgreSQL; the repository's answer is compared
//! with a fold in Rust over the same rows using `SaleStatus` and
//! `domain::sponsor`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeMap, BTreeSet};

use adapters_postgres::testing::TestDatabase;
use adapters_postgres::PgCatalogRepository;
use chrono::{DateTime, Duration, TimeZone, Utc};
use diesel::{Connection, PgConnection, RunQueryDsl};
use domain::ids::{ProjectId, ReturnId, UserId};
use domain::money::Yen;
use domain::payment::{counted_amount, SaleStatus};
use domain::returns::ReturnType;
use domain::sponsor::{aggregate, sponsor_wall, SponsorSale};
use domain::time::tokyo_datetime;
use ports::catalog::{CatalogRepository, PaidSum};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

/// Names as people type them, blanks and full-width spaces included: the
/// domain trims with `str::trim`, so the SQL must agree on what is blank.
const NAMES: &[&str] = &["群馬 太郎", " 上州 花子 ", "\u{3000}", "\u{3000}高崎商店\u{3000}", "前橋"];
const COMPANY_NAMES: &[&str] = &["上毛商事", " 赤城工業 ", "\u{3000}", ""];
const URLS: &[&str] = &["https://example.jp", " ", "https://akagi.example.jp/"];
const PRICES: &[i64] = &[1, 500, 1_000, 3_000, 10_000, 30_000, 50_000, 100_000];

#[derive(Debug, Clone)]
struct Return {
    id: i64,
    project: i64,
    kind: ReturnType,
    price: i64,
}

#[derive(Debug, Clone)]
struct User {
    id: i64,
    corporatename: Option<String>,
    corporateurl: Option<String>,
    /// Logo uploads, oldest first; the newest is the current logo.
    logos: usize,
}

impl User {
    fn logo(&self) -> Option<String> {
        (self.logos > 0).then(|| logo_url(self.id, self.logos - 1))
    }
}

#[derive(Debug, Clone)]
struct Sale {
    id: i64,
    return_index: usize,
    user: i64,
    lot: i64,
    /// Written with this status first, then moved to `status` (exercises the
    /// lots trigger on updates as well as inserts).
    first_status: Option<SaleStatus>,
    status: SaleStatus,
    /// Display name and whether it asked for anonymity.
    name: Option<(String, bool)>,
    created_at: DateTime<Utc>,
    /// The share of a paid sale's total refunded (partly or in full), if any.
    refunded_percent: Option<i64>,
}

impl Sale {
    fn total(&self, world: &World) -> i64 {
        world.returns[self.return_index].price * self.lot
    }

    /// What `refunded_amount` holds once the sale is written (a refund needs a paid sale, and at least 1 yen).
    fn refunded(&self, world: &World) -> i64 {
        match self.refunded_percent {
            Some(percent) if self.status == SaleStatus::Succeeded => (self.total(world) * percent / 100).max(1),
            _ => 0,
        }
    }

    /// `domain::payment::counted_amount` of the sale: the rule the walls and sums must follow.
    fn counted(&self, world: &World) -> Yen {
        counted_amount(self.status, Yen(self.total(world)), Yen(self.refunded(world)))
    }
}

#[derive(Debug, Clone)]
struct World {
    projects: Vec<i64>,
    returns: Vec<Return>,
    users: Vec<User>,
    sales: Vec<Sale>,
    /// (project, user) pairs left off that project's sponsor wall.
    exclusions: BTreeSet<(i64, i64)>,
}

fn logo_url(user: i64, n: usize) -> String {
    format!("/media/logo-{user}-{n}.png")
}

fn status() -> impl Strategy<Value = SaleStatus> {
    proptest::sample::select(SaleStatus::ALL.to_vec())
}

fn world() -> impl Strategy<Value = World> {
    let projects = 1usize..=3;
    let returns = proptest::collection::vec(
        (0usize..3, proptest::sample::select(ReturnType::ALL.to_vec()), proptest::sample::select(PRICES.to_vec())),
        1..=6,
    );
    let users = proptest::collection::vec(
        (
            proptest::option::weighted(0.6, proptest::sample::select(COMPANY_NAMES.to_vec())),
            proptest::option::weighted(0.6, proptest::sample::select(URLS.to_vec())),
            0usize..3,
        ),
        1..=6,
    );
    let sales = proptest::collection::vec(
        (
            any::<proptest::sample::Index>(),
            any::<proptest::sample::Index>(),
            1i64..=10,
            proptest::option::weighted(0.3, status()),
            status(),
            proptest::option::weighted(0.8, (proptest::sample::select(NAMES.to_vec()), proptest::bool::weighted(0.25))),
            0i64..60,
            proptest::option::weighted(0.25, 1i64..=100),
        ),
        0..30,
    );
    let exclusions = proptest::collection::vec((0usize..3, any::<proptest::sample::Index>()), 0..3);
    (projects, returns, users, sales, exclusions).prop_map(|(n_projects, returns, users, sales, exclusions)| {
        let projects: Vec<i64> = (1..=n_projects as i64).collect();
        let returns: Vec<Return> = returns
            .into_iter()
            .enumerate()
            .map(|(i, (p, kind, price))| Return { id: i as i64 + 1, project: (p % n_projects) as i64 + 1, kind, price })
            .collect();
        let users: Vec<User> = users
            .into_iter()
            .enumerate()
            .map(|(i, (name, url, logos))| User {
                id: i as i64 + 1,
                corporatename: name.map(str::to_string),
                corporateurl: url.map(str::to_string),
                logos,
            })
            .collect();
        let base = Utc.with_ymd_and_hms(2026, 5, 1, 0, 0, 0).unwrap();
        let sales = sales
            .into_iter()
            .enumerate()
            .map(|(i, (ret, user, lot, first_status, status, name, hours, refunded_percent))| Sale {
                id: i as i64 + 1,
                return_index: ret.index(returns.len()),
                user: user.index(users.len()) as i64 + 1,
                lot,
                first_status,
                status,
                name: name.map(|(n, anonymous)| (n.to_string(), anonymous)),
                // Random order, never two sales at the same instant (the
                // domain breaks ties by input order, SQL by id).
                created_at: base + Duration::hours(hours) + Duration::seconds(i as i64),
                refunded_percent,
            })
            .collect();
        let exclusions = exclusions
            .into_iter()
            .map(|(p, user)| ((p % n_projects) as i64 + 1, user.index(users.len()) as i64 + 1))
            .collect();
        World { projects, returns, users, sales, exclusions }
    })
}

fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

fn quote_opt(text: &Option<String>) -> String {
    text.as_deref().map_or_else(|| "NULL".to_string(), quote)
}

fn exec(conn: &mut PgConnection, sql: &str) {
    diesel::sql_query(sql).execute(conn).unwrap_or_else(|e| panic!("{e}: {sql}"));
}

fn values(rows: impl Iterator<Item = String>) -> Option<String> {
    let rows: Vec<String> = rows.collect();
    (!rows.is_empty()).then(|| rows.join(", "))
}

/// Empties the tables and writes `world`, in one transaction (one commit
/// per case keeps the file fast).
fn store(conn: &mut PgConnection, world: &World) {
    conn.transaction::<_, diesel::result::Error, _>(|conn| {
        write_world(conn, world);
        Ok(())
    })
    .unwrap();
}

fn write_world(conn: &mut PgConnection, world: &World) {
    // DELETE, not TRUNCATE: on tables this small it is many times faster.
    for table in ["display_names", "sales", "project_sponsor_exclusions", "returns", "projects", "user_images", "users"]
    {
        exec(conn, &format!("DELETE FROM {table}"));
    }
    if let Some(rows) = values(world.users.iter().map(|u| {
        format!(
            "({}, 'u{}@example.jp', 'member', 'x', {}, {})",
            u.id,
            u.id,
            quote_opt(&u.corporatename),
            quote_opt(&u.corporateurl)
        )
    })) {
        exec(
            conn,
            &format!("INSERT INTO users (id, email, status, password_hash, corporatename, corporateurl) VALUES {rows}"),
        );
    }
    if let Some(rows) = values(world.users.iter().flat_map(|u| {
        (0..u.logos).map(move |n| {
            format!(
                "({}, 1, 'k-{}-{n}', {}, 'image/png', 10, '2026-01-01'::timestamptz + interval '{n} days')",
                u.id,
                u.id,
                quote(&logo_url(u.id, n))
            )
        })
    })) {
        exec(
            conn,
            &format!(
                "INSERT INTO user_images (user_id, image_type, storage_key, url, content_type, byte_size, created_at) \
                 VALUES {rows}"
            ),
        );
    }
    let projects = values(world.projects.iter().map(|p| format!("({p}, 'p{p}', 'P{p}', 100000, '2030-01-01')")));
    exec(
        conn,
        &format!("INSERT INTO projects (id, slug, title, target_amount, period_end) VALUES {}", projects.unwrap()),
    );
    let returns =
        values(world.returns.iter().map(|r| {
            format!("({}, {}, 'r{}', {}, 'R', {}, 0, {})", r.id, r.project, r.id, r.kind.code(), r.price, r.id)
        }));
    exec(
        conn,
        &format!(
            "INSERT INTO returns (id, project_id, slug, return_type, title, price, flag, position) VALUES {}",
            returns.unwrap()
        ),
    );
    for sale in &world.sales {
        let ret = &world.returns[sale.return_index];
        let written = sale.first_status.unwrap_or(sale.status);
        exec(
            conn,
            &format!(
                "INSERT INTO sales (id, project_id, return_id, user_id, price, lot, amount, tax, total, tax_mode, \
                   tax_rate_percent, payment_type, status, intent_id, idempotency_key, paid_at, created_at) \
                 VALUES ({id}, {project}, {ret_id}, {user}, {price}, {lot}, {amount}, 0, {amount}, 'exempt', 0, 1, \
                   {status}, 'pi_{id}', 'key-{id:06}', {paid}, '{created}')",
                id = sale.id,
                project = ret.project,
                ret_id = ret.id,
                user = sale.user,
                price = ret.price,
                lot = sale.lot,
                amount = ret.price * sale.lot,
                status = quote(written.as_str()),
                paid = if written == SaleStatus::Succeeded { "now()" } else { "NULL" },
                created = sale.created_at.to_rfc3339(),
            ),
        );
        if sale.first_status.is_some() {
            exec(
                conn,
                &format!(
                    "UPDATE sales SET status = {}, paid_at = {} WHERE id = {}",
                    quote(sale.status.as_str()),
                    if sale.status == SaleStatus::Succeeded { "coalesce(paid_at, now())" } else { "NULL" },
                    sale.id
                ),
            );
        }
        let refunded = sale.refunded(world);
        if refunded > 0 {
            exec(conn, &format!("UPDATE sales SET flag = 11, refunded_amount = {refunded} WHERE id = {}", sale.id));
        }
        if let Some((name, anonymous)) = &sale.name {
            exec(
                conn,
                &format!(
                    "INSERT INTO display_names (sales_id, user_id, project_id, return_id, displayname, flag) \
                     VALUES ({}, {}, {}, {}, {}, {})",
                    sale.id,
                    sale.user,
                    ret.project,
                    ret.id,
                    quote(name),
                    if *anonymous { 0 } else { 1 }
                ),
            );
        }
    }
    if let Some(rows) = values(world.exclusions.iter().map(|(p, u)| format!("({p}, {u})"))) {
        exec(conn, &format!("INSERT INTO project_sponsor_exclusions (project_id, user_id) VALUES {rows}"));
    }
}

fn non_blank(text: &Option<String>) -> Option<String> {
    text.clone().filter(|t| !t.trim().is_empty())
}

/// One `SponsorSale` per counting sale of `project` (all projects for `None`),
/// built from the rows alone: the name given with the sale, else the
/// company name for a company or organisation sale; the account's current
/// logo and site URL.
fn reference_sponsor_sales(world: &World, project: Option<i64>) -> Vec<SponsorSale> {
    world
        .sales
        .iter()
        .filter(|s| s.counted(world).0 > 0)
        .filter_map(|s| {
            let ret = &world.returns[s.return_index];
            let user = world.users.iter().find(|u| u.id == s.user)?;
            let in_scope = project.is_none_or(|p| p == ret.project);
            let excluded = world.exclusions.contains(&(ret.project, s.user));
            (in_scope && !excluded).then(|| SponsorSale {
                supporter_id: UserId(s.user),
                display_name: non_blank(&s.name.as_ref().map(|(n, _)| n.clone()))
                    .or_else(|| ret.kind.allows_logo().then(|| non_blank(&user.corporatename)).flatten()),
                anonymous: s.name.as_ref().is_some_and(|(_, anonymous)| *anonymous),
                amount: s.counted(world),
                created_at: tokyo_datetime(s.created_at),
                return_type: ret.kind,
                logo_url: user.logo(),
                link: non_blank(&user.corporateurl),
            })
        })
        .collect()
}

fn reference_sum(world: &World, keep: impl Fn(&Sale, &Return) -> bool) -> PaidSum {
    world.sales.iter().filter(|s| s.counted(world).0 > 0).filter(|s| keep(s, &world.returns[s.return_index])).fold(
        PaidSum::default(),
        |sum, s| PaidSum { amount: Yen(sum.amount.0 + s.counted(world).0), supports: sum.supports + 1 },
    )
}

/// Runs `check` on `cases` random worlds in one database, emptied between cases.
fn for_random_worlds(cases: u32, check: impl Fn(&World, &PgCatalogRepository) -> Result<(), TestCaseError>) {
    let (db, pool) = TestDatabase::create().unwrap();
    let repo = PgCatalogRepository::new(pool);
    let conn = std::cell::RefCell::new(PgConnection::establish(&db.url).unwrap());
    // Each case costs a few database round trips; a failure shrinks within bounds.
    // PROPTEST_CASES=1000 runs a deeper search locally.
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(cases);
    let config = Config { cases, max_shrink_iters: 256, failure_persistence: None, ..Config::default() };
    let mut runner = TestRunner::new(config);
    let result = runner.run(&world(), |world| {
        store(&mut conn.borrow_mut(), &world);
        check(&world, &repo)
    });
    if let Err(failure) = result {
        panic!("{failure}");
    }
}

fn block_on<T>(future: impl std::future::Future<Output = T>) -> T {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(future)
}

#[test]
fn sponsor_walls_from_sql_equal_the_domain_aggregate_of_the_same_sales() {
    for_random_worlds(32, |world, repo| {
        for &project in &world.projects {
            let rows = block_on(repo.sponsor_sales(Some(ProjectId(project)))).unwrap();
            let supporters: BTreeSet<UserId> = rows.iter().map(|r| r.supporter_id).collect();
            prop_assert_eq!(supporters.len(), rows.len(), "one row per supporter");
            prop_assert_eq!(
                sponsor_wall(&rows),
                sponsor_wall(&reference_sponsor_sales(world, Some(project))),
                "project {}",
                project
            );
        }
        let footer = block_on(repo.sponsor_sales(None)).unwrap();
        prop_assert_eq!(aggregate(&footer), aggregate(&reference_sponsor_sales(world, None)));
        Ok(())
    });
}

#[test]
fn paid_totals_from_sql_equal_a_fold_over_the_sales_that_count() {
    for_random_worlds(32, |world, repo| {
        prop_assert_eq!(block_on(repo.paid_sum_all()).unwrap(), reference_sum(world, |_, _| true));
        for &project in &world.projects {
            prop_assert_eq!(
                block_on(repo.paid_sum_project(ProjectId(project))).unwrap(),
                reference_sum(world, |_, r| r.project == project),
                "project {}",
                project
            );
        }
        prop_assert_eq!(block_on(repo.paid_sum_project(ProjectId(99))).unwrap(), PaidSum::default());
        for ret in &world.returns {
            prop_assert_eq!(
                block_on(repo.paid_sum_return(ReturnId(ret.id))).unwrap(),
                Some(reference_sum(world, |_, r| r.id == ret.id)),
                "return {}",
                ret.id
            );
        }
        prop_assert_eq!(block_on(repo.paid_sum_return(ReturnId(99))).unwrap(), None);
        Ok(())
    });
}

#[test]
fn lots_taken_equal_the_lots_of_sales_that_reserve_stock() {
    for_random_worlds(24, |world, repo| {
        let mut expected: BTreeMap<i64, u64> = world.returns.iter().map(|r| (r.id, 0)).collect();
        for sale in world.sales.iter().filter(|s| s.status.reserves_stock()) {
            *expected.entry(world.returns[sale.return_index].id).or_default() += sale.lot as u64;
        }
        let mut taken = BTreeMap::new();
        for &project in &world.projects {
            for ret in block_on(repo.visible_returns(ProjectId(project), None)).unwrap() {
                taken.insert(ret.id.get(), ret.lots_taken);
            }
        }
        prop_assert_eq!(taken, expected);
        Ok(())
    });
}

#[test]
fn public_sales_list_every_counting_sale_with_sticky_anonymity() {
    for_random_worlds(24, |world, repo| {
        for &project in &world.projects {
            let listed = block_on(repo.public_sales(ProjectId(project), 1_000)).unwrap();
            let mut counting: Vec<&Sale> = world
                .sales
                .iter()
                .filter(|s| s.counted(world).0 > 0 && world.returns[s.return_index].project == project)
                .collect();
            counting.sort_by_key(|s| std::cmp::Reverse(s.created_at));
            prop_assert_eq!(listed.len(), counting.len());
            for (row, sale) in listed.iter().zip(&counting) {
                let anonymous = counting.iter().any(|s| s.user == sale.user && s.name.as_ref().is_some_and(|n| n.1));
                prop_assert_eq!(row.created_at, sale.created_at);
                prop_assert_eq!(row.anonymous, anonymous, "sale {}", sale.id);
            }
        }
        Ok(())
    });
}
