//! The demo data set (`app-server seed-demo`) and the writes of it that no operator screen makes.
//!
//! Projects, returns, page texts, settings and news go through the operators' use cases
//! (`app_server::demo`); this module writes the rest, each idempotently: users by e-mail, images by
//! storage key or URL, a return's fixed slug, the demo's calendar (ends and news dates relative to today),
//! manual sponsor entries with an SVG logo, and the supports by their fixed idempotency keys. Running the seed
//! twice leaves the same rows.

use std::collections::HashMap;

use chrono::{Duration, NaiveDate, Utc};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Date, Nullable, Text, Timestamptz};
use diesel::{sql_query, QueryableByName};
use domain::ids::{ProjectId, ReturnId, UserId};
use domain::lot::Lot;
use domain::manual_sponsor::ManualSponsor;
use domain::money::{PriceBreakdown, TaxRate, Yen};
use domain::payment::SaleStatus;
use domain::sponsor::ManualCourse;
use ports::RepoError;

use crate::error::{map_diesel, with_conn};
use crate::schema::{administrators, comments, display_names, project_slider_images, sales, user_images};
use crate::sql_rules::sale_status_to_db;
use crate::PgPool;

#[derive(Debug, Clone)]
pub struct DemoImage {
    pub storage_key: String,
    pub url: String,
    pub content_type: String,
    pub byte_size: i32,
}

#[derive(Debug, Clone)]
pub struct DemoUser {
    pub email: String,
    pub password_hash: String,
    pub displayname: Option<String>,
    pub corporatename: Option<String>,
    pub corporateurl: Option<String>,
    pub administrator: bool,
    /// Company logo (image type 1).
    pub logo: Option<DemoImage>,
    /// Profile icon (image type 2).
    pub icon: Option<DemoImage>,
}

#[derive(Debug, Clone, Default)]
pub struct DemoReturn {
    pub slug: String,
    pub return_type: i16,
    pub title: String,
    pub description: String,
    pub price: i64,
    pub stock_limit: Option<i32>,
    pub disabled: bool,
    pub disabled_comment: Option<String>,
    pub flag: i16,
    pub course: Option<String>,
    pub image_src: Option<String>,
    pub description_image: Option<String>,
    pub description_comment: Option<String>,
    pub lot_disable: bool,
    /// A monthly return (`returns.interval = 'month'`).
    pub monthly: bool,
    pub address_required: bool,
    pub address_label: Option<String>,
    pub show_user_email: Option<String>,
    /// First day of the delivery month.
    pub delivery_month: Option<NaiveDate>,
}

/// A project owner's profile: name, photo, short text, links (label, URL).
#[derive(Debug, Clone, Default)]
pub struct DemoOwner {
    pub name: String,
    pub image_url: Option<String>,
    pub profile: Option<String>,
    pub links: Vec<(String, String)>,
}

#[derive(Debug, Clone)]
pub struct DemoSale {
    /// Fixed idempotency key, e.g. "demo-maebashi-01"; also names the intent `pi_demo_...`.
    pub key: String,
    pub user_email: String,
    pub return_slug: String,
    pub lot: i64,
    /// `Succeeded` or `AwaitingBankTransfer`.
    pub status: SaleStatus,
    /// 1 card, 2 bank transfer.
    pub payment_type: i16,
    pub days_ago: i64,
    pub displayname: String,
    pub anonymous: bool,
    pub comment: Option<String>,
}

#[derive(Debug, Clone)]
pub struct DemoNews {
    pub title: String,
    pub description: String,
    pub days_ago: i64,
}

#[derive(Debug, Clone)]
pub struct DemoManualSponsor {
    pub course: ManualCourse,
    pub name: String,
    pub logo_src: Option<String>,
    pub link: Option<String>,
    pub amount: Option<i64>,
}

#[derive(Debug, Clone, Default)]
pub struct DemoBank {
    pub bank: String,
    pub branch: String,
    pub kinds: String,
    pub number: String,
    pub nominee: String,
}

#[derive(Debug, Clone, Default)]
pub struct DemoProject {
    pub slug: String,
    pub title: String,
    pub description: String,
    /// Already sanitised HTML.
    pub content: String,
    pub target: i64,
    pub period_end: NaiveDate,
    pub main_image_url: String,
    pub honor_img_url: Option<String>,
    pub honor_img_link: Option<String>,
    pub is_donation: bool,
    /// A donation project's payout date (terms §9); `None` for the others.
    pub donation_payout_date: Option<NaiveDate>,
    pub tax_includes: bool,
    pub bank: Option<DemoBank>,
    pub uses_manual_sponsors: bool,
    pub hide_footer_sponsors: bool,
    /// Takes payments only by card (`false`: card, bank transfer and konbini).
    pub card_only: bool,
    /// The question asked at payment step 1: label, text above the field, alert when missing.
    pub additional_data: Option<(String, String, String)>,
    pub slider: Vec<(String, String)>,
    pub returns: Vec<DemoReturn>,
    pub news: Vec<DemoNews>,
    pub manual_sponsors: Vec<DemoManualSponsor>,
    pub sales: Vec<DemoSale>,
    /// `true`: All-or-Nothing; `false`: All-in.
    pub all_or_nothing: bool,
    pub owner: Option<DemoOwner>,
    /// Question and answer pairs, in order.
    pub faqs: Vec<(String, String)>,
    /// The slug of its area (`areas.slug`) and of its category (`categories.slug`).
    pub area: Option<String>,
    pub category: Option<String>,
}

#[derive(Debug, Clone, Default)]
pub struct DemoSet {
    pub users: Vec<DemoUser>,
    pub projects: Vec<DemoProject>,
}

/// Rows in the demo's tables after seeding, for the summary and the idempotency test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DemoCounts(pub Vec<(String, i64)>);

#[derive(QueryableByName)]
struct Id {
    #[diesel(sql_type = BigInt)]
    id: i64,
}

fn upsert_user(conn: &mut PgConnection, user: &DemoUser) -> QueryResult<i64> {
    let id = sql_query(
        "INSERT INTO users (email, status, password_hash, displayname, corporatename, corporateurl) \
         VALUES ($1, 'member', $2, $3, $4, $5) \
         ON CONFLICT (lower(email)) DO UPDATE SET status = 'member', password_hash = EXCLUDED.password_hash, \
           displayname = EXCLUDED.displayname, corporatename = EXCLUDED.corporatename, \
           corporateurl = EXCLUDED.corporateurl, failed_login_count = 0, banned_until = NULL \
         RETURNING id",
    )
    .bind::<Text, _>(&user.email)
    .bind::<Text, _>(&user.password_hash)
    .bind::<diesel::sql_types::Nullable<Text>, _>(&user.displayname)
    .bind::<diesel::sql_types::Nullable<Text>, _>(&user.corporatename)
    .bind::<diesel::sql_types::Nullable<Text>, _>(&user.corporateurl)
    .get_result::<Id>(conn)?
    .id;
    for (image, kind) in [(&user.logo, 1i16), (&user.icon, 2i16)] {
        if let Some(image) = image {
            diesel::insert_into(user_images::table)
                .values((
                    user_images::user_id.eq(id),
                    user_images::image_type.eq(kind),
                    user_images::storage_key.eq(&image.storage_key),
                    user_images::url.eq(&image.url),
                    user_images::content_type.eq(&image.content_type),
                    user_images::byte_size.eq(image.byte_size),
                ))
                .on_conflict(user_images::storage_key)
                .do_update()
                .set((
                    user_images::url.eq(&image.url),
                    user_images::content_type.eq(&image.content_type),
                    user_images::byte_size.eq(image.byte_size),
                ))
                .execute(conn)?;
        }
    }
    if user.administrator {
        diesel::insert_into(administrators::table)
            .values(administrators::user_id.eq(id))
            .on_conflict_do_nothing()
            .execute(conn)?;
    }
    Ok(id)
}

fn user_id(conn: &mut PgConnection, email: &str) -> QueryResult<i64> {
    sql_query("SELECT id FROM users WHERE lower(email) = lower($1)")
        .bind::<Text, _>(email)
        .get_result::<Id>(conn)
        .map(|r| r.id)
}

/// Writes the demo accounts (no screen creates accounts with a password) and answers the demo administrator's id,
/// the actor of every use case the demo goes through.
pub async fn upsert_users(pool: &PgPool, users: Vec<DemoUser>) -> Result<UserId, RepoError> {
    let admin = with_conn(pool, move |conn| {
        conn.transaction(|conn| {
            let mut admin = None;
            for user in &users {
                let id = upsert_user(conn, user)?;
                if user.administrator && admin.is_none() {
                    admin = Some(id);
                }
            }
            Ok(admin)
        })
        .map_err(map_diesel)
    })
    .await?;
    let admin = admin.ok_or_else(|| RepoError::Unexpected(anyhow::anyhow!("the demo set has no administrator")))?;
    UserId::try_from(admin).map_err(|e| RepoError::Unexpected(e.into()))
}

/// The project at `slug`, if the demo (or anyone) wrote it already.
pub async fn project_id(pool: &PgPool, slug: &str) -> Result<Option<ProjectId>, RepoError> {
    let slug = slug.to_string();
    let id = with_conn(pool, move |conn| {
        sql_query("SELECT id FROM projects WHERE slug = $1")
            .bind::<Text, _>(slug)
            .get_result::<Id>(conn)
            .optional()
            .map_err(map_diesel)
    })
    .await?;
    id.map(|r| ProjectId::try_from(r.id).map_err(|e| RepoError::Unexpected(e.into()))).transpose()
}

/// The ids of an area and a category by their slugs (the project form picks them from the same lists). An unknown
/// slug is a mistake in the demo set, not "none": `NotFound`.
pub async fn listed_ids(
    pool: &PgPool,
    area: Option<String>,
    category: Option<String>,
) -> Result<(Option<i64>, Option<i64>), RepoError> {
    with_conn(pool, move |conn| {
        let mut ids = [None, None];
        for (i, (table, slug)) in [("areas", &area), ("categories", &category)].into_iter().enumerate() {
            if let Some(slug) = slug {
                let row = sql_query(format!("SELECT id FROM {table} WHERE slug = $1"))
                    .bind::<Text, _>(slug)
                    .get_result::<Id>(conn)
                    .map_err(map_diesel)?;
                ids[i] = Some(row.id);
            }
        }
        Ok((ids[0], ids[1]))
    })
    .await
}

/// Gives a return the demo's fixed slug. The authoring path names a new return with a random slug that no screen
/// shows or edits; tests and browser specs find the demo's returns by these names, so the demo (a trusted caller)
/// renames its own returns right after creating them.
pub async fn name_return(pool: &PgPool, project: ProjectId, ret: ReturnId, slug: String) -> Result<(), RepoError> {
    with_conn(pool, move |conn| {
        let written = sql_query("UPDATE returns SET slug = $3 WHERE project_id = $1 AND id = $2")
            .bind::<BigInt, _>(project.get())
            .bind::<BigInt, _>(ret.get())
            .bind::<Text, _>(slug)
            .execute(conn)
            .map_err(map_diesel)?;
        crate::error::expect_row(written)
    })
    .await
}

/// The slider's images by URL, in order: rows are replaced only when the URLs differ (new rows start without an
/// alternative text, which the content screen's use case then writes).
pub async fn attach_slider(pool: &PgPool, project: ProjectId, srcs: Vec<String>) -> Result<(), RepoError> {
    with_conn(pool, move |conn| {
        conn.transaction(|conn| {
            let stored: Vec<String> = project_slider_images::table
                .filter(project_slider_images::project_id.eq(project.get()))
                .order(project_slider_images::position)
                .select(project_slider_images::src)
                .load(conn)?;
            if stored == srcs {
                return Ok(());
            }
            diesel::delete(project_slider_images::table.filter(project_slider_images::project_id.eq(project.get())))
                .execute(conn)?;
            for (position, src) in srcs.iter().enumerate() {
                diesel::insert_into(project_slider_images::table)
                    .values((
                        project_slider_images::project_id.eq(project.get()),
                        project_slider_images::position.eq(i32::try_from(position).unwrap_or(i32::MAX)),
                        project_slider_images::src.eq(src),
                    ))
                    .execute(conn)?;
            }
            Ok(())
        })
        .map_err(map_diesel)
    })
    .await
}

/// A return's pictures and the caption under its description picture (no screen writes the last two).
#[derive(Debug, Clone)]
pub struct DemoReturnImages {
    pub id: ReturnId,
    pub image_src: Option<String>,
    pub description_image: Option<String>,
    pub description_comment: Option<String>,
}

/// The demo's images by URL (its generated SVG files under `MEDIA_DIR/demo/`, which the raster-only upload
/// pipeline would refuse): the main and honour images, the owner's photo (after the owner profile exists) and the
/// returns' pictures. A row is written only when a value differs.
pub async fn attach_images(
    pool: &PgPool,
    project: ProjectId,
    main: Option<String>,
    honor: Option<String>,
    owner: Option<String>,
    returns: Vec<DemoReturnImages>,
) -> Result<(), RepoError> {
    with_conn(pool, move |conn| {
        conn.transaction(|conn| {
            sql_query(
                "UPDATE projects SET main_image_url = $2, honor_img_url = $3 WHERE id = $1 \
                 AND (main_image_url IS DISTINCT FROM $2 OR honor_img_url IS DISTINCT FROM $3)",
            )
            .bind::<BigInt, _>(project.get())
            .bind::<Nullable<Text>, _>(main)
            .bind::<Nullable<Text>, _>(honor)
            .execute(conn)?;
            sql_query(
                "UPDATE project_owners SET image_url = $2 WHERE project_id = $1 AND image_url IS DISTINCT FROM $2",
            )
            .bind::<BigInt, _>(project.get())
            .bind::<Nullable<Text>, _>(owner)
            .execute(conn)?;
            for r in &returns {
                sql_query(
                    "UPDATE returns SET image_src = $3, description_image = $4, description_comment = $5 \
                     WHERE project_id = $1 AND id = $2 AND (image_src IS DISTINCT FROM $3 \
                       OR description_image IS DISTINCT FROM $4 OR description_comment IS DISTINCT FROM $5)",
                )
                .bind::<BigInt, _>(project.get())
                .bind::<BigInt, _>(r.id.get())
                .bind::<Nullable<Text>, _>(r.image_src.clone())
                .bind::<Nullable<Text>, _>(r.description_image.clone())
                .bind::<Nullable<Text>, _>(r.description_comment.clone())
                .execute(conn)?;
            }
            Ok(())
        })
        .map_err(map_diesel)
    })
    .await
}

/// A course A to C entry of a manual sponsor list with its logo by URL: the demo's logos are SVG files, which the
/// sponsor screen's raster-only upload refuses, and that screen's use case wants a logo with every such entry. The
/// caller checks the entry by the screen's rule (`domain::manual_sponsor::check_manual_sponsor`); it goes to the end
/// of its course, as the screen adds one.
pub async fn add_manual_sponsor(
    pool: &PgPool,
    project: ProjectId,
    sponsor: ManualSponsor,
    logo_src: Option<String>,
) -> Result<(), RepoError> {
    with_conn(pool, move |conn| {
        sql_query(
            "INSERT INTO project_manual_sponsors (project_id, course, name, logo_src, link, amount, latest_date, \
               position) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, (SELECT COALESCE(MAX(position) + 1, 0) \
               FROM project_manual_sponsors WHERE project_id = $1 AND course = $2))",
        )
        .bind::<BigInt, _>(project.get())
        .bind::<Text, _>(sponsor.course.code())
        .bind::<Text, _>(sponsor.name)
        .bind::<Nullable<Text>, _>(logo_src)
        .bind::<Nullable<Text>, _>(sponsor.link)
        .bind::<Nullable<BigInt>, _>(sponsor.amount.map(|a| a.0))
        .bind::<Nullable<Date>, _>(sponsor.latest_date)
        .execute(conn)
        .map_err(map_diesel)?;
        Ok(())
    })
    .await
}

/// Writes what no screen writes, in one transaction: the demo's calendar (its end, relative to today, which the
/// screens would refuse to move into the past or back; the news items' dates) and the supports (sales, display
/// names, comments) by their fixed keys. `returns` maps each return's slug to its id and
/// price.
pub async fn history(
    pool: &PgPool,
    project_id: ProjectId,
    project: DemoProject,
    returns: HashMap<String, (i64, i64)>,
) -> Result<(), RepoError> {
    with_conn(pool, move |conn| {
        conn.transaction(|conn| write_history(conn, project_id.get(), &project, &returns)).map_err(map_diesel)
    })
    .await
}

fn write_history(
    conn: &mut PgConnection,
    project_id: i64,
    project: &DemoProject,
    return_ids: &HashMap<String, (i64, i64)>,
) -> QueryResult<()> {
    sql_query("UPDATE projects SET period_end = $2 WHERE id = $1 AND period_end <> $2")
        .bind::<BigInt, _>(project_id)
        .bind::<Date, _>(project.period_end)
        .execute(conn)?;

    let now = Utc::now();
    for news in &project.news {
        let at = now - Duration::days(news.days_ago);
        sql_query(
            "UPDATE project_news SET published_at = $3, created_at = $3, updated_at = $3 \
             WHERE project_id = $1 AND title = $2",
        )
        .bind::<BigInt, _>(project_id)
        .bind::<Text, _>(&news.title)
        .bind::<Timestamptz, _>(at)
        .execute(conn)?;
    }

    for sale in &project.sales {
        seed_sale(conn, project, project_id, return_ids, sale)?;
    }
    Ok(())
}

/// A rate as stored in `sales.tax_rate_percent` (0..=100 always fits).
fn rate_percent(rate: TaxRate) -> i16 {
    i16::try_from(rate.percent()).unwrap_or(i16::MAX)
}

fn seed_sale(
    conn: &mut PgConnection,
    project: &DemoProject,
    project_id: i64,
    return_ids: &HashMap<String, (i64, i64)>,
    sale: &DemoSale,
) -> QueryResult<()> {
    let Some(&(return_id, price)) = return_ids.get(&sale.return_slug) else {
        return Err(diesel::result::Error::QueryBuilderError(
            format!("demo sale {}: no return {}", sale.key, sale.return_slug).into(),
        ));
    };
    let user = user_id(conn, &sale.user_email)?;
    let lot = Lot::parse(sale.lot).map_err(|e| diesel::result::Error::QueryBuilderError(e.to_string().into()))?;
    let breakdown =
        PriceBreakdown::for_project(Yen(price), lot, TaxRate::STANDARD, project.is_donation, project.tax_includes)
            .map_err(|e| diesel::result::Error::QueryBuilderError(e.to_string().into()))?;
    let created = Utc::now() - Duration::days(sale.days_ago) - Duration::minutes(i64::from(lot.get()) * 7);
    let paid = sale.status == SaleStatus::Succeeded;
    let inserted: Option<i64> = diesel::insert_into(sales::table)
        .values((
            sales::project_id.eq(project_id),
            sales::return_id.eq(return_id),
            sales::user_id.eq(user),
            sales::price.eq(price),
            sales::lot.eq(i16::from(lot.get())),
            sales::amount.eq(breakdown.amount.0),
            sales::tax.eq(breakdown.tax.0),
            sales::total.eq(breakdown.total.0),
            sales::tax_mode.eq(breakdown.mode.code()),
            sales::tax_rate_percent.eq(rate_percent(breakdown.rate)),
            sales::payment_type.eq(sale.payment_type),
            sales::status.eq(sale_status_to_db(sale.status)),
            sales::intent_id.eq(format!("pi_demo_{}", sale.key.replace('-', "_"))),
            sales::idempotency_key.eq(&sale.key),
            sales::flag.eq(if paid { 1i16 } else { 0 }),
            sales::created_at.eq(created),
            sales::updated_at.eq(created),
            sales::paid_at.eq(paid.then_some(created + Duration::minutes(1))),
        ))
        .on_conflict((sales::user_id, sales::idempotency_key))
        .do_nothing()
        .returning(sales::id)
        .get_result(conn)
        .optional()?;
    let Some(sale_id) = inserted else { return Ok(()) };
    diesel::insert_into(display_names::table)
        .values((
            display_names::sales_id.eq(sale_id),
            display_names::user_id.eq(user),
            display_names::project_id.eq(project_id),
            display_names::return_id.eq(return_id),
            display_names::displayname.eq(&sale.displayname),
            display_names::flag.eq(if sale.anonymous { 0i16 } else { 1 }),
            display_names::created_at.eq(created),
        ))
        .execute(conn)?;
    if let Some(text) = &sale.comment {
        diesel::insert_into(comments::table)
            .values((
                comments::project_id.eq(project_id),
                comments::user_id.eq(user),
                comments::sales_id.eq(sale_id),
                comments::return_id.eq(return_id),
                comments::comment.eq(text),
                comments::created_at.eq(created),
                comments::updated_at.eq(created),
            ))
            .execute(conn)?;
    }
    Ok(())
}

const COUNTED_TABLES: &[&str] = &[
    "users",
    "administrators",
    "user_images",
    "projects",
    "project_slider_images",
    "returns",
    "project_news",
    "project_manual_sponsors",
    "project_owners",
    "project_owner_links",
    "project_faqs",
    "sales",
    "display_names",
    "comments",
];

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    count: i64,
}

/// Row counts of the demo's tables (and the sum of lots held by returns).
pub fn counts(conn: &mut PgConnection) -> QueryResult<DemoCounts> {
    let mut out = Vec::new();
    for table in COUNTED_TABLES {
        let count: Count = sql_query(format!("SELECT count(*) AS count FROM {table}")).get_result(conn)?;
        out.push(((*table).to_string(), count.count));
    }
    let lots: Count =
        sql_query("SELECT coalesce(sum(lots_taken), 0)::bigint AS count FROM returns").get_result(conn)?;
    out.push(("returns.lots_taken".to_string(), lots.count));
    Ok(DemoCounts(out))
}

/// The resulting row counts (`counts`), for the summary and the idempotency test.
pub async fn counts_of(pool: &PgPool) -> Result<DemoCounts, RepoError> {
    with_conn(pool, |conn| counts(conn).map_err(map_diesel)).await
}
