//! Money: integer yen, tax, totals and fees (spec 001 §9, brief decision 4).
//!
//! Every figure is whole yen in an `i64`; floats never touch money. Products
//! are computed in `i128` and then narrowed with a check, so a huge price
//! gives [`MoneyError::Overflow`] instead of wrapping around.

use crate::extra_amount::{ExtraAmount, ExtraAmountError, MAX_EXTRA_AMOUNT, MAX_TOTAL_WITH_EXTRA};
use crate::lot::Lot;
use crate::payment::PayType;
use serde::{Deserialize, Serialize};
use std::fmt;

/// An amount of whole yen. Negative values are representable (differences,
/// corrections) but prices and charges are checked to be non-negative.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Yen(pub i64);

impl Yen {
    pub const ZERO: Yen = Yen(0);

    pub const fn new(value: i64) -> Self {
        Self(value)
    }

    pub const fn value(self) -> i64 {
        self.0
    }

    pub const fn is_positive(self) -> bool {
        self.0 > 0
    }

    pub fn checked_add(self, other: Yen) -> Option<Yen> {
        self.0.checked_add(other.0).map(Yen)
    }

    pub fn checked_sub(self, other: Yen) -> Option<Yen> {
        self.0.checked_sub(other.0).map(Yen)
    }

    pub fn checked_mul(self, factor: i64) -> Option<Yen> {
        self.0.checked_mul(factor).map(Yen)
    }

    /// Sums amounts, `None` on overflow (a sum of real sales never gets there,
    /// but a corrupt row must not wrap into a negative total).
    pub fn checked_sum<I: IntoIterator<Item = Yen>>(amounts: I) -> Option<Yen> {
        amounts.into_iter().try_fold(Yen::ZERO, Yen::checked_add)
    }

    /// The number in ja-JP grouping without unit: `1,234,567`.
    pub fn grouped(self) -> String {
        let digits = self.0.unsigned_abs().to_string();
        let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
        if self.0 < 0 {
            out.push('-');
        }
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        out
    }
}

/// Displays as the site shows money: `1,234円`.
impl fmt::Display for Yen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}円", self.grouped())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum MoneyError {
    #[error("金額が大きすぎます。")]
    Overflow,
    #[error("金額が正しくありません。")]
    NegativePrice,
    #[error("税率が正しくありません。")]
    InvalidTaxRate,
}

/// A consumption-tax rate in whole percent (the provider's `percentage`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "u32", into = "u32")]
pub struct TaxRate(u32);

impl TaxRate {
    /// Japan's standard consumption tax (spec 000 §9).
    pub const STANDARD: TaxRate = TaxRate(10);

    /// Rates above 100 % are refused: they are typing errors, not tax law.
    pub fn new(percent: u32) -> Result<Self, MoneyError> {
        if percent > 100 {
            return Err(MoneyError::InvalidTaxRate);
        }
        Ok(Self(percent))
    }

    pub const fn percent(self) -> u32 {
        self.0
    }
}

impl TryFrom<u32> for TaxRate {
    type Error = MoneyError;
    fn try_from(value: u32) -> Result<Self, Self::Error> {
        Self::new(value)
    }
}

impl From<TaxRate> for u32 {
    fn from(value: TaxRate) -> Self {
        value.0
    }
}

/// How a project's listed prices relate to consumption tax.
///
/// The tax rule (docs/decisions.md, "The tax rule"): the supporter always pays
/// the tax-included total (総額表示) that the screen showed, and every sale
/// records the consumption tax contained in that total, for receipts.
///
/// - `Inclusive` (`taxIncludes = true`): the listed price already contains tax
///   ("税込"). `total = amount = price × lot`; `tax` is the part of the total
///   that is tax, `floor(total × rate / (100 + rate))`.
/// - `Exclusive` (`taxIncludes = false`): the listed price is before tax.
///   `amount = price × lot`, `tax = floor(amount × rate / 100)`,
///   `total = amount + tax`.
/// - `Exempt` (`isDonation`, whatever `taxIncludes` says): a donation is no
///   sale of goods or services, so it carries no consumption tax:
///   `tax = 0`, `total = amount`, and the rate applied is 0 %.
///
/// Tax is rounded down (切り捨て) once per sale on the sale's whole amount,
/// never per unit: the invoice rules (適格請求書) allow one rounding per
/// invoice and rate, and rounding down is what receipts most often do and
/// what spec 001 §9 asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaxMode {
    /// Tax added on top of the listed price.
    Exclusive,
    /// Listed price already includes tax (shown as 税込).
    Inclusive,
    /// Donations: no tax.
    Exempt,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown tax mode {0:?}")]
pub struct UnknownTaxMode(pub String);

impl TaxMode {
    /// Reads the mode from the project's `isDonation` and `taxIncludes` flags.
    pub const fn for_project(is_donation: bool, tax_includes: bool) -> Self {
        match (is_donation, tax_includes) {
            (true, _) => Self::Exempt,
            (false, true) => Self::Inclusive,
            (false, false) => Self::Exclusive,
        }
    }

    /// The label of how the project lists its prices: 税込 (tax included),
    /// 税別 (tax added on top), 非課税 (donations). Screens show the
    /// tax-included `total` as the main figure in every mode (see
    /// docs/decisions.md); this label tells them whether `price` is a
    /// tax-excluded base worth showing beside it.
    pub const fn label(self) -> &'static str {
        match self {
            Self::Inclusive => "税込",
            Self::Exclusive => "税別",
            Self::Exempt => "非課税",
        }
    }

    /// The value stored in `sales.tax_mode`.
    pub const fn code(self) -> &'static str {
        match self {
            Self::Inclusive => "inclusive",
            Self::Exclusive => "exclusive",
            Self::Exempt => "exempt",
        }
    }

    /// Reads a stored `sales.tax_mode`.
    pub fn parse(code: &str) -> Result<Self, UnknownTaxMode> {
        match code {
            "inclusive" => Ok(Self::Inclusive),
            "exclusive" => Ok(Self::Exclusive),
            "exempt" => Ok(Self::Exempt),
            other => Err(UnknownTaxMode(other.to_owned())),
        }
    }

    /// The rate a sale in this mode is taxed at: the given rate, or 0 % for
    /// donations (a donation receipt must not show a rate that never applied).
    pub const fn applied_rate(self, rate: TaxRate) -> TaxRate {
        match self {
            Self::Exempt => TaxRate(0),
            Self::Inclusive | Self::Exclusive => rate,
        }
    }
}

/// `amount = unit price × lot`.
pub fn amount_for(unit_price: Yen, lot: Lot) -> Result<Yen, MoneyError> {
    if unit_price.0 < 0 {
        return Err(MoneyError::NegativePrice);
    }
    unit_price.checked_mul(i64::from(lot.get())).ok_or(MoneyError::Overflow)
}

/// Tax on `amount` for `mode`, always rounded down (spec 001 §9): added on top
/// for `Exclusive`, contained in `amount` for `Inclusive`, none for `Exempt`.
pub fn tax_for(amount: Yen, rate: TaxRate, mode: TaxMode) -> Yen {
    let rate = i128::from(rate.percent());
    match mode {
        TaxMode::Exempt => Yen::ZERO,
        TaxMode::Exclusive => floor_ratio(amount, rate, 100),
        TaxMode::Inclusive => floor_ratio(amount, rate, 100 + rate),
    }
}

/// What one purchase costs: what the screens show, what the server charges and
/// what the sale row stores (`sales.price, lot, amount, tax, total, tax_mode,
/// tax_rate_percent`). [`PriceBreakdown::compute`] is the only place these
/// figures are made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PriceBreakdown {
    /// Unit price of the return, as the project lists it.
    pub price: Yen,
    pub lot: Lot,
    /// `price × lot`: tax-included for `Inclusive`, before tax for `Exclusive`.
    pub amount: Yen,
    /// Consumption tax contained in `total` (receipts show it); 0 for donations.
    pub tax: Yen,
    /// 上乗せ支援 added on top, untaxed ([`crate::extra_amount`]); 0 when none.
    pub extra: Yen,
    /// What the supporter pays, tax included, the extra included; the figure the screens show.
    pub total: Yen,
    pub mode: TaxMode,
    /// The rate applied: the project's rate, 0 % for donations.
    pub rate: TaxRate,
}

impl PriceBreakdown {
    /// Computes the breakdown from the server's own data; client-sent figures
    /// are only ever compared against this. See [`TaxMode`] for the rule.
    pub fn compute(price: Yen, lot: Lot, rate: TaxRate, mode: TaxMode) -> Result<Self, MoneyError> {
        let amount = amount_for(price, lot)?;
        let rate = mode.applied_rate(rate);
        let tax = tax_for(amount, rate, mode);
        let total = match mode {
            TaxMode::Inclusive | TaxMode::Exempt => amount,
            TaxMode::Exclusive => amount.checked_add(tax).ok_or(MoneyError::Overflow)?,
        };
        Ok(Self { price, lot, amount, tax, extra: Yen::ZERO, total, mode, rate })
    }

    /// The same figures with `extra` added on top of the total, untaxed; refused
    /// when the total would exceed [`MAX_TOTAL_WITH_EXTRA`]. Replaces any extra.
    pub fn with_extra(self, extra: ExtraAmount) -> Result<Self, ExtraAmountError> {
        let return_total = self.return_total();
        let total = return_total.checked_add(extra.yen()).ok_or(ExtraAmountError::TotalTooLarge)?;
        if !extra.is_none() && total > MAX_TOTAL_WITH_EXTRA {
            return Err(ExtraAmountError::TotalTooLarge);
        }
        Ok(Self { extra: extra.yen(), total, ..self })
    }

    /// The return's own tax-included figure: the total without the extra.
    pub const fn return_total(&self) -> Yen {
        Yen(self.total.0 - self.extra.0)
    }

    /// The same, reading the mode from the project's `isDonation` and
    /// `taxIncludes` flags (see [`TaxMode`]).
    pub fn for_project(
        price: Yen,
        lot: Lot,
        rate: TaxRate,
        is_donation: bool,
        tax_includes: bool,
    ) -> Result<Self, MoneyError> {
        Self::compute(price, lot, rate, TaxMode::for_project(is_donation, tax_includes))
    }

    /// The total without its tax (税抜): `amount` (plus any extra) for
    /// `Exclusive`, `total − tax` otherwise. Never negative because `tax <= total`.
    pub const fn tax_excluded(&self) -> Yen {
        Yen(self.total.0 - self.tax.0)
    }

    /// Whether stored figures obey the tax rule; the same statement as the
    /// `sales_tax_invariant` CHECK of the `sales` table, written out rather
    /// than recomputed so that the two can be tested against each other.
    /// The extra is untaxed: the rule holds for `total − extra`.
    #[allow(clippy::too_many_arguments)] // one argument per stored column, as the CHECK reads them
    pub fn figures_agree(
        price: i64,
        lot: i64,
        amount: i64,
        tax: i64,
        extra: i64,
        total: i64,
        mode: TaxMode,
        rate: i64,
    ) -> bool {
        let (price, lot, amount, tax, extra, rate) = (
            i128::from(price),
            i128::from(lot),
            i128::from(amount),
            i128::from(tax),
            i128::from(extra),
            i128::from(rate),
        );
        let total = i128::from(total) - extra;
        let basics = price >= 0
            && (1..=10).contains(&lot)
            && amount == price * lot
            && tax >= 0
            && (0..=i128::from(MAX_EXTRA_AMOUNT.0)).contains(&extra)
            && (0..=100).contains(&rate);
        basics
            && match mode {
                TaxMode::Exclusive => tax == amount * rate / 100 && total == amount + tax,
                TaxMode::Inclusive => tax == total * rate / (100 + rate) && total == amount,
                TaxMode::Exempt => rate == 0 && tax == 0 && total == amount,
            }
    }
}

/// Which application-fee rates a connected account pays (spec 001 §9).
/// Projects without a connected account take no application fee at all;
/// that choice belongs to the caller, which then simply does not call
/// [`application_fee`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FeeSchedule {
    /// 13.6 % card, 11.5 % bank transfer.
    Standard,
    /// The one internal account: 10.6 % card, 8.5 % bank transfer.
    Internal,
}

impl FeeSchedule {
    pub const ALL: [Self; 2] = [Self::Standard, Self::Internal];

    /// As stored (`projects.fee_schedule`) and sent: `standard` or `internal`.
    pub const fn code(self) -> &'static str {
        match self {
            Self::Standard => "standard",
            Self::Internal => "internal",
        }
    }

    /// The rate in basis points (1/100 of a percent), so that fees need no floats.
    pub const fn basis_points(self, pay_type: PayType) -> i64 {
        match (self, pay_type) {
            // Konbini at the card rates (docs/decisions.md, "Konbini payment").
            (Self::Standard, PayType::Card | PayType::Konbini) => 1360,
            (Self::Standard, PayType::BankTransfer) => 1150,
            (Self::Internal, PayType::Card | PayType::Konbini) => 1060,
            (Self::Internal, PayType::BankTransfer) => 850,
        }
    }
}

/// The platform's share of a charge, `floor(total × rate)`.
pub fn application_fee(total: Yen, pay_type: PayType, schedule: FeeSchedule) -> Yen {
    floor_basis_points(total, schedule.basis_points(pay_type))
}

/// Terms of use: 20 % of the confirmed amount is deducted from the payout.
pub const PLATFORM_FEE_BASIS_POINTS: i64 = 2000;

/// The terms' platform fee, `floor(confirmed × 20 %)`. Reported separately
/// from the provider's application fee; it is settled at payout time.
pub fn platform_fee(confirmed: Yen) -> Yen {
    floor_basis_points(confirmed, PLATFORM_FEE_BASIS_POINTS)
}

/// What the project owner receives: confirmed amount minus the platform fee.
/// Never overflows because the fee lies between zero and the amount.
pub fn payout_after_platform_fee(confirmed: Yen) -> Yen {
    Yen(confirmed.0 - platform_fee(confirmed).0)
}

fn floor_basis_points(amount: Yen, basis_points: i64) -> Yen {
    floor_ratio(amount, i128::from(basis_points), 10_000)
}

/// `floor(amount × numerator / denominator)` in `i128`. Callers keep
/// `0 <= numerator <= denominator`, so the result lies between zero and
/// `amount` and always fits back into `i64`.
fn floor_ratio(amount: Yen, numerator: i128, denominator: i128) -> Yen {
    let exact = (i128::from(amount.0) * numerator).div_euclid(denominator);
    Yen(i64::try_from(exact).unwrap_or(if exact < 0 { i64::MIN } else { i64::MAX }))
}

#[cfg(test)]
mod tests {
    #[test]
    fn each_tax_mode_has_its_price_label() {
        assert_eq!(super::TaxMode::for_project(false, true).label(), "税込");
        assert_eq!(super::TaxMode::for_project(false, false).label(), "税別");
        assert_eq!(super::TaxMode::for_project(true, true).label(), "非課税");
    }

    use super::*;
    use proptest::prelude::*;

    fn lot(n: i64) -> Lot {
        Lot::parse(n).unwrap()
    }

    #[test]
    fn yen_displays_with_ja_grouping() {
        assert_eq!(Yen(0).to_string(), "0円");
        assert_eq!(Yen(999).to_string(), "999円");
        assert_eq!(Yen(1_000).to_string(), "1,000円");
        assert_eq!(Yen(1_234_567).to_string(), "1,234,567円");
        assert_eq!(Yen(-50_000).grouped(), "-50,000");
        assert_eq!(Yen(i64::MIN).grouped(), "-9,223,372,036,854,775,808");
    }

    #[test]
    fn amount_is_unit_price_times_lot() {
        assert_eq!(amount_for(Yen(3_000), lot(3)), Ok(Yen(9_000)));
    }

    #[test]
    fn negative_price_is_refused() {
        assert_eq!(amount_for(Yen(-1), lot(1)), Err(MoneyError::NegativePrice));
    }

    #[test]
    fn exclusive_tax_is_added_on_top_and_floored() {
        let b = PriceBreakdown::compute(Yen(1_999), lot(1), TaxRate::STANDARD, TaxMode::Exclusive).unwrap();
        assert_eq!((b.amount, b.tax, b.total), (Yen(1_999), Yen(199), Yen(2_198)));
    }

    #[test]
    fn inclusive_tax_is_the_contained_part_and_total_is_the_listed_amount() {
        let b = PriceBreakdown::compute(Yen(1_100), lot(2), TaxRate::STANDARD, TaxMode::Inclusive).unwrap();
        assert_eq!((b.amount, b.tax, b.total), (Yen(2_200), Yen(200), Yen(2_200)));
        let odd = PriceBreakdown::compute(Yen(1_000), lot(1), TaxRate::STANDARD, TaxMode::Inclusive).unwrap();
        assert_eq!((odd.tax, odd.total), (Yen(90), Yen(1_000)));
    }

    #[test]
    fn donations_carry_no_tax_whatever_the_tax_flag() {
        assert_eq!(TaxMode::for_project(true, true), TaxMode::Exempt);
        assert_eq!(TaxMode::for_project(true, false), TaxMode::Exempt);
        let b = PriceBreakdown::compute(Yen(10_000), lot(1), TaxRate::STANDARD, TaxMode::Exempt).unwrap();
        assert_eq!((b.tax, b.total), (Yen::ZERO, Yen(10_000)));
    }

    #[test]
    fn tax_flag_selects_inclusive_or_exclusive() {
        assert_eq!(TaxMode::for_project(false, true), TaxMode::Inclusive);
        assert_eq!(TaxMode::for_project(false, false), TaxMode::Exclusive);
        let b = PriceBreakdown::for_project(Yen(5_000), lot(2), TaxRate::STANDARD, false, false).unwrap();
        assert_eq!(
            b,
            PriceBreakdown {
                price: Yen(5_000),
                lot: lot(2),
                amount: Yen(10_000),
                tax: Yen(1_000),
                extra: Yen::ZERO,
                total: Yen(11_000),
                mode: TaxMode::Exclusive,
                rate: TaxRate::STANDARD,
            }
        );
    }

    fn figures(price: i64, n: i64, rate: u32, mode: TaxMode) -> (i64, i64, i64, u32) {
        let b = PriceBreakdown::compute(Yen(price), lot(n), TaxRate::new(rate).unwrap(), mode).unwrap();
        (b.amount.0, b.tax.0, b.total.0, b.rate.percent())
    }

    #[test]
    fn a_tax_included_price_is_charged_as_listed_and_records_the_tax_it_contains() {
        // 1,000 yen 税込 at 10 %: 1,000 × 10 / 110 = 90.9 -> 90 yen of tax, 910 before tax.
        assert_eq!(figures(1_000, 1, 10, TaxMode::Inclusive), (1_000, 90, 1_000, 10));
        // Three lots of 3,300 yen: 9,900 yen paid, of which 900 yen tax.
        assert_eq!(figures(3_300, 3, 10, TaxMode::Inclusive), (9_900, 900, 9_900, 10));
        // The reduced 8 % rate: 1,080 yen contains 80 yen.
        assert_eq!(figures(1_080, 1, 8, TaxMode::Inclusive), (1_080, 80, 1_080, 8));
        let b = PriceBreakdown::compute(Yen(1_000), lot(1), TaxRate::STANDARD, TaxMode::Inclusive).unwrap();
        assert_eq!(b.tax_excluded(), Yen(910));
    }

    #[test]
    fn a_tax_excluded_price_gets_its_tax_added_once_per_sale_not_per_lot() {
        // 1,999 yen 税別: one lot is 2,198 yen 税込; two lots are 3,998 + 399 = 4,397 yen, one rounding on the
        // sale's amount (not 2 × 2,198 = 4,396), as an invoice rounds once per rate.
        assert_eq!(figures(1_999, 1, 10, TaxMode::Exclusive), (1_999, 199, 2_198, 10));
        assert_eq!(figures(1_999, 2, 10, TaxMode::Exclusive), (3_998, 399, 4_397, 10));
        let b = PriceBreakdown::compute(Yen(1_999), lot(2), TaxRate::STANDARD, TaxMode::Exclusive).unwrap();
        assert_eq!(b.tax_excluded(), Yen(3_998));
    }

    #[test]
    fn a_donation_records_no_tax_and_a_zero_rate() {
        assert_eq!(figures(10_000, 2, 10, TaxMode::Exempt), (20_000, 0, 20_000, 0));
    }

    #[test]
    fn tax_modes_round_trip_through_their_stored_codes() {
        for mode in [TaxMode::Inclusive, TaxMode::Exclusive, TaxMode::Exempt] {
            assert_eq!(TaxMode::parse(mode.code()), Ok(mode));
        }
        assert!(TaxMode::parse("none").is_err());
    }

    #[test]
    fn the_invariant_refuses_the_old_tax_included_rows_with_zero_tax() {
        // Before the rule, a 税込 sale was stored with tax 0; it must no longer pass.
        assert!(!PriceBreakdown::figures_agree(1_100, 2, 2_200, 0, 0, 2_200, TaxMode::Inclusive, 10));
        assert!(PriceBreakdown::figures_agree(1_100, 2, 2_200, 200, 0, 2_200, TaxMode::Inclusive, 10));
        // A 税込 price cannot be stored as amount + tax = total either.
        assert!(!PriceBreakdown::figures_agree(1_100, 2, 2_000, 200, 0, 2_200, TaxMode::Inclusive, 10));
        assert!(!PriceBreakdown::figures_agree(10_000, 1, 10_000, 0, 0, 10_000, TaxMode::Exempt, 10));
    }

    fn with_extra(price: i64, n: i64, mode: TaxMode, extra: i64) -> PriceBreakdown {
        let base = PriceBreakdown::compute(Yen(price), lot(n), TaxRate::STANDARD, mode).unwrap();
        base.with_extra(ExtraAmount::parse(extra).unwrap()).unwrap()
    }

    #[test]
    fn an_extra_amount_is_added_after_the_tax_and_carries_none_in_every_mode() {
        // 税別 3,000 × 2: 6,000 + 600 tax, then 1,000 on top.
        let b = with_extra(3_000, 2, TaxMode::Exclusive, 1_000);
        assert_eq!((b.amount, b.tax, b.extra, b.total), (Yen(6_000), Yen(600), Yen(1_000), Yen(7_600)));
        // 税込 3,300: the tax stays what 3,300 contains; the extra is not read as containing tax.
        let b = with_extra(3_300, 1, TaxMode::Inclusive, 1_000);
        assert_eq!((b.tax, b.extra, b.total, b.return_total()), (Yen(300), Yen(1_000), Yen(4_300), Yen(3_300)));
        // A donation: no tax either way.
        let b = with_extra(5_000, 1, TaxMode::Exempt, 500);
        assert_eq!((b.tax, b.total), (Yen::ZERO, Yen(5_500)));
    }

    #[test]
    fn an_extra_may_not_take_a_support_above_the_providers_ceiling() {
        let base = PriceBreakdown::compute(Yen(99_000_000), lot(1), TaxRate::STANDARD, TaxMode::Inclusive).unwrap();
        assert!(base.with_extra(ExtraAmount::parse(999_999).unwrap()).is_ok());
        assert_eq!(
            base.with_extra(ExtraAmount::parse(1_000_000).unwrap()),
            Err(crate::extra_amount::ExtraAmountError::TotalTooLarge)
        );
        // Without an extra a large return is priced as before.
        let large = PriceBreakdown::compute(Yen(200_000_000), lot(1), TaxRate::STANDARD, TaxMode::Inclusive).unwrap();
        assert_eq!(large.with_extra(ExtraAmount::NONE).map(|b| b.total), Ok(Yen(200_000_000)));
    }

    #[test]
    fn the_invariant_reads_the_extra_as_untaxed() {
        assert!(PriceBreakdown::figures_agree(3_300, 1, 3_300, 300, 1_000, 4_300, TaxMode::Inclusive, 10));
        // The extra read as containing tax, or taxed on top, breaks the rule.
        assert!(!PriceBreakdown::figures_agree(3_300, 1, 3_300, 390, 1_000, 4_300, TaxMode::Inclusive, 10));
        assert!(!PriceBreakdown::figures_agree(3_000, 1, 3_000, 300, 1_000, 4_400, TaxMode::Exclusive, 10));
        assert!(!PriceBreakdown::figures_agree(5_000, 1, 5_000, 0, -1, 4_999, TaxMode::Exempt, 0));
        assert!(!PriceBreakdown::figures_agree(5_000, 1, 5_000, 0, 1_000_001, 1_005_001, TaxMode::Exempt, 0));
    }

    #[test]
    fn tax_rate_above_one_hundred_percent_is_refused() {
        assert_eq!(TaxRate::new(101), Err(MoneyError::InvalidTaxRate));
        assert_eq!(TaxRate::new(8).map(TaxRate::percent), Ok(8));
    }

    #[test]
    fn overflowing_price_is_an_error_not_a_wrap() {
        assert_eq!(
            PriceBreakdown::compute(Yen(i64::MAX / 2), lot(3), TaxRate::STANDARD, TaxMode::Exclusive),
            Err(MoneyError::Overflow)
        );
    }

    #[test]
    fn application_fees_match_the_spec_rates_and_floor() {
        let total = Yen(11_000);
        assert_eq!(application_fee(total, PayType::Card, FeeSchedule::Standard), Yen(1_496));
        assert_eq!(application_fee(total, PayType::BankTransfer, FeeSchedule::Standard), Yen(1_265));
        assert_eq!(application_fee(total, PayType::Card, FeeSchedule::Internal), Yen(1_166));
        assert_eq!(application_fee(total, PayType::BankTransfer, FeeSchedule::Internal), Yen(935));
        assert_eq!(application_fee(total, PayType::Konbini, FeeSchedule::Standard), Yen(1_496));
        assert_eq!(application_fee(total, PayType::Konbini, FeeSchedule::Internal), Yen(1_166));
        // 1,001 × 13.6 % = 136.136 -> 136
        assert_eq!(application_fee(Yen(1_001), PayType::Card, FeeSchedule::Standard), Yen(136));
    }

    #[test]
    fn platform_fee_is_twenty_percent_floored_and_payout_is_the_rest() {
        assert_eq!(platform_fee(Yen(1_000_003)), Yen(200_000));
        assert_eq!(payout_after_platform_fee(Yen(1_000_003)), Yen(800_003));
    }

    #[test]
    fn checked_sum_reports_overflow() {
        assert_eq!(Yen::checked_sum([Yen(1), Yen(2)]), Some(Yen(3)));
        assert_eq!(Yen::checked_sum([Yen(i64::MAX), Yen(1)]), None);
    }

    fn any_mode() -> impl Strategy<Value = TaxMode> {
        prop_oneof![Just(TaxMode::Exclusive), Just(TaxMode::Inclusive), Just(TaxMode::Exempt)]
    }

    /// Real prices (up to 10 million yen), round ones, and anything up to `i64::MAX` for overflow.
    fn any_price() -> impl Strategy<Value = i64> {
        prop_oneof![0i64..=10_000_000, (0i64..=10_000).prop_map(|k| k * 1_000), 0i64..=i64::MAX]
    }

    proptest! {
        #[test]
        fn the_breakdown_obeys_the_tax_rule_and_never_panics(
            price in any_price(), n in 1i64..=10, rate in 0u32..=100, mode in any_mode()
        ) {
            let rate = TaxRate::new(rate).unwrap();
            match PriceBreakdown::compute(Yen(price), lot(n), rate, mode) {
                Ok(b) => {
                    prop_assert!(PriceBreakdown::figures_agree(
                        price, n, b.amount.0, b.tax.0, 0, b.total.0, b.mode, i64::from(b.rate.percent())
                    ));
                    prop_assert!(b.tax.0 >= 0 && b.tax <= b.total);
                    prop_assert_eq!(b.tax_excluded().0 + b.tax.0, b.total.0);
                    prop_assert_eq!(b.mode, mode);
                    // Any other tax or total is refused: the rule leaves exactly one figure each.
                    for delta in [-1, 1] {
                        let (a, t, tot, r) = (b.amount.0, b.tax.0, b.total.0, i64::from(b.rate.percent()));
                        prop_assert!(!PriceBreakdown::figures_agree(price, n, a, t.saturating_add(delta), 0, tot, mode, r)
                            || t.checked_add(delta).is_none());
                        prop_assert!(!PriceBreakdown::figures_agree(price, n, a, t, 0, tot.saturating_add(delta), mode, r)
                            || tot.checked_add(delta).is_none());
                    }
                }
                Err(e) => {
                    prop_assert_eq!(e, MoneyError::Overflow);
                    let amount = i128::from(price) * i128::from(n);
                    let tax = amount * i128::from(rate.percent()) / 100;
                    prop_assert!(amount > i128::from(i64::MAX) || amount + tax > i128::from(i64::MAX));
                }
            }
        }

        #[test]
        fn the_supporter_pays_the_tax_included_figure_the_screens_show(
            price in 0i64..=100_000_000, n in 1i64..=10, mode in any_mode()
        ) {
            // The return card shows the one-lot total (税込); the payment screens show the chosen lots' total.
            let unit = PriceBreakdown::compute(Yen(price), Lot::ONE, TaxRate::STANDARD, mode).unwrap().total.0;
            let sale = PriceBreakdown::compute(Yen(price), lot(n), TaxRate::STANDARD, mode).unwrap();
            match mode {
                // What the card lists, times the lots, to the yen.
                TaxMode::Inclusive | TaxMode::Exempt => prop_assert_eq!(sale.total.0, unit * n),
                // One rounding per sale: at most n − 1 yen above n one-lot totals, never below.
                TaxMode::Exclusive => prop_assert!((unit * n..unit * n + n).contains(&sale.total.0)),
            }
        }

        #[test]
        fn exclusive_tax_is_the_floor_of_the_exact_tax(amount in 0i64..=i64::MAX, rate in 0u32..=100) {
            let tax = tax_for(Yen(amount), TaxRate::new(rate).unwrap(), TaxMode::Exclusive);
            let exact_times_100 = i128::from(amount) * i128::from(rate);
            prop_assert!(i128::from(tax.0) * 100 <= exact_times_100);
            prop_assert!((i128::from(tax.0) + 1) * 100 > exact_times_100);
        }

        #[test]
        fn inclusive_tax_leaves_a_net_that_would_not_need_more_tax(amount in 0i64..=i64::MAX, rate in 0u32..=100) {
            let tax = tax_for(Yen(amount), TaxRate::new(rate).unwrap(), TaxMode::Inclusive);
            let rate = i128::from(rate);
            let (amount, tax) = (i128::from(amount), i128::from(tax.0));
            prop_assert!(tax * (100 + rate) <= amount * rate);
            prop_assert!((tax + 1) * (100 + rate) > amount * rate);
        }

        #[test]
        fn application_fee_is_the_spec_rate_of_the_total_floored(
            total in prop_oneof![0i64..=1_000_000, 0i64..=i64::MAX], card in any::<bool>(), internal in any::<bool>()
        ) {
            let pay = if card { PayType::Card } else { PayType::BankTransfer };
            let schedule = if internal { FeeSchedule::Internal } else { FeeSchedule::Standard };
            // The spec's rates written out again, so a wrong constant in `basis_points` fails here.
            let per_ten_thousand: i128 = match (internal, card) {
                (false, true) => 1360,
                (false, false) => 1150,
                (true, true) => 1060,
                (true, false) => 850,
            };
            let fee = i128::from(application_fee(Yen(total), pay, schedule).0);
            // fee = floor(total × rate) exactly when fee ≤ total × rate < fee + 1.
            prop_assert!(fee >= 0);
            prop_assert!(fee * 10_000 <= i128::from(total) * per_ten_thousand);
            prop_assert!((fee + 1) * 10_000 > i128::from(total) * per_ten_thousand);
        }

        #[test]
        fn platform_fee_is_a_fifth_of_the_confirmed_amount_floored_and_the_payout_the_rest(
            total in prop_oneof![0i64..=1_000_000, 0i64..=i64::MAX]
        ) {
            let fee = i128::from(platform_fee(Yen(total)).0);
            // 20 % = 1/5: fee = floor(total / 5) exactly when 5·fee ≤ total < 5·(fee + 1).
            prop_assert!(fee * 5 <= i128::from(total));
            prop_assert!((fee + 1) * 5 > i128::from(total));
            prop_assert_eq!(i128::from(payout_after_platform_fee(Yen(total)).0), i128::from(total) - fee);
        }

        #[test]
        fn total_is_price_times_lots_plus_tax_plus_extra(
            // Up to 5 million yen a lot, so that ten lots with tax and an extra stay under the ceiling.
            price in 0i64..=5_000_000, n in 1i64..=10, rate in 0u32..=100, mode in any_mode(),
            extra in 0i64..=1_000_000
        ) {
            let rate = TaxRate::new(rate).unwrap();
            let base = PriceBreakdown::compute(Yen(price), lot(n), rate, mode).unwrap();
            let b = base.with_extra(ExtraAmount::parse(extra).unwrap()).unwrap();
            // The tax never changes with the extra.
            prop_assert_eq!((b.amount, b.tax, b.mode, b.rate), (base.amount, base.tax, base.mode, base.rate));
            prop_assert_eq!(b.extra.0, extra);
            let added_tax = if mode == TaxMode::Exclusive { b.tax.0 } else { 0 };
            prop_assert_eq!(b.total.0, price * n + added_tax + extra);
            prop_assert_eq!(b.return_total(), base.total);
            prop_assert!(PriceBreakdown::figures_agree(
                price, n, b.amount.0, b.tax.0, b.extra.0, b.total.0, b.mode, i64::from(b.rate.percent())
            ));
        }

        #[test]
        fn an_extra_is_refused_exactly_when_the_total_would_pass_the_ceiling(
            return_total in 90_000_000i64..=100_000_000, extra in 1i64..=1_000_000
        ) {
            let base = PriceBreakdown::compute(Yen(return_total), Lot::ONE, TaxRate::STANDARD, TaxMode::Inclusive).unwrap();
            let priced = base.with_extra(ExtraAmount::parse(extra).unwrap());
            prop_assert_eq!(priced.is_ok(), return_total + extra <= MAX_TOTAL_WITH_EXTRA.0);
        }

        #[test]
        fn grouped_digits_round_trip(v in any::<i64>()) {
            prop_assert_eq!(Yen(v).grouped().replace(',', "").parse::<i64>().unwrap(), v);
        }
    }
}
