//! Builds the concrete adapters and the HTTP server. `main` and the API tests
//! both go through `Application::build`, so tests run the real wiring.

use std::net::TcpListener;
use std::path::Path;
use std::sync::Arc;

use actix_files::{Files, NamedFile};
use actix_web::dev::{fn_service, Server, ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, CacheControl, CacheDirective};
use actix_web::middleware::{Compress, DefaultHeaders};
use actix_web::{web, App, HttpResponse, HttpServer};
use adapters_http::auth::{BcryptHasher, JwtTokens};
use adapters_http::{ProxySettings, Services};
use adapters_mail::SmtpMailer;
use adapters_postgres::{PgPool, PgProfileRepository, PgRateLimiter, PgUserRepository};
use ports::accounts::{
    PasswordConfig, PasswordFlows, PasswordService, ProfileService, Profiles, SessionService, Sessions, Signup,
    SignupConfig, SignupService, SiteInfo,
};
use ports::clock::SystemClock;
use ports::rate_limit::RateLimiter;
use tracing_actix_web::TracingLogger;

use crate::config::Settings;
use crate::media::{MediaSettings, ObjectMediaStorage};

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

        spawn_housekeeping(PgRateLimiter::new(pool.clone()));
        let listener = TcpListener::bind((settings.host.as_str(), settings.port))?;
        let port = listener.local_addr()?.port();
        let server = run(listener, pool, &settings)?;
        Ok(Self { port, server })
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// Serves until SIGINT/SIGTERM, then lets in-flight requests finish.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        self.server.await
    }
}

/// Every hour, drops rate-limit windows older than a day. Harmless when
/// several processes do it at once.
fn spawn_housekeeping(limiter: PgRateLimiter) {
    tokio::spawn(async move {
        let mut every_hour = tokio::time::interval(std::time::Duration::from_secs(3600));
        loop {
            every_hour.tick().await;
            match limiter.purge_before(chrono::Utc::now() - chrono::Duration::days(1)).await {
                Ok(purged) => tracing::debug!(purged, "rate-limit windows purged"),
                Err(e) => tracing::warn!(error = %e, "rate-limit purge failed"),
            }
        }
    });
}

fn services(pool: &PgPool, settings: &Settings) -> anyhow::Result<Services> {
    let mailer = SmtpMailer::new(&settings.smtp)?;
    let users = PgUserRepository::new(pool.clone());
    let site = SiteInfo { site_name: settings.site_name.clone(), public_url: settings.public_url.clone() };
    let hasher = BcryptHasher::new(settings.bcrypt_cost);
    let tokens = JwtTokens::new(&settings.jwt_secret, chrono::Duration::hours(settings.session_ttl_hours));

    let signup: Arc<dyn Signup> = Arc::new(SignupService::new(
        users.clone(),
        mailer.clone(),
        SystemClock,
        SignupConfig { site: site.clone(), activation_ttl: chrono::Duration::hours(settings.activation_ttl_hours) },
    ));
    let sessions: Arc<dyn Sessions> =
        Arc::new(SessionService::new(users.clone(), hasher, tokens, SystemClock, &settings.admin_emails));
    let passwords: Arc<dyn PasswordFlows> = Arc::new(PasswordService::new(
        users.clone(),
        hasher,
        mailer.clone(),
        SystemClock,
        Arc::clone(&sessions),
        PasswordConfig {
            site: site.clone(),
            reset_ttl: chrono::Duration::minutes(settings.password_reset_ttl_minutes),
        },
    ));
    let profiles: Arc<dyn Profiles> = Arc::new(ProfileService::new(
        PgProfileRepository::new(pool.clone()),
        users.clone(),
        mailer.clone(),
        ObjectMediaStorage::new(&settings.media)?,
        SystemClock,
        site.clone(),
        chrono::Duration::hours(24),
    ));
    let rate_limiter: Arc<dyn RateLimiter> = Arc::new(PgRateLimiter::new(pool.clone()));
    Ok(Services {
        signup: web::Data::from(signup),
        sessions: web::Data::from(sessions),
        passwords: web::Data::from(passwords),
        profiles: web::Data::from(profiles),
        rate_limiter: web::Data::from(rate_limiter),
        proxy: web::Data::new(ProxySettings { trust_forwarded_for: settings.trust_forwarded_for }),
    })
}

fn run(listener: TcpListener, pool: PgPool, settings: &Settings) -> anyhow::Result<Server> {
    let services = services(&pool, settings)?;
    let pool = web::Data::new(pool);
    let frontend_dir = settings.frontend_dir.clone();
    let media_dir = match &settings.media {
        MediaSettings::Local { dir } => Some(dir.clone()),
        MediaSettings::S3 { .. } => None,
    };
    let server = HttpServer::new(move || {
        let app = App::new()
            .wrap(security_headers())
            .wrap(Compress::default())
            .wrap(TracingLogger::default())
            .app_data(pool.clone())
            .route("/healthz", web::get().to(healthz))
            .route("/readyz", web::get().to(readyz))
            .configure(adapters_http::configure(services.clone()));
        let app = match &media_dir {
            Some(dir) => app.service(media_files(dir)),
            None => app,
        };
        if frontend_dir.join("index.html").is_file() {
            app.service(hashed_assets(&frontend_dir)).service(frontend(&frontend_dir))
        } else {
            app
        }
    })
    .shutdown_timeout(20)
    .listen(listener)?
    .run();
    Ok(server)
}

fn security_headers() -> DefaultHeaders {
    DefaultHeaders::new()
        .add((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .add((header::X_FRAME_OPTIONS, "DENY"))
        .add((header::REFERRER_POLICY, "strict-origin-when-cross-origin"))
}

const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// `assets/` holds only content-hashed files, so browsers may keep them a year.
fn hashed_assets(
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
    web::scope("/assets")
        .wrap(DefaultHeaders::new().add((header::CACHE_CONTROL, IMMUTABLE)))
        .service(Files::new("", dir.join("assets")))
}

/// Uploaded images on local disk. Keys are unique per upload, so a file
/// never changes and browsers may keep it for a year.
fn media_files(
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
        .wrap(DefaultHeaders::new().add((header::CACHE_CONTROL, IMMUTABLE)))
        .service(Files::new("", dir))
}

/// The built single-page app. Any path that is not a file gets `index.html`
/// (revalidated on every visit) so client-side routes load.
fn frontend(dir: &Path) -> Files {
    let index = dir.join("index.html");
    Files::new("/", dir).index_file("index.html").use_etag(true).default_handler(fn_service(
        move |req: ServiceRequest| {
            let index = index.clone();
            async move {
                let (req, _) = req.into_parts();
                let file = NamedFile::open_async(&index).await?;
                let mut res = file.into_response(&req);
                res.headers_mut().insert(header::CACHE_CONTROL, header::HeaderValue::from_static("no-cache"));
                Ok(ServiceResponse::new(req, res))
            }
        },
    ))
}

async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(serde_json_ok())
}

async fn readyz(pool: web::Data<PgPool>) -> HttpResponse {
    let pool = pool.get_ref().clone();
    let ready = web::block(move || adapters_postgres::ping(&pool)).await.unwrap_or(false);
    if ready {
        HttpResponse::Ok().json(serde_json_ok())
    } else {
        HttpResponse::ServiceUnavailable()
            .insert_header(CacheControl(vec![CacheDirective::NoStore]))
            .json(std::collections::HashMap::from([("status", "database unavailable")]))
    }
}

fn serde_json_ok() -> std::collections::HashMap<&'static str, &'static str> {
    std::collections::HashMap::from([("status", "ok")])
}
