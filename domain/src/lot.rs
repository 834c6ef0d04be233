//! Lots: how many units of one return a supporter buys (spec 001 §5, §9).

use serde::{Deserialize, Serialize};

/// Shown beside the disabled lot selector when the return has `lotDisable`.
pub const MSG_LOT_NOT_SELECTABLE: &str = "このリターンは口数を選択できません。";
/// Shown when a lot outside 1..=10 arrives (only a tampered request can do that).
pub const MSG_LOT_OUT_OF_RANGE: &str = "口数は1から10の間で選択してください。";

/// A number of units between 1 and 10 inclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "i64", into = "u8")]
pub struct Lot(u8);

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum LotError {
    #[error("{}", MSG_LOT_OUT_OF_RANGE)]
    OutOfRange,
    #[error("{}", MSG_LOT_NOT_SELECTABLE)]
    NotSelectable,
}

impl Lot {
    pub const MIN: u8 = 1;
    pub const MAX: u8 = 10;
    pub const ONE: Lot = Lot(1);

    pub fn parse(n: i64) -> Result<Self, LotError> {
        u8::try_from(n).ok().filter(|n| (Self::MIN..=Self::MAX).contains(n)).map(Self).ok_or(LotError::OutOfRange)
    }

    /// The lot a purchase of a return may use. When the return has
    /// `lotDisable` the lot is fixed at 1; a request for more is refused
    /// rather than silently changed, so nobody is charged for something
    /// other than what their screen showed.
    pub fn for_return(requested: i64, lot_disable: bool) -> Result<Self, LotError> {
        let lot = Self::parse(requested)?;
        if lot_disable && lot != Self::ONE {
            return Err(LotError::NotSelectable);
        }
        Ok(lot)
    }

    /// The options of the lot selector: 1..=10, or only 1 with `lotDisable`.
    pub fn options(lot_disable: bool) -> impl Iterator<Item = Lot> {
        let max = if lot_disable { Self::MIN } else { Self::MAX };
        (Self::MIN..=max).map(Lot)
    }

    pub const fn get(self) -> u8 {
        self.0
    }
}

impl Default for Lot {
    fn default() -> Self {
        Self::ONE
    }
}

impl TryFrom<i64> for Lot {
    type Error = LotError;
    fn try_from(value: i64) -> Result<Self, Self::Error> {
        Self::parse(value)
    }
}

impl From<Lot> for u8 {
    fn from(value: Lot) -> Self {
        value.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn lots_one_to_ten_are_accepted() {
        assert_eq!(Lot::parse(1).map(Lot::get), Ok(1));
        assert_eq!(Lot::parse(10).map(Lot::get), Ok(10));
    }

    #[test]
    fn zero_and_eleven_are_out_of_range() {
        assert_eq!(Lot::parse(0), Err(LotError::OutOfRange));
        assert_eq!(Lot::parse(11), Err(LotError::OutOfRange));
        assert_eq!(Lot::parse(-1), Err(LotError::OutOfRange));
    }

    #[test]
    fn lot_disabled_return_accepts_only_one_with_the_spec_message() {
        assert_eq!(Lot::for_return(1, true), Ok(Lot::ONE));
        let err = Lot::for_return(2, true).unwrap_err();
        assert_eq!(err.to_string(), "このリターンは口数を選択できません。");
    }

    #[test]
    fn selector_offers_ten_options_or_only_one() {
        assert_eq!(Lot::options(false).count(), 10);
        assert_eq!(Lot::options(true).collect::<Vec<_>>(), vec![Lot::ONE]);
    }

    /// Mostly the interesting neighbourhood 0..=11, sometimes anything in `i64`.
    fn requested_lot() -> impl Strategy<Value = i64> {
        prop_oneof![3 => -1i64..=11, 1 => any::<i64>()]
    }

    proptest! {
        #[test]
        fn parse_accepts_exactly_one_to_ten(n in requested_lot()) {
            prop_assert_eq!(Lot::parse(n).is_ok(), (1..=10).contains(&n));
        }

        #[test]
        fn lot_disable_forces_one(n in requested_lot()) {
            if let Ok(lot) = Lot::for_return(n, true) {
                prop_assert_eq!(lot, Lot::ONE);
            }
        }

        #[test]
        fn a_return_with_lots_enabled_takes_exactly_one_to_ten(n in requested_lot()) {
            let taken = Lot::for_return(n, false).map(|lot| i64::from(lot.get()));
            prop_assert_eq!(taken.ok(), (1..=10).contains(&n).then_some(n));
        }
    }
}
