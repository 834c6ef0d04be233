//! `app-server` serves the site; `app-server migrate` only applies pending
//! migrations (deploy scripts and `make run` use it before loading data);
//! `app-server seed-demo` loads the demo data and exits (only in builds with
//! the `demo` feature, the default); `app-server reconcile` prints our paid
//! figures beside the provider's, per project, and exits 1 when they differ.

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
        Some("reconcile") => {
            let differences = reconcile(&settings).await?;
            if differences > 0 {
                std::process::exit(1);
            }
            Ok(())
        }
        Some(other) => anyhow::bail!("unknown command {other:?}; expected serve, migrate, seed-demo or reconcile"),
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

/// Sales read from the database per page of the reconcile report.
const RECONCILE_PAGE: i64 = 500;

/// Prints, per project, the paid totals on each side and the sales on which
/// they disagree; the last line is `differences: N`. Returns N.
async fn reconcile(settings: &Settings) -> anyhow::Result<usize> {
    use ports::payments::report::{reconcile_report, ProviderView, UnknownPayments};

    let pool = adapters_postgres::connect(&settings.database_url, 2)?;
    let ledger = adapters_postgres::PgSupportLedger::new(pool.clone());
    let gateway = adapters_stripe::StripeGateway::new(&settings.stripe())?;
    // Outside production a database may hold payments never made at this provider: the demo data's, or those of
    // a local provider restarted empty. Listed apart there; in production every unknown payment is a difference.
    let unknown = if settings.is_production() { UnknownPayments::Difference } else { UnknownPayments::ListApart };
    let report = reconcile_report(&ledger, &gateway, unknown, RECONCILE_PAGE).await?;
    println!("{:>8}  {:>14}  {:>14}  {:>11}  project", "id", "raised (ours)", "raised (provider)", "differences");
    for project in &report.projects {
        println!(
            "{:>8}  {:>14}  {:>14}  {:>11}  {}",
            project.project.get(),
            project.ours.to_string(),
            project.provider.to_string(),
            project.differences,
            project.title
        );
    }
    for d in &report.differences {
        let there = match d.provider {
            ProviderView::Payment { status, received, refunded } => {
                format!("{status:?}, received {received}, refunded {refunded}")
            }
            ProviderView::Unknown => "unknown at the provider".to_string(),
        };
        println!(
            "difference: sale {} ({}): ours {}, {}, refunded {}; provider {there}",
            d.sale,
            d.payment,
            d.status.as_str(),
            d.total,
            d.refunded
        );
    }
    if !report.unknown.is_empty() {
        let ids: Vec<String> = report.unknown.iter().map(|d| d.sale.to_string()).collect();
        let paid: i64 = report
            .unknown
            .iter()
            .filter(|d| d.status == domain::payment::SaleStatus::Succeeded)
            .map(|d| d.total.0)
            .sum();
        println!(
            "not at this provider, left out of the figures (demo data, or a local provider restarted empty): \
             {} sales, {} paid here (sales {})",
            ids.len(),
            domain::money::Yen(paid),
            ids.join(", ")
        );
    }
    if !report.unclaimed.is_empty() {
        let kept: i64 = report.unclaimed.iter().map(|(_, _, amount)| amount.0).sum();
        println!(
            "unclaimed refunds (6 months unanswered, cancelled at the provider; kept by the company per the terms): \
             {} refunds, {}",
            report.unclaimed.len(),
            domain::money::Yen(kept)
        );
        for (sale, project, amount) in &report.unclaimed {
            println!("unclaimed: sale {sale} of project {}: {amount}", project.get());
        }
    }
    for d in &report.subscription_differences {
        let there = match d.provider {
            Some((status, months)) => format!("{}, {months} paid months", status.as_str()),
            None => "unknown at the provider".to_string(),
        };
        println!(
            "difference: monthly support {} ({}): ours {}, {} paid months; provider {there}",
            d.id,
            d.subscription,
            d.status.as_str(),
            d.months_paid
        );
    }
    let unbalanced = payout_statements(&pool, settings).await?;
    let differences = report.differences.len() + report.subscription_differences.len() + unbalanced;
    println!("differences: {differences}");
    Ok(differences)
}

/// Prints every successful project's current payout statement; returns how
/// many do not account for every yen (paid less refunds less fees = payout).
async fn payout_statements(pool: &adapters_postgres::PgPool, settings: &Settings) -> anyhow::Result<usize> {
    use ports::campaign::payouts::{current_statement, PayoutStore};

    let store = adapters_postgres::PgCampaigns::new(pool.clone());
    let mut unbalanced = 0;
    println!("{:>8}  {:>14}  {:>12}  {:>14}  {:>12}  payout statement", "id", "confirmed", "fee", "payout", "owed");
    for facts in store.successful().await? {
        let view = current_statement(facts, domain::money::Yen(settings.payout_transfer_fee));
        let f = view.figures;
        let ok = f.balances() && view.paid.iter().all(|p| p.figures.balances());
        if !ok {
            unbalanced += 1;
        }
        println!(
            "{:>8}  {:>14}  {:>12}  {:>14}  {:>12}  {} ({}){}",
            view.project.get(),
            f.confirmed.to_string(),
            f.platform_fee.to_string(),
            f.payout.to_string(),
            f.owed_by_owner.to_string(),
            view.title,
            view.status.label(),
            if ok { "" } else { "  DIFFERENCE: the figures do not balance" }
        );
    }
    Ok(unbalanced)
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
