//! Projects: days left, open or ended, progress and the home-page order
//! (spec 000 §2, §4, §9).
//!
//! "Today" is always an argument: the caller converts the clock to
//! Asia/Tokyo first, so these rules never depend on the server's zone.

use crate::money::Yen;
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// Days a project is still open, counting today and the end day.
///
/// Decision: `period_end` is the last day on which the project accepts
/// support (in Asia/Tokyo). On that day one day is left ("残り1日"), the
/// next day none, so "open while days left > 0" keeps the end day open.
/// Past the end the count stays at 0.
pub fn days_left(period_end: NaiveDate, today: NaiveDate) -> u32 {
    let days = period_end.signed_duration_since(today).num_days().saturating_add(1);
    u32::try_from(days.max(0)).unwrap_or(u32::MAX)
}

/// Open while days left is above zero, ended otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProjectPhase {
    Open,
    Ended,
}

impl ProjectPhase {
    pub fn on(period_end: NaiveDate, today: NaiveDate) -> Self {
        if days_left(period_end, today) > 0 {
            Self::Open
        } else {
            Self::Ended
        }
    }
}

/// Whether a project accepts support on `today`.
pub fn is_open(period_end: NaiveDate, today: NaiveDate) -> bool {
    ProjectPhase::on(period_end, today) == ProjectPhase::Open
}

/// Progress towards the goal, held as integer hundredths of a percent
/// (12.34 % is 1234) so no float is involved until display.
///
/// The raw value may exceed 100 %; only the ring is capped. A goal of zero
/// or less has no meaningful ratio and counts as 0 %.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Progress {
    hundredths: u64,
    tenths: u64,
}

impl Progress {
    pub fn new(raised: Yen, goal: Yen) -> Self {
        Self { hundredths: rounded_ratio(raised, goal, 10_000), tenths: rounded_ratio(raised, goal, 1_000) }
    }

    /// The percent rounded to two decimals, in hundredths (for the ring).
    pub const fn hundredths(self) -> u64 {
        self.hundredths
    }

    /// The percent rounded to one decimal, in tenths (for cards). Rounded
    /// from the exact ratio, not from the two-decimal value, so no double rounding.
    pub const fn tenths(self) -> u64 {
        self.tenths
    }

    /// Hundredths capped at 100 %, for drawing the ring.
    pub fn capped_hundredths(self) -> u64 {
        self.hundredths.min(10_000)
    }

    /// The card's label, e.g. `"123.5"` (not capped).
    pub fn card_label(self) -> String {
        format!("{}.{}", self.tenths / 10, self.tenths % 10)
    }
}

/// `round(raised × scale / goal)`, half up; 0 for a non-positive goal or raise.
fn rounded_ratio(raised: Yen, goal: Yen, scale: u128) -> u64 {
    let (Ok(raised), Ok(goal)) = (u128::try_from(raised.0), u128::try_from(goal.0)) else {
        return 0;
    };
    if goal == 0 {
        return 0;
    }
    let value = (raised * scale * 2 + goal) / (goal * 2);
    u64::try_from(value).unwrap_or(u64::MAX)
}

/// How a project treats its money at the end, as the terms of use define
/// both (「オールイン方式」「オールオアナッシング方式」).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FundingModel {
    /// Supports are carried out whether or not the goal is reached.
    AllIn,
    /// Supports are carried out only if the goal is reached within the period.
    AllOrNothing,
}

impl FundingModel {
    /// The stored code (`projects.funding_model`); `None` for anything else.
    pub fn parse(code: &str) -> Option<Self> {
        match code {
            "all_in" => Some(Self::AllIn),
            "all_or_nothing" => Some(Self::AllOrNothing),
            _ => None,
        }
    }

    pub const fn code(self) -> &'static str {
        match self {
            Self::AllIn => "all_in",
            Self::AllOrNothing => "all_or_nothing",
        }
    }
}

/// Whether the goal was reached: raised at least the goal (a goal of zero or
/// less is reached by any total).
pub fn is_achieved(raised: Yen, goal: Yen) -> bool {
    raised.0 >= goal.0
}

/// The last minute a project accepts support, in Tokyo wall-clock time: the
/// end day at 23:59 (`period_end` is the last open day, see [`days_left`]).
pub fn closing_time(period_end: NaiveDate) -> chrono::NaiveDateTime {
    period_end.and_hms_opt(23, 59, 0).unwrap_or_else(|| period_end.and_time(chrono::NaiveTime::MIN))
}

/// How long before a kept project's end its followers are mailed (issue #23).
pub const END_NOTICE_HOURS: i64 = 48;

/// Whether a project ending on `period_end` closes within [`END_NOTICE_HOURS`]
/// of `now` (Tokyo wall-clock time) and has not closed yet.
pub fn end_notice_due(period_end: NaiveDate, now: chrono::NaiveDateTime) -> bool {
    let closes = closing_time(period_end);
    closes > now && closes - now <= chrono::Duration::hours(END_NOTICE_HOURS)
}

/// Home-page order: open projects first, then ended ones, each group by end
/// date, latest first.
pub fn home_order(a_end: NaiveDate, b_end: NaiveDate, today: NaiveDate) -> Ordering {
    ProjectPhase::on(a_end, today).cmp(&ProjectPhase::on(b_end, today)).then_with(|| b_end.cmp(&a_end))
}

/// Sorts projects for the home page; equal keys keep their input order.
pub fn sort_for_home<T>(projects: &mut [T], today: NaiveDate, period_end: impl Fn(&T) -> NaiveDate) {
    projects.sort_by(|a, b| home_order(period_end(a), period_end(b), today));
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    #[test]
    fn the_end_notice_is_due_from_48_hours_before_the_close_until_the_close() {
        let at = |day: u32, h: u32, m: u32| d(2027, 3, day).and_hms_opt(h, m, 0).unwrap();
        // The project closes on 3 March at 23:59.
        assert!(!end_notice_due(d(2027, 3, 3), at(1, 23, 58)));
        assert!(end_notice_due(d(2027, 3, 3), at(1, 23, 59)));
        assert!(end_notice_due(d(2027, 3, 3), at(3, 23, 58)));
        assert!(!end_notice_due(d(2027, 3, 3), at(3, 23, 59)), "closed");
    }

    #[test]
    fn end_day_itself_counts_as_one_day_left() {
        assert_eq!(days_left(d(2026, 3, 31), d(2026, 3, 31)), 1);
        assert!(is_open(d(2026, 3, 31), d(2026, 3, 31)));
    }

    #[test]
    fn day_after_the_end_has_no_days_left_and_is_ended() {
        assert_eq!(days_left(d(2026, 3, 31), d(2026, 4, 1)), 0);
        assert_eq!(ProjectPhase::on(d(2026, 3, 31), d(2026, 4, 1)), ProjectPhase::Ended);
    }

    #[test]
    fn days_left_counts_today_through_the_end_day() {
        assert_eq!(days_left(d(2026, 3, 31), d(2026, 3, 1)), 31);
    }

    #[test]
    fn long_past_projects_stay_at_zero() {
        assert_eq!(days_left(d(2020, 1, 1), d(2026, 1, 1)), 0);
    }

    #[test]
    fn progress_rounds_half_up_to_two_and_one_decimals() {
        // 1/3 = 33.333..% ; 2/3 = 66.666..%
        let third = Progress::new(Yen(1), Yen(3));
        assert_eq!((third.hundredths(), third.card_label()), (3333, "33.3".into()));
        let two_thirds = Progress::new(Yen(2), Yen(3));
        assert_eq!((two_thirds.hundredths(), two_thirds.card_label()), (6667, "66.7".into()));
    }

    #[test]
    fn card_percent_is_not_double_rounded() {
        // 12.345 % exactly -> ring 12.35 (half up), card 12.3 (from 12.345, not 12.35)
        let p = Progress::new(Yen(12_345), Yen(100_000));
        assert_eq!(p.hundredths(), 1235);
        assert_eq!(p.card_label(), "12.3");
    }

    #[test]
    fn raw_percent_can_exceed_one_hundred_but_the_ring_is_capped() {
        let p = Progress::new(Yen(1_500_000), Yen(1_000_000));
        assert_eq!(p.hundredths(), 15_000);
        assert_eq!(p.card_label(), "150.0");
        assert_eq!(p.capped_hundredths(), 10_000, "the ring stops at full");
    }

    #[test]
    fn zero_goal_counts_as_zero_percent() {
        assert_eq!(Progress::new(Yen(100), Yen(0)).hundredths(), 0);
    }

    #[test]
    fn funding_model_codes_round_trip_and_unknown_codes_are_refused() {
        for model in [FundingModel::AllIn, FundingModel::AllOrNothing] {
            assert_eq!(FundingModel::parse(model.code()), Some(model));
        }
        assert_eq!(FundingModel::parse("keep_it_all"), None);
    }

    #[test]
    fn the_goal_is_achieved_from_the_goal_amount_upwards() {
        assert!(!is_achieved(Yen(999_999), Yen(1_000_000)));
        assert!(is_achieved(Yen(1_000_000), Yen(1_000_000)));
        assert!(is_achieved(Yen(1_500_000), Yen(1_000_000)));
    }

    #[test]
    fn a_project_closes_at_the_last_minute_of_its_end_day() {
        assert_eq!(closing_time(d(2026, 12, 31)).format("%Y-%m-%d %H:%M").to_string(), "2026-12-31 23:59");
    }

    #[test]
    fn home_lists_open_projects_first_then_ended_each_latest_end_first() {
        let today = d(2026, 6, 1);
        let mut ends = vec![d(2026, 1, 1), d(2026, 7, 1), d(2026, 5, 1), d(2026, 9, 1), d(2026, 6, 1)];
        sort_for_home(&mut ends, today, |e| *e);
        assert_eq!(ends, vec![d(2026, 9, 1), d(2026, 7, 1), d(2026, 6, 1), d(2026, 5, 1), d(2026, 1, 1)]);
    }

    fn any_date() -> impl Strategy<Value = NaiveDate> {
        (-100_000i64..100_000).prop_map(|n| d(2000, 1, 1) + chrono::Duration::days(n))
    }

    proptest! {
        #[test]
        fn open_exactly_until_the_end_day(end in any_date(), today in any_date()) {
            prop_assert_eq!(is_open(end, today), today <= end);
        }

        #[test]
        fn one_more_day_means_one_less_left_while_open(end in any_date(), today in any_date()) {
            let tomorrow = today.succ_opt().unwrap();
            let (now, next) = (days_left(end, today), days_left(end, tomorrow));
            prop_assert_eq!(next, now.saturating_sub(1));
        }

        #[test]
        fn progress_is_the_rounded_exact_ratio(raised in 0i64..=i64::MAX, goal in 1i64..=i64::MAX) {
            let p = Progress::new(Yen(raised), Yen(goal));
            let (r, g) = (u128::try_from(raised).unwrap(), u128::try_from(goal).unwrap());
            prop_assume!(r * 10_000 / g < u128::from(u64::MAX));
            let h = u128::from(p.hundredths());
            // |h − exact| <= 1/2, i.e. |2·h·g − 2·r·10000| <= g
            prop_assert!((2 * h * g).abs_diff(2 * r * 10_000) <= g);
            prop_assert!(p.capped_hundredths() <= 10_000);
        }

        #[test]
        fn home_order_puts_every_open_project_before_every_ended_one(
            mut ends in proptest::collection::vec(any_date(), 0..20), today in any_date()
        ) {
            sort_for_home(&mut ends, today, |e| *e);
            let first_ended = ends.iter().position(|e| !is_open(*e, today)).unwrap_or(ends.len());
            prop_assert!(ends[first_ended..].iter().all(|e| !is_open(*e, today)));
            prop_assert!(ends[..first_ended].windows(2).all(|w| w[0] >= w[1]));
            prop_assert!(ends[first_ended..].windows(2).all(|w| w[0] >= w[1]));
        }
    }
}
