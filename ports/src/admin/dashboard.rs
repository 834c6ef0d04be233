//! The administrators' dashboard (`/admin/`): per project the public figures
//! (raised and backers, read from the same running totals the public pages
//! read), the money as the reconcile command counts it (paid, awaiting
//! transfer, refunded), days left and a cumulative funding series; the bank
//! transfers still awaited with their deadlines; mails the queue gave up on.

use chrono::{DateTime, NaiveDate, Utc};
use domain::ids::{ProjectId, SaleId};
use domain::money::Yen;
use domain::project::{days_left, Progress};
use domain::time::tokyo_date;

use crate::catalog::PaidSum;
use crate::clock::Clock;
use crate::RepoError;

/// At most this many pending transfers and failed mails are listed.
pub const LIST_LIMIT: u32 = 50;
/// The chart keeps the newest this many funding days; older ones are carried in the first cumulative value.
pub const SERIES_DAYS: usize = 120;

/// One project's figures as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectFiguresRecord {
    pub id: ProjectId,
    pub slug: String,
    pub title: String,
    pub goal: Yen,
    pub period_end: NaiveDate,
    /// From `project_totals`, exactly what `/v1/sales/get/sum` answers and what the reconcile command
    /// counts as "raised (ours)" (paid, tax included, less refunds).
    pub raised: PaidSum,
    /// Totals (tax included) of sales the provider reported paid, before refunds.
    pub paid: Yen,
    pub paid_sales: i64,
    /// Totals of bank-transfer sales whose money has not arrived yet.
    pub awaiting_transfer: Yen,
    pub awaiting_sales: i64,
    /// Sum of refunds the provider confirmed.
    pub refunded: Yen,
    pub refunded_sales: i64,
}

/// Money that entered the public total on one day (Asia/Tokyo), by the
/// day the provider reported the payment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DailyFunding {
    pub project: ProjectId,
    pub day: NaiveDate,
    pub amount: Yen,
}

/// A bank transfer still awaited.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingTransfer {
    pub sale: SaleId,
    pub project: ProjectId,
    pub project_title: String,
    pub supporter_email: String,
    pub total: Yen,
    /// Still to arrive (a partly funded transfer), when the provider said.
    pub remaining: Option<Yen>,
    pub ordered_at: DateTime<Utc>,
    /// Last day to pay (Asia/Tokyo); `None` for the seed's older sales without one.
    pub deadline: Option<NaiveDate>,
}

/// A mail that failed for good: one of the mail queue, or one recipient of a mass mail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailedMail {
    pub source: FailedMailSource,
    pub to: String,
    pub subject: String,
    pub attempts: i32,
    pub failed_at: DateTime<Utc>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailedMailSource {
    /// A mail of the queue (confirmations, transfer instructions, ...).
    Queued { job_id: i64 },
    /// A recipient the mass-mail job gave up on.
    MassMail { mail_id: i64, recipient_id: i64 },
}

/// What the storage answers in one read.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DashboardRecords {
    /// Every project, by id.
    pub projects: Vec<ProjectFiguresRecord>,
    /// Days with funding, any order.
    pub daily: Vec<DailyFunding>,
    /// Oldest deadline first; at most `limit`.
    pub pending_transfers: Vec<PendingTransfer>,
    /// Newest first; at most `limit`.
    pub failed_mails: Vec<FailedMail>,
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait DashboardRepository: Send + Sync {
    /// Reads everything the dashboard shows. `raised` MUST come from the
    /// same running totals as the public sums, `daily` MUST count the sales
    /// those totals count (so the days add up to `raised.amount`), and
    /// `paid` MUST count the sales the reconcile report counts as ours.
    async fn read(&self, limit: u32) -> Result<DashboardRecords, RepoError>;
}

/// One point of the funding chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FundingPoint {
    pub day: NaiveDate,
    /// Money that day.
    pub amount: Yen,
    /// Raised up to and including that day.
    pub cumulative: Yen,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectFigures {
    pub record: ProjectFiguresRecord,
    pub days_left: u32,
    pub progress: Progress,
    /// Oldest first; the last point's cumulative equals `record.raised.amount`.
    pub series: Vec<FundingPoint>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dashboard {
    pub today: NaiveDate,
    pub projects: Vec<ProjectFigures>,
    pub pending_transfers: Vec<PendingTransfer>,
    pub failed_mails: Vec<FailedMail>,
}

/// The dashboard as the HTTP layer sees it.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait AdminDashboard: Send + Sync {
    async fn dashboard(&self) -> Result<Dashboard, RepoError>;
}

pub struct DashboardService<R, C> {
    repo: R,
    clock: C,
}

impl<R: DashboardRepository, C: Clock> DashboardService<R, C> {
    pub fn new(repo: R, clock: C) -> Self {
        Self { repo, clock }
    }
}

#[async_trait::async_trait]
impl<R: DashboardRepository, C: Clock> AdminDashboard for DashboardService<R, C> {
    async fn dashboard(&self) -> Result<Dashboard, RepoError> {
        let today = tokyo_date(self.clock.now());
        let records = self.repo.read(LIST_LIMIT).await?;
        let projects = records
            .projects
            .into_iter()
            .map(|record| {
                let days: Vec<(NaiveDate, Yen)> =
                    records.daily.iter().filter(|d| d.project == record.id).map(|d| (d.day, d.amount)).collect();
                ProjectFigures {
                    days_left: days_left(record.period_end, today),
                    progress: Progress::new(record.raised.amount, record.goal),
                    series: cumulative_series(days, SERIES_DAYS),
                    record,
                }
            })
            .collect();
        Ok(Dashboard {
            today,
            projects,
            pending_transfers: records.pending_transfers,
            failed_mails: records.failed_mails,
        })
    }
}

/// Days with funding, merged by day and sorted, with the running sum; only
/// the newest `keep` days are returned, and the days before them are carried
/// into the first point's cumulative value so the last one is always the total.
pub fn cumulative_series(mut days: Vec<(NaiveDate, Yen)>, keep: usize) -> Vec<FundingPoint> {
    days.sort_by_key(|(day, _)| *day);
    let mut merged: Vec<FundingPoint> = Vec::with_capacity(days.len());
    let mut running = 0_i64;
    for (day, amount) in days {
        running = running.saturating_add(amount.0);
        match merged.last_mut() {
            Some(last) if last.day == day => {
                last.amount = Yen(last.amount.0.saturating_add(amount.0));
                last.cumulative = Yen(running);
            }
            _ => merged.push(FundingPoint { day, amount, cumulative: Yen(running) }),
        }
    }
    let skip = merged.len().saturating_sub(keep);
    merged.split_off(skip)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::MockClock;
    use chrono::TimeZone;
    use proptest::prelude::*;

    fn d(day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, day).unwrap()
    }

    #[test]
    fn the_series_merges_a_day_sorts_the_days_and_runs_a_sum() {
        let series = cumulative_series(vec![(d(3), Yen(500)), (d(1), Yen(1000)), (d(3), Yen(250))], 10);

        assert_eq!(
            series,
            vec![
                FundingPoint { day: d(1), amount: Yen(1000), cumulative: Yen(1000) },
                FundingPoint { day: d(3), amount: Yen(750), cumulative: Yen(1750) },
            ]
        );
    }

    #[test]
    fn a_long_series_keeps_the_newest_days_and_carries_the_older_money() {
        let days: Vec<_> = (1..=10).map(|day| (d(day), Yen(100))).collect();

        let series = cumulative_series(days, 3);

        assert_eq!(series.len(), 3);
        assert_eq!(series[0], FundingPoint { day: d(8), amount: Yen(100), cumulative: Yen(800) });
        assert_eq!(series[2].cumulative, Yen(1000));
    }

    #[test]
    fn no_funding_is_an_empty_series() {
        assert!(cumulative_series(Vec::new(), 10).is_empty());
    }

    proptest! {
        #[test]
        fn the_last_point_is_the_sum_of_every_day(amounts in proptest::collection::vec((1u32..28, 0i64..1_000_000), 0..60), keep in 1usize..40) {
            let days: Vec<_> = amounts.iter().map(|(day, yen)| (d(*day), Yen(*yen))).collect();
            let total: i64 = amounts.iter().map(|(_, yen)| yen).sum();

            let series = cumulative_series(days, keep);

            prop_assert!(series.len() <= keep);
            prop_assert_eq!(series.last().map_or(0, |p| p.cumulative.0), total);
            prop_assert!(series.windows(2).all(|w| w[0].day < w[1].day && w[1].cumulative.0 == w[0].cumulative.0 + w[1].amount.0));
        }
    }

    fn record(id: i64, raised: i64, period_end: NaiveDate) -> ProjectFiguresRecord {
        ProjectFiguresRecord {
            id: ProjectId(id),
            slug: format!("p{id}"),
            title: format!("プロジェクト{id}"),
            goal: Yen(10_000),
            period_end,
            raised: PaidSum { amount: Yen(raised), supports: 2 },
            paid: Yen(raised + raised / 10),
            paid_sales: 2,
            awaiting_transfer: Yen::ZERO,
            awaiting_sales: 0,
            refunded: Yen::ZERO,
            refunded_sales: 0,
        }
    }

    #[tokio::test]
    async fn each_project_gets_its_days_left_progress_and_own_series_in_tokyo_time() {
        let mut repo = MockDashboardRepository::new();
        repo.expect_read().withf(|limit| *limit == LIST_LIMIT).returning(|_| {
            Ok(DashboardRecords {
                projects: vec![record(1, 3000, d(30)), record(2, 500, d(1))],
                daily: vec![
                    DailyFunding { project: ProjectId(1), day: d(2), amount: Yen(1000) },
                    DailyFunding { project: ProjectId(2), day: d(2), amount: Yen(500) },
                    DailyFunding { project: ProjectId(1), day: d(5), amount: Yen(2000) },
                ],
                ..DashboardRecords::default()
            })
        });
        let mut clock = MockClock::new();
        // 2026-11-25 20:00 UTC is already the 26th in Tokyo.
        clock.expect_now().return_const(Utc.with_ymd_and_hms(2026, 11, 25, 20, 0, 0).unwrap());

        let board = DashboardService::new(repo, clock).dashboard().await.unwrap();

        assert_eq!(board.today, d(26));
        assert_eq!(board.projects[0].days_left, 5);
        assert_eq!(board.projects[0].progress, Progress::new(Yen(3000), Yen(10_000)));
        assert_eq!(board.projects[0].series.len(), 2);
        assert_eq!(board.projects[0].series[1].cumulative, Yen(3000));
        assert_eq!(board.projects[1].days_left, 0);
        assert_eq!(board.projects[1].series, vec![FundingPoint { day: d(2), amount: Yen(500), cumulative: Yen(500) }]);
    }
}
