//! Mass mail on `sent_mails`, `mail_recipients` and `mail_opt_outs`. The
//! counters on `sent_mails` change in the same statement as the recipient
//! row they count, so the progress bar never disagrees with the rows.

use std::sync::LazyLock;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Bool, Integer, Nullable, Text, Timestamptz};
use domain::ids::{ProjectId, UserId};
use domain::mail::MailSegment;
use ports::admin::mass_mail::{
    CreatedMail, MailDetail, MailPage, MailStatus, MailSummary, MailToSend, MassMailRepository, NewMassMail,
    PendingRecipient, Progress, RecipientLine, RecipientStatus, UNKNOWN_OUTCOME,
};
use ports::RepoError;

use crate::error::{map_diesel, with_conn};
use crate::rows::{CountRow, IdRow};
use crate::sql_rules::counts_toward_totals;
use crate::PgPool;

#[derive(Clone)]
pub struct PgMassMails {
    pool: PgPool,
}

impl PgMassMails {
    pub fn new(pool: PgPool) -> Self {
        Self { pool }
    }
}

/// Who a segment reaches: members who did not opt out, or the project's supporters (a sale that counts toward
/// its totals: paid, and not refunded in full).
static RECIPIENTS_SQL: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT u.id, u.email FROM users u \
         WHERE ($1::bigint IS NULL AND u.status = 'member' \
                 AND NOT EXISTS (SELECT 1 FROM mail_opt_outs o WHERE o.user_id = u.id)) \
            OR ($1::bigint IS NOT NULL AND EXISTS (SELECT 1 FROM sales s WHERE s.user_id = u.id \
                 AND s.project_id = $1 AND {}))",
        counts_toward_totals("s")
    )
});

fn segment_project(segment: MailSegment) -> Option<i64> {
    match segment {
        MailSegment::AllMembers => None,
        MailSegment::ProjectSupporters(project) | MailSegment::ProjectNews(project) => Some(project.get()),
    }
}

#[derive(QueryableByName)]
struct EmailRow {
    #[diesel(sql_type = Text)]
    email: String,
}

#[derive(QueryableByName)]
struct PendingRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = BigInt)]
    user_id: i64,
    #[diesel(sql_type = Text)]
    email: String,
    #[diesel(sql_type = Integer)]
    attempts: i32,
}

#[derive(QueryableByName)]
struct ToSendRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = Text)]
    title: String,
    #[diesel(sql_type = Text)]
    content: String,
    #[diesel(sql_type = Text)]
    segment: String,
    #[diesel(sql_type = Nullable<BigInt>)]
    project_id: Option<i64>,
    #[diesel(sql_type = Text)]
    status: String,
}

#[derive(QueryableByName)]
struct SummaryRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = Text)]
    title: String,
    #[diesel(sql_type = Text)]
    content: String,
    #[diesel(sql_type = Nullable<BigInt>)]
    project_id: Option<i64>,
    #[diesel(sql_type = Nullable<Text>)]
    project_title: Option<String>,
    #[diesel(sql_type = Text)]
    sender_email: String,
    #[diesel(sql_type = Nullable<Text>)]
    sender_name: Option<String>,
    #[diesel(sql_type = Text)]
    status: String,
    #[diesel(sql_type = Nullable<Integer>)]
    recipients_total: Option<i32>,
    #[diesel(sql_type = Integer)]
    sent_count: i32,
    #[diesel(sql_type = Integer)]
    failed_count: i32,
    #[diesel(sql_type = Timestamptz)]
    created_at: DateTime<Utc>,
}

#[derive(QueryableByName)]
struct RecipientRow {
    #[diesel(sql_type = Text)]
    email: String,
    #[diesel(sql_type = Integer)]
    attempts: i32,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    sent_at: Option<DateTime<Utc>>,
    #[diesel(sql_type = Nullable<Text>)]
    error: Option<String>,
    #[diesel(sql_type = Bool)]
    given_up: bool,
}

#[derive(QueryableByName)]
struct UserRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = Nullable<Text>)]
    username: Option<String>,
    #[diesel(sql_type = Text)]
    email: String,
}

/// A transaction's failure: diesel's own (begin/commit) or the work's.
enum TxError {
    Db(diesel::result::Error),
    Repo(RepoError),
}

impl From<diesel::result::Error> for TxError {
    fn from(e: diesel::result::Error) -> Self {
        Self::Db(e)
    }
}

pub(crate) fn in_transaction<T>(
    conn: &mut PgConnection,
    work: impl FnOnce(&mut PgConnection) -> Result<T, RepoError>,
) -> Result<T, RepoError> {
    conn.transaction::<T, TxError, _>(|conn| work(conn).map_err(TxError::Repo)).map_err(|e| match e {
        TxError::Db(e) => map_diesel(e),
        TxError::Repo(e) => e,
    })
}

fn unexpected(what: String) -> RepoError {
    RepoError::Unexpected(anyhow::anyhow!(what))
}

fn status(code: &str) -> Result<MailStatus, RepoError> {
    MailStatus::from_code(code).ok_or_else(|| unexpected(format!("sent_mails.status {code:?}")))
}

fn count(value: i32) -> u32 {
    u32::try_from(value).unwrap_or(0)
}

const SUMMARY_SQL: &str = "SELECT m.id, m.title, m.content, m.project_id, p.title AS project_title, \
        u.email AS sender_email, u.username AS sender_name, m.status, m.recipients_total, m.sent_count, \
        m.failed_count, m.created_at \
     FROM sent_mails m JOIN users u ON u.id = m.sender_user_id LEFT JOIN projects p ON p.id = m.project_id";

impl SummaryRow {
    fn into_summary(self) -> Result<MailSummary, RepoError> {
        Ok(MailSummary {
            id: self.id,
            title: self.title,
            content: self.content,
            project_id: self.project_id.map(ProjectId),
            project_title: self.project_title,
            sender_email: self.sender_email,
            sender_name: self.sender_name,
            progress: Progress {
                status: status(&self.status)?,
                total: count(self.recipients_total.unwrap_or(0)),
                sent: count(self.sent_count),
                failed: count(self.failed_count),
            },
            created_at: self.created_at,
        })
    }
}

fn project_exists(conn: &mut PgConnection, project: Option<i64>) -> Result<(), RepoError> {
    if let Some(project) = project {
        let found = diesel::sql_query("SELECT count(*) AS n FROM projects WHERE id = $1")
            .bind::<BigInt, _>(project)
            .get_result::<CountRow>(conn)
            .map_err(map_diesel)?;
        if found.n == 0 {
            return Err(RepoError::NotFound);
        }
    }
    Ok(())
}

#[async_trait]
impl MassMailRepository for PgMassMails {
    async fn count_recipients(&self, segment: MailSegment) -> Result<u32, RepoError> {
        let project = segment_project(segment);
        with_conn(&self.pool, move |conn| {
            project_exists(conn, project)?;
            let row = diesel::sql_query(format!("SELECT count(*) AS n FROM ({}) r", RECIPIENTS_SQL.as_str()))
                .bind::<Nullable<BigInt>, _>(project)
                .get_result::<CountRow>(conn)
                .map_err(map_diesel)?;
            Ok(u32::try_from(row.n).unwrap_or(u32::MAX))
        })
        .await
    }

    async fn create(&self, mail: NewMassMail, job_kind: &str, max_attempts: u32) -> Result<CreatedMail, RepoError> {
        let job_kind = job_kind.to_string();
        let max_attempts = i32::try_from(max_attempts).unwrap_or(i32::MAX);
        with_conn(&self.pool, move |conn| {
            in_transaction(conn, |conn| {
                let project = segment_project(mail.segment);
                project_exists(conn, project)?;
                let id = diesel::sql_query(
                    "INSERT INTO sent_mails (title, content, project_id, sender_user_id, segment) \
                     VALUES ($1, $2, $3, $4, $5) RETURNING id",
                )
                .bind::<Text, _>(&mail.title)
                .bind::<Text, _>(&mail.content)
                .bind::<Nullable<BigInt>, _>(mail.project_id.map(ProjectId::get))
                .bind::<BigInt, _>(mail.sender.get())
                .bind::<Text, _>(mail.segment.code())
                .get_result::<IdRow>(conn)
                .map_err(map_diesel)?
                .id;
                let emails = diesel::sql_query(format!(
                    "INSERT INTO mail_recipients (mail_id, user_id, email) \
                     SELECT $2, r.id, r.email FROM ({}) r ORDER BY r.id RETURNING email",
                    RECIPIENTS_SQL.as_str()
                ))
                .bind::<Nullable<BigInt>, _>(project)
                .bind::<BigInt, _>(id)
                .load::<EmailRow>(conn)
                .map_err(map_diesel)?;
                let job = diesel::sql_query(
                    "INSERT INTO background_jobs (kind, payload, max_attempts) \
                     VALUES ($1, jsonb_build_object('mail_id', $2::bigint), $3) RETURNING id",
                )
                .bind::<Text, _>(&job_kind)
                .bind::<BigInt, _>(id)
                .bind::<Integer, _>(max_attempts)
                .get_result::<IdRow>(conn)
                .map_err(map_diesel)?
                .id;
                diesel::sql_query("UPDATE sent_mails SET job_id = $2, recipients_total = $3 WHERE id = $1")
                    .bind::<BigInt, _>(id)
                    .bind::<BigInt, _>(job)
                    .bind::<Integer, _>(i32::try_from(emails.len()).unwrap_or(i32::MAX))
                    .execute(conn)
                    .map_err(map_diesel)?;
                Ok(CreatedMail { id, emails: emails.into_iter().map(|row| row.email).collect() })
            })
        })
        .await
    }

    async fn mail_to_send(&self, mail_id: i64) -> Result<Option<MailToSend>, RepoError> {
        let row = with_conn(&self.pool, move |conn| {
            diesel::sql_query("SELECT id, title, content, segment, project_id, status FROM sent_mails WHERE id = $1")
                .bind::<BigInt, _>(mail_id)
                .get_result::<ToSendRow>(conn)
                .optional()
                .map_err(map_diesel)
        })
        .await?;
        row.map(|row| {
            let segment = match (row.segment.as_str(), row.project_id) {
                ("project_supporters", Some(project)) => MailSegment::ProjectSupporters(ProjectId(project)),
                ("project_news", Some(project)) => MailSegment::ProjectNews(ProjectId(project)),
                _ => MailSegment::AllMembers,
            };
            Ok(MailToSend { id: row.id, title: row.title, content: row.content, segment, status: status(&row.status)? })
        })
        .transpose()
    }

    async fn resume(&self, mail_id: i64) -> Result<u32, RepoError> {
        with_conn(&self.pool, move |conn| {
            in_transaction(conn, |conn| {
                diesel::sql_query("UPDATE sent_mails SET status = 'sending' WHERE id = $1 AND status = 'queued'")
                    .bind::<BigInt, _>(mail_id)
                    .execute(conn)
                    .map_err(map_diesel)?;
                // A try that was started (attempts counted, error cleared) and never recorded.
                let doubtful = diesel::sql_query(
                    "UPDATE mail_recipients SET given_up = true, error = $2 \
                     WHERE mail_id = $1 AND sent_at IS NULL AND NOT given_up AND attempts > 0 AND error IS NULL",
                )
                .bind::<BigInt, _>(mail_id)
                .bind::<Text, _>(UNKNOWN_OUTCOME)
                .execute(conn)
                .map_err(map_diesel)?;
                if doubtful > 0 {
                    diesel::sql_query("UPDATE sent_mails SET failed_count = failed_count + $2 WHERE id = $1")
                        .bind::<BigInt, _>(mail_id)
                        .bind::<Integer, _>(i32::try_from(doubtful).unwrap_or(i32::MAX))
                        .execute(conn)
                        .map_err(map_diesel)?;
                }
                Ok(u32::try_from(doubtful).unwrap_or(u32::MAX))
            })
        })
        .await
    }

    async fn pending(&self, mail_id: i64, limit: u32) -> Result<Vec<PendingRecipient>, RepoError> {
        let rows = with_conn(&self.pool, move |conn| {
            diesel::sql_query(
                "SELECT id, user_id, email, attempts FROM mail_recipients \
                 WHERE mail_id = $1 AND sent_at IS NULL AND NOT given_up AND (attempts = 0 OR error IS NOT NULL) \
                 ORDER BY id LIMIT $2",
            )
            .bind::<BigInt, _>(mail_id)
            .bind::<BigInt, _>(i64::from(limit))
            .load::<PendingRow>(conn)
            .map_err(map_diesel)
        })
        .await?;
        Ok(rows
            .into_iter()
            .map(|row| PendingRecipient {
                id: row.id,
                user_id: UserId(row.user_id),
                email: row.email,
                attempts: count(row.attempts),
            })
            .collect())
    }

    async fn start_try(&self, recipient_id: i64, attempts: u32) -> Result<bool, RepoError> {
        let attempts = i32::try_from(attempts).unwrap_or(i32::MAX);
        with_conn(&self.pool, move |conn| {
            let updated = diesel::sql_query(
                "UPDATE mail_recipients SET attempts = attempts + 1, error = NULL \
                 WHERE id = $1 AND attempts = $2 AND sent_at IS NULL AND NOT given_up \
                   AND (attempts = 0 OR error IS NOT NULL)",
            )
            .bind::<BigInt, _>(recipient_id)
            .bind::<Integer, _>(attempts)
            .execute(conn)
            .map_err(map_diesel)?;
            Ok(updated == 1)
        })
        .await
    }

    async fn mark_sent(&self, recipient_id: i64, now: DateTime<Utc>) -> Result<(), RepoError> {
        with_conn(&self.pool, move |conn| {
            // A row given up as "unknown" by a worker that took over is corrected: the relay did accept it.
            diesel::sql_query(
                "WITH old AS (SELECT id, mail_id, given_up FROM mail_recipients \
                     WHERE id = $1 AND sent_at IS NULL FOR UPDATE), \
                 upd AS (UPDATE mail_recipients r SET sent_at = $2, error = NULL, given_up = false FROM old \
                     WHERE r.id = old.id RETURNING old.mail_id, old.given_up) \
                 UPDATE sent_mails m SET sent_count = sent_count + 1, \
                     failed_count = failed_count - CASE WHEN upd.given_up THEN 1 ELSE 0 END \
                 FROM upd WHERE m.id = upd.mail_id",
            )
            .bind::<BigInt, _>(recipient_id)
            .bind::<Timestamptz, _>(now)
            .execute(conn)
            .map_err(map_diesel)?;
            Ok(())
        })
        .await
    }

    async fn mark_retry(&self, recipient_id: i64, error: &str) -> Result<(), RepoError> {
        let error: String = error.chars().take(1000).collect();
        with_conn(&self.pool, move |conn| {
            diesel::sql_query(
                "UPDATE mail_recipients SET error = $2 WHERE id = $1 AND sent_at IS NULL AND NOT given_up",
            )
            .bind::<BigInt, _>(recipient_id)
            .bind::<Text, _>(error)
            .execute(conn)
            .map_err(map_diesel)?;
            Ok(())
        })
        .await
    }

    async fn give_up(&self, recipient_id: i64, error: &str) -> Result<(), RepoError> {
        let error: String = error.chars().take(1000).collect();
        with_conn(&self.pool, move |conn| {
            diesel::sql_query(
                "WITH upd AS (UPDATE mail_recipients SET given_up = true, error = $2 \
                     WHERE id = $1 AND sent_at IS NULL AND NOT given_up RETURNING mail_id) \
                 UPDATE sent_mails m SET failed_count = failed_count + 1 FROM upd WHERE m.id = upd.mail_id",
            )
            .bind::<BigInt, _>(recipient_id)
            .bind::<Text, _>(error)
            .execute(conn)
            .map_err(map_diesel)?;
            Ok(())
        })
        .await
    }

    async fn finish(&self, mail_id: i64, status: MailStatus, error: &str, now: DateTime<Utc>) -> Result<(), RepoError> {
        let error: String = error.chars().take(1000).collect();
        with_conn(&self.pool, move |conn| {
            in_transaction(conn, |conn| {
                let left = diesel::sql_query(
                    "UPDATE mail_recipients SET given_up = true, error = $2 \
                     WHERE mail_id = $1 AND sent_at IS NULL AND NOT given_up",
                )
                .bind::<BigInt, _>(mail_id)
                .bind::<Text, _>(if error.is_empty() { UNKNOWN_OUTCOME.to_string() } else { error })
                .execute(conn)
                .map_err(map_diesel)?;
                diesel::sql_query(
                    "UPDATE sent_mails SET status = $2, finished_at = $3, failed_count = failed_count + $4 \
                     WHERE id = $1 AND status IN ('queued', 'sending')",
                )
                .bind::<BigInt, _>(mail_id)
                .bind::<Text, _>(status.code())
                .bind::<Timestamptz, _>(now)
                .bind::<Integer, _>(i32::try_from(left).unwrap_or(i32::MAX))
                .execute(conn)
                .map_err(map_diesel)?;
                Ok(())
            })
        })
        .await
    }

    async fn list(&self, page: u32, per_page: u32) -> Result<MailPage, RepoError> {
        let (rows, total) = with_conn(&self.pool, move |conn| {
            let total = diesel::sql_query("SELECT count(*) AS n FROM sent_mails")
                .get_result::<CountRow>(conn)
                .map_err(map_diesel)?
                .n;
            let rows =
                diesel::sql_query(format!("{SUMMARY_SQL} ORDER BY m.created_at DESC, m.id DESC LIMIT $1 OFFSET $2"))
                    .bind::<BigInt, _>(i64::from(per_page))
                    .bind::<BigInt, _>(i64::from(page.saturating_sub(1)) * i64::from(per_page))
                    .load::<SummaryRow>(conn)
                    .map_err(map_diesel)?;
            Ok((rows, total))
        })
        .await?;
        Ok(MailPage {
            mails: rows.into_iter().map(SummaryRow::into_summary).collect::<Result<_, _>>()?,
            total: u64::try_from(total).unwrap_or(0),
        })
    }

    async fn detail(&self, mail_id: i64) -> Result<Option<MailDetail>, RepoError> {
        let found = with_conn(&self.pool, move |conn| {
            let Some(summary) = diesel::sql_query(format!("{SUMMARY_SQL} WHERE m.id = $1"))
                .bind::<BigInt, _>(mail_id)
                .get_result::<SummaryRow>(conn)
                .optional()
                .map_err(map_diesel)?
            else {
                return Ok(None);
            };
            let recipients = diesel::sql_query(
                "SELECT email, attempts, sent_at, error, given_up FROM mail_recipients WHERE mail_id = $1 ORDER BY id",
            )
            .bind::<BigInt, _>(mail_id)
            .load::<RecipientRow>(conn)
            .map_err(map_diesel)?;
            Ok(Some((summary, recipients)))
        })
        .await?;
        let Some((summary, recipients)) = found else {
            return Ok(None);
        };
        Ok(Some(MailDetail {
            summary: summary.into_summary()?,
            recipients: recipients
                .into_iter()
                .map(|row| RecipientLine {
                    status: if row.sent_at.is_some() {
                        RecipientStatus::Sent
                    } else if row.given_up {
                        RecipientStatus::Failed
                    } else {
                        RecipientStatus::Pending
                    },
                    email: row.email,
                    attempts: count(row.attempts),
                    error: row.error,
                    sent_at: row.sent_at,
                })
                .collect(),
        }))
    }

    async fn opt_out(&self, user: UserId, now: DateTime<Utc>) -> Result<(), RepoError> {
        with_conn(&self.pool, move |conn| {
            let inserted = diesel::sql_query(
                "INSERT INTO mail_opt_outs (user_id, opted_out_at) SELECT id, $2 FROM users WHERE id = $1 \
                 ON CONFLICT (user_id) DO NOTHING",
            )
            .bind::<BigInt, _>(user.get())
            .bind::<Timestamptz, _>(now)
            .execute(conn)
            .map_err(map_diesel)?;
            if inserted == 0 {
                let exists = diesel::sql_query("SELECT count(*) AS n FROM users WHERE id = $1")
                    .bind::<BigInt, _>(user.get())
                    .get_result::<CountRow>(conn)
                    .map_err(map_diesel)?;
                if exists.n == 0 {
                    return Err(RepoError::NotFound);
                }
            }
            Ok(())
        })
        .await
    }

    async fn username(&self, user: UserId) -> Result<Option<(UserId, Option<String>, String)>, RepoError> {
        let row = with_conn(&self.pool, move |conn| {
            diesel::sql_query("SELECT id, username, email FROM users WHERE id = $1")
                .bind::<BigInt, _>(user.get())
                .get_result::<UserRow>(conn)
                .optional()
                .map_err(map_diesel)
        })
        .await?;
        Ok(row.map(|row| (UserId(row.id), row.username, row.email)))
    }
}
