//! Mail about kept projects on `favourite_mail_opt_ins` and
//! `favourite_end_notices`: the member's choice, and the end notice recorded
//! with its `send_mail` job in one transaction (once per project and member).

use async_trait::async_trait;
use chrono::{DateTime, NaiveDate, Utc};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Date, Text, Timestamptz};
use diesel::{sql_query, QueryableByName};
use domain::ids::{ProjectId, UserId};
use ports::following::mail::{EndNoticeCandidate, FollowMailStore};
use ports::mailer::{queued_payload, OutgoingMail, MAIL_MAX_ATTEMPTS, SEND_MAIL};
use ports::RepoError;

use crate::error::{map_diesel, with_conn};
use crate::mass_mail::in_transaction;
use crate::rows::CountRow;
use crate::PgPool;

#[derive(Clone)]
pub struct PgFollowMail {
    pool: PgPool,
}

impl PgFollowMail {
    pub fn new(pool: PgPool) -> Self {
        Self { pool }
    }
}

#[derive(QueryableByName)]
struct CandidateRow {
    #[diesel(sql_type = BigInt)]
    project_id: i64,
    #[diesel(sql_type = BigInt)]
    user_id: i64,
    #[diesel(sql_type = Text)]
    email: String,
    #[diesel(sql_type = Text)]
    title: String,
    #[diesel(sql_type = Text)]
    slug: String,
    #[diesel(sql_type = Date)]
    period_end: NaiveDate,
}

#[async_trait]
impl FollowMailStore for PgFollowMail {
    async fn opted_in(&self, user: UserId) -> Result<bool, RepoError> {
        with_conn(&self.pool, move |conn| {
            let row = sql_query("SELECT count(*) AS n FROM favourite_mail_opt_ins WHERE user_id = $1")
                .bind::<BigInt, _>(user.get())
                .get_result::<CountRow>(conn)
                .map_err(map_diesel)?;
            Ok(row.n > 0)
        })
        .await
    }

    async fn set_opted_in(&self, user: UserId, on: bool, now: DateTime<Utc>) -> Result<(), RepoError> {
        with_conn(&self.pool, move |conn| {
            let exists = sql_query("SELECT count(*) AS n FROM users WHERE id = $1")
                .bind::<BigInt, _>(user.get())
                .get_result::<CountRow>(conn)
                .map_err(map_diesel)?;
            if exists.n == 0 {
                return Err(RepoError::NotFound);
            }
            let statement = if on {
                "INSERT INTO favourite_mail_opt_ins (user_id, opted_in_at) VALUES ($1, $2) ON CONFLICT DO NOTHING"
            } else {
                "DELETE FROM favourite_mail_opt_ins WHERE user_id = $1 AND $2 IS NOT NULL"
            };
            sql_query(statement)
                .bind::<BigInt, _>(user.get())
                .bind::<Timestamptz, _>(now)
                .execute(conn)
                .map_err(map_diesel)?;
            Ok(())
        })
        .await
    }

    async fn end_notice_candidates(
        &self,
        from: NaiveDate,
        to: NaiveDate,
        now: DateTime<Utc>,
        limit: u32,
    ) -> Result<Vec<EndNoticeCandidate>, RepoError> {
        with_conn(&self.pool, move |conn| {
            let rows = sql_query(
                "SELECT p.id AS project_id, u.id AS user_id, u.email, p.title, p.slug, p.period_end \
                 FROM favourites f \
                 JOIN favourite_mail_opt_ins i ON i.user_id = f.user_id \
                 JOIN users u ON u.id = f.user_id \
                 JOIN projects p ON p.id = f.project_id \
                 JOIN project_publications pp ON pp.project_id = p.id AND pp.published_at <= $3 \
                 WHERE p.period_end BETWEEN $1 AND $2 \
                   AND NOT EXISTS (SELECT 1 FROM mail_opt_outs o WHERE o.user_id = f.user_id) \
                   AND NOT EXISTS (SELECT 1 FROM favourite_end_notices n \
                                   WHERE n.project_id = f.project_id AND n.user_id = f.user_id) \
                 ORDER BY p.period_end, p.id, u.id LIMIT $4",
            )
            .bind::<Date, _>(from)
            .bind::<Date, _>(to)
            .bind::<Timestamptz, _>(now)
            .bind::<BigInt, _>(i64::from(limit))
            .load::<CandidateRow>(conn)
            .map_err(map_diesel)?;
            Ok(rows
                .into_iter()
                .map(|r| EndNoticeCandidate {
                    project: ProjectId(r.project_id),
                    user: UserId(r.user_id),
                    email: r.email,
                    title: r.title,
                    slug: r.slug,
                    period_end: r.period_end,
                })
                .collect())
        })
        .await
    }

    async fn queue_end_notice(
        &self,
        project: ProjectId,
        user: UserId,
        mail: &OutgoingMail,
        now: DateTime<Utc>,
    ) -> Result<bool, RepoError> {
        let payload = queued_payload(mail).to_string();
        with_conn(&self.pool, move |conn| {
            in_transaction(conn, |conn| {
                let recorded = sql_query(
                    "INSERT INTO favourite_end_notices (project_id, user_id, queued_at) VALUES ($1, $2, $3) \
                     ON CONFLICT DO NOTHING",
                )
                .bind::<BigInt, _>(project.get())
                .bind::<BigInt, _>(user.get())
                .bind::<Timestamptz, _>(now)
                .execute(conn)
                .map_err(map_diesel)?;
                if recorded == 0 {
                    return Ok(false);
                }
                sql_query("INSERT INTO background_jobs (kind, payload, max_attempts) VALUES ($1, $2::jsonb, $3)")
                    .bind::<Text, _>(SEND_MAIL)
                    .bind::<Text, _>(&payload)
                    .bind::<diesel::sql_types::Integer, _>(i32::try_from(MAIL_MAX_ATTEMPTS).unwrap_or(i32::MAX))
                    .execute(conn)
                    .map_err(map_diesel)?;
                Ok(true)
            })
        })
        .await
    }
}
