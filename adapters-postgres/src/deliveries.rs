//! The delivery list and states (`sale_deliveries`: a row is 発送済み), read
//! with the address (`sale_addresses`) and answer (`sale_additional_data`)
//! each sale was placed with.

use async_trait::async_trait;
use chrono::{DateTime, NaiveDate, Utc};
use diesel::connection::Connection;
use diesel::sql_types::{Array, BigInt, Date, Integer, Nullable, SmallInt, Text, Timestamptz};
use diesel::{sql_query, OptionalExtension, QueryableByName, RunQueryDsl};
use domain::delivery::{DeliveryFilter, DeliveryState};
use domain::ids::{ProjectId, SaleId, UserId};
use domain::money::Yen;
use domain::payment::PayType;
use domain::profile::Address;
use ports::admin::deliveries::{DeliveryOverview, DeliveryQuery, DeliveryRow, DeliveryStore, ReturnCount, StateWrite};
use ports::RepoError;

use crate::error::{map_diesel, with_conn};
use crate::rows::CountRow;
use crate::sql_rules::{corrupt, counts_toward_totals, stored_id};
use crate::PgPool;

#[derive(Clone)]
pub struct PgDeliveries {
    pool: PgPool,
}

impl PgDeliveries {
    pub fn new(pool: PgPool) -> Self {
        Self { pool }
    }
}

/// The sale `s` must be delivered (`domain::delivery::must_deliver`, which is
/// `counts_toward_totals`: paid, not refunded in full).
fn must_deliver() -> String {
    counts_toward_totals("s")
}

#[derive(QueryableByName)]
struct Row {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = BigInt)]
    user_id: i64,
    #[diesel(sql_type = BigInt)]
    return_id: i64,
    #[diesel(sql_type = Text)]
    return_title: String,
    #[diesel(sql_type = SmallInt)]
    lot: i16,
    #[diesel(sql_type = Timestamptz)]
    created_at: DateTime<Utc>,
    #[diesel(sql_type = Nullable<Text>)]
    displayname: Option<String>,
    #[diesel(sql_type = Text)]
    email: String,
    #[diesel(sql_type = Nullable<Text>)]
    addr_name: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    tel_number: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    zip: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    pref: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    city: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    address: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    building: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    answer_label: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    answer_value: Option<String>,
    #[diesel(sql_type = BigInt)]
    total: i64,
    #[diesel(sql_type = BigInt)]
    refunded_amount: i64,
    #[diesel(sql_type = SmallInt)]
    payment_type: i16,
    #[diesel(sql_type = Nullable<Date>)]
    shipped_on: Option<NaiveDate>,
    #[diesel(sql_type = Nullable<Text>)]
    note: Option<String>,
}

const SELECT: &str = "SELECT s.id, s.user_id, s.return_id, r.title AS return_title, s.lot, s.created_at, \
       d.displayname, u.email, \
       a.name AS addr_name, a.tel_number, a.zip, a.pref, a.city, a.address, a.building, \
       x.label AS answer_label, x.value AS answer_value, \
       s.total, s.refunded_amount, s.payment_type, dl.shipped_on, dl.note \
  FROM sales s \
  JOIN returns r ON r.id = s.return_id \
  JOIN users u ON u.id = s.user_id \
  LEFT JOIN display_names d ON d.sales_id = s.id \
  LEFT JOIN sale_addresses a ON a.sales_id = s.id \
  LEFT JOIN LATERAL (SELECT label, value FROM sale_additional_data WHERE sales_id = s.id ORDER BY id LIMIT 1) x \
    ON TRUE \
  LEFT JOIN sale_deliveries dl ON dl.sale_id = s.id";

impl TryFrom<Row> for DeliveryRow {
    type Error = RepoError;

    fn try_from(row: Row) -> Result<Self, RepoError> {
        let address = match (row.addr_name, row.tel_number, row.zip, row.pref, row.city, row.address) {
            (Some(name), Some(tel_number), Some(zip), Some(pref), Some(city), Some(address)) => {
                Some(Address { name, tel_number, zip, pref, city, address, building: row.building })
            }
            _ => None,
        };
        let state = match row.shipped_on {
            Some(on) => DeliveryState::Shipped { on, note: row.note },
            None => DeliveryState::Unshipped,
        };
        Ok(Self {
            sale: stored_id("sales.id", row.id)?,
            supporter: stored_id("sales.user_id", row.user_id)?,
            return_id: stored_id("sales.return_id", row.return_id)?,
            return_title: row.return_title,
            lot: row.lot,
            created_at: row.created_at,
            display_name: row.displayname,
            email: row.email,
            address,
            answer: row.answer_label.zip(row.answer_value),
            total: Yen(row.total),
            refunded: Yen(row.refunded_amount),
            pay_type: PayType::from_code(i32::from(row.payment_type)).map_err(|e| corrupt("sales.payment_type", e))?,
            state,
        })
    }
}

/// The filter's SQL text on `dl` (`sale_deliveries`, left-joined).
const fn state_filter(filter: DeliveryFilter) -> &'static str {
    match filter {
        DeliveryFilter::All => "TRUE",
        DeliveryFilter::Unshipped => "dl.sale_id IS NULL",
        DeliveryFilter::Shipped => "dl.sale_id IS NOT NULL",
    }
}

#[derive(QueryableByName)]
struct TitleRow {
    #[diesel(sql_type = Text)]
    title: String,
}

#[derive(QueryableByName)]
struct ReturnCountRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = Text)]
    title: String,
    #[diesel(sql_type = BigInt)]
    to_deliver: i64,
    #[diesel(sql_type = BigInt)]
    shipped: i64,
}

fn count(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

#[async_trait]
impl DeliveryStore for PgDeliveries {
    async fn overview(&self, project: ProjectId) -> Result<DeliveryOverview, RepoError> {
        with_conn(&self.pool, move |conn| {
            let title: Option<TitleRow> = sql_query("SELECT title FROM projects WHERE id = $1")
                .bind::<BigInt, _>(project.get())
                .get_result(conn)
                .optional()
                .map_err(map_diesel)?;
            let title = title.ok_or(RepoError::NotFound)?.title;
            let rows: Vec<ReturnCountRow> = sql_query(format!(
                "SELECT r.id, r.title, \
                        count(s.id) FILTER (WHERE {deliver})::bigint AS to_deliver, \
                        count(dl.sale_id) FILTER (WHERE {deliver})::bigint AS shipped \
                   FROM returns r \
                   LEFT JOIN sales s ON s.return_id = r.id \
                   LEFT JOIN sale_deliveries dl ON dl.sale_id = s.id \
                  WHERE r.project_id = $1 \
                  GROUP BY r.id ORDER BY r.position, r.id",
                deliver = must_deliver()
            ))
            .bind::<BigInt, _>(project.get())
            .load(conn)
            .map_err(map_diesel)?;
            let returns = rows
                .into_iter()
                .map(|r| {
                    Ok(ReturnCount {
                        id: stored_id("returns.id", r.id)?,
                        title: r.title,
                        to_deliver: count(r.to_deliver),
                        shipped: count(r.shipped),
                    })
                })
                .collect::<Result<_, RepoError>>()?;
            Ok(DeliveryOverview { project, title, returns })
        })
        .await
    }

    async fn rows(
        &self,
        project: ProjectId,
        query: DeliveryQuery,
        offset: u64,
        limit: u32,
    ) -> Result<(Vec<DeliveryRow>, u64), RepoError> {
        let rows: (Vec<Row>, i64) = with_conn(&self.pool, move |conn| {
            let filter = format!(
                "s.project_id = $1 AND {deliver} AND ($2::bigint IS NULL OR s.return_id = $2) AND {state}",
                deliver = must_deliver(),
                state = state_filter(query.state),
            );
            let return_id = query.return_id.map(|r| r.get());
            let offset = i64::try_from(offset).unwrap_or(i64::MAX);
            let rows: Vec<Row> =
                sql_query(format!("{SELECT} WHERE {filter} ORDER BY s.created_at, s.id OFFSET $3 LIMIT $4"))
                    .bind::<BigInt, _>(project.get())
                    .bind::<Nullable<BigInt>, _>(return_id)
                    .bind::<BigInt, _>(offset)
                    .bind::<Integer, _>(i32::try_from(limit).unwrap_or(i32::MAX))
                    .load(conn)
                    .map_err(map_diesel)?;
            let matching: CountRow = sql_query(format!(
                "SELECT count(*)::bigint AS n FROM sales s LEFT JOIN sale_deliveries dl ON dl.sale_id = s.id \
                  WHERE {filter}"
            ))
            .bind::<BigInt, _>(project.get())
            .bind::<Nullable<BigInt>, _>(return_id)
            .get_result(conn)
            .map_err(map_diesel)?;
            Ok((rows, matching.n))
        })
        .await?;
        let list = rows.0.into_iter().map(DeliveryRow::try_from).collect::<Result<_, _>>()?;
        Ok((list, count(rows.1)))
    }

    async fn selected(&self, project: ProjectId, sales: Vec<SaleId>) -> Result<Vec<DeliveryRow>, RepoError> {
        let ids: Vec<i64> = sales.iter().map(|s| s.get()).collect();
        let rows: Vec<Row> = with_conn(&self.pool, move |conn| {
            sql_query(format!(
                "{SELECT} WHERE s.project_id = $1 AND s.id = ANY($2) AND {deliver} ORDER BY s.id",
                deliver = must_deliver()
            ))
            .bind::<BigInt, _>(project.get())
            .bind::<Array<BigInt>, _>(ids)
            .load(conn)
            .map_err(map_diesel)
        })
        .await?;
        rows.into_iter().map(DeliveryRow::try_from).collect()
    }

    async fn write(&self, actor: UserId, writes: Vec<StateWrite>) -> Result<(u32, u32), RepoError> {
        with_conn(&self.pool, move |conn| {
            conn.transaction::<(u32, u32), diesel::result::Error, _>(|conn| {
                let (mut changed, mut mailed) = (0u32, 0u32);
                for write in &writes {
                    let done = match (&write.before, &write.after) {
                        (DeliveryState::Unshipped, DeliveryState::Shipped { on, note }) => sql_query(
                            "INSERT INTO sale_deliveries (sale_id, shipped_on, note, updated_by) \
                             VALUES ($1, $2, $3, $4) ON CONFLICT (sale_id) DO NOTHING",
                        )
                        .bind::<BigInt, _>(write.sale.get())
                        .bind::<Date, _>(*on)
                        .bind::<Nullable<Text>, _>(note.clone())
                        .bind::<BigInt, _>(actor.get())
                        .execute(conn)?,
                        (
                            DeliveryState::Shipped { on: was_on, note: was_note },
                            DeliveryState::Shipped { on, note },
                        ) => sql_query(
                            "UPDATE sale_deliveries SET shipped_on = $2, note = $3, updated_by = $4, \
                                        updated_at = now() \
                                  WHERE sale_id = $1 AND shipped_on = $5 AND note IS NOT DISTINCT FROM $6",
                        )
                        .bind::<BigInt, _>(write.sale.get())
                        .bind::<Date, _>(*on)
                        .bind::<Nullable<Text>, _>(note.clone())
                        .bind::<BigInt, _>(actor.get())
                        .bind::<Date, _>(*was_on)
                        .bind::<Nullable<Text>, _>(was_note.clone())
                        .execute(conn)?,
                        (DeliveryState::Shipped { on: was_on, note: was_note }, DeliveryState::Unshipped) => sql_query(
                            "DELETE FROM sale_deliveries \
                                  WHERE sale_id = $1 AND shipped_on = $2 AND note IS NOT DISTINCT FROM $3",
                        )
                        .bind::<BigInt, _>(write.sale.get())
                        .bind::<Date, _>(*was_on)
                        .bind::<Nullable<Text>, _>(was_note.clone())
                        .execute(conn)?,
                        (DeliveryState::Unshipped, DeliveryState::Unshipped) => 0,
                    };
                    if done == 0 {
                        continue;
                    }
                    changed += 1;
                    if let Some(mail) = &write.mail {
                        crate::jobs::queue_mail_in(conn, mail)?;
                        mailed += 1;
                    }
                }
                Ok((changed, mailed))
            })
            .map_err(map_diesel)
        })
        .await
    }
}
