//! Pagination links: every page up to five, otherwise a window with dots
//! (spec 000 §9).

use serde::{Deserialize, Serialize};

/// Up to this many pages, every page gets a link.
pub const MAX_PAGES_WITHOUT_DOTS: u32 = 5;

/// One slot of the pagination bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "page")]
pub enum Item {
    Page(u32),
    /// Two or more pages left out.
    Dots,
}

/// The bar for page `current` of `total` (pages count from 1).
///
/// Beyond five pages: the first page, the current page with one neighbour
/// on each side (three pages at the edges), the last page, and dots for
/// each gap. A gap of a single page shows that page instead of dots, which
/// would take the same room and hide it. At most seven slots. A `current`
/// outside 1..=total is clamped; zero pages give an empty bar.
pub fn items(current: u32, total: u32) -> Vec<Item> {
    if total == 0 {
        return Vec::new();
    }
    if total <= MAX_PAGES_WITHOUT_DOTS {
        return (1..=total).map(Item::Page).collect();
    }
    let current = current.clamp(1, total);
    let start = current.saturating_sub(1).clamp(1, total - 2);
    let mut shown = vec![1];
    shown.extend(start..=start + 2);
    shown.push(total);
    shown.dedup();

    let mut out = Vec::with_capacity(7);
    let mut previous = 0;
    for page in shown {
        match page - previous {
            0 | 1 => {}
            2 => out.push(Item::Page(previous + 1)),
            _ => out.push(Item::Dots),
        }
        out.push(Item::Page(page));
        previous = page;
    }
    out
}

/// Comments on one page of a project's comment list.
pub const COMMENTS_PER_PAGE: u32 = 10;

/// Pages needed for `total` entries, `per_page` on each (0 for none).
pub fn page_count(total: usize, per_page: u32) -> u32 {
    let per_page = usize::try_from(per_page.max(1)).unwrap_or(usize::MAX);
    u32::try_from(total.div_ceil(per_page)).unwrap_or(u32::MAX)
}

/// The entries of page `page` (from 1; clamped into the pages there are) as
/// an index range into the whole list, and the page actually shown.
pub fn page_slice(page: u32, per_page: u32, total: usize) -> (std::ops::Range<usize>, u32) {
    let pages = page_count(total, per_page).max(1);
    let page = page.clamp(1, pages);
    let per_page = usize::try_from(per_page.max(1)).unwrap_or(usize::MAX);
    let start = usize::try_from(page - 1).unwrap_or(usize::MAX).saturating_mul(per_page).min(total);
    (start..start.saturating_add(per_page).min(total), page)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use Item::{Dots, Page};

    #[test]
    fn pages_are_cut_from_the_whole_list_and_an_out_of_range_page_is_clamped() {
        assert_eq!(page_count(0, 10), 0);
        assert_eq!(page_count(10, 10), 1);
        assert_eq!(page_count(11, 10), 2);
        assert_eq!(page_slice(1, 10, 25), (0..10, 1));
        assert_eq!(page_slice(3, 10, 25), (20..25, 3));
        assert_eq!(page_slice(9, 10, 25), (20..25, 3));
        assert_eq!(page_slice(0, 10, 25), (0..10, 1));
        assert_eq!(page_slice(1, 10, 0), (0..0, 1));
    }

    #[test]
    fn five_pages_or_fewer_are_all_shown() {
        assert_eq!(items(3, 5), vec![Page(1), Page(2), Page(3), Page(4), Page(5)]);
        assert_eq!(items(1, 1), vec![Page(1)]);
    }

    #[test]
    fn no_pages_give_an_empty_bar() {
        assert!(items(1, 0).is_empty());
    }

    #[test]
    fn first_page_of_many_shows_the_start_and_the_last_page() {
        assert_eq!(items(1, 10), vec![Page(1), Page(2), Page(3), Dots, Page(10)]);
    }

    #[test]
    fn last_page_of_many_shows_the_end_and_the_first_page() {
        assert_eq!(items(10, 10), vec![Page(1), Dots, Page(8), Page(9), Page(10)]);
    }

    #[test]
    fn middle_page_has_dots_on_both_sides() {
        assert_eq!(items(5, 10), vec![Page(1), Dots, Page(4), Page(5), Page(6), Dots, Page(10)]);
    }

    #[test]
    fn a_single_hidden_page_is_shown_instead_of_dots() {
        assert_eq!(items(4, 10), vec![Page(1), Page(2), Page(3), Page(4), Page(5), Dots, Page(10)]);
        assert_eq!(items(3, 6), vec![Page(1), Page(2), Page(3), Page(4), Page(5), Page(6)]);
    }

    #[test]
    fn out_of_range_current_page_is_clamped() {
        assert_eq!(items(99, 10), items(10, 10));
        assert_eq!(items(0, 10), items(1, 10));
    }

    proptest! {
        #[test]
        fn bar_is_well_formed(total in 1u32..10_000, current in 0u32..10_001) {
            let bar = items(current, total);
            prop_assert!(bar.len() <= 7);
            prop_assert_eq!(bar.first(), Some(&Page(1)));
            prop_assert_eq!(bar.last(), Some(&Page(total)));
            prop_assert!(bar.contains(&Page(current.clamp(1, total))));
            for pair in bar.windows(3) {
                if let [Page(a), Dots, Page(b)] = pair {
                    prop_assert!(b - a >= 3, "dots must hide at least two pages");
                }
            }
            let pages: Vec<u32> = bar.iter().filter_map(|i| match i { Page(n) => Some(*n), Dots => None }).collect();
            prop_assert!(pages.windows(2).all(|w| w[0] < w[1]));
            prop_assert!(!bar.windows(2).any(|w| w == [Dots, Dots]));
            if total <= MAX_PAGES_WITHOUT_DOTS {
                prop_assert_eq!(pages.len() as u32, total);
            }
        }
    }
}
