//! My page's 支援したプロジェクト: a page of the projects a member has paid sales of, their sales with the
//! delivery state (`sale_deliveries`), and each project's newest news item the member may read. Three
//! statements in one snapshot, whatever the number of projects.

use std::sync::LazyLock;

use async_trait::async_trait;
use chrono::{DateTime, NaiveDate, Utc};
use diesel::sql_types::{Array, BigInt, Date, Nullable, SmallInt, Text, Timestamptz};
use diesel::{sql_query, QueryableByName, RunQueryDsl};
use domain::ids::{ProjectId, UserId};
use domain::money::Yen;
use domain::pagination::page_slice;
use ports::following::{NewsHeadline, SupportedPage, SupportedRecord, SupportedSale, SupportedStore};
use ports::RepoError;

use crate::error::{map_diesel, with_conn};
use crate::rows::CountRow;
use crate::sql_rules::{counts_toward_totals, news_admits, news_published, paid, sale_status_from_db, stored_id};
use crate::PgPool;

#[derive(Clone)]
pub struct PgSupports {
    pool: PgPool,
}

impl PgSupports {
    pub fn new(pool: PgPool) -> Self {
        Self { pool }
    }
}

/// `$1` user: how many projects they have paid sales of.
static COUNT: LazyLock<String> = LazyLock::new(|| {
    format!("SELECT count(DISTINCT s.project_id) AS n FROM sales s WHERE s.user_id = $1 AND {}", paid("s.status"))
});

/// `$1` user, `$2` limit, `$3` offset, `$4` now: the page's projects, the latest paid sale first, each with its
/// newest published news item that the returns the member still holds there admit.
static PAGE: LazyLock<String> = LazyLock::new(|| {
    format!(
        "WITH mine AS ( \
           SELECT s.project_id, max(s.created_at) AS last_at FROM sales s \
            WHERE s.user_id = $1 AND {paid} GROUP BY s.project_id \
            ORDER BY last_at DESC, s.project_id DESC LIMIT $2 OFFSET $3) \
         SELECT p.id, p.slug, p.title, nw.id AS news_id, nw.title AS news_title, nw.published_at AS news_published_at \
           FROM mine JOIN projects p ON p.id = mine.project_id \
           LEFT JOIN LATERAL ( \
             SELECT n.id, n.title, n.published_at FROM project_news n \
              WHERE n.project_id = mine.project_id AND {published} AND {admits} \
              ORDER BY n.published_at DESC, n.id DESC LIMIT 1) nw ON TRUE \
          ORDER BY mine.last_at DESC, mine.project_id DESC",
        paid = paid("s.status"),
        published = news_published("n", "$4"),
        admits = news_admits(
            "n",
            &format!(
                "ARRAY(SELECT h.return_id FROM sales h WHERE h.user_id = $1 AND h.project_id = mine.project_id \
                   AND {})",
                counts_toward_totals("h")
            )
        ),
    )
});

/// `$1` user, `$2` project ids: the member's paid sales of those projects, oldest first.
static SALES: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT s.id, s.project_id, s.return_id, r.title AS return_title, s.lot, s.status, s.total, \
                s.refunded_amount, \
                (SELECT coalesce(sum(f.amount), 0) FROM refunds f \
                  WHERE f.sales_id = s.id AND f.status = 'succeeded')::bigint AS refund_paid, \
                dl.shipped_on, s.created_at \
           FROM sales s \
           JOIN returns r ON r.id = s.return_id \
           LEFT JOIN sale_deliveries dl ON dl.sale_id = s.id \
          WHERE s.user_id = $1 AND s.project_id = ANY ($2) AND {} \
          ORDER BY s.created_at, s.id",
        paid("s.status")
    )
});

#[derive(QueryableByName)]
struct ProjectRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = Text)]
    slug: String,
    #[diesel(sql_type = Text)]
    title: String,
    #[diesel(sql_type = Nullable<BigInt>)]
    news_id: Option<i64>,
    #[diesel(sql_type = Nullable<Text>)]
    news_title: Option<String>,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    news_published_at: Option<DateTime<Utc>>,
}

#[derive(QueryableByName)]
struct SaleRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = BigInt)]
    project_id: i64,
    #[diesel(sql_type = BigInt)]
    return_id: i64,
    #[diesel(sql_type = Text)]
    return_title: String,
    #[diesel(sql_type = SmallInt)]
    lot: i16,
    #[diesel(sql_type = Text)]
    status: String,
    #[diesel(sql_type = BigInt)]
    total: i64,
    #[diesel(sql_type = BigInt)]
    refunded_amount: i64,
    #[diesel(sql_type = BigInt)]
    refund_paid: i64,
    #[diesel(sql_type = Nullable<Date>)]
    shipped_on: Option<NaiveDate>,
    #[diesel(sql_type = Timestamptz)]
    created_at: DateTime<Utc>,
}

impl TryFrom<SaleRow> for SupportedSale {
    type Error = RepoError;
    fn try_from(row: SaleRow) -> Result<Self, RepoError> {
        Ok(Self {
            id: stored_id("sales.id", row.id)?,
            return_id: stored_id("sales.return_id", row.return_id)?,
            return_title: row.return_title,
            lot: row.lot,
            status: sale_status_from_db(&row.status)?,
            total: Yen(row.total),
            refunding: Yen(row.refunded_amount),
            refunded: Yen(row.refund_paid),
            shipped_on: row.shipped_on,
            created_at: row.created_at,
        })
    }
}

#[async_trait]
impl SupportedStore for PgSupports {
    async fn supported(
        &self,
        user: UserId,
        page: u32,
        per_page: u32,
        now: DateTime<Utc>,
    ) -> Result<SupportedPage, RepoError> {
        let (total, page, projects, sales) = with_conn(&self.pool, move |conn| {
            // One snapshot, so the count, the page and its sales agree.
            conn.build_transaction()
                .read_only()
                .repeatable_read()
                .run(|conn| {
                    let total = sql_query(COUNT.as_str()).bind::<BigInt, _>(user.get()).get_result::<CountRow>(conn)?.n;
                    let (range, page) = page_slice(page, per_page, usize::try_from(total).unwrap_or(usize::MAX));
                    let offset = i64::try_from(range.start).unwrap_or(i64::MAX);
                    let projects: Vec<ProjectRow> = sql_query(PAGE.as_str())
                        .bind::<BigInt, _>(user.get())
                        .bind::<BigInt, _>(i64::from(per_page))
                        .bind::<BigInt, _>(offset)
                        .bind::<Timestamptz, _>(now)
                        .load(conn)?;
                    let ids: Vec<i64> = projects.iter().map(|p| p.id).collect();
                    let sales: Vec<SaleRow> = sql_query(SALES.as_str())
                        .bind::<BigInt, _>(user.get())
                        .bind::<Array<BigInt>, _>(ids)
                        .load(conn)?;
                    Ok::<_, diesel::result::Error>((total, page, projects, sales))
                })
                .map_err(map_diesel)
        })
        .await?;
        let mut records = projects
            .into_iter()
            .map(|row| {
                let latest_news = match (row.news_id, row.news_title, row.news_published_at) {
                    (Some(id), Some(title), Some(published_at)) => Some(NewsHeadline { id, title, published_at }),
                    _ => None,
                };
                Ok(SupportedRecord {
                    project: stored_id::<ProjectId>("projects.id", row.id)?,
                    slug: row.slug,
                    title: row.title,
                    sales: Vec::new(),
                    latest_news,
                })
            })
            .collect::<Result<Vec<_>, RepoError>>()?;
        for row in sales {
            let project = row.project_id;
            let sale = SupportedSale::try_from(row)?;
            if let Some(record) = records.iter_mut().find(|r| r.project.get() == project) {
                record.sales.push(sale);
            }
        }
        Ok(SupportedPage { total: u64::try_from(total).unwrap_or(0), page, projects: records })
    }
}
