//! Finding projects: the public list's filters and orders, and which open
//! projects a project page suggests next. Keyword matching is in
//! [`crate::search`].

use std::cmp::Ordering;

use chrono::{DateTime, NaiveDate, Utc};

use crate::money::Yen;
use crate::project::is_open;

/// Cards on one page of the list.
pub const LIST_PAGE_SIZE: usize = 24;
/// The last page the list answers (24,000 cards); beyond it `page` is refused.
pub const MAX_LIST_PAGE: u32 = 1000;
/// Related projects a project page shows at most.
pub const MAX_RELATED: usize = 3;

/// Which projects by their phase: `open` (募集中), `ended` (終了), `all` (すべて).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ListState {
    Open,
    Ended,
    #[default]
    All,
}

impl ListState {
    pub fn parse(code: &str) -> Option<Self> {
        match code {
            "open" => Some(Self::Open),
            "ended" => Some(Self::Ended),
            "all" => Some(Self::All),
            _ => None,
        }
    }

    /// Whether a project ending on `period_end` is listed on `today`.
    pub fn admits(self, period_end: NaiveDate, today: NaiveDate) -> bool {
        match self {
            Self::Open => is_open(period_end, today),
            Self::Ended => !is_open(period_end, today),
            Self::All => true,
        }
    }
}

/// The list's order: 新着 (`new`: published newest first), 支援額 (`raised`:
/// most first), 支援者数 (`backers`: most first), 終了間近 (`ending`: open
/// projects ending soonest first, then ended ones, the most recently ended
/// first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ListSort {
    #[default]
    New,
    Raised,
    Backers,
    Ending,
}

impl ListSort {
    /// The address value of each order, in the order a menu offers them.
    pub const ALL: [Self; 4] = [Self::New, Self::Raised, Self::Backers, Self::Ending];

    pub fn parse(code: &str) -> Option<Self> {
        match code {
            "new" => Some(Self::New),
            "raised" => Some(Self::Raised),
            "backers" => Some(Self::Backers),
            "ending" => Some(Self::Ending),
            _ => None,
        }
    }
}

/// What the list orders a project by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListKey {
    /// Ties end on the id, newest project first, so every order is total.
    pub id: i64,
    pub published_at: DateTime<Utc>,
    pub raised: Yen,
    pub backers: i64,
    pub period_end: NaiveDate,
}

/// How `a` and `b` compare in `sort` on `today`.
pub fn list_order(sort: ListSort, a: &ListKey, b: &ListKey, today: NaiveDate) -> Ordering {
    let newest_id = b.id.cmp(&a.id);
    match sort {
        ListSort::New => b.published_at.cmp(&a.published_at).then(newest_id),
        ListSort::Raised => b.raised.cmp(&a.raised).then(b.backers.cmp(&a.backers)).then(newest_id),
        ListSort::Backers => b.backers.cmp(&a.backers).then(b.raised.cmp(&a.raised)).then(newest_id),
        ListSort::Ending => match (is_open(a.period_end, today), is_open(b.period_end, today)) {
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            (true, true) => a.period_end.cmp(&b.period_end).then(newest_id),
            (false, false) => b.period_end.cmp(&a.period_end).then(newest_id),
        },
    }
}

/// Where a project is and what it is about (ids of `areas` and `categories`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Placement {
    pub area: Option<i64>,
    pub category: Option<i64>,
}

/// How close `candidate` is to `of`: 2 for the same area and category, 1 for
/// one of them, 0 for neither (an unset area or category never matches).
pub fn relatedness(of: Placement, candidate: Placement) -> u8 {
    let same = |x: Option<i64>, y: Option<i64>| u8::from(x.is_some() && x == y);
    same(of.area, candidate.area) + same(of.category, candidate.category)
}

/// `true` for a value shaped like an area or category slug: 1 to 60 of
/// `a-z`, `0-9` and inner hyphens (the tables' CHECK says the same).
pub fn is_slug_shaped(value: &str) -> bool {
    let bytes = value.as_bytes();
    (1..=60).contains(&bytes.len())
        && bytes.iter().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-')
        && bytes.first() != Some(&b'-')
        && bytes.last() != Some(&b'-')
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;
    use proptest::prelude::*;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    fn key(id: i64, published_day: u32, raised: i64, backers: i64, end: NaiveDate) -> ListKey {
        ListKey {
            id,
            published_at: Utc.with_ymd_and_hms(2026, 11, published_day, 9, 0, 0).unwrap(),
            raised: Yen(raised),
            backers,
            period_end: end,
        }
    }

    fn sorted(sort: ListSort, mut keys: Vec<ListKey>, today: NaiveDate) -> Vec<i64> {
        keys.sort_by(|a, b| list_order(sort, a, b, today));
        keys.into_iter().map(|k| k.id).collect()
    }

    #[test]
    fn each_order_puts_first_what_its_label_says() {
        let today = d(2026, 12, 1);
        let keys = vec![
            key(1, 1, 50_000, 3, d(2026, 12, 20)),
            key(2, 3, 10_000, 9, d(2026, 12, 5)),
            key(3, 2, 90_000, 1, d(2026, 11, 30)),
            key(4, 4, 10_000, 2, d(2027, 1, 31)),
        ];
        assert_eq!(sorted(ListSort::New, keys.clone(), today), [4, 2, 3, 1]);
        assert_eq!(sorted(ListSort::Raised, keys.clone(), today), [3, 1, 2, 4]);
        assert_eq!(sorted(ListSort::Backers, keys.clone(), today), [2, 1, 4, 3]);
        // Open ones ending soonest first; the ended one (3) last.
        assert_eq!(sorted(ListSort::Ending, keys, today), [2, 1, 4, 3]);
    }

    #[test]
    fn the_end_day_itself_is_still_open() {
        let today = d(2026, 12, 1);
        assert!(ListState::Open.admits(today, today));
        assert!(ListState::Ended.admits(d(2026, 11, 30), today));
        assert!(ListState::All.admits(d(2026, 11, 30), today) && ListState::All.admits(today, today));
    }

    #[test]
    fn codes_are_read_exactly() {
        assert_eq!(ListSort::parse("ending"), Some(ListSort::Ending));
        assert_eq!(ListSort::parse("Ending"), None);
        assert_eq!(ListSort::parse("raised"), Some(ListSort::Raised));
        assert_eq!(ListState::parse("ended"), Some(ListState::Ended));
        assert_eq!(ListState::parse(""), None);
    }

    #[test]
    fn an_unset_area_or_category_relates_nothing() {
        let none = Placement::default();
        let maebashi_food = Placement { area: Some(1), category: Some(1) };
        assert_eq!(relatedness(none, none), 0);
        assert_eq!(relatedness(maebashi_food, maebashi_food), 2);
        assert_eq!(relatedness(maebashi_food, Placement { area: Some(1), category: Some(2) }), 1);
        assert_eq!(relatedness(maebashi_food, Placement { area: None, category: Some(1) }), 1);
        assert_eq!(relatedness(maebashi_food, Placement { area: Some(2), category: None }), 0);
    }

    #[test]
    fn slugs_are_lower_case_ascii_with_inner_hyphens() {
        for ok in ["maebashi", "food-agriculture", "a", "x1"] {
            assert!(is_slug_shaped(ok), "{ok}");
        }
        for bad in ["", "-a", "a-", "Maebashi", "前橋", "a b", &"a".repeat(61)] {
            assert!(!is_slug_shaped(bad), "{bad}");
        }
    }

    proptest! {
        /// Every order is total and consistent: sorting twice, or from any starting order, gives the same list.
        #[test]
        fn every_order_is_a_total_order(
            raw in prop::collection::vec((1u32..28, 0i64..5, 0i64..4, 0i64..20), 0..12),
            sort in 0usize..4,
        ) {
            let sort = ListSort::ALL[sort];
            let today = d(2026, 12, 10);
            let keys: Vec<ListKey> = raw.iter().enumerate()
                .map(|(i, &(p, r, b, e))| key(i as i64, p, r * 1000, b, d(2026, 12, 1) + chrono::Duration::days(e)))
                .collect();
            let once = sorted(sort, keys.clone(), today);
            let mut reversed = keys;
            reversed.reverse();
            prop_assert_eq!(sorted(sort, reversed, today), once);
        }
    }
}
