//! 上乗せ支援: an amount a supporter adds on top of a return, once per
//! support (docs/decisions.md, "Paying a little more").
//!
//! The extra buys nothing, so it carries no consumption tax in any tax mode:
//! it is added to the tax-included total of the return after the tax is
//! computed, and it neither adds tax (税別) nor is read as containing tax
//! (税込). Being part of what the supporter pays (`PriceBreakdown::total`),
//! it counts toward every total, the sponsor tiers, the application fee and
//! the refund ceiling, as the rest of the support does.

use crate::money::Yen;

/// The largest extra amount one support may carry.
pub const MAX_EXTRA_AMOUNT: Yen = Yen(1_000_000);
/// The largest total one support with an extra may reach: the provider takes
/// at most 99,999,999 yen in one payment.
pub const MAX_TOTAL_WITH_EXTRA: Yen = Yen(99_999_999);

/// How screens, mails and receipts name the extra amount.
pub const EXTRA_AMOUNT_LABEL: &str = "上乗せ支援";

pub const MSG_EXTRA_AMOUNT_RANGE: &str = "上乗せ支援額は0円から1,000,000円までの整数（円単位）で入力してください。";
pub const MSG_EXTRA_AMOUNT_TOTAL: &str =
    "上乗せ支援を含めたお支払い合計は99,999,999円までです。上乗せ支援額を減らしてください。";
pub const MSG_EXTRA_AMOUNT_MONTHLY: &str = "毎月のご支援には上乗せ支援をご利用いただけません。";

/// A checked extra amount: whole yen from 0 to [`MAX_EXTRA_AMOUNT`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ExtraAmount(Yen);

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ExtraAmountError {
    #[error("{}", MSG_EXTRA_AMOUNT_RANGE)]
    OutOfRange,
    /// The return's total plus the extra exceeds [`MAX_TOTAL_WITH_EXTRA`].
    #[error("{}", MSG_EXTRA_AMOUNT_TOTAL)]
    TotalTooLarge,
    /// Monthly returns take none: it would be charged again every month.
    #[error("{}", MSG_EXTRA_AMOUNT_MONTHLY)]
    Monthly,
}

impl ExtraAmount {
    pub const NONE: ExtraAmount = ExtraAmount(Yen::ZERO);

    pub fn parse(yen: i64) -> Result<Self, ExtraAmountError> {
        if (0..=MAX_EXTRA_AMOUNT.0).contains(&yen) {
            Ok(Self(Yen(yen)))
        } else {
            Err(ExtraAmountError::OutOfRange)
        }
    }

    /// What the supporter sent, absent meaning none; a monthly return refuses
    /// any amount above zero.
    pub fn for_return(requested: Option<i64>, monthly: bool) -> Result<Self, ExtraAmountError> {
        let extra = Self::parse(requested.unwrap_or(0))?;
        if monthly && extra.0.is_positive() {
            return Err(ExtraAmountError::Monthly);
        }
        Ok(extra)
    }

    pub const fn yen(self) -> Yen {
        self.0
    }

    pub const fn is_none(self) -> bool {
        self.0 .0 == 0
    }
}

/// The part of a sale's `total` that is the return (tax included) and the
/// part that is the extra, after `refunded` has been paid back: a refund is
/// taken from the extra first, then from the return, so the return and the
/// tax it contains stay as sold while only the extra goes back. Neither part
/// goes below zero.
pub fn kept_parts(total: Yen, extra: Yen, refunded: Yen) -> (Yen, Yen) {
    let extra = Yen(extra.0.clamp(0, total.0.max(0)));
    let return_part = Yen(total.0.max(0) - extra.0);
    let refunded = refunded.0.max(0);
    let from_extra = refunded.min(extra.0);
    let from_return = (refunded - from_extra).min(return_part.0);
    (Yen(return_part.0 - from_return), Yen(extra.0 - from_extra))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn whole_yen_from_zero_to_one_million_are_accepted() {
        assert_eq!(ExtraAmount::parse(0).map(ExtraAmount::yen), Ok(Yen(0)));
        assert_eq!(ExtraAmount::parse(1).map(ExtraAmount::yen), Ok(Yen(1)));
        assert_eq!(ExtraAmount::parse(1_000_000).map(ExtraAmount::yen), Ok(Yen(1_000_000)));
    }

    #[test]
    fn negative_and_too_large_amounts_are_refused_with_the_range_message() {
        for bad in [-1, 1_000_001, i64::MIN, i64::MAX] {
            let error = ExtraAmount::parse(bad).unwrap_err();
            assert_eq!(error.to_string(), MSG_EXTRA_AMOUNT_RANGE, "{bad}");
        }
    }

    #[test]
    fn a_monthly_return_takes_no_extra_but_zero_or_nothing_is_fine() {
        assert_eq!(ExtraAmount::for_return(Some(500), true), Err(ExtraAmountError::Monthly));
        assert_eq!(ExtraAmount::for_return(Some(0), true), Ok(ExtraAmount::NONE));
        assert_eq!(ExtraAmount::for_return(None, true), Ok(ExtraAmount::NONE));
        assert_eq!(ExtraAmount::for_return(Some(500), false).map(ExtraAmount::yen), Ok(Yen(500)));
    }

    #[test]
    fn a_refund_comes_off_the_extra_first_then_the_return() {
        // 3,300 yen return + 1,000 yen extra = 4,300 yen paid.
        assert_eq!(kept_parts(Yen(4_300), Yen(1_000), Yen::ZERO), (Yen(3_300), Yen(1_000)));
        assert_eq!(kept_parts(Yen(4_300), Yen(1_000), Yen(400)), (Yen(3_300), Yen(600)));
        assert_eq!(kept_parts(Yen(4_300), Yen(1_000), Yen(2_150)), (Yen(2_150), Yen::ZERO));
        assert_eq!(kept_parts(Yen(4_300), Yen(1_000), Yen(4_300)), (Yen::ZERO, Yen::ZERO));
        assert_eq!(kept_parts(Yen(3_300), Yen::ZERO, Yen(300)), (Yen(3_000), Yen::ZERO));
    }

    proptest! {
        #[test]
        fn the_kept_parts_add_up_to_what_was_kept(
            return_total in 0i64..=100_000_000, extra in 0i64..=1_000_000, refunded_share in 0i64..=120
        ) {
            let total = return_total + extra;
            let refunded = total * refunded_share / 100;
            let (kept_return, kept_extra) = kept_parts(Yen(total), Yen(extra), Yen(refunded));
            prop_assert_eq!(kept_return.0 + kept_extra.0, (total - refunded).max(0));
            prop_assert!((0..=extra).contains(&kept_extra.0));
            prop_assert!((0..=return_total).contains(&kept_return.0));
            // The return is only touched once the extra is gone.
            prop_assert!(kept_extra.0 == 0 || kept_return.0 == return_total);
        }

        #[test]
        fn parsing_accepts_exactly_the_documented_range(yen in any::<i64>()) {
            prop_assert_eq!(ExtraAmount::parse(yen).is_ok(), (0..=1_000_000).contains(&yen));
        }
    }
}
