//! Kept projects (お気に入り, `favourites`): one row per member and project.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use diesel::result::Error as DieselError;
use diesel::sql_types::{BigInt, Timestamptz};
use diesel::{sql_query, Connection, QueryableByName, RunQueryDsl};
use domain::ids::{ProjectId, UserId};
use ports::following::{FavouriteRepository, KeepOutcome, KeptProject};
use ports::RepoError;

use crate::error::{map_diesel, with_conn};
use crate::rows::CountRow;
use crate::sql_rules::stored_id;
use crate::PgPool;

#[derive(Clone)]
pub struct PgFavourites {
    pool: PgPool,
}

impl PgFavourites {
    pub fn new(pool: PgPool) -> Self {
        Self { pool }
    }
}

#[derive(QueryableByName)]
struct KeptRow {
    #[diesel(sql_type = BigInt)]
    project_id: i64,
    #[diesel(sql_type = Timestamptz)]
    created_at: DateTime<Utc>,
}

#[async_trait]
impl FavouriteRepository for PgFavourites {
    async fn keep(
        &self,
        user: UserId,
        project: ProjectId,
        now: DateTime<Utc>,
        limit: i64,
    ) -> Result<KeepOutcome, RepoError> {
        with_conn(&self.pool, move |conn| {
            conn.transaction::<KeepOutcome, DieselError, _>(|conn| {
                // The member's row serialises their keeps, so the count below (a new statement, a new snapshot
                // under READ COMMITTED) sees every keep that went before: never more than `limit` rows.
                let member = sql_query("SELECT count(*) AS n FROM (SELECT id FROM users WHERE id = $1 FOR UPDATE) u")
                    .bind::<BigInt, _>(user.get())
                    .get_result::<CountRow>(conn)?;
                let exists = sql_query("SELECT count(*) AS n FROM projects WHERE id = $1")
                    .bind::<BigInt, _>(project.get())
                    .get_result::<CountRow>(conn)?;
                if member.n == 0 || exists.n == 0 {
                    return Err(DieselError::NotFound);
                }
                let already = sql_query("SELECT count(*) AS n FROM favourites WHERE user_id = $1 AND project_id = $2")
                    .bind::<BigInt, _>(user.get())
                    .bind::<BigInt, _>(project.get())
                    .get_result::<CountRow>(conn)?;
                if already.n > 0 {
                    return Ok(KeepOutcome::AlreadyKept);
                }
                let kept = sql_query("SELECT count(*) AS n FROM favourites WHERE user_id = $1")
                    .bind::<BigInt, _>(user.get())
                    .get_result::<CountRow>(conn)?;
                if kept.n >= limit {
                    return Ok(KeepOutcome::Full);
                }
                sql_query("INSERT INTO favourites (user_id, project_id, created_at) VALUES ($1, $2, $3)")
                    .bind::<BigInt, _>(user.get())
                    .bind::<BigInt, _>(project.get())
                    .bind::<Timestamptz, _>(now)
                    .execute(conn)?;
                Ok(KeepOutcome::Kept)
            })
            .map_err(map_diesel)
        })
        .await
    }

    async fn remove(&self, user: UserId, project: ProjectId) -> Result<(), RepoError> {
        with_conn(&self.pool, move |conn| {
            sql_query("DELETE FROM favourites WHERE user_id = $1 AND project_id = $2")
                .bind::<BigInt, _>(user.get())
                .bind::<BigInt, _>(project.get())
                .execute(conn)
                .map_err(map_diesel)?;
            Ok(())
        })
        .await
    }

    async fn kept(&self, user: UserId, limit: i64) -> Result<Vec<KeptProject>, RepoError> {
        let rows: Vec<KeptRow> = with_conn(&self.pool, move |conn| {
            sql_query(
                "SELECT project_id, created_at FROM favourites WHERE user_id = $1 \
                 ORDER BY created_at DESC, project_id DESC LIMIT $2",
            )
            .bind::<BigInt, _>(user.get())
            .bind::<BigInt, _>(limit.max(0))
            .load(conn)
            .map_err(map_diesel)
        })
        .await?;
        rows.into_iter()
            .map(|row| {
                Ok(KeptProject {
                    project: stored_id("favourites.project_id", row.project_id)?,
                    kept_at: row.created_at,
                })
            })
            .collect()
    }
}
