//! Rows that many statements answer: one count, or one id.

use diesel::sql_types::BigInt;
use diesel::QueryableByName;

/// `SELECT count(*) AS n ...`
#[derive(QueryableByName)]
pub(crate) struct CountRow {
    #[diesel(sql_type = BigInt)]
    pub(crate) n: i64,
}

/// `... RETURNING id` or `SELECT id ...`
#[derive(QueryableByName)]
pub(crate) struct IdRow {
    #[diesel(sql_type = BigInt)]
    pub(crate) id: i64,
}
