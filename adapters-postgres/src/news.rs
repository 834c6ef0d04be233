//! The operators' news on `project_news`, and its mail: a `project_news`
//! mass mail (`sent_mails`, `mail_recipients`, a `send_mass_mail` job)
//! queued once per item under the item's row lock.

use std::sync::LazyLock;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt, Bool, Integer, Nullable, Text, Timestamptz};
use diesel::{sql_query, QueryableByName};
use domain::ids::{ProjectId, ReturnId, UserId};
use domain::news::{NewsAudience, NewsTerms};
use ports::admin::mass_mail::CreatedMail;
use ports::admin::news::{AuthoredNews, NewsMail, NewsProject, ProjectNewsRepository};
use ports::RepoError;

use crate::error::{map_diesel, with_conn};
use crate::mass_mail::in_transaction;
use crate::rows::IdRow;
use crate::sql_rules::{corrupt, counts_toward_totals, require_project};
use crate::PgPool;

#[derive(Clone)]
pub struct PgProjectNews {
    pool: PgPool,
}

impl PgProjectNews {
    pub fn new(pool: PgPool) -> Self {
        Self { pool }
    }
}

/// Who may read item `$1` in full and has not opted out: accounts with a sale of its project that counts toward
/// its totals (of one of its returns, when it names some), and, for a public item, members who keep the project
/// and asked for mail about kept projects. One row per account, so a supporter who also keeps it gets one mail.
pub(crate) static READERS_SQL: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT u.id, u.email FROM users u, project_news n \
         WHERE n.id = $1 \
           AND NOT EXISTS (SELECT 1 FROM mail_opt_outs o WHERE o.user_id = u.id) \
           AND (EXISTS (SELECT 1 FROM sales s WHERE s.user_id = u.id AND s.project_id = n.project_id \
                 AND (cardinality(n.return_ids) = 0 OR s.return_id = ANY (n.return_ids)) AND {}) \
             OR (n.audience = 'public' \
                 AND EXISTS (SELECT 1 FROM favourites f WHERE f.user_id = u.id AND f.project_id = n.project_id) \
                 AND EXISTS (SELECT 1 FROM favourite_mail_opt_ins i WHERE i.user_id = u.id)))",
        counts_toward_totals("s")
    )
});

const NEWS_COLUMNS: &str = "id, project_id, title, description, published_at, audience, return_ids, mail_supporters, \
     mail_id, mail_queued_at, updated_at, updated_by";

#[derive(QueryableByName)]
struct NewsRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = BigInt)]
    project_id: i64,
    #[diesel(sql_type = Text)]
    title: String,
    #[diesel(sql_type = Text)]
    description: String,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    published_at: Option<DateTime<Utc>>,
    #[diesel(sql_type = Text)]
    audience: String,
    #[diesel(sql_type = Array<BigInt>)]
    return_ids: Vec<i64>,
    #[diesel(sql_type = Bool)]
    mail_supporters: bool,
    #[diesel(sql_type = Nullable<BigInt>)]
    mail_id: Option<i64>,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    mail_queued_at: Option<DateTime<Utc>>,
    #[diesel(sql_type = Timestamptz)]
    updated_at: DateTime<Utc>,
    #[diesel(sql_type = Nullable<BigInt>)]
    updated_by: Option<i64>,
}

impl TryFrom<NewsRow> for AuthoredNews {
    type Error = RepoError;

    fn try_from(row: NewsRow) -> Result<Self, RepoError> {
        let returns = row.return_ids.into_iter().map(ReturnId).collect();
        let audience = NewsAudience::from_parts(&row.audience, returns)
            .ok_or_else(|| corrupt("project_news.audience", &row.audience))?;
        Ok(Self {
            id: row.id,
            project_id: ProjectId(row.project_id),
            terms: NewsTerms {
                title: row.title,
                body: row.description,
                audience,
                mail_supporters: row.mail_supporters,
            },
            published_at: row.published_at,
            mail_id: row.mail_id,
            mail_queued_at: row.mail_queued_at,
            updated_at: row.updated_at,
            updated_by: row.updated_by.map(UserId),
        })
    }
}

#[derive(QueryableByName)]
struct ProjectRow {
    #[diesel(sql_type = Text)]
    title: String,
    #[diesel(sql_type = Text)]
    slug: String,
    #[diesel(sql_type = Array<BigInt>)]
    returns: Vec<i64>,
}

#[derive(QueryableByName)]
struct DueRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = BigInt)]
    project_id: i64,
}

#[derive(QueryableByName)]
struct LockedRow {
    #[diesel(sql_type = Bool)]
    due: bool,
    #[diesel(sql_type = Nullable<BigInt>)]
    project_id: Option<i64>,
    #[diesel(sql_type = Nullable<BigInt>)]
    updated_by: Option<i64>,
}

#[derive(QueryableByName)]
struct EmailRow {
    #[diesel(sql_type = Text)]
    email: String,
}

fn return_ids(terms: &NewsTerms) -> Vec<i64> {
    terms.audience.returns().iter().map(|r| r.0).collect()
}

fn found(rows: usize) -> Result<(), RepoError> {
    if rows == 0 {
        Err(RepoError::NotFound)
    } else {
        Ok(())
    }
}

#[async_trait]
impl ProjectNewsRepository for PgProjectNews {
    async fn project(&self, project: ProjectId) -> Result<NewsProject, RepoError> {
        with_conn(&self.pool, move |conn| {
            let row = sql_query(
                "SELECT p.title, p.slug, \
                   COALESCE((SELECT array_agg(r.id ORDER BY r.id) FROM returns r WHERE r.project_id = p.id), '{}') \
                     AS returns \
                 FROM projects p WHERE p.id = $1",
            )
            .bind::<BigInt, _>(project.get())
            .get_result::<ProjectRow>(conn)
            .map_err(map_diesel)?;
            Ok(NewsProject {
                title: row.title,
                slug: row.slug,
                returns: row.returns.into_iter().map(ReturnId).collect(),
            })
        })
        .await
    }

    async fn list(&self, project: ProjectId) -> Result<Vec<AuthoredNews>, RepoError> {
        with_conn(&self.pool, move |conn| {
            let rows = sql_query(format!(
                "SELECT {NEWS_COLUMNS} FROM project_news WHERE project_id = $1 ORDER BY created_at DESC, id DESC"
            ))
            .bind::<BigInt, _>(project.get())
            .load::<NewsRow>(conn)
            .map_err(map_diesel)?;
            rows.into_iter().map(AuthoredNews::try_from).collect()
        })
        .await
    }

    async fn get(&self, project: ProjectId, id: i64) -> Result<AuthoredNews, RepoError> {
        with_conn(&self.pool, move |conn| {
            let row = sql_query(format!("SELECT {NEWS_COLUMNS} FROM project_news WHERE project_id = $1 AND id = $2"))
                .bind::<BigInt, _>(project.get())
                .bind::<BigInt, _>(id)
                .get_result::<NewsRow>(conn)
                .map_err(map_diesel)?;
            AuthoredNews::try_from(row)
        })
        .await
    }

    async fn create(
        &self,
        project: ProjectId,
        terms: &NewsTerms,
        published_at: Option<DateTime<Utc>>,
        admin: UserId,
        now: DateTime<Utc>,
    ) -> Result<i64, RepoError> {
        let terms = terms.clone();
        with_conn(&self.pool, move |conn| {
            require_project(conn, project)?;
            let row = sql_query(
                "INSERT INTO project_news (project_id, title, description, published_at, audience, return_ids, \
                   mail_supporters, updated_by, created_at, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) RETURNING id",
            )
            .bind::<BigInt, _>(project.get())
            .bind::<Text, _>(&terms.title)
            .bind::<Text, _>(&terms.body)
            .bind::<Nullable<Timestamptz>, _>(published_at)
            .bind::<Text, _>(terms.audience.code())
            .bind::<Array<BigInt>, _>(return_ids(&terms))
            .bind::<Bool, _>(terms.mail_supporters)
            .bind::<BigInt, _>(admin.get())
            .bind::<Timestamptz, _>(now)
            .get_result::<IdRow>(conn)
            .map_err(map_diesel)?;
            Ok(row.id)
        })
        .await
    }

    async fn update(
        &self,
        project: ProjectId,
        id: i64,
        terms: &NewsTerms,
        published_at: Option<DateTime<Utc>>,
        admin: UserId,
        now: DateTime<Utc>,
    ) -> Result<(), RepoError> {
        let terms = terms.clone();
        with_conn(&self.pool, move |conn| {
            let rows = sql_query(
                "UPDATE project_news SET title = $3, description = $4, published_at = $5, audience = $6, \
                   return_ids = $7, mail_supporters = $8, updated_by = $9, updated_at = $10 \
                 WHERE project_id = $1 AND id = $2",
            )
            .bind::<BigInt, _>(project.get())
            .bind::<BigInt, _>(id)
            .bind::<Text, _>(&terms.title)
            .bind::<Text, _>(&terms.body)
            .bind::<Nullable<Timestamptz>, _>(published_at)
            .bind::<Text, _>(terms.audience.code())
            .bind::<Array<BigInt>, _>(return_ids(&terms))
            .bind::<Bool, _>(terms.mail_supporters)
            .bind::<BigInt, _>(admin.get())
            .bind::<Timestamptz, _>(now)
            .execute(conn)
            .map_err(map_diesel)?;
            found(rows)
        })
        .await
    }

    async fn delete(&self, project: ProjectId, id: i64) -> Result<(), RepoError> {
        with_conn(&self.pool, move |conn| {
            let rows = sql_query("DELETE FROM project_news WHERE project_id = $1 AND id = $2")
                .bind::<BigInt, _>(project.get())
                .bind::<BigInt, _>(id)
                .execute(conn)
                .map_err(map_diesel)?;
            found(rows)
        })
        .await
    }

    async fn mails_due(&self, now: DateTime<Utc>, limit: u32) -> Result<Vec<(ProjectId, i64)>, RepoError> {
        with_conn(&self.pool, move |conn| {
            let rows = sql_query(
                "SELECT id, project_id FROM project_news \
                 WHERE mail_supporters AND mail_id IS NULL AND published_at <= $1 AND updated_by IS NOT NULL \
                 ORDER BY published_at, id LIMIT $2",
            )
            .bind::<Timestamptz, _>(now)
            .bind::<BigInt, _>(i64::from(limit))
            .load::<DueRow>(conn)
            .map_err(map_diesel)?;
            Ok(rows.into_iter().map(|r| (ProjectId(r.project_id), r.id)).collect())
        })
        .await
    }

    async fn queue_mail(
        &self,
        id: i64,
        mail: &NewsMail,
        job_kind: &str,
        max_attempts: u32,
        now: DateTime<Utc>,
    ) -> Result<Option<CreatedMail>, RepoError> {
        let mail = mail.clone();
        let job_kind = job_kind.to_string();
        let max_attempts = i32::try_from(max_attempts).unwrap_or(i32::MAX);
        with_conn(&self.pool, move |conn| {
            in_transaction(conn, |conn| {
                // The row lock makes a second publish or sweep wait, then find the mail queued.
                let locked = sql_query(
                    "SELECT (mail_supporters AND mail_id IS NULL AND published_at <= $2 AND updated_by IS NOT NULL) \
                       AS due, project_id, updated_by \
                     FROM project_news WHERE id = $1 FOR UPDATE",
                )
                .bind::<BigInt, _>(id)
                .bind::<Timestamptz, _>(now)
                .get_result::<LockedRow>(conn)
                .optional()
                .map_err(map_diesel)?;
                let Some(LockedRow { due: true, project_id: Some(project), updated_by: Some(sender) }) = locked else {
                    return Ok(None);
                };
                let mail_id = sql_query(
                    "INSERT INTO sent_mails (title, content, project_id, sender_user_id, segment, created_at) \
                     VALUES ($1, $2, $3, $4, 'project_news', $5) RETURNING id",
                )
                .bind::<Text, _>(&mail.subject)
                .bind::<Text, _>(&mail.content)
                .bind::<BigInt, _>(project)
                .bind::<BigInt, _>(sender)
                .bind::<Timestamptz, _>(now)
                .get_result::<IdRow>(conn)
                .map_err(map_diesel)?
                .id;
                let emails = sql_query(format!(
                    "INSERT INTO mail_recipients (mail_id, user_id, email) \
                     SELECT $2, r.id, r.email FROM ({}) r ORDER BY r.id RETURNING email",
                    READERS_SQL.as_str()
                ))
                .bind::<BigInt, _>(id)
                .bind::<BigInt, _>(mail_id)
                .load::<EmailRow>(conn)
                .map_err(map_diesel)?;
                let job = sql_query(
                    "INSERT INTO background_jobs (kind, payload, max_attempts) \
                     VALUES ($1, jsonb_build_object('mail_id', $2::bigint), $3) RETURNING id",
                )
                .bind::<Text, _>(&job_kind)
                .bind::<BigInt, _>(mail_id)
                .bind::<Integer, _>(max_attempts)
                .get_result::<IdRow>(conn)
                .map_err(map_diesel)?
                .id;
                sql_query("UPDATE sent_mails SET job_id = $2, recipients_total = $3 WHERE id = $1")
                    .bind::<BigInt, _>(mail_id)
                    .bind::<BigInt, _>(job)
                    .bind::<Integer, _>(i32::try_from(emails.len()).unwrap_or(i32::MAX))
                    .execute(conn)
                    .map_err(map_diesel)?;
                sql_query("UPDATE project_news SET mail_id = $2, mail_queued_at = $3 WHERE id = $1")
                    .bind::<BigInt, _>(id)
                    .bind::<BigInt, _>(mail_id)
                    .bind::<Timestamptz, _>(now)
                    .execute(conn)
                    .map_err(map_diesel)?;
                Ok(Some(CreatedMail { id: mail_id, emails: emails.into_iter().map(|row| row.email).collect() }))
            })
        })
        .await
    }
}
