//! The domain's rules as SQL text, derived from the domain once so that no
//! query restates them: which sales count toward totals and with what amount, what "blank" means
//! for a name, and the one mapping between `SaleStatus` and `sales.status`.
//! Where a migration must state a rule itself (the running-totals triggers'
//! `sale_counted_amount`, `return_type_allows_logo`, `trim_whitespace`),
//! a test here ties it to the domain.

use std::fmt::Write as _;
use std::sync::LazyLock;

use chrono::{DateTime, Utc};
use diesel::sql_types::{BigInt, Timestamptz};
use diesel::{sql_query, PgConnection, RunQueryDsl};
use domain::ids::{NotAnId, ProjectId};
use domain::news::NewsAudience;
use domain::payment::{PayType, SaleStatus};
use domain::refund::RefundFlag;
use ports::payments::gateway::SubscriptionState;
use ports::RepoError;

use crate::error::Tx;

/// A value read from the database that the domain cannot accept. Names the
/// column so the log says where the bad data sits.
pub(crate) fn corrupt(column: &str, detail: impl std::fmt::Display) -> RepoError {
    RepoError::Unexpected(anyhow::anyhow!("corrupt value in {column}: {detail}"))
}

/// An id read from `column`: sequences hand out positive ids only, so zero
/// or a negative number is corruption, never a record to act on.
pub(crate) fn stored_id<Id: TryFrom<i64, Error = NotAnId>>(column: &str, raw: i64) -> Result<Id, RepoError> {
    Id::try_from(raw).map_err(|e| corrupt(column, e))
}

/// The text stored in `sales.status`.
pub(crate) const fn sale_status_to_db(status: SaleStatus) -> &'static str {
    status.as_str()
}

/// Reads `sales.status`; an unknown text is an error, never a guess.
pub(crate) fn sale_status_from_db(raw: &str) -> Result<SaleStatus, RepoError> {
    SaleStatus::parse(raw).map_err(|e| corrupt("sales.status", e))
}

/// A project's stored `fee_schedule`.
pub(crate) fn fee_schedule_from_db(code: &str) -> Result<domain::money::FeeSchedule, RepoError> {
    domain::money::FeeSchedule::ALL
        .into_iter()
        .find(|schedule| schedule.code() == code)
        .ok_or_else(|| corrupt("projects.fee_schedule", format!("{code:?}")))
}

/// `column` holds a status for which `rule` is true. A single status is
/// written as `=` so that the planner matches the partial indexes declared
/// `WHERE status = 'succeeded'`.
fn status_filter(column: &str, rule: fn(SaleStatus) -> bool) -> String {
    let texts: Vec<String> =
        SaleStatus::ALL.into_iter().filter(|s| rule(*s)).map(|s| format!("'{}'", sale_status_to_db(s))).collect();
    match texts.as_slice() {
        [] => "FALSE".to_string(),
        [one] => format!("{column} = {one}"),
        many => format!("{column} IN ({})", many.join(", ")),
    }
}

/// The sale `sale` (a table name or alias of `sales`) counts as one support
/// toward backer counts and sponsor walls
/// (`domain::payment::counts_toward_totals`: paid, and not refunded in full).
/// The migration's `sale_counted_amount`, which the running-totals triggers
/// use, states the same rule; the tests below tie both to the domain.
pub(crate) fn counts_toward_totals(sale: &str) -> String {
    format!(
        "({} AND {sale}.total > {sale}.refunded_amount)",
        status_filter(&format!("{sale}.status"), SaleStatus::counts_toward_totals)
    )
}

/// What the sale `sale` adds to raised totals and sponsor amounts
/// (`domain::payment::counted_amount`: paid, tax included, less refunds).
pub(crate) fn counted_amount(sale: &str) -> String {
    format!("(CASE WHEN {} THEN {sale}.total - {sale}.refunded_amount ELSE 0 END)", counts_toward_totals(sale))
}

/// `column` (a `sales.status`) holds a sale that may still be paid: it keeps
/// its lots but no money has arrived (`reserves_stock` and not
/// `counts_toward_totals`). The reconciler asks the provider about these.
pub(crate) fn awaiting_payment(column: &str) -> String {
    status_filter(column, |s| s.reserves_stock() && !s.counts_toward_totals())
}

/// `column` (a `sales.status`) holds a paid sale (refunded or not).
pub(crate) fn paid(column: &str) -> String {
    status_filter(column, SaleStatus::counts_toward_totals)
}

/// `column` (a `sales.status`) holds a sale whose outcome is known (`SaleStatus::is_settled`).
pub(crate) fn settled(column: &str) -> String {
    status_filter(column, SaleStatus::is_settled)
}

/// `column` (a `sales.status`) holds a bank transfer whose money is still
/// awaited and may be cancelled at its deadline. `Processing` is left out:
/// the provider is already settling money that arrived. Written as the
/// partial index `sales_open_transfers_idx` states it.
pub(crate) fn transfer_awaited(column: &str) -> String {
    status_filter(column, |s| {
        matches!(s, SaleStatus::Pending | SaleStatus::RequiresAction | SaleStatus::AwaitingBankTransfer)
    })
}

/// `column` (a `sales.payment_type`) is a method that waits for the money
/// (`PayType::waits_for_money`: bank transfer, konbini).
pub(crate) fn waits_for_money(column: &str) -> String {
    let codes: Vec<String> =
        PayType::ALL.into_iter().filter(|p| p.waits_for_money()).map(|p| p.code().to_string()).collect();
    format!("{column} IN ({})", codes.join(", "))
}

/// `column` (a `subscriptions.status`) holds a monthly support that runs
/// (`SubscriptionState::is_running`).
pub(crate) fn subscription_running(column: &str) -> String {
    let texts: Vec<String> =
        SubscriptionState::ALL.into_iter().filter(|s| s.is_running()).map(|s| format!("'{}'", s.as_str())).collect();
    format!("{column} IN ({})", texts.join(", "))
}

/// The refund flag of the sale `sale` (a table name or alias of `sales`) as the refund rules read it
/// (`domain::refund::RefundFlag::of_sale`): a late transfer to give back (`refund_required`, flag 0) is
/// refundable.
pub(crate) fn refund_flag(sale: &str) -> String {
    format!(
        "(CASE WHEN {sale}.refund_required AND {sale}.flag = {stored} THEN {refundable} ELSE {sale}.flag END)::int4",
        stored = RefundFlag::NotRefundable(0).code(),
        refundable = RefundFlag::Refundable.code(),
    )
}

/// The news item `news` (an alias of `project_news`) may be read in full by a reader whose paid supports of its
/// project hold the returns `supported` (an SQL `bigint[]`): `domain::news::NewsAudience::admits`.
pub(crate) fn news_admits(news: &str, supported: &str) -> String {
    format!(
        "({news}.audience = '{public}' OR ({news}.audience = '{supporters}' AND cardinality({supported}) > 0 \
           AND (cardinality({news}.return_ids) = 0 OR {news}.return_ids && {supported})))",
        public = NewsAudience::Public.code(),
        supporters = NewsAudience::Supporters { returns: Vec::new() }.code(),
    )
}

/// The news item `news` is on the public page at `now` (an SQL timestamptz): `domain::news::NewsState::of` is
/// `Published`, so neither a draft nor an item scheduled for later.
pub(crate) fn news_published(news: &str, now: &str) -> String {
    format!("({news}.published_at IS NOT NULL AND {news}.published_at <= {now})")
}

/// Every character Rust's `str::trim` removes, as a PostgreSQL escape string.
/// PostgreSQL's one-argument `btrim` removes only the ASCII space, so a name
/// of full-width spaces would be "non-empty" in SQL but blank to the domain.
static WHITESPACE: LazyLock<String> = LazyLock::new(|| {
    let mut literal = String::from("E'");
    for c in (0..=0x10_FFFF_u32).filter_map(char::from_u32).filter(|c| c.is_whitespace()) {
        let _ = write!(literal, "\\u{:04X}", u32::from(c));
    }
    literal.push('\'');
    literal
});

/// Whether an operator hid the public name of supporter `user` on project `project` (terms 第18条): the public
/// pages then show them as 匿名, as if they had asked for it.
pub(crate) fn name_hidden_by_operator(project: &str, user: &str) -> String {
    format!("EXISTS (SELECT 1 FROM supporter_name_hidings h WHERE h.project_id = {project} AND h.user_id = {user})")
}

/// Whether project `id` exists, in whatever state (the operators' screens read drafts too).
pub(crate) fn project_exists(conn: &mut PgConnection, id: ProjectId) -> Result<bool, RepoError> {
    let found = sql_query("SELECT id FROM projects WHERE id = $1")
        .bind::<BigInt, _>(id.get())
        .execute(conn)
        .map_err(crate::error::map_diesel)?;
    Ok(found > 0)
}

/// `NotFound` unless project `id` exists.
pub(crate) fn require_project(conn: &mut PgConnection, id: ProjectId) -> Result<(), RepoError> {
    if project_exists(conn, id)? {
        Ok(())
    } else {
        Err(RepoError::NotFound)
    }
}

/// Locks the project's row for the transaction (`NotFound` when there is none).
pub(crate) fn lock_project(conn: &mut PgConnection, id: ProjectId, now: DateTime<Utc>) -> Result<(), Tx> {
    let touched = sql_query("UPDATE projects SET updated_at = $2 WHERE id = $1")
        .bind::<BigInt, _>(id.get())
        .bind::<Timestamptz, _>(now)
        .execute(conn)?;
    if touched == 0 {
        return Err(Tx::Refused(RepoError::NotFound));
    }
    Ok(())
}

/// `expr` trimmed exactly as `str::trim` trims.
pub(crate) fn trim(expr: &str) -> String {
    format!("btrim({expr}, {})", WHITESPACE.as_str())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use diesel::sql_types::{BigInt, Bool, SmallInt, Text};
    use diesel::{sql_query, Connection, PgConnection, QueryableByName, RunQueryDsl};
    use domain::money::Yen;
    use domain::returns::ReturnType;

    #[derive(QueryableByName)]
    struct Flag {
        #[diesel(sql_type = Bool)]
        value: bool,
    }

    #[derive(QueryableByName)]
    struct Trimmed {
        #[diesel(sql_type = Text)]
        value: String,
    }

    fn server() -> PgConnection {
        PgConnection::establish(&crate::testing::admin_url()).expect("a PostgreSQL server for the SQL rule tests")
    }

    #[test]
    fn the_counting_filter_names_exactly_the_statuses_that_count_toward_totals() {
        let fragment = counts_toward_totals("s");
        for status in SaleStatus::ALL {
            let quoted = format!("'{}'", status.as_str());
            assert_eq!(fragment.contains(&quoted), status.counts_toward_totals(), "{status:?} in {fragment}");
        }
    }

    #[derive(QueryableByName)]
    struct Counted {
        #[diesel(sql_type = Bool)]
        counts: bool,
        #[diesel(sql_type = BigInt)]
        amount: i64,
    }

    /// The generated fragments and the migration's `sale_counted_amount`
    /// (what the running-totals triggers count with) answer as
    /// `domain::payment::counted_amount` and `counts_toward_totals` for every
    /// status, unrefunded, partly and fully refunded.
    #[test]
    fn postgres_evaluates_both_counting_rules_as_the_domain_does_for_every_status_and_refund() {
        let (_db, pool) = crate::testing::TestDatabase::create().unwrap();
        let mut conn = pool.get().unwrap();
        let generated = format!(
            "SELECT coalesce({}, false) AS counts, {}::bigint AS amount \
             FROM (SELECT $1::text AS status, $2::bigint AS total, $3::bigint AS refunded_amount) x",
            counts_toward_totals("x"),
            counted_amount("x")
        );
        let migrated = "SELECT sale_counted_amount($1::text, $2::bigint, $3::bigint) > 0 AS counts, \
                        sale_counted_amount($1::text, $2::bigint, $3::bigint) AS amount";
        for status in SaleStatus::ALL {
            for (total, refunded) in [(1100, 0), (88_000, 35_000), (1100, 1100), (1, 0), (0, 0)] {
                let expected = domain::payment::counted_amount(status, Yen(total), Yen(refunded));
                let counts = domain::payment::counts_toward_totals(status, Yen(total), Yen(refunded));
                for sql in [generated.as_str(), migrated] {
                    let row: Counted = sql_query(sql)
                        .bind::<Text, _>(sale_status_to_db(status))
                        .bind::<BigInt, _>(total)
                        .bind::<BigInt, _>(refunded)
                        .get_result(&mut conn)
                        .unwrap();
                    assert_eq!((row.counts, row.amount), (counts, expected.0), "{status:?} {total}-{refunded}: {sql}");
                }
            }
        }
    }

    /// `news_admits` answers as `NewsAudience::admits` for every audience against every set of held returns, and
    /// `news_published` as `NewsState::of(..) == Published` for drafts, past, present and future times.
    #[test]
    fn postgres_reads_news_visibility_as_the_domain_does() {
        use chrono::{Duration, TimeZone, Utc};
        use diesel::sql_types::{Array, Nullable, Timestamptz};
        use domain::ids::ReturnId;
        use domain::news::NewsState;
        let mut conn = server();
        let audiences = [
            NewsAudience::Public,
            NewsAudience::Supporters { returns: vec![] },
            NewsAudience::Supporters { returns: vec![ReturnId(1)] },
            NewsAudience::Supporters { returns: vec![ReturnId(1), ReturnId(2)] },
        ];
        let held: [&[i64]; 5] = [&[], &[1], &[2], &[3], &[2, 3]];
        let sql = format!(
            "SELECT {} AS value FROM (SELECT $1::text AS audience, $2::bigint[] AS return_ids) n",
            news_admits("n", "$3::bigint[]")
        );
        for audience in &audiences {
            for supported in held {
                let ids: Vec<ReturnId> = supported.iter().map(|id| ReturnId(*id)).collect();
                let row: Flag = sql_query(&sql)
                    .bind::<Text, _>(audience.code())
                    .bind::<Array<BigInt>, _>(audience.returns().iter().map(|r| r.0).collect::<Vec<i64>>())
                    .bind::<Array<BigInt>, _>(supported.to_vec())
                    .get_result(&mut conn)
                    .unwrap();
                assert_eq!(row.value, audience.admits(&ids), "{audience:?} read with {supported:?}");
            }
        }
        let now = Utc.with_ymd_and_hms(2026, 12, 1, 3, 0, 0).unwrap();
        let sql = format!(
            "SELECT coalesce({}, false) AS value FROM (SELECT $1 AS published_at) n",
            news_published("n", "$2")
        );
        for at in [None, Some(now - Duration::days(1)), Some(now), Some(now + Duration::seconds(1))] {
            let row: Flag = sql_query(&sql)
                .bind::<Nullable<Timestamptz>, _>(at)
                .bind::<Timestamptz, _>(now)
                .get_result(&mut conn)
                .unwrap();
            assert_eq!(row.value, NewsState::of(at, now) == NewsState::Published, "{at:?}");
        }
    }

    #[test]
    fn the_paid_and_settled_filters_name_exactly_their_statuses() {
        for status in SaleStatus::ALL {
            let quoted = format!("'{}'", status.as_str());
            assert_eq!(paid("s.status").contains(&quoted), status.counts_toward_totals(), "{status:?}");
            assert_eq!(settled("s.status").contains(&quoted), status.is_settled(), "{status:?}");
        }
    }

    #[test]
    fn the_methods_that_wait_for_money_are_the_domains() {
        assert_eq!(waits_for_money("s.payment_type"), "s.payment_type IN (2, 3)");
        for pay in PayType::ALL {
            let listed = waits_for_money("x").contains(&pay.code().to_string());
            assert_eq!(listed, pay.waits_for_money(), "{pay:?}");
        }
    }

    #[test]
    fn a_single_counting_status_is_an_equality_the_partial_indexes_match() {
        let counting: Vec<SaleStatus> = SaleStatus::ALL.into_iter().filter(|s| s.counts_toward_totals()).collect();
        if counting.len() == 1 {
            assert!(
                counts_toward_totals("s").starts_with(&format!("(s.status = '{}' AND", counting[0].as_str())),
                "{}",
                counts_toward_totals("s")
            );
        }
    }

    #[derive(QueryableByName)]
    struct Code {
        #[diesel(sql_type = diesel::sql_types::Integer)]
        value: i32,
    }

    /// The generated refund flag answers as `RefundFlag::of_sale` for every stored flag, with and without
    /// `refund_required`.
    #[test]
    fn postgres_reads_the_refund_flag_as_the_domain_does() {
        let mut conn = server();
        let sql = format!(
            "SELECT {} AS value FROM (SELECT $1::smallint AS flag, $2::boolean AS refund_required) x",
            refund_flag("x")
        );
        for stored in [0_i16, 1, 2, 11, 99] {
            for required in [false, true] {
                let row: Code = sql_query(&sql)
                    .bind::<SmallInt, _>(stored)
                    .bind::<Bool, _>(required)
                    .get_result(&mut conn)
                    .unwrap();
                assert_eq!(row.value, RefundFlag::of_sale(i32::from(stored), required).code(), "{stored} {required}");
            }
        }
    }

    /// The migration's `return_type_allows_logo` (sponsor_totals.logo_type)
    /// answers as the domain for every return type.
    #[test]
    fn the_migrated_logo_rule_agrees_with_the_domain_for_every_return_type() {
        let (_db, pool) = crate::testing::TestDatabase::create().unwrap();
        let mut conn = pool.get().unwrap();
        for kind in ReturnType::ALL {
            let code = i16::try_from(kind.code()).unwrap();
            let row: Flag = sql_query("SELECT return_type_allows_logo($1) AS value")
                .bind::<SmallInt, _>(code)
                .get_result(&mut conn)
                .unwrap();
            assert_eq!(row.value, kind.allows_logo(), "{kind:?}");
        }
    }

    /// The migration's `trim_whitespace` (sponsor_totals.name) removes every
    /// character Rust's `str::trim` removes, and nothing else.
    #[test]
    fn the_migrated_trim_removes_exactly_what_rust_trims() {
        let (_db, pool) = crate::testing::TestDatabase::create().unwrap();
        let mut conn = pool.get().unwrap();
        let samples: Vec<String> = (0..=0x3000_u32)
            .filter_map(char::from_u32)
            .filter(|c| c.is_whitespace() || c.is_control() || *c == '\u{200B}' || *c == '\u{FEFF}' || *c == '\u{3000}')
            .filter(|c| *c != '\0')
            .map(|c| format!("{c}名{c}"))
            .chain(["\u{FEFF}名".to_string(), "\u{3000}\u{3000}".to_string()])
            .collect();
        for sample in samples {
            let row: Trimmed = sql_query("SELECT trim_whitespace($1) AS value")
                .bind::<Text, _>(&sample)
                .get_result(&mut conn)
                .unwrap();
            assert_eq!(row.value, sample.trim(), "{sample:?}");
        }
    }

    #[test]
    fn postgres_trims_names_exactly_as_rust_does() {
        let mut conn = server();
        let sql = format!("SELECT {} AS value", trim("$1::text"));
        let samples = [
            "  群馬 太郎  ",
            "\u{3000}上毛商事\u{3000}",
            "\u{3000}\u{3000}",
            "\t\n\r\u{A0}\u{2009}名前\u{205F}",
            "\u{200B}見えない\u{200B}",
            "",
            "中 の 空白",
        ];
        for sample in samples {
            let row: Trimmed = sql_query(&sql).bind::<Text, _>(sample).get_result(&mut conn).unwrap();
            assert_eq!(row.value, sample.trim(), "{sample:?}");
        }
    }

    /// The running filter names exactly the provider states the port calls running.
    #[test]
    fn the_running_filter_names_exactly_the_running_subscription_states() {
        let fragment = subscription_running("b.status");
        for state in SubscriptionState::ALL {
            let quoted = format!("'{}'", state.as_str());
            assert_eq!(fragment.contains(&quoted), state.is_running(), "{state:?} in {fragment}");
        }
    }

    #[test]
    fn an_unknown_stored_status_is_an_error_naming_the_column() {
        let error = sale_status_from_db("paid").unwrap_err();
        assert!(error.to_string().contains("sales.status"), "{error}");
        assert_eq!(sale_status_from_db("succeeded").unwrap(), SaleStatus::Succeeded);
    }
}
