//! Receipts of paid sales: the issuer set on a project
//! (`project_receipt_issuers`), the issues recorded per sale
//! (`sale_receipts`), and one read of a sale with everything its receipt
//! prints.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use diesel::sql_types::{BigInt, Integer, Nullable, SmallInt, Text, Timestamptz};
use diesel::{sql_query, OptionalExtension, QueryableByName, RunQueryDsl};
use domain::ids::{ProjectId, SaleId};
use domain::money::{TaxMode, TaxRate, Yen};
use domain::payment::SaleStatus;
use domain::receipt::{ReceiptIssuer, RegistrationNumber};
use ports::receipts::{IssueRecord, ProjectIssuer, ReceiptSale, SaleReceiptStore};
use ports::{ConstraintKind, RepoError};

use crate::error::{map_diesel, with_conn};
use crate::sql_rules::{corrupt, sale_status_from_db, sale_status_to_db, stored_id};
use crate::PgPool;

#[derive(Clone)]
pub struct PgSaleReceipts {
    pool: PgPool,
}

impl PgSaleReceipts {
    pub fn new(pool: PgPool) -> Self {
        Self { pool }
    }
}

fn issuer_of(name: Option<String>, number: Option<String>) -> Result<Option<ReceiptIssuer>, RepoError> {
    let Some(name) = name else { return Ok(None) };
    let registration_number = number
        .map(|n| RegistrationNumber::parse(&n).map_err(|e| corrupt("project_receipt_issuers.registration_number", e)))
        .transpose()?;
    Ok(Some(ReceiptIssuer { name, registration_number }))
}

#[derive(QueryableByName)]
struct ProjectIssuerRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = Text)]
    title: String,
    #[diesel(sql_type = Nullable<Text>)]
    issuer_name: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    registration_number: Option<String>,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    updated_at: Option<DateTime<Utc>>,
}

impl TryFrom<ProjectIssuerRow> for ProjectIssuer {
    type Error = RepoError;

    fn try_from(row: ProjectIssuerRow) -> Result<Self, RepoError> {
        Ok(Self {
            project: stored_id("projects.id", row.id)?,
            project_title: row.title,
            issuer: issuer_of(row.issuer_name, row.registration_number)?,
            updated_at: row.updated_at,
        })
    }
}

#[derive(QueryableByName)]
struct IssueRow {
    #[diesel(sql_type = Text)]
    addressee: String,
    #[diesel(sql_type = Integer)]
    issued_count: i32,
    #[diesel(sql_type = Timestamptz)]
    first_issued_at: DateTime<Utc>,
    #[diesel(sql_type = Timestamptz)]
    last_issued_at: DateTime<Utc>,
}

impl TryFrom<IssueRow> for IssueRecord {
    type Error = RepoError;

    fn try_from(row: IssueRow) -> Result<Self, RepoError> {
        Ok(Self {
            addressee: row.addressee,
            count: u32::try_from(row.issued_count).map_err(|e| corrupt("sale_receipts.issued_count", e))?,
            first_at: row.first_issued_at,
            last_at: row.last_issued_at,
        })
    }
}

#[derive(QueryableByName)]
struct SaleRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = BigInt)]
    user_id: i64,
    #[diesel(sql_type = Text)]
    status: String,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    paid_at: Option<DateTime<Utc>>,
    #[diesel(sql_type = BigInt)]
    project_id: i64,
    #[diesel(sql_type = Text)]
    project_title: String,
    #[diesel(sql_type = Text)]
    return_title: String,
    #[diesel(sql_type = SmallInt)]
    lot: i16,
    #[diesel(sql_type = BigInt)]
    total: i64,
    #[diesel(sql_type = BigInt)]
    extra_amount: i64,
    #[diesel(sql_type = Text)]
    tax_mode: String,
    #[diesel(sql_type = SmallInt)]
    tax_rate_percent: i16,
    #[diesel(sql_type = BigInt)]
    refund_paid: i64,
    #[diesel(sql_type = Nullable<Text>)]
    username: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    account_name: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    delivery_name: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    sale_name: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    owner_name: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    issuer_name: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    registration_number: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    addressee: Option<String>,
    #[diesel(sql_type = Nullable<Integer>)]
    issued_count: Option<i32>,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    first_issued_at: Option<DateTime<Utc>>,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    last_issued_at: Option<DateTime<Utc>>,
}

impl TryFrom<SaleRow> for ReceiptSale {
    type Error = RepoError;

    fn try_from(row: SaleRow) -> Result<Self, RepoError> {
        let issued = match (row.addressee, row.issued_count, row.first_issued_at, row.last_issued_at) {
            (Some(addressee), Some(issued_count), Some(first_issued_at), Some(last_issued_at)) => {
                Some(IssueRow { addressee, issued_count, first_issued_at, last_issued_at }.try_into()?)
            }
            _ => None,
        };
        let rate = u32::try_from(row.tax_rate_percent).map_err(|e| corrupt("sales.tax_rate_percent", e))?;
        Ok(Self {
            id: stored_id("sales.id", row.id)?,
            user: stored_id("sales.user_id", row.user_id)?,
            status: sale_status_from_db(&row.status)?,
            paid_at: row.paid_at,
            project: stored_id("sales.project_id", row.project_id)?,
            project_title: row.project_title,
            return_title: row.return_title,
            lots: i64::from(row.lot),
            total: Yen(row.total),
            extra: Yen(row.extra_amount),
            tax_mode: TaxMode::parse(&row.tax_mode).map_err(|e| corrupt("sales.tax_mode", e))?,
            tax_rate: TaxRate::new(rate).map_err(|e| corrupt("sales.tax_rate_percent", e))?,
            refunded: Yen(row.refund_paid),
            names: [row.username, row.account_name, row.delivery_name, row.sale_name].into_iter().flatten().collect(),
            owner_name: row.owner_name,
            issuer: issuer_of(row.issuer_name, row.registration_number)?,
            issued,
        })
    }
}

const PROJECT_ISSUER: &str = "SELECT p.id, p.title, i.issuer_name, i.registration_number, i.updated_at \
     FROM projects p LEFT JOIN project_receipt_issuers i ON i.project_id = p.id WHERE p.id = $1";

/// Refunds count once the provider has paid them out (as the payment history's `refunded_amount`).
const SALE: &str = "SELECT s.id, s.user_id, s.status, s.paid_at, s.project_id, p.title AS project_title, \
            r.title AS return_title, s.lot, s.total, s.extra_amount, s.tax_mode, s.tax_rate_percent, \
            (SELECT coalesce(sum(f.amount), 0) FROM refunds f \
              WHERE f.sales_id = s.id AND f.status = 'succeeded')::bigint AS refund_paid, \
            u.username, u.displayname AS account_name, a.name AS delivery_name, d.displayname AS sale_name, \
            o.name AS owner_name, i.issuer_name, i.registration_number, \
            sr.addressee, sr.issued_count, sr.first_issued_at, sr.last_issued_at \
       FROM sales s \
       JOIN projects p ON p.id = s.project_id \
       JOIN returns r ON r.id = s.return_id \
       JOIN users u ON u.id = s.user_id \
       LEFT JOIN sale_addresses a ON a.sales_id = s.id \
       LEFT JOIN display_names d ON d.sales_id = s.id \
       LEFT JOIN project_owners o ON o.project_id = s.project_id \
       LEFT JOIN project_receipt_issuers i ON i.project_id = s.project_id \
       LEFT JOIN sale_receipts sr ON sr.sale_id = s.id \
      WHERE s.id = $1";

#[async_trait]
impl SaleReceiptStore for PgSaleReceipts {
    async fn project_issuer(&self, project: ProjectId) -> Result<ProjectIssuer, RepoError> {
        let row: Option<ProjectIssuerRow> = with_conn(&self.pool, move |conn| {
            sql_query(PROJECT_ISSUER).bind::<BigInt, _>(project.get()).get_result(conn).optional().map_err(map_diesel)
        })
        .await?;
        row.ok_or(RepoError::NotFound)?.try_into()
    }

    async fn set_issuer(
        &self,
        project: ProjectId,
        issuer: &ReceiptIssuer,
        now: DateTime<Utc>,
    ) -> Result<(), RepoError> {
        let name = issuer.name.clone();
        let number = issuer.registration_number.as_ref().map(|n| n.as_str().to_owned());
        with_conn(&self.pool, move |conn| {
            sql_query(
                "INSERT INTO project_receipt_issuers (project_id, issuer_name, registration_number, updated_at) \
                 VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (project_id) DO UPDATE SET issuer_name = EXCLUDED.issuer_name, \
                   registration_number = EXCLUDED.registration_number, updated_at = EXCLUDED.updated_at",
            )
            .bind::<BigInt, _>(project.get())
            .bind::<Text, _>(name)
            .bind::<Nullable<Text>, _>(number)
            .bind::<Timestamptz, _>(now)
            .execute(conn)
            .map(|_| ())
            .map_err(|e| match map_diesel(e) {
                // The only foreign key: the project.
                RepoError::Constraint(v) if v.kind == ConstraintKind::ForeignKey => RepoError::NotFound,
                other => other,
            })
        })
        .await
    }

    async fn sale(&self, id: SaleId) -> Result<ReceiptSale, RepoError> {
        let row: Option<SaleRow> = with_conn(&self.pool, move |conn| {
            sql_query(SALE).bind::<BigInt, _>(id.get()).get_result(conn).optional().map_err(map_diesel)
        })
        .await?;
        row.ok_or(RepoError::NotFound)?.try_into()
    }

    async fn record_issue(&self, sale: SaleId, addressee: &str, now: DateTime<Utc>) -> Result<IssueRecord, RepoError> {
        let addressee = addressee.to_owned();
        let row: Option<IssueRow> = with_conn(&self.pool, move |conn| {
            // One statement: concurrent issues each add exactly one, and a reissue never dates itself before the
            // last one (clocks of several processes).
            sql_query(
                "INSERT INTO sale_receipts (sale_id, addressee, issued_count, first_issued_at, last_issued_at) \
                 SELECT s.id, $2, 1, $3, $3 FROM sales s WHERE s.id = $1 AND s.status = $4 \
                 ON CONFLICT (sale_id) DO UPDATE SET addressee = EXCLUDED.addressee, \
                   issued_count = sale_receipts.issued_count + 1, \
                   last_issued_at = greatest(sale_receipts.last_issued_at, EXCLUDED.last_issued_at) \
                 RETURNING addressee, issued_count, first_issued_at, last_issued_at",
            )
            .bind::<BigInt, _>(sale.get())
            .bind::<Text, _>(addressee)
            .bind::<Timestamptz, _>(now)
            .bind::<Text, _>(sale_status_to_db(SaleStatus::Succeeded))
            .get_result(conn)
            .optional()
            .map_err(map_diesel)
        })
        .await?;
        row.ok_or(RepoError::NotFound)?.try_into()
    }
}
