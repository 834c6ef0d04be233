//! My page: the profile, company data, delivery address, images, payment
//! history and display names of the logged-in user (the e-mail change is in
//! `email_change`).

use chrono::{DateTime, Utc};
use domain::account::Email;
use domain::ids::SaleId;
use domain::money::TaxMode;
use domain::payment::{PayType, SaleStatus};
use domain::profile::{detect_image, Address, UploadError};

use super::repository::UserId;
use crate::clock::Clock;
use crate::media::{MediaError, MediaStorage};
use crate::{ConstraintViolation, RepoError};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    pub id: i64,
    pub url: String,
}

/// The seed's `urls` types: 1 corporate logo, 2 profile icon.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageRole {
    Logo,
    Icon,
}

impl ImageRole {
    pub const fn code(self) -> i16 {
        match self {
            Self::Logo => 1,
            Self::Icon => 2,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredAddress {
    pub id: i64,
    pub address: Address,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserProfile {
    pub id: UserId,
    pub email: Email,
    /// The address of a pending e-mail change, until its link is opened.
    pub update_email: Option<String>,
    pub username: Option<String>,
    pub displayname: Option<String>,
    pub profile: Option<String>,
    pub age_group: Option<String>,
    pub corporatename: Option<String>,
    pub corporateurl: Option<String>,
    /// Newest first; the first is the current one.
    pub icons: Vec<Image>,
    pub logos: Vec<Image>,
    pub addresses: Vec<StoredAddress>,
    pub language: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
/// A profile edit: `None` leaves a field as it is, `Some(None)` clears it.
pub struct ProfileUpdate {
    pub username: Option<Option<String>>,
    pub displayname: Option<Option<String>>,
    pub profile: Option<Option<String>>,
    pub age_group: Option<Option<String>>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewImage {
    pub role: ImageRole,
    pub storage_key: String,
    pub url: String,
    pub content_type: String,
    pub byte_size: i64,
}

/// One line of the payment history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryEntry {
    pub id: SaleId,
    pub created_at: DateTime<Utc>,
    pub project_title: String,
    pub project_slug: String,
    pub return_title: String,
    pub lot: i16,
    pub amount: i64,
    /// Consumption tax the total contains (0 for donations).
    pub tax: i64,
    /// 上乗せ支援 included in `total` (untaxed); 0 when none.
    pub extra_amount: i64,
    pub total: i64,
    /// How the sale was priced: the history labels a donation 非課税, not 税込.
    pub tax_mode: TaxMode,
    pub payment_type: PayType,
    pub status: SaleStatus,
    /// (display-name record id, name).
    pub display_name: Option<(i64, String)>,
    /// A bank transfer still awaited: where to pay, how much, until when.
    pub pending_transfer: Option<PendingTransfer>,
    /// A konbini sale's voucher (read with the status: shown while it waits for the store).
    pub voucher: Option<domain::payment::KonbiniVoucher>,
    /// What the provider has paid back of the sale so far (0 when nothing).
    pub refunded: domain::money::Yen,
    /// Refunds started but not paid out yet (a bank-transfer refund waiting
    /// for the supporter's account, say); 0 when none.
    pub refunding: domain::money::Yen,
    /// Where the return stands (未発送 / 発送済み) while the sale must be
    /// delivered (`domain::delivery::must_deliver`); `None` for a sale not
    /// paid, or refunded in full.
    pub delivery: Option<domain::delivery::DeliveryState>,
}

/// What a supporter still has to transfer for a sale.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingTransfer {
    pub instructions: domain::payment::BankTransferInstructions,
    pub amount_remaining: domain::money::Yen,
    /// Last day (Asia/Tokyo).
    pub deadline: Option<chrono::NaiveDate>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZipAddress {
    pub zip: String,
    pub pref: String,
    pub city: String,
    pub address: String,
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait ProfileRepository: Send + Sync {
    /// The profile of `user` with its current images (as of `now`), primary
    /// address and corporate details. MUST return `RepoError::NotFound` when
    /// no account has `user`. Read-only.
    async fn profile(&self, user: UserId, now: DateTime<Utc>) -> Result<UserProfile, RepoError>;
    /// Replaces the personal fields with `update` (absent fields become empty).
    /// MUST return `RepoError::NotFound` when no account has `user`;
    /// idempotent. A storage rule that refuses a value is `Constraint`.
    async fn update_profile(&self, user: UserId, update: ProfileUpdate) -> Result<(), RepoError>;
    /// Replaces the company name and site. MUST return `RepoError::NotFound`
    /// when no account has `user`; idempotent.
    async fn update_corporate(&self, user: UserId, name: String, url: Option<String>) -> Result<(), RepoError>;
    /// Creates the primary address, or replaces it when one exists: a user
    /// never has two (a repeat updates the same one). For an unknown `user`
    /// MUST fail with `RepoError::Constraint` (foreign key) or `NotFound`,
    /// never create an orphan.
    async fn save_primary_address(&self, user: UserId, address: Address) -> Result<StoredAddress, RepoError>;
    /// Records an uploaded image of `user`; the newest of a role is the
    /// current one. Not idempotent: each call adds a record. An unknown `user`
    /// MUST fail (`Constraint`, foreign key).
    async fn add_image(&self, user: UserId, image: NewImage) -> Result<Image, RepoError>;
    /// The user's sales, newest first; empty (not `NotFound`) for a user with
    /// none or an unknown user. Read-only.
    async fn history(&self, user: UserId) -> Result<Vec<HistoryEntry>, RepoError>;
    /// The owner of display-name record `id`; MUST return `Ok(None)` when no
    /// record has `id`. Read-only.
    async fn display_name_owner(&self, id: i64) -> Result<Option<UserId>, RepoError>;
    /// Replaces the display name of record `id`. MUST return
    /// `RepoError::NotFound` when no record has `id`; idempotent. The caller
    /// checks ownership first (`display_name_owner`).
    async fn rename_display_name(&self, id: i64, name: String) -> Result<(), RepoError>;
    /// The address of a 7-digit postal code, from the offline dataset;
    /// `Ok(None)` for a code it does not know. Read-only.
    async fn lookup_zip(&self, zip: String) -> Result<Option<ZipAddress>, RepoError>;
}

#[derive(Debug, thiserror::Error)]
pub enum ProfileError {
    #[error("forbidden")]
    Forbidden,
    #[error("not found")]
    NotFound,
    #[error(transparent)]
    Upload(#[from] UploadError),
    /// A storage rule refused the write (a value the domain let through).
    #[error(transparent)]
    Constraint(ConstraintViolation),
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}

impl From<RepoError> for ProfileError {
    fn from(error: RepoError) -> Self {
        if let Some(violation) = error.violation() {
            return Self::Constraint(violation);
        }
        match error {
            RepoError::NotFound => Self::NotFound,
            other => Self::Unexpected(other.into()),
        }
    }
}

impl From<MediaError> for ProfileError {
    fn from(error: MediaError) -> Self {
        match error {
            MediaError::Undecodable => Self::Upload(UploadError::UnsupportedType),
            MediaError::Rejected(rule) => Self::Upload(rule),
            MediaError::Unexpected(e) => Self::Unexpected(e),
        }
    }
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait Profiles: Send + Sync {
    /// The caller's my-page data; `NotFound` when the account is gone.
    async fn profile(&self, user: UserId) -> Result<UserProfile, ProfileError>;
    /// Saves the personal fields and answers the profile as stored
    /// (`NotFound` when the account is gone); idempotent.
    async fn update_profile(&self, user: UserId, update: ProfileUpdate) -> Result<UserProfile, ProfileError>;
    /// Saves the company name and site (`NotFound` when the account is gone); idempotent.
    async fn update_corporate(&self, user: UserId, name: String, url: Option<String>) -> Result<(), ProfileError>;
    /// Creates or replaces the primary address; a repeat leaves one address.
    async fn save_address(&self, user: UserId, address: Address) -> Result<StoredAddress, ProfileError>;
    /// Checks the bytes by content and size, stores them and makes the image
    /// current. Each call stores a new file under a new key.
    async fn upload_image(&self, user: UserId, role: ImageRole, bytes: Vec<u8>) -> Result<Image, ProfileError>;
    /// The caller's sales, newest first (empty when none).
    async fn history(&self, user: UserId) -> Result<Vec<HistoryEntry>, ProfileError>;
    /// Renames display-name record `id` of the caller: `NotFound` when no
    /// record has `id`, `Forbidden` when it is someone else's; idempotent.
    async fn rename_display_name(&self, user: UserId, id: i64, name: String) -> Result<(), ProfileError>;
    /// The address of a postal code; `Ok(None)` when unknown. Read-only.
    async fn lookup_zip(&self, zip: &str) -> Result<Option<ZipAddress>, ProfileError>;
}

pub struct ProfileService<P, S, C> {
    profiles: P,
    media: S,
    clock: C,
}

impl<P, S, C> ProfileService<P, S, C> {
    pub fn new(profiles: P, media: S, clock: C) -> Self {
        Self { profiles, media, clock }
    }
}

#[async_trait::async_trait]
impl<P, S, C> Profiles for ProfileService<P, S, C>
where
    P: ProfileRepository,
    S: MediaStorage,
    C: Clock,
{
    async fn profile(&self, user: UserId) -> Result<UserProfile, ProfileError> {
        Ok(self.profiles.profile(user, self.clock.now()).await?)
    }

    async fn update_profile(&self, user: UserId, update: ProfileUpdate) -> Result<UserProfile, ProfileError> {
        self.profiles.update_profile(user, update).await?;
        self.profile(user).await
    }

    async fn update_corporate(&self, user: UserId, name: String, url: Option<String>) -> Result<(), ProfileError> {
        Ok(self.profiles.update_corporate(user, name, url).await?)
    }

    async fn save_address(&self, user: UserId, address: Address) -> Result<StoredAddress, ProfileError> {
        Ok(self.profiles.save_primary_address(user, address).await?)
    }

    async fn upload_image(&self, user: UserId, role: ImageRole, bytes: Vec<u8>) -> Result<Image, ProfileError> {
        let kind = detect_image(&bytes, u64::try_from(bytes.len()).unwrap_or(u64::MAX))?;
        let prefix = match role {
            ImageRole::Icon => format!("users/{}/icon", user.0),
            ImageRole::Logo => format!("users/{}/logo", user.0),
        };
        let stored = self.media.store_image(&prefix, kind, bytes).await?;
        let image = NewImage {
            role,
            storage_key: stored.key,
            url: stored.url,
            content_type: stored.content_type,
            byte_size: stored.byte_size,
        };
        Ok(self.profiles.add_image(user, image).await?)
    }

    async fn history(&self, user: UserId) -> Result<Vec<HistoryEntry>, ProfileError> {
        Ok(self.profiles.history(user).await?)
    }

    async fn rename_display_name(&self, user: UserId, id: i64, name: String) -> Result<(), ProfileError> {
        match self.profiles.display_name_owner(id).await? {
            None => Err(ProfileError::NotFound),
            Some(owner) if owner != user => Err(ProfileError::Forbidden),
            Some(_) => Ok(self.profiles.rename_display_name(id, name).await?),
        }
    }

    async fn lookup_zip(&self, zip: &str) -> Result<Option<ZipAddress>, ProfileError> {
        if zip.len() != 7 || !zip.bytes().all(|b| b.is_ascii_digit()) {
            return Ok(None);
        }
        Ok(self.profiles.lookup_zip(zip.to_string()).await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::MockClock;
    use crate::media::{MockMediaStorage, StoredMedia};
    use chrono::TimeZone;

    type Service = ProfileService<MockProfileRepository, MockMediaStorage, MockClock>;

    struct Mocks {
        profiles: MockProfileRepository,
        media: MockMediaStorage,
    }

    impl Mocks {
        fn new() -> Self {
            Self { profiles: MockProfileRepository::new(), media: MockMediaStorage::new() }
        }

        fn service(self) -> Service {
            let mut clock = MockClock::new();
            clock.expect_now().return_const(Utc.with_ymd_and_hms(2026, 11, 25, 12, 0, 0).unwrap());
            ProfileService::new(self.profiles, self.media, clock)
        }
    }

    const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";

    #[tokio::test]
    async fn a_png_icon_is_stored_and_recorded_as_the_users_icon() {
        let mut mocks = Mocks::new();
        mocks
            .media
            .expect_store_image()
            .withf(|prefix, kind, _| prefix == "users/7/icon" && *kind == domain::profile::ImageKind::Png)
            .returning(|_, _, bytes| {
                Ok(StoredMedia {
                    key: "users/7/icon/a.png".into(),
                    url: "/media/users/7/icon/a.png".into(),
                    content_type: "image/png".into(),
                    byte_size: i64::try_from(bytes.len()).unwrap(),
                })
            });
        mocks
            .profiles
            .expect_add_image()
            .withf(|user, image| {
                *user == UserId(7) && image.role == ImageRole::Icon && image.content_type == "image/png"
            })
            .returning(|_, image| Ok(Image { id: 1, url: image.url }));

        let image = mocks.service().upload_image(UserId(7), ImageRole::Icon, PNG.to_vec()).await.unwrap();

        assert_eq!(image.url, "/media/users/7/icon/a.png");
    }

    #[tokio::test]
    async fn a_file_that_is_not_an_image_is_refused_before_storage() {
        let mut mocks = Mocks::new();
        mocks.media.expect_store_image().never();

        let result = mocks.service().upload_image(UserId(7), ImageRole::Icon, b"<svg>not allowed</svg>".to_vec()).await;

        assert!(matches!(result, Err(ProfileError::Upload(UploadError::UnsupportedType))), "{result:?}");
    }

    #[tokio::test]
    async fn an_image_over_two_megabytes_is_refused() {
        let mut mocks = Mocks::new();
        mocks.media.expect_store_image().never();
        let mut big = PNG.to_vec();
        big.resize(2_097_153, 0);

        let result = mocks.service().upload_image(UserId(7), ImageRole::Logo, big).await;

        assert!(matches!(result, Err(ProfileError::Upload(UploadError::TooLarge))), "{result:?}");
    }

    #[tokio::test]
    async fn another_users_display_name_cannot_be_renamed() {
        let mut mocks = Mocks::new();
        mocks.profiles.expect_display_name_owner().returning(|_| Ok(Some(UserId(9))));
        mocks.profiles.expect_rename_display_name().never();

        let result = mocks.service().rename_display_name(UserId(7), 3, "新しい名前".into()).await;

        assert!(matches!(result, Err(ProfileError::Forbidden)));
    }

    #[tokio::test]
    async fn the_owner_renames_their_display_name() {
        let mut mocks = Mocks::new();
        mocks.profiles.expect_display_name_owner().returning(|_| Ok(Some(UserId(7))));
        mocks
            .profiles
            .expect_rename_display_name()
            .withf(|id, name| *id == 3 && name == "新しい名前")
            .times(1)
            .returning(|_, _| Ok(()));

        mocks.service().rename_display_name(UserId(7), 3, "新しい名前".into()).await.unwrap();
    }

    #[tokio::test]
    async fn a_write_refused_by_a_named_storage_rule_reports_that_rule() {
        let mut mocks = Mocks::new();
        mocks.profiles.expect_update_corporate().returning(|_, _, _| {
            Err(RepoError::Constraint(ConstraintViolation {
                kind: crate::ConstraintKind::Check,
                name: "users_corporatename_length".into(),
            }))
        });

        let result = mocks.service().update_corporate(UserId(7), "上毛商事".into(), None).await;

        assert!(
            matches!(result, Err(ProfileError::Constraint(ref v)) if v.name == "users_corporatename_length"),
            "{result:?}"
        );
    }

    #[tokio::test]
    async fn a_malformed_zip_is_not_looked_up() {
        let mut mocks = Mocks::new();
        mocks.profiles.expect_lookup_zip().never();

        assert_eq!(mocks.service().lookup_zip("371-0023").await.unwrap(), None);
    }
}
