//! The admin audit log on `admin_actions`: rows are only ever added.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Nullable, Text, Timestamptz};
use domain::ids::{ProjectId, SaleId, UserId};
use ports::admin::audit::{AdminActionEntry, AuditLog, NewAdminAction};
use ports::RepoError;

use crate::error::{map_diesel, with_conn};
use crate::rows::IdRow;
use crate::PgPool;

/// The most entries one read returns.
const MAX_RECENT: u32 = 200;

#[derive(Clone)]
pub struct PgAuditLog {
    pool: PgPool,
}

impl PgAuditLog {
    pub fn new(pool: PgPool) -> Self {
        Self { pool }
    }
}

#[derive(QueryableByName)]
struct EntryRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = BigInt)]
    actor_user_id: i64,
    #[diesel(sql_type = Text)]
    actor_email: String,
    #[diesel(sql_type = Text)]
    action: String,
    #[diesel(sql_type = Nullable<BigInt>)]
    sale_id: Option<i64>,
    #[diesel(sql_type = Nullable<BigInt>)]
    mail_id: Option<i64>,
    #[diesel(sql_type = Nullable<BigInt>)]
    project_id: Option<i64>,
    #[diesel(sql_type = Nullable<Text>)]
    target_email: Option<String>,
    /// The JSONB detail as text (parsed here, so diesel needs no JSON feature).
    #[diesel(sql_type = Text)]
    detail: String,
    #[diesel(sql_type = Timestamptz)]
    created_at: DateTime<Utc>,
}

#[async_trait]
impl AuditLog for PgAuditLog {
    async fn record(&self, action: NewAdminAction) -> Result<i64, RepoError> {
        with_conn(&self.pool, move |conn| {
            diesel::sql_query(
                "INSERT INTO admin_actions (actor_user_id, action, sale_id, mail_id, project_id, target_email, detail) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb) RETURNING id",
            )
            .bind::<BigInt, _>(action.actor.0)
            .bind::<Text, _>(action.kind.code())
            .bind::<Nullable<BigInt>, _>(action.sale_id.map(|id| id.0))
            .bind::<Nullable<BigInt>, _>(action.mail_id)
            .bind::<Nullable<BigInt>, _>(action.project_id.map(|id| id.0))
            .bind::<Nullable<Text>, _>(action.target_email)
            .bind::<Text, _>(action.detail.to_string())
            .get_result::<IdRow>(conn)
            .map(|row| row.id)
            .map_err(map_diesel)
        })
        .await
    }

    async fn recent(&self, limit: u32) -> Result<Vec<AdminActionEntry>, RepoError> {
        let limit = i64::from(limit.min(MAX_RECENT));
        let rows: Vec<EntryRow> = with_conn(&self.pool, move |conn| {
            diesel::sql_query(
                "SELECT a.id, a.actor_user_id, u.email AS actor_email, a.action, a.sale_id, a.mail_id, a.project_id, \
                        a.target_email, a.detail::text AS detail, a.created_at \
                   FROM admin_actions a JOIN users u ON u.id = a.actor_user_id \
                  ORDER BY a.created_at DESC, a.id DESC LIMIT $1",
            )
            .bind::<BigInt, _>(limit)
            .load(conn)
            .map_err(map_diesel)
        })
        .await?;
        rows.into_iter()
            .map(|row| {
                Ok(AdminActionEntry {
                    id: row.id,
                    actor: UserId(row.actor_user_id),
                    actor_email: row.actor_email,
                    action: row.action,
                    sale_id: row.sale_id.map(SaleId),
                    mail_id: row.mail_id,
                    project_id: row.project_id.map(ProjectId),
                    target_email: row.target_email,
                    detail: serde_json::from_str(&row.detail).map_err(|e| RepoError::Unexpected(e.into()))?,
                    created_at: row.created_at,
                })
            })
            .collect()
    }
}
