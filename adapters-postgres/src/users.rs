use async_trait::async_trait;
use chrono::{DateTime, Utc};
use diesel::prelude::*;
use domain::account::{AccountStatus, Email};
use domain::auth::{LoginAttempt, LoginGuard};
use domain::time::{from_tokyo, tokyo_datetime};
use ports::accounts::{Credentials, KeyAction, KeyPurpose, NewKey, RedeemError, UserId, UserRepository};
use ports::RepoError;

use crate::error::{expect_row, map_diesel, with_conn};
use crate::schema::{administrators, user_keys, users};
use crate::sql_rules::stored_id;
use crate::PgPool;

diesel::define_sql_function!(fn lower(x: diesel::sql_types::Text) -> diesel::sql_types::Text);

#[derive(Clone)]
pub struct PgUserRepository {
    pool: PgPool,
}

impl PgUserRepository {
    pub fn new(pool: PgPool) -> Self {
        Self { pool }
    }
}

pub(crate) fn status_to_db(status: AccountStatus) -> &'static str {
    match status {
        AccountStatus::Guest => "guest",
        AccountStatus::Provisional => "provisional",
        AccountStatus::Member => "member",
    }
}

pub(crate) fn status_from_db(value: &str) -> Result<AccountStatus, RepoError> {
    match value {
        "guest" => Ok(AccountStatus::Guest),
        "provisional" => Ok(AccountStatus::Provisional),
        "member" => Ok(AccountStatus::Member),
        other => Err(RepoError::Unexpected(anyhow::anyhow!("unknown users.status {other:?}"))),
    }
}

fn purpose_to_db(purpose: KeyPurpose) -> &'static str {
    match purpose {
        KeyPurpose::Activate => "activate",
        KeyPurpose::ResetPassword => "reset_password",
        KeyPurpose::ChangeEmail => "change_email",
    }
}

#[derive(Insertable)]
#[diesel(table_name = user_keys)]
struct NewKeyRow<'a> {
    user_id: i64,
    purpose: &'a str,
    key_hash: &'a str,
    new_email: Option<&'a str>,
    expires_at: DateTime<Utc>,
}

impl<'a> NewKeyRow<'a> {
    fn new(user: i64, key: &'a NewKey) -> Self {
        Self {
            user_id: user,
            purpose: purpose_to_db(key.purpose),
            key_hash: &key.key_hash,
            new_email: key.new_email.as_ref().map(Email::as_str),
            expires_at: key.expires_at,
        }
    }
}

#[derive(Queryable, Selectable)]
#[diesel(table_name = users)]
struct CredentialsRow {
    id: i64,
    email: String,
    status: String,
    password_hash: Option<String>,
    failed_login_count: i32,
    banned_until: Option<DateTime<Utc>>,
    password_changed_at: DateTime<Utc>,
    /// Read with the row, so checking a session is one query.
    #[diesel(select_expression = diesel::dsl::exists(administrators::table.filter(administrators::user_id.eq(users::id))))]
    #[diesel(select_expression_type = diesel::dsl::exists<diesel::dsl::Filter<administrators::table, diesel::dsl::Eq<administrators::user_id, users::id>>>)]
    is_administrator: bool,
}

impl TryFrom<CredentialsRow> for Credentials {
    type Error = RepoError;
    fn try_from(row: CredentialsRow) -> Result<Self, RepoError> {
        Ok(Credentials {
            id: stored_id("users.id", row.id)?,
            email: Email::parse(&row.email).map_err(|e| RepoError::Unexpected(anyhow::anyhow!("users.email: {e}")))?,
            status: status_from_db(&row.status)?,
            password_hash: row.password_hash,
            failed_login_count: u32::try_from(row.failed_login_count).map_err(|_| {
                RepoError::Unexpected(anyhow::anyhow!(
                    "users.failed_login_count {} is negative",
                    row.failed_login_count
                ))
            })?,
            banned_until: row.banned_until,
            password_changed_at: row.password_changed_at,
            is_administrator: row.is_administrator,
        })
    }
}

#[derive(Queryable)]
struct KeyRow {
    id: i64,
    user_id: i64,
    new_email: Option<String>,
    expires_at: DateTime<Utc>,
    used_at: Option<DateTime<Utc>>,
}

/// The redemption transaction's own error, so diesel errors and rule
/// outcomes can both roll it back.
enum RedeemFailure {
    Rule(RedeemError),
    Db(diesel::result::Error),
}

impl From<diesel::result::Error> for RedeemFailure {
    fn from(error: diesel::result::Error) -> Self {
        Self::Db(error)
    }
}

fn redeem_in(
    conn: &mut PgConnection,
    key_hash: &str,
    purpose: KeyPurpose,
    now: DateTime<Utc>,
    action: &KeyAction,
) -> Result<UserId, RedeemFailure> {
    // Lock the key row so two parallel redemptions of one key let exactly one through.
    let key: Option<KeyRow> = user_keys::table
        .filter(user_keys::key_hash.eq(key_hash))
        .filter(user_keys::purpose.eq(purpose_to_db(purpose)))
        .select((user_keys::id, user_keys::user_id, user_keys::new_email, user_keys::expires_at, user_keys::used_at))
        .for_update()
        .first(conn)
        .optional()?;
    let Some(key) = key else { return Err(RedeemFailure::Rule(RedeemError::Invalid)) };
    if key.used_at.is_some() {
        return Err(RedeemFailure::Rule(RedeemError::Invalid));
    }
    if now >= key.expires_at {
        return Err(RedeemFailure::Rule(RedeemError::Expired));
    }
    let user = users::table.find(key.user_id);
    match action {
        KeyAction::SetPassword { password_hash, changed_at } => {
            let became_member = purpose == KeyPurpose::Activate;
            let updated = diesel::update(user)
                .set((
                    users::password_hash.eq(password_hash),
                    users::password_changed_at.eq(changed_at),
                    users::updated_at.eq(now),
                ))
                .execute(conn)?;
            if updated == 0 {
                return Err(RedeemFailure::Rule(RedeemError::Invalid));
            }
            if became_member {
                diesel::update(user).set(users::status.eq(status_to_db(AccountStatus::Member))).execute(conn)?;
            }
        }
        KeyAction::ChangeEmail { owner, changed_at } => {
            if owner.0 != key.user_id {
                return Err(RedeemFailure::Rule(RedeemError::Invalid));
            }
            let Some(new_email) = key.new_email.as_deref() else {
                return Err(RedeemFailure::Rule(RedeemError::Invalid));
            };
            // Moving the credentials' changed-at ends every session issued before (tokens carry it).
            let moved = diesel::update(user)
                .set((users::email.eq(new_email), users::password_changed_at.eq(changed_at), users::updated_at.eq(now)))
                .execute(conn);
            match moved {
                Ok(_) => {}
                Err(diesel::result::Error::DatabaseError(diesel::result::DatabaseErrorKind::UniqueViolation, _)) => {
                    return Err(RedeemFailure::Rule(RedeemError::AddressTaken))
                }
                Err(other) => return Err(other.into()),
            }
        }
    }
    diesel::update(user_keys::table.find(key.id)).set(user_keys::used_at.eq(now)).execute(conn)?;
    // A corrupt owner rolls the redemption back: the key stays unused.
    stored_id("user_keys.user_id", key.user_id).map_err(|e| RedeemFailure::Rule(RedeemError::Repo(e)))
}

#[async_trait]
impl UserRepository for PgUserRepository {
    async fn find_by_email(&self, email: &Email) -> Result<Option<(UserId, AccountStatus)>, RepoError> {
        let normalized = email.normalized();
        with_conn(&self.pool, move |conn| {
            let row: Option<(i64, String)> = users::table
                .filter(lower(users::email).eq(normalized))
                .select((users::id, users::status))
                .first(conn)
                .optional()
                .map_err(map_diesel)?;
            row.map(|(id, status)| Ok((stored_id("users.id", id)?, status_from_db(&status)?))).transpose()
        })
        .await
    }

    async fn create_provisional(&self, email: &Email, key: NewKey) -> Result<UserId, RepoError> {
        let email = email.as_str().to_string();
        with_conn(&self.pool, move |conn| {
            conn.transaction(|conn| {
                let id: i64 = diesel::insert_into(users::table)
                    .values((users::email.eq(&email), users::status.eq(status_to_db(AccountStatus::Provisional))))
                    .returning(users::id)
                    .get_result(conn)?;
                diesel::insert_into(user_keys::table).values(NewKeyRow::new(id, &key)).execute(conn)?;
                Ok(id)
            })
            .map_err(map_diesel)
            .and_then(|id| stored_id("users.id", id))
        })
        .await
    }

    async fn replace_key(&self, user: UserId, key: NewKey) -> Result<(), RepoError> {
        with_conn(&self.pool, move |conn| {
            conn.transaction(|conn| {
                // Lock the account so two parallel requests do not both keep a live key.
                users::table.find(user.0).select(users::id).for_update().first::<i64>(conn)?;
                diesel::delete(
                    user_keys::table
                        .filter(user_keys::user_id.eq(user.0))
                        .filter(user_keys::purpose.eq(purpose_to_db(key.purpose)))
                        .filter(user_keys::used_at.is_null()),
                )
                .execute(conn)?;
                diesel::insert_into(user_keys::table).values(NewKeyRow::new(user.0, &key)).execute(conn)?;
                Ok(())
            })
            .map_err(map_diesel)
        })
        .await
    }

    async fn credentials_by_email(&self, email: &Email) -> Result<Option<Credentials>, RepoError> {
        let normalized = email.normalized();
        with_conn(&self.pool, move |conn| {
            users::table
                .filter(lower(users::email).eq(normalized))
                .select(CredentialsRow::as_select())
                .first(conn)
                .optional()
                .map_err(map_diesel)?
                .map(Credentials::try_from)
                .transpose()
        })
        .await
    }

    async fn credentials(&self, user: UserId) -> Result<Credentials, RepoError> {
        with_conn(&self.pool, move |conn| {
            users::table.find(user.0).select(CredentialsRow::as_select()).first(conn).map_err(map_diesel)?.try_into()
        })
        .await
    }

    async fn record_password_check(
        &self,
        user: UserId,
        password_ok: bool,
        now: DateTime<Utc>,
    ) -> Result<LoginAttempt, RepoError> {
        with_conn(&self.pool, move |conn| {
            conn.transaction(|conn| {
                // The row lock makes read-decide-write one step for parallel attempts.
                let (failed_count, banned_until): (i32, Option<DateTime<Utc>>) = users::table
                    .find(user.0)
                    .select((users::failed_login_count, users::banned_until))
                    .for_update()
                    .first(conn)?;
                let failed_count = u32::try_from(failed_count).map_err(|_| {
                    diesel::result::Error::DeserializationError(
                        format!("users.failed_login_count {failed_count} is negative").into(),
                    )
                })?;
                let guard = LoginGuard { failed_count, banned_until: banned_until.map(tokyo_datetime) };
                let (attempt, next) = guard.attempt(password_ok, tokyo_datetime(now));
                if next != guard {
                    let count = i32::try_from(next.failed_count).unwrap_or(i32::MAX);
                    diesel::update(users::table.find(user.0))
                        .set((
                            users::failed_login_count.eq(count),
                            users::banned_until.eq(next.banned_until.map(from_tokyo)),
                        ))
                        .execute(conn)?;
                }
                Ok(attempt)
            })
            .map_err(map_diesel)
        })
        .await
    }

    async fn check_key(&self, key_hash: String, purpose: KeyPurpose, now: DateTime<Utc>) -> Result<(), RedeemError> {
        let key = with_conn(&self.pool, move |conn| {
            user_keys::table
                .filter(user_keys::key_hash.eq(key_hash))
                .filter(user_keys::purpose.eq(purpose_to_db(purpose)))
                .filter(user_keys::used_at.is_null())
                .select(user_keys::expires_at)
                .first::<DateTime<Utc>>(conn)
                .optional()
                .map_err(map_diesel)
        })
        .await?;
        match key {
            None => Err(RedeemError::Invalid),
            Some(expires_at) if now >= expires_at => Err(RedeemError::Expired),
            Some(_) => Ok(()),
        }
    }

    async fn redeem_key(
        &self,
        key_hash: String,
        purpose: KeyPurpose,
        now: DateTime<Utc>,
        action: KeyAction,
    ) -> Result<UserId, RedeemError> {
        let outcome = with_conn(&self.pool, move |conn| {
            Ok(conn.transaction::<_, RedeemFailure, _>(|conn| redeem_in(conn, &key_hash, purpose, now, &action)))
        })
        .await?;
        outcome.map_err(|failure| match failure {
            RedeemFailure::Rule(rule) => rule,
            RedeemFailure::Db(e) => RedeemError::Repo(map_diesel(e)),
        })
    }

    async fn set_password(
        &self,
        user: UserId,
        password_hash: String,
        changed_at: DateTime<Utc>,
    ) -> Result<(), RepoError> {
        with_conn(&self.pool, move |conn| {
            let updated = diesel::update(users::table.find(user.0))
                .set((
                    users::password_hash.eq(password_hash),
                    users::password_changed_at.eq(changed_at),
                    users::updated_at.eq(changed_at),
                ))
                .execute(conn)
                .map_err(map_diesel)?;
            expect_row(updated)
        })
        .await
    }
}
