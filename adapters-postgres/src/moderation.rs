//! Comment moderation on `comments` (flag 0 with `hidden_reason` is hidden by an operator).

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use diesel::sql_types::{BigInt, Bool, Nullable, Text, Timestamptz};
use diesel::{sql_query, OptionalExtension, QueryableByName, RunQueryDsl};
use domain::ids::ProjectId;
use domain::sponsor::ANONYMOUS_NAME;
use ports::admin::moderation::{CommentModerationRepository, ModeratedComment};
use ports::RepoError;

use crate::error::{map_diesel, with_conn};
use crate::sql_rules::{name_hidden_by_operator, require_project, stored_id, trim};
use crate::PgPool;

#[derive(Clone)]
pub struct PgCommentModeration {
    pool: PgPool,
}

impl PgCommentModeration {
    pub fn new(pool: PgPool) -> Self {
        Self { pool }
    }
}

#[derive(QueryableByName)]
struct CommentRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = BigInt)]
    project_id: i64,
    #[diesel(sql_type = Text)]
    project_title: String,
    #[diesel(sql_type = Nullable<Text>)]
    name: Option<String>,
    #[diesel(sql_type = Bool)]
    anonymous: bool,
    #[diesel(sql_type = Text)]
    email: String,
    #[diesel(sql_type = Text)]
    comment: String,
    #[diesel(sql_type = Bool)]
    shown: bool,
    #[diesel(sql_type = Nullable<Text>)]
    hidden_reason: Option<String>,
    #[diesel(sql_type = Timestamptz)]
    created_at: DateTime<Utc>,
    #[diesel(sql_type = Timestamptz)]
    updated_at: DateTime<Utc>,
}

/// The public page's name for a comment's author: the sale's display name, else the account's; `匿名` for a
/// supporter who asked for it on any support of the project or whose name an operator hid (as `catalog::COMMENTS`
/// reads it).
fn select() -> String {
    format!(
        "SELECT c.id, c.project_id, p.title AS project_title, \
           coalesce(nullif({sale}, ''), nullif({account}, '')) AS name, \
           EXISTS (SELECT 1 FROM display_names a WHERE a.project_id = c.project_id AND a.user_id = c.user_id \
                   AND a.flag = 0) OR {hidden} AS anonymous, \
           u.email, c.comment, c.flag = 1 AS shown, c.hidden_reason, c.created_at, c.updated_at \
         FROM comments c JOIN projects p ON p.id = c.project_id JOIN users u ON u.id = c.user_id \
           LEFT JOIN display_names d ON d.sales_id = c.sales_id",
        sale = trim("d.displayname"),
        account = trim("u.displayname"),
        hidden = name_hidden_by_operator("c.project_id", "c.user_id"),
    )
}

impl TryFrom<CommentRow> for ModeratedComment {
    type Error = RepoError;

    fn try_from(row: CommentRow) -> Result<Self, RepoError> {
        Ok(Self {
            id: row.id,
            project: stored_id("comments.project_id", row.project_id)?,
            project_title: row.project_title,
            author: if row.anonymous { None } else { row.name }.unwrap_or_else(|| ANONYMOUS_NAME.to_string()),
            author_email: row.email,
            comment: row.comment,
            shown: row.shown,
            hidden_reason: row.hidden_reason,
            created_at: row.created_at,
            updated_at: row.updated_at,
        })
    }
}

#[async_trait]
impl CommentModerationRepository for PgCommentModeration {
    async fn comments(&self, project: ProjectId) -> Result<Vec<ModeratedComment>, RepoError> {
        let rows: Vec<CommentRow> = with_conn(&self.pool, move |conn| {
            require_project(conn, project)?;
            sql_query(format!("{} WHERE c.project_id = $1 ORDER BY c.created_at DESC, c.id DESC", select()))
                .bind::<BigInt, _>(project.get())
                .load(conn)
                .map_err(map_diesel)
        })
        .await?;
        rows.into_iter().map(ModeratedComment::try_from).collect()
    }

    async fn comment(&self, id: i64) -> Result<ModeratedComment, RepoError> {
        let row: Option<CommentRow> = with_conn(&self.pool, move |conn| {
            sql_query(format!("{} WHERE c.id = $1", select()))
                .bind::<BigInt, _>(id)
                .get_result(conn)
                .optional()
                .map_err(map_diesel)
        })
        .await?;
        row.ok_or(RepoError::NotFound)?.try_into()
    }

    async fn set_hidden(&self, id: i64, reason: Option<String>) -> Result<(), RepoError> {
        with_conn(&self.pool, move |conn| {
            // `updated_at` is the author's last edit, which the public page dates the comment by: left alone.
            let changed = sql_query(
                "UPDATE comments SET flag = CASE WHEN $2::text IS NULL THEN 1 ELSE 0 END, hidden_reason = $2 \
                 WHERE id = $1",
            )
            .bind::<BigInt, _>(id)
            .bind::<Nullable<Text>, _>(reason)
            .execute(conn)
            .map_err(map_diesel)?;
            if changed == 0 {
                Err(RepoError::NotFound)
            } else {
                Ok(())
            }
        })
        .await
    }
}
