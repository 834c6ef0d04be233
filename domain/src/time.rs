//! The site's calendar is Asia/Tokyo, which has had no daylight saving since
//! 1951: a fixed +09:00 offset converts exactly.

use chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime, Offset, Utc};

const TOKYO_OFFSET_SECONDS: i32 = 9 * 3600;

/// +09:00 (the fallback is unreachable: the offset is within a day).
pub fn tokyo() -> FixedOffset {
    FixedOffset::east_opt(TOKYO_OFFSET_SECONDS).unwrap_or_else(|| Utc.fix())
}

/// Wall-clock time in Tokyo.
pub fn tokyo_datetime(instant: DateTime<Utc>) -> NaiveDateTime {
    instant.with_timezone(&tokyo()).naive_local()
}

/// Calendar date in Tokyo.
pub fn tokyo_date(instant: DateTime<Utc>) -> NaiveDate {
    tokyo_datetime(instant).date()
}

/// The instant of a Tokyo wall-clock time.
pub fn from_tokyo(local: NaiveDateTime) -> DateTime<Utc> {
    (local - chrono::Duration::seconds(i64::from(TOKYO_OFFSET_SECONDS))).and_utc()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn midnight_utc_is_nine_in_the_morning_in_tokyo() {
        let instant = Utc.with_ymd_and_hms(2026, 11, 25, 0, 0, 0).unwrap();
        assert_eq!(tokyo_datetime(instant).format("%Y-%m-%d %H:%M").to_string(), "2026-11-25 09:00");
    }

    #[test]
    fn late_evening_utc_is_already_the_next_day_in_tokyo() {
        let instant = Utc.with_ymd_and_hms(2026, 11, 25, 15, 0, 0).unwrap();
        assert_eq!(tokyo_date(instant), NaiveDate::from_ymd_opt(2026, 11, 26).unwrap());
    }

    #[test]
    fn converting_to_tokyo_and_back_is_lossless() {
        let instant = Utc.with_ymd_and_hms(2026, 3, 1, 12, 34, 56).unwrap();
        assert_eq!(from_tokyo(tokyo_datetime(instant)), instant);
    }
}
