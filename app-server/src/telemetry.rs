use tracing_subscriber::{fmt, EnvFilter};

/// Structured logs: JSON lines when `LOG_FORMAT=json` (production), readable
/// text otherwise. `RUST_LOG` filters, default `info`.
pub fn init() {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = fmt().with_env_filter(filter).with_target(false);
    let result = if std::env::var("LOG_FORMAT").as_deref() == Ok("json") {
        builder.json().flatten_event(true).try_init()
    } else {
        builder.try_init()
    };
    // A second init (tests) keeps the first subscriber.
    drop(result);
}
