//! Settings from environment variables, with defaults that work on a
//! developer's machine. Secrets are never printed (see `Debug` impls).

use std::path::PathBuf;

use adapters_mail::{SmtpSecurity, SmtpSettings};

use crate::media::MediaBackend;

#[derive(Debug, thiserror::Error)]
#[error("environment variable {name}: {problem}")]
pub struct ConfigError {
    name: &'static str,
    problem: String,
}

#[derive(Clone)]
pub struct Settings {
    pub host: String,
    /// 0 picks a free port (tests).
    pub port: u16,
    pub database_url: String,
    pub database_pool_size: u32,
    /// The site's public origin, used in mailed links; no trailing slash.
    pub public_url: String,
    pub site_name: String,
    pub smtp: SmtpSettings,
    pub activation_ttl_hours: i64,
    pub password_reset_ttl_minutes: i64,
    /// HMAC key of session tokens; shared by every app-server process.
    pub jwt_secret: Vec<u8>,
    /// True when `JWT_SECRET` was unset and `jwt_secret` was made up for this
    /// process (refused in production, see [`Settings::production_problems`]).
    pub jwt_secret_is_ephemeral: bool,
    pub session_ttl_hours: i64,
    pub bcrypt_cost: u32,
    /// Addresses that are administrators (besides grants in the database).
    pub admin_emails: Vec<String>,
    /// Take the client address from X-Forwarded-For (behind a trusted proxy only).
    pub trust_forwarded_for: bool,
    /// Where uploaded images are stored (`media_dir` when local).
    pub media: MediaBackend,
    /// The built frontend (`frontend/dist`); absent means API only.
    pub frontend_dir: PathBuf,
    /// Local media served at `/media/`: demo images, and uploads when the backend is local.
    pub media_dir: PathBuf,
    /// "local", "develop" or "production" (the seed's `env.name`).
    pub site_env: String,
    /// How long public totals, project lists and sponsor walls may be served from memory (milliseconds;
    /// 0 disables the cache). See docs/decisions.md.
    pub catalog_cache_ttl_ms: i64,
    /// Payment provider settings; `None` when unset (then, outside production,
    /// the local fake provider's values).
    pub stripe_secret_key: Option<String>,
    pub stripe_webhook_secret: Option<String>,
    /// `STRIPE_API_BASE`: localstripe locally; unset means Stripe itself.
    pub stripe_api_base: Option<String>,
    /// `STRIPE_PUBLISHABLE_KEY`: what the browser's card library is loaded with (public by design).
    pub stripe_publishable_key: Option<String>,
    /// Image uploads (icons and logos) one user may make per hour.
    pub uploads_per_hour: u32,
    /// A sale left unsettled this long is checked with the provider (`RECONCILE_AFTER_SECONDS`).
    pub reconcile_after_seconds: i64,
    /// How often every process sweeps for such sales and overdue transfers (`PAYMENT_SWEEP_SECONDS`).
    pub payment_sweep_seconds: u64,
    /// Days after its deadline that a cancelled bank transfer's payment stays open at the provider, so that
    /// money sent late still pays it (`TRANSFER_GRACE_DAYS`); then the sweep closes it.
    pub transfer_grace_days: i64,
    /// How long a crashed process's bulk refund waits before another takes it over (`BULK_REFUND_LEASE_SECONDS`).
    pub bulk_refund_lease_seconds: i64,
    /// How often the closing sweep decides projects whose end passed (`CAMPAIGN_CLOSE_SECONDS`; 0 turns it off).
    pub campaign_close_seconds: u64,
    /// The bank's charge for one payout transfer to an owner, in yen (`PAYOUT_TRANSFER_FEE`).
    pub payout_transfer_fee: i64,
    /// A cancelled transfer whose payment is still open is asked about this long after its last check
    /// (`LATE_TRANSFER_CHECK_SECONDS`): a late payment's webhook may have been missed.
    pub late_transfer_check_seconds: i64,
    /// `MAIL_SENDER_NAME`: who sends mass mail (the operator's name, shown in every mass mail's footer).
    pub mail_sender_name: String,
    /// `MAIL_SENDER_ADDRESS`: the operator's postal address for that footer (特定電子メール法); required in production.
    pub mail_sender_address: String,
    /// `MASS_MAIL_PAUSE_SECONDS`: how long a relay outage pauses a mass mail before it tries again.
    pub mass_mail_pause_seconds: i64,
    /// Who runs the site (`OPERATOR_*`): the commercial-transactions notice, the footer, the mails.
    pub operator: ports::accounts::Operator,
    /// Server rendering of the first screen (`FIRST_SCREEN_*`, `NODE_BINARY`).
    pub first_screen: FirstScreenSettings,
}

/// The Node process that renders `/` and `/projects/{slug}/` before they are
/// sent (docs/architecture.md, "First paint").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FirstScreenSettings {
    /// `FIRST_SCREEN_RENDERER`: the app's server bundle; by default
    /// `dist-server/render.js` beside the frontend directory; `off` disables it.
    pub script: Option<PathBuf>,
    /// `NODE_BINARY`: the Node.js executable (default `node` on the `PATH`).
    pub node: String,
    /// `FIRST_SCREEN_TIMEOUT_MS`: a page with no rendering yet waits at most
    /// this long for one, then goes without it (the browser renders it).
    pub timeout_ms: u64,
    /// `FIRST_SCREEN_WORKERS`: how many Node processes render side by side (1-8).
    pub workers: usize,
}

impl std::fmt::Debug for Settings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Settings")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("database_url", &redact_url(&self.database_url))
            .field("public_url", &self.public_url)
            .field("smtp_host", &self.smtp.host)
            .field("smtp_port", &self.smtp.port)
            .field("frontend_dir", &self.frontend_dir)
            .field("media_dir", &self.media_dir)
            .field("site_env", &self.site_env)
            .field("stripe_api_base", &self.stripe_api_base)
            .finish_non_exhaustive()
    }
}

/// Hides the password part of `scheme://user:password@host/...`.
fn redact_url(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme_end), Some(at)) if at > scheme_end => {
            let userinfo = &url[scheme_end + 3..at];
            match userinfo.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &url[..scheme_end + 3], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

fn var(name: &'static str, default: &str) -> String {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty()).unwrap_or_else(|| default.to_string())
}

fn parsed<T: std::str::FromStr>(name: &'static str, default: T) -> Result<T, ConfigError>
where
    T::Err: std::fmt::Display,
{
    match std::env::var(name) {
        Ok(raw) if !raw.trim().is_empty() => {
            raw.trim().parse().map_err(|e: T::Err| ConfigError { name, problem: e.to_string() })
        }
        _ => Ok(default),
    }
}

impl Settings {
    pub fn from_env() -> Result<Self, ConfigError> {
        let port = parsed("APP_PORT", 8080u16)?;
        let security = match var("SMTP_SECURITY", "none").as_str() {
            "none" => SmtpSecurity::None,
            "starttls" => SmtpSecurity::StartTls,
            "tls" => SmtpSecurity::Tls,
            other => {
                return Err(ConfigError {
                    name: "SMTP_SECURITY",
                    problem: format!("{other:?} is not none|starttls|tls"),
                })
            }
        };
        let credentials = match (std::env::var("SMTP_USERNAME"), std::env::var("SMTP_PASSWORD")) {
            (Ok(user), Ok(password)) if !user.is_empty() => Some((user, password)),
            _ => None,
        };
        let site_name = var("SITE_NAME", "ぐんまクラウドファンディング");
        let jwt_secret = jwt_secret()?;
        let frontend_dir = PathBuf::from(var("FRONTEND_DIR", "frontend/dist"));
        Ok(Self {
            host: var("APP_HOST", "127.0.0.1"),
            port,
            database_url: var("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/crowdfunding"),
            database_pool_size: parsed("DATABASE_POOL_SIZE", 10u32)?,
            public_url: var("PUBLIC_URL", &format!("http://127.0.0.1:{port}")).trim_end_matches('/').to_string(),
            smtp: SmtpSettings {
                host: var("SMTP_HOST", "127.0.0.1"),
                port: parsed("SMTP_PORT", 1025u16)?,
                security,
                credentials,
                from: var("MAIL_FROM", &format!("{site_name} <no-reply@example.jp>")),
            },
            site_name,
            activation_ttl_hours: parsed("ACTIVATION_TTL_HOURS", 24i64)?,
            password_reset_ttl_minutes: parsed("PASSWORD_RESET_TTL_MINUTES", 60i64)?,
            jwt_secret_is_ephemeral: jwt_secret.is_none(),
            jwt_secret: jwt_secret.unwrap_or_else(|| {
                tracing::warn!("JWT_SECRET is not set: using a random secret for this process only");
                rand::random::<[u8; 32]>().to_vec()
            }),
            session_ttl_hours: parsed("SESSION_TTL_HOURS", 24i64)?,
            bcrypt_cost: parsed("BCRYPT_COST", 12u32)?,
            admin_emails: var("ADMIN_EMAILS", "")
                .split(',')
                .map(str::trim)
                .filter(|e| !e.is_empty())
                .map(str::to_string)
                .collect(),
            trust_forwarded_for: parsed("TRUST_FORWARDED_FOR", false)?,
            media: media_backend()?,
            frontend_dir: frontend_dir.clone(),
            media_dir: PathBuf::from(var("MEDIA_DIR", ".data/media")),
            site_env: var("SITE_ENV", "local"),
            catalog_cache_ttl_ms: parsed("CATALOG_CACHE_TTL_MS", 3000i64)?,
            stripe_secret_key: optional_var("STRIPE_SECRET_KEY"),
            stripe_webhook_secret: optional_var("STRIPE_WEBHOOK_SECRET"),
            stripe_api_base: optional_var("STRIPE_API_BASE"),
            stripe_publishable_key: optional_var("STRIPE_PUBLISHABLE_KEY"),
            uploads_per_hour: parsed("UPLOADS_PER_HOUR", 20u32)?,
            // Durations are bounded: a chrono Duration out of range panics, at start-up or in a sweep.
            reconcile_after_seconds: parsed("RECONCILE_AFTER_SECONDS", 30i64)?.clamp(0, 86_400),
            payment_sweep_seconds: parsed("PAYMENT_SWEEP_SECONDS", 15u64)?.max(1),
            campaign_close_seconds: parsed("CAMPAIGN_CLOSE_SECONDS", 60u64)?,
            bulk_refund_lease_seconds: parsed("BULK_REFUND_LEASE_SECONDS", ports::admin::refunds::BULK_LEASE_SECONDS)?
                .clamp(1, 86_400),
            payout_transfer_fee: parsed("PAYOUT_TRANSFER_FEE", 0i64)?.clamp(0, 10_000),
            transfer_grace_days: parsed("TRANSFER_GRACE_DAYS", ports::payments::support::TRANSFER_GRACE_DAYS)?
                .clamp(0, 365),
            late_transfer_check_seconds: parsed("LATE_TRANSFER_CHECK_SECONDS", 600i64)?.clamp(0, 86_400),
            mail_sender_name: var("MAIL_SENDER_NAME", &var("SITE_NAME", "ぐんまクラウドファンディング")),
            mail_sender_address: var("MAIL_SENDER_ADDRESS", ""),
            mass_mail_pause_seconds: parsed("MASS_MAIL_PAUSE_SECONDS", 30i64)?.clamp(1, 3600),
            operator: operator(),
            first_screen: FirstScreenSettings {
                script: match var("FIRST_SCREEN_RENDERER", "").as_str() {
                    "off" => None,
                    "" => Some(default_renderer_script(&frontend_dir)),
                    path => Some(PathBuf::from(path)),
                },
                node: var("NODE_BINARY", "node"),
                timeout_ms: parsed("FIRST_SCREEN_TIMEOUT_MS", 1000u64)?.clamp(50, 10_000),
                workers: parsed("FIRST_SCREEN_WORKERS", 2usize)?.clamp(1, 8),
            },
        })
    }
}

/// `frontend/dist-server/render.js` for `frontend/dist`: the server bundle is
/// built beside the browser's, never inside the directory the site serves.
fn default_renderer_script(frontend_dir: &std::path::Path) -> PathBuf {
    frontend_dir.with_file_name("dist-server").join("render.js")
}

/// `MEDIA_BACKEND=local` (default: files under `MEDIA_DIR`, served at
/// `/media/`) or `s3` (`S3_BUCKET`, `S3_REGION`, optional `S3_ENDPOINT` for
/// S3-compatible services, and `MEDIA_PUBLIC_URL` where browsers fetch them).
fn media_backend() -> Result<MediaBackend, ConfigError> {
    match var("MEDIA_BACKEND", "local").as_str() {
        "local" => Ok(MediaBackend::Local),
        "s3" => {
            let required = |name: &'static str| {
                std::env::var(name)
                    .ok()
                    .filter(|v| !v.trim().is_empty())
                    .ok_or(ConfigError { name, problem: "required when MEDIA_BACKEND=s3".into() })
            };
            Ok(MediaBackend::S3 {
                bucket: required("S3_BUCKET")?,
                region: var("S3_REGION", "ap-northeast-1"),
                endpoint: std::env::var("S3_ENDPOINT").ok().filter(|v| !v.is_empty()),
                public_base_url: required("MEDIA_PUBLIC_URL")?,
            })
        }
        other => Err(ConfigError { name: "MEDIA_BACKEND", problem: format!("{other:?} is not local|s3") }),
    }
}

/// `JWT_SECRET` (at least 32 bytes), `None` when unset. Without it a random
/// secret is made for this process: fine for one local server, wrong for
/// several (sessions would not carry over), so it is logged as a warning and
/// refused in production.
fn jwt_secret() -> Result<Option<Vec<u8>>, ConfigError> {
    match std::env::var("JWT_SECRET") {
        Ok(secret) if secret.len() >= 32 => Ok(Some(secret.into_bytes())),
        Ok(secret) if !secret.is_empty() => {
            Err(ConfigError { name: "JWT_SECRET", problem: "must be at least 32 bytes".into() })
        }
        _ => Ok(None),
    }
}

/// `OPERATOR_COMPANY`, `OPERATOR_REPRESENTATIVE`, `OPERATOR_ADDRESS`,
/// `OPERATOR_PHONE`, `OPERATOR_EMAIL`, `OPERATOR_HOURS`; each unset one keeps
/// its placeholder (refused in production, see [`Settings::production_problems`]).
fn operator() -> ports::accounts::Operator {
    let placeholder = ports::accounts::Operator::placeholder();
    let or = |name: &str, default: String| optional_var(name).unwrap_or(default);
    ports::accounts::Operator {
        name: or("OPERATOR_COMPANY", placeholder.name),
        representative: or("OPERATOR_REPRESENTATIVE", placeholder.representative),
        address: or("OPERATOR_ADDRESS", placeholder.address),
        phone: or("OPERATOR_PHONE", placeholder.phone),
        email: or("OPERATOR_EMAIL", placeholder.email),
        hours: or("OPERATOR_HOURS", placeholder.hours),
    }
}

/// The operator settings that still hold a placeholder: the value we ship,
/// a blank, a reserved example domain or an all-zero subscriber number.
fn operator_placeholders(operator: &ports::accounts::Operator) -> Vec<&'static str> {
    let placeholder = ports::accounts::Operator::placeholder();
    let fields = [
        ("OPERATOR_COMPANY", &operator.name, &placeholder.name),
        ("OPERATOR_REPRESENTATIVE", &operator.representative, &placeholder.representative),
        ("OPERATOR_ADDRESS", &operator.address, &placeholder.address),
        ("OPERATOR_PHONE", &operator.phone, &placeholder.phone),
        ("OPERATOR_EMAIL", &operator.email, &placeholder.email),
    ];
    let looks_made_up = |value: &str| {
        let lower = value.to_ascii_lowercase();
        let domain = lower.rsplit_once('@').map(|(_, d)| d.to_string());
        let reserved = domain.is_some_and(|d| {
            d == "example.com" || d == "example.jp" || d.ends_with(".example") || d.ends_with(".invalid")
        });
        reserved || lower.ends_with("-0000")
    };
    fields
        .into_iter()
        .filter(|(_, value, shipped)| value.trim().is_empty() || value == shipped || looks_made_up(value))
        .map(|(name, _, _)| name)
        .collect()
}

fn optional_var(name: &str) -> Option<String> {
    std::env::var(name).ok().map(|v| v.trim().to_string()).filter(|v| !v.is_empty())
}

/// The values `services.sh` writes for localstripe; never valid in production.
const LOCAL_STRIPE_SECRET_KEY: &str = "sk_test_local";
const LOCAL_STRIPE_WEBHOOK_SECRET: &str = "whsec_local";
const LOCAL_STRIPE_PUBLISHABLE_KEY: &str = "pk_test_local";
/// Where Stripe serves Stripe.js.
const STRIPE_JS_URL: &str = "https://js.stripe.com/v3/";

impl Settings {
    /// The provider settings the gateway is built with: the configured ones,
    /// or (outside production, which refuses to start without them) the
    /// local fake provider's.
    pub fn stripe(&self) -> adapters_stripe::StripeSettings {
        adapters_stripe::StripeSettings {
            secret_key: self.stripe_secret_key.clone().unwrap_or_else(|| LOCAL_STRIPE_SECRET_KEY.into()),
            api_base: self.stripe_api_base.clone(),
            webhook_secret: self.stripe_webhook_secret.clone().unwrap_or_else(|| LOCAL_STRIPE_WEBHOOK_SECRET.into()),
            namespace: self.payment_key_namespace(),
        }
    }

    /// What the browser loads the card library with: Stripe.js, or the fake
    /// one the local provider serves beside its API.
    pub fn payment_client(&self) -> adapters_http::PaymentClient {
        let js_url = match self.stripe_api_base.as_deref().filter(|base| is_loopback_url(base)) {
            Some(base) => format!("{}/js.stripe.com/v3/", base.trim_end_matches('/')),
            None => STRIPE_JS_URL.to_string(),
        };
        adapters_http::PaymentClient {
            publishable_key: self.stripe_publishable_key.clone().unwrap_or_else(|| LOCAL_STRIPE_PUBLISHABLE_KEY.into()),
            js_url,
        }
    }

    /// Keeps provider idempotency keys of different databases apart when they
    /// share one provider account (every test database numbers its sales from
    /// 1): the database's name outside production, nothing in production.
    pub fn payment_key_namespace(&self) -> ports::payments::gateway::KeyNamespace {
        if self.is_production() {
            return ports::payments::gateway::KeyNamespace::none();
        }
        let database = self.database_url.rsplit('/').next().unwrap_or_default();
        let database = database.split('?').next().unwrap_or_default().to_ascii_lowercase();
        let cleaned: String =
            database.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).take(40).collect();
        ports::payments::gateway::KeyNamespace::new(&cleaned).unwrap_or_default()
    }
}

/// Every reason the settings are unsafe to serve production with, all at once.
#[derive(Debug, thiserror::Error)]
#[error("refusing to start with SITE_ENV=production:\n{}", .problems.iter().map(|p| format!("  - {p}")).collect::<Vec<_>>().join("\n"))]
pub struct ProductionConfigError {
    pub problems: Vec<String>,
}

impl Settings {
    pub fn is_production(&self) -> bool {
        self.site_env == "production"
    }

    /// One line per setting that is missing or still points at a local
    /// service; empty outside production. The server refuses to start on any
    /// (`check_production`); `migrate` and `seed-demo` do not ask.
    pub fn production_problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        if !self.is_production() {
            return problems;
        }
        if self.mail_sender_address.trim().is_empty() {
            problems.push(
                "MAIL_SENDER_ADDRESS: required (the operator's postal address, printed in every mass mail as \
                 特定電子メール法 requires)"
                    .to_string(),
            );
        }
        if self.jwt_secret_is_ephemeral {
            problems.push(
                "JWT_SECRET: required (at least 32 bytes, the same for every process; otherwise each process \
                 rejects the others' sessions)"
                    .to_string(),
            );
        }
        match self.stripe_secret_key.as_deref() {
            None => problems.push("STRIPE_SECRET_KEY: required (a live key, sk_live_... or rk_live_...)".into()),
            Some(key) if key == LOCAL_STRIPE_SECRET_KEY => {
                problems.push("STRIPE_SECRET_KEY: is the local default; set the live key".into())
            }
            Some(key) if !(key.starts_with("sk_live_") || key.starts_with("rk_live_")) => {
                problems.push("STRIPE_SECRET_KEY: not a live key (expected sk_live_... or rk_live_...)".into())
            }
            Some(_) => {}
        }
        match self.stripe_webhook_secret.as_deref() {
            None => problems.push("STRIPE_WEBHOOK_SECRET: required (the endpoint's whsec_... signing secret)".into()),
            Some(LOCAL_STRIPE_WEBHOOK_SECRET) => {
                problems.push("STRIPE_WEBHOOK_SECRET: is the local default; set the endpoint's signing secret".into())
            }
            Some(_) => {}
        }
        match self.stripe_publishable_key.as_deref() {
            Some(key) if key.starts_with("pk_live_") => {}
            _ => problems.push("STRIPE_PUBLISHABLE_KEY: required (the live publishable key, pk_live_...)".into()),
        }
        if let Some(base) = self.stripe_api_base.as_deref() {
            if is_loopback_url(base) || !base.starts_with("https://") {
                problems.push(format!(
                    "STRIPE_API_BASE: {base} is a local server; unset it (Stripe's own API is the default)"
                ));
            }
        }
        if is_loopback_host(&self.smtp.host) {
            problems.push(format!("SMTP_HOST: {} is this machine; set the mail relay's host", self.smtp.host));
        }
        if !self.public_url.starts_with("https://") {
            problems.push(format!(
                "PUBLIC_URL: {} must be the site's https:// origin (mailed links and cookies depend on it)",
                self.public_url
            ));
        }
        for name in operator_placeholders(&self.operator) {
            problems.push(format!(
                "{name}: still a placeholder; set the operator's real value (shown on /commercial/, in the footer \
                 and in mails)"
            ));
        }
        problems
    }

    /// `Err` listing every problem of [`Self::production_problems`].
    pub fn check_production(&self) -> Result<(), ProductionConfigError> {
        let problems = self.production_problems();
        if problems.is_empty() {
            Ok(())
        } else {
            Err(ProductionConfigError { problems })
        }
    }
}

/// `localhost`, `127.x.x.x`, `::1`, `0.0.0.0` (and bracketed IPv6).
fn is_loopback_host(host: &str) -> bool {
    let host = host.trim().trim_start_matches('[').trim_end_matches(']').to_ascii_lowercase();
    if host == "localhost" || host.ends_with(".localhost") {
        return true;
    }
    host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback() || ip.is_unspecified())
}

/// Whether `scheme://host[:port]/...` names a loopback host.
fn is_loopback_url(url: &str) -> bool {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let authority = authority.rsplit_once('@').map_or(authority, |(_, host)| host);
    let host = if authority.starts_with('[') {
        authority.split_once(']').map_or(authority, |(h, _)| h)
    } else {
        authority.rsplit_once(':').map_or(authority, |(h, _)| h)
    };
    is_loopback_host(host)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_server_bundle_is_looked_for_beside_the_served_directory_not_in_it() {
        assert_eq!(
            default_renderer_script(std::path::Path::new("frontend/dist")),
            PathBuf::from("frontend/dist-server/render.js")
        );
        assert_eq!(
            default_renderer_script(std::path::Path::new("/srv/site/")),
            PathBuf::from("/srv/dist-server/render.js")
        );
    }

    #[test]
    fn database_passwords_are_redacted() {
        assert_eq!(redact_url("postgres://app:s3cret@db:5432/cf"), "postgres://app:***@db:5432/cf");
        assert_eq!(redact_url("postgres://postgres@127.0.0.1/cf"), "postgres://postgres@127.0.0.1/cf");
    }
}

#[cfg(test)]
mod production_tests {
    use super::*;

    /// Settings a real production deployment would have.
    fn production() -> Settings {
        Settings {
            host: "0.0.0.0".into(),
            port: 8080,
            database_url: "postgres://app:pw@db.internal/cf".into(),
            database_pool_size: 10,
            public_url: "https://cf.example.jp".into(),
            site_name: "サイト".into(),
            smtp: SmtpSettings {
                host: "email-smtp.ap-northeast-1.amazonaws.com".into(),
                port: 587,
                security: SmtpSecurity::StartTls,
                credentials: Some(("user".into(), "pw".into())),
                from: "サイト <no-reply@cf.example.jp>".into(),
            },
            activation_ttl_hours: 24,
            password_reset_ttl_minutes: 60,
            jwt_secret: vec![7; 32],
            jwt_secret_is_ephemeral: false,
            session_ttl_hours: 24,
            bcrypt_cost: 12,
            admin_emails: vec![],
            trust_forwarded_for: true,
            media: MediaBackend::Local,
            frontend_dir: "frontend/dist".into(),
            media_dir: ".data/media".into(),
            site_env: "production".into(),
            catalog_cache_ttl_ms: 3000,
            stripe_secret_key: Some("sk_live_abc".into()),
            stripe_webhook_secret: Some("whsec_real".into()),
            stripe_api_base: None,
            stripe_publishable_key: Some("pk_live_abc".into()),
            uploads_per_hour: 20,
            reconcile_after_seconds: 30,
            payment_sweep_seconds: 15,
            transfer_grace_days: 30,
            campaign_close_seconds: 60,
            bulk_refund_lease_seconds: 600,
            payout_transfer_fee: 0,
            late_transfer_check_seconds: 600,
            mail_sender_name: "株式会社サイト".into(),
            mail_sender_address: "群馬県前橋市1-1".into(),
            mass_mail_pause_seconds: 30,
            operator: ports::accounts::Operator {
                name: "上州新報株式会社".into(),
                representative: "代表取締役 上州 一郎".into(),
                address: "〒371-0023 群馬県前橋市本町二丁目2番2号".into(),
                phone: "027-211-1234".into(),
                email: "cf-support@joshu-shinpo.co.jp".into(),
                hours: "平日 10:00〜17:00".into(),
            },
            first_screen: FirstScreenSettings { script: None, node: "node".into(), timeout_ms: 1000, workers: 2 },
        }
    }

    #[test]
    fn production_needs_the_mass_mail_senders_postal_address() {
        let mut s = production();
        s.mail_sender_address = " ".into();
        assert!(s.production_problems().iter().any(|p| p.starts_with("MAIL_SENDER_ADDRESS: required")));
    }

    #[test]
    fn production_refuses_to_start_while_an_operator_detail_is_a_placeholder() {
        let placeholder = ports::accounts::Operator::placeholder();
        type Spoil = fn(&mut ports::accounts::Operator, &ports::accounts::Operator);
        let cases: [(&str, Spoil); 6] = [
            ("OPERATOR_COMPANY", |o, p| o.name = p.name.clone()),
            ("OPERATOR_REPRESENTATIVE", |o, _| o.representative = "  ".into()),
            ("OPERATOR_ADDRESS", |o, p| o.address = p.address.clone()),
            ("OPERATOR_PHONE", |o, _| o.phone = "027-000-0000".into()),
            ("OPERATOR_EMAIL", |o, p| o.email = p.email.clone()),
            ("OPERATOR_EMAIL", |o, _| o.email = "info@shop.example".into()),
        ];
        for (name, spoil) in cases {
            let mut s = production();
            spoil(&mut s.operator, &placeholder);
            let problems = s.production_problems();
            assert_eq!(problems.len(), 1, "{name}: {problems:?}");
            assert!(problems[0].starts_with(&format!("{name}: still a placeholder")), "{problems:?}");
            assert!(s.check_production().is_err());
        }
        let mut s = production();
        s.operator = placeholder;
        assert_eq!(s.production_problems().len(), 5, "every placeholder is listed at once");
    }

    #[test]
    fn outside_production_the_placeholders_are_fine() {
        let mut s = production();
        s.site_env = "local".into();
        s.operator = ports::accounts::Operator::placeholder();
        assert!(s.check_production().is_ok());
    }

    #[test]
    fn the_payment_key_namespace_is_the_databases_name_outside_production() {
        let mut s = production();
        assert_eq!(s.payment_key_namespace(), ports::payments::gateway::KeyNamespace::none());
        s.site_env = "local".into();
        s.database_url = "postgres://postgres@127.0.0.1:5432/test_api_42?sslmode=disable".into();
        assert_eq!(s.payment_key_namespace(), ports::payments::gateway::KeyNamespace::new("test_api_42").unwrap());
    }

    #[test]
    fn the_browser_loads_the_fake_card_library_from_a_local_provider() {
        let mut s = production();
        assert_eq!(s.payment_client().js_url, "https://js.stripe.com/v3/");
        s.stripe_api_base = Some("http://127.0.0.1:8420/".into());
        assert_eq!(s.payment_client().js_url, "http://127.0.0.1:8420/js.stripe.com/v3/");
    }

    #[test]
    fn a_complete_production_configuration_starts() {
        assert_eq!(production().production_problems(), Vec::<String>::new());
        assert!(production().check_production().is_ok());
    }

    #[test]
    fn local_defaults_in_production_are_all_reported_at_once_one_line_each() {
        let mut s = production();
        s.jwt_secret_is_ephemeral = true;
        s.stripe_secret_key = Some("sk_test_local".into());
        s.stripe_webhook_secret = None;
        s.stripe_api_base = Some("http://127.0.0.1:8420/".into());
        s.smtp.host = "127.0.0.1".into();
        s.public_url = "http://127.0.0.1:8080".into();

        let problems = s.production_problems();

        let names: Vec<&str> = problems.iter().map(|p| p.split(':').next().unwrap()).collect();
        assert_eq!(
            names,
            ["JWT_SECRET", "STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET", "STRIPE_API_BASE", "SMTP_HOST", "PUBLIC_URL"]
        );
        assert!(problems.iter().all(|p| !p.contains('\n')));
        let message = s.check_production().unwrap_err().to_string();
        assert_eq!(message.lines().count(), 1 + problems.len(), "{message}");
    }

    #[test]
    fn a_test_mode_payment_key_is_refused_in_production() {
        let mut s = production();
        s.stripe_secret_key = Some("sk_test_51Abc".into());
        assert!(s.production_problems()[0].starts_with("STRIPE_SECRET_KEY: not a live key"));
        s.stripe_secret_key = None;
        assert!(s.production_problems()[0].starts_with("STRIPE_SECRET_KEY: required"));
        s.stripe_secret_key = Some("rk_live_restricted".into());
        assert!(s.production_problems().is_empty());
    }

    #[test]
    fn the_local_webhook_secret_is_refused_in_production() {
        let mut s = production();
        s.stripe_webhook_secret = Some("whsec_local".into());
        assert_eq!(s.production_problems().len(), 1);
    }

    #[test]
    fn loopback_relays_and_payment_servers_are_refused_in_production() {
        for host in ["localhost", "127.0.0.1", "127.1.2.3", "::1", "[::1]", "0.0.0.0"] {
            let mut s = production();
            s.smtp.host = host.into();
            assert_eq!(s.production_problems().len(), 1, "{host}");
        }
        for base in ["http://localhost:8420/", "https://127.0.0.1/", "http://[::1]:8420/", "http://api.stripe.com/"] {
            let mut s = production();
            s.stripe_api_base = Some(base.into());
            assert_eq!(s.production_problems().len(), 1, "{base}");
        }
        let mut s = production();
        s.stripe_api_base = Some("https://api.stripe.com/".into());
        assert!(s.production_problems().is_empty());
    }

    #[test]
    fn a_plain_http_public_url_is_refused_in_production() {
        let mut s = production();
        s.public_url = "http://cf.example.jp".into();
        assert!(s.production_problems()[0].starts_with("PUBLIC_URL:"));
    }

    #[test]
    fn local_and_develop_sites_start_with_local_defaults() {
        for env in ["local", "develop"] {
            let mut s = production();
            s.site_env = env.into();
            s.jwt_secret_is_ephemeral = true;
            s.smtp.host = "127.0.0.1".into();
            s.public_url = "http://127.0.0.1:8080".into();
            assert!(s.check_production().is_ok(), "{env}");
        }
    }
}
