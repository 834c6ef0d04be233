//! The domain's rules as SQL text, derived from the domain once so that no
//! query restates them: which sales count toward totals, what "blank" means
//! for a name, and the one mapping between `SaleStatus` and `sales.status`.
//! Where a migration must state a rule itself (the running-totals triggers'
//! `sale_counts_toward_totals`, `return_type_allows_logo`, `trim_whitespace`),
//! a test here ties it to the domain.

use std::fmt::Write as _;
use std::sync::LazyLock;

use domain::ids::NotAnId;
use domain::payment::SaleStatus;
use domain::refund::RefundFlag;
use ports::RepoError;

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

/// A sale with `status` and (refund) `flag` columns counts toward raised
/// totals, backer counts and sponsor amounts
/// (`domain::payment::counts_toward_totals`: paid and not refunded). The
/// migration's `sale_counts_toward_totals`, which the running-totals
/// triggers use, states the same rule; the tests below tie both to the
/// domain.
pub(crate) fn counts_toward_totals(status: &str, flag: &str) -> String {
    format!(
        "({} AND {flag} <> {})",
        status_filter(status, SaleStatus::counts_toward_totals),
        RefundFlag::Refunded.code()
    )
}

/// `column` (a `sales.status`) holds a sale that may still be paid: it keeps
/// its lots but no money has arrived (`reserves_stock` and not
/// `counts_toward_totals`). The reconciler asks the provider about these.
pub(crate) fn awaiting_payment(column: &str) -> String {
    status_filter(column, |s| s.reserves_stock() && !s.counts_toward_totals())
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

/// `expr` trimmed exactly as `str::trim` trims.
pub(crate) fn trim(expr: &str) -> String {
    format!("btrim({expr}, {})", WHITESPACE.as_str())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use diesel::sql_types::{Bool, SmallInt, Text};
    use diesel::{sql_query, Connection, PgConnection, QueryableByName, RunQueryDsl};
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
        let fragment = counts_toward_totals("s.status", "s.flag");
        for status in SaleStatus::ALL {
            let quoted = format!("'{}'", status.as_str());
            assert_eq!(fragment.contains(&quoted), status.counts_toward_totals(), "{status:?} in {fragment}");
        }
    }

    /// Every refund flag the schema allows (`sales_flag_check`).
    const STORED_FLAGS: [i16; 3] = [0, 1, 11];

    /// The generated filter and the migration's `sale_counts_toward_totals`
    /// (what the running-totals triggers count with) both answer as
    /// `domain::payment::counts_toward_totals` for every status and flag.
    #[test]
    fn postgres_evaluates_both_counting_rules_as_the_domain_does_for_every_status_and_flag() {
        let (_db, pool) = crate::testing::TestDatabase::create().unwrap();
        let mut conn = pool.get().unwrap();
        let generated = format!(
            "SELECT coalesce(({}), false) AS value FROM (SELECT $1::text AS status, $2::smallint AS flag) x",
            counts_toward_totals("x.status", "x.flag")
        );
        let migrated = "SELECT coalesce(sale_counts_toward_totals($1::text, $2::smallint), false) AS value";
        for status in SaleStatus::ALL {
            for flag in STORED_FLAGS {
                let expected = domain::payment::counts_toward_totals(status, RefundFlag::from_code(i32::from(flag)));
                for sql in [generated.as_str(), migrated] {
                    let row: Flag = sql_query(sql)
                        .bind::<Text, _>(sale_status_to_db(status))
                        .bind::<SmallInt, _>(flag)
                        .get_result(&mut conn)
                        .unwrap();
                    assert_eq!(row.value, expected, "{status:?} flag {flag}: {sql}");
                }
            }
        }
    }

    #[test]
    fn a_single_counting_status_is_an_equality_the_partial_indexes_match() {
        let counting: Vec<SaleStatus> = SaleStatus::ALL.into_iter().filter(|s| s.counts_toward_totals()).collect();
        if counting.len() == 1 {
            assert!(
                counts_toward_totals("status", "flag")
                    .starts_with(&format!("(status = '{}' AND", counting[0].as_str())),
                "{}",
                counts_toward_totals("status", "flag")
            );
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

    #[test]
    fn an_unknown_stored_status_is_an_error_naming_the_column() {
        let error = sale_status_from_db("paid").unwrap_err();
        assert!(error.to_string().contains("sales.status"), "{error}");
        assert_eq!(sale_status_from_db("succeeded").unwrap(), SaleStatus::Succeeded);
    }
}
