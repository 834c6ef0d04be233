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
            jwt_secret: jwt_secret()?,
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
            frontend_dir: PathBuf::from(var("FRONTEND_DIR", "frontend/dist")),
            media_dir: PathBuf::from(var("MEDIA_DIR", ".data/media")),
            site_env: var("SITE_ENV", "local"),
            catalog_cache_ttl_ms: parsed("CATALOG_CACHE_TTL_MS", 3000i64)?,
        })
    }
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

/// `JWT_SECRET` (at least 32 bytes). Without it a random secret is made for
/// this process: fine for one local server, wrong for several (sessions
/// would not carry over), so it is logged as a warning.
fn jwt_secret() -> Result<Vec<u8>, ConfigError> {
    match std::env::var("JWT_SECRET") {
        Ok(secret) if secret.len() >= 32 => Ok(secret.into_bytes()),
        Ok(secret) if !secret.is_empty() => {
            Err(ConfigError { name: "JWT_SECRET", problem: "must be at least 32 bytes".into() })
        }
        _ => {
            tracing::warn!("JWT_SECRET is not set: using a random secret for this process only");
            Ok(rand::random::<[u8; 32]>().to_vec())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::redact_url;

    #[test]
    fn database_passwords_are_redacted() {
        assert_eq!(redact_url("postgres://app:s3cret@db:5432/cf"), "postgres://app:***@db:5432/cf");
        assert_eq!(redact_url("postgres://postgres@127.0.0.1/cf"), "postgres://postgres@127.0.0.1/cf");
    }
}
