use async_trait::async_trait;
use diesel::prelude::*;
use domain::account::{AccountStatus, Email};
use ports::accounts::{KeyPurpose, NewKey, UserId, UserRepository};
use ports::RepoError;

use crate::error::{map_diesel, run_blocking};
use crate::schema::{user_keys, users};
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

fn status_to_db(status: AccountStatus) -> &'static str {
    match status {
        AccountStatus::Guest => "guest",
        AccountStatus::Provisional => "provisional",
        AccountStatus::Member => "member",
    }
}

fn status_from_db(value: &str) -> Result<AccountStatus, RepoError> {
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
    expires_at: chrono::DateTime<chrono::Utc>,
}

impl<'a> NewKeyRow<'a> {
    fn new(user: i64, key: &'a NewKey) -> Self {
        Self { user_id: user, purpose: purpose_to_db(key.purpose), key_hash: &key.key_hash, expires_at: key.expires_at }
    }
}

#[async_trait]
impl UserRepository for PgUserRepository {
    async fn find_by_email(&self, email: &Email) -> Result<Option<(UserId, AccountStatus)>, RepoError> {
        let pool = self.pool.clone();
        let normalized = email.normalized();
        run_blocking(move || {
            let mut conn = pool.get().map_err(|e| RepoError::Unexpected(e.into()))?;
            let row: Option<(i64, String)> = users::table
                .filter(lower(users::email).eq(normalized))
                .select((users::id, users::status))
                .first(&mut conn)
                .optional()
                .map_err(map_diesel)?;
            row.map(|(id, status)| Ok((UserId(id), status_from_db(&status)?))).transpose()
        })
        .await
    }

    async fn create_provisional(&self, email: &Email, key: NewKey) -> Result<UserId, RepoError> {
        let pool = self.pool.clone();
        let email = email.as_str().to_string();
        run_blocking(move || {
            let mut conn = pool.get().map_err(|e| RepoError::Unexpected(e.into()))?;
            conn.transaction(|conn| {
                let id: i64 = diesel::insert_into(users::table)
                    .values((users::email.eq(&email), users::status.eq(status_to_db(AccountStatus::Provisional))))
                    .returning(users::id)
                    .get_result(conn)?;
                diesel::insert_into(user_keys::table).values(NewKeyRow::new(id, &key)).execute(conn)?;
                Ok(UserId(id))
            })
            .map_err(map_diesel)
        })
        .await
    }

    async fn replace_key(&self, user: UserId, key: NewKey) -> Result<(), RepoError> {
        let pool = self.pool.clone();
        run_blocking(move || {
            let mut conn = pool.get().map_err(|e| RepoError::Unexpected(e.into()))?;
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
}
