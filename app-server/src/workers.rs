//! Background workers every app-server process runs beside the HTTP server.
//! They share the durable job queue in PostgreSQL, so any number of
//! processes may run them.

use std::sync::Arc;
use std::time::Duration;

use adapters_mail::SmtpMailer;
use adapters_postgres::PgJobQueue;
use ports::clock::SystemClock;
use ports::mailer::MailDelivery;
use tokio::sync::Notify;

/// How often an idle worker looks for work enqueued by another process.
const POLL_INTERVAL: Duration = Duration::from_secs(1);

/// Sends queued mail: at once when this process enqueued it (`wake`), within
/// [`POLL_INTERVAL`] when another one did, and retries on the queue's schedule.
pub fn spawn_mail_delivery(queue: PgJobQueue, relay: SmtpMailer, wake: Arc<Notify>) {
    let worker = format!("{}:{}", hostname(), std::process::id());
    let delivery = MailDelivery::new(queue, relay, SystemClock, worker);
    tokio::spawn(async move {
        loop {
            match delivery.deliver_next().await {
                Ok(true) => continue,
                Ok(false) => {}
                Err(e) => tracing::warn!(error = %e, "mail queue unavailable"),
            }
            // Either this process enqueued a mail or it is time to look again.
            let _ = tokio::time::timeout(POLL_INTERVAL, wake.notified()).await;
        }
    });
}

fn hostname() -> String {
    std::env::var("HOSTNAME").ok().filter(|h| !h.is_empty()).unwrap_or_else(|| "app-server".to_string())
}

/// Brings provider answers that no request recorded to the sales (a crash
/// between the provider and our write, a lost webhook) and cancels bank
/// transfers past their deadline, every `every`. Each sale is changed under
/// its row lock and only forward, so every process may sweep at once: the
/// worst case is a repeated provider read, never a repeated change or mail.
pub fn spawn_payment_sweeps(supports: Arc<dyn ports::payments::support::Supports>, every: Duration) {
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(every);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            match supports.reconcile().await {
                Ok(report) if report.changed > 0 || report.failed > 0 => {
                    tracing::info!(?report, "payments reconciled")
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "payment reconciliation failed"),
            }
            match supports.expire_transfers().await {
                Ok(report) if report.checked > 0 => tracing::info!(?report, "overdue transfers handled"),
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "transfer deadline sweep failed"),
            }
        }
    });
}
