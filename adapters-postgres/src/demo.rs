//! Writes the demo data set (`app-server seed-demo`). Idempotent: projects
//! are upserted by slug, returns by (project, slug), users by e-mail, images
//! by storage key, sales by their fixed idempotency key; the lists a project
//! owns outright (slider, news, manual sponsors) are replaced. Running it
//! twice leaves the same rows.

use chrono::{Duration, NaiveDate, Utc};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};
use diesel::{sql_query, QueryableByName};
use domain::lot::Lot;
use domain::money::{PriceBreakdown, TaxRate, Yen};
use domain::payment::SaleStatus;
use domain::sponsor::ManualCourse;
use ports::RepoError;

use crate::error::{map_diesel, run_blocking};
use crate::schema::{
    administrators, comments, display_names, project_faqs, project_manual_sponsors, project_news, project_owner_links,
    project_owners, project_slider_images, projects, returns, sales, user_images,
};
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

#[derive(Insertable, AsChangeset)]
#[diesel(table_name = projects, treat_none_as_null = true)]
struct ProjectRow<'a> {
    slug: &'a str,
    title: &'a str,
    description: &'a str,
    content: &'a str,
    target_amount: i64,
    period_end: NaiveDate,
    main_image_url: Option<&'a str>,
    honor_img_url: Option<&'a str>,
    honor_img_link: Option<&'a str>,
    is_donation: bool,
    donation_payout_date: Option<NaiveDate>,
    tax_includes: bool,
    bank_account: Option<&'a str>,
    bank_branch: Option<&'a str>,
    bank_kinds: Option<&'a str>,
    bank_number: Option<&'a str>,
    bank_nominee: Option<&'a str>,
    uses_manual_sponsors: bool,
    hide_footer_sponsors: bool,
    accepts_bank_transfer: bool,
    accepts_konbini: bool,
    additional_data_label: Option<&'a str>,
    additional_data_text: Option<&'a str>,
    additional_data_alert: Option<&'a str>,
    funding_model: &'a str,
}

#[derive(Insertable, AsChangeset)]
#[diesel(table_name = returns, treat_none_as_null = true)]
struct ReturnRow<'a> {
    project_id: i64,
    slug: &'a str,
    return_type: i16,
    title: &'a str,
    description: &'a str,
    price: i64,
    stock_limit: Option<i32>,
    disabled: bool,
    disabled_comment: Option<&'a str>,
    flag: i16,
    course: Option<&'a str>,
    image_src: Option<&'a str>,
    description_image: Option<&'a str>,
    description_comment: Option<&'a str>,
    lot_disable: bool,
    interval: Option<&'a str>,
    address_required: bool,
    address_label: Option<&'a str>,
    show_user_email: Option<&'a str>,
    position: i32,
    delivery_month: Option<NaiveDate>,
}

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

fn seed_project(conn: &mut PgConnection, project: &DemoProject) -> QueryResult<()> {
    let bank = project.bank.as_ref();
    let row = ProjectRow {
        slug: &project.slug,
        title: &project.title,
        description: &project.description,
        content: &project.content,
        target_amount: project.target,
        period_end: project.period_end,
        main_image_url: Some(&project.main_image_url),
        honor_img_url: project.honor_img_url.as_deref(),
        honor_img_link: project.honor_img_link.as_deref(),
        is_donation: project.is_donation,
        donation_payout_date: project.donation_payout_date,
        tax_includes: project.tax_includes,
        bank_account: bank.map(|b| b.bank.as_str()),
        bank_branch: bank.map(|b| b.branch.as_str()),
        bank_kinds: bank.map(|b| b.kinds.as_str()),
        bank_number: bank.map(|b| b.number.as_str()),
        bank_nominee: bank.map(|b| b.nominee.as_str()),
        uses_manual_sponsors: project.uses_manual_sponsors,
        hide_footer_sponsors: project.hide_footer_sponsors,
        accepts_bank_transfer: !project.card_only,
        accepts_konbini: !project.card_only,
        additional_data_label: project.additional_data.as_ref().map(|a| a.0.as_str()),
        additional_data_text: project.additional_data.as_ref().map(|a| a.1.as_str()),
        additional_data_alert: project.additional_data.as_ref().map(|a| a.2.as_str()),
        funding_model: if project.all_or_nothing { "all_or_nothing" } else { "all_in" },
    };
    let project_id: i64 = diesel::insert_into(projects::table)
        .values(&row)
        .on_conflict(projects::slug)
        .do_update()
        .set(&row)
        .returning(projects::id)
        .get_result(conn)?;
    for (table, column, slug) in [("areas", "area_id", &project.area), ("categories", "category_id", &project.category)]
    {
        // An unknown slug is a mistake in the demo set, not "none".
        let id = match slug {
            Some(slug) => Some(
                sql_query(format!("SELECT id FROM {table} WHERE slug = $1"))
                    .bind::<Text, _>(slug)
                    .get_result::<Id>(conn)?
                    .id,
            ),
            None => None,
        };
        sql_query(format!("UPDATE projects SET {column} = $2 WHERE id = $1"))
            .bind::<BigInt, _>(project_id)
            .bind::<diesel::sql_types::Nullable<BigInt>, _>(id)
            .execute(conn)?;
    }
    // Every demo project is public, from when it was first seeded (a second seed changes nothing).
    diesel::sql_query(
        "UPDATE project_publications p SET published_at = s.created_at FROM projects s \
         WHERE s.id = $1 AND p.project_id = s.id AND p.published_at IS NULL",
    )
    .bind::<diesel::sql_types::BigInt, _>(project_id)
    .execute(conn)?;

    diesel::delete(project_slider_images::table.filter(project_slider_images::project_id.eq(project_id)))
        .execute(conn)?;
    for (position, (src, alt)) in project.slider.iter().enumerate() {
        diesel::insert_into(project_slider_images::table)
            .values((
                project_slider_images::project_id.eq(project_id),
                project_slider_images::position.eq(i32::try_from(position).unwrap_or(i32::MAX)),
                project_slider_images::src.eq(src),
                project_slider_images::alt.eq(alt),
            ))
            .execute(conn)?;
    }

    diesel::delete(project_owner_links::table.filter(project_owner_links::project_id.eq(project_id))).execute(conn)?;
    diesel::delete(project_owners::table.filter(project_owners::project_id.eq(project_id))).execute(conn)?;
    if let Some(owner) = &project.owner {
        diesel::insert_into(project_owners::table)
            .values((
                project_owners::project_id.eq(project_id),
                project_owners::name.eq(&owner.name),
                project_owners::image_url.eq(owner.image_url.as_deref()),
                project_owners::profile.eq(owner.profile.as_deref()),
            ))
            .execute(conn)?;
    }
    let links = project.owner.as_ref().map(|o| o.links.as_slice()).unwrap_or_default();
    for (position, (label, url)) in links.iter().enumerate() {
        diesel::insert_into(project_owner_links::table)
            .values((
                project_owner_links::project_id.eq(project_id),
                project_owner_links::position.eq(i32::try_from(position).unwrap_or(i32::MAX)),
                project_owner_links::label.eq(label),
                project_owner_links::url.eq(url),
            ))
            .execute(conn)?;
    }
    diesel::delete(project_faqs::table.filter(project_faqs::project_id.eq(project_id))).execute(conn)?;
    for (position, (question, answer)) in project.faqs.iter().enumerate() {
        diesel::insert_into(project_faqs::table)
            .values((
                project_faqs::project_id.eq(project_id),
                project_faqs::position.eq(i32::try_from(position).unwrap_or(i32::MAX)),
                project_faqs::question.eq(question),
                project_faqs::answer.eq(answer),
            ))
            .execute(conn)?;
    }

    let mut return_ids = std::collections::HashMap::new();
    for (position, r) in project.returns.iter().enumerate() {
        let row = ReturnRow {
            project_id,
            slug: &r.slug,
            return_type: r.return_type,
            title: &r.title,
            description: &r.description,
            price: r.price,
            stock_limit: r.stock_limit,
            disabled: r.disabled,
            disabled_comment: r.disabled_comment.as_deref(),
            flag: r.flag,
            course: r.course.as_deref(),
            image_src: r.image_src.as_deref(),
            description_image: r.description_image.as_deref(),
            description_comment: r.description_comment.as_deref(),
            lot_disable: r.lot_disable,
            interval: r.monthly.then_some("month"),
            address_required: r.address_required,
            address_label: r.address_label.as_deref(),
            show_user_email: r.show_user_email.as_deref(),
            position: i32::try_from(position).unwrap_or(i32::MAX),
            delivery_month: r.delivery_month,
        };
        // lots_taken is not in the row: the sales trigger owns it.
        let id: i64 = diesel::insert_into(returns::table)
            .values(&row)
            .on_conflict((returns::project_id, returns::slug))
            .do_update()
            .set(&row)
            .returning(returns::id)
            .get_result(conn)?;
        return_ids.insert(r.slug.clone(), (id, r.price));
    }

    diesel::delete(project_news::table.filter(project_news::project_id.eq(project_id))).execute(conn)?;
    let now = Utc::now();
    for news in &project.news {
        let at = now - Duration::days(news.days_ago);
        diesel::insert_into(project_news::table)
            .values((
                project_news::project_id.eq(project_id),
                project_news::title.eq(&news.title),
                project_news::description.eq(&news.description),
                project_news::published_at.eq(at),
                project_news::created_at.eq(at),
                project_news::updated_at.eq(at),
            ))
            .execute(conn)?;
    }

    diesel::delete(project_manual_sponsors::table.filter(project_manual_sponsors::project_id.eq(project_id)))
        .execute(conn)?;
    for (position, entry) in project.manual_sponsors.iter().enumerate() {
        diesel::insert_into(project_manual_sponsors::table)
            .values((
                project_manual_sponsors::project_id.eq(project_id),
                project_manual_sponsors::course.eq(entry.course.code()),
                project_manual_sponsors::name.eq(&entry.name),
                project_manual_sponsors::logo_src.eq(&entry.logo_src),
                project_manual_sponsors::link.eq(&entry.link),
                project_manual_sponsors::amount.eq(entry.amount),
                project_manual_sponsors::position.eq(i32::try_from(position).unwrap_or(i32::MAX)),
            ))
            .execute(conn)?;
    }

    for sale in &project.sales {
        seed_sale(conn, project, project_id, &return_ids, sale)?;
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
    return_ids: &std::collections::HashMap<String, (i64, i64)>,
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

/// Writes `set` in one transaction and answers the resulting counts.
pub async fn apply(pool: PgPool, set: DemoSet) -> Result<DemoCounts, RepoError> {
    run_blocking(move || {
        let mut conn = pool.get().map_err(|e| RepoError::Unexpected(e.into()))?;
        conn.transaction(|conn| {
            for user in &set.users {
                upsert_user(conn, user)?;
            }
            for project in &set.projects {
                seed_project(conn, project)?;
            }
            counts(conn)
        })
        .map_err(map_diesel)
    })
    .await
}
