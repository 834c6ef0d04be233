//! PostgreSQL adapters: the connection pool, embedded migrations, the
//! repository implementations and the in-process cache in front of the
//! public reads. Row types never leave this crate.

mod audit;
mod authoring;
mod cache;
mod cached_catalog;
mod campaign;
mod catalog;
mod dashboard;
mod deliveries;
#[cfg(feature = "demo")]
pub mod demo;
mod error;
mod favourites;
mod follow_mail;
mod jobs;
mod manual_sponsors;
mod mass_mail;
mod moderation;
mod news;
mod payments;
mod pool;
mod prepared;
mod profiles;
mod project_content;
mod project_settings;
mod rate_limit;
mod refunds;
mod rows;
mod sale_receipts;
mod schema;
mod sql_rules;
mod supporter_names;
mod supports;
mod users;

#[cfg(feature = "testing")]
pub mod testing;

pub use audit::PgAuditLog;
pub use authoring::PgProjectAuthoring;
pub use cached_catalog::CachedCatalogRepository;
/// How fresh the public pages promise to be: the first-screen renderer keeps to it too.
pub use cached_catalog::SUPPORT_SHOWS_WITHIN;
pub use campaign::PgCampaigns;
pub use catalog::PgCatalogRepository;
pub use dashboard::PgDashboard;
pub use deliveries::PgDeliveries;
pub use favourites::PgFavourites;
pub use follow_mail::PgFollowMail;
pub use jobs::PgJobQueue;
pub use manual_sponsors::PgManualSponsors;
pub use mass_mail::PgMassMails;
pub use moderation::PgCommentModeration;
pub use news::PgProjectNews;
pub use payments::PgSupportLedger;
pub use pool::{connect, migrate, ping, PgPool, PgReadiness, PoolError};
pub use profiles::PgProfileRepository;
pub use project_content::PgProjectContent;
pub use project_settings::PgProjectSettings;
pub use rate_limit::PgRateLimiter;
pub use refunds::PgRefundLedger;
pub use sale_receipts::PgSaleReceipts;
pub use supporter_names::PgSupporterNames;
pub use supports::PgSupports;
pub use users::PgUserRepository;
