//! The operators' project editing use cases (the project form, the page content, the settings, the news and
//! the manual sponsor list) wired to PostgreSQL, the media storage, the audit log and the HTML sanitiser: one
//! wiring for the admin screens (`startup`) and the demo seed (`demo::author`), so both run the same rules.

use adapters_http::html::AmmoniaSanitizer;
use adapters_postgres::{
    PgAuditLog, PgManualSponsors, PgPool, PgProjectAuthoring, PgProjectContent, PgProjectNews, PgProjectSettings,
};
use ports::admin::content::ContentService;
use ports::admin::news::NewsAuthoring;
use ports::admin::projects::ProjectAuthoring;
use ports::admin::settings::SettingsService;
use ports::admin::sponsors::ManualSponsorService;
use ports::clock::SystemClock;

use crate::media::ObjectMediaStorage;

pub struct ProjectEditing {
    pub projects: ProjectAuthoring<PgProjectAuthoring, PgAuditLog, SystemClock, AmmoniaSanitizer>,
    pub contents: ContentService<PgProjectContent, ObjectMediaStorage, PgAuditLog, SystemClock>,
    pub settings: SettingsService<PgProjectSettings, PgAuditLog, SystemClock>,
    pub news: NewsAuthoring<PgProjectNews, PgAuditLog, SystemClock, AmmoniaSanitizer>,
    pub sponsors: ManualSponsorService<PgManualSponsors, ObjectMediaStorage, PgAuditLog, SystemClock>,
}

impl ProjectEditing {
    /// `public_url` is the site's origin for the news mail's link; `on_news_queued` wakes the mail sender.
    pub fn new(
        pool: &PgPool,
        media: ObjectMediaStorage,
        public_url: String,
        on_news_queued: impl Fn() + Send + Sync + 'static,
    ) -> Self {
        let audit = || PgAuditLog::new(pool.clone());
        Self {
            projects: ProjectAuthoring::new(
                PgProjectAuthoring::new(pool.clone()),
                audit(),
                SystemClock,
                AmmoniaSanitizer::default(),
            ),
            contents: ContentService::new(PgProjectContent::new(pool.clone()), media.clone(), audit(), SystemClock),
            settings: SettingsService::new(PgProjectSettings::new(pool.clone()), audit(), SystemClock),
            news: NewsAuthoring::new(
                PgProjectNews::new(pool.clone()),
                audit(),
                SystemClock,
                AmmoniaSanitizer::default(),
                public_url,
                on_news_queued,
            ),
            sponsors: ManualSponsorService::new(PgManualSponsors::new(pool.clone()), media, audit(), SystemClock),
        }
    }
}
