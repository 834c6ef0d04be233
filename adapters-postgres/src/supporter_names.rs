//! Supporter names hidden by an operator (`supporter_name_hidings`), read
//! beside each supporter's row of `sponsor_totals`. The public reads
//! (`catalog.rs`) show a hidden name as 匿名 through
//! `sql_rules::name_hidden_by_operator`.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use diesel::sql_types::{BigInt, Bool, Nullable, Text, Timestamptz};
use diesel::{sql_query, OptionalExtension, QueryableByName, RunQueryDsl};
use domain::ids::{ProjectId, UserId};
use domain::money::Yen;
use ports::admin::supporter_names::{ModeratedSupporter, NameHiding, SupporterNameRepository, SUPPORTER_LIST_LIMIT};
use ports::RepoError;
use std::sync::LazyLock;

use crate::error::{map_diesel, with_conn};
use crate::sql_rules::{require_project, stored_id, trim};
use crate::PgPool;

#[derive(Clone)]
pub struct PgSupporterNames {
    pool: PgPool,
}

impl PgSupporterNames {
    pub fn new(pool: PgPool) -> Self {
        Self { pool }
    }
}

#[derive(QueryableByName)]
struct SupporterRow {
    #[diesel(sql_type = BigInt)]
    project_id: i64,
    #[diesel(sql_type = Text)]
    project_title: String,
    #[diesel(sql_type = BigInt)]
    user_id: i64,
    #[diesel(sql_type = Text)]
    email: String,
    #[diesel(sql_type = Nullable<Text>)]
    name: Option<String>,
    #[diesel(sql_type = Bool)]
    asked_anonymous: bool,
    #[diesel(sql_type = BigInt)]
    amount: i64,
    #[diesel(sql_type = Nullable<Text>)]
    reason: Option<String>,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    hidden_at: Option<DateTime<Utc>>,
}

impl TryFrom<SupporterRow> for ModeratedSupporter {
    type Error = RepoError;

    fn try_from(row: SupporterRow) -> Result<Self, RepoError> {
        Ok(Self {
            project: stored_id("sponsor_totals.project_id", row.project_id)?,
            project_title: row.project_title,
            user: stored_id("sponsor_totals.user_id", row.user_id)?,
            email: row.email,
            name: row.name,
            asked_anonymous: row.asked_anonymous,
            amount: Yen(row.amount),
            hidden: row.reason.zip(row.hidden_at).map(|(reason, at)| NameHiding { reason, at }),
        })
    }
}

/// A project's supporters as `sponsor_totals` keeps them (a row per supporter who ever had a counting sale).
static SUPPORTERS: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT t.project_id, p.title AS project_title, t.user_id, u.email, \
           coalesce(nullif({sale}, ''), nullif({account}, '')) AS name, t.anonymous AS asked_anonymous, t.amount, \
           h.reason, h.hidden_at \
         FROM sponsor_totals t JOIN projects p ON p.id = t.project_id JOIN users u ON u.id = t.user_id \
           LEFT JOIN supporter_name_hidings h ON h.project_id = t.project_id AND h.user_id = t.user_id \
         WHERE t.project_id = $1",
        sale = trim("t.name"),
        account = trim("u.displayname"),
    )
});

#[async_trait]
impl SupporterNameRepository for PgSupporterNames {
    async fn supporters(&self, project: ProjectId) -> Result<Vec<ModeratedSupporter>, RepoError> {
        let rows: Vec<SupporterRow> = with_conn(&self.pool, move |conn| {
            require_project(conn, project)?;
            sql_query(format!("{} AND t.supports > 0 ORDER BY t.amount DESC, t.user_id LIMIT $2", SUPPORTERS.as_str()))
                .bind::<BigInt, _>(project.get())
                .bind::<BigInt, _>(SUPPORTER_LIST_LIMIT)
                .load(conn)
                .map_err(map_diesel)
        })
        .await?;
        rows.into_iter().map(ModeratedSupporter::try_from).collect()
    }

    async fn supporter(&self, project: ProjectId, user: UserId) -> Result<ModeratedSupporter, RepoError> {
        let row: Option<SupporterRow> = with_conn(&self.pool, move |conn| {
            sql_query(format!("{} AND t.user_id = $2", SUPPORTERS.as_str()))
                .bind::<BigInt, _>(project.get())
                .bind::<BigInt, _>(user.get())
                .get_result(conn)
                .optional()
                .map_err(map_diesel)
        })
        .await?;
        row.ok_or(RepoError::NotFound)?.try_into()
    }

    async fn set_name_hidden(
        &self,
        project: ProjectId,
        user: UserId,
        reason: Option<String>,
        by: UserId,
    ) -> Result<(), RepoError> {
        with_conn(&self.pool, move |conn| {
            match reason {
                Some(reason) => sql_query(
                    "INSERT INTO supporter_name_hidings (project_id, user_id, reason, hidden_by) \
                     VALUES ($1, $2, $3, $4) \
                     ON CONFLICT (project_id, user_id) DO UPDATE \
                       SET reason = EXCLUDED.reason, hidden_by = EXCLUDED.hidden_by, hidden_at = now()",
                )
                .bind::<BigInt, _>(project.get())
                .bind::<BigInt, _>(user.get())
                .bind::<Text, _>(reason)
                .bind::<BigInt, _>(by.get())
                .execute(conn),
                None => sql_query("DELETE FROM supporter_name_hidings WHERE project_id = $1 AND user_id = $2")
                    .bind::<BigInt, _>(project.get())
                    .bind::<BigInt, _>(user.get())
                    .execute(conn),
            }
            .map(|_| ())
            .map_err(map_diesel)
        })
        .await
    }
}
