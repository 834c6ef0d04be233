//! Mass mail from administrators: the form's use case (check, sanitise, store
//! the mail with its recipients and its sending job in one go), the sending
//! job (one recipient at a time, each recorded, paused and resumed across
//! relay outages), the sent-mail list and detail, and the members' opt-out.
//!
//! Delivery guarantee: at most one mail per recipient. A recipient's try is
//! marked in the database before the relay is asked; a try whose outcome was
//! never recorded (the process stopped between the relay's answer and our
//! write) is given up as "unknown" instead of repeated. A relay that cannot
//! be reached answers before it accepts anything, so an outage only pauses the
//! job. See docs/decisions.md.

use chrono::{DateTime, Duration, Utc};
use domain::account::Email;
use domain::ids::{ProjectId, UserId};
use domain::mail::{admin_mail_excerpt, html_to_text, plain_text, MailDraft, MailDraftError, MailSegment};
use serde::{Deserialize, Serialize};

use crate::admin::audit::{AdminActionKind, AuditLog, NewAdminAction};
use crate::clock::Clock;
use crate::html::HtmlSanitizer;
use crate::jobs::{JobQueue, JobTicket};
use crate::mailer::{MailError, RichMail, RichMailer};
use crate::RepoError;

/// The job kind of one mass mail (all its recipients).
pub const SEND_MASS_MAIL: &str = "send_mass_mail";
/// Tries of the job: each relay outage pause and each lease renewal is one.
/// With a pause of 30 s that is more than eight hours of outage.
pub const MASS_MAIL_MAX_ATTEMPTS: u32 = 1000;
/// How long a worker holds a mass mail before another may take it over.
pub const MASS_MAIL_LEASE_SECONDS: i64 = 600;
/// A worker hands the job back (to renew its lease) after this long.
pub const MASS_MAIL_SLICE_SECONDS: i64 = 240;
/// Recipients read per round trip.
pub const MASS_MAIL_BATCH: u32 = 50;
/// Mails per page of the sent-mail list.
pub const MAILS_PER_PAGE: u32 = 20;
/// Why a recipient whose try was cut off is not mailed again.
pub const UNKNOWN_OUTCOME: &str = "送信結果不明（送信中に中断されたため、二重送信を避けて再送していません）";

/// A mail as the job keeps it in the database.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MailStatus {
    Queued,
    Sending,
    Sent,
    Failed,
}

impl MailStatus {
    pub const fn code(self) -> &'static str {
        match self {
            Self::Queued => "queued",
            Self::Sending => "sending",
            Self::Sent => "sent",
            Self::Failed => "failed",
        }
    }

    pub fn from_code(code: &str) -> Option<Self> {
        [Self::Queued, Self::Sending, Self::Sent, Self::Failed].into_iter().find(|s| s.code() == code)
    }

    /// Whether the job is over (the progress bar stops).
    pub const fn is_finished(self) -> bool {
        matches!(self, Self::Sent | Self::Failed)
    }
}

/// A new mass mail, checked and sanitised.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewMassMail {
    pub sender: UserId,
    pub project_id: Option<ProjectId>,
    pub segment: MailSegment,
    pub title: String,
    /// Sanitised HTML.
    pub content: String,
}

/// What storing a mass mail gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreatedMail {
    pub id: i64,
    /// The recipients' addresses, in sending order.
    pub emails: Vec<String>,
}

/// One recipient the job may try now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingRecipient {
    pub id: i64,
    pub user_id: UserId,
    pub email: String,
    /// Tries started so far (the job's compare-and-set value).
    pub attempts: u32,
}

/// A mail as the job reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailToSend {
    pub id: i64,
    pub title: String,
    pub content: String,
    pub segment: MailSegment,
    pub status: MailStatus,
}

/// Sent / failed / total, for the progress bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    pub status: MailStatus,
    pub total: u32,
    pub sent: u32,
    pub failed: u32,
}

/// One line of the sent-mail list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailSummary {
    pub id: i64,
    pub title: String,
    /// The body as stored (sanitised HTML); the excerpt is made from its text.
    pub content: String,
    pub project_id: Option<ProjectId>,
    pub project_title: Option<String>,
    pub sender_email: String,
    pub sender_name: Option<String>,
    pub progress: Progress,
    pub created_at: DateTime<Utc>,
}

/// Where one recipient stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecipientStatus {
    Pending,
    Sent,
    Failed,
}

impl RecipientStatus {
    pub const fn code(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Sent => "sent",
            Self::Failed => "failed",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecipientLine {
    pub email: String,
    pub status: RecipientStatus,
    pub attempts: u32,
    pub error: Option<String>,
    pub sent_at: Option<DateTime<Utc>>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailDetail {
    pub summary: MailSummary,
    pub recipients: Vec<RecipientLine>,
}

/// A page of the sent-mail list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailPage {
    pub mails: Vec<MailSummary>,
    pub total: u64,
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait MassMailRepository: Send + Sync {
    /// How many would receive a mail to `segment` now (opted-out members
    /// left out of `AllMembers`). `NotFound` for an unknown project.
    async fn count_recipients(&self, segment: MailSegment) -> Result<u32, RepoError>;

    /// In ONE transaction: stores the mail (status queued), resolves and
    /// stores its recipients (one row per account, opted-out members left
    /// out of `AllMembers`), and enqueues its sending job of `job_kind`
    /// with payload `{"mail_id": id}`. So a mail is never stored without a
    /// job to send it. `NotFound` for an unknown project.
    async fn create(&self, mail: NewMassMail, job_kind: &str, max_attempts: u32) -> Result<CreatedMail, RepoError>;

    async fn mail_to_send(&self, mail_id: i64) -> Result<Option<MailToSend>, RepoError>;

    /// Marks the mail sending and gives up every try that was started and
    /// never recorded (a worker stopped mid-try), with [`UNKNOWN_OUTCOME`].
    /// Returns how many were given up.
    async fn resume(&self, mail_id: i64) -> Result<u32, RepoError>;

    /// Up to `limit` recipients neither sent, given up nor in a try, in id order.
    async fn pending(&self, mail_id: i64, limit: u32) -> Result<Vec<PendingRecipient>, RepoError>;

    /// Starts a try: counts it and clears the last error, only if the row
    /// still has `attempts` tries and is pending (compare-and-set, so two
    /// workers never both try one recipient). `false` when another took it.
    async fn start_try(&self, recipient_id: i64, attempts: u32) -> Result<bool, RepoError>;

    /// The relay accepted the mail: sent (and counted) once.
    async fn mark_sent(&self, recipient_id: i64, now: DateTime<Utc>) -> Result<(), RepoError>;

    /// The relay could not take it now: pending again, with the error.
    async fn mark_retry(&self, recipient_id: i64, error: &str) -> Result<(), RepoError>;

    /// Never to be tried again (refused for good), counted as failed.
    async fn give_up(&self, recipient_id: i64, error: &str) -> Result<(), RepoError>;

    /// Ends the job: every recipient still pending is given up with
    /// `error` (none when all are done), and the mail gets `status`.
    async fn finish(&self, mail_id: i64, status: MailStatus, error: &str, now: DateTime<Utc>) -> Result<(), RepoError>;

    /// Newest first; `page` counts from 1.
    async fn list(&self, page: u32, per_page: u32) -> Result<MailPage, RepoError>;

    async fn detail(&self, mail_id: i64) -> Result<Option<MailDetail>, RepoError>;

    /// Records the member's opt-out (a repeat changes nothing). `NotFound`
    /// for an unknown account.
    async fn opt_out(&self, user: UserId, now: DateTime<Utc>) -> Result<(), RepoError>;

    /// The account's user name (the seed's `/user/get/byId`); `None` when unknown.
    async fn username(&self, user: UserId) -> Result<Option<(UserId, Option<String>, String)>, RepoError>;
}

/// Signed opt-out links: whoever holds a mail to all members can refuse
/// further ones without logging in, and nobody can opt someone else out.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
pub trait OptOutTokens: Send + Sync {
    /// A token naming `user`; it does not expire (the law wants the link to keep working).
    fn issue(&self, user: UserId) -> String;
    /// The member of a genuine token.
    fn verify(&self, token: &str) -> Option<UserId>;
}

#[derive(Debug, thiserror::Error)]
pub enum MassMailError {
    /// The form's messages, title first.
    #[error("invalid mail")]
    Invalid(Vec<MailDraftError>),
    #[error("unknown project")]
    UnknownProject,
    #[error("nobody to mail")]
    NoRecipients,
    #[error(transparent)]
    Repo(#[from] RepoError),
}

/// A mail as the form hands it in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailForm {
    pub project_id: Option<ProjectId>,
    /// `None`: the project's supporters when a project is chosen, else every member.
    pub to_all_members: Option<bool>,
    pub title: String,
    pub content: String,
}

impl MailForm {
    /// Who the form addresses.
    pub fn segment(&self) -> MailSegment {
        match (self.project_id, self.to_all_members) {
            (Some(project), None | Some(false)) => MailSegment::ProjectSupporters(project),
            _ => MailSegment::AllMembers,
        }
    }
}

/// The screens' use cases.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait MassMails: Send + Sync {
    /// How many the form's choice would reach.
    async fn preview(&self, segment: MailSegment) -> Result<u32, MassMailError>;
    /// Checks, sanitises, stores and queues the mail; records `MailSent`.
    async fn register(&self, sender: UserId, form: MailForm) -> Result<CreatedMail, MassMailError>;
    async fn list(&self, page: u32) -> Result<MailPage, RepoError>;
    async fn detail(&self, mail_id: i64) -> Result<Option<MailDetail>, RepoError>;
    /// `false` for a token that is not genuine.
    async fn opt_out(&self, token: &str) -> Result<bool, RepoError>;
    async fn username(&self, user: UserId) -> Result<Option<(UserId, Option<String>, String)>, RepoError>;
}

pub struct MassMailService<R, S, A, T, C> {
    repo: R,
    sanitizer: S,
    audit: A,
    tokens: T,
    clock: C,
    /// Called after a mail was queued, so a worker in this process starts at once.
    on_queued: Box<dyn Fn() + Send + Sync>,
}

impl<R, S, A, T, C> MassMailService<R, S, A, T, C> {
    pub fn new(
        repo: R,
        sanitizer: S,
        audit: A,
        tokens: T,
        clock: C,
        on_queued: impl Fn() + Send + Sync + 'static,
    ) -> Self {
        Self { repo, sanitizer, audit, tokens, clock, on_queued: Box::new(on_queued) }
    }
}

fn unknown_project(e: RepoError) -> MassMailError {
    match e {
        RepoError::NotFound => MassMailError::UnknownProject,
        RepoError::Constraint(c) if c.to_string().contains("project") => MassMailError::UnknownProject,
        other => MassMailError::Repo(other),
    }
}

#[async_trait::async_trait]
impl<R, S, A, T, C> MassMails for MassMailService<R, S, A, T, C>
where
    R: MassMailRepository,
    S: HtmlSanitizer,
    A: AuditLog,
    T: OptOutTokens,
    C: Clock,
{
    async fn preview(&self, segment: MailSegment) -> Result<u32, MassMailError> {
        self.repo.count_recipients(segment).await.map_err(unknown_project)
    }

    async fn register(&self, sender: UserId, form: MailForm) -> Result<CreatedMail, MassMailError> {
        let segment = form.segment();
        let draft = MailDraft::parse(form.project_id, &form.title, &form.content).map_err(MassMailError::Invalid)?;
        let content = self.sanitizer.sanitize(&draft.content);
        // A body that was only a script is empty once it is cleaned.
        if plain_text(&content).is_empty() && !content.contains("<img") {
            return Err(MassMailError::Invalid(vec![MailDraftError::ContentRequired]));
        }
        if self.repo.count_recipients(segment).await.map_err(unknown_project)? == 0 {
            return Err(MassMailError::NoRecipients);
        }
        let mail = NewMassMail { sender, project_id: draft.project_id, segment, title: draft.title, content };
        let created = self.repo.create(mail, SEND_MASS_MAIL, MASS_MAIL_MAX_ATTEMPTS).await.map_err(unknown_project)?;
        let mut action = NewAdminAction::new(sender, AdminActionKind::MailSent);
        action.mail_id = Some(created.id);
        action.project_id = form.project_id;
        action.detail = serde_json::json!({"recipients": created.emails.len(), "segment": segment.code()});
        // The mail is queued either way; a lost log line must not make the admin send it twice.
        if let Err(e) = self.audit.record(action).await {
            tracing::error!(mail = created.id, error = %e, "mass mail queued but not written to the audit log");
        }
        (self.on_queued)();
        Ok(created)
    }

    async fn list(&self, page: u32) -> Result<MailPage, RepoError> {
        self.repo.list(page.max(1), MAILS_PER_PAGE).await
    }

    async fn detail(&self, mail_id: i64) -> Result<Option<MailDetail>, RepoError> {
        let Some(mut detail) = self.repo.detail(mail_id).await? else {
            return Ok(None);
        };
        // Cleaned again on the way out: a row written by another path never reaches the page with scripts.
        detail.summary.content = self.sanitizer.sanitize(&detail.summary.content);
        Ok(Some(detail))
    }

    async fn opt_out(&self, token: &str) -> Result<bool, RepoError> {
        let Some(user) = self.tokens.verify(token) else {
            return Ok(false);
        };
        match self.repo.opt_out(user, self.clock.now()).await {
            Ok(()) => Ok(true),
            Err(RepoError::NotFound) => Ok(false),
            Err(e) => Err(e),
        }
    }

    async fn username(&self, user: UserId) -> Result<Option<(UserId, Option<String>, String)>, RepoError> {
        self.repo.username(user).await
    }
}

/// The excerpt of the list (95 characters of the body's text).
pub fn excerpt_of(summary: &MailSummary) -> String {
    admin_mail_excerpt(&summary.content)
}

/// What every mass mail says about its sender (特定電子メール法: name, address, contact).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SenderInfo {
    pub site_name: String,
    /// The site's public origin; the opt-out page lives under it.
    pub public_url: String,
    /// `MAIL_SENDER_NAME`: who sends (the operating company).
    pub name: String,
    /// `MAIL_SENDER_ADDRESS`: its postal address; left out when empty.
    pub postal_address: String,
    /// The address replies and questions go to (the From address).
    pub contact: String,
}

/// How one process runs the sending job.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SendingConfig {
    /// Names this process in the queue (host:pid), for operators.
    pub worker: String,
    /// How long a relay outage pauses the job before it tries again.
    pub pause: Duration,
}

/// Sends mass mails: run by the workers of every app-server process.
pub struct MassMailSender<Q, R, M, T, C> {
    queue: Q,
    repo: R,
    relay: M,
    tokens: T,
    clock: C,
    sender: SenderInfo,
    worker: String,
    /// How long a relay outage pauses the job before it tries again.
    pause: Duration,
}

impl<Q, R, M, T, C> MassMailSender<Q, R, M, T, C>
where
    Q: JobQueue,
    R: MassMailRepository,
    M: RichMailer,
    T: OptOutTokens,
    C: Clock,
{
    pub fn new(queue: Q, repo: R, relay: M, tokens: T, clock: C, sender: SenderInfo, config: SendingConfig) -> Self {
        let SendingConfig { worker, pause } = config;
        Self { queue, repo, relay, tokens, clock, sender, worker, pause }
    }

    /// Works on the oldest due mass mail, if any, until it is done, the
    /// relay fails (then it pauses) or its time slice is over (then it
    /// hands the job back). `false` when nothing was due.
    pub async fn run_next(&self) -> Result<bool, RepoError> {
        let lease = Duration::seconds(MASS_MAIL_LEASE_SECONDS);
        let started = self.clock.now();
        let Some(job) = self.queue.claim(SEND_MASS_MAIL, &self.worker, started, lease).await? else {
            return Ok(false);
        };
        let ticket = job.ticket();
        let Some(mail_id) = job.payload.get("mail_id").and_then(serde_json::Value::as_i64) else {
            tracing::error!(job = job.id, "mass mail job without a mail id; given up");
            lost_lease_is_fine(self.queue.fail(ticket, "payload without mail_id", None, started).await)?;
            return Ok(true);
        };
        let Some(mail) = self.repo.mail_to_send(mail_id).await? else {
            lost_lease_is_fine(self.queue.fail(ticket, "mail not found", None, started).await)?;
            return Ok(true);
        };
        if mail.status.is_finished() {
            lost_lease_is_fine(self.queue.succeed(ticket, job.payload.clone(), started).await)?;
            return Ok(true);
        }
        let doubtful = self.repo.resume(mail_id).await?;
        if doubtful > 0 {
            tracing::warn!(mail = mail_id, doubtful, "tries cut off mid-way given up rather than risk a second mail");
        }
        let text = html_to_text(&mail.content);
        loop {
            let batch = self.repo.pending(mail_id, MASS_MAIL_BATCH).await?;
            if batch.is_empty() {
                self.repo.finish(mail_id, MailStatus::Sent, "", self.clock.now()).await?;
                lost_lease_is_fine(self.queue.succeed(ticket, job.payload.clone(), self.clock.now()).await)?;
                tracing::info!(mail = mail_id, "mass mail finished");
                return Ok(true);
            }
            for recipient in batch {
                if !self.repo.start_try(recipient.id, recipient.attempts).await? {
                    continue;
                }
                let outcome = match Email::parse(&recipient.email) {
                    Ok(to) => self.relay.send_rich(self.compose(&mail, &text, &recipient, to)).await,
                    Err(e) => Err(MailError::Rejected(format!("address: {e}"))),
                };
                match outcome {
                    Ok(()) => self.repo.mark_sent(recipient.id, self.clock.now()).await?,
                    Err(MailError::Rejected(e)) => self.repo.give_up(recipient.id, &e).await?,
                    Err(MailError::Uncertain(e)) => {
                        // At most once: the relay may have it, so this recipient is not tried again.
                        tracing::warn!(mail = mail_id, recipient = recipient.id, error = %e, "mass mail outcome unknown");
                        self.repo.give_up(recipient.id, &format!("{UNKNOWN_OUTCOME}: {e}")).await?;
                    }
                    Err(MailError::Delivery(e)) => {
                        self.repo.mark_retry(recipient.id, &e).await?;
                        return self.pause_or_give_up(ticket, &job, mail_id, &e).await;
                    }
                }
            }
            if self.clock.now() - started > Duration::seconds(MASS_MAIL_SLICE_SECONDS) {
                // Handing the job back renews the lease; the next claim goes on from the next recipient.
                lost_lease_is_fine(
                    self.queue.fail(ticket, "time slice over", Some(self.clock.now()), self.clock.now()).await,
                )?;
                return Ok(true);
            }
        }
    }

    async fn pause_or_give_up(
        &self,
        ticket: JobTicket,
        job: &crate::jobs::ClaimedJob,
        mail_id: i64,
        error: &str,
    ) -> Result<bool, RepoError> {
        let now = self.clock.now();
        if job.attempts < job.max_attempts {
            tracing::warn!(mail = mail_id, error, "relay unavailable; mass mail paused");
            lost_lease_is_fine(self.queue.fail(ticket, error, Some(now + self.pause), now).await)?;
        } else {
            self.repo.finish(mail_id, MailStatus::Failed, error, now).await?;
            lost_lease_is_fine(self.queue.fail(ticket, error, None, now).await)?;
        }
        Ok(true)
    }

    fn compose(&self, mail: &MailToSend, text: &str, recipient: &PendingRecipient, to: Email) -> RichMail {
        let s = &self.sender;
        let opt_out = mail
            .segment
            .needs_opt_out()
            .then(|| format!("{}/mail/optout/?token={}", s.public_url, self.tokens.issue(recipient.user_id)));
        let address = if s.postal_address.is_empty() { String::new() } else { format!("\n{}", s.postal_address) };
        let mut text_body =
            format!("{text}\n\n――――――――――\n{}\n{}{address}\nお問い合わせ: {}\n", s.site_name, s.name, s.contact);
        let html_address =
            if s.postal_address.is_empty() { String::new() } else { format!("<br>{}", escape(&s.postal_address)) };
        let mut footer = format!(
            "<hr><p style=\"font-size:12px;color:#555\">{}<br>{}{html_address}<br>お問い合わせ: {}</p>",
            escape(&s.site_name),
            escape(&s.name),
            escape(&s.contact)
        );
        if let Some(url) = &opt_out {
            text_body.push_str(&format!(
                "\n今後このようなお知らせメールが不要な方は、次のページから配信を停止できます。\n{url}\n"
            ));
            footer.push_str(&format!(
                "<p style=\"font-size:12px;color:#555\">今後このようなお知らせメールが不要な方は、\
                 <a href=\"{}\">こちらから配信を停止</a>できます。</p>",
                escape(url)
            ));
        }
        let html_body = format!(
            "<!DOCTYPE html><html lang=\"ja\"><head><meta charset=\"utf-8\"><title>{}</title></head><body>{}{footer}</body></html>",
            escape(&mail.title),
            mail.content
        );
        let host =
            s.public_url.split("://").nth(1).unwrap_or("localhost").split(['/', ':']).next().unwrap_or("localhost");
        RichMail {
            to,
            subject: mail.title.clone(),
            text_body,
            html_body,
            unsubscribe_url: opt_out,
            message_id: format!("<mass-{}-{}@{host}>", mail.id, recipient.id),
        }
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// A worker that held the job past its lease finds it taken by another:
/// that worker owns the outcome now.
fn lost_lease_is_fine(outcome: Result<(), RepoError>) -> Result<(), RepoError> {
    match outcome {
        Err(RepoError::Conflict(reason)) => {
            tracing::warn!(reason, "mass mail job finished after its lease ran out; the newer try decides");
            Ok(())
        }
        other => other,
    }
}

#[cfg(test)]
#[path = "mass_mail_tests.rs"]
mod tests;
