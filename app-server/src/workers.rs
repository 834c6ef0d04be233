//! Background workers every app-server process runs beside the HTTP server.
//! Mail and bulk jobs share the durable job queue in PostgreSQL; the payment
//! and open-refund sweeps run on interval timers, each pass safe to run in
//! several processes at once. So any number of processes may run them.

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

/// Sends mass mails, one job at a time per process: at once when this process queued one (`wake`), within
/// [`POLL_INTERVAL`] when another did, and after a relay outage's pause.
pub fn spawn_mass_mail<S>(sender: S, wake: Arc<Notify>)
where
    S: MassMailRunner + Send + Sync + 'static,
{
    tokio::spawn(async move {
        loop {
            match sender.run_next().await {
                Ok(true) => continue,
                Ok(false) => {}
                Err(e) => tracing::warn!(error = %e, "mass mail queue unavailable"),
            }
            let _ = tokio::time::timeout(POLL_INTERVAL, wake.notified()).await;
        }
    });
}

/// What [`spawn_mass_mail`] runs (the generic sender, named once).
#[async_trait::async_trait]
pub trait MassMailRunner {
    async fn run_next(&self) -> Result<bool, ports::RepoError>;
}

#[async_trait::async_trait]
impl<Q, R, M, T, C> MassMailRunner for ports::admin::mass_mail::MassMailSender<Q, R, M, T, C>
where
    Q: ports::jobs::JobQueue,
    R: ports::admin::mass_mail::MassMailRepository,
    M: ports::mailer::RichMailer,
    T: ports::admin::mass_mail::OptOutTokens,
    C: ports::clock::Clock,
{
    async fn run_next(&self) -> Result<bool, ports::RepoError> {
        ports::admin::mass_mail::MassMailSender::run_next(self).await
    }
}

/// The worker's name in the queue (host:pid), for operators.
pub fn worker_name() -> String {
    format!("{}:{}", hostname(), std::process::id())
}

fn hostname() -> String {
    std::env::var("HOSTNAME").ok().filter(|h| !h.is_empty()).unwrap_or_else(|| "app-server".to_string())
}

/// Brings provider answers that no request recorded to the sales (a crash
/// between the provider and our write, a lost webhook, a late transfer),
/// cancels bank transfers past their deadline (closing their payments at the
/// provider once the grace period is over) and stops the monthly supports of
/// ended projects, every `every`. Each sale is changed under
/// its row lock and only forward, so every process may sweep at once: the
/// worst case is a repeated provider read, never a repeated change or mail.
pub fn spawn_payment_sweeps(sweeps: Arc<dyn ports::payments::sweeps::Sweeps>, every: Duration) {
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(every);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            match sweeps.reconcile().await {
                Ok(report) if report.changed > 0 || report.failed > 0 => {
                    tracing::info!(?report, "payments reconciled")
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "payment reconciliation failed"),
            }
            match sweeps.expire_transfers().await {
                Ok(report) if report.checked > 0 => tracing::info!(?report, "overdue transfers handled"),
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "transfer deadline sweep failed"),
            }
            match sweeps.stop_monthly_of_ended_projects().await {
                Ok(report) if report.checked > 0 => {
                    tracing::info!(?report, "monthly supports of ended projects stopped")
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "stop of ended projects' monthly supports failed"),
            }
        }
    });
}

/// Decides the projects whose end passed and does what each result calls
/// for (mails, a failed project's refunds), every `every`. Each decision is
/// written once whichever process gets there first, so every process may
/// run it.
pub fn spawn_campaign_closing(closings: Arc<dyn ports::campaign::closing::Closings>, every: Duration) {
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(every);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            match closings.close_due().await {
                Ok(report) if report.changed > 0 || report.failed > 0 => tracing::info!(?report, "campaigns closed"),
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "campaign closing failed"),
            }
        }
    });
}

/// How often every process looks for news items whose mail became due (a
/// scheduled item that is now public; an item published now is mailed at
/// once) and for kept projects 48 hours before their end.
pub const NEWS_MAIL_SWEEP: Duration = Duration::from_secs(15);

/// Queues the mail of news items that became public and the end notices of
/// kept projects. Any number of processes may run it: each item's mail is
/// queued once, under its row lock, and each end notice once per project and member.
pub fn spawn_news_mail(
    news: Arc<dyn ports::admin::news::ProjectNews>,
    follow_mail: Arc<dyn ports::following::mail::FollowMail>,
) {
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(NEWS_MAIL_SWEEP);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            match news.mail_due().await {
                Ok(0) => {}
                Ok(queued) => tracing::info!(queued, "news mails queued"),
                Err(e) => tracing::warn!(error = %e, "news mail sweep failed"),
            }
            match follow_mail.send_end_notices().await {
                Ok(0) => {}
                Ok(queued) => tracing::info!(queued, "kept-project end notices queued"),
                Err(e) => tracing::warn!(error = %e, "kept-project end notice sweep failed"),
            }
        }
    });
}

/// Runs bulk refunds from the durable queue (any process may take one; a
/// run interrupted by a crash is taken over after its lease and skips what
/// it already did) and, every `sweep_every`, asks the provider again about
/// refunds left open (no answer yet, or waiting for the supporter's bank
/// account).
pub fn spawn_refund_work(refunds: Arc<dyn ports::admin::refunds::Refunds>, sweep_every: Duration) {
    let worker = format!("{}:{}", hostname(), std::process::id());
    tokio::spawn(async move {
        let mut last_sweep = tokio::time::Instant::now();
        loop {
            match refunds.run_next_bulk(&worker).await {
                Ok(true) => continue,
                Ok(false) => {}
                Err(e) => tracing::warn!(error = %e, "bulk refund queue unavailable"),
            }
            if last_sweep.elapsed() >= sweep_every {
                last_sweep = tokio::time::Instant::now();
                match refunds.sweep_open_refunds().await {
                    Ok(0) => {}
                    Ok(changed) => tracing::info!(changed, "open refunds updated"),
                    Err(e) => tracing::warn!(error = %e, "open refund sweep failed"),
                }
                // Reminders and lapses of refunds waiting for a bank account: each pass is safe in any process.
                match refunds.remind_and_lapse().await {
                    Ok(report) if report == Default::default() => {}
                    Ok(report) => tracing::info!(
                        reminded = report.reminded,
                        lapsed = report.lapsed,
                        answered = report.answered,
                        "refunds waiting for an account"
                    ),
                    Err(e) => tracing::warn!(error = %e, "refund reminders failed"),
                }
            }
            tokio::time::sleep(POLL_INTERVAL).await;
        }
    });
}
