//! My-page reads and writes, in plain SQL so that the joins across users,
//! images, addresses, sales and display names read as they run.

use async_trait::async_trait;
use chrono::{DateTime, NaiveDate, Utc};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Bool, Date, Nullable, SmallInt, Text, Timestamptz};
use diesel::{sql_query, QueryableByName};
use domain::account::Email;
use domain::delivery::{must_deliver, DeliveryState};
use domain::money::{TaxMode, Yen};
use domain::payment::{BankTransferInstructions, PayType, SaleStatus};
use domain::profile::Address;
use ports::accounts::{
    HistoryEntry, Image, NewImage, PendingTransfer, ProfileRepository, ProfileUpdate, StoredAddress, UserId,
    UserProfile, ZipAddress,
};
use ports::RepoError;

use crate::error::{expect_row, map_diesel, with_conn};
use crate::sql_rules::{corrupt, sale_status_from_db, stored_id};
use crate::PgPool;

#[derive(Clone)]
pub struct PgProfileRepository {
    pool: PgPool,
}

impl PgProfileRepository {
    pub fn new(pool: PgPool) -> Self {
        Self { pool }
    }
}

fn unexpected(what: &str) -> RepoError {
    RepoError::Unexpected(anyhow::anyhow!("unexpected value in {what}"))
}

#[derive(QueryableByName)]
struct ProfileRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = Text)]
    email: String,
    #[diesel(sql_type = Nullable<Text>)]
    update_email: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    username: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    displayname: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    profile: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    age_group: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    corporatename: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    corporateurl: Option<String>,
    #[diesel(sql_type = Text)]
    language: String,
}

#[derive(QueryableByName)]
struct ImageRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = SmallInt)]
    image_type: i16,
    #[diesel(sql_type = Text)]
    url: String,
}

#[derive(QueryableByName)]
struct AddressRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = Text)]
    name: String,
    #[diesel(sql_type = Text)]
    tel_number: String,
    #[diesel(sql_type = Text)]
    zip: String,
    #[diesel(sql_type = Text)]
    pref: String,
    #[diesel(sql_type = Text)]
    city: String,
    #[diesel(sql_type = Text)]
    address: String,
    #[diesel(sql_type = Nullable<Text>)]
    building: Option<String>,
}

impl From<AddressRow> for StoredAddress {
    fn from(row: AddressRow) -> Self {
        StoredAddress {
            id: row.id,
            address: Address {
                name: row.name,
                tel_number: row.tel_number,
                zip: row.zip,
                pref: row.pref,
                city: row.city,
                address: row.address,
                building: row.building,
            },
        }
    }
}

#[derive(QueryableByName)]
struct HistoryRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = Timestamptz)]
    created_at: DateTime<Utc>,
    #[diesel(sql_type = Text)]
    project_title: String,
    #[diesel(sql_type = Text)]
    project_slug: String,
    #[diesel(sql_type = Text)]
    return_title: String,
    #[diesel(sql_type = SmallInt)]
    lot: i16,
    #[diesel(sql_type = BigInt)]
    amount: i64,
    #[diesel(sql_type = BigInt)]
    tax: i64,
    #[diesel(sql_type = BigInt)]
    extra_amount: i64,
    #[diesel(sql_type = BigInt)]
    total: i64,
    #[diesel(sql_type = Text)]
    tax_mode: String,
    #[diesel(sql_type = SmallInt)]
    payment_type: i16,
    #[diesel(sql_type = Text)]
    status: String,
    #[diesel(sql_type = Nullable<BigInt>)]
    display_name_id: Option<i64>,
    #[diesel(sql_type = Nullable<Text>)]
    display_name: Option<String>,
    #[diesel(sql_type = Nullable<BigInt>)]
    amount_remaining: Option<i64>,
    /// JSONB as text (parsed here, so diesel needs no JSON feature).
    #[diesel(sql_type = Nullable<Text>)]
    bank_instructions: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    konbini_voucher: Option<String>,
    #[diesel(sql_type = Nullable<Date>)]
    transfer_deadline: Option<NaiveDate>,
    #[diesel(sql_type = BigInt)]
    refunded_amount: i64,
    #[diesel(sql_type = BigInt)]
    refund_paid: i64,
    #[diesel(sql_type = Nullable<Date>)]
    shipped_on: Option<NaiveDate>,
    #[diesel(sql_type = Nullable<Text>)]
    delivery_note: Option<String>,
}

impl TryFrom<HistoryRow> for HistoryEntry {
    type Error = RepoError;
    fn try_from(row: HistoryRow) -> Result<Self, RepoError> {
        let payment_type =
            PayType::from_code(i32::from(row.payment_type)).map_err(|e| corrupt("sales.payment_type", e))?;
        let status = sale_status_from_db(&row.status)?;
        let instructions: Option<BankTransferInstructions> = row
            .bank_instructions
            .as_deref()
            .map(serde_json::from_str)
            .transpose()
            .map_err(|e| corrupt("sales.bank_instructions", e))?;
        let awaiting = matches!(status, SaleStatus::AwaitingBankTransfer | SaleStatus::RequiresAction);
        let pending_transfer =
            instructions.filter(|_| awaiting && payment_type == PayType::BankTransfer).map(|i| PendingTransfer {
                amount_remaining: row.amount_remaining.map_or(i.amount_remaining, Yen),
                instructions: i,
                deadline: row.transfer_deadline,
            });
        let state = match row.shipped_on {
            Some(on) => DeliveryState::Shipped { on, note: row.delivery_note },
            None => DeliveryState::Unshipped,
        };
        let delivery = must_deliver(status, Yen(row.total), Yen(row.refunded_amount)).then_some(state);
        Ok(HistoryEntry {
            id: stored_id("sales.id", row.id)?,
            created_at: row.created_at,
            project_title: row.project_title,
            project_slug: row.project_slug,
            return_title: row.return_title,
            lot: row.lot,
            amount: row.amount,
            tax: row.tax,
            extra_amount: row.extra_amount,
            total: row.total,
            tax_mode: TaxMode::parse(&row.tax_mode).map_err(|e| corrupt("sales.tax_mode", e))?,
            payment_type,
            status,
            display_name: row.display_name_id.zip(row.display_name),
            pending_transfer,
            voucher: row
                .konbini_voucher
                .as_deref()
                .map(serde_json::from_str)
                .transpose()
                .map_err(|e| corrupt("sales.konbini_voucher", e))?,
            refunded: Yen(row.refund_paid),
            refunding: Yen(row.refunded_amount - row.refund_paid),
            delivery,
        })
    }
}

#[derive(QueryableByName)]
struct OwnerRow {
    #[diesel(sql_type = BigInt)]
    user_id: i64,
}

#[derive(QueryableByName)]
struct ZipRow {
    #[diesel(sql_type = Text)]
    zip: String,
    #[diesel(sql_type = Text)]
    pref: String,
    #[diesel(sql_type = Text)]
    city: String,
    #[diesel(sql_type = Text)]
    town: String,
}

fn load_profile(conn: &mut PgConnection, user: UserId, now: DateTime<Utc>) -> Result<UserProfile, RepoError> {
    let row: ProfileRow = sql_query(
        "SELECT u.id, u.email, u.username, u.displayname, u.profile, u.age_group, u.corporatename, u.corporateurl, \
                u.language, \
                (SELECT k.new_email FROM user_keys k \
                  WHERE k.user_id = u.id AND k.purpose = 'change_email' AND k.used_at IS NULL AND k.expires_at > $2 \
                  ORDER BY k.created_at DESC LIMIT 1) AS update_email \
           FROM users u WHERE u.id = $1",
    )
    .bind::<BigInt, _>(user.0)
    .bind::<Timestamptz, _>(now)
    .get_result(conn)
    .map_err(map_diesel)?;
    let images: Vec<ImageRow> =
        sql_query("SELECT id, image_type, url FROM user_images WHERE user_id = $1 ORDER BY created_at DESC, id DESC")
            .bind::<BigInt, _>(user.0)
            .load(conn)
            .map_err(map_diesel)?;
    let addresses: Vec<AddressRow> = sql_query(
        "SELECT id, name, tel_number, zip, pref, city, address, building FROM addresses \
          WHERE user_id = $1 AND flag = 1 ORDER BY is_primary DESC, id",
    )
    .bind::<BigInt, _>(user.0)
    .load(conn)
    .map_err(map_diesel)?;
    let (logos, icons): (Vec<_>, Vec<_>) = images.into_iter().partition(|i| i.image_type == 1);
    let to_images = |rows: Vec<ImageRow>| rows.into_iter().map(|r| Image { id: r.id, url: r.url }).collect();
    Ok(UserProfile {
        id: stored_id("users.id", row.id)?,
        email: Email::parse(&row.email).map_err(|_| unexpected("users.email"))?,
        update_email: row.update_email,
        username: row.username,
        displayname: row.displayname,
        profile: row.profile,
        age_group: row.age_group,
        corporatename: row.corporatename,
        corporateurl: row.corporateurl,
        icons: to_images(icons),
        logos: to_images(logos),
        addresses: addresses.into_iter().map(StoredAddress::from).collect(),
        language: row.language,
    })
}

#[async_trait]
impl ProfileRepository for PgProfileRepository {
    async fn profile(&self, user: UserId, now: DateTime<Utc>) -> Result<UserProfile, RepoError> {
        with_conn(&self.pool, move |conn| load_profile(conn, user, now)).await
    }

    async fn update_profile(&self, user: UserId, update: ProfileUpdate) -> Result<(), RepoError> {
        with_conn(&self.pool, move |conn| {
            // A field left out keeps its value ($6..$9 say which were sent).
            let updated = sql_query(
                "UPDATE users SET username = CASE WHEN $6 THEN $2 ELSE username END, \
                        displayname = CASE WHEN $7 THEN $3 ELSE displayname END, \
                        profile = CASE WHEN $8 THEN $4 ELSE profile END, \
                        age_group = CASE WHEN $9 THEN $5 ELSE age_group END, updated_at = now() \
                  WHERE id = $1",
            )
            .bind::<BigInt, _>(user.0)
            .bind::<Nullable<Text>, _>(update.username.clone().flatten())
            .bind::<Nullable<Text>, _>(update.displayname.clone().flatten())
            .bind::<Nullable<Text>, _>(update.profile.clone().flatten())
            .bind::<Nullable<Text>, _>(update.age_group.clone().flatten())
            .bind::<Bool, _>(update.username.is_some())
            .bind::<Bool, _>(update.displayname.is_some())
            .bind::<Bool, _>(update.profile.is_some())
            .bind::<Bool, _>(update.age_group.is_some())
            .execute(conn)
            .map_err(map_diesel)?;
            expect_row(updated)
        })
        .await
    }

    async fn update_corporate(&self, user: UserId, name: String, url: Option<String>) -> Result<(), RepoError> {
        with_conn(&self.pool, move |conn| {
            let updated =
                sql_query("UPDATE users SET corporatename = $2, corporateurl = $3, updated_at = now() WHERE id = $1")
                    .bind::<BigInt, _>(user.0)
                    .bind::<Text, _>(name)
                    .bind::<Nullable<Text>, _>(url)
                    .execute(conn)
                    .map_err(map_diesel)?;
            expect_row(updated)
        })
        .await
    }

    async fn save_primary_address(&self, user: UserId, address: Address) -> Result<StoredAddress, RepoError> {
        with_conn(&self.pool, move |conn| {
            // One statement: two saves at once (a double-clicked button) both succeed, the later one wins,
            // instead of the second insert hitting the one-primary-address index.
            let row: AddressRow = sql_query(
                "INSERT INTO addresses (user_id, name, tel_number, zip, pref, city, address, building) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
                 ON CONFLICT (user_id) WHERE is_primary AND flag = 1 DO UPDATE SET \
                     name = EXCLUDED.name, tel_number = EXCLUDED.tel_number, zip = EXCLUDED.zip, \
                     pref = EXCLUDED.pref, city = EXCLUDED.city, address = EXCLUDED.address, \
                     building = EXCLUDED.building, updated_at = now() \
                 RETURNING id, name, tel_number, zip, pref, city, address, building",
            )
            .bind::<BigInt, _>(user.0)
            .bind::<Text, _>(address.name)
            .bind::<Text, _>(address.tel_number)
            .bind::<Text, _>(address.zip)
            .bind::<Text, _>(address.pref)
            .bind::<Text, _>(address.city)
            .bind::<Text, _>(address.address)
            .bind::<Nullable<Text>, _>(address.building)
            .get_result(conn)
            .map_err(map_diesel)?;
            Ok(row.into())
        })
        .await
    }

    async fn add_image(&self, user: UserId, image: NewImage) -> Result<Image, RepoError> {
        with_conn(&self.pool, move |conn| {
            let row: ImageRow = sql_query(
                "INSERT INTO user_images (user_id, image_type, storage_key, url, content_type, byte_size) \
                 VALUES ($1, $2, $3, $4, $5, $6) RETURNING id, image_type, url",
            )
            .bind::<BigInt, _>(user.0)
            .bind::<SmallInt, _>(image.role.code())
            .bind::<Text, _>(image.storage_key)
            .bind::<Text, _>(image.url)
            .bind::<Text, _>(image.content_type)
            .bind::<diesel::sql_types::Integer, _>(i32::try_from(image.byte_size).unwrap_or(i32::MAX))
            .get_result(conn)
            .map_err(map_diesel)?;
            Ok(Image { id: row.id, url: row.url })
        })
        .await
    }

    async fn history(&self, user: UserId) -> Result<Vec<HistoryEntry>, RepoError> {
        with_conn(&self.pool, move |conn| {
            let rows: Vec<HistoryRow> = sql_query(
                "SELECT s.id, s.created_at, p.title AS project_title, p.slug AS project_slug, \
                        r.title AS return_title, s.lot, s.amount, s.tax, s.extra_amount, s.total, s.tax_mode, s.payment_type, \
                        s.status, \
                        d.id AS display_name_id, d.displayname AS display_name, \
                        s.amount_remaining, s.bank_instructions::text AS bank_instructions, s.konbini_voucher::text AS konbini_voucher, s.transfer_deadline, \
                        s.refunded_amount, \
                        (SELECT coalesce(sum(f.amount), 0) FROM refunds f \
                          WHERE f.sales_id = s.id AND f.status = 'succeeded')::bigint AS refund_paid, \
                        dl.shipped_on, dl.note AS delivery_note \
                   FROM sales s \
                   JOIN projects p ON p.id = s.project_id \
                   JOIN returns r ON r.id = s.return_id \
                   LEFT JOIN display_names d ON d.sales_id = s.id \
                   LEFT JOIN sale_deliveries dl ON dl.sale_id = s.id \
                  WHERE s.user_id = $1 \
                  ORDER BY s.created_at DESC, s.id DESC",
            )
            .bind::<BigInt, _>(user.0)
            .load(conn)
            .map_err(map_diesel)?;
            rows.into_iter().map(HistoryEntry::try_from).collect()
        })
        .await
    }

    async fn display_name_owner(&self, id: i64) -> Result<Option<UserId>, RepoError> {
        with_conn(&self.pool, move |conn| {
            let row: Option<OwnerRow> = sql_query("SELECT user_id FROM display_names WHERE id = $1")
                .bind::<BigInt, _>(id)
                .get_result(conn)
                .optional()
                .map_err(map_diesel)?;
            row.map(|r| stored_id("display_names.user_id", r.user_id)).transpose()
        })
        .await
    }

    async fn rename_display_name(&self, id: i64, name: String) -> Result<(), RepoError> {
        with_conn(&self.pool, move |conn| {
            let updated = sql_query("UPDATE display_names SET displayname = $2, updated_at = now() WHERE id = $1")
                .bind::<BigInt, _>(id)
                .bind::<Text, _>(name)
                .execute(conn)
                .map_err(map_diesel)?;
            expect_row(updated)
        })
        .await
    }

    async fn lookup_zip(&self, zip: String) -> Result<Option<ZipAddress>, RepoError> {
        with_conn(&self.pool, move |conn| {
            let row: Option<ZipRow> =
                sql_query("SELECT zip, pref, city, town FROM postal_codes WHERE zip = $1 ORDER BY town LIMIT 1")
                    .bind::<Text, _>(zip)
                    .get_result(conn)
                    .optional()
                    .map_err(map_diesel)?;
            Ok(row.map(|r| ZipAddress { zip: r.zip, pref: r.pref, city: r.city, address: r.town }))
        })
        .await
    }
}
