//! Japan's calendar of days off, computed from the law rather than listed:
//! the public holidays of 国民の祝日に関する法律 (with 振替休日 and 国民の休日)
//! and the banks' year-end closure (12/31-1/3). Transfer deadlines and payout
//! dates count business days with it, so it never runs out.
//!
//! The rules are those in force since 2007 (振替休日 on the next non-holiday,
//! 昭和の日, みどりの日 on 5/4), with the days moved by special laws in 2019-2021.
//! The equinoxes use the astronomical approximation the Cabinet Office's
//! published days follow from 1980 to 2099; outside 2007..=2099 only the
//! weekend and year-end rules apply, and [`SUPPORTED_YEARS`] says so.

use chrono::{Datelike, NaiveDate, Weekday};
use std::ops::RangeInclusive;

/// The years whose public holidays [`is_public_holiday`] knows.
pub const SUPPORTED_YEARS: RangeInclusive<i32> = 2007..=2099;

/// Whether `day` is a national holiday, a substitute holiday (振替休日) or a
/// citizens' holiday (国民の休日).
pub fn is_public_holiday(day: NaiveDate) -> bool {
    if !SUPPORTED_YEARS.contains(&day.year()) {
        return false;
    }
    is_named_holiday(day) || is_substitute_holiday(day) || is_citizens_holiday(day)
}

/// Whether banks transfer money on `day`: not a weekend, a public holiday
/// nor the year-end closure (12/31-1/3).
pub fn is_bank_business_day(day: NaiveDate) -> bool {
    let year_end = matches!((day.month(), day.day()), (12, 31) | (1, 1..=3));
    !matches!(day.weekday(), Weekday::Sat | Weekday::Sun) && !year_end && !is_public_holiday(day)
}

/// The `n`th bank business day after `day` (`n = 0` is `day` itself); the
/// last representable date if the calendar ends first.
pub fn nth_bank_business_day_after(day: NaiveDate, n: u32) -> NaiveDate {
    let mut current = day;
    let mut counted = 0;
    while counted < n {
        match current.succ_opt() {
            Some(next) => current = next,
            None => return current,
        }
        if is_bank_business_day(current) {
            counted += 1;
        }
    }
    current
}

/// The `n`th bank business day (n >= 1) of a month; `None` when the month has fewer.
pub fn nth_bank_business_day_of_month(year: i32, month: u32, n: u32) -> Option<NaiveDate> {
    let first = NaiveDate::from_ymd_opt(year, month, 1)?;
    let start = if is_bank_business_day(first) { 1 } else { 0 };
    let found = nth_bank_business_day_after(first, n.saturating_sub(start));
    (found.month() == month).then_some(found)
}

/// The days the law names (国民の祝日), without the days derived from them.
fn is_named_holiday(day: NaiveDate) -> bool {
    let (y, m, d) = (day.year(), day.month(), day.day());
    if let Some(moved) = moved_by_special_law(y, m, d) {
        return moved;
    }
    match m {
        1 => d == 1 || is_nth_monday(day, 2),
        2 => d == 11 || (d == 23 && y >= 2020),
        3 => d == vernal_equinox_day(y),
        4 => d == 29 || (y == 2019 && d == 30),
        5 => matches!(d, 3..=5) || (y == 2019 && d == 1),
        7 => is_nth_monday(day, 3),
        8 => d == 11 && y >= 2016,
        9 => is_nth_monday(day, 3) || d == autumnal_equinox_day(y),
        10 => is_nth_monday(day, 2) || (y == 2019 && d == 22),
        11 => d == 3 || d == 23,
        12 => d == 23 && y <= 2018,
        _ => false,
    }
}

/// The Olympic years moved 海の日, 山の日 and スポーツの日 by special law:
/// `Some(true)` on the day they moved to, `Some(false)` on the day they left.
fn moved_by_special_law(y: i32, m: u32, d: u32) -> Option<bool> {
    let moved_to: &[(u32, u32)] = match y {
        2020 => &[(7, 23), (7, 24), (8, 10)],
        2021 => &[(7, 22), (7, 23), (8, 8)],
        _ => return None,
    };
    if moved_to.contains(&(m, d)) {
        return Some(true);
    }
    // The usual days of the three moved holidays are ordinary days that year.
    let usual = NaiveDate::from_ymd_opt(y, m, d)?;
    let left = (m == 7 && is_nth_monday(usual, 3)) || (m == 8 && d == 11) || (m == 10 && is_nth_monday(usual, 2));
    left.then_some(false)
}

/// 振替休日: when a holiday falls on a Sunday, the first following day that
/// is not a holiday is one.
fn is_substitute_holiday(day: NaiveDate) -> bool {
    if is_named_holiday(day) {
        return false;
    }
    let mut previous = day.pred_opt();
    while let Some(p) = previous {
        if !is_named_holiday(p) {
            return false;
        }
        if p.weekday() == Weekday::Sun {
            return true;
        }
        previous = p.pred_opt();
    }
    false
}

/// 国民の休日: an ordinary day between two named holidays.
fn is_citizens_holiday(day: NaiveDate) -> bool {
    let between = |a: Option<NaiveDate>, b: Option<NaiveDate>| match (a, b) {
        (Some(a), Some(b)) => is_named_holiday(a) && is_named_holiday(b),
        _ => false,
    };
    !is_named_holiday(day) && day.weekday() != Weekday::Sun && between(day.pred_opt(), day.succ_opt())
}

fn is_nth_monday(day: NaiveDate, n: u32) -> bool {
    day.weekday() == Weekday::Mon && (day.day() - 1) / 7 + 1 == n
}

/// 春分の日 (valid 1980-2099).
fn vernal_equinox_day(year: i32) -> u32 {
    equinox_day(year, 20.8431)
}

/// 秋分の日 (valid 1980-2099).
fn autumnal_equinox_day(year: i32) -> u32 {
    equinox_day(year, 23.2488)
}

fn equinox_day(year: i32, base: f64) -> u32 {
    let since = f64::from(year - 1980);
    (base + 0.242194 * since - (since / 4.0).floor()).floor() as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn holidays_of(year: i32) -> Vec<(u32, u32)> {
        let mut day = NaiveDate::from_ymd_opt(year, 1, 1).unwrap();
        let mut found = Vec::new();
        while day.year() == year {
            if is_public_holiday(day) {
                found.push((day.month(), day.day()));
            }
            day = day.succ_opt().unwrap();
        }
        found
    }

    /// The Cabinet Office's published lists (内閣府「国民の祝日について」).
    #[test]
    fn the_computed_holidays_match_the_published_lists() {
        let published: &[(i32, &[(u32, u32)])] = &[
            (
                2009,
                &[
                    (1, 1),
                    (1, 12),
                    (2, 11),
                    (3, 20),
                    (4, 29),
                    (5, 3),
                    (5, 4),
                    (5, 5),
                    (5, 6),
                    (7, 20),
                    (9, 21),
                    (9, 22),
                    (9, 23),
                    (10, 12),
                    (11, 3),
                    (11, 23),
                    (12, 23),
                ],
            ),
            (
                2015,
                &[
                    (1, 1),
                    (1, 12),
                    (2, 11),
                    (3, 21),
                    (4, 29),
                    (5, 3),
                    (5, 4),
                    (5, 5),
                    (5, 6),
                    (7, 20),
                    (9, 21),
                    (9, 22),
                    (9, 23),
                    (10, 12),
                    (11, 3),
                    (11, 23),
                    (12, 23),
                ],
            ),
            (
                2019,
                &[
                    (1, 1),
                    (1, 14),
                    (2, 11),
                    (3, 21),
                    (4, 29),
                    (4, 30),
                    (5, 1),
                    (5, 2),
                    (5, 3),
                    (5, 4),
                    (5, 5),
                    (5, 6),
                    (7, 15),
                    (8, 11),
                    (8, 12),
                    (9, 16),
                    (9, 23),
                    (10, 14),
                    (10, 22),
                    (11, 3),
                    (11, 4),
                    (11, 23),
                ],
            ),
            (
                2020,
                &[
                    (1, 1),
                    (1, 13),
                    (2, 11),
                    (2, 23),
                    (2, 24),
                    (3, 20),
                    (4, 29),
                    (5, 3),
                    (5, 4),
                    (5, 5),
                    (5, 6),
                    (7, 23),
                    (7, 24),
                    (8, 10),
                    (9, 21),
                    (9, 22),
                    (11, 3),
                    (11, 23),
                ],
            ),
            (
                2021,
                &[
                    (1, 1),
                    (1, 11),
                    (2, 11),
                    (2, 23),
                    (3, 20),
                    (4, 29),
                    (5, 3),
                    (5, 4),
                    (5, 5),
                    (7, 22),
                    (7, 23),
                    (8, 8),
                    (8, 9),
                    (9, 20),
                    (9, 23),
                    (11, 3),
                    (11, 23),
                ],
            ),
            (
                2024,
                &[
                    (1, 1),
                    (1, 8),
                    (2, 11),
                    (2, 12),
                    (2, 23),
                    (3, 20),
                    (4, 29),
                    (5, 3),
                    (5, 4),
                    (5, 5),
                    (5, 6),
                    (7, 15),
                    (8, 11),
                    (8, 12),
                    (9, 16),
                    (9, 22),
                    (9, 23),
                    (10, 14),
                    (11, 3),
                    (11, 4),
                    (11, 23),
                ],
            ),
            (
                2025,
                &[
                    (1, 1),
                    (1, 13),
                    (2, 11),
                    (2, 23),
                    (2, 24),
                    (3, 20),
                    (4, 29),
                    (5, 3),
                    (5, 4),
                    (5, 5),
                    (5, 6),
                    (7, 21),
                    (8, 11),
                    (9, 15),
                    (9, 23),
                    (10, 13),
                    (11, 3),
                    (11, 23),
                    (11, 24),
                ],
            ),
            (
                2026,
                &[
                    (1, 1),
                    (1, 12),
                    (2, 11),
                    (2, 23),
                    (3, 20),
                    (4, 29),
                    (5, 3),
                    (5, 4),
                    (5, 5),
                    (5, 6),
                    (7, 20),
                    (8, 11),
                    (9, 21),
                    (9, 22),
                    (9, 23),
                    (10, 12),
                    (11, 3),
                    (11, 23),
                ],
            ),
            (
                2027,
                &[
                    (1, 1),
                    (1, 11),
                    (2, 11),
                    (2, 23),
                    (3, 21),
                    (3, 22),
                    (4, 29),
                    (5, 3),
                    (5, 4),
                    (5, 5),
                    (7, 19),
                    (8, 11),
                    (9, 20),
                    (9, 23),
                    (10, 11),
                    (11, 3),
                    (11, 23),
                ],
            ),
        ];
        for (year, days) in published {
            assert_eq!(holidays_of(*year), days.to_vec(), "public holidays of {year}");
        }
    }

    /// The equinoxes the National Astronomical Observatory has announced ahead (暦要項) and the years after.
    #[test]
    fn the_equinoxes_of_coming_years() {
        assert_eq!((vernal_equinox_day(2028), autumnal_equinox_day(2028)), (20, 22));
        assert_eq!((vernal_equinox_day(2029), autumnal_equinox_day(2029)), (20, 23));
        assert_eq!((vernal_equinox_day(2030), autumnal_equinox_day(2030)), (20, 23));
        assert_eq!((vernal_equinox_day(2044), autumnal_equinox_day(2044)), (20, 22));
    }

    #[test]
    fn banks_close_from_new_years_eve_to_the_third_of_january() {
        let d = |m, day| NaiveDate::from_ymd_opt(2029, m, day).unwrap();
        // 2028-12-31 to 2029-01-03 closed (1/1 and 1/2-1/3 are weekdays in 2029), 1/4 (Thu) open.
        assert!(!is_bank_business_day(NaiveDate::from_ymd_opt(2028, 12, 31).unwrap()));
        assert!(!is_bank_business_day(d(1, 2)));
        assert!(!is_bank_business_day(d(1, 3)));
        assert!(is_bank_business_day(d(1, 4)));
    }

    #[test]
    fn the_third_business_day_of_a_month_skips_new_year() {
        // January 2030: 1/1-1/3 closed, 1/4 Fri is the first, then Mon 1/7, Tue 1/8 (1/14 is 成人の日).
        assert_eq!(nth_bank_business_day_of_month(2030, 1, 3), NaiveDate::from_ymd_opt(2030, 1, 8));
        // May 2027: 5/3-5/5 holidays, 5/1-2 weekend; Thu 5/6, Fri 5/7, Mon 5/10.
        assert_eq!(nth_bank_business_day_of_month(2027, 5, 3), NaiveDate::from_ymd_opt(2027, 5, 10));
        assert_eq!(nth_bank_business_day_of_month(2027, 5, 1), NaiveDate::from_ymd_opt(2027, 5, 6));
        assert_eq!(nth_bank_business_day_of_month(2027, 2, 40), None);
    }

    proptest! {
        /// Every year the law covers has between 15 and 22 days off, and no holiday is a Saturday-only artefact:
        /// substitute holidays never fall on a Sunday.
        #[test]
        fn every_supported_year_has_a_plausible_number_of_holidays(year in 2007i32..=2099) {
            let days = holidays_of(year);
            prop_assert!((15..=22).contains(&days.len()), "{year}: {} holidays", days.len());
            for (m, d) in days {
                let day = NaiveDate::from_ymd_opt(year, m, d).unwrap();
                if !is_named_holiday(day) {
                    prop_assert_ne!(day.weekday(), Weekday::Sun);
                }
            }
        }

        /// The nth business day after a day is a business day, later than the day, with n-1 business days between.
        #[test]
        fn business_days_are_counted_exactly(offset in 0i64..40_000, n in 1u32..10) {
            let start = NaiveDate::from_ymd_opt(2000, 1, 1).unwrap() + chrono::Duration::days(offset);
            let end = nth_bank_business_day_after(start, n);
            prop_assert!(is_bank_business_day(end));
            let between = start.iter_days().skip(1).take_while(|d| *d < end).filter(|d| is_bank_business_day(*d)).count();
            prop_assert_eq!(between as u32, n - 1);
        }
    }
}
