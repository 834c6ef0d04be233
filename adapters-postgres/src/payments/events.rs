//! The provider's events, applied once and retried by the reconciler.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Integer, Nullable, Text, Timestamptz};
use diesel::{sql_query, QueryableByName};
use ports::clock::Clock;
use ports::payments::gateway::PaymentId;
use ports::payments::ledger::EventStore;
use ports::RepoError;

use super::PgSupportLedger;
use crate::error::{expect_row, map_diesel, with_conn};

#[derive(QueryableByName)]
struct EventPaymentRow {
    #[diesel(sql_type = Text)]
    event_id: String,
    #[diesel(sql_type = Text)]
    object_id: String,
}

#[async_trait]
impl<C: Clock + 'static> EventStore for PgSupportLedger<C> {
    async fn record_event(
        &self,
        event_id: &str,
        event_type: &str,
        object_id: Option<String>,
        payload: serde_json::Value,
        now: DateTime<Utc>,
    ) -> Result<bool, RepoError> {
        let (event_id, event_type) = (event_id.to_string(), event_type.to_string());
        let payload = payload.to_string();
        with_conn(&self.pool, move |conn| {
            // A redelivery of an event not applied yet is another attempt (the no-op update makes the row count).
            let to_apply = sql_query(
                "INSERT INTO provider_events (event_id, event_type, object_id, payload, received_at) \
                 VALUES ($1, $2, $3, $4::jsonb, $5) \
                 ON CONFLICT (event_id) DO UPDATE SET event_id = EXCLUDED.event_id \
                   WHERE provider_events.processed_at IS NULL",
            )
            .bind::<Text, _>(event_id)
            .bind::<Text, _>(event_type)
            .bind::<Nullable<Text>, _>(object_id)
            .bind::<Text, _>(payload)
            .bind::<Timestamptz, _>(now)
            .execute(conn)
            .map_err(map_diesel)?;
            Ok(to_apply == 1)
        })
        .await
    }

    async fn finish_event(&self, event_id: &str, error: Option<String>, now: DateTime<Utc>) -> Result<(), RepoError> {
        let event_id = event_id.to_string();
        with_conn(&self.pool, move |conn| {
            let updated = match error {
                None => {
                    sql_query("UPDATE provider_events SET processed_at = $2, last_error = NULL WHERE event_id = $1")
                        .bind::<Text, _>(event_id)
                        .bind::<Timestamptz, _>(now)
                        .execute(conn)
                }
                Some(error) => {
                    sql_query("UPDATE provider_events SET attempts = attempts + 1, last_error = $2 WHERE event_id = $1")
                        .bind::<Text, _>(event_id)
                        .bind::<Text, _>(error)
                        .execute(conn)
                }
            }
            .map_err(map_diesel)?;
            expect_row(updated)
        })
        .await
    }

    async fn unapplied_event_payments(&self, limit: i64) -> Result<Vec<(String, PaymentId)>, RepoError> {
        with_conn(&self.pool, move |conn| {
            // `_` is LIKE's one-character wildcard: escaped, the prefix is exactly "pi_".
            let rows: Vec<EventPaymentRow> = sql_query(
                "SELECT event_id, object_id FROM provider_events \
                  WHERE processed_at IS NULL AND object_id LIKE 'pi\\_%' AND attempts < $2 \
                  ORDER BY received_at, event_id LIMIT $1",
            )
            .bind::<BigInt, _>(limit)
            .bind::<Integer, _>(ports::payments::ledger::MAX_EVENT_ATTEMPTS)
            .load(conn)
            .map_err(map_diesel)?;
            Ok(rows.into_iter().map(|r| (r.event_id, PaymentId::new(r.object_id))).collect())
        })
        .await
    }
}
