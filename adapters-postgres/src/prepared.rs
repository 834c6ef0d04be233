//! Hand-written SQL that PostgreSQL plans once per connection.
//!
//! Diesel keeps a prepared statement for every query it builds, but never
//! for `sql_query`: it cannot know that the text is fixed. Planning the
//! public reads' joins cost more than running them (the sponsor wall: about
//! 1 ms to plan, 0.2 ms to run), so every public read paid it on every
//! request the cache missed. [`prepared`] takes only a `&'static str`, so
//! nothing assembled from input can fill diesel's statement cache.

use std::marker::PhantomData;

use diesel::pg::Pg;
use diesel::query_builder::{AstPass, Query, QueryFragment, QueryId};
use diesel::result::QueryResult;
use diesel::serialize::ToSql;
use diesel::sql_types::{HasSqlType, Untyped};
use diesel::RunQueryDsl;

/// `sql` (with `$1`, `$2`… placeholders) as a statement diesel prepares once per connection and reuses.
pub(crate) fn prepared(sql: &'static str) -> Prepared<()> {
    Prepared { sql, binds: () }
}

#[derive(Debug, Clone)]
#[must_use = "Queries are only executed when calling `load`, `get_result` or similar."]
pub(crate) struct Prepared<B> {
    sql: &'static str,
    binds: B,
}

/// One bound value of SQL type `ST`.
#[derive(Debug, Clone)]
pub(crate) struct Bind<ST, V> {
    value: V,
    _type: PhantomData<ST>,
}

impl Prepared<()> {
    pub(crate) fn bind<ST, V>(self, value: V) -> Prepared<(Bind<ST, V>,)> {
        Prepared { sql: self.sql, binds: (Bind { value, _type: PhantomData },) }
    }
}

impl<A> Prepared<(A,)> {
    pub(crate) fn bind<ST, V>(self, value: V) -> Prepared<(A, Bind<ST, V>)> {
        Prepared { sql: self.sql, binds: (self.binds.0, Bind { value, _type: PhantomData }) }
    }
}

/// The values behind `$1`, `$2`…, pushed where the text names them (a placeholder used twice is bound twice).
pub(crate) trait Binds {
    fn push<'b>(&'b self, number: usize, out: &mut AstPass<'_, 'b, Pg>) -> QueryResult<()>;
}

impl<ST, V> Bind<ST, V>
where
    Pg: HasSqlType<ST>,
    V: ToSql<ST, Pg>,
{
    fn push_into<'b>(&'b self, out: &mut AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        out.push_bind_param::<ST, V>(&self.value)
    }
}

fn no_such_placeholder(number: usize) -> diesel::result::Error {
    diesel::result::Error::QueryBuilderError(format!("the statement names ${number}, which is not bound").into())
}

impl Binds for () {
    fn push<'b>(&'b self, number: usize, _: &mut AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        Err(no_such_placeholder(number))
    }
}

impl<ST, V> Binds for (Bind<ST, V>,)
where
    Pg: HasSqlType<ST>,
    V: ToSql<ST, Pg>,
{
    fn push<'b>(&'b self, number: usize, out: &mut AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        match number {
            1 => self.0.push_into(out),
            _ => Err(no_such_placeholder(number)),
        }
    }
}

impl<ST1, V1, ST2, V2> Binds for (Bind<ST1, V1>, Bind<ST2, V2>)
where
    Pg: HasSqlType<ST1> + HasSqlType<ST2>,
    V1: ToSql<ST1, Pg>,
    V2: ToSql<ST2, Pg>,
{
    fn push<'b>(&'b self, number: usize, out: &mut AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        match number {
            1 => self.0.push_into(out),
            2 => self.1.push_into(out),
            _ => Err(no_such_placeholder(number)),
        }
    }
}

/// The text between placeholders and the placeholders' numbers, in order.
fn pieces(sql: &str) -> impl Iterator<Item = (&str, Option<usize>)> {
    let mut rest = sql;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let mut from = 0;
        while let Some(at) = rest[from..].find('$').map(|found| from + found) {
            let digits = rest[at + 1..].bytes().take_while(u8::is_ascii_digit).count();
            if digits > 0 {
                let text = &rest[..at];
                let number = rest[at + 1..at + 1 + digits].parse().ok();
                rest = &rest[at + 1 + digits..];
                return Some((text, number));
            }
            from = at + 1;
        }
        Some((std::mem::take(&mut rest), None))
    })
}

impl<B: Binds> QueryFragment<Pg> for Prepared<B> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        for (text, placeholder) in pieces(self.sql) {
            out.push_sql(text);
            if let Some(number) = placeholder {
                self.binds.push(number, &mut out)?;
            }
        }
        Ok(())
    }
}

// No static id: the cache key is the SQL text and the bind types, as for diesel's own dynamic queries.
impl<B> QueryId for Prepared<B> {
    type QueryId = ();
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl<B> Query for Prepared<B> {
    type SqlType = Untyped;
}

impl<B, Conn> RunQueryDsl<Conn> for Prepared<B> {}

#[cfg(test)]
mod tests {
    use super::pieces;

    #[test]
    fn placeholders_split_the_text_in_order_and_may_repeat() {
        let split: Vec<_> = pieces("SELECT a FROM t WHERE x = $1 AND (y = $2 OR z = $2) LIMIT $10").collect();
        assert_eq!(
            split,
            [
                ("SELECT a FROM t WHERE x = ", Some(1)),
                (" AND (y = ", Some(2)),
                (" OR z = ", Some(2)),
                (") LIMIT ", Some(10)),
            ]
        );
        assert_eq!(
            pieces("SELECT version FROM catalog_version").collect::<Vec<_>>(),
            [("SELECT version FROM catalog_version", None)]
        );
        assert_eq!(pieces("SELECT '$' || $1").collect::<Vec<_>>(), [("SELECT '$' || ", Some(1))]);
    }
}
