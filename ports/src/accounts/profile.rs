//! My page: the profile, company data, delivery address, images, e-mail
//! change, payment history and display names of the logged-in user.

use chrono::{DateTime, Duration, Utc};
use domain::account::Email;
use domain::payment::{PayType, SaleStatus};
use domain::profile::{detect_image, Address, UploadError};

use super::mails::SiteInfo;
use super::repository::{KeyAction, KeyPurpose, NewKey, RedeemError, UserId, UserRepository};
use crate::clock::Clock;
use crate::mailer::{MailError, Mailer};
use crate::media::{MediaError, MediaStorage};
use crate::secrets::{hash_key, OneTimeKey};
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
pub struct ProfileUpdate {
    pub username: Option<String>,
    pub displayname: Option<String>,
    pub profile: Option<String>,
    pub age_group: Option<String>,
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
    pub id: i64,
    pub created_at: DateTime<Utc>,
    pub project_title: String,
    pub project_slug: String,
    pub return_title: String,
    pub lot: i16,
    pub amount: i64,
    pub total: i64,
    pub payment_type: PayType,
    pub status: SaleStatus,
    /// (display-name record id, name).
    pub display_name: Option<(i64, String)>,
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
    /// MUST return `RepoError::NotFound` when no account has `user`.
    async fn profile(&self, user: UserId, now: DateTime<Utc>) -> Result<UserProfile, RepoError>;
    async fn update_profile(&self, user: UserId, update: ProfileUpdate) -> Result<(), RepoError>;
    async fn update_corporate(&self, user: UserId, name: String, url: Option<String>) -> Result<(), RepoError>;
    /// Creates the primary address, or replaces it when one exists.
    async fn save_primary_address(&self, user: UserId, address: Address) -> Result<StoredAddress, RepoError>;
    async fn add_image(&self, user: UserId, image: NewImage) -> Result<Image, RepoError>;
    /// The user's sales, newest first.
    async fn history(&self, user: UserId) -> Result<Vec<HistoryEntry>, RepoError>;
    /// The owner of display-name record `id`, if it exists.
    async fn display_name_owner(&self, id: i64) -> Result<Option<UserId>, RepoError>;
    async fn rename_display_name(&self, id: i64, name: String) -> Result<(), RepoError>;
    /// The address of a 7-digit postal code, from the offline dataset.
    async fn lookup_zip(&self, zip: String) -> Result<Option<ZipAddress>, RepoError>;
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EmailChangeRequest {
    pub duplicate: bool,
    pub not_found: bool,
    pub sended: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum ProfileError {
    #[error("forbidden")]
    Forbidden,
    #[error("not found")]
    NotFound,
    #[error("invalid key")]
    InvalidKey,
    #[error(transparent)]
    Upload(#[from] UploadError),
    #[error("the mail could not be sent")]
    MailUnavailable(#[source] MailError),
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
            MediaError::Unexpected(e) => Self::Unexpected(e),
        }
    }
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait Profiles: Send + Sync {
    async fn profile(&self, user: UserId) -> Result<UserProfile, ProfileError>;
    async fn update_profile(&self, user: UserId, update: ProfileUpdate) -> Result<UserProfile, ProfileError>;
    async fn update_corporate(&self, user: UserId, name: String, url: Option<String>) -> Result<(), ProfileError>;
    async fn save_address(&self, user: UserId, address: Address) -> Result<StoredAddress, ProfileError>;
    /// Checks the bytes by content and size, stores them and makes the image current.
    async fn upload_image(&self, user: UserId, role: ImageRole, bytes: Vec<u8>) -> Result<Image, ProfileError>;
    async fn request_email_change(&self, user: UserId, new_email: &Email) -> Result<EmailChangeRequest, ProfileError>;
    async fn confirm_email_change(&self, user: UserId, key: &str) -> Result<Email, ProfileError>;
    async fn history(&self, user: UserId) -> Result<Vec<HistoryEntry>, ProfileError>;
    async fn rename_display_name(&self, user: UserId, id: i64, name: String) -> Result<(), ProfileError>;
    async fn lookup_zip(&self, zip: &str) -> Result<Option<ZipAddress>, ProfileError>;
}

pub struct ProfileService<P, U, M, S, C> {
    profiles: P,
    users: U,
    mailer: M,
    media: S,
    clock: C,
    site: SiteInfo,
    email_change_ttl: Duration,
}

impl<P, U, M, S, C> ProfileService<P, U, M, S, C> {
    pub fn new(
        profiles: P,
        users: U,
        mailer: M,
        media: S,
        clock: C,
        site: SiteInfo,
        email_change_ttl: Duration,
    ) -> Self {
        Self { profiles, users, mailer, media, clock, site, email_change_ttl }
    }
}

#[async_trait::async_trait]
impl<P, U, M, S, C> Profiles for ProfileService<P, U, M, S, C>
where
    P: ProfileRepository,
    U: UserRepository,
    M: Mailer,
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

    async fn request_email_change(&self, user: UserId, new_email: &Email) -> Result<EmailChangeRequest, ProfileError> {
        if let Some((holder, _)) = self.users.find_by_email(new_email).await? {
            let duplicate = holder != user;
            return Ok(EmailChangeRequest { duplicate, not_found: false, sended: false });
        }
        let key = OneTimeKey::generate();
        let new_key = NewKey {
            purpose: KeyPurpose::ChangeEmail,
            key_hash: key.hash.clone(),
            expires_at: self.clock.now() + self.email_change_ttl,
            new_email: Some(new_email.clone()),
        };
        match self.users.replace_key(user, new_key).await {
            Ok(()) => {}
            Err(RepoError::NotFound) => {
                return Ok(EmailChangeRequest { duplicate: false, not_found: true, sended: false })
            }
            Err(other) => return Err(other.into()),
        }
        let mail = self.site.email_change_mail(new_email, &key.plain, self.email_change_ttl);
        self.mailer.send(mail).await.map_err(ProfileError::MailUnavailable)?;
        Ok(EmailChangeRequest { duplicate: false, not_found: false, sended: true })
    }

    async fn confirm_email_change(&self, user: UserId, key: &str) -> Result<Email, ProfileError> {
        if key.trim().is_empty() {
            return Err(ProfileError::InvalidKey);
        }
        let now = self.clock.now();
        match self
            .users
            .redeem_key(hash_key(key.trim()), KeyPurpose::ChangeEmail, now, KeyAction::ChangeEmail { owner: user })
            .await
        {
            Ok(_) => Ok(self.profiles.profile(user, now).await?.email),
            Err(RedeemError::Repo(e)) => Err(e.into()),
            Err(_) => Err(ProfileError::InvalidKey),
        }
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
    use crate::accounts::repository::MockUserRepository;
    use crate::clock::MockClock;
    use crate::mailer::{MockMailer, OutgoingMail};
    use crate::media::{MockMediaStorage, StoredMedia};
    use chrono::TimeZone;
    use domain::account::AccountStatus;
    use std::sync::{Arc, Mutex};

    type Service = ProfileService<MockProfileRepository, MockUserRepository, MockMailer, MockMediaStorage, MockClock>;

    struct Mocks {
        profiles: MockProfileRepository,
        users: MockUserRepository,
        mailer: MockMailer,
        media: MockMediaStorage,
    }

    impl Mocks {
        fn new() -> Self {
            Self {
                profiles: MockProfileRepository::new(),
                users: MockUserRepository::new(),
                mailer: MockMailer::new(),
                media: MockMediaStorage::new(),
            }
        }

        fn service(self) -> Service {
            let mut clock = MockClock::new();
            clock.expect_now().return_const(Utc.with_ymd_and_hms(2026, 11, 25, 12, 0, 0).unwrap());
            let site = SiteInfo {
                site_name: "ぐんまクラウドファンディング".into(),
                public_url: "https://cf.example.jp".into(),
            };
            ProfileService::new(self.profiles, self.users, self.mailer, self.media, clock, site, Duration::hours(24))
        }
    }

    fn email(raw: &str) -> Email {
        Email::parse(raw).unwrap()
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
    async fn an_address_held_by_another_account_is_a_duplicate_and_nothing_is_sent() {
        let mut mocks = Mocks::new();
        mocks.users.expect_find_by_email().returning(|_| Ok(Some((UserId(9), AccountStatus::Member))));
        mocks.mailer.expect_send().never();

        let outcome = mocks.service().request_email_change(UserId(7), &email("taken@example.jp")).await.unwrap();

        assert_eq!(outcome, EmailChangeRequest { duplicate: true, not_found: false, sended: false });
    }

    #[tokio::test]
    async fn an_email_change_mails_a_confirmation_link_to_the_new_address() {
        let mut mocks = Mocks::new();
        mocks.users.expect_find_by_email().returning(|_| Ok(None));
        mocks
            .users
            .expect_replace_key()
            .withf(|user, key| {
                *user == UserId(7)
                    && key.purpose == KeyPurpose::ChangeEmail
                    && key.new_email.as_ref().map(Email::as_str) == Some("new@example.jp")
            })
            .returning(|_, _| Ok(()));
        let sent = Arc::new(Mutex::new(Vec::<OutgoingMail>::new()));
        let sink = Arc::clone(&sent);
        mocks.mailer.expect_send().returning(move |mail| {
            sink.lock().unwrap().push(mail);
            Ok(())
        });

        let outcome = mocks.service().request_email_change(UserId(7), &email("new@example.jp")).await.unwrap();

        assert!(outcome.sended);
        let sent = sent.lock().unwrap();
        assert_eq!(sent[0].to.as_str(), "new@example.jp");
        assert!(sent[0].text_body.contains("/edit/email/updated?activate="));
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
