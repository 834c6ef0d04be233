//! The public-site reads (projects, returns, paid totals, sponsor walls,
//! news, comments) and the comment edit.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::{Arc, LazyLock, Mutex, PoisonError};

use async_trait::async_trait;
use chrono::{DateTime, NaiveDate, Utc};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Bool, Nullable, SmallInt, Text, Timestamptz};
use diesel::{sql_query, QueryableByName};
use domain::account::Email;
use domain::ids::{ProjectId, ReturnId};
use domain::money::Yen;
use domain::news::NewsAudience;
use domain::returns::ReturnType;
use domain::sponsor::{ManualCourse, SponsorSale};
use domain::time::tokyo_datetime;
use ports::accounts::UserId;
use ports::catalog::{
    AdditionalData, BankAccount, CatalogRepository, CommentRecord, Faq, ManualSponsorRecord, NewsItem, OwnerLink,
    PaidSum, ProjectOwner, ProjectRecord, PublicSaleRecord, ReturnRecord, SliderImage, Taxon, Taxonomy,
};
use ports::RepoError;

use crate::error::{expect_row, map_diesel, with_conn};
use crate::prepared::prepared;
use crate::schema::{
    comments, project_faqs, project_manual_sponsors, project_news, project_owner_links, project_owners,
    project_slider_images, project_totals, projects,
};
use crate::sql_rules::{corrupt, counts_toward_totals, name_hidden_by_operator, stored_id, trim};
use crate::PgPool;

#[derive(Clone)]
pub struct PgCatalogRepository {
    pool: PgPool,
    /// The last read's search texts (`ProjectRecord::search_text`) by project id, each with a hash of the texts
    /// it was folded from: folding every story is most of a catalog read's work, and the public cache reads the
    /// catalog again every second, so only a project whose words changed is folded again.
    folded: Arc<Mutex<HashMap<i64, (u64, String)>>>,
}

impl PgCatalogRepository {
    pub fn new(pool: PgPool) -> Self {
        Self { pool, folded: Arc::default() }
    }
}

/// The words keyword search reads of one project, before folding.
struct SearchSource<'a> {
    title: &'a str,
    lead: &'a str,
    story: &'a str,
    owner: Option<&'a str>,
    returns: &'a [(String, String)],
}

impl SearchSource<'_> {
    fn digest(&self) -> u64 {
        let mut hasher = DefaultHasher::new();
        (self.title, self.lead, self.story, self.owner, self.returns).hash(&mut hasher);
        hasher.finish()
    }

    fn fold(&self) -> String {
        domain::search::index_text(
            self.title,
            self.lead,
            self.story,
            self.owner,
            self.returns.iter().map(|(title, description)| (title.as_str(), description.as_str())),
        )
    }
}

fn return_type(code: i16) -> Result<ReturnType, RepoError> {
    ReturnType::from_code(i32::from(code)).map_err(|e| corrupt("returns.return_type", e))
}

#[derive(Queryable, Selectable)]
#[diesel(table_name = projects)]
struct ProjectRow {
    id: i64,
    slug: String,
    title: String,
    description: String,
    content: String,
    target_amount: i64,
    period_end: NaiveDate,
    main_image_url: Option<String>,
    honor_img_url: Option<String>,
    honor_img_link: Option<String>,
    is_donation: bool,
    tax_includes: bool,
    bank_account: Option<String>,
    bank_branch: Option<String>,
    bank_kinds: Option<String>,
    bank_number: Option<String>,
    bank_nominee: Option<String>,
    uses_manual_sponsors: bool,
    hide_footer_sponsors: bool,
    accepts_card: bool,
    accepts_bank_transfer: bool,
    accepts_konbini: bool,
    additional_data_label: Option<String>,
    additional_data_text: Option<String>,
    additional_data_description: Option<String>,
    additional_data_alert: Option<String>,
    additional_data_form_line: Option<i32>,
    funding_model: String,
}

#[derive(QueryableByName)]
struct ReturnIdRow {
    #[diesel(sql_type = BigInt)]
    return_id: i64,
}

#[derive(QueryableByName)]
struct ClosingRow {
    #[diesel(sql_type = BigInt)]
    project_id: i64,
    #[diesel(sql_type = Text)]
    outcome: String,
    #[diesel(sql_type = BigInt)]
    refunds_left: i64,
}

#[derive(QueryableByName)]
struct TaxonRow {
    #[diesel(sql_type = Text)]
    kind: String,
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = Text)]
    slug: String,
    #[diesel(sql_type = Text)]
    name: String,
}

const TAXONOMY: &str = "SELECT 'area' AS kind, id, slug, name, position FROM areas \
     UNION ALL SELECT 'category', id, slug, name, position FROM categories ORDER BY kind, position, id";

/// A project's area and category, by id.
#[derive(QueryableByName)]
struct PlacementRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = Nullable<BigInt>)]
    area_id: Option<i64>,
    #[diesel(sql_type = Nullable<BigInt>)]
    category_id: Option<i64>,
}

/// A project's paid total as `project_totals` keeps it: the project, the amount, the supports.
const PROJECT_TOTAL: (project_totals::project_id, project_totals::paid_amount, project_totals::supports) =
    (project_totals::project_id, project_totals::paid_amount, project_totals::supports);

/// `project_totals` rows (`PROJECT_TOTAL`) as each project's paid total.
fn paid_sums_from(rows: Vec<(i64, i64, i64)>) -> Result<HashMap<ProjectId, PaidSum>, RepoError> {
    rows.into_iter()
        .map(|(id, amount, supports)| {
            Ok((stored_id("project_totals.project_id", id)?, PaidSum { amount: Yen(amount), supports }))
        })
        .collect()
}

fn load_taxonomy(conn: &mut PgConnection) -> Result<Taxonomy, RepoError> {
    let rows: Vec<TaxonRow> = sql_query(TAXONOMY).load(conn).map_err(map_diesel)?;
    let mut taxonomy = Taxonomy::default();
    for row in rows {
        let taxon = Taxon { id: row.id, slug: row.slug, name: row.name };
        if row.kind == "area" {
            taxonomy.areas.push(taxon);
        } else {
            taxonomy.categories.push(taxon);
        }
    }
    Ok(taxonomy)
}

#[derive(QueryableByName)]
struct PublicationRow {
    #[diesel(sql_type = BigInt)]
    project_id: i64,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    published_at: Option<DateTime<Utc>>,
}

/// What a project page adds to the project row: slider, owner links, FAQ.
#[derive(Default)]
struct ProjectExtras {
    slider: Vec<SliderImage>,
    /// Name, image, profile from `project_owners`.
    owner: Option<(String, Option<String>, Option<String>)>,
    links: Vec<OwnerLink>,
    faqs: Vec<Faq>,
    /// From `project_publications`; `None` (a draft) when it has no row.
    published_at: Option<DateTime<Utc>>,
    /// From `project_closings`.
    closing: Option<ports::catalog::CloseResult>,
    area: Option<Taxon>,
    category: Option<Taxon>,
    /// Title and description of each public return, for keyword search.
    return_texts: Vec<(String, String)>,
    /// From `project_slug_redirects`.
    former_slugs: Vec<String>,
}

/// A published project's former address.
#[derive(QueryableByName)]
struct RedirectRow {
    #[diesel(sql_type = Text)]
    old_slug: String,
    #[diesel(sql_type = BigInt)]
    project_id: i64,
}

/// A public return's words for keyword search.
#[derive(QueryableByName)]
struct ReturnTextRow {
    #[diesel(sql_type = BigInt)]
    project_id: i64,
    #[diesel(sql_type = Text)]
    title: String,
    #[diesel(sql_type = Text)]
    description: String,
}

impl ProjectRow {
    /// What keyword search reads of this project, with its extras.
    fn search_source<'a>(&'a self, extras: &'a ProjectExtras) -> SearchSource<'a> {
        SearchSource {
            title: &self.title,
            lead: &self.description,
            story: &self.content,
            owner: extras.owner.as_ref().map(|(name, _, _)| name.as_str()),
            returns: &extras.return_texts,
        }
    }

    fn into_record(self, extras: ProjectExtras, search_text: String) -> Result<ProjectRecord, RepoError> {
        let ProjectExtras {
            slider,
            owner,
            links,
            faqs,
            published_at,
            closing,
            area,
            category,
            return_texts: _,
            former_slugs,
        } = extras;
        let funding_model = domain::project::FundingModel::parse(&self.funding_model)
            .ok_or_else(|| corrupt("projects.funding_model", &self.funding_model))?;
        let owner = owner.map(|(name, image_url, profile)| ProjectOwner {
            name,
            image_url,
            profile: profile.filter(|p| !p.trim().is_empty()),
            links,
        });
        // projects_bank_all_or_none keeps the five columns together; a partial
        // account would send transfers nowhere, so it is an error, not "none".
        let anonymous_bank =
            match (self.bank_account, self.bank_branch, self.bank_kinds, self.bank_number, self.bank_nominee) {
                (Some(bank), Some(branch), Some(kinds), Some(number), Some(nominee)) => {
                    Some(BankAccount { bank, branch, kinds, number, nominee })
                }
                (None, None, None, None, None) => None,
                _ => return Err(corrupt("projects.bank_*", format!("project {} has a partial bank account", self.id))),
            };
        Ok(ProjectRecord {
            id: stored_id("projects.id", self.id)?,
            slug: self.slug,
            title: self.title,
            description: self.description,
            content: self.content,
            target: Yen(self.target_amount),
            period_end: self.period_end,
            main_image_url: self.main_image_url,
            honor_img_url: self.honor_img_url,
            honor_img_link: self.honor_img_link,
            is_donation: self.is_donation,
            tax_includes: self.tax_includes,
            anonymous_bank,
            uses_manual_sponsors: self.uses_manual_sponsors,
            hide_footer_sponsors: self.hide_footer_sponsors,
            slider,
            accepts_card: self.accepts_card,
            accepts_bank_transfer: self.accepts_bank_transfer,
            accepts_konbini: self.accepts_konbini,
            additional_data: self.additional_data_label.filter(|l| !l.trim().is_empty()).map(|label| AdditionalData {
                label,
                text: self.additional_data_text,
                description: self.additional_data_description,
                alert: self.additional_data_alert,
                form_line: self.additional_data_form_line,
            }),
            funding_model,
            owner,
            faqs,
            published_at,
            closing,
            area,
            category,
            search_text,
            former_slugs,
        })
    }
}

#[derive(QueryableByName)]
struct SumRow {
    #[diesel(sql_type = BigInt)]
    amount: i64,
    #[diesel(sql_type = BigInt)]
    supports: i64,
}

impl From<SumRow> for PaidSum {
    fn from(row: SumRow) -> Self {
        PaidSum { amount: Yen(row.amount), supports: row.supports }
    }
}

#[derive(QueryableByName)]
struct ReturnSumRow {
    #[diesel(sql_type = BigInt)]
    amount: i64,
    #[diesel(sql_type = BigInt)]
    supports: i64,
}

#[derive(QueryableByName)]
struct ReturnRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = BigInt)]
    project_id: i64,
    #[diesel(sql_type = Text)]
    slug: String,
    #[diesel(sql_type = SmallInt)]
    return_type: i16,
    #[diesel(sql_type = Text)]
    title: String,
    #[diesel(sql_type = Text)]
    description: String,
    #[diesel(sql_type = BigInt)]
    price: i64,
    #[diesel(sql_type = Nullable<diesel::sql_types::Integer>)]
    stock_limit: Option<i32>,
    #[diesel(sql_type = diesel::sql_types::Integer)]
    lots_taken: i32,
    #[diesel(sql_type = Bool)]
    disabled: bool,
    #[diesel(sql_type = Nullable<Text>)]
    disabled_comment: Option<String>,
    #[diesel(sql_type = SmallInt)]
    flag: i16,
    #[diesel(sql_type = Nullable<Text>)]
    course: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    image_src: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    description_image: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    description_comment: Option<String>,
    #[diesel(sql_type = Bool)]
    lot_disable: bool,
    #[diesel(sql_type = Nullable<Text>)]
    interval: Option<String>,
    #[diesel(sql_type = Bool)]
    address_required: bool,
    #[diesel(sql_type = Nullable<Text>)]
    address_label: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    show_user_email: Option<String>,
    #[diesel(sql_type = Nullable<diesel::sql_types::Date>)]
    delivery_month: Option<NaiveDate>,
    #[diesel(sql_type = BigInt)]
    supporters: i64,
}

impl TryFrom<ReturnRow> for ReturnRecord {
    type Error = RepoError;
    fn try_from(row: ReturnRow) -> Result<Self, RepoError> {
        Ok(ReturnRecord {
            id: stored_id("returns.id", row.id)?,
            project_id: stored_id("returns.project_id", row.project_id)?,
            slug: row.slug,
            return_type: return_type(row.return_type)?,
            title: row.title,
            description: row.description,
            price: Yen(row.price),
            // A negative limit would read as "unlimited" and negative lots as
            // free stock: both are corrupt data, not something to paper over.
            stock_limit: row
                .stock_limit
                .map(|l| u32::try_from(l).map_err(|_| corrupt("returns.stock_limit", l)))
                .transpose()?,
            lots_taken: u64::try_from(row.lots_taken).map_err(|_| corrupt("returns.lots_taken", row.lots_taken))?,
            disabled: row.disabled,
            disabled_comment: row.disabled_comment,
            flag: i32::from(row.flag),
            course: row.course,
            image_src: row.image_src,
            description_image: row.description_image,
            description_comment: row.description_comment,
            lot_disable: row.lot_disable,
            monthly: row.interval.as_deref() == Some("month"),
            address_required: row.address_required,
            address_label: row.address_label,
            show_user_email: row.show_user_email,
            delivery_month: row.delivery_month,
            supporters: row.supporters,
        })
    }
}

#[derive(QueryableByName)]
struct CommentRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = BigInt)]
    project_id: i64,
    #[diesel(sql_type = BigInt)]
    user_id: i64,
    #[diesel(sql_type = Text)]
    comment: String,
    #[diesel(sql_type = Timestamptz)]
    updated_at: DateTime<Utc>,
    #[diesel(sql_type = Nullable<Text>)]
    author_displayname: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    author_icon: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    sale_displayname: Option<String>,
    #[diesel(sql_type = Bool)]
    author_anonymous: bool,
}

#[derive(QueryableByName)]
struct SponsorRow {
    #[diesel(sql_type = BigInt)]
    user_id: i64,
    #[diesel(sql_type = BigInt)]
    amount: i64,
    #[diesel(sql_type = Timestamptz)]
    latest: DateTime<Utc>,
    #[diesel(sql_type = Bool)]
    anonymous: bool,
    #[diesel(sql_type = Nullable<Text>)]
    name: Option<String>,
    #[diesel(sql_type = SmallInt)]
    return_type: i16,
    #[diesel(sql_type = Nullable<Text>)]
    link: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    logo: Option<String>,
}

#[derive(QueryableByName)]
struct PublicSaleRow {
    #[diesel(sql_type = Timestamptz)]
    created_at: DateTime<Utc>,
    #[diesel(sql_type = SmallInt)]
    return_type: i16,
    #[diesel(sql_type = Nullable<Text>)]
    displayname: Option<String>,
    #[diesel(sql_type = Bool)]
    anonymous: bool,
    #[diesel(sql_type = Nullable<Text>)]
    corporatename: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    corporateurl: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    logo_url: Option<String>,
}

/// Paid totals are running totals the database keeps in the sale's own
/// transaction (migration `running_totals`, docs/decisions.md "Running
/// totals"): the site total adds one row per project, a project's or a
/// return's total is a primary-key lookup, whatever the number of sales.
const SUM_ALL: &str = "SELECT coalesce(sum(paid_amount), 0)::bigint AS amount, \
     coalesce(sum(supports), 0)::bigint AS supports FROM project_totals";
/// A project's total: a lookup by `project_totals`' primary key.
fn project_sum(
    project_id: ProjectId,
) -> diesel::dsl::Select<
    diesel::dsl::Find<project_totals::table, i64>,
    (project_totals::paid_amount, project_totals::supports),
> {
    project_totals::table.find(project_id.get()).select((project_totals::paid_amount, project_totals::supports))
}

/// Only for returns every visitor sees: a hidden return, or one shown to a single address, has no public total.
const SUM_RETURN: &str = "SELECT coalesce(t.paid_amount, 0) AS amount, coalesce(t.supports, 0) AS supports \
     FROM returns r LEFT JOIN return_totals t ON t.return_id = r.id \
     WHERE r.id = $1 AND r.flag < 900 AND (r.show_user_email IS NULL OR btrim(r.show_user_email) = '')";

/// In the operator's order (`position`), with each return's paid supports
/// from the running totals (a primary-key lookup per return).
const VISIBLE_RETURNS: &str = "SELECT r.id, r.project_id, r.slug, r.return_type, r.title, r.description, r.price, \
     r.stock_limit, r.lots_taken, r.disabled, r.disabled_comment, r.flag, r.course, r.image_src, r.description_image, \
     r.description_comment, r.lot_disable, r.interval, r.address_required, r.address_label, r.show_user_email, \
     r.delivery_month, coalesce(t.supports, 0) AS supporters \
     FROM returns r LEFT JOIN return_totals t ON t.return_id = r.id \
     WHERE r.project_id = $1 AND r.flag < 900 \
       AND (r.show_user_email IS NULL OR btrim(r.show_user_email) = '' \
            OR lower(btrim(r.show_user_email)) = lower(btrim($2))) \
     ORDER BY r.position, r.id";

static COMMENTS: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT c.id, c.project_id, c.user_id, c.comment, c.updated_at, \
       u.displayname AS author_displayname, \
       (SELECT i.url FROM user_images i WHERE i.user_id = c.user_id AND i.image_type = 2 \
         ORDER BY i.created_at DESC, i.id DESC LIMIT 1) AS author_icon, \
       d.displayname AS sale_displayname, \
       EXISTS (SELECT 1 FROM display_names a WHERE a.project_id = c.project_id AND a.user_id = c.user_id \
               AND a.flag = 0) OR {} AS author_anonymous \
     FROM comments c JOIN users u ON u.id = c.user_id LEFT JOIN display_names d ON d.sales_id = c.sales_id \
     WHERE c.project_id = $1 AND c.flag = 1 \
     ORDER BY c.created_at DESC, c.id DESC",
        name_hidden_by_operator("c.project_id", "c.user_id")
    )
});

/// One row per supporter, from `sponsor_totals` (kept by the database from
/// the counting sales, one row per project and supporter), so that
/// `domain::sponsor::aggregate` over these rows equals `aggregate` over one
/// `SponsorSale` per counting sale (pinned by `tests/catalog_properties.rs`).
/// The cost follows the number of sponsors, not of sales.
///
/// A sale's name is its display name, or, for a company or organisation sale
/// without one, the account's company name (read here, so a company name
/// edit shows at once). The newest named sale wins: the row carries the
/// newest display name with its date and the date of the newest unnamed logo
/// sale; whichever is newer names the supporter. Across projects (the
/// footer) the per-project rows merge by the same rules.
fn sponsor_query(one_project: bool) -> String {
    let corporate = trim("u.corporatename");
    let hidden = name_hidden_by_operator("t.project_id", "t.user_id");
    let per_user = if one_project {
        format!(
            "SELECT t.user_id, t.amount, t.latest_at AS latest, (t.anonymous OR {hidden}) AS anonymous, t.name, \
           t.named_at, t.unnamed_logo_at, t.logo_type \
         FROM sponsor_totals t \
         WHERE t.project_id = $1 AND t.supports > 0 \
           AND NOT EXISTS (SELECT 1 FROM project_sponsor_exclusions e \
                           WHERE e.project_id = t.project_id AND e.user_id = t.user_id)"
        )
    } else {
        format!(
            "SELECT t.user_id, sum(t.amount)::bigint AS amount, max(t.latest_at) AS latest, \
           bool_or(t.anonymous OR {hidden}) AS anonymous, \
           (array_agg(t.name ORDER BY t.named_at DESC, t.named_sale_id DESC) FILTER (WHERE t.name IS NOT NULL))[1] \
             AS name, \
           max(t.named_at) AS named_at, max(t.unnamed_logo_at) AS unnamed_logo_at, max(t.logo_type) AS logo_type \
         FROM sponsor_totals t \
         WHERE t.supports > 0 \
           AND NOT EXISTS (SELECT 1 FROM project_sponsor_exclusions e \
                           WHERE e.project_id = t.project_id AND e.user_id = t.user_id) \
         GROUP BY t.user_id"
        )
    };
    format!(
        "WITH per_user AS ({per_user}) \
         SELECT p.user_id, p.amount, p.latest, p.anonymous, \
           CASE WHEN p.unnamed_logo_at > coalesce(p.named_at, '-infinity') AND {corporate} <> '' \
                THEN {corporate} ELSE p.name END AS name, \
           coalesce(p.logo_type, 0)::smallint AS return_type, u.corporateurl AS link, \
           (SELECT i.url FROM user_images i WHERE i.user_id = p.user_id AND i.image_type = 1 \
             ORDER BY i.created_at DESC, i.id DESC LIMIT 1) AS logo \
         FROM per_user p JOIN users u ON u.id = p.user_id"
    )
}

static SPONSORS_OF_PROJECT: LazyLock<String> = LazyLock::new(|| sponsor_query(true));
static SPONSORS_OF_ALL: LazyLock<String> = LazyLock::new(|| sponsor_query(false));

static SUPPORTED_RETURNS: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT DISTINCT s.return_id FROM sales s WHERE s.project_id = $1 AND s.user_id = $2 AND {}",
        counts_toward_totals("s")
    )
});

static PUBLIC_SALES: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT s.created_at, r.return_type, d.displayname, \
           EXISTS (SELECT 1 FROM display_names a JOIN sales s2 ON s2.id = a.sales_id \
                   WHERE a.project_id = s.project_id AND a.user_id = s.user_id AND a.flag = 0 \
                     AND {}) OR {} AS anonymous, \
           u.corporatename, u.corporateurl, \
           (SELECT i.url FROM user_images i WHERE i.user_id = s.user_id AND i.image_type = 1 \
             ORDER BY i.created_at DESC, i.id DESC LIMIT 1) AS logo_url \
         FROM sales s JOIN returns r ON r.id = s.return_id JOIN users u ON u.id = s.user_id \
           LEFT JOIN display_names d ON d.sales_id = s.id \
         WHERE s.project_id = $1 AND {} \
         ORDER BY s.created_at DESC, s.id DESC LIMIT $2",
        counts_toward_totals("s2"),
        name_hidden_by_operator("s.project_id", "s.user_id"),
        counts_toward_totals("s")
    )
});

#[async_trait]
impl CatalogRepository for PgCatalogRepository {
    async fn projects(&self) -> Result<Arc<Vec<ProjectRecord>>, RepoError> {
        let folded = Arc::clone(&self.folded);
        with_conn(&self.pool, move |conn| {
            let rows: Vec<ProjectRow> =
                projects::table.select(ProjectRow::as_select()).order(projects::id).load(conn).map_err(map_diesel)?;
            let images: Vec<(i64, String, String)> = project_slider_images::table
                .select((project_slider_images::project_id, project_slider_images::src, project_slider_images::alt))
                .order((project_slider_images::project_id, project_slider_images::position))
                .load(conn)
                .map_err(map_diesel)?;
            let owners: Vec<(i64, String, Option<String>, Option<String>)> = project_owners::table
                .select((
                    project_owners::project_id,
                    project_owners::name,
                    project_owners::image_url,
                    project_owners::profile,
                ))
                .load(conn)
                .map_err(map_diesel)?;
            let links: Vec<(i64, String, String)> = project_owner_links::table
                .select((project_owner_links::project_id, project_owner_links::label, project_owner_links::url))
                .order((project_owner_links::project_id, project_owner_links::position, project_owner_links::id))
                .load(conn)
                .map_err(map_diesel)?;
            let faqs: Vec<(i64, String, String)> = project_faqs::table
                .select((project_faqs::project_id, project_faqs::question, project_faqs::answer))
                .order((project_faqs::project_id, project_faqs::position, project_faqs::id))
                .load(conn)
                .map_err(map_diesel)?;
            let publications: Vec<PublicationRow> =
                sql_query("SELECT project_id, published_at FROM project_publications")
                    .load(conn)
                    .map_err(map_diesel)?;
            let closings: Vec<ClosingRow> = sql_query(format!(
                "SELECT c.project_id, c.outcome, (SELECT count(*) FROM sales s WHERE s.project_id = c.project_id \
                   AND {} AND s.flag = 1) AS refunds_left FROM project_closings c",
                crate::sql_rules::counts_toward_totals("s")
            ))
            .load(conn)
            .map_err(map_diesel)?;
            // What keyword search reads of the returns: those any visitor sees (as `visible_returns` for no viewer).
            let return_texts: Vec<ReturnTextRow> = sql_query(
                "SELECT project_id, title, description FROM returns WHERE flag < 900 \
                   AND (show_user_email IS NULL OR btrim(show_user_email) = '') ORDER BY project_id, position, id",
            )
            .load(conn)
            .map_err(map_diesel)?;
            let redirects: Vec<RedirectRow> =
                sql_query("SELECT old_slug, project_id FROM project_slug_redirects").load(conn).map_err(map_diesel)?;
            let taxonomy = load_taxonomy(conn)?;
            let placements: Vec<PlacementRow> =
                sql_query("SELECT id, area_id, category_id FROM projects").load(conn).map_err(map_diesel)?;
            let mut extras: HashMap<i64, ProjectExtras> = HashMap::new();
            let find = |list: &[Taxon], id: Option<i64>| id.and_then(|id| list.iter().find(|t| t.id == id).cloned());
            for placement in placements {
                let extra = extras.entry(placement.id).or_default();
                extra.area = find(&taxonomy.areas, placement.area_id);
                extra.category = find(&taxonomy.categories, placement.category_id);
            }
            for closing in closings {
                let outcome = domain::closing::CloseOutcome::parse(&closing.outcome)
                    .ok_or_else(|| corrupt("project_closings.outcome", &closing.outcome))?;
                extras.entry(closing.project_id).or_default().closing =
                    Some(ports::catalog::CloseResult { outcome, refunds_left: closing.refunds_left });
            }
            for publication in publications {
                extras.entry(publication.project_id).or_default().published_at = publication.published_at;
            }
            for (project_id, src, alt) in images {
                extras.entry(project_id).or_default().slider.push(SliderImage { src, alt });
            }
            for (project_id, name, image_url, profile) in owners {
                extras.entry(project_id).or_default().owner = Some((name, image_url, profile));
            }
            for (project_id, label, url) in links {
                extras.entry(project_id).or_default().links.push(OwnerLink { label, url });
            }
            for (project_id, question, answer) in faqs {
                extras.entry(project_id).or_default().faqs.push(Faq { question, answer });
            }
            for row in return_texts {
                extras.entry(row.project_id).or_default().return_texts.push((row.title, row.description));
            }
            for row in redirects {
                extras.entry(row.project_id).or_default().former_slugs.push(row.old_slug);
            }
            // A poisoned lock only means a read panicked mid-way: its texts are still texts.
            let mut folded_before = std::mem::take(&mut *folded.lock().unwrap_or_else(PoisonError::into_inner));
            let mut folded_now = HashMap::with_capacity(rows.len());
            let records = rows
                .into_iter()
                .map(|row| {
                    let extra = extras.remove(&row.id).unwrap_or_default();
                    let source = row.search_source(&extra);
                    let digest = source.digest();
                    let search_text = match folded_before.remove(&row.id) {
                        Some((before, text)) if before == digest => text,
                        _ => source.fold(),
                    };
                    folded_now.insert(row.id, (digest, search_text.clone()));
                    row.into_record(extra, search_text)
                })
                .collect::<Result<Vec<_>, _>>()?;
            *folded.lock().unwrap_or_else(PoisonError::into_inner) = folded_now;
            Ok(Arc::new(records))
        })
        .await
    }

    async fn taxonomy(&self) -> Result<Taxonomy, RepoError> {
        with_conn(&self.pool, load_taxonomy).await
    }

    async fn catalog_version(&self) -> Result<i64, RepoError> {
        #[derive(QueryableByName)]
        struct VersionRow {
            #[diesel(sql_type = BigInt)]
            version: i64,
        }
        with_conn(&self.pool, |conn| {
            let row: VersionRow =
                prepared("SELECT version FROM catalog_version").get_result(conn).map_err(map_diesel)?;
            Ok(row.version)
        })
        .await
    }

    async fn paid_sums(&self) -> Result<Arc<HashMap<ProjectId, PaidSum>>, RepoError> {
        let sums = with_conn(&self.pool, |conn| {
            paid_sums_from(project_totals::table.select(PROJECT_TOTAL).load(conn).map_err(map_diesel)?)
        })
        .await?;
        Ok(Arc::new(sums))
    }

    async fn paid_sum_all(&self) -> Result<PaidSum, RepoError> {
        with_conn(&self.pool, |conn| Ok(prepared(SUM_ALL).get_result::<SumRow>(conn).map_err(map_diesel)?.into())).await
    }

    async fn paid_sum_project(&self, project_id: ProjectId) -> Result<PaidSum, RepoError> {
        with_conn(&self.pool, move |conn| {
            // No row yet: the project has never had a paid sale (or does not exist).
            let row: Option<(i64, i64)> = project_sum(project_id).first(conn).optional().map_err(map_diesel)?;
            Ok(row.map_or(PaidSum { amount: Yen(0), supports: 0 }, |(amount, supports)| PaidSum {
                amount: Yen(amount),
                supports,
            }))
        })
        .await
    }

    async fn paid_sums_of(&self, project_ids: Vec<ProjectId>) -> Result<HashMap<ProjectId, PaidSum>, RepoError> {
        let ids: Vec<i64> = project_ids.iter().map(|id| id.get()).collect();
        with_conn(&self.pool, move |conn| {
            paid_sums_from(
                project_totals::table
                    .filter(project_totals::project_id.eq_any(ids))
                    .select(PROJECT_TOTAL)
                    .load(conn)
                    .map_err(map_diesel)?,
            )
        })
        .await
    }

    async fn paid_sum_return(&self, return_id: ReturnId) -> Result<Option<PaidSum>, RepoError> {
        with_conn(&self.pool, move |conn| {
            let row: Option<ReturnSumRow> = prepared(SUM_RETURN)
                .bind::<BigInt, _>(return_id.get())
                .get_result(conn)
                .optional()
                .map_err(map_diesel)?;
            Ok(row.map(|r| PaidSum { amount: Yen(r.amount), supports: r.supports }))
        })
        .await
    }

    async fn visible_returns(
        &self,
        project_id: ProjectId,
        viewer: Option<Email>,
    ) -> Result<Vec<ReturnRecord>, RepoError> {
        let viewer = viewer.map(|e| e.as_str().to_string());
        with_conn(&self.pool, move |conn| {
            let rows: Vec<ReturnRow> = prepared(VISIBLE_RETURNS)
                .bind::<BigInt, _>(project_id.get())
                .bind::<Nullable<Text>, _>(viewer)
                .load(conn)
                .map_err(map_diesel)?;
            rows.into_iter().map(ReturnRecord::try_from).collect()
        })
        .await
    }

    async fn news(&self, project_id: ProjectId, now: DateTime<Utc>) -> Result<Vec<NewsItem>, RepoError> {
        type Row = (i64, String, String, DateTime<Utc>, String, Vec<i64>);
        with_conn(&self.pool, move |conn| {
            let rows: Vec<Row> = project_news::table
                .filter(project_news::project_id.eq(project_id.get()))
                .filter(project_news::published_at.le(now))
                .order((project_news::published_at.desc(), project_news::id.desc()))
                .select((
                    project_news::id,
                    project_news::title,
                    project_news::description,
                    project_news::updated_at,
                    project_news::audience,
                    project_news::return_ids,
                ))
                .load(conn)
                .map_err(map_diesel)?;
            rows.into_iter()
                .map(|(id, title, description, updated_at, audience, returns)| {
                    let audience = NewsAudience::from_parts(&audience, returns.into_iter().map(ReturnId).collect())
                        .ok_or_else(|| corrupt("project_news.audience", &audience))?;
                    Ok(NewsItem { id, title, description, updated_at, audience })
                })
                .collect()
        })
        .await
    }

    async fn supported_returns(&self, project_id: ProjectId, user: UserId) -> Result<Vec<ReturnId>, RepoError> {
        with_conn(&self.pool, move |conn| {
            let rows: Vec<ReturnIdRow> = prepared(SUPPORTED_RETURNS.as_str())
                .bind::<BigInt, _>(project_id.get())
                .bind::<BigInt, _>(user.get())
                .load(conn)
                .map_err(map_diesel)?;
            Ok(rows.into_iter().map(|row| ReturnId(row.return_id)).collect())
        })
        .await
    }

    async fn comments(&self, project_id: ProjectId) -> Result<Vec<CommentRecord>, RepoError> {
        with_conn(&self.pool, move |conn| {
            let rows: Vec<CommentRow> =
                prepared(COMMENTS.as_str()).bind::<BigInt, _>(project_id.get()).load(conn).map_err(map_diesel)?;
            rows.into_iter()
                .map(|r| {
                    Ok(CommentRecord {
                        id: r.id,
                        project_id: stored_id("comments.project_id", r.project_id)?,
                        user_id: stored_id("comments.user_id", r.user_id)?,
                        comment: r.comment,
                        updated_at: r.updated_at,
                        author_displayname: r.author_displayname,
                        author_icon: r.author_icon,
                        sale_displayname: r.sale_displayname,
                        author_anonymous: r.author_anonymous,
                    })
                })
                .collect()
        })
        .await
    }

    async fn sponsor_sales(&self, project_id: Option<ProjectId>) -> Result<Vec<SponsorSale>, RepoError> {
        with_conn(&self.pool, move |conn| {
            let rows: Vec<SponsorRow> = match project_id {
                Some(id) => prepared(SPONSORS_OF_PROJECT.as_str()).bind::<BigInt, _>(id.get()).load(conn),
                None => prepared(SPONSORS_OF_ALL.as_str()).load(conn),
            }
            .map_err(map_diesel)?;
            rows.into_iter()
                .map(|r| {
                    Ok(SponsorSale {
                        supporter_id: stored_id("sales.user_id", r.user_id)?,
                        display_name: r.name,
                        anonymous: r.anonymous,
                        amount: Yen(r.amount),
                        created_at: tokyo_datetime(r.latest),
                        return_type: return_type(r.return_type)?,
                        logo_url: r.logo,
                        link: r.link.filter(|l| !l.trim().is_empty()),
                    })
                })
                .collect()
        })
        .await
    }

    async fn public_sales(&self, project_id: ProjectId, limit: i64) -> Result<Vec<PublicSaleRecord>, RepoError> {
        with_conn(&self.pool, move |conn| {
            let rows: Vec<PublicSaleRow> = prepared(PUBLIC_SALES.as_str())
                .bind::<BigInt, _>(project_id.get())
                .bind::<BigInt, _>(limit)
                .load(conn)
                .map_err(map_diesel)?;
            rows.into_iter()
                .map(|r| {
                    Ok(PublicSaleRecord {
                        created_at: r.created_at,
                        return_type: return_type(r.return_type)?,
                        displayname: r.displayname,
                        anonymous: r.anonymous,
                        corporatename: r.corporatename,
                        corporateurl: r.corporateurl,
                        logo_url: r.logo_url,
                    })
                })
                .collect()
        })
        .await
    }

    async fn manual_sponsors(&self, project_id: ProjectId) -> Result<Vec<ManualSponsorRecord>, RepoError> {
        with_conn(&self.pool, move |conn| {
            #[allow(clippy::type_complexity)]
            let rows: Vec<(
                i64,
                String,
                String,
                Option<String>,
                Option<String>,
                Option<i64>,
                Option<NaiveDate>,
                i32,
            )> = project_manual_sponsors::table
                .filter(project_manual_sponsors::project_id.eq(project_id.get()))
                .order((
                    project_manual_sponsors::course,
                    project_manual_sponsors::position,
                    project_manual_sponsors::id,
                ))
                .select((
                    project_manual_sponsors::id,
                    project_manual_sponsors::course,
                    project_manual_sponsors::name,
                    project_manual_sponsors::logo_src,
                    project_manual_sponsors::link,
                    project_manual_sponsors::amount,
                    project_manual_sponsors::latest_date,
                    project_manual_sponsors::position,
                ))
                .load(conn)
                .map_err(map_diesel)?;
            rows.into_iter()
                .map(|(id, course, name, logo_src, link, amount, latest_date, position)| {
                    Ok(ManualSponsorRecord {
                        id,
                        course: ManualCourse::from_code(&course)
                            .map_err(|e| corrupt("project_manual_sponsors.course", e))?,
                        name,
                        logo_src,
                        link,
                        amount: amount.map(Yen),
                        latest_date,
                        position,
                    })
                })
                .collect()
        })
        .await
    }

    async fn comment_author(&self, comment_id: i64) -> Result<(UserId, ProjectId), RepoError> {
        with_conn(&self.pool, move |conn| {
            let (user, project): (i64, i64) = comments::table
                .find(comment_id)
                .select((comments::user_id, comments::project_id))
                .first(conn)
                .map_err(map_diesel)?;
            Ok((stored_id("comments.user_id", user)?, stored_id("comments.project_id", project)?))
        })
        .await
    }

    async fn update_comment(
        &self,
        comment_id: i64,
        author: UserId,
        text: String,
        now: DateTime<Utc>,
    ) -> Result<(), RepoError> {
        with_conn(&self.pool, move |conn| {
            let updated = diesel::update(
                comments::table.filter(comments::id.eq(comment_id)).filter(comments::user_id.eq(author.0)),
            )
            .set((comments::comment.eq(text), comments::updated_at.eq(now)))
            .execute(conn)
            .map_err(map_diesel)?;
            expect_row(updated)
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use crate::testing::TestDatabase;
    use diesel::{Connection, PgConnection};

    #[derive(QueryableByName)]
    struct PlanLine {
        #[diesel(sql_type = Text, column_name = "QUERY PLAN")]
        line: String,
    }

    fn plan(conn: &mut PgConnection, sql: &str, id: i64) -> String {
        let lines: Vec<PlanLine> = sql_query(format!("EXPLAIN {sql}")).bind::<BigInt, _>(id).load(conn).unwrap();
        lines.into_iter().map(|l| l.line).collect::<Vec<_>>().join("\n")
    }

    /// Reading a total or a project's sponsors never touches `sales`: each
    /// is a lookup by the totals tables' primary keys, so it costs the same
    /// with ten sales or ten million.
    #[test]
    fn totals_and_sponsor_reads_are_primary_key_lookups_that_never_read_sales() {
        let (db, _pool) = TestDatabase::create().unwrap();
        let mut conn = PgConnection::establish(&db.url).unwrap();
        sql_query("SET enable_seqscan = off").execute(&mut conn).unwrap();

        let project =
            diesel::debug_query::<diesel::pg::Pg, _>(&project_sum(ProjectId::try_from(1).unwrap())).to_string();
        let project = project.split(" -- binds").next().unwrap().to_string();
        for (sql, key) in [
            (project.as_str(), "project_totals_pkey"),
            (SUM_RETURN, "return_totals_pkey"),
            (SPONSORS_OF_PROJECT.as_str(), "sponsor_totals_pkey"),
        ] {
            let plan = plan(&mut conn, sql, 1);
            assert!(plan.contains(key), "{plan}");
            assert!(!plan.contains(" on sales"), "{plan}");
        }
    }
}
