//! The member's provider customer.

use async_trait::async_trait;
use diesel::prelude::*;
use diesel::sql_query;
use diesel::sql_types::{BigInt, Text};
use domain::account::Email;
use domain::ids::UserId;
use ports::clock::Clock;
use ports::payments::gateway::CustomerId;
use ports::payments::ledger::CustomerStore;
use ports::RepoError;

use super::sale_query::parse_email;
use super::{PgSupportLedger, TextRow};
use crate::error::{map_diesel, with_conn};

#[async_trait]
impl<C: Clock + 'static> CustomerStore for PgSupportLedger<C> {
    async fn member_email(&self, user: UserId) -> Result<Email, RepoError> {
        with_conn(&self.pool, move |conn| {
            let row: TextRow = sql_query("SELECT email AS value FROM users WHERE id = $1")
                .bind::<BigInt, _>(user.get())
                .get_result(conn)
                .map_err(map_diesel)?;
            parse_email("users.email", &row.value)
        })
        .await
    }

    async fn customer(&self, user: UserId) -> Result<Option<CustomerId>, RepoError> {
        with_conn(&self.pool, move |conn| {
            let row: Option<TextRow> =
                sql_query("SELECT customer_id AS value FROM payment_customers WHERE user_id = $1")
                    .bind::<BigInt, _>(user.get())
                    .get_result(conn)
                    .optional()
                    .map_err(map_diesel)?;
            Ok(row.map(|r| CustomerId::new(r.value)))
        })
        .await
    }

    async fn save_customer(&self, user: UserId, customer: &CustomerId) -> Result<CustomerId, RepoError> {
        let customer = customer.as_str().to_string();
        with_conn(&self.pool, move |conn| {
            // The first customer stored wins; a concurrent second one reads it back.
            sql_query(
                "INSERT INTO payment_customers (user_id, customer_id) VALUES ($1, $2) ON CONFLICT (user_id) DO NOTHING",
            )
            .bind::<BigInt, _>(user.get())
            .bind::<Text, _>(customer)
            .execute(conn)
            .map_err(map_diesel)?;
            let row: TextRow = sql_query("SELECT customer_id AS value FROM payment_customers WHERE user_id = $1")
                .bind::<BigInt, _>(user.get())
                .get_result(conn)
                .map_err(map_diesel)?;
            Ok(CustomerId::new(row.value))
        })
        .await
    }
}
