use app_server::config::Settings;
use app_server::startup::Application;
use app_server::telemetry;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    telemetry::init();
    let settings = Settings::from_env()?;
    tracing::info!(?settings, "starting");
    let app = Application::build(settings).await?;
    tracing::info!(port = app.port(), "listening");
    app.run_until_stopped().await?;
    tracing::info!("stopped");
    Ok(())
}
