//! What the sweeps and the reconcile report read, and the close of a
//! cancelled transfer's payment.

use std::sync::LazyLock;

use async_trait::async_trait;
use chrono::{DateTime, NaiveDate, Utc};
use diesel::prelude::*;
use diesel::sql_query;
use diesel::sql_types::{BigInt, Bool, Date, Timestamptz};
use domain::ids::SaleId;
use domain::payment::{PayType, SaleStatus};
use ports::clock::Clock;
use ports::payments::ledger::{SaleRecord, SweepStore};
use ports::RepoError;

use super::sale_query::{sale_by_id, sale_rows, SALE_SELECT};
use super::PgSupportLedger;
use crate::error::{expect_row, map_diesel, with_conn};
use crate::sql_rules::{awaiting_payment, sale_status_to_db, transfer_awaited, waits_for_money};

static UNSETTLED: LazyLock<String> = LazyLock::new(|| {
    format!(
        "{SALE_SELECT} WHERE {} AND s.updated_at < $1 ORDER BY s.updated_at, s.id LIMIT $2",
        awaiting_payment("s.status")
    )
});
static WITH_PAYMENT: LazyLock<String> = LazyLock::new(|| {
    format!("{SALE_SELECT} WHERE coalesce(s.intent_id, '') <> '' AND s.id > $1 ORDER BY s.id LIMIT $2")
});
static OVERDUE_TRANSFERS: LazyLock<String> = LazyLock::new(|| {
    format!(
        "{SALE_SELECT} WHERE {} AND {} AND s.transfer_deadline < $1 \
         ORDER BY s.transfer_deadline, s.id LIMIT $2",
        transfer_awaited("s.status"),
        waits_for_money("s.payment_type")
    )
});

/// A bank-transfer sale cancelled at its deadline whose provider payment is
/// still open: money sent late still pays it. Written as the partial index
/// `sales_open_late_transfers_idx` states it.
static LATE_OPEN: LazyLock<String> = LazyLock::new(|| {
    format!(
        "s.status = '{}' AND s.payment_type = {} AND s.intent_id IS NOT NULL AND s.intent_closed_at IS NULL \
           AND NOT s.refund_required",
        sale_status_to_db(SaleStatus::Canceled),
        PayType::BankTransfer.code()
    )
});
static LATE_TRANSFERS: LazyLock<String> = LazyLock::new(|| {
    format!("{SALE_SELECT} WHERE {} AND s.updated_at < $1 ORDER BY s.updated_at, s.id LIMIT $2", LATE_OPEN.as_str())
});
static TRANSFERS_TO_CLOSE: LazyLock<String> = LazyLock::new(|| {
    format!(
        "{SALE_SELECT} WHERE {} AND s.transfer_deadline < $1 ORDER BY s.transfer_deadline, s.id LIMIT $2",
        LATE_OPEN.as_str()
    )
});

#[async_trait]
impl<C: Clock + 'static> SweepStore for PgSupportLedger<C> {
    async fn unsettled(&self, changed_before: DateTime<Utc>, limit: i64) -> Result<Vec<SaleRecord>, RepoError> {
        with_conn(&self.pool, move |conn| {
            sale_rows(
                sql_query(UNSETTLED.as_str())
                    .bind::<Timestamptz, _>(changed_before)
                    .bind::<BigInt, _>(limit)
                    .load(conn)
                    .map_err(map_diesel)?,
            )
        })
        .await
    }

    async fn sales_with_payment(&self, after: SaleId, limit: i64) -> Result<Vec<SaleRecord>, RepoError> {
        with_conn(&self.pool, move |conn| {
            sale_rows(
                sql_query(WITH_PAYMENT.as_str())
                    .bind::<BigInt, _>(after.get())
                    .bind::<BigInt, _>(limit)
                    .load(conn)
                    .map_err(map_diesel)?,
            )
        })
        .await
    }

    async fn overdue_transfers(&self, today: NaiveDate, limit: i64) -> Result<Vec<SaleRecord>, RepoError> {
        with_conn(&self.pool, move |conn| {
            sale_rows(
                sql_query(OVERDUE_TRANSFERS.as_str())
                    .bind::<Date, _>(today)
                    .bind::<BigInt, _>(limit)
                    .load(conn)
                    .map_err(map_diesel)?,
            )
        })
        .await
    }

    async fn late_transfers(&self, changed_before: DateTime<Utc>, limit: i64) -> Result<Vec<SaleRecord>, RepoError> {
        with_conn(&self.pool, move |conn| {
            sale_rows(
                sql_query(LATE_TRANSFERS.as_str())
                    .bind::<Timestamptz, _>(changed_before)
                    .bind::<BigInt, _>(limit)
                    .load(conn)
                    .map_err(map_diesel)?,
            )
        })
        .await
    }

    async fn transfers_to_close(&self, deadline_before: NaiveDate, limit: i64) -> Result<Vec<SaleRecord>, RepoError> {
        with_conn(&self.pool, move |conn| {
            sale_rows(
                sql_query(TRANSFERS_TO_CLOSE.as_str())
                    .bind::<Date, _>(deadline_before)
                    .bind::<BigInt, _>(limit)
                    .load(conn)
                    .map_err(map_diesel)?,
            )
        })
        .await
    }

    async fn close_transfer(
        &self,
        sale: SaleId,
        partly_paid: bool,
        now: DateTime<Utc>,
    ) -> Result<SaleRecord, RepoError> {
        with_conn(&self.pool, move |conn| {
            // Only a sale still cancelled is flagged: one revived meanwhile was paid in full.
            let updated = sql_query(format!(
                "UPDATE sales SET intent_closed_at = coalesce(intent_closed_at, $2), updated_at = $2, \
                   refund_required = refund_required OR ($3 AND status = '{}') \
                 WHERE id = $1",
                sale_status_to_db(SaleStatus::Canceled)
            ))
            .bind::<BigInt, _>(sale.get())
            .bind::<Timestamptz, _>(now)
            .bind::<Bool, _>(partly_paid)
            .execute(conn)
            .map_err(map_diesel)?;
            expect_row(updated)?;
            sale_by_id(conn, sale)?.ok_or(RepoError::NotFound)
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use crate::testing::TestDatabase;
    use diesel::sql_types::Text;
    use diesel::{Connection, PgConnection};

    #[derive(QueryableByName)]
    struct PlanLine {
        #[diesel(sql_type = Text, column_name = "QUERY PLAN")]
        line: String,
    }

    fn plan(conn: &mut PgConnection, sql: &str) -> String {
        let lines: Vec<PlanLine> = sql_query(format!("EXPLAIN {sql}")).load(conn).unwrap();
        lines.into_iter().map(|l| l.line).collect::<Vec<_>>().join("\n")
    }

    /// The status filters are generated from the domain; they must still
    /// imply the partial indexes' predicates, or the sweeps scan every sale.
    #[test]
    fn the_sweeps_can_use_the_partial_indexes_of_unpaid_sales() {
        let (db, _pool) = TestDatabase::create().unwrap();
        let mut conn = PgConnection::establish(&db.url).unwrap();
        sql_query("SET enable_seqscan = off").execute(&mut conn).unwrap();

        let overdue = OVERDUE_TRANSFERS.replace("$1", "DATE '2026-11-26'").replace("$2", "10");
        assert!(plan(&mut conn, &overdue).contains("sales_open_transfers_idx"), "{}", plan(&mut conn, &overdue));
        let unsettled = UNSETTLED.replace("$1", "TIMESTAMPTZ '2026-11-26T00:00:00Z'").replace("$2", "10");
        assert!(plan(&mut conn, &unsettled).contains("sales_unpaid_idx"), "{}", plan(&mut conn, &unsettled));
        let to_close = TRANSFERS_TO_CLOSE.replace("$1", "DATE '2026-11-26'").replace("$2", "10");
        assert!(plan(&mut conn, &to_close).contains("sales_open_late_transfers_idx"), "{}", plan(&mut conn, &to_close));
        let late = LATE_TRANSFERS.replace("$1", "TIMESTAMPTZ '2026-11-26T00:00:00Z'").replace("$2", "10");
        assert!(plan(&mut conn, &late).contains("sales_open_late_transfers_idx"), "{}", plan(&mut conn, &late));
    }

    #[test]
    fn the_reconciler_asks_about_every_status_that_holds_lots_unpaid() {
        let filter = awaiting_payment("status");
        for status in SaleStatus::ALL {
            let listed = filter.contains(&format!("'{}'", status.as_str()));
            assert_eq!(listed, status.reserves_stock() && !status.counts_toward_totals(), "{status:?} in {filter}");
        }
    }
}
