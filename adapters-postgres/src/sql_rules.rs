//! The domain's rules as SQL text, derived from the domain once so that no
//! query restates them: which sale statuses count toward totals, which return
//! types carry a logo, what "blank" means for a name, and the one mapping
//! between `SaleStatus` and `sales.status`.

use std::fmt::Write as _;
use std::sync::LazyLock;

use domain::ids::NotAnId;
use domain::payment::SaleStatus;
use domain::returns::ReturnType;
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

/// `column` (a `sales.status`) counts toward raised totals, backer counts
/// and sponsor amounts (`SaleStatus::counts_toward_totals`).
pub(crate) fn counts_toward_totals(column: &str) -> String {
    status_filter(column, SaleStatus::counts_toward_totals)
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

/// `column` (a `returns.return_type`) may show a logo (`ReturnType::allows_logo`).
pub(crate) fn allows_logo(column: &str) -> String {
    let codes: Vec<String> =
        ReturnType::ALL.into_iter().filter(|t| t.allows_logo()).map(|t| t.code().to_string()).collect();
    if codes.is_empty() {
        "FALSE".to_string()
    } else {
        format!("{column} IN ({})", codes.join(", "))
    }
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
    use diesel::sql_types::{Bool, Text};
    use diesel::{sql_query, Connection, PgConnection, QueryableByName, RunQueryDsl};

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
        let fragment = counts_toward_totals("s.status");
        for status in SaleStatus::ALL {
            let quoted = format!("'{}'", status.as_str());
            assert_eq!(fragment.contains(&quoted), status.counts_toward_totals(), "{status:?} in {fragment}");
        }
    }

    #[test]
    fn postgres_evaluates_the_counting_filter_as_the_domain_does_for_every_status() {
        let mut conn = server();
        let sql = format!("SELECT coalesce(({}), false) AS value FROM (SELECT $1::text AS status) x", {
            counts_toward_totals("x.status")
        });
        for status in SaleStatus::ALL {
            let row: Flag = sql_query(&sql).bind::<Text, _>(sale_status_to_db(status)).get_result(&mut conn).unwrap();
            assert_eq!(row.value, status.counts_toward_totals(), "{status:?}");
        }
    }

    #[test]
    fn a_single_counting_status_is_an_equality_the_partial_indexes_match() {
        let counting: Vec<SaleStatus> = SaleStatus::ALL.into_iter().filter(|s| s.counts_toward_totals()).collect();
        if counting.len() == 1 {
            assert_eq!(counts_toward_totals("status"), format!("status = '{}'", counting[0].as_str()));
        }
    }

    #[test]
    fn postgres_evaluates_the_logo_filter_as_the_domain_does_for_every_return_type() {
        let mut conn = server();
        let sql = format!("SELECT ({}) AS value FROM (SELECT $1::smallint AS t) x", allows_logo("x.t"));
        for kind in ReturnType::ALL {
            let code = i16::try_from(kind.code()).unwrap();
            let row: Flag = sql_query(&sql).bind::<diesel::sql_types::SmallInt, _>(code).get_result(&mut conn).unwrap();
            assert_eq!(row.value, kind.allows_logo(), "{kind:?}");
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
