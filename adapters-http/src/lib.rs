//! The HTTP API (`/v1/...`, the seeds' contract): routes, request and
//! response DTOs, and the single mapping from use-case errors to statuses.

mod admin;
mod admin_content;
mod admin_deliveries;
mod admin_news;
mod admin_payouts;
mod admin_projects;
mod admin_settings;
mod admin_sponsors;
pub mod auth;
mod cards;
mod comment;
mod constraint;
mod email_change;
mod error;
mod favourites;
mod follow_mail;
mod headers;
pub mod html;
mod ids;
mod information;
pub mod mass_mail;
mod openapi;
pub mod page_data;
pub mod pages;
mod password;
mod payment;
mod profile;
mod project;
mod rate;
pub mod receipt;
mod refunds;
pub mod sale_receipt_tokens;
mod sale_receipts;
mod sales;
mod session;
mod sponsors;
mod subscription;
mod supporter_names;
mod user;
mod wire_names;

use actix_web::web;

pub use error::{
    ApiError, ErrorBody, ExpiredKeyBody, FailedStatus, FieldMessage, LoginFailureBody, PasswordMismatchBody,
};
pub use openapi::MountedRoute;
pub use openapi::{document, document_json};
pub use project::{PaymentClient, SiteEnv};
pub use rate::{ProxySettings, RateLimits, UserRateSettings};

/// Everything the handlers need, as trait objects so this crate never names
/// a concrete adapter.
#[derive(Clone)]
pub struct Services {
    pub signup: web::Data<dyn ports::accounts::Signup>,
    pub sessions: web::Data<dyn ports::accounts::Sessions>,
    pub passwords: web::Data<dyn ports::accounts::PasswordFlows>,
    pub profiles: web::Data<dyn ports::accounts::Profiles>,
    pub email_changes: web::Data<dyn ports::accounts::EmailChanges>,
    pub rate_limiter: web::Data<dyn ports::rate_limit::RateLimiter>,
    pub proxy: web::Data<ProxySettings>,
    pub rate_limits: web::Data<RateLimits>,
    pub catalog: web::Data<dyn ports::catalog::Catalog>,
    pub site_env: web::Data<SiteEnv>,
    pub supports: web::Data<dyn ports::payments::support::Supports>,
    pub webhooks: web::Data<dyn ports::payments::webhooks::Webhooks>,
    pub cards: web::Data<dyn ports::payments::cards::Cards>,
    pub subscriptions: web::Data<dyn ports::payments::subscriptions::Subscriptions>,
    pub receipts: web::Data<receipt::Receipts>,
    pub audit: web::Data<dyn ports::admin::audit::AuditLog>,
    pub dashboard: web::Data<dyn ports::admin::dashboard::AdminDashboard>,
    pub refunds: web::Data<dyn ports::admin::refunds::Refunds>,
    pub payouts: web::Data<dyn ports::campaign::payouts::Payouts>,
    pub projects: web::Data<dyn ports::admin::projects::Projects>,
    pub moderation: web::Data<dyn ports::admin::moderation::Moderation>,
    pub supporter_names: web::Data<dyn ports::admin::supporter_names::SupporterNames>,
    pub news: web::Data<dyn ports::admin::news::ProjectNews>,
    pub follow_mail: web::Data<dyn ports::following::mail::FollowMail>,
    pub deliveries: web::Data<dyn ports::admin::deliveries::Deliveries>,
    pub sale_receipts: web::Data<dyn ports::receipts::SaleReceipts>,
    pub project_contents: web::Data<dyn ports::admin::content::ProjectContents>,
    pub project_settings: web::Data<dyn ports::admin::settings::ProjectSettingsUseCases>,
    pub manual_sponsors: web::Data<dyn ports::admin::sponsors::ManualSponsors>,
    pub following: web::Data<dyn ports::following::Following>,

    pub mass_mails: web::Data<dyn ports::admin::mass_mail::MassMails>,
}

/// Mounts every `/v1` route (the list is `openapi::routes`), with JSON
/// errors for malformed requests, unknown paths and wrong methods.
pub fn configure(services: Services) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg| {
        cfg.app_data(services.signup.clone())
            .app_data(services.sessions.clone())
            .app_data(services.passwords.clone())
            .app_data(services.profiles.clone())
            .app_data(services.email_changes.clone())
            .app_data(services.rate_limiter.clone())
            .app_data(services.proxy.clone())
            .app_data(services.rate_limits.clone())
            .app_data(services.catalog.clone())
            .app_data(services.site_env.clone())
            .app_data(services.supports.clone())
            .app_data(services.webhooks.clone())
            .app_data(services.cards.clone())
            .app_data(services.subscriptions.clone())
            .app_data(services.receipts.clone())
            .app_data(services.audit.clone())
            .app_data(services.dashboard.clone())
            .app_data(services.refunds.clone())
            .app_data(services.payouts.clone())
            .app_data(services.projects.clone())
            .app_data(services.moderation.clone())
            .app_data(services.supporter_names.clone())
            .app_data(services.news.clone())
            .app_data(services.follow_mail.clone())
            .app_data(services.deliveries.clone())
            .app_data(services.sale_receipts.clone())
            .app_data(services.project_contents.clone())
            .app_data(services.project_settings.clone())
            .app_data(services.manual_sponsors.clone())
            .app_data(services.following.clone())
            .app_data(services.mass_mails.clone())
            .service(
                utoipa_actix_web::scope("/v1")
                    .configure(openapi::routes)
                    .app_data(error::json_config())
                    .app_data(error::query_config())
                    .default_service(web::to(error::not_found))
                    .wrap(actix_web::middleware::from_fn(headers::no_store_when_personal)),
            );
    }
}

/// Every route [`configure`] mounts, sorted, read from the generated document: a route is mounted only
/// through `openapi::routes`, which describes it (tests in `openapi`), so the two lists are one.
pub fn mounted_routes() -> Vec<MountedRoute> {
    openapi::mounted_routes()
}

#[cfg(test)]
pub(crate) mod test_support {
    use actix_web::web::Data;
    use ports::accounts::{
        EmailChanges, MockEmailChanges, MockPasswordFlows, MockProfiles, MockSessions, MockSignup, PasswordFlows,
        Profiles, Sessions, Signup,
    };
    use ports::admin::audit::{AuditLog, MockAuditLog};
    use ports::admin::dashboard::{AdminDashboard, MockAdminDashboard};
    use ports::admin::moderation::{MockModeration, Moderation};
    use ports::admin::projects::{MockProjects, Projects};
    use ports::admin::refunds::{MockRefunds, Refunds};
    use ports::receipts::{MockSaleReceipts, SaleReceipts};
    use std::sync::Arc;

    use crate::{ProxySettings, RateLimits, Services, SiteEnv};
    use ports::admin::mass_mail::{MassMails, MockMassMails};
    use ports::catalog::{Catalog, MockCatalog};
    use ports::payments::cards::{Cards, MockCards};
    use ports::payments::subscriptions::{MockSubscriptions, Subscriptions};
    use ports::payments::support::{MockSupports, Supports};
    use ports::payments::webhooks::{MockWebhooks, Webhooks};
    use ports::rate_limit::{MockRateLimiter, RateLimiter};

    /// Services backed by mocks; a rate limiter that always allows.
    pub(crate) struct Mocks {
        pub signup: MockSignup,
        pub sessions: MockSessions,
        pub passwords: MockPasswordFlows,
        pub profiles: MockProfiles,
        pub email_changes: MockEmailChanges,
        pub catalog: MockCatalog,
        pub supports: MockSupports,
        pub webhooks: MockWebhooks,
        pub cards: MockCards,
        pub subscriptions: MockSubscriptions,
        pub audit: MockAuditLog,
        pub dashboard: MockAdminDashboard,
        pub refunds: MockRefunds,
        pub payouts: ports::campaign::payouts::MockPayouts,
        pub projects: MockProjects,
        pub moderation: MockModeration,
        pub supporter_names: ports::admin::supporter_names::MockSupporterNames,
        pub deliveries: ports::admin::deliveries::MockDeliveries,
        pub sale_receipts: MockSaleReceipts,
        pub project_contents: ports::admin::content::MockProjectContents,
        pub project_settings: ports::admin::settings::MockProjectSettingsUseCases,
        pub manual_sponsors: ports::admin::sponsors::MockManualSponsors,
        pub following: ports::following::MockFollowing,
        pub news: ports::admin::news::MockProjectNews,
        pub follow_mail: ports::following::mail::MockFollowMail,

        pub mass_mails: MockMassMails,
    }

    impl Default for Mocks {
        fn default() -> Self {
            Self {
                signup: MockSignup::new(),
                sessions: MockSessions::new(),
                passwords: MockPasswordFlows::new(),
                profiles: MockProfiles::new(),
                email_changes: MockEmailChanges::new(),
                catalog: MockCatalog::new(),
                supports: MockSupports::new(),
                webhooks: MockWebhooks::new(),
                cards: MockCards::new(),
                subscriptions: MockSubscriptions::new(),
                audit: MockAuditLog::new(),
                dashboard: MockAdminDashboard::new(),
                refunds: MockRefunds::new(),
                payouts: ports::campaign::payouts::MockPayouts::new(),
                projects: MockProjects::new(),
                moderation: MockModeration::new(),
                supporter_names: ports::admin::supporter_names::MockSupporterNames::new(),
                deliveries: ports::admin::deliveries::MockDeliveries::new(),
                sale_receipts: MockSaleReceipts::new(),
                project_contents: ports::admin::content::MockProjectContents::new(),
                project_settings: ports::admin::settings::MockProjectSettingsUseCases::new(),
                manual_sponsors: ports::admin::sponsors::MockManualSponsors::new(),
                following: ports::following::MockFollowing::new(),
                news: ports::admin::news::MockProjectNews::new(),
                follow_mail: ports::following::mail::MockFollowMail::new(),

                mass_mails: MockMassMails::new(),
            }
        }
    }

    impl Mocks {
        pub(crate) fn into_services(self) -> Services {
            let mut limiter = MockRateLimiter::new();
            limiter.expect_hit().returning(|_, _| Ok(1));
            let signup: Arc<dyn Signup> = Arc::new(self.signup);
            let sessions: Arc<dyn Sessions> = Arc::new(self.sessions);
            let passwords: Arc<dyn PasswordFlows> = Arc::new(self.passwords);
            let profiles: Arc<dyn Profiles> = Arc::new(self.profiles);
            let email_changes: Arc<dyn EmailChanges> = Arc::new(self.email_changes);
            let rate_limiter: Arc<dyn RateLimiter> = Arc::new(limiter);
            let catalog: Arc<dyn Catalog> = Arc::new(self.catalog);
            let supports: Arc<dyn Supports> = Arc::new(self.supports);
            let webhooks: Arc<dyn Webhooks> = Arc::new(self.webhooks);
            let cards: Arc<dyn Cards> = Arc::new(self.cards);
            let subscriptions: Arc<dyn Subscriptions> = Arc::new(self.subscriptions);
            let audit: Arc<dyn AuditLog> = Arc::new(self.audit);
            let dashboard: Arc<dyn AdminDashboard> = Arc::new(self.dashboard);
            let refunds: Arc<dyn Refunds> = Arc::new(self.refunds);
            let payouts: Arc<dyn ports::campaign::payouts::Payouts> = Arc::new(self.payouts);
            let projects: Arc<dyn Projects> = Arc::new(self.projects);
            let moderation: Arc<dyn Moderation> = Arc::new(self.moderation);
            let supporter_names: Arc<dyn ports::admin::supporter_names::SupporterNames> =
                Arc::new(self.supporter_names);
            let deliveries: Arc<dyn ports::admin::deliveries::Deliveries> = Arc::new(self.deliveries);
            let sale_receipts: Arc<dyn SaleReceipts> = Arc::new(self.sale_receipts);
            let project_contents: Arc<dyn ports::admin::content::ProjectContents> = Arc::new(self.project_contents);
            let project_settings: Arc<dyn ports::admin::settings::ProjectSettingsUseCases> =
                Arc::new(self.project_settings);
            let manual_sponsors: Arc<dyn ports::admin::sponsors::ManualSponsors> = Arc::new(self.manual_sponsors);
            let following: Arc<dyn ports::following::Following> = Arc::new(self.following);
            let news: Arc<dyn ports::admin::news::ProjectNews> = Arc::new(self.news);
            let follow_mail: Arc<dyn ports::following::mail::FollowMail> = Arc::new(self.follow_mail);

            let mass_mails: Arc<dyn MassMails> = Arc::new(self.mass_mails);
            Services {
                signup: Data::from(signup),
                sessions: Data::from(sessions),
                passwords: Data::from(passwords),
                profiles: Data::from(profiles),
                email_changes: Data::from(email_changes),
                rate_limiter: Data::from(rate_limiter),
                proxy: Data::new(ProxySettings::default()),
                rate_limits: Data::new(RateLimits::default()),
                catalog: Data::from(catalog),
                site_env: Data::new(SiteEnv { name: "local".into(), payment: crate::project::PaymentClient::local() }),
                supports: Data::from(supports),
                webhooks: Data::from(webhooks),
                cards: Data::from(cards),
                subscriptions: Data::from(subscriptions),
                receipts: Data::new(crate::receipt::Receipts::new(b"test-secret")),
                audit: Data::from(audit),
                dashboard: Data::from(dashboard),
                refunds: Data::from(refunds),
                payouts: Data::from(payouts),
                projects: Data::from(projects),
                moderation: Data::from(moderation),
                supporter_names: Data::from(supporter_names),
                deliveries: Data::from(deliveries),
                sale_receipts: Data::from(sale_receipts),
                project_contents: Data::from(project_contents),
                project_settings: Data::from(project_settings),
                manual_sponsors: Data::from(manual_sponsors),
                following: Data::from(following),
                news: Data::from(news),
                follow_mail: Data::from(follow_mail),

                mass_mails: Data::from(mass_mails),
            }
        }
    }
}
