//! The end of a campaign: succeeded, failed or still waiting for bank
//! transfers, and how long a refund waits for the supporter (terms §9).
//!
//! Amounts are the site's one totals basis ([`crate::payment::counted_amount`]):
//! what supporters paid, tax included, less refunds.

use crate::money::Yen;
use crate::project::FundingModel;
use chrono::{Days, Months, NaiveDate};

/// What the end of a campaign decided; `code` is the stored form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CloseOutcome {
    /// The supports are carried out and the owner is paid.
    Succeeded,
    /// All-or-nothing below its goal: every support is refunded.
    Failed,
    /// Unpaid bank transfers still within their deadline could change the
    /// result; decided again once they are paid or lapse.
    AwaitingFunds,
}

impl CloseOutcome {
    pub const ALL: [Self; 3] = [Self::Succeeded, Self::Failed, Self::AwaitingFunds];

    pub const fn code(self) -> &'static str {
        match self {
            Self::Succeeded => "succeeded",
            Self::Failed => "failed",
            Self::AwaitingFunds => "awaiting_funds",
        }
    }

    pub fn parse(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|o| o.code() == code)
    }

    /// What owners and operators read (成立 / 不成立 / 集計中).
    pub const fn label(self) -> &'static str {
        match self {
            Self::Succeeded => "成立",
            Self::Failed => "不成立",
            Self::AwaitingFunds => "集計中",
        }
    }
}

/// Where a project stands as a supporter reads it on my page: 募集中 while open, then
/// 成立 / 不成立 once the closing sweep decided it, and 終了 in between (not looked at yet, or
/// waiting for bank transfers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CampaignState {
    Open,
    Ended,
    Succeeded,
    Failed,
}

impl CampaignState {
    pub const fn of(open: bool, outcome: Option<CloseOutcome>) -> Self {
        match (open, outcome) {
            (true, _) => Self::Open,
            (false, Some(CloseOutcome::Succeeded)) => Self::Succeeded,
            (false, Some(CloseOutcome::Failed)) => Self::Failed,
            (false, Some(CloseOutcome::AwaitingFunds) | None) => Self::Ended,
        }
    }

    /// The stored form and the API's value.
    pub const fn code(self) -> &'static str {
        match self {
            Self::Open => "open",
            Self::Ended => "ended",
            Self::Succeeded => "succeeded",
            Self::Failed => "failed",
        }
    }

    /// 募集中 / 終了 / 成立 / 不成立.
    pub const fn label(self) -> &'static str {
        match self {
            Self::Open => "募集中",
            Self::Ended => "終了",
            Self::Succeeded => "成立",
            Self::Failed => "不成立",
        }
    }
}

/// Decides a campaign at its end. `counted` is what supporters paid less
/// refunds; `pending_transfers` the unpaid bank transfers placed before the
/// end and still within their payment deadline. Negative inputs count as zero.
///
/// The terms: all-in succeeds with its first support, all-or-nothing only at
/// its goal. A result that pending transfers could not change for the better
/// still waits for them: a supporter who placed a transfer before the end
/// may pay it within its deadline, and a project is decided once, with every
/// support it will have (a failed project never has money arrive after its
/// refunds were sent).
pub fn decide_close(model: FundingModel, goal: Yen, counted: Yen, pending_transfers: Yen) -> CloseOutcome {
    let counted = counted.0.max(0);
    let succeeded = match model {
        FundingModel::AllIn => counted > 0,
        FundingModel::AllOrNothing => counted >= goal.0.max(0),
    };
    if succeeded {
        CloseOutcome::Succeeded
    } else if pending_transfers.0 > 0 {
        CloseOutcome::AwaitingFunds
    } else {
        CloseOutcome::Failed
    }
}

/// The last day a refund waits for the supporter's answer; from the next day
/// it passes to the company (terms: unanswered for 6 months).
///
/// Reckoned as the Civil Code reckons months (民法 §140, §143): from the day
/// after asking to the day before the same date six months on, which is the
/// same day of the month six months later, or that month's last day when it
/// has no such day (8/31 → 2/28, or 2/29 in a leap year).
pub fn refund_unclaimed_after(asked: NaiveDate) -> NaiveDate {
    asked.checked_add_months(Months::new(6)).unwrap_or(NaiveDate::MAX)
}

/// Whether an unanswered refund has passed to the company on `today`.
pub fn refund_lapsed(asked: NaiveDate, today: NaiveDate) -> bool {
    today > refund_unclaimed_after(asked)
}

/// Days after asking on which the supporter is reminded of an unanswered
/// refund: after a week, after a month, and a month before it lapses.
pub const REFUND_REMINDER_DAYS: [u64; 3] = [7, 30, 150];

/// Whether the next reminder of an unanswered refund is due on `today`,
/// given how many were sent. A job that missed days catches up one reminder
/// per run; nothing is sent once the refund has lapsed.
pub fn refund_reminder_due(asked: NaiveDate, reminders_sent: u32, today: NaiveDate) -> bool {
    let next = usize::try_from(reminders_sent).ok().and_then(|i| REFUND_REMINDER_DAYS.get(i));
    let due_on = next.and_then(|days| asked.checked_add_days(Days::new(*days)));
    due_on.is_some_and(|due_on| today >= due_on) && !refund_lapsed(asked, today)
}

/// How many reminders are due by `today`: the reminder days passed so far,
/// none once the refund has lapsed. A job that sent fewer sends one and
/// records this many, so days it missed are not made up by a burst: one
/// reminder per due date at most, and never more than three.
pub fn refund_reminders_owed(asked: NaiveDate, today: NaiveDate) -> u32 {
    if refund_lapsed(asked, today) {
        return 0;
    }
    let passed = REFUND_REMINDER_DAYS
        .iter()
        .filter(|days| asked.checked_add_days(Days::new(**days)).is_some_and(|due_on| today >= due_on))
        .count();
    u32::try_from(passed).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_open_project_reads_as_open_whatever_a_sweep_wrote_and_an_ended_one_by_its_outcome() {
        assert_eq!(CampaignState::of(true, Some(CloseOutcome::Failed)).label(), "募集中");
        assert_eq!(CampaignState::of(false, None).label(), "終了");
        assert_eq!(CampaignState::of(false, Some(CloseOutcome::AwaitingFunds)).label(), "終了");
        assert_eq!(CampaignState::of(false, Some(CloseOutcome::Succeeded)).label(), "成立");
        assert_eq!(CampaignState::of(false, Some(CloseOutcome::Failed)).label(), "不成立");
    }

    use chrono::Datelike;
    use proptest::prelude::*;
    use CloseOutcome::*;
    use FundingModel::*;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    #[test]
    fn codes_round_trip_and_unknown_codes_are_refused() {
        for outcome in CloseOutcome::ALL {
            assert_eq!(CloseOutcome::parse(outcome.code()), Some(outcome));
        }
        assert_eq!(CloseOutcome::parse("successful"), None);
        assert_eq!([Succeeded.label(), Failed.label(), AwaitingFunds.label()], ["成立", "不成立", "集計中"]);
    }

    #[test]
    fn all_in_succeeds_with_its_first_yen_and_waits_only_for_a_first_transfer() {
        assert_eq!(decide_close(AllIn, Yen(1_000_000), Yen(1), Yen(0)), Succeeded);
        assert_eq!(decide_close(AllIn, Yen(1_000_000), Yen(0), Yen(3_000)), AwaitingFunds);
        assert_eq!(decide_close(AllIn, Yen(1_000_000), Yen(0), Yen(0)), Failed);
    }

    #[test]
    fn all_or_nothing_succeeds_at_its_goal_and_otherwise_waits_for_every_pending_transfer() {
        assert_eq!(decide_close(AllOrNothing, Yen(100_000), Yen(100_000), Yen(0)), Succeeded);
        assert_eq!(decide_close(AllOrNothing, Yen(100_000), Yen(100_000), Yen(5_000)), Succeeded);
        assert_eq!(decide_close(AllOrNothing, Yen(100_000), Yen(90_000), Yen(10_000)), AwaitingFunds);
        assert_eq!(decide_close(AllOrNothing, Yen(100_000), Yen(90_000), Yen(9_999)), AwaitingFunds);
        assert_eq!(decide_close(AllOrNothing, Yen(100_000), Yen(0), Yen(0)), Failed);
    }

    #[test]
    fn negative_and_huge_inputs_neither_wrap_nor_panic() {
        assert_eq!(decide_close(AllIn, Yen(0), Yen(-5), Yen(-5)), Failed);
        assert_eq!(decide_close(AllOrNothing, Yen(i64::MAX), Yen(i64::MAX - 1), Yen(i64::MAX)), AwaitingFunds);
        assert_eq!(decide_close(AllOrNothing, Yen(10), Yen(-100), Yen(0)), Failed);
    }

    #[test]
    fn a_refund_waits_six_calendar_months_clamped_to_the_month_end() {
        assert_eq!(refund_unclaimed_after(d(2026, 3, 15)), d(2026, 9, 15));
        assert_eq!(refund_unclaimed_after(d(2026, 8, 31)), d(2027, 2, 28));
        assert_eq!(refund_unclaimed_after(d(2027, 8, 31)), d(2028, 2, 29));
        assert!(!refund_lapsed(d(2026, 3, 15), d(2026, 9, 15)));
        assert!(refund_lapsed(d(2026, 3, 15), d(2026, 9, 16)));
        assert_eq!(refund_unclaimed_after(NaiveDate::MAX), NaiveDate::MAX);
    }

    #[test]
    fn a_daily_job_reminds_three_times_on_days_7_30_and_150() {
        let asked = d(2026, 8, 31);
        let (mut sent, mut on) = (0, Vec::new());
        let mut today = asked;
        while today <= refund_unclaimed_after(asked) + Days::new(30) {
            if refund_reminder_due(asked, sent, today) {
                sent += 1;
                on.push((today - asked).num_days());
            }
            today = today.succ_opt().unwrap();
        }
        assert_eq!(on, vec![7, 30, 150]);
    }

    #[test]
    fn a_job_that_missed_days_owes_only_what_is_due_now() {
        let asked = d(2026, 1, 10);
        assert_eq!(refund_reminders_owed(asked, d(2026, 1, 16)), 0);
        assert_eq!(refund_reminders_owed(asked, d(2026, 1, 17)), 1);
        assert_eq!(refund_reminders_owed(asked, d(2026, 3, 1)), 2);
        assert_eq!(refund_reminders_owed(asked, d(2026, 7, 10)), 3);
        assert_eq!(refund_reminders_owed(asked, d(2026, 7, 11)), 0, "lapsed");
    }

    #[test]
    fn no_reminder_after_the_refund_lapsed_or_the_third() {
        let asked = d(2026, 1, 10);
        assert!(!refund_reminder_due(asked, 0, d(2026, 7, 11)));
        assert!(!refund_reminder_due(asked, 3, d(2026, 7, 1)));
        assert!(!refund_reminder_due(asked, u32::MAX, d(2026, 7, 1)));
    }

    fn model() -> impl Strategy<Value = FundingModel> {
        prop_oneof![Just(AllIn), Just(AllOrNothing)]
    }

    fn yen() -> impl Strategy<Value = Yen> {
        prop_oneof![4 => 0i64..=10_000_000, 1 => any::<i64>()].prop_map(Yen)
    }

    fn date() -> impl Strategy<Value = NaiveDate> {
        (-100_000i64..100_000).prop_map(|n| d(2000, 1, 1) + chrono::Duration::days(n))
    }

    proptest! {
        #[test]
        fn more_pending_never_undoes_success_nor_worsens_the_outcome(
            m in model(), goal in yen(), counted in yen(), pending in yen(), more in 0i64..=10_000_000
        ) {
            let rank = |o| match o { Failed => 0, AwaitingFunds => 1, Succeeded => 2 };
            let before = decide_close(m, goal, counted, pending);
            let after = decide_close(m, goal, counted, Yen(pending.0.max(0).saturating_add(more)));
            prop_assert!(rank(after) >= rank(before));
            prop_assert!(before != Succeeded || after == Succeeded);
        }

        #[test]
        fn awaiting_funds_only_while_a_transfer_is_pending(m in model(), goal in yen(), counted in yen(), pending in yen()) {
            let outcome = decide_close(m, goal, counted, pending);
            prop_assert!(outcome != AwaitingFunds || pending.0 > 0);
            prop_assert_eq!(decide_close(m, goal, counted, Yen::ZERO) == AwaitingFunds, false);
        }

        #[test]
        fn all_or_nothing_succeeds_exactly_at_its_goal(goal in yen(), counted in yen(), pending in yen()) {
            let outcome = decide_close(AllOrNothing, goal, counted, pending);
            prop_assert_eq!(outcome == Succeeded, counted.0.max(0) >= goal.0.max(0));
        }

        #[test]
        fn all_in_succeeds_exactly_with_some_support(goal in yen(), counted in yen(), pending in yen()) {
            prop_assert_eq!(decide_close(AllIn, goal, counted, pending) == Succeeded, counted.0 > 0);
        }

        #[test]
        fn a_refund_lapses_six_months_on_at_the_same_day_or_the_month_end(asked in date()) {
            let last = refund_unclaimed_after(asked);
            prop_assert_eq!((last.year() * 12 + last.month0() as i32) - (asked.year() * 12 + asked.month0() as i32), 6);
            let month_end = last.succ_opt().unwrap().day() == 1;
            prop_assert!(last.day() == asked.day() || (month_end && last.day() < asked.day()));
            prop_assert!((181..=184).contains(&(last - asked).num_days()));
        }

        #[test]
        fn a_daily_job_however_late_sends_at_most_one_per_due_date_and_never_after_lapsing(
            asked in date(), start in 0u64..200, step in 1u64..60
        ) {
            let (mut sent, mut on) = (0u32, Vec::new());
            let mut later = start;
            while later <= 200 {
                let today = asked + Days::new(later);
                let owed = refund_reminders_owed(asked, today);
                if owed > sent && refund_reminder_due(asked, sent, today) {
                    prop_assert!(!refund_lapsed(asked, today));
                    on.push(later);
                    sent = owed;
                }
                later += step;
            }
            prop_assert!(sent <= 3);
            prop_assert!(on.len() <= 3);
            prop_assert!(on.windows(2).all(|w| w[0] < w[1]));
            // Each reminder answers a due date that passed since the one before.
            for (i, day) in on.iter().enumerate() {
                prop_assert!(*day >= REFUND_REMINDER_DAYS[i]);
            }
        }

        #[test]
        fn reminders_come_after_asking_and_before_lapsing(asked in date(), sent in 0u32..5, later in 0u64..400) {
            let today = asked + Days::new(later);
            if refund_reminder_due(asked, sent, today) {
                prop_assert!(sent < 3);
                prop_assert!(later >= REFUND_REMINDER_DAYS[sent as usize]);
                prop_assert!(!refund_lapsed(asked, today));
            }
        }
    }
}
