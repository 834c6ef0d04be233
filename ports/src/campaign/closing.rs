//! Closing campaigns. A sweep finds public projects whose end (Tokyo) has
//! passed and decides each with [`decide_close`]: while bank transfers
//! placed before the end are still within their deadline it waits (集計中);
//! then the result is written once, whichever process gets there first.
//! Follow-ups run until done, so a crash between them only delays them:
//! supporters are told the result by mail (at least once), and a failed
//! all-or-nothing project is refunded in full through the administrators'
//! bulk-refund job, again whenever late money makes a sale refundable.

use chrono::{DateTime, NaiveDate, Utc};
use domain::account::Email;
use domain::closing::{decide_close, CloseOutcome};
use domain::ids::ProjectId;
use domain::money::Yen;
use domain::payment::PayType;
use domain::project::FundingModel;
use domain::time::tokyo_date;

use crate::accounts::SiteInfo;
use crate::admin::refunds::{RefundError, Refunds};
use crate::campaign::payouts::{current_statement, PayoutStore, StatementView};
use crate::clock::Clock;
use crate::mailer::{queued_payload, Mailer, OutgoingMail};
use crate::payments::outcome::SweepReport;
use crate::RepoError;

/// What a project's close is decided from, read in one go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CloseFacts {
    pub project: ProjectId,
    pub title: String,
    pub slug: String,
    pub model: FundingModel,
    pub goal: Yen,
    /// Paid less refunds (`domain::payment::counted_amount`).
    pub counted: Yen,
    /// Unpaid bank transfers placed before the end, still within their deadline.
    pub pending: Yen,
    /// The owner's address set on the project (checked when written), if any.
    pub owner_email: Option<String>,
}

/// A supporter to tell the result: one per address, with how they paid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recipient {
    pub email: Email,
    pub name: String,
    /// Paid at least once by bank transfer (a refund asks for their account).
    pub paid_by: PayType,
}

/// A closing whose result is decided and whose follow-ups are not all done.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FollowUp {
    pub facts: CloseFacts,
    pub outcome: CloseOutcome,
    pub mailed: bool,
    /// The owner's result mail was queued.
    pub owner_mailed: bool,
    /// A failed project with a sale still to refund (none started, or late money).
    pub needs_refund: bool,
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait ClosingStore: Send + Sync {
    /// Public projects whose last day is before `today` (Tokyo) and that are
    /// not decided yet (never looked at, or awaiting funds), oldest end
    /// first, at most `limit`, with their facts as of `today` (a transfer
    /// whose deadline is before `today` is no longer pending).
    async fn due(&self, today: NaiveDate, limit: i64) -> Result<Vec<CloseFacts>, RepoError>;

    /// Records that `facts.project` awaits funds (written again on every look).
    /// MUST NOT touch a project already decided.
    async fn record_waiting(&self, facts: &CloseFacts, now: DateTime<Utc>) -> Result<(), RepoError>;

    /// Writes the decided result. MUST write it once: `true` only for the
    /// call that decided; `false` when the project was decided before.
    async fn decide(&self, facts: &CloseFacts, outcome: CloseOutcome, now: DateTime<Utc>) -> Result<bool, RepoError>;

    /// Decided closings with follow-ups left (mails not sent, the owner's
    /// not sent while the project has an owner address, or a failed
    /// project with a refundable sale and no bulk refund running), at most
    /// `limit`. Empty when all are done.
    async fn follow_ups(&self, limit: i64) -> Result<Vec<FollowUp>, RepoError>;

    /// The project's supporters to tell: every address with a paid sale
    /// (refunded ones included: a failed project's supporters were paid).
    async fn recipients(&self, project: ProjectId) -> Result<Vec<Recipient>, RepoError>;

    /// Marks the result mails sent. MUST return `RepoError::NotFound` for a
    /// project with no decided closing.
    async fn mark_mailed(&self, project: ProjectId, now: DateTime<Utc>) -> Result<(), RepoError>;

    /// Queues the owner's result mail (`payload`: [`crate::mailer::queued_payload`])
    /// and records it sent, in one transaction, unless it was recorded
    /// before: `true` only for the call that queued it, so the owner is
    /// mailed once however often the close runs. `NotFound` for a project
    /// with no decided closing.
    async fn queue_owner_mail(
        &self,
        project: ProjectId,
        payload: serde_json::Value,
        now: DateTime<Utc>,
    ) -> Result<bool, RepoError>;

    /// Keeps the bulk refund started for a failed project.
    async fn mark_refund_started(&self, project: ProjectId, job: i64) -> Result<(), RepoError>;
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait Closings: Send + Sync {
    /// Decides every project whose end has passed, then does the follow-ups
    /// left: result mails, and the full refund of failed projects.
    async fn close_due(&self) -> Result<SweepReport, RepoError>;
}

pub struct ClosingService<S, M, C> {
    store: S,
    refunds: std::sync::Arc<dyn Refunds>,
    mailer: M,
    clock: C,
    site: SiteInfo,
    batch: i64,
    /// Where a successful project's payout statement is read for the owner's mail, and the transfer fee.
    statements: Option<(std::sync::Arc<dyn PayoutStore>, Yen)>,
}

impl<S, M, C> ClosingService<S, M, C> {
    pub fn new(store: S, refunds: std::sync::Arc<dyn Refunds>, mailer: M, clock: C, site: SiteInfo) -> Self {
        Self { store, refunds, mailer, clock, site, batch: 50, statements: None }
    }

    /// The owner's mail of a successful project carries its payout statement's figures and date.
    #[must_use]
    pub fn with_statements(mut self, store: std::sync::Arc<dyn PayoutStore>, transfer_fee: Yen) -> Self {
        self.statements = Some((store, transfer_fee));
        self
    }
}

impl<S: ClosingStore, M: Mailer, C: Clock> ClosingService<S, M, C> {
    async fn follow_up(&self, follow: &FollowUp) -> Result<(), RepoError> {
        let project = follow.facts.project;
        if follow.outcome == CloseOutcome::Failed && follow.needs_refund {
            match self.refunds.start_close_refund(project).await {
                Ok(job) => self.store.mark_refund_started(project, job).await?,
                // Another bulk refund of the project runs: the next pass looks again once it is done.
                Err(RefundError::BulkRunning | RefundError::Bulk(_)) => {}
                Err(RefundError::Repo(error)) => return Err(error),
                Err(other) => return Err(RepoError::Unexpected(anyhow::anyhow!("close refund: {other}"))),
            }
        }
        if !follow.mailed {
            for recipient in self.store.recipients(project).await? {
                let mail = result_mail(&self.site, &follow.facts, follow.outcome, &recipient);
                // The queue is durable; a refusal is logged and the next pass sends the whole round again.
                if let Err(error) = self.mailer.send(mail).await {
                    return Err(RepoError::Unexpected(anyhow::anyhow!("result mail not queued: {error}")));
                }
            }
            if let Some(mail) = operator_mail(&self.site, &follow.facts, follow.outcome) {
                if let Err(error) = self.mailer.send(mail).await {
                    tracing::warn!(%error, project = %project, "operator's result mail not queued");
                }
            }
            self.store.mark_mailed(project, self.clock.now()).await?;
        }
        if !follow.owner_mailed {
            self.tell_owner(follow).await?;
        }
        Ok(())
    }

    /// The owner's result mail, queued once (the store's compare-and-set).
    async fn tell_owner(&self, follow: &FollowUp) -> Result<(), RepoError> {
        let Some(to) = follow.facts.owner_email.as_deref().and_then(|e| Email::parse(e).ok()) else {
            return Ok(());
        };
        let statement = match (&self.statements, follow.outcome) {
            // Transfers still awaited can change the figures: the statement follows once they are settled.
            (Some((store, fee)), CloseOutcome::Succeeded) if follow.facts.pending.0 <= 0 => {
                store.facts(follow.facts.project).await?.map(|facts| current_statement(facts, *fee))
            }
            _ => None,
        };
        let mail = owner_mail(&self.site, &follow.facts, follow.outcome, statement.as_ref(), to);
        if self.store.queue_owner_mail(follow.facts.project, queued_payload(&mail), self.clock.now()).await? {
            tracing::info!(project = %follow.facts.project, "owner told the result");
        }
        Ok(())
    }
}

#[async_trait::async_trait]
impl<S: ClosingStore, M: Mailer, C: Clock> Closings for ClosingService<S, M, C> {
    async fn close_due(&self) -> Result<SweepReport, RepoError> {
        let now = self.clock.now();
        let mut report = SweepReport::default();
        for facts in self.store.due(tokyo_date(now), self.batch).await? {
            report.checked += 1;
            match decide_close(facts.model, facts.goal, facts.counted, facts.pending) {
                CloseOutcome::AwaitingFunds => self.store.record_waiting(&facts, now).await?,
                outcome => {
                    if self.store.decide(&facts, outcome, now).await? {
                        tracing::info!(project = %facts.project, outcome = outcome.code(), "campaign decided");
                        report.changed += 1;
                    }
                }
            }
        }
        for follow in self.store.follow_ups(self.batch).await? {
            if let Err(error) = self.follow_up(&follow).await {
                tracing::warn!(project = %follow.facts.project, %error, "close follow-up failed; the next sweep retries");
                report.failed += 1;
            }
        }
        Ok(report)
    }
}

fn project_url(site: &SiteInfo, facts: &CloseFacts) -> String {
    format!("{}/projects/{}/", site.public_url, facts.slug)
}

/// The mail telling a supporter how the project they backed ended.
pub fn result_mail(site: &SiteInfo, facts: &CloseFacts, outcome: CloseOutcome, to: &Recipient) -> OutgoingMail {
    let (what, body) = match outcome {
        CloseOutcome::Succeeded => (
            "プロジェクト成立のお知らせ",
            "ご支援いただいたプロジェクトは募集を終了し、成立しました。\n\
             リターンはプロジェクトに記載の時期にお届けします。ご支援いただいた金額が改めて請求されることはありません。"
                .to_string(),
        ),
        _ => (
            "プロジェクト不成立と返金のお知らせ",
            format!(
                "ご支援いただいたプロジェクトは目標金額に届かず、不成立となりました（オールオアナッシング方式）。\n\
                 支援契約はすべて効力を失い、お支払いいただいた支援金は全額返金します。\n{}",
                match to.paid_by {
                    PayType::Card => "クレジットカードでのお支払いは、カード会社を通じて返金されます（反映の時期はカード会社によります）。",
                    PayType::BankTransfer => "銀行振込でのお支払いは、返金先口座の入力をお願いするメールを別にお送りします。6か月以内にご入力ください（ご回答がない場合、返金額は当社に帰属します）。",
                    PayType::Konbini => "コンビニでのお支払いは、返金先口座の入力をお願いするメールを別にお送りします。6か月以内にご入力ください（ご回答がない場合、返金額は当社に帰属します）。",
                }
            ),
        ),
    };
    OutgoingMail {
        to: to.email.clone(),
        subject: format!("【{}】{}", site.site_name, what),
        text_body: format!(
            "{} 様\n\n{}\n\nプロジェクト：{}\n{}\n\n{}\n",
            if to.name.trim().is_empty() { "支援者" } else { to.name.trim() },
            body,
            facts.title,
            project_url(site, facts),
            site.operator.name,
        ),
    }
}

/// The mail telling the owner how their project ended: for a success, the
/// payout statement's figures and date when they are known, else that the
/// statement follows; for a failure, that every supporter is refunded.
pub fn owner_mail(
    site: &SiteInfo,
    facts: &CloseFacts,
    outcome: CloseOutcome,
    statement: Option<&StatementView>,
    to: Email,
) -> OutgoingMail {
    let body = match (outcome, statement) {
        (CloseOutcome::Succeeded, Some(view)) => {
            let f = &view.figures;
            let mut lines = vec![format!("確定支援額（返金を除く）：{}円", f.confirmed.grouped())];
            if f.platform_fee.is_positive() {
                lines.push(format!(
                    "手数料（20%・消費税{}円を含む）：{}円",
                    f.platform_fee_tax.grouped(),
                    f.platform_fee.grouped()
                ));
            }
            if f.application_fees.is_positive() {
                lines.push(format!("決済時に差し引いた手数料：{}円", f.application_fees.grouped()));
            }
            if f.received_directly.is_positive() {
                lines.push(format!("決済時に直接お受け取りの金額：{}円", f.received_directly.grouped()));
            }
            if f.transfer_fee.is_positive() {
                lines.push(format!("振込手数料：{}円", f.transfer_fee.grouped()));
            }
            lines.push(format!("お支払い額：{}円", f.payout.grouped()));
            lines.push(format!("お支払い予定日：{}", view.payout_date.format("%Y年%-m月%-d日")));
            format!(
                "プロジェクトは募集を終了し、成立しました。ご支援くださった皆さまにも成立をお知らせしています。\n\n\
                 【精算書（{}時点）】\n{}\n\n\
                 この後の返金などで金額が変わった場合は、精算書に反映してお知らせします。",
                tokyo_date_label(view.period_end),
                lines.join("\n")
            )
        }
        (CloseOutcome::Succeeded, None) => {
            "プロジェクトは募集を終了し、成立しました。ご支援くださった皆さまにも成立をお知らせしています。\n\
             入金確認中の銀行振込があるため、精算書（お支払い額とお支払い予定日）は確定後に追ってお送りします。"
                .to_string()
        }
        _ => format!(
            "プロジェクトは目標金額（{}円）に届かず、不成立となりました（オールオアナッシング方式）。\n\
             規約により支援契約は効力を失い、ご支援はすべて支援者へ全額返金します。お支払いはありません。",
            facts.goal.grouped()
        ),
    };
    OutgoingMail {
        to,
        subject: format!("【{}】募集終了のお知らせ：{}（{}）", site.site_name, facts.title, outcome.label()),
        text_body: format!(
            "プロジェクト実行者 様\n\n{}\n\n支援総額（返金を除く）：{}円 / 目標金額：{}円\nプロジェクト：{}\n{}\n\n{}\n",
            body,
            facts.counted.grouped(),
            facts.goal.grouped(),
            facts.title,
            project_url(site, facts),
            site.operator.name,
        ),
    }
}

/// The end of the campaign as the owner's statement names it (募集終了日).
fn tokyo_date_label(day: NaiveDate) -> String {
    format!("{}募集終了", day.format("%Y年%-m月%-d日"))
}

/// A one-line summary for the operator's address, when one is configured.
fn operator_mail(site: &SiteInfo, facts: &CloseFacts, outcome: CloseOutcome) -> Option<OutgoingMail> {
    let to = Email::parse(&site.operator.email).ok()?;
    Some(OutgoingMail {
        to,
        subject: format!("【{}】募集終了：{}（{}）", site.site_name, facts.title, outcome.label()),
        text_body: format!(
            "プロジェクト「{}」の募集が終了し、{}となりました。\n支援総額（返金を除く）：{}円 / 目標金額：{}円\n{}\n",
            facts.title,
            outcome.label(),
            facts.counted.grouped(),
            facts.goal.grouped(),
            project_url(site, facts),
        ),
    })
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use chrono::TimeZone;
    use mockall::predicate::eq;

    use super::*;
    use crate::accounts::Operator;
    use crate::admin::refunds::MockRefunds;
    use crate::campaign::payouts::{MockPayoutStore, PayoutFacts};
    use crate::clock::MockClock;
    use crate::mailer::MockMailer;

    fn facts(model: FundingModel, counted: i64, pending: i64) -> CloseFacts {
        CloseFacts {
            project: ProjectId(9),
            title: "沼田の花".into(),
            slug: "numata".into(),
            model,
            goal: Yen(100_000),
            counted: Yen(counted),
            pending: Yen(pending),
            owner_email: None,
        }
    }

    fn site() -> SiteInfo {
        SiteInfo {
            site_name: "まちのクラファン".into(),
            public_url: "https://example.jp".into(),
            operator: Operator { name: "上毛新聞社".into(), email: "ops@example.jp".into(), ..Default::default() },
        }
    }

    fn clock() -> MockClock {
        let mut clock = MockClock::new();
        clock.expect_now().returning(|| Utc.with_ymd_and_hms(2026, 10, 20, 0, 5, 0).unwrap());
        clock
    }

    fn recipients() -> Vec<Recipient> {
        vec![
            Recipient {
                email: Email::parse("card@example.jp").unwrap(), name: "山田".into(), paid_by: PayType::Card
            },
            Recipient {
                email: Email::parse("bank@example.jp").unwrap(),
                name: String::new(),
                paid_by: PayType::BankTransfer,
            },
        ]
    }

    fn mailer() -> (MockMailer, Arc<Mutex<Vec<OutgoingMail>>>) {
        let sent = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&sent);
        let mut mailer = MockMailer::new();
        mailer.expect_send().returning(move |mail| {
            log.lock().unwrap().push(mail);
            Ok(())
        });
        (mailer, sent)
    }

    #[tokio::test]
    async fn a_failed_all_or_nothing_project_is_decided_once_refunded_in_full_and_its_supporters_told() {
        let mut store = MockClosingStore::new();
        store.expect_due().returning(|_, _| Ok(vec![facts(FundingModel::AllOrNothing, 90_000, 0)]));
        store.expect_decide().times(1).returning(|_, outcome, _| {
            assert_eq!(outcome, CloseOutcome::Failed);
            Ok(true)
        });
        store.expect_follow_ups().returning(|_| {
            Ok(vec![FollowUp {
                facts: facts(FundingModel::AllOrNothing, 90_000, 0),
                outcome: CloseOutcome::Failed,
                mailed: false,
                owner_mailed: false,
                needs_refund: true,
            }])
        });
        store.expect_recipients().returning(|_| Ok(recipients()));
        store.expect_mark_refund_started().with(eq(ProjectId(9)), eq(77)).times(1).returning(|_, _| Ok(()));
        store.expect_mark_mailed().times(1).returning(|_, _| Ok(()));
        let mut refunds = MockRefunds::new();
        refunds.expect_start_close_refund().with(eq(ProjectId(9))).times(1).returning(|_| Ok(77));
        let (mailer, sent) = mailer();
        let service = ClosingService::new(store, Arc::new(refunds), mailer, clock(), site());

        let report = service.close_due().await.unwrap();

        assert_eq!((report.checked, report.changed, report.failed), (1, 1, 0));
        let sent = sent.lock().unwrap();
        assert_eq!(sent.len(), 3, "two supporters and the operator");
        assert_eq!(sent[0].subject, "【まちのクラファン】プロジェクト不成立と返金のお知らせ");
        assert!(sent[0].text_body.contains("カード会社を通じて返金"));
        assert!(sent[1].text_body.contains("返金先口座の入力"));
        assert!(sent[1].text_body.starts_with("支援者 様"));
        assert_eq!(sent[2].subject, "【まちのクラファン】募集終了：沼田の花（不成立）");
    }

    #[tokio::test]
    async fn a_project_with_transfers_still_within_their_deadline_waits_and_nothing_is_sent() {
        let mut store = MockClosingStore::new();
        store.expect_due().returning(|_, _| Ok(vec![facts(FundingModel::AllOrNothing, 90_000, 5_000)]));
        store.expect_record_waiting().times(1).returning(|_, _| Ok(()));
        store.expect_decide().never();
        store.expect_follow_ups().returning(|_| Ok(vec![]));
        let mut mailer = MockMailer::new();
        mailer.expect_send().never();
        let service = ClosingService::new(store, Arc::new(MockRefunds::new()), mailer, clock(), site());

        let report = service.close_due().await.unwrap();

        assert_eq!((report.checked, report.changed), (1, 0));
    }

    #[tokio::test]
    async fn a_second_process_that_loses_the_decision_changes_nothing() {
        let mut store = MockClosingStore::new();
        store.expect_due().returning(|_, _| Ok(vec![facts(FundingModel::AllIn, 1, 0)]));
        store.expect_decide().returning(|_, _, _| Ok(false));
        store.expect_follow_ups().returning(|_| Ok(vec![]));
        let service = ClosingService::new(store, Arc::new(MockRefunds::new()), MockMailer::new(), clock(), site());

        assert_eq!(service.close_due().await.unwrap().changed, 0);
    }

    #[tokio::test]
    async fn a_refund_that_cannot_start_now_leaves_the_mails_and_retries_on_the_next_sweep() {
        let mut store = MockClosingStore::new();
        store.expect_due().returning(|_, _| Ok(vec![]));
        store.expect_follow_ups().returning(|_| {
            Ok(vec![FollowUp {
                facts: facts(FundingModel::AllOrNothing, 90_000, 0),
                outcome: CloseOutcome::Failed,
                mailed: true,
                owner_mailed: true,
                needs_refund: true,
            }])
        });
        store.expect_mark_refund_started().never();
        let mut refunds = MockRefunds::new();
        refunds.expect_start_close_refund().returning(|_| Err(RefundError::BulkRunning));
        let service = ClosingService::new(store, Arc::new(refunds), MockMailer::new(), clock(), site());

        assert_eq!(service.close_due().await.unwrap().failed, 0);
    }

    #[test]
    fn a_successful_project_tells_its_supporters_nothing_is_charged_again() {
        let mail =
            result_mail(&site(), &facts(FundingModel::AllIn, 5_000, 0), CloseOutcome::Succeeded, &recipients()[0]);
        assert_eq!(mail.subject, "【まちのクラファン】プロジェクト成立のお知らせ");
        assert!(mail.text_body.starts_with("山田 様"));
        assert!(mail.text_body.contains("改めて請求されることはありません"));
        assert!(mail.text_body.contains("https://example.jp/projects/numata/"));
    }

    fn owned(model: FundingModel, counted: i64, pending: i64) -> CloseFacts {
        CloseFacts { owner_email: Some("owner@example.jp".into()), ..facts(model, counted, pending) }
    }

    fn payout_facts() -> PayoutFacts {
        PayoutFacts {
            project: ProjectId(9),
            title: "沼田の花".into(),
            slug: "numata".into(),
            period_end: NaiveDate::from_ymd_opt(2026, 10, 19).unwrap(),
            donation_payout_date: None,
            card: Yen(100_000),
            bank: Yen(20_000),
            connected: None,
            application_fees_taken: Yen::ZERO,
            paid: vec![],
        }
    }

    fn follow(facts: CloseFacts, outcome: CloseOutcome, owner_mailed: bool) -> FollowUp {
        FollowUp { facts, outcome, mailed: true, owner_mailed, needs_refund: false }
    }

    #[tokio::test]
    async fn the_owner_of_a_successful_project_gets_the_statements_figures_and_date_queued_once() {
        let mut store = MockClosingStore::new();
        store.expect_due().returning(|_, _| Ok(vec![]));
        store
            .expect_follow_ups()
            .returning(|_| Ok(vec![follow(owned(FundingModel::AllIn, 120_000, 0), CloseOutcome::Succeeded, false)]));
        let queued = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&queued);
        store
            .expect_queue_owner_mail()
            .with(eq(ProjectId(9)), mockall::predicate::always(), mockall::predicate::always())
            .times(1)
            .returning(move |_, payload, _| {
                log.lock().unwrap().push(payload);
                Ok(true)
            });
        let mut payouts = MockPayoutStore::new();
        payouts.expect_facts().with(eq(ProjectId(9))).returning(|_| Ok(Some(payout_facts())));
        let mut mailer = MockMailer::new();
        mailer.expect_send().never();
        let service = ClosingService::new(store, Arc::new(MockRefunds::new()), mailer, clock(), site())
            .with_statements(Arc::new(payouts), Yen(440));

        assert_eq!(service.close_due().await.unwrap().failed, 0);

        let queued = queued.lock().unwrap();
        assert_eq!(queued.len(), 1);
        assert_eq!(queued[0]["to"], "owner@example.jp");
        assert_eq!(queued[0]["subject"], "【まちのクラファン】募集終了のお知らせ：沼田の花（成立）");
        let body = queued[0]["text_body"].as_str().unwrap();
        assert!(body.starts_with("プロジェクト実行者 様"), "{body}");
        assert!(body.contains("確定支援額（返金を除く）：120,000円"), "{body}");
        assert!(body.contains("手数料（20%・消費税2,181円を含む）：24,000円"), "{body}");
        assert!(body.contains("振込手数料：440円"), "{body}");
        assert!(body.contains("お支払い額：95,560円"), "{body}");
        assert!(body.contains("お支払い予定日：2026年12月3日"), "{body}");
    }

    #[tokio::test]
    async fn an_owner_already_told_is_not_told_again_and_a_project_without_an_address_sends_nothing() {
        let mut store = MockClosingStore::new();
        store.expect_due().returning(|_, _| Ok(vec![]));
        store.expect_follow_ups().returning(|_| {
            Ok(vec![
                follow(owned(FundingModel::AllIn, 1_000, 0), CloseOutcome::Succeeded, true),
                follow(facts(FundingModel::AllIn, 1_000, 0), CloseOutcome::Succeeded, false),
            ])
        });
        store.expect_queue_owner_mail().never();
        let service = ClosingService::new(store, Arc::new(MockRefunds::new()), MockMailer::new(), clock(), site());

        assert_eq!(service.close_due().await.unwrap().failed, 0);
    }

    #[tokio::test]
    async fn a_store_that_finds_the_owner_told_by_another_run_queues_nothing_more() {
        let mut store = MockClosingStore::new();
        store.expect_due().returning(|_, _| Ok(vec![]));
        store
            .expect_follow_ups()
            .returning(|_| Ok(vec![follow(owned(FundingModel::AllOrNothing, 1_000, 0), CloseOutcome::Failed, false)]));
        // The other run recorded it between our read and our write: the store's compare-and-set says so.
        store.expect_queue_owner_mail().times(1).returning(|_, _, _| Ok(false));
        let service = ClosingService::new(store, Arc::new(MockRefunds::new()), MockMailer::new(), clock(), site());

        assert_eq!(service.close_due().await.unwrap().failed, 0);
    }

    #[test]
    fn a_failed_projects_owner_is_told_everyone_is_refunded_and_a_pending_success_that_the_statement_follows() {
        let to = Email::parse("owner@example.jp").unwrap();
        let failed =
            owner_mail(&site(), &facts(FundingModel::AllOrNothing, 90_000, 0), CloseOutcome::Failed, None, to.clone());
        assert_eq!(failed.subject, "【まちのクラファン】募集終了のお知らせ：沼田の花（不成立）");
        assert!(failed.text_body.contains("全額返金します。お支払いはありません。"));
        assert!(failed.text_body.contains("支援総額（返金を除く）：90,000円 / 目標金額：100,000円"));
        let waiting = owner_mail(&site(), &facts(FundingModel::AllIn, 5_000, 3_000), CloseOutcome::Succeeded, None, to);
        assert!(waiting.text_body.contains("精算書（お支払い額とお支払い予定日）は確定後に追ってお送りします"));
    }
}
