//! The operators' project authoring on `projects`, `project_publications`
//! and `returns`. Every write that a rule guards checks, in its own
//! statement, that the row still is what the rule was checked against, so a
//! support or another operator acting in between makes the write a conflict
//! instead of breaking the rule.

use async_trait::async_trait;
use chrono::{DateTime, NaiveDate, Utc};
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt, Bool, Date, Int2, Integer, Nullable, Text, Timestamptz};
use diesel::{sql_query, QueryableByName};
use domain::authoring::{ProjectTerms, ReturnTerms, TaxHandling, MAX_END_EXTENSIONS};
use domain::ids::{ProjectId, ReturnId};
use domain::money::Yen;
use domain::project::FundingModel;
use domain::returns::ReturnType;
use ports::admin::projects::{AuthoredProject, AuthoredReturn, ProjectAuthoringRepository, ProjectSummaryRecord};
use ports::catalog::PaidSum;
use ports::RepoError;

use crate::error::{map_diesel, settle, with_conn, Tx};
use crate::rows::IdRow;
use crate::sql_rules::{corrupt, project_exists, stored_id};
use crate::PgPool;

/// `returns.flag` from this value up hides a return (`domain::returns::is_hidden`).
const HIDDEN_FLAG: i16 = 900;

#[derive(Clone)]
pub struct PgProjectAuthoring {
    pool: PgPool,
}

impl PgProjectAuthoring {
    pub fn new(pool: PgPool) -> Self {
        Self { pool }
    }
}

#[derive(QueryableByName)]
struct SummaryRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = Text)]
    slug: String,
    #[diesel(sql_type = Text)]
    title: String,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    published_at: Option<DateTime<Utc>>,
    #[diesel(sql_type = Date)]
    period_end: NaiveDate,
    #[diesel(sql_type = BigInt)]
    target_amount: i64,
    #[diesel(sql_type = BigInt)]
    raised: i64,
    #[diesel(sql_type = BigInt)]
    backers: i64,
    #[diesel(sql_type = BigInt)]
    returns: i64,
}

const SUMMARIES: &str = "SELECT p.id, p.slug, p.title, pub.published_at, p.period_end, p.target_amount, \
       coalesce(t.paid_amount, 0)::bigint AS raised, coalesce(t.supports, 0)::bigint AS backers, \
       (SELECT count(*) FROM returns r WHERE r.project_id = p.id) AS returns \
     FROM projects p \
     LEFT JOIN project_publications pub ON pub.project_id = p.id \
     LEFT JOIN project_totals t ON t.project_id = p.id";

#[derive(QueryableByName)]
struct ProjectRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = Text)]
    slug: String,
    #[diesel(sql_type = Text)]
    title: String,
    #[diesel(sql_type = Text)]
    description: String,
    #[diesel(sql_type = Text)]
    content: String,
    #[diesel(sql_type = BigInt)]
    target_amount: i64,
    #[diesel(sql_type = Date)]
    period_end: NaiveDate,
    #[diesel(sql_type = Text)]
    funding_model: String,
    #[diesel(sql_type = Bool)]
    is_donation: bool,
    #[diesel(sql_type = Bool)]
    tax_includes: bool,
    #[diesel(sql_type = Bool)]
    accepts_card: bool,
    #[diesel(sql_type = Bool)]
    accepts_bank_transfer: bool,
    #[diesel(sql_type = Bool)]
    accepts_konbini: bool,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    published_at: Option<DateTime<Utc>>,
    #[diesel(sql_type = Int2)]
    end_extensions: i16,
    #[diesel(sql_type = BigInt)]
    raised: i64,
    #[diesel(sql_type = BigInt)]
    backers: i64,
    #[diesel(sql_type = Nullable<BigInt>)]
    area_id: Option<i64>,
    #[diesel(sql_type = Nullable<BigInt>)]
    category_id: Option<i64>,
    #[diesel(sql_type = Nullable<Text>)]
    owner_email: Option<String>,
    #[diesel(sql_type = Nullable<Date>)]
    donation_payout_date: Option<NaiveDate>,
}

const PROJECT: &str = "SELECT p.id, p.slug, p.title, p.description, p.content, p.target_amount, p.period_end, \
       p.funding_model, p.is_donation, p.tax_includes, p.accepts_card, p.accepts_bank_transfer, \
       p.accepts_konbini, p.area_id, p.category_id, p.owner_email, p.donation_payout_date, \
       pub.published_at, coalesce(pub.end_extensions, 0)::smallint AS end_extensions, \
       coalesce(t.paid_amount, 0)::bigint AS raised, coalesce(t.supports, 0)::bigint AS backers \
     FROM projects p \
     LEFT JOIN project_publications pub ON pub.project_id = p.id \
     LEFT JOIN project_totals t ON t.project_id = p.id \
     WHERE p.id = $1";

#[derive(QueryableByName)]
struct ReturnRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = Text)]
    slug: String,
    #[diesel(sql_type = Integer)]
    position: i32,
    #[diesel(sql_type = Text)]
    title: String,
    #[diesel(sql_type = Text)]
    description: String,
    #[diesel(sql_type = BigInt)]
    price: i64,
    #[diesel(sql_type = Int2)]
    return_type: i16,
    #[diesel(sql_type = Nullable<Integer>)]
    stock_limit: Option<i32>,
    #[diesel(sql_type = Bool)]
    lot_disable: bool,
    #[diesel(sql_type = Bool)]
    address_required: bool,
    #[diesel(sql_type = Nullable<Text>)]
    address_label: Option<String>,
    #[diesel(sql_type = Bool)]
    disabled: bool,
    #[diesel(sql_type = Nullable<Text>)]
    disabled_comment: Option<String>,
    #[diesel(sql_type = Int2)]
    flag: i16,
    #[diesel(sql_type = Nullable<Date>)]
    delivery_month: Option<NaiveDate>,
    #[diesel(sql_type = Bool)]
    monthly: bool,
    #[diesel(sql_type = Nullable<Text>)]
    course: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    show_user_email: Option<String>,
    #[diesel(sql_type = Integer)]
    lots_taken: i32,
}

const RETURNS: &str = "SELECT id, slug, position, title, description, price, return_type, stock_limit, lot_disable, \
       address_required, address_label, disabled, disabled_comment, flag, delivery_month, \
       interval IS NOT NULL AS monthly, course, show_user_email, lots_taken \
     FROM returns WHERE project_id = $1 ORDER BY position, id";

impl ReturnRow {
    fn into_return(self) -> Result<AuthoredReturn, RepoError> {
        let return_type =
            ReturnType::from_code(i32::from(self.return_type)).map_err(|e| corrupt("returns.return_type", e))?;
        Ok(AuthoredReturn {
            id: stored_id("returns.id", self.id)?,
            slug: self.slug,
            position: self.position,
            lots_taken: self.lots_taken,
            terms: ReturnTerms {
                title: self.title,
                description: self.description,
                price: Yen(self.price),
                return_type,
                stock_limit: self.stock_limit,
                lot_fixed: self.lot_disable,
                address_required: self.address_required,
                address_label: self.address_label,
                disabled: self.disabled,
                disabled_comment: self.disabled_comment,
                hidden: self.flag >= HIDDEN_FLAG,
                delivery_month: self.delivery_month,
                monthly: self.monthly,
                course: self.course,
                only_for: self.show_user_email,
            },
        })
    }
}

#[derive(QueryableByName)]
struct LockedPublication {
    #[diesel(sql_type = Nullable<Timestamptz>)]
    published_at: Option<DateTime<Utc>>,
    #[diesel(sql_type = Int2)]
    end_extensions: i16,
}

fn return_of_project(conn: &mut PgConnection, project: ProjectId, ret: ReturnId) -> Result<bool, RepoError> {
    Ok(sql_query("SELECT id FROM returns WHERE id = $1 AND project_id = $2")
        .bind::<BigInt, _>(ret.get())
        .bind::<BigInt, _>(project.get())
        .get_result::<IdRow>(conn)
        .optional()
        .map_err(map_diesel)?
        .is_some())
}

/// A guarded write that changed nothing: the guard refused it (`conflict`) when the row is there, else the row
/// is missing.
/// Whether `slug` is another project's former address (`project_slug_redirects`), which stays its own.
fn slug_reserved(conn: &mut PgConnection, slug: &str, project: Option<ProjectId>) -> QueryResult<bool> {
    Ok(sql_query("SELECT project_id AS id FROM project_slug_redirects WHERE old_slug = $1 AND project_id <> $2")
        .bind::<Text, _>(slug)
        .bind::<BigInt, _>(project.map_or(0, ProjectId::get))
        .get_result::<IdRow>(conn)
        .optional()?
        .is_some())
}

/// A renamed project: a published one keeps its old address as a redirect to the new one; taking back a former
/// address ends that redirect.
fn keep_old_address(
    conn: &mut PgConnection,
    id: ProjectId,
    old: &str,
    new: &str,
    published: bool,
    now: DateTime<Utc>,
) -> QueryResult<()> {
    if published {
        sql_query(
            "INSERT INTO project_slug_redirects (old_slug, project_id, created_at) VALUES ($1, $2, $3)              ON CONFLICT (old_slug) DO UPDATE SET project_id = EXCLUDED.project_id, created_at = EXCLUDED.created_at",
        )
        .bind::<Text, _>(old)
        .bind::<BigInt, _>(id.get())
        .bind::<Timestamptz, _>(now)
        .execute(conn)?;
    }
    sql_query("DELETE FROM project_slug_redirects WHERE old_slug = $1 AND project_id = $2")
        .bind::<Text, _>(new)
        .bind::<BigInt, _>(id.get())
        .execute(conn)?;
    Ok(())
}

fn refused(present: bool, conflict: &str) -> RepoError {
    if present {
        RepoError::Conflict(conflict.into())
    } else {
        RepoError::NotFound
    }
}

/// Binds a project's terms as $1..$11.
macro_rules! bind_terms {
    ($query:expr, $terms:expr) => {{
        let (is_donation, tax_includes) = $terms.tax.flags();
        $query
            .bind::<Text, _>($terms.slug.clone())
            .bind::<Text, _>($terms.title.clone())
            .bind::<Text, _>($terms.lead.clone())
            .bind::<Text, _>($terms.story.clone())
            .bind::<BigInt, _>($terms.goal.0)
            .bind::<Date, _>($terms.period_end)
            .bind::<Text, _>($terms.funding_model.code())
            .bind::<Bool, _>(is_donation)
            .bind::<Bool, _>(tax_includes)
            .bind::<Bool, _>($terms.accepts_card)
            .bind::<Bool, _>($terms.accepts_bank_transfer)
    }};
}

/// Binds a return's terms as $3..$14 after the project and the return (id or new slug) in $1, $2.
macro_rules! bind_return {
    ($query:expr, $terms:expr) => {{
        let return_type = i16::try_from($terms.return_type.code()).unwrap_or(0);
        $query
            .bind::<Text, _>($terms.title.clone())
            .bind::<Text, _>($terms.description.clone())
            .bind::<BigInt, _>($terms.price.0)
            .bind::<Int2, _>(return_type)
            .bind::<Nullable<Integer>, _>($terms.stock_limit)
            .bind::<Bool, _>($terms.lot_fixed)
            .bind::<Bool, _>($terms.address_required)
            .bind::<Nullable<Text>, _>($terms.address_label.clone())
            .bind::<Bool, _>($terms.disabled)
            .bind::<Nullable<Text>, _>($terms.disabled_comment.clone())
            .bind::<Bool, _>($terms.hidden)
            .bind::<Nullable<Date>, _>($terms.delivery_month)
            .bind::<Bool, _>($terms.monthly)
            .bind::<Nullable<Text>, _>($terms.course.clone())
            .bind::<Nullable<Text>, _>($terms.only_for.clone())
    }};
}

#[async_trait]
impl ProjectAuthoringRepository for PgProjectAuthoring {
    async fn summaries(&self) -> Result<Vec<ProjectSummaryRecord>, RepoError> {
        let rows: Vec<SummaryRow> = with_conn(&self.pool, |conn| {
            sql_query(format!("{SUMMARIES} ORDER BY p.created_at DESC, p.id DESC")).load(conn).map_err(map_diesel)
        })
        .await?;
        rows.into_iter()
            .map(|r| {
                Ok(ProjectSummaryRecord {
                    id: stored_id("projects.id", r.id)?,
                    slug: r.slug,
                    title: r.title,
                    published_at: r.published_at,
                    period_end: r.period_end,
                    goal: Yen(r.target_amount),
                    raised: PaidSum { amount: Yen(r.raised), supports: r.backers },
                    returns: r.returns,
                })
            })
            .collect()
    }

    async fn project(&self, id: ProjectId) -> Result<AuthoredProject, RepoError> {
        let (row, returns) = with_conn(&self.pool, move |conn| {
            let row: ProjectRow =
                sql_query(PROJECT).bind::<BigInt, _>(id.get()).get_result(conn).map_err(map_diesel)?;
            let returns: Vec<ReturnRow> =
                sql_query(RETURNS).bind::<BigInt, _>(id.get()).load(conn).map_err(map_diesel)?;
            Ok((row, returns))
        })
        .await?;
        let funding_model = FundingModel::parse(&row.funding_model)
            .ok_or_else(|| corrupt("projects.funding_model", &row.funding_model))?;
        Ok(AuthoredProject {
            id: stored_id("projects.id", row.id)?,
            terms: ProjectTerms {
                slug: row.slug,
                title: row.title,
                lead: row.description,
                story: row.content,
                goal: Yen(row.target_amount),
                period_end: row.period_end,
                funding_model,
                tax: TaxHandling::from_flags(row.is_donation, row.tax_includes),
                accepts_card: row.accepts_card,
                accepts_bank_transfer: row.accepts_bank_transfer,
                accepts_konbini: row.accepts_konbini,
                area_id: row.area_id,
                category_id: row.category_id,
                owner_email: row.owner_email,
                donation_payout_date: row.donation_payout_date,
            },
            published_at: row.published_at,
            end_extensions: u8::try_from(row.end_extensions)
                .map_err(|_| corrupt("end_extensions", row.end_extensions))?,
            raised: PaidSum { amount: Yen(row.raised), supports: row.backers },
            returns: returns.into_iter().map(ReturnRow::into_return).collect::<Result<_, _>>()?,
        })
    }

    async fn create(&self, terms: &ProjectTerms, now: DateTime<Utc>) -> Result<ProjectId, RepoError> {
        let terms = terms.clone();
        let row: IdRow = with_conn(&self.pool, move |conn| {
            if slug_reserved(conn, &terms.slug, None).map_err(map_diesel)? {
                return Err(RepoError::Conflict("projects_slug_key".into()));
            }
            // The projects_start_as_drafts trigger writes its publication row, as a draft.
            bind_terms!(
                sql_query(
                    "INSERT INTO projects (slug, title, description, content, target_amount, period_end, \
                       funding_model, is_donation, tax_includes, accepts_card, accepts_bank_transfer, created_at, \
                       updated_at, area_id, category_id, owner_email, donation_payout_date, accepts_konbini) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12, $13, $14, $15, $16, $17) \
                     RETURNING id"
                ),
                terms
            )
            .bind::<Timestamptz, _>(now)
            .bind::<Nullable<BigInt>, _>(terms.area_id)
            .bind::<Nullable<BigInt>, _>(terms.category_id)
            .bind::<Nullable<Text>, _>(terms.owner_email.clone())
            .bind::<Nullable<Date>, _>(terms.donation_payout_date)
            .bind::<Bool, _>(terms.accepts_konbini)
            .get_result(conn)
            .map_err(map_diesel)
        })
        .await?;
        stored_id("projects.id", row.id)
    }

    async fn update(
        &self,
        id: ProjectId,
        current: &ProjectTerms,
        next: &ProjectTerms,
        extended: bool,
        now: DateTime<Utc>,
    ) -> Result<(), RepoError> {
        let (current, next) = (current.clone(), next.clone());
        with_conn(&self.pool, move |conn| {
            settle(conn.transaction::<(), Tx, _>(|conn| {
                let Some(publication) = sql_query(
                    "SELECT published_at, end_extensions FROM project_publications WHERE project_id = $1 FOR UPDATE",
                )
                .bind::<BigInt, _>(id.get())
                .get_result::<LockedPublication>(conn)
                .optional()?
                else {
                    return Err(Tx::Refused(RepoError::NotFound));
                };
                let published = publication.published_at.is_some();
                if extended && publication.end_extensions >= i16::from(MAX_END_EXTENSIONS) {
                    return Err(Tx::Refused(RepoError::Conflict("project_changed".into())));
                }
                let renamed = next.slug != current.slug;
                if renamed && slug_reserved(conn, &next.slug, Some(id))? {
                    return Err(Tx::Refused(RepoError::Conflict("projects_slug_key".into())));
                }
                // Published: the locked terms must still be the ones checked (the new ones equal them).
                let (was_donation, was_including) = current.tax.flags();
                let written = bind_terms!(
                    sql_query(
                        "UPDATE projects SET slug = $1, title = $2, description = $3, content = $4, \
                           target_amount = $5, period_end = $6, funding_model = $7, is_donation = $8, \
                           tax_includes = $9, accepts_card = $10, accepts_bank_transfer = $11, updated_at = $12, \
                           area_id = $20, category_id = $21, owner_email = $22, donation_payout_date = $23, \
                           accepts_konbini = $24 \
                         WHERE id = $13 AND (NOT $14 OR (slug = $15 AND target_amount = $16 AND funding_model = $17 \
                           AND is_donation = $18 AND tax_includes = $19))"
                    ),
                    next
                )
                .bind::<Timestamptz, _>(now)
                .bind::<BigInt, _>(id.get())
                .bind::<Bool, _>(published)
                .bind::<Text, _>(current.slug.clone())
                .bind::<BigInt, _>(current.goal.0)
                .bind::<Text, _>(current.funding_model.code())
                .bind::<Bool, _>(was_donation)
                .bind::<Bool, _>(was_including)
                .bind::<Nullable<BigInt>, _>(next.area_id)
                .bind::<Nullable<BigInt>, _>(next.category_id)
                .bind::<Nullable<Text>, _>(next.owner_email.clone())
                .bind::<Nullable<Date>, _>(next.donation_payout_date)
                .bind::<Bool, _>(next.accepts_konbini)
                .execute(conn)?;
                if written == 0 {
                    return Err(Tx::Refused(RepoError::Conflict("project_changed".into())));
                }
                if renamed {
                    keep_old_address(conn, id, &current.slug, &next.slug, published, now)?;
                }
                if extended {
                    sql_query(
                        "UPDATE project_publications SET end_extensions = end_extensions + 1 WHERE project_id = $1",
                    )
                    .bind::<BigInt, _>(id.get())
                    .execute(conn)?;
                }
                Ok(())
            }))
        })
        .await
    }

    async fn publish(&self, id: ProjectId, at: DateTime<Utc>, now: DateTime<Utc>) -> Result<(), RepoError> {
        with_conn(&self.pool, move |conn| {
            let written = sql_query(
                "UPDATE project_publications SET published_at = $2 WHERE project_id = $1 AND published_at IS NULL",
            )
            .bind::<BigInt, _>(id.get())
            .bind::<Timestamptz, _>(at)
            .execute(conn)
            .map_err(map_diesel)?;
            if written == 1 {
                sql_query("UPDATE projects SET updated_at = $2 WHERE id = $1")
                    .bind::<BigInt, _>(id.get())
                    .bind::<Timestamptz, _>(now)
                    .execute(conn)
                    .map_err(map_diesel)?;
                return Ok(());
            }
            Err(refused(project_exists(conn, id)?, "project_published"))
        })
        .await
    }

    async fn unschedule(&self, id: ProjectId, now: DateTime<Utc>) -> Result<(), RepoError> {
        with_conn(&self.pool, move |conn| {
            let written = sql_query(
                "UPDATE project_publications SET published_at = NULL WHERE project_id = $1 AND published_at > $2",
            )
            .bind::<BigInt, _>(id.get())
            .bind::<Timestamptz, _>(now)
            .execute(conn)
            .map_err(map_diesel)?;
            if written == 1 {
                return Ok(());
            }
            Err(refused(project_exists(conn, id)?, "project_not_scheduled"))
        })
        .await
    }

    async fn add_return(
        &self,
        project: ProjectId,
        terms: &ReturnTerms,
        now: DateTime<Utc>,
    ) -> Result<ReturnId, RepoError> {
        let terms = terms.clone();
        // The slug only has to be unique within the project and URL-safe: a random one never needs renaming.
        let slug = format!("r{}", &uuid::Uuid::new_v4().simple().to_string()[..12]);
        let row: IdRow = with_conn(&self.pool, move |conn| {
            bind_return!(
                sql_query(
                    "INSERT INTO returns (project_id, slug, title, description, price, return_type, stock_limit, \
                       lot_disable, address_required, address_label, disabled, disabled_comment, flag, \
                       delivery_month, interval, course, show_user_email, position, created_at, updated_at) \
                     SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, CASE WHEN $13 THEN 900 ELSE 0 END, \
                       $14, CASE WHEN $15 THEN 'month' END, $16, $17, \
                       coalesce((SELECT max(position) FROM returns WHERE project_id = $1), 0) + 1, $18, $18 \
                     FROM projects WHERE id = $1 RETURNING id"
                )
                .bind::<BigInt, _>(project.get())
                .bind::<Text, _>(slug),
                terms
            )
            .bind::<Timestamptz, _>(now)
            .get_result(conn)
            .map_err(map_diesel)
        })
        .await?;
        stored_id("returns.id", row.id)
    }

    async fn update_return(
        &self,
        project: ProjectId,
        ret: ReturnId,
        current: &ReturnTerms,
        next: &ReturnTerms,
        now: DateTime<Utc>,
    ) -> Result<(), RepoError> {
        let (price, kind, monthly) =
            (current.price.0, i16::try_from(current.return_type.code()).unwrap_or(0), current.monthly);
        let next = next.clone();
        with_conn(&self.pool, move |conn| {
            // A backed return keeps the price, type and interval it was checked with; the hidden flag keeps
            // other codes.
            let written = bind_return!(
                sql_query(
                    "UPDATE returns SET title = $3, description = $4, price = $5, return_type = $6, stock_limit = $7, \
                       lot_disable = $8, address_required = $9, address_label = $10, disabled = $11, \
                       disabled_comment = $12, \
                       flag = CASE WHEN $13 THEN greatest(flag, 900) WHEN flag >= 900 THEN 0 ELSE flag END, \
                       delivery_month = $14, interval = CASE WHEN $15 THEN 'month' END, course = $16, \
                       show_user_email = $17, updated_at = $18 \
                     WHERE project_id = $1 AND id = $2 \
                       AND (lots_taken = 0 OR (price = $19 AND return_type = $20 AND (interval IS NOT NULL) = $21))"
                )
                .bind::<BigInt, _>(project.get())
                .bind::<BigInt, _>(ret.get()),
                next
            )
            .bind::<Timestamptz, _>(now)
            .bind::<BigInt, _>(price)
            .bind::<Int2, _>(kind)
            .bind::<Bool, _>(monthly)
            .execute(conn)
            .map_err(map_diesel)?;
            if written == 1 {
                return Ok(());
            }
            Err(refused(return_of_project(conn, project, ret)?, "return_changed"))
        })
        .await
    }

    async fn delete_return(&self, project: ProjectId, ret: ReturnId) -> Result<(), RepoError> {
        with_conn(&self.pool, move |conn| {
            let deleted = sql_query(
                "DELETE FROM returns r WHERE r.project_id = $1 AND r.id = $2 AND r.lots_taken = 0 \
                   AND NOT EXISTS (SELECT 1 FROM sales s WHERE s.return_id = r.id)",
            )
            .bind::<BigInt, _>(project.get())
            .bind::<BigInt, _>(ret.get())
            .execute(conn)
            .map_err(|e| match map_diesel(e) {
                // Anything else naming the return (a subscription, a mail) keeps it.
                RepoError::Constraint(_) => RepoError::Conflict("return_backed".into()),
                other => other,
            })?;
            if deleted == 1 {
                return Ok(());
            }
            Err(refused(return_of_project(conn, project, ret)?, "return_backed"))
        })
        .await
    }

    async fn reorder_returns(&self, project: ProjectId, order: &[ReturnId]) -> Result<(), RepoError> {
        let order: Vec<i64> = order.iter().map(|r| r.get()).collect();
        with_conn(&self.pool, move |conn| {
            settle(conn.transaction::<(), Tx, _>(|conn| {
                let mut stored: Vec<i64> = sql_query("SELECT id FROM returns WHERE project_id = $1 FOR UPDATE")
                    .bind::<BigInt, _>(project.get())
                    .load::<IdRow>(conn)?
                    .into_iter()
                    .map(|r| r.id)
                    .collect();
                stored.sort_unstable();
                let mut asked = order.clone();
                asked.sort_unstable();
                if stored != asked {
                    return Err(Tx::Refused(RepoError::Conflict("return_order".into())));
                }
                sql_query(
                    "UPDATE returns r SET position = o.position::int FROM unnest($2::bigint[]) WITH ORDINALITY \
                       AS o (id, position) WHERE r.project_id = $1 AND r.id = o.id",
                )
                .bind::<BigInt, _>(project.get())
                .bind::<Array<BigInt>, _>(order.clone())
                .execute(conn)?;
                Ok(())
            }))
        })
        .await
    }
}
