//! Mail to members about the projects they keep (お気に入り): a member-level
//! opt-in, and the mail 48 hours before a kept project ends, queued once per
//! project and member. Kept projects' news reach opted-in members with the
//! news mail itself (`admin::news`), one mail per account. Every such mail
//! carries the one-click opt-out link, and members in `mail_opt_outs` get none.

use chrono::{DateTime, NaiveDate, Utc};
use domain::account::Email;
use domain::ids::{ProjectId, UserId};
use domain::project::{closing_time, end_notice_due, END_NOTICE_HOURS};
use domain::time::{tokyo_date, tokyo_datetime};

use crate::admin::mass_mail::OptOutTokens;
use crate::clock::Clock;
use crate::mailer::OutgoingMail;
use crate::RepoError;

/// End notices queued per sweep; the rest wait for the next one.
pub const END_NOTICES_PER_SWEEP: u32 = 200;

/// A kept project about to end, and the member to tell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndNoticeCandidate {
    pub project: ProjectId,
    pub user: UserId,
    pub email: String,
    pub title: String,
    pub slug: String,
    pub period_end: NaiveDate,
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait FollowMailStore: Send + Sync {
    /// Whether the member asked for mail about kept projects (false when never set).
    async fn opted_in(&self, user: UserId) -> Result<bool, RepoError>;

    /// Sets the member's choice; a repeat changes nothing. `NotFound` for an unknown account.
    async fn set_opted_in(&self, user: UserId, on: bool, now: DateTime<Utc>) -> Result<(), RepoError>;

    /// Public projects whose last day is between `from` and `to` (Tokyo dates), kept by members who opted in
    /// and are not in `mail_opt_outs`, without an end notice yet; at most `limit`, oldest end first.
    async fn end_notice_candidates(
        &self,
        from: NaiveDate,
        to: NaiveDate,
        now: DateTime<Utc>,
        limit: u32,
    ) -> Result<Vec<EndNoticeCandidate>, RepoError>;

    /// In ONE transaction: records that (`project`, `user`) was told and queues `mail` as a `send_mail` job.
    /// MUST change nothing and return `false` when the notice was recorded before, so a repeat never mails twice.
    async fn queue_end_notice(
        &self,
        project: ProjectId,
        user: UserId,
        mail: &OutgoingMail,
        now: DateTime<Utc>,
    ) -> Result<bool, RepoError>;
}

/// My page's setting and the end-notice sweep.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait FollowMail: Send + Sync {
    async fn opted_in(&self, user: UserId) -> Result<bool, RepoError>;
    /// Answers the setting as stored.
    async fn set_opted_in(&self, user: UserId, on: bool) -> Result<bool, RepoError>;
    /// Queues the end notices due now; returns how many. Any number of processes may run it.
    async fn send_end_notices(&self) -> Result<u32, RepoError>;
}

pub struct FollowMailService<S, T, C> {
    store: S,
    tokens: T,
    clock: C,
    site_name: String,
    public_url: String,
    /// Called after mail was queued, so a mail worker in this process starts at once.
    on_queued: Box<dyn Fn() + Send + Sync>,
}

impl<S, T, C> FollowMailService<S, T, C> {
    pub fn new(
        store: S,
        tokens: T,
        clock: C,
        site_name: String,
        public_url: String,
        on_queued: impl Fn() + Send + Sync + 'static,
    ) -> Self {
        Self { store, tokens, clock, site_name, public_url, on_queued: Box::new(on_queued) }
    }
}

impl<S: FollowMailStore, T: OptOutTokens, C: Clock> FollowMailService<S, T, C> {
    fn end_mail(&self, candidate: &EndNoticeCandidate, to: Email) -> OutgoingMail {
        let closes = closing_time(candidate.period_end).format("%-m月%-d日 %H:%M");
        let url = format!("{}/projects/{}/", self.public_url, candidate.slug);
        let opt_out = format!("{}/mail/optout/?token={}", self.public_url, self.tokens.issue(candidate.user));
        OutgoingMail {
            to,
            subject: format!("【{}】お気に入りのプロジェクトがまもなく終了します", self.site_name),
            text_body: format!(
                "お気に入りに登録されているプロジェクト「{}」の募集は、{closes}に終了します。\n\
                 ご支援を考えている方はお早めにどうぞ。\n{url}\n\n\
                 このメールは、マイページの「お気に入りのプロジェクトについてメールで受け取る」を選んだ方にお送りしています。\n\
                 今後このようなお知らせメールが不要な方は、次のページから配信を停止できます。\n{opt_out}\n",
                candidate.title
            ),
        }
    }
}

#[async_trait::async_trait]
impl<S: FollowMailStore, T: OptOutTokens, C: Clock> FollowMail for FollowMailService<S, T, C> {
    async fn opted_in(&self, user: UserId) -> Result<bool, RepoError> {
        self.store.opted_in(user).await
    }

    async fn set_opted_in(&self, user: UserId, on: bool) -> Result<bool, RepoError> {
        self.store.set_opted_in(user, on, self.clock.now()).await?;
        self.store.opted_in(user).await
    }

    async fn send_end_notices(&self) -> Result<u32, RepoError> {
        let now = self.clock.now();
        let today = tokyo_date(now);
        let last = tokyo_date(now + chrono::Duration::hours(END_NOTICE_HOURS));
        let local_now = tokyo_datetime(now);
        let mut queued = 0;
        for candidate in self.store.end_notice_candidates(today, last, now, END_NOTICES_PER_SWEEP).await? {
            if !end_notice_due(candidate.period_end, local_now) {
                continue;
            }
            let Ok(to) = Email::parse(&candidate.email) else {
                tracing::warn!(user = candidate.user.get(), "kept-project mail skipped: stored address does not parse");
                continue;
            };
            let mail = self.end_mail(&candidate, to);
            if self.store.queue_end_notice(candidate.project, candidate.user, &mail, now).await? {
                queued += 1;
            }
        }
        if queued > 0 {
            (self.on_queued)();
        }
        Ok(queued)
    }
}

#[cfg(test)]
#[path = "mail_tests.rs"]
mod tests;
