//! The storage side of the payments core (`ports::payments::ledger`), one
//! module per port: [`sales`] (the checkout read, a support written in one
//! transaction whose stock trigger takes its lots, provider reports applied
//! under the sale's row lock, guest accounts), [`sweeps`], [`events`],
//! [`customers`] and [`subscriptions`]; [`sale_query`] is the one sale read
//! they share. Plain SQL, like the profile reads, so that the joins read as
//! they run.

mod customers;
mod events;
mod sale_query;
mod sales;
mod subscriptions;
mod sweeps;

use diesel::sql_types::Text;
use diesel::QueryableByName;
use ports::clock::{Clock, SystemClock};

use crate::PgPool;

/// The payments core's stores (`ports::payments::ledger`) over PostgreSQL. The clock only
/// decides whether a project is still open at checkout (its period ends on
/// a Tokyo calendar day).
#[derive(Clone)]
pub struct PgSupportLedger<C = SystemClock> {
    pool: PgPool,
    clock: C,
}

impl PgSupportLedger {
    pub fn new(pool: PgPool) -> Self {
        Self { pool, clock: SystemClock }
    }
}

impl<C: Clock> PgSupportLedger<C> {
    pub fn with_clock(pool: PgPool, clock: C) -> Self {
        Self { pool, clock }
    }
}

/// One text column, for the reads that need nothing else.
#[derive(QueryableByName)]
struct TextRow {
    #[diesel(sql_type = Text)]
    value: String,
}
