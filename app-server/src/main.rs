//! `app-server` serves the site; `app-server migrate` only applies pending
//! migrations (deploy scripts and `make run` use it before loading data);
//! `app-server seed-demo` loads the demo data and exits (only in builds with
//! the `demo` feature, the default).

use app_server::config::Settings;
use app_server::startup::Application;
use app_server::telemetry;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    telemetry::init();
    let settings = Settings::from_env()?;
    match std::env::args().nth(1).as_deref() {
        None | Some("serve") => serve(settings).await,
        Some("migrate") => {
            let pool = adapters_postgres::connect(&settings.database_url, 1)?;
            let applied = tokio::task::spawn_blocking(move || adapters_postgres::migrate(&pool)).await??;
            tracing::info!(applied, "database migrations up to date");
            Ok(())
        }
        Some("seed-demo") => seed_demo(&settings).await,
        Some(other) => anyhow::bail!("unknown command {other:?}; expected serve, migrate or seed-demo"),
    }
}

#[cfg(feature = "demo")]
async fn seed_demo(settings: &Settings) -> anyhow::Result<()> {
    let counts = app_server::demo::seed(settings).await?;
    println!("demo data loaded (password of every demo account: {}):", app_server::demo::DEMO_PASSWORD);
    for (table, count) in counts.0 {
        println!("  {table:<24} {count}");
    }
    Ok(())
}

/// A production build (`--no-default-features`) carries no demo data.
#[cfg(not(feature = "demo"))]
async fn seed_demo(_settings: &Settings) -> anyhow::Result<()> {
    anyhow::bail!("seed-demo is not built into this binary; build app-server with the `demo` feature (on by default)")
}

async fn serve(settings: Settings) -> anyhow::Result<()> {
    // Before anything else: a production server with local settings must not come up at all.
    if let Err(e) = settings.check_production() {
        eprintln!("app-server: {e}");
        std::process::exit(2);
    }
    tracing::info!(?settings, "starting");
    let app = Application::build(settings).await?;
    tracing::info!(port = app.port(), "listening");
    app.run_until_stopped().await?;
    tracing::info!("stopped");
    Ok(())
}
