//! Builds the concrete adapters and the HTTP server. `main` and the API tests
//! both go through `Application::build`, so tests run the real wiring.

use std::net::TcpListener;
use std::path::Path;
use std::sync::Arc;

use crate::editing::ProjectEditing;
use crate::first_screen::NodeRenderer;
use actix_files::Files;
use actix_web::dev::{fn_service, Server, ServiceRequest, ServiceResponse};
use actix_web::http::header;
use actix_web::middleware::{Compress, DefaultHeaders};
use actix_web::{web, App, HttpServer};
use adapters_http::auth::{BcryptHasher, JwtTokens};
use adapters_http::html::AmmoniaSanitizer;
use adapters_http::mass_mail::JwtOptOutTokens;
use adapters_http::pages::{self, SpaIndex, SpaPages};
use adapters_http::sale_receipt_tokens::JwtReceiptTokens;
use adapters_http::{ProxySettings, RateLimits, Services, SiteEnv, UserRateSettings};
use adapters_mail::SmtpMailer;
use adapters_postgres::{
    CachedCatalogRepository, PgAuditLog, PgCampaigns, PgCatalogRepository, PgCommentModeration, PgDashboard,
    PgDeliveries, PgFavourites, PgFollowMail, PgJobQueue, PgMassMails, PgPool, PgProfileRepository, PgRateLimiter,
    PgReadiness, PgRefundLedger, PgSaleReceipts, PgSupportLedger, PgSupporterNames, PgSupports, PgUserRepository,
};
use adapters_stripe::StripeGateway;
use ports::accounts::{
    EmailChangeConfig, EmailChangeService, EmailChanges, PasswordConfig, PasswordFlows, PasswordService,
    ProfileService, Profiles, SessionService, Sessions, Signup, SignupConfig, SignupService, SiteInfo,
};
use ports::admin::audit::AuditLog;
use ports::admin::content::ProjectContents;
use ports::admin::dashboard::{AdminDashboard, DashboardService};
use ports::admin::deliveries::{Deliveries, DeliveryService};
use ports::admin::mass_mail::{MassMailSender, MassMailService, MassMails, SenderInfo, SendingConfig};
use ports::admin::moderation::{Moderation, ModerationService};
use ports::admin::news::ProjectNews;
use ports::admin::projects::Projects;
use ports::admin::refunds::{RefundConfig, RefundService, Refunds};
use ports::admin::settings::ProjectSettingsUseCases;
use ports::admin::sponsors::ManualSponsors;
use ports::admin::supporter_names::{SupporterNameService, SupporterNames};
use ports::campaign::closing::{ClosingService, Closings};
use ports::campaign::payouts::{PayoutService, Payouts};
use ports::catalog::{Catalog, CatalogService};
use ports::clock::SystemClock;
use ports::following::mail::{FollowMail, FollowMailService};
use ports::following::{Following, FollowingService};
use ports::health::Readiness;
use ports::mailer::QueuedMailer;
use ports::payments::cards::{CardService, Cards};
use ports::payments::mails::PaymentMails;
use ports::payments::subscriptions::Subscriptions;
use ports::payments::support::{SupportConfig, Supports};
use ports::payments::webhooks::Webhooks;
use ports::payments::PaymentUseCases;
use ports::rate_limit::RateLimiter;
use ports::receipts::{ReceiptLinks, SaleReceiptService, SaleReceipts};
use ports::secrets::RandomKeys;
use tokio::sync::Notify;
use tracing_actix_web::TracingLogger;

use crate::assets::{self, IMMUTABLE};
use crate::config::Settings;
use crate::csp;
use crate::media::ObjectMediaStorage;

pub struct Application {
    port: u16,
    server: Server,
}

impl Application {
    /// Connects to the database, runs pending migrations and binds the port.
    pub async fn build(settings: Settings) -> anyhow::Result<Self> {
        let pool = adapters_postgres::connect(&settings.database_url, settings.database_pool_size)?;
        let migrate_pool = pool.clone();
        let applied = tokio::task::spawn_blocking(move || adapters_postgres::migrate(&migrate_pool)).await??;
        tracing::info!(applied, "database migrations up to date");

        spawn_housekeeping(PgRateLimiter::new(pool.clone()), PgJobQueue::new(pool.clone()));
        let listener = TcpListener::bind((settings.host.as_str(), settings.port))?;
        let port = listener.local_addr()?.port();
        let server = run(listener, pool, &settings)?;
        Ok(Self { port, server })
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// Stops the server from elsewhere (tests stop it before dropping their database).
    pub fn handle(&self) -> actix_web::dev::ServerHandle {
        self.server.handle()
    }

    /// Serves until SIGINT/SIGTERM, then lets in-flight requests finish.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        self.server.await
    }
}

/// Every hour, drops rate-limit windows older than a day. Harmless when
/// several processes do it at once.
fn spawn_housekeeping(limiter: PgRateLimiter, jobs: PgJobQueue) {
    tokio::spawn(async move {
        let mut every_hour = tokio::time::interval(std::time::Duration::from_secs(3600));
        loop {
            every_hour.tick().await;
            let now = chrono::Utc::now();
            match limiter.purge_before(now - chrono::Duration::days(1)).await {
                Ok(purged) => tracing::debug!(purged, "rate-limit windows purged"),
                Err(e) => tracing::warn!(error = %e, "rate-limit purge failed"),
            }
            // Sent mails keep only recipient and subject; after 30 days not even that.
            match jobs.purge_finished(ports::mailer::SEND_MAIL, now - chrono::Duration::days(30)).await {
                Ok(purged) => tracing::debug!(purged, "finished mail jobs purged"),
                Err(e) => tracing::warn!(error = %e, "mail job purge failed"),
            }
        }
    });
}

fn services(pool: &PgPool, settings: &Settings) -> anyhow::Result<Services> {
    // Use cases mail through the durable queue; the worker sends through the relay.
    let queue = PgJobQueue::new(pool.clone());
    let wake = Arc::new(Notify::new());
    crate::workers::spawn_mail_delivery(queue.clone(), SmtpMailer::new(&settings.smtp)?, Arc::clone(&wake));
    let mail_wake = Arc::clone(&wake);
    let mailer = Arc::new(QueuedMailer::new(queue, move || wake.notify_one()));
    let users = PgUserRepository::new(pool.clone());
    let site = SiteInfo {
        site_name: settings.site_name.clone(),
        public_url: settings.public_url.clone(),
        operator: settings.operator.clone(),
    };
    let hasher = BcryptHasher::new(settings.bcrypt_cost)?;
    let tokens = JwtTokens::new(&settings.jwt_secret, chrono::Duration::hours(settings.session_ttl_hours));

    let signup: Arc<dyn Signup> = Arc::new(SignupService::new(
        users.clone(),
        mailer.clone(),
        SystemClock,
        RandomKeys,
        SignupConfig { site: site.clone(), activation_ttl: chrono::Duration::hours(settings.activation_ttl_hours) },
    ));
    let sessions: Arc<dyn Sessions> =
        Arc::new(SessionService::new(users.clone(), hasher.clone(), tokens, SystemClock, &settings.admin_emails));
    let passwords: Arc<dyn PasswordFlows> = Arc::new(PasswordService::new(
        users.clone(),
        hasher.clone(),
        mailer.clone(),
        SystemClock,
        RandomKeys,
        Arc::clone(&sessions),
        PasswordConfig {
            site: site.clone(),
            reset_ttl: chrono::Duration::minutes(settings.password_reset_ttl_minutes),
        },
    ));
    // One storage (and one set of decode slots) for members' and operators' uploads.
    let media = ObjectMediaStorage::new(&settings.media, &settings.media_dir)?;
    let profiles: Arc<dyn Profiles> =
        Arc::new(ProfileService::new(PgProfileRepository::new(pool.clone()), media.clone(), SystemClock));
    let email_changes: Arc<dyn EmailChanges> = Arc::new(EmailChangeService::new(
        users.clone(),
        hasher,
        mailer.clone(),
        SystemClock,
        RandomKeys,
        Arc::clone(&sessions),
        EmailChangeConfig { site: site.clone(), key_ttl: chrono::Duration::hours(24) },
    ));
    let rate_limiter: Arc<dyn RateLimiter> = Arc::new(PgRateLimiter::new(pool.clone()));
    let catalog: Arc<dyn Catalog> = Arc::new(CatalogService::new(
        CachedCatalogRepository::new(
            PgCatalogRepository::new(pool.clone()),
            SystemClock,
            chrono::Duration::milliseconds(settings.catalog_cache_ttl_ms),
        ),
        SystemClock,
        AmmoniaSanitizer::default(),
    ));
    let gateway = Arc::new(StripeGateway::new(&settings.stripe())?);
    let ledger = Arc::new(PgSupportLedger::new(pool.clone()));
    let receipt_tokens = Arc::new(JwtReceiptTokens::new(&settings.jwt_secret));
    let namespace = settings.payment_key_namespace();
    let payments = PaymentUseCases::new(
        Arc::clone(&ledger),
        Arc::clone(&gateway),
        mailer.clone(),
        SystemClock,
        PaymentMails { site: site.clone(), receipt_links: ReceiptLinks::new(receipt_tokens.clone()) },
        SupportConfig {
            namespace: namespace.clone(),
            reconcile_after: chrono::Duration::seconds(settings.reconcile_after_seconds),
            transfer_grace: chrono::Duration::days(settings.transfer_grace_days),
            late_check_after: chrono::Duration::seconds(settings.late_transfer_check_seconds),
            ..SupportConfig::default()
        },
    );
    let supports: Arc<dyn Supports> = payments.supports;
    let webhooks: Arc<dyn Webhooks> = payments.webhooks;
    let subscriptions: Arc<dyn Subscriptions> = payments.subscriptions;
    crate::workers::spawn_payment_sweeps(
        payments.sweeps,
        std::time::Duration::from_secs(settings.payment_sweep_seconds),
    );
    let cards: Arc<dyn Cards> = Arc::new(
        CardService::new(PgSupportLedger::new(pool.clone()), Arc::clone(&gateway), namespace.clone())
            .with_subscriptions(Arc::clone(&subscriptions)),
    );
    let audit: Arc<dyn AuditLog> = Arc::new(PgAuditLog::new(pool.clone()));
    let dashboard: Arc<dyn AdminDashboard> =
        Arc::new(DashboardService::new(PgDashboard::new(pool.clone()), SystemClock));
    let refunds: Arc<dyn Refunds> = Arc::new(RefundService::new(
        PgRefundLedger::new(pool.clone()),
        gateway,
        PgJobQueue::new(pool.clone()),
        mailer.clone(),
        SystemClock,
        Arc::clone(&audit),
        RefundConfig {
            namespace,
            site: site.clone(),
            bulk_lease: chrono::Duration::seconds(settings.bulk_refund_lease_seconds),
        },
    ));
    crate::workers::spawn_refund_work(
        Arc::clone(&refunds),
        std::time::Duration::from_secs(settings.payment_sweep_seconds),
    );
    let closings: Arc<dyn Closings> = Arc::new(
        ClosingService::new(
            PgCampaigns::new(pool.clone()),
            Arc::clone(&refunds),
            mailer.clone(),
            SystemClock,
            site.clone(),
        )
        .with_statements(Arc::new(PgCampaigns::new(pool.clone())), domain::money::Yen(settings.payout_transfer_fee)),
    );
    if settings.campaign_close_seconds > 0 {
        crate::workers::spawn_campaign_closing(
            closings,
            std::time::Duration::from_secs(settings.campaign_close_seconds),
        );
    }
    let payouts: Arc<dyn Payouts> = Arc::new(PayoutService::new(
        PgCampaigns::new(pool.clone()),
        Arc::clone(&audit),
        SystemClock,
        domain::money::Yen(settings.payout_transfer_fee),
    ));
    let mass_mail_wake = Arc::new(Notify::new());
    let news_wake = Arc::clone(&mass_mail_wake);
    let editing = ProjectEditing::new(pool, media, settings.public_url.clone(), move || news_wake.notify_one());
    let projects: Arc<dyn Projects> = Arc::new(editing.projects);
    let project_contents: Arc<dyn ProjectContents> = Arc::new(editing.contents);
    let project_settings: Arc<dyn ProjectSettingsUseCases> = Arc::new(editing.settings);
    let manual_sponsors: Arc<dyn ManualSponsors> = Arc::new(editing.sponsors);
    let news: Arc<dyn ProjectNews> = Arc::new(editing.news);
    let moderation: Arc<dyn Moderation> =
        Arc::new(ModerationService::new(PgCommentModeration::new(pool.clone()), PgAuditLog::new(pool.clone())));
    let supporter_names: Arc<dyn SupporterNames> =
        Arc::new(SupporterNameService::new(PgSupporterNames::new(pool.clone()), PgAuditLog::new(pool.clone())));
    let deliveries: Arc<dyn Deliveries> = Arc::new(DeliveryService::new(
        PgDeliveries::new(pool.clone()),
        PgAuditLog::new(pool.clone()),
        SystemClock,
        site.clone(),
    ));
    let sale_receipts: Arc<dyn SaleReceipts> = Arc::new(SaleReceiptService::new(
        PgSaleReceipts::new(pool.clone()),
        receipt_tokens,
        PgAuditLog::new(pool.clone()),
        SystemClock,
        site.operator.name.clone(),
    ));
    let following: Arc<dyn Following> = Arc::new(FollowingService::new(
        PgFavourites::new(pool.clone()),
        PgSupports::new(pool.clone()),
        Arc::clone(&catalog),
        SystemClock,
    ));
    let mass_mails = mass_mails(pool, settings, mass_mail_wake)?;
    let follow_mail: Arc<dyn FollowMail> = Arc::new(FollowMailService::new(
        PgFollowMail::new(pool.clone()),
        JwtOptOutTokens::new(&settings.jwt_secret),
        SystemClock,
        settings.site_name.clone(),
        settings.public_url.clone(),
        move || mail_wake.notify_one(),
    ));
    crate::workers::spawn_news_mail(Arc::clone(&news), Arc::clone(&follow_mail));
    Ok(Services {
        signup: web::Data::from(signup),
        sessions: web::Data::from(sessions),
        passwords: web::Data::from(passwords),
        profiles: web::Data::from(profiles),
        email_changes: web::Data::from(email_changes),
        rate_limiter: web::Data::from(rate_limiter),
        proxy: web::Data::new(ProxySettings { trust_forwarded_for: settings.trust_forwarded_for }),
        // Read here, not in config.rs: a knob for load and fuzz runs only (see adapters-http rate.rs).
        rate_limits: web::Data::new(RateLimits::from_env().map_err(anyhow::Error::msg)?),
        catalog: web::Data::from(catalog),
        site_env: web::Data::new(SiteEnv { name: settings.site_env.clone(), payment: settings.payment_client() }),
        supports: web::Data::from(supports),
        webhooks: web::Data::from(webhooks),
        cards: web::Data::from(cards),
        subscriptions: web::Data::from(subscriptions),
        receipts: web::Data::new(adapters_http::receipt::Receipts::new(&settings.jwt_secret)),
        audit: web::Data::from(audit),
        dashboard: web::Data::from(dashboard),
        refunds: web::Data::from(refunds),
        payouts: web::Data::from(payouts),
        projects: web::Data::from(projects),
        moderation: web::Data::from(moderation),
        supporter_names: web::Data::from(supporter_names),
        news: web::Data::from(news),
        follow_mail: web::Data::from(follow_mail),
        deliveries: web::Data::from(deliveries),
        sale_receipts: web::Data::from(sale_receipts),
        project_contents: web::Data::from(project_contents),
        project_settings: web::Data::from(project_settings),
        manual_sponsors: web::Data::from(manual_sponsors),
        following: web::Data::from(following),
        mass_mails: web::Data::from(mass_mails),
    })
}

/// The mass-mail screens' use cases and the worker that sends them.
fn mass_mails(pool: &PgPool, settings: &Settings, wake: Arc<Notify>) -> anyhow::Result<Arc<dyn MassMails>> {
    let tokens = JwtOptOutTokens::new(&settings.jwt_secret);
    let contact =
        settings.smtp.from.rsplit_once('<').map_or(settings.smtp.from.as_str(), |(_, a)| a.trim_end_matches('>'));
    let sender = MassMailSender::new(
        PgJobQueue::new(pool.clone()),
        PgMassMails::new(pool.clone()),
        SmtpMailer::new(&settings.smtp)?,
        tokens.clone(),
        SystemClock,
        SenderInfo {
            site_name: settings.site_name.clone(),
            public_url: settings.public_url.clone(),
            name: settings.mail_sender_name.clone(),
            postal_address: settings.mail_sender_address.clone(),
            contact: contact.to_string(),
        },
        SendingConfig {
            worker: crate::workers::worker_name(),
            pause: chrono::Duration::seconds(settings.mass_mail_pause_seconds),
        },
    );
    crate::workers::spawn_mass_mail(sender, Arc::clone(&wake));
    Ok(Arc::new(MassMailService::new(
        PgMassMails::new(pool.clone()),
        AmmoniaSanitizer::default(),
        PgAuditLog::new(pool.clone()),
        tokens,
        SystemClock,
        move || wake.notify_one(),
    )))
}

fn run(listener: TcpListener, pool: PgPool, settings: &Settings) -> anyhow::Result<Server> {
    let services = services(&pool, settings)?;
    let user_rates = web::Data::new(UserRateSettings { uploads_per_hour: settings.uploads_per_hour });
    let frontend_dir = settings.frontend_dir.clone();
    let media_dir = settings.media_dir.clone();
    if let Err(e) = std::fs::create_dir_all(&media_dir) {
        tracing::warn!(error = %e, dir = %media_dir.display(), "media directory not available");
    }
    let csp = header::HeaderValue::from_str(&csp::policy(settings.stripe_api_base.as_deref(), &settings.media))?;
    // The built app's index.html, if there is one (API-only without it).
    let spa = std::fs::read_to_string(frontend_dir.join("index.html")).ok().map(|html| {
        let pages = SpaPages::new(
            SpaIndex::from_html(html).with_site_config(&settings.operator, &settings.public_url),
            &settings.public_url,
            &settings.site_name,
        );
        web::Data::new(match NodeRenderer::from_settings(&settings.first_screen) {
            Some(renderer) => {
                let renderer = Arc::new(renderer);
                let warming = Arc::clone(&renderer);
                tokio::spawn(async move { warming.warm_up().await });
                pages.with_renderer(renderer)
            }
            None => pages,
        })
    });
    let readiness: Arc<dyn Readiness> = Arc::new(PgReadiness::new(pool.clone()));
    let readiness = web::Data::from(readiness);
    let public_url = settings.public_url.clone();
    let server = HttpServer::new(move || {
        let csp = csp.clone();
        let app = App::new()
            .wrap_fn(move |req, srv| {
                let response = actix_web::dev::Service::call(srv, req);
                let csp = csp.clone();
                async move {
                    let mut response = response.await?;
                    if is_html(&response) {
                        response.headers_mut().insert(header::CONTENT_SECURITY_POLICY, csp);
                    }
                    Ok(response)
                }
            })
            .wrap(security_headers())
            .wrap(Compress::default())
            .wrap(TracingLogger::default())
            .app_data(user_rates.clone())
            .app_data(readiness.clone())
            .configure(pages::probes)
            .configure(pages::seo::config(pages::seo::PublicUrl::new(&public_url)))
            .configure(adapters_http::configure(services.clone()))
            .service(media(&media_dir));
        match &spa {
            Some(spa) => app
                .configure(pages::config(spa.clone()))
                .configure(assets::config(&frontend_dir))
                .service(frontend(&frontend_dir, spa.index_html().to_string())),
            None => app,
        }
    })
    .shutdown_timeout(20)
    .listen(listener)?
    .run();
    Ok(server)
}

/// The pages get the Content-Security-Policy; JSON, scripts and images need none.
fn is_html<B>(response: &ServiceResponse<B>) -> bool {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"))
}

fn security_headers() -> DefaultHeaders {
    DefaultHeaders::new()
        .add((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .add((header::X_FRAME_OPTIONS, "DENY"))
        .add((header::REFERRER_POLICY, "strict-origin-when-cross-origin"))
}

/// Local media at `/media/`. Uploads get a fresh key each time, so they
/// never change and browsers may keep them a year; demo images keep their
/// names across reseeding, so a day.
fn media(
    dir: &Path,
) -> actix_web::Scope<
    impl actix_web::dev::ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl actix_web::body::MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    web::scope("/media")
        .wrap_fn(|req, srv| {
            let cache = if req.path().starts_with("/media/demo/") { "public, max-age=86400" } else { IMMUTABLE };
            let response = actix_web::dev::Service::call(srv, req);
            async move {
                let mut response = response.await?;
                response.headers_mut().insert(header::CACHE_CONTROL, header::HeaderValue::from_static(cache));
                Ok(response)
            }
        })
        .service(Files::new("", dir))
}

/// The built single-page app. A path that is not a file gets `index.html`
/// (revalidated on every visit) so client-side routes load: with `200` when
/// a screen of the app handles it, else with `404` (the app shows its
/// not-found screen; see `adapters_http::pages::app_routes`).
fn frontend(dir: &Path, index_html: String) -> Files {
    let index_html = std::sync::Arc::new(index_html);
    Files::new("/", dir).index_file("index.html").use_etag(true).default_handler(fn_service(
        move |req: ServiceRequest| {
            let index_html = std::sync::Arc::clone(&index_html);
            async move {
                let (req, _) = req.into_parts();
                if let Some(res) = pages::unknown_app_path(req.path(), &index_html) {
                    return Ok(ServiceResponse::new(req, res));
                }
                // From memory, not from disk: the page carries the operator's details (`SpaIndex::with_site_config`).
                let res = pages::html_page(actix_web::http::StatusCode::OK, index_html.to_string());
                Ok::<_, actix_web::Error>(ServiceResponse::new(req, res))
            }
        },
    ))
}
