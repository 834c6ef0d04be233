//! Outgoing mail: the relay port, and the durable queue every use case
//! mails through.

use chrono::Duration;
use domain::account::Email;
use domain::jobs::{may_retry, retry_delay};
use serde::{Deserialize, Serialize};

use crate::clock::Clock;
use crate::jobs::JobQueue;
use crate::RepoError;

/// One message to one recipient. Bodies are already rendered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutgoingMail {
    pub to: Email,
    pub subject: String,
    pub text_body: String,
}

#[derive(Debug, thiserror::Error)]
pub enum MailError {
    /// The relay could not be reached or asked to try later; a retry may work.
    #[error("mail delivery failed: {0}")]
    Delivery(String),
    /// The relay refused this message for good (e.g. a recipient it will
    /// never accept); retrying cannot help.
    #[error("mail refused: {0}")]
    Rejected(String),
    /// The session broke off where the relay may already have accepted the
    /// message (after the data was sent, before its answer was read):
    /// retrying could mail it twice.
    #[error("mail outcome unknown: {0}")]
    Uncertain(String),
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait Mailer: Send + Sync {
    /// MUST return only after the message is durably accepted (by the relay,
    /// or by the queue for [`QueuedMailer`]), or an error. Not idempotent: a
    /// repeat sends the mail again. `Delivery` means a retry may work,
    /// `Rejected` that it cannot.
    async fn send(&self, mail: OutgoingMail) -> Result<(), MailError>;
}

/// A mail with an HTML and a plain-text part (mass mail). Bodies are already
/// rendered and the HTML sanitised.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RichMail {
    pub to: Email,
    pub subject: String,
    pub text_body: String,
    pub html_body: String,
    /// The opt-out address for the `List-Unsubscribe` header, when the mail must carry one.
    pub unsubscribe_url: Option<String>,
    /// The same for every try of one recipient (`<mass-{mail}-{recipient}@...>`), so a copy the relay
    /// may have delivered twice is recognisable as one message.
    pub message_id: String,
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait RichMailer: Send + Sync {
    /// Sends at once through the relay. MUST return only after the relay
    /// accepted the message, or an error: `Delivery` when the relay did not
    /// take it (unreachable, or a 4xx answer) and a retry may work,
    /// `Rejected` when it refused it for good, `Uncertain` when it may have
    /// taken it. Not idempotent.
    async fn send_rich(&self, mail: RichMail) -> Result<(), MailError>;
}

/// One mailer shared by several use cases.
#[async_trait::async_trait]
impl<M: Mailer + ?Sized> Mailer for std::sync::Arc<M> {
    async fn send(&self, mail: OutgoingMail) -> Result<(), MailError> {
        (**self).send(mail).await
    }
}

/// Tries a mail gets before it is given up (about seven hours of relay outage
/// with the domain's back-off).
pub const MAIL_MAX_ATTEMPTS: u32 = 15;
/// How long a worker may hold a mail before another one may send it.
pub const MAIL_LEASE_SECONDS: i64 = 120;
/// The job kind of one outgoing mail.
pub const SEND_MAIL: &str = "send_mail";

/// A mail as it waits in the queue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct QueuedMail {
    to: Email,
    subject: String,
    text_body: String,
}

/// A mail as the queue keeps it: the payload of a [`SEND_MAIL`] job. For a
/// store that queues a mail in the same transaction as the compare-and-set
/// that records it sent, so that it goes exactly once (the owner's result
/// mail, a refund reminder); [`MailDelivery`] sends it like any other.
pub fn queued_payload(mail: &OutgoingMail) -> serde_json::Value {
    serde_json::json!({ "to": mail.to.as_str(), "subject": mail.subject, "text_body": mail.text_body })
}

/// The `Mailer` the use cases get: a mail is written to the durable job
/// queue (so a request answers as fast whether or not it mails, and a relay
/// outage delays mail but fails nothing); [`MailDelivery`] sends it.
pub struct QueuedMailer<Q> {
    queue: Q,
    /// Called after each enqueue, so a worker in this process starts at once.
    on_enqueued: Box<dyn Fn() + Send + Sync>,
}

impl<Q: JobQueue> QueuedMailer<Q> {
    pub fn new(queue: Q, on_enqueued: impl Fn() + Send + Sync + 'static) -> Self {
        Self { queue, on_enqueued: Box::new(on_enqueued) }
    }
}

#[async_trait::async_trait]
impl<Q: JobQueue> Mailer for QueuedMailer<Q> {
    async fn send(&self, mail: OutgoingMail) -> Result<(), MailError> {
        let OutgoingMail { to, subject, text_body } = mail;
        let payload = serde_json::to_value(QueuedMail { to, subject, text_body })
            .map_err(|e| MailError::Delivery(format!("mail not serialisable: {e}")))?;
        self.queue
            .enqueue(SEND_MAIL, payload, MAIL_MAX_ATTEMPTS)
            .await
            .map_err(|e| MailError::Delivery(format!("mail not queued: {e}")))?;
        (self.on_enqueued)();
        Ok(())
    }
}

/// Sends queued mails through the relay, one per call, with retries.
pub struct MailDelivery<Q, M, C> {
    queue: Q,
    relay: M,
    clock: C,
    worker: String,
}

impl<Q: JobQueue, M: Mailer, C: Clock> MailDelivery<Q, M, C> {
    /// `worker` names this process in the queue (host:pid), for operators.
    pub fn new(queue: Q, relay: M, clock: C, worker: String) -> Self {
        Self { queue, relay, clock, worker }
    }

    /// Sends the oldest due mail, if any; `false` when none was due. A relay
    /// failure queues the mail again with the domain's back-off; after the
    /// last try it stays failed. A sent mail keeps only its recipient and
    /// subject on record (its body may hold a one-time link).
    pub async fn deliver_next(&self) -> Result<bool, RepoError> {
        let lease = Duration::seconds(MAIL_LEASE_SECONDS);
        let Some(job) = self.queue.claim(SEND_MAIL, &self.worker, self.clock.now(), lease).await? else {
            return Ok(false);
        };
        let mail: QueuedMail = match serde_json::from_value(job.payload.clone()) {
            Ok(mail) => mail,
            Err(e) => {
                tracing::error!(job = job.id, error = %e, "queued mail unreadable; given up");
                let error = format!("unreadable payload: {e}");
                lost_lease_is_fine(self.queue.fail(job.ticket(), &error, None, self.clock.now()).await)?;
                return Ok(true);
            }
        };
        let kept = serde_json::json!({"to": mail.to.as_str(), "subject": mail.subject});
        let outgoing = OutgoingMail { to: mail.to, subject: mail.subject, text_body: mail.text_body };
        match self.relay.send(outgoing).await {
            Ok(()) => lost_lease_is_fine(self.queue.succeed(job.ticket(), kept, self.clock.now()).await)?,
            Err(e) => {
                let now = self.clock.now();
                let retryable = matches!(e, MailError::Delivery(_));
                let retry_at =
                    (retryable && may_retry(job.attempts, job.max_attempts)).then(|| now + retry_delay(job.attempts));
                tracing::warn!(job = job.id, attempts = job.attempts, error = %e, retry = retry_at.is_some(), "mail not sent");
                lost_lease_is_fine(self.queue.fail(job.ticket(), &e.to_string(), retry_at, now).await)?;
            }
        }
        Ok(true)
    }
}

/// A worker that held a mail past its lease finds it taken by another: that
/// worker owns the outcome now, so this one leaves it alone.
fn lost_lease_is_fine(outcome: Result<(), RepoError>) -> Result<(), RepoError> {
    match outcome {
        Err(RepoError::Conflict(reason)) => {
            tracing::warn!(reason, "mail finished after its lease ran out; the newer try decides");
            Ok(())
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::MockClock;
    use crate::jobs::{ClaimedJob, JobTicket, MockJobQueue};
    use chrono::{DateTime, TimeZone, Utc};
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 25, 12, 0, 0).unwrap()
    }

    fn clock() -> MockClock {
        let mut clock = MockClock::new();
        clock.expect_now().return_const(now());
        clock
    }

    fn mail() -> OutgoingMail {
        OutgoingMail {
            to: Email::parse("taro@example.jp").unwrap(),
            subject: "件名".into(),
            text_body: "https://cf.example.jp/reset-password/?secret=SECRET".into(),
        }
    }

    fn claimed(attempts: u32) -> ClaimedJob {
        ClaimedJob {
            id: 5,
            kind: SEND_MAIL.into(),
            payload: serde_json::json!({"to": "taro@example.jp", "subject": "件名", "text_body": "本文 secret=SECRET"}),
            attempts,
            max_attempts: MAIL_MAX_ATTEMPTS,
        }
    }

    #[tokio::test]
    async fn sending_writes_the_mail_to_the_queue_and_wakes_the_worker() {
        let mut queue = MockJobQueue::new();
        queue
            .expect_enqueue()
            .withf(|kind, payload, max| {
                kind == SEND_MAIL && payload["to"] == "taro@example.jp" && *max == MAIL_MAX_ATTEMPTS
            })
            .times(1)
            .returning(|_, _, _| Ok(1));
        let woken = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&woken);
        let mailer = QueuedMailer::new(queue, move || {
            counter.fetch_add(1, Ordering::SeqCst);
        });

        mailer.send(mail()).await.unwrap();

        assert_eq!(woken.load(Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn a_queue_that_cannot_store_the_mail_is_a_delivery_error() {
        let mut queue = MockJobQueue::new();
        queue.expect_enqueue().returning(|_, _, _| Err(RepoError::Unexpected(anyhow::anyhow!("database down"))));
        let mailer = QueuedMailer::new(queue, || {});

        assert!(matches!(mailer.send(mail()).await, Err(MailError::Delivery(_))));
    }

    #[tokio::test]
    async fn a_sent_mail_keeps_only_its_recipient_and_subject_on_record() {
        let mut queue = MockJobQueue::new();
        queue.expect_claim().times(1).returning(|_, _, _, _| Ok(Some(claimed(1))));
        queue
            .expect_succeed()
            .withf(|ticket, kept, _| {
                *ticket == JobTicket { id: 5, attempt: 1 }
                    && *kept == serde_json::json!({"to": "taro@example.jp", "subject": "件名"})
            })
            .times(1)
            .returning(|_, _, _| Ok(()));
        let mut relay = MockMailer::new();
        relay.expect_send().withf(|m| m.text_body.contains("secret=SECRET")).times(1).returning(|_| Ok(()));

        let delivered = MailDelivery::new(queue, relay, clock(), "test:1".into()).deliver_next().await.unwrap();

        assert!(delivered);
    }

    #[tokio::test]
    async fn a_relay_outage_queues_the_mail_again_with_back_off() {
        let mut queue = MockJobQueue::new();
        queue.expect_claim().returning(|_, _, _, _| Ok(Some(claimed(3))));
        queue
            .expect_fail()
            .withf(|ticket, _, retry_at, _| ticket.id == 5 && *retry_at == Some(now() + chrono::Duration::seconds(120)))
            .times(1)
            .returning(|_, _, _, _| Ok(()));
        queue.expect_succeed().never();
        let mut relay = MockMailer::new();
        relay.expect_send().returning(|_| Err(MailError::Delivery("connection refused".into())));

        MailDelivery::new(queue, relay, clock(), "test:1".into()).deliver_next().await.unwrap();
    }

    #[tokio::test]
    async fn the_last_failed_try_gives_the_mail_up() {
        let mut queue = MockJobQueue::new();
        queue.expect_claim().returning(|_, _, _, _| Ok(Some(claimed(MAIL_MAX_ATTEMPTS))));
        queue.expect_fail().withf(|_, _, retry_at, _| retry_at.is_none()).times(1).returning(|_, _, _, _| Ok(()));
        let mut relay = MockMailer::new();
        relay.expect_send().returning(|_| Err(MailError::Delivery("connection refused".into())));

        MailDelivery::new(queue, relay, clock(), "test:1".into()).deliver_next().await.unwrap();
    }

    #[tokio::test]
    async fn a_mail_the_relay_refuses_for_good_is_not_retried() {
        let mut queue = MockJobQueue::new();
        queue.expect_claim().returning(|_, _, _, _| Ok(Some(claimed(1))));
        queue.expect_fail().withf(|_, _, retry_at, _| retry_at.is_none()).times(1).returning(|_, _, _, _| Ok(()));
        let mut relay = MockMailer::new();
        relay.expect_send().returning(|_| Err(MailError::Rejected("501 bad recipient".into())));

        MailDelivery::new(queue, relay, clock(), "test:1".into()).deliver_next().await.unwrap();
    }

    #[tokio::test]
    async fn a_worker_whose_lease_ran_out_leaves_the_outcome_to_the_newer_try() {
        let mut queue = MockJobQueue::new();
        queue.expect_claim().returning(|_, _, _, _| Ok(Some(claimed(1))));
        queue
            .expect_succeed()
            .times(1)
            .returning(|_, _, _| Err(RepoError::Conflict("background_jobs_lease_lost".into())));
        let mut relay = MockMailer::new();
        relay.expect_send().returning(|_| Ok(()));

        assert!(MailDelivery::new(queue, relay, clock(), "test:1".into()).deliver_next().await.unwrap());
    }

    #[tokio::test]
    async fn nothing_due_sends_nothing() {
        let mut queue = MockJobQueue::new();
        queue.expect_claim().returning(|_, _, _, _| Ok(None));
        let mut relay = MockMailer::new();
        relay.expect_send().never();

        assert!(!MailDelivery::new(queue, relay, clock(), "test:1".into()).deliver_next().await.unwrap());
    }

    #[test]
    fn a_payload_queued_by_a_store_reads_back_as_the_mail() {
        let mail = OutgoingMail {
            to: Email::parse("owner@example.jp").unwrap(),
            subject: "件名".into(),
            text_body: "本文".into(),
        };
        let read: QueuedMail = serde_json::from_value(queued_payload(&mail)).unwrap();
        assert_eq!((read.to, read.subject, read.text_body), (mail.to, mail.subject, mail.text_body));
    }
}
