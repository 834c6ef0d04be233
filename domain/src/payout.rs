//! The payout statement (精算書) of a finished project and its payout date
//! (terms §9, spec 001 §9; docs/decisions.md, "The payout statement").
//!
//! Every amount on a statement is accounted for to the yen:
//! `confirmed + owed_by_owner == platform_fee + application_fees
//! + received_directly + transfer_fee + carried_over + payout`.

use crate::calendar::nth_bank_business_day_of_month;
use crate::money::{platform_fee, tax_for, FeeSchedule, TaxMode, TaxRate, Yen};
use chrono::{Datelike, Months, NaiveDate};

/// The bank reference an operator types when marking a payout paid.
pub const PAYOUT_REFERENCE: crate::text::TextRule =
    crate::text::TextRule::new("reference", "振込の控え番号・メモ", 100).required();

/// The terms' payout day: the 3rd bank business day of the second month
/// after the month the project ended in. `None` only past the calendar's end.
pub fn payout_date(end_day: NaiveDate) -> Option<NaiveDate> {
    let month = end_day.with_day(1)?.checked_add_months(Months::new(2))?;
    nth_bank_business_day_of_month(month.year(), month.month(), 3)
}

/// The day a project is paid out: a donation project's own date when it has
/// one (terms §9), otherwise the terms' [`payout_date`].
pub fn project_payout_date(end_day: NaiveDate, donation_date: Option<NaiveDate>) -> Option<NaiveDate> {
    donation_date.or_else(|| payout_date(end_day))
}

/// Where the supporters' money went when they paid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Collection {
    /// The site collected it and pays the owner after the end.
    Platform,
    /// It went straight to the owner's connected account, less the per-sale
    /// application fee of this schedule.
    Connected(FeeSchedule),
}

/// What a statement is made from; every amount is whole yen, negative ones
/// count as zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StatementInput {
    /// Confirmed by card: paid less refunds.
    pub card: Yen,
    /// Confirmed by bank transfer: paid less refunds.
    pub bank: Yen,
    pub collection: Collection,
    /// The per-sale application fees actually taken, each floored
    /// ([`crate::money::application_fee`]), less what refunds gave back.
    pub application_fees_taken: Yen,
    /// The bank's charge for paying the owner (`Platform` only).
    pub transfer_fee: Yen,
    /// What earlier statements already paid out, bank charges included
    /// (statements are cumulative since the end): a refund after a payout
    /// leaves less to pay now, or the owner owing.
    pub carried_over: Yen,
}

/// A payout statement. `payout` is what the site transfers to the owner;
/// `owed_by_owner` what the owner must pay the site; at most one is above zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PayoutStatement {
    /// Card and bank transfer together, paid less refunds.
    pub confirmed: Yen,
    /// The terms' 20 %, consumption tax included (`Platform` only).
    pub platform_fee: Yen,
    /// The consumption tax contained in `platform_fee`, for the owner's books.
    pub platform_fee_tax: Yen,
    /// The per-sale fees taken at payment time (`Connected` only).
    pub application_fees: Yen,
    /// What the owner's connected account kept at payment time (`Connected` only).
    pub received_directly: Yen,
    /// The bank charge actually deducted: only when something is transferred.
    pub transfer_fee: Yen,
    pub carried_over: Yen,
    pub payout: Yen,
    pub owed_by_owner: Yen,
}

impl PayoutStatement {
    /// Every yen accounted for: what came in (and what the owner owes back)
    /// equals what went out.
    pub fn balances(&self) -> bool {
        let inflow = i128::from(self.confirmed.0) + i128::from(self.owed_by_owner.0);
        let outflow = [
            self.platform_fee,
            self.application_fees,
            self.received_directly,
            self.transfer_fee,
            self.carried_over,
            self.payout,
        ]
        .iter()
        .map(|y| i128::from(y.0))
        .sum::<i128>();
        inflow == outflow
    }
}

/// Makes the statement.
///
/// - The terms' 20 % fee includes consumption tax: the fee deducted is exactly
///   `floor(confirmed × 20 %)` ([`platform_fee`]) and `platform_fee_tax` shows
///   the tax in it, `floor(fee × 10 / 110)`.
/// - `Platform`: `payout = confirmed − platform_fee − transfer_fee −
///   carried_over`. Below zero the payout is 0 and the owner owes the
///   shortfall. The bank charge is deducted whenever anything is due to the
///   owner before it; when nothing is (the owner owes, or it comes out at
///   exactly zero) no transfer is made and no charge deducted.
/// - `Connected`: the application fee replaces the 20 % fee; the owner already
///   holds `received_directly = confirmed − application_fees`, nothing is
///   transferred (no payout, no bank charge), and anything earlier statements
///   paid out (`carried_over`) is owed back.
///
/// Sums beyond `i64` saturate; no statement comes near.
pub fn statement(input: StatementInput) -> PayoutStatement {
    let non_negative = |y: Yen| Yen(y.0.max(0));
    let confirmed = Yen(non_negative(input.card).0.saturating_add(non_negative(input.bank).0));
    let carried_over = non_negative(input.carried_over);
    let nothing = PayoutStatement {
        confirmed,
        platform_fee: Yen::ZERO,
        platform_fee_tax: Yen::ZERO,
        application_fees: Yen::ZERO,
        received_directly: Yen::ZERO,
        transfer_fee: Yen::ZERO,
        carried_over,
        payout: Yen::ZERO,
        owed_by_owner: Yen::ZERO,
    };
    match input.collection {
        Collection::Platform => {
            let fee = platform_fee(confirmed);
            let due = i128::from(confirmed.0) - i128::from(fee.0) - i128::from(carried_over.0);
            let transfer_fee = if due > 0 { non_negative(input.transfer_fee) } else { Yen::ZERO };
            let net = due - i128::from(transfer_fee.0);
            PayoutStatement {
                platform_fee: fee,
                platform_fee_tax: tax_for(fee, TaxRate::STANDARD, TaxMode::Inclusive),
                transfer_fee,
                payout: saturating_yen(net.max(0)),
                owed_by_owner: saturating_yen((-net).max(0)),
                ..nothing
            }
        }
        Collection::Connected(_) => {
            let application_fees = non_negative(input.application_fees_taken);
            PayoutStatement {
                application_fees,
                received_directly: Yen(confirmed.0.saturating_sub(application_fees.0)),
                owed_by_owner: carried_over,
                ..nothing
            }
        }
    }
}

fn saturating_yen(amount: i128) -> Yen {
    Yen(i64::try_from(amount).unwrap_or(if amount < 0 { i64::MIN } else { i64::MAX }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    fn platform(card: i64, bank: i64, transfer_fee: i64, carried_over: i64) -> StatementInput {
        StatementInput {
            card: Yen(card),
            bank: Yen(bank),
            collection: Collection::Platform,
            application_fees_taken: Yen::ZERO,
            transfer_fee: Yen(transfer_fee),
            carried_over: Yen(carried_over),
        }
    }

    #[test]
    fn payout_is_the_third_bank_business_day_of_the_second_month_after_the_end() {
        // 2026-12-01 is a Tuesday.
        assert_eq!(payout_date(d(2026, 10, 31)), Some(d(2026, 12, 3)));
        // 2027-01-01..03 are closed; Monday 4th is the first business day.
        assert_eq!(payout_date(d(2026, 11, 1)), Some(d(2027, 1, 6)));
        // 2027-02-01 is a Monday.
        assert_eq!(payout_date(d(2026, 12, 31)), Some(d(2027, 2, 3)));
        // Golden Week: 2026-05-01 (Fri), then 5/3-5/6 holidays, 5/7 (Thu).
        assert_eq!(payout_date(d(2026, 3, 20)), Some(d(2026, 5, 8)));
        assert_eq!(payout_date(NaiveDate::MAX), None);
        assert_eq!(project_payout_date(d(2026, 10, 31), None), Some(d(2026, 12, 3)));
        assert_eq!(project_payout_date(d(2026, 10, 31), Some(d(2026, 11, 16))), Some(d(2026, 11, 16)));
    }

    #[test]
    fn platform_statement_deducts_the_tax_inclusive_fee_the_bank_charge_and_carried_refunds() {
        let s = statement(platform(800_000, 200_003, 660, 5_000));
        assert_eq!(s.confirmed, Yen(1_000_003));
        assert_eq!(s.platform_fee, Yen(200_000));
        assert_eq!(s.platform_fee_tax, Yen(18_181));
        assert_eq!(s.transfer_fee, Yen(660));
        assert_eq!((s.payout, s.owed_by_owner), (Yen(1_000_003 - 200_000 - 660 - 5_000), Yen::ZERO));
    }

    #[test]
    fn platform_owner_owes_the_shortfall_and_pays_no_bank_charge_without_a_transfer() {
        let s = statement(platform(10_000, 0, 660, 9_000));
        assert_eq!(
            (s.platform_fee, s.transfer_fee, s.payout, s.owed_by_owner),
            (Yen(2_000), Yen::ZERO, Yen::ZERO, Yen(1_000))
        );
        // Something is due, but less than the bank charge: the charge is deducted and the owner owes the rest.
        let s = statement(platform(10_000, 0, 660, 7_500));
        assert_eq!((s.transfer_fee, s.payout, s.owed_by_owner), (Yen(660), Yen::ZERO, Yen(160)));
        let empty = statement(platform(0, 0, 660, 0));
        assert_eq!((empty.transfer_fee, empty.payout, empty.owed_by_owner), (Yen::ZERO, Yen::ZERO, Yen::ZERO));
    }

    #[test]
    fn connected_statement_shows_the_application_fees_and_transfers_nothing() {
        let input = StatementInput {
            card: Yen(100_000),
            bank: Yen(50_000),
            collection: Collection::Connected(FeeSchedule::Standard),
            application_fees_taken: Yen(13_600 + 5_750),
            transfer_fee: Yen(660),
            carried_over: Yen(3_000),
        };
        let s = statement(input);
        assert_eq!((s.platform_fee, s.platform_fee_tax), (Yen::ZERO, Yen::ZERO));
        assert_eq!((s.application_fees, s.received_directly), (Yen(19_350), Yen(130_650)));
        assert_eq!((s.transfer_fee, s.payout, s.owed_by_owner), (Yen::ZERO, Yen::ZERO, Yen(3_000)));
    }

    #[test]
    fn extreme_inputs_do_not_panic() {
        for collection in [Collection::Platform, Collection::Connected(FeeSchedule::Internal)] {
            let m = Yen(i64::MAX);
            let s = statement(StatementInput {
                card: m,
                bank: m,
                collection,
                application_fees_taken: m,
                transfer_fee: m,
                carried_over: m,
            });
            assert!(s.payout.0 >= 0 && s.owed_by_owner.0 >= 0);
            let n = Yen(i64::MIN);
            let s = statement(StatementInput {
                card: n,
                bank: n,
                collection,
                application_fees_taken: n,
                transfer_fee: n,
                carried_over: n,
            });
            assert_eq!((s.confirmed, s.payout, s.owed_by_owner), (Yen::ZERO, Yen::ZERO, Yen::ZERO));
        }
    }

    fn amount() -> impl Strategy<Value = Yen> {
        prop_oneof![4 => 0i64..=1_000_000_000_000, 1 => 0i64..=10_000, 1 => Just(0)].prop_map(Yen)
    }

    fn input() -> impl Strategy<Value = StatementInput> {
        let collection = prop_oneof![
            Just(Collection::Platform),
            Just(Collection::Connected(FeeSchedule::Standard)),
            Just(Collection::Connected(FeeSchedule::Internal)),
        ];
        (amount(), amount(), collection, amount(), amount(), amount()).prop_map(
            |(card, bank, collection, application_fees_taken, transfer_fee, carried_over)| StatementInput {
                card,
                bank,
                collection,
                application_fees_taken,
                transfer_fee,
                carried_over,
            },
        )
    }

    proptest! {
        #[test]
        fn every_yen_is_accounted_for(input in input()) {
            let s = statement(input);
            let sum = |ys: &[Yen]| ys.iter().map(|y| i128::from(y.0)).sum::<i128>();
            prop_assert_eq!(
                sum(&[s.confirmed, s.owed_by_owner]),
                sum(&[s.platform_fee, s.application_fees, s.received_directly, s.transfer_fee, s.carried_over, s.payout])
            );
            prop_assert_eq!(i128::from(s.confirmed.0), sum(&[input.card, input.bank]));
        }

        #[test]
        fn payout_and_debt_are_never_negative_and_never_both_positive(input in input()) {
            let s = statement(input);
            prop_assert!(s.payout.0 >= 0 && s.owed_by_owner.0 >= 0);
            prop_assert!(s.payout.0 == 0 || s.owed_by_owner.0 == 0);
        }

        #[test]
        fn the_fee_tax_is_the_tax_contained_in_the_fee(input in input()) {
            let s = statement(input);
            prop_assert!(0 <= s.platform_fee_tax.0 && s.platform_fee_tax <= s.platform_fee);
            prop_assert!(i128::from(s.platform_fee_tax.0) * 110 <= i128::from(s.platform_fee.0) * 10);
            prop_assert!((i128::from(s.platform_fee_tax.0) + 1) * 110 > i128::from(s.platform_fee.0) * 10);
        }

        #[test]
        fn each_collection_charges_only_its_own_fee(input in input()) {
            let s = statement(input);
            match input.collection {
                Collection::Platform => {
                    prop_assert_eq!(s.platform_fee, platform_fee(s.confirmed));
                    prop_assert_eq!((s.application_fees, s.received_directly), (Yen::ZERO, Yen::ZERO));
                    prop_assert!(s.transfer_fee == input.transfer_fee || (s.transfer_fee == Yen::ZERO && s.payout == Yen::ZERO));
                }
                Collection::Connected(_) => {
                    prop_assert_eq!((s.platform_fee, s.transfer_fee, s.payout), (Yen::ZERO, Yen::ZERO, Yen::ZERO));
                    prop_assert_eq!(s.owed_by_owner, input.carried_over);
                }
            }
        }
    }
}
