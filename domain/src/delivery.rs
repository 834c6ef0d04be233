//! Shipping the returns: which sales must be delivered, a sale's delivery
//! state (未発送 / 発送済み with the day and a note such as a tracking number),
//! what a change of state does, and the bounds of an operator's selection.

use chrono::NaiveDate;

use crate::money::Yen;
use crate::payment::{counts_toward_totals, SaleStatus};
use crate::text::{TextError, TextRule};

/// The note sent with 発送済み (carrier, tracking number): optional, one line.
pub const DELIVERY_NOTE: TextRule = TextRule::new("note", "発送メモ・追跡番号", 200);

/// Most sales one request may mark (a screen's selection, or a page of the list).
pub const MAX_SELECTION: usize = 500;

/// Rows of the delivery list per page.
pub const DELIVERIES_PER_PAGE: u32 = 50;

/// Most rows one CSV export holds.
pub const MAX_EXPORT_ROWS: usize = 20_000;

pub const MSG_NOTHING_SELECTED: &str = "発送状況を変更する支援を選択してください。";
pub const MSG_TOO_MANY_SELECTED: &str = "一度に変更できるのは500件までです。";
pub const MSG_NOT_DELIVERABLE: &str = "選択に発送の対象ではない支援が含まれています。一覧を読み込み直してください。";
pub const MSG_SHIPPED_ON_REQUIRED: &str = "発送日を入力してください。";
pub const MSG_SHIPPED_ON_FUTURE: &str = "発送日に未来の日付は指定できません。";
pub const MSG_SHIPPED_ON_TOO_EARLY: &str = "発送日は2000年1月1日以降の日付を入力してください。";

/// The earliest shipping day accepted (no sale of the site is older).
pub const EARLIEST_SHIPPED_ON: (i32, u32, u32) = (2000, 1, 1);

/// A sale must be delivered while it is paid and not refunded in full: an
/// awaited bank transfer is not delivered before its money arrives, and a
/// fully refunded sale (or one whose full refund is on its way) never is; a
/// partly refunded sale keeps its return. The same rule as
/// [`counts_toward_totals`], so the list agrees with the supporter counts.
pub fn must_deliver(status: SaleStatus, total: Yen, refunded: Yen) -> bool {
    counts_toward_totals(status, total, refunded)
}

/// Where the return of one sale stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeliveryState {
    /// 未発送.
    Unshipped,
    /// 発送済み on `on`, with the operator's note for the supporter.
    Shipped { on: NaiveDate, note: Option<String> },
}

impl DeliveryState {
    pub const fn label(&self) -> &'static str {
        match self {
            Self::Unshipped => "未発送",
            Self::Shipped { .. } => "発送済み",
        }
    }

    pub const fn is_shipped(&self) -> bool {
        matches!(self, Self::Shipped { .. })
    }
}

/// Lots of one return a supporter holds that stand in one delivery state:
/// `shipped_on` is `None` for 未発送, else the day they were 発送済み.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeldLots {
    pub shipped_on: Option<NaiveDate>,
    pub lots: i64,
}

impl HeldLots {
    pub const fn label(&self) -> &'static str {
        match self.shipped_on {
            None => "未発送",
            Some(_) => "発送済み",
        }
    }
}

/// Where the lots of one return a supporter holds through several sales
/// stand: one entry per shipping day (newest first), then 未発送, each with
/// its lots summed. Give only the sales that must be delivered
/// ([`must_deliver`]); the note of a shipped sale does not split a day.
pub fn held_lots<'a>(sales: impl IntoIterator<Item = (&'a DeliveryState, i64)>) -> Vec<HeldLots> {
    let mut out: Vec<HeldLots> = Vec::new();
    for (state, lots) in sales {
        let shipped_on = match state {
            DeliveryState::Unshipped => None,
            DeliveryState::Shipped { on, .. } => Some(*on),
        };
        match out.iter_mut().find(|held| held.shipped_on == shipped_on) {
            Some(held) => held.lots += lots,
            None => out.push(HeldLots { shipped_on, lots }),
        }
    }
    // Shipped days newest first, 未発送 last.
    out.sort_by_key(|held| (held.shipped_on.is_none(), std::cmp::Reverse(held.shipped_on)));
    out
}

/// The list's filter on the delivery state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DeliveryFilter {
    #[default]
    All,
    Unshipped,
    Shipped,
}

/// What setting a sale's state does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeliveryChange {
    /// The same state again (a double click, a repeated selection): nothing is written or mailed.
    Unchanged,
    /// 未発送 → 発送済み: written, and the supporter is mailed.
    Shipped,
    /// 発送済み with another day or note (a corrected tracking number): written, not mailed again.
    Corrected,
    /// 発送済み → 未発送 (marked by mistake): written, not mailed.
    Unshipped,
}

impl DeliveryChange {
    /// The supporter hears of it: only the step to 発送済み mails, so marking
    /// an already shipped sale again never mails twice.
    pub const fn mails_supporter(self) -> bool {
        matches!(self, Self::Shipped)
    }

    pub const fn writes(self) -> bool {
        !matches!(self, Self::Unchanged)
    }
}

/// What moving a sale from `before` to `after` does.
pub fn change(before: &DeliveryState, after: &DeliveryState) -> DeliveryChange {
    match (before, after) {
        (a, b) if a == b => DeliveryChange::Unchanged,
        (DeliveryState::Unshipped, DeliveryState::Shipped { .. }) => DeliveryChange::Shipped,
        (DeliveryState::Shipped { .. }, DeliveryState::Shipped { .. }) => DeliveryChange::Corrected,
        (DeliveryState::Shipped { .. }, DeliveryState::Unshipped) => DeliveryChange::Unshipped,
        (DeliveryState::Unshipped, DeliveryState::Unshipped) => DeliveryChange::Unchanged,
    }
}

/// Why a requested state was refused; `Display` is the form's message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DeliveryRuleError {
    #[error("{}", MSG_NOTHING_SELECTED)]
    NothingSelected,
    #[error("{}", MSG_TOO_MANY_SELECTED)]
    TooManySelected,
    #[error("{}", MSG_SHIPPED_ON_REQUIRED)]
    ShippedOnRequired,
    #[error("{}", MSG_SHIPPED_ON_FUTURE)]
    ShippedOnFuture,
    #[error("{}", MSG_SHIPPED_ON_TOO_EARLY)]
    ShippedOnTooEarly,
    #[error(transparent)]
    Note(#[from] TextError),
}

impl DeliveryRuleError {
    /// The request field the message belongs to.
    pub const fn field(&self) -> &'static str {
        match self {
            Self::NothingSelected | Self::TooManySelected => "saleIds",
            Self::ShippedOnRequired | Self::ShippedOnFuture | Self::ShippedOnTooEarly => "shippedOn",
            Self::Note(_) => "note",
        }
    }
}

/// The number of sales selected, within `1..=MAX_SELECTION` (after duplicates are dropped).
pub fn check_selection(count: usize) -> Result<(), DeliveryRuleError> {
    match count {
        0 => Err(DeliveryRuleError::NothingSelected),
        n if n > MAX_SELECTION => Err(DeliveryRuleError::TooManySelected),
        _ => Ok(()),
    }
}

/// The state an operator asked for: 発送済み needs a day that is not after
/// `today` (Asia/Tokyo) and takes a note of at most 200 characters; 未発送
/// keeps neither.
pub fn requested_state(
    shipped: bool,
    on: Option<NaiveDate>,
    note: Option<&str>,
    today: NaiveDate,
) -> Result<DeliveryState, DeliveryRuleError> {
    if !shipped {
        return Ok(DeliveryState::Unshipped);
    }
    let on = on.ok_or(DeliveryRuleError::ShippedOnRequired)?;
    if on > today {
        return Err(DeliveryRuleError::ShippedOnFuture);
    }
    let (y, m, d) = EARLIEST_SHIPPED_ON;
    if NaiveDate::from_ymd_opt(y, m, d).is_some_and(|earliest| on < earliest) {
        return Err(DeliveryRuleError::ShippedOnTooEarly);
    }
    let note = DELIVERY_NOTE.parse_optional(note)?;
    Ok(DeliveryState::Shipped { on, note })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use proptest::prelude::*;

    fn day(d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, d).unwrap()
    }

    fn shipped(d: u32, note: Option<&str>) -> DeliveryState {
        DeliveryState::Shipped { on: day(d), note: note.map(str::to_string) }
    }

    #[test]
    fn only_the_step_to_shipped_mails_the_supporter() {
        assert_eq!(change(&DeliveryState::Unshipped, &shipped(1, None)), DeliveryChange::Shipped);
        assert!(DeliveryChange::Shipped.mails_supporter());
        let again = change(&shipped(1, Some("追跡 1234")), &shipped(1, Some("追跡 1234")));
        assert_eq!(again, DeliveryChange::Unchanged);
        assert!(!again.mails_supporter() && !again.writes());
        let corrected = change(&shipped(1, None), &shipped(2, Some("追跡 1234")));
        assert_eq!(corrected, DeliveryChange::Corrected);
        assert!(corrected.writes() && !corrected.mails_supporter());
        assert_eq!(change(&shipped(1, None), &DeliveryState::Unshipped), DeliveryChange::Unshipped);
        assert_eq!(change(&DeliveryState::Unshipped, &DeliveryState::Unshipped), DeliveryChange::Unchanged);
    }

    #[test]
    fn a_paid_sale_is_delivered_until_it_is_refunded_in_full() {
        assert!(must_deliver(SaleStatus::Succeeded, Yen(3000), Yen::ZERO));
        assert!(must_deliver(SaleStatus::Succeeded, Yen(3000), Yen(1500)), "a half refund keeps the return");
        assert!(!must_deliver(SaleStatus::Succeeded, Yen(3000), Yen(3000)));
        assert!(!must_deliver(SaleStatus::AwaitingBankTransfer, Yen(3000), Yen::ZERO));
        assert!(!must_deliver(SaleStatus::Canceled, Yen(3000), Yen::ZERO));
    }

    #[test]
    fn shipped_needs_a_day_not_in_the_future_and_a_short_note() {
        let today = day(28);
        assert_eq!(requested_state(true, None, None, today), Err(DeliveryRuleError::ShippedOnRequired));
        assert_eq!(requested_state(true, Some(day(29)), None, today), Err(DeliveryRuleError::ShippedOnFuture));
        assert_eq!(requested_state(true, Some(day(28)), Some("  "), today), Ok(shipped(28, None)));
        let ancient = NaiveDate::from_ymd_opt(1999, 12, 31).unwrap();
        assert_eq!(requested_state(true, Some(ancient), None, today), Err(DeliveryRuleError::ShippedOnTooEarly));
        assert_eq!(
            requested_state(true, Some(day(27)), Some(" ヤマト 1234-5678 "), today),
            Ok(shipped(27, Some("ヤマト 1234-5678")))
        );
        let long = "a".repeat(201);
        let error = requested_state(true, Some(day(27)), Some(&long), today).unwrap_err();
        assert_eq!(error.to_string(), "発送メモ・追跡番号は200文字以内で入力してください。");
        assert_eq!(error.field(), "note");
        assert!(requested_state(true, Some(day(27)), Some("1行目\n2行目"), today).is_err(), "one line");
        assert_eq!(requested_state(false, Some(day(29)), Some("x"), today), Ok(DeliveryState::Unshipped));
    }

    #[test]
    fn a_selection_holds_one_to_five_hundred_sales() {
        assert_eq!(check_selection(0).unwrap_err().to_string(), MSG_NOTHING_SELECTED);
        assert!(check_selection(1).is_ok());
        assert!(check_selection(MAX_SELECTION).is_ok());
        assert_eq!(check_selection(MAX_SELECTION + 1), Err(DeliveryRuleError::TooManySelected));
    }

    #[test]
    fn labels_are_the_screens_words() {
        assert_eq!(DeliveryState::Unshipped.label(), "未発送");
        assert_eq!(shipped(1, None).label(), "発送済み");
    }

    #[test]
    fn held_lots_sum_per_shipping_day_newest_first_then_unshipped() {
        let sales = [
            (DeliveryState::Unshipped, 1),
            (shipped(3, Some("追跡 1")), 2),
            (shipped(20, None), 1),
            (shipped(3, None), 1),
            (DeliveryState::Unshipped, 2),
        ];
        let held = held_lots(sales.iter().map(|(state, lots)| (state, *lots)));
        assert_eq!(
            held,
            vec![
                HeldLots { shipped_on: Some(day(20)), lots: 1 },
                HeldLots { shipped_on: Some(day(3)), lots: 3 },
                HeldLots { shipped_on: None, lots: 3 },
            ]
        );
        assert_eq!((held[0].label(), held[2].label()), ("発送済み", "未発送"));
        assert!(held_lots(std::iter::empty()).is_empty());
    }

    proptest! {
        #[test]
        fn held_lots_keep_every_lot_and_name_each_state_once(
            sales in proptest::collection::vec((proptest::option::of(1u32..28), 1i64..=10), 0..12)
        ) {
            let states: Vec<(DeliveryState, i64)> = sales
                .iter()
                .map(|(on, lots)| (on.map_or(DeliveryState::Unshipped, |d| shipped(d, None)), *lots))
                .collect();
            let held = held_lots(states.iter().map(|(state, lots)| (state, *lots)));
            prop_assert_eq!(held.iter().map(|h| h.lots).sum::<i64>(), sales.iter().map(|(_, lots)| lots).sum::<i64>());
            for (i, h) in held.iter().enumerate() {
                prop_assert!(held[i + 1..].iter().all(|later| later.shipped_on != h.shipped_on));
                if let Some(next) = held.get(i + 1) {
                    // Newest day first, 未発送 only last.
                    prop_assert!(h.shipped_on.is_some());
                    prop_assert!(next.shipped_on.is_none() || next.shipped_on < h.shipped_on);
                }
            }
        }

        #[test]
        fn applying_a_state_twice_changes_nothing_the_second_time(
            first in 1u32..28, second in 1u32..28, note in proptest::option::of("[a-z0-9]{0,8}"), unship in any::<bool>()
        ) {
            let before = shipped(first, None);
            let after = if unship { DeliveryState::Unshipped } else { shipped(second, note.as_deref()) };
            let _ = change(&before, &after);
            prop_assert_eq!(change(&after, &after), DeliveryChange::Unchanged);
            // At most one mail along any path that ends shipped from shipped.
            prop_assert!(!change(&before, &after).mails_supporter());
        }
    }
}
