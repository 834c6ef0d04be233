//! Refunds by administrators: single and bulk (spec 001 §2, §4, §5, §9).
//!
//! The ceiling of a refund is what the supporter paid for the sale (its
//! total, tax included) less what was already given back
//! ([`refundable_amount`]): that is what the payment provider can still
//! refund. The refund table shows the same figures, from the API.

use crate::ids::SaleId;
use crate::money::Yen;
use serde::{Deserialize, Serialize};

pub const MSG_REFUND_AMOUNT_REQUIRED: &str = "返金額を入力してください";
pub const MSG_REFUND_ABOVE_SPONSORED: &str = "返金額が協賛金額の合計を超えています";
/// The seed's English "Refund amount exceeds the sponsorship amount".
pub const MSG_BULK_REFUND_ABOVE_SPONSORED: &str = "返金額が協賛金額を超えています。";
/// The seed's English "No purchase information can be refunded".
pub const MSG_NOTHING_REFUNDABLE: &str = "返金できる購入情報がありません。";
pub const MSG_SALE_NOT_REFUNDABLE: &str = "この購入情報は返金できません。";
pub const MSG_BULK_MODE_REQUIRED: &str = "返金方法を選択してください。";
/// The spec's bulk success (spec 001 §8), said only when no refund of the run failed.
pub const MSG_BULK_DONE: &str = "一括返金が完了しました";

/// A sale's refund flag (`flag`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "i32", into = "i32")]
pub enum RefundFlag {
    /// 1: may be refunded.
    Refundable,
    /// 11: refunded (fully or partly); no second refund.
    Refunded,
    /// Any other value: not refundable.
    NotRefundable(i32),
}

impl RefundFlag {
    pub const fn from_code(code: i32) -> Self {
        match code {
            1 => Self::Refundable,
            11 => Self::Refunded,
            other => Self::NotRefundable(other),
        }
    }

    pub const fn code(self) -> i32 {
        match self {
            Self::Refundable => 1,
            Self::Refunded => 11,
            Self::NotRefundable(code) => code,
        }
    }

    /// The flag the refund rules read from a sale's stored `flag` and
    /// `refund_required`: a bank transfer that arrived after its sale was
    /// cancelled (`refund_required`, flag 0) must be given back, so it is
    /// refundable. `adapters-postgres::sql_rules::refund_flag` states the same
    /// rule in SQL, tie-tested.
    pub const fn of_sale(stored: i32, refund_required: bool) -> Self {
        if refund_required && stored == 0 {
            Self::Refundable
        } else {
            Self::from_code(stored)
        }
    }

    /// The flag after a successful refund: 1 becomes 11, others are unchanged.
    pub const fn after_refund(self) -> Self {
        match self {
            Self::Refundable => Self::Refunded,
            other => other,
        }
    }
}

impl From<i32> for RefundFlag {
    fn from(value: i32) -> Self {
        Self::from_code(value)
    }
}

impl From<RefundFlag> for i32 {
    fn from(value: RefundFlag) -> Self {
        value.code()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum RefundRuleError {
    #[error("{}", MSG_REFUND_AMOUNT_REQUIRED)]
    AmountRequired,
    #[error("{}", MSG_REFUND_ABOVE_SPONSORED)]
    AboveSponsored,
    #[error("{}", MSG_SALE_NOT_REFUNDABLE)]
    NotRefundable,
}

/// Checks a single refund of `requested` yen on a sale of which `refundable`
/// may still be refunded ([`refundable_amount`]). An empty, zero or negative
/// amount is "required"; more than `refundable` is refused.
pub fn check_single_refund(requested: Option<Yen>, refundable: Yen, flag: RefundFlag) -> Result<Yen, RefundRuleError> {
    if flag != RefundFlag::Refundable {
        return Err(RefundRuleError::NotRefundable);
    }
    let amount = requested.filter(|a| a.is_positive()).ok_or(RefundRuleError::AmountRequired)?;
    if amount > refundable {
        return Err(RefundRuleError::AboveSponsored);
    }
    Ok(amount)
}

/// What may still be refunded of a sale that was charged `total` and has had
/// `refunded` given back: the rest while the sale is refundable, else nothing.
/// It is the ceiling of a single refund and what a full bulk refund gives.
pub fn refundable_amount(total: Yen, refunded: Yen, flag: RefundFlag) -> Yen {
    if flag == RefundFlag::Refundable {
        Yen((total.0 - refunded.0).max(0))
    } else {
        Yen(0)
    }
}

/// What a half bulk refund gives a sale whose refundable amount is
/// `refundable`: half, rounded down (1,001 yen gives 500). `None` when that is
/// 0 yen (a 1 yen sale): the provider cannot refund 0 yen, so the run skips the
/// sale and it stays refundable.
pub fn half_refund_amount(refundable: Yen) -> Option<Yen> {
    let half = Yen(refundable.0.div_euclid(2));
    half.is_positive().then_some(half)
}

/// The bulk-refund select (0 none, 1 full, 2 half, 3 specified).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "mode", content = "amount")]
pub enum BulkMode {
    None,
    Full,
    /// Half of each charge, rounded down (a 1,001 yen sale gets 500 yen back).
    Half,
    /// The same amount for every refundable sale.
    Specified(Option<Yen>),
}

impl BulkMode {
    /// Builds the mode from the select's value and the typed amount.
    pub fn from_select(value: i32, amount: Option<Yen>) -> Self {
        match value {
            1 => Self::Full,
            2 => Self::Half,
            3 => Self::Specified(amount),
            _ => Self::None,
        }
    }
}

/// A row of the refund table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RefundRow {
    pub sale_id: SaleId,
    /// What may still be refunded of this sale ([`refundable_amount`]).
    pub refundable: Yen,
    pub flag: RefundFlag,
}

/// One refund the bulk run will make.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlannedRefund {
    pub sale_id: SaleId,
    pub amount: Yen,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum BulkRefundError {
    #[error("{}", MSG_BULK_MODE_REQUIRED)]
    ModeRequired,
    #[error("{}", MSG_REFUND_AMOUNT_REQUIRED)]
    AmountRequired,
    #[error("{}", MSG_NOTHING_REFUNDABLE)]
    NothingRefundable,
    /// The specified amount is above this sale's charge.
    #[error("{}", MSG_BULK_REFUND_ABOVE_SPONSORED)]
    AboveSponsored { sale_id: SaleId },
}

/// Plans a bulk refund over the refundable rows (flag 1); other rows are
/// left alone. The run is all or nothing: if a specified amount exceeds any
/// refundable sale, nothing is planned. Rows whose amount would be 0 (half
/// of a 1 yen sale) are skipped, as the provider cannot refund 0 yen; they
/// stay refundable.
pub fn plan_bulk_refund(mode: BulkMode, rows: &[RefundRow]) -> Result<Vec<PlannedRefund>, BulkRefundError> {
    if mode == BulkMode::None {
        return Err(BulkRefundError::ModeRequired);
    }
    let refundable: Vec<&RefundRow> = rows.iter().filter(|r| r.flag == RefundFlag::Refundable).collect();
    if refundable.is_empty() {
        return Err(BulkRefundError::NothingRefundable);
    }
    let mut plan = Vec::with_capacity(refundable.len());
    for row in refundable {
        let amount = match mode {
            BulkMode::None => return Err(BulkRefundError::ModeRequired),
            BulkMode::Full => Some(row.refundable),
            BulkMode::Half => half_refund_amount(row.refundable),
            BulkMode::Specified(requested) => {
                let amount = requested.filter(|a| a.is_positive()).ok_or(BulkRefundError::AmountRequired)?;
                if amount > row.refundable {
                    return Err(BulkRefundError::AboveSponsored { sale_id: row.sale_id });
                }
                Some(amount)
            }
        };
        if let Some(amount) = amount.filter(|a| a.is_positive()) {
            plan.push(PlannedRefund { sale_id: row.sale_id, amount });
        }
    }
    Ok(plan)
}

/// The total a plan gives back; `None` only if it would overflow.
pub fn plan_total(plan: &[PlannedRefund]) -> Option<Yen> {
    Yen::checked_sum(plan.iter().map(|p| p.amount))
}

/// What an administrator reads when the provider refused a refund: Japanese
/// for the reasons we know, a general sentence otherwise. The provider's own
/// text (English at Stripe) stays stored beside it for diagnosis.
pub fn refund_failure_text(provider_reason: &str) -> String {
    let reason = provider_reason.to_ascii_lowercase();
    let known: [(&[&str], &str); 4] = [
        (
            &["does not have a successful charge", "charge_not_succeeded"],
            "この支援には返金できる入金がありません（入金前、または取り消された支払いです）。",
        ),
        (
            &["insufficient funds", "balance_insufficient"],
            "決済事業者の残高が不足しているため返金できませんでした。残高を確保してから再度お試しください。",
        ),
        (&["already been refunded", "charge_already_refunded"], "この支払いはすでに返金されています。"),
        (&["greater than", "amount_too_large"], "返金額が返金できる残りの金額を超えています。"),
    ];
    if let Some((_, text)) = known.iter().find(|(needles, _)| needles.iter().any(|n| reason.contains(n))) {
        return (*text).to_string();
    }
    if !provider_reason.is_ascii() {
        // Already ours, in Japanese (決済が見つかりません..., 決済事業者が返金を取り消しました。).
        return provider_reason.to_string();
    }
    "決済事業者が返金を受け付けませんでした。時間をおいて再度お試しください。".to_string()
}

/// The bulk refund's closing sentence: the spec's success message only when
/// nothing failed; otherwise how many were refunded and how many failed.
pub fn bulk_refund_message(succeeded: usize, failed: usize) -> String {
    match (succeeded, failed) {
        (_, 0) => MSG_BULK_DONE.to_string(),
        (0, failed) => format!("一括返金はすべて失敗しました（{failed}件）。失敗した支援は返金可能のまま残っています。"),
        (succeeded, failed) => format!(
            "一括返金が終わりました。{succeeded}件を返金し、{failed}件は返金に失敗しました。失敗した支援は返金可能のまま残っています。"
        ),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_bulk_run_with_failures_never_says_it_completed() {
        assert_eq!(bulk_refund_message(6, 0), "一括返金が完了しました");
        assert!(bulk_refund_message(2, 4).contains("2件を返金し、4件は返金に失敗しました"));
        assert!(bulk_refund_message(0, 4).starts_with("一括返金はすべて失敗しました（4件）"));
        for (ok, failed) in [(2, 4), (0, 4), (5, 1)] {
            assert!(!bulk_refund_message(ok, failed).contains("完了しました"), "{ok} {failed}");
        }
    }

    #[test]
    fn the_providers_english_reasons_are_told_in_japanese() {
        let no_charge =
            refund_failure_text("HTTP 400: This PaymentIntent does not have a successful charge to refund.");
        assert!(no_charge.starts_with("この支援には返金できる入金がありません"), "{no_charge}");
        assert!(refund_failure_text("Insufficient funds in Stripe account.").contains("残高が不足"));
        assert_eq!(refund_failure_text("決済が見つかりません（pi_1）"), "決済が見つかりません（pi_1）");
        let unknown = refund_failure_text("HTTP 500: something new");
        assert!(!unknown.is_ascii() && !unknown.contains("something"), "{unknown}");
    }

    use super::*;
    use proptest::prelude::*;

    fn row(sale_id: i64, charged: i64, flag: i32) -> RefundRow {
        RefundRow { sale_id: SaleId(sale_id), refundable: Yen(charged), flag: RefundFlag::from_code(flag) }
    }

    #[test]
    fn a_late_transfer_to_give_back_is_refundable_and_nothing_else_changes() {
        assert_eq!(RefundFlag::of_sale(0, true), RefundFlag::Refundable);
        assert_eq!(RefundFlag::of_sale(0, false), RefundFlag::NotRefundable(0));
        assert_eq!(RefundFlag::of_sale(11, true), RefundFlag::Refunded);
        assert_eq!(RefundFlag::of_sale(1, false), RefundFlag::Refundable);
    }

    #[test]
    fn what_is_left_to_refund_is_paid_less_refunded_and_nothing_once_not_refundable() {
        assert_eq!(refundable_amount(Yen(3_000), Yen(1_000), RefundFlag::Refundable), Yen(2_000));
        assert_eq!(refundable_amount(Yen(3_000), Yen(1_000), RefundFlag::Refunded), Yen(0));
        assert_eq!(refundable_amount(Yen(3_000), Yen(0), RefundFlag::NotRefundable(0)), Yen(0));
    }

    #[test]
    fn half_of_one_yen_is_no_refund_and_the_bulk_run_skips_that_sale() {
        assert_eq!(half_refund_amount(Yen(1)), None);
        assert_eq!(half_refund_amount(Yen(1_001)), Some(Yen(500)));
        let plan = plan_bulk_refund(BulkMode::Half, &[row(1, 1, 1), row(2, 1_001, 1)]).unwrap();
        assert_eq!(plan, vec![PlannedRefund { sale_id: SaleId(2), amount: Yen(500) }]);
    }

    #[test]
    fn refundable_flag_becomes_refunded() {
        assert_eq!(RefundFlag::from_code(1).after_refund().code(), 11);
        assert_eq!(RefundFlag::from_code(0).after_refund().code(), 0);
    }

    #[test]
    fn empty_zero_or_negative_refund_asks_for_an_amount() {
        for requested in [None, Some(Yen(0)), Some(Yen(-5))] {
            let err = check_single_refund(requested, Yen(1_000), RefundFlag::Refundable).unwrap_err();
            assert_eq!(err.to_string(), "返金額を入力してください");
        }
    }

    #[test]
    fn refund_above_sponsored_amount_is_refused() {
        let err = check_single_refund(Some(Yen(1_001)), Yen(1_000), RefundFlag::Refundable).unwrap_err();
        assert_eq!(err.to_string(), "返金額が協賛金額の合計を超えています");
    }

    #[test]
    fn refund_up_to_the_charge_is_accepted() {
        assert_eq!(check_single_refund(Some(Yen(1_000)), Yen(1_000), RefundFlag::Refundable), Ok(Yen(1_000)));
    }

    #[test]
    fn refunded_sale_cannot_be_refunded_again() {
        assert_eq!(
            check_single_refund(Some(Yen(1)), Yen(1_000), RefundFlag::Refunded),
            Err(RefundRuleError::NotRefundable)
        );
    }

    #[test]
    fn bulk_without_a_mode_is_refused() {
        assert_eq!(
            plan_bulk_refund(BulkMode::from_select(0, None), &[row(1, 100, 1)]),
            Err(BulkRefundError::ModeRequired)
        );
    }

    #[test]
    fn full_bulk_refunds_each_refundable_charge_and_skips_the_rest() {
        let plan = plan_bulk_refund(BulkMode::Full, &[row(1, 1_000, 1), row(2, 2_000, 11), row(3, 3_000, 1)]).unwrap();
        assert_eq!(
            plan,
            vec![
                PlannedRefund { sale_id: SaleId(1), amount: Yen(1_000) },
                PlannedRefund { sale_id: SaleId(3), amount: Yen(3_000) }
            ]
        );
        assert_eq!(plan_total(&plan), Some(Yen(4_000)));
    }

    #[test]
    fn half_bulk_rounds_down_and_skips_zero() {
        let plan = plan_bulk_refund(BulkMode::Half, &[row(1, 1_001, 1), row(2, 1, 1)]).unwrap();
        assert_eq!(plan, vec![PlannedRefund { sale_id: SaleId(1), amount: Yen(500) }]);
    }

    #[test]
    fn specified_amount_above_any_charge_refuses_the_whole_run() {
        let err =
            plan_bulk_refund(BulkMode::Specified(Some(Yen(1_500))), &[row(1, 2_000, 1), row(2, 1_000, 1)]).unwrap_err();
        assert_eq!(err, BulkRefundError::AboveSponsored { sale_id: SaleId(2) });
        assert_eq!(err.to_string(), "返金額が協賛金額を超えています。");
    }

    #[test]
    fn specified_amount_must_be_positive() {
        let err = plan_bulk_refund(BulkMode::from_select(3, Some(Yen(0))), &[row(1, 2_000, 1)]).unwrap_err();
        assert_eq!(err.to_string(), "返金額を入力してください");
    }

    #[test]
    fn bulk_with_nothing_refundable_says_so() {
        let err = plan_bulk_refund(BulkMode::Full, &[row(1, 1_000, 11), row(2, 1_000, 0)]).unwrap_err();
        assert_eq!(err.to_string(), "返金できる購入情報がありません。");
    }

    fn any_row() -> impl Strategy<Value = RefundRow> {
        (any::<i64>(), 0i64..=i64::MAX, prop_oneof![Just(1), Just(11), any::<i32>()])
            .prop_map(|(id, charged, flag)| row(id, charged, flag))
    }

    fn any_mode() -> impl Strategy<Value = BulkMode> {
        prop_oneof![
            Just(BulkMode::Full),
            Just(BulkMode::Half),
            proptest::option::of(any::<i64>().prop_map(Yen)).prop_map(BulkMode::Specified),
        ]
    }

    proptest! {
        #[test]
        fn single_refund_accepts_exactly_positive_amounts_up_to_the_charge(requested in any::<i64>(), charged in 0i64..=i64::MAX) {
            let ok = check_single_refund(Some(Yen(requested)), Yen(charged), RefundFlag::Refundable).is_ok();
            prop_assert_eq!(ok, requested > 0 && requested <= charged);
        }

        #[test]
        fn planned_refunds_are_positive_within_their_charge_and_only_for_refundable_rows(
            mode in any_mode(), rows in proptest::collection::vec(any_row(), 0..20)
        ) {
            if let Ok(plan) = plan_bulk_refund(mode, &rows) {
                for planned in &plan {
                    prop_assert!(planned.amount.is_positive());
                    prop_assert!(rows.iter().any(|r| r.sale_id == planned.sale_id
                        && r.flag == RefundFlag::Refundable
                        && planned.amount <= r.refundable));
                }
            }
        }

        #[test]
        fn full_and_specified_plans_cover_every_refundable_row_exactly_once(
            rows in proptest::collection::vec((1i64..=1_000_000, prop_oneof![Just(1), Just(11), Just(0)]), 1..30),
            specified in 1i64..=1_000,
        ) {
            let rows: Vec<RefundRow> =
                rows.iter().enumerate().map(|(i, (charged, flag))| row(i as i64, *charged, *flag)).collect();
            let refundable: Vec<&RefundRow> = rows.iter().filter(|r| r.flag == RefundFlag::Refundable).collect();
            match plan_bulk_refund(BulkMode::Full, &rows) {
                Ok(plan) => {
                    prop_assert_eq!(plan.len(), refundable.len());
                    for (planned, r) in plan.iter().zip(&refundable) {
                        prop_assert_eq!((planned.sale_id, planned.amount), (r.sale_id, r.refundable));
                    }
                }
                Err(e) => prop_assert!(refundable.is_empty() && e == BulkRefundError::NothingRefundable),
            }
            match plan_bulk_refund(BulkMode::Specified(Some(Yen(specified))), &rows) {
                Ok(plan) => {
                    prop_assert_eq!(plan.len(), refundable.len());
                    prop_assert!(plan.iter().all(|p| p.amount == Yen(specified)));
                }
                Err(BulkRefundError::AboveSponsored { sale_id }) => {
                    prop_assert!(refundable.iter().any(|r| r.sale_id == sale_id && r.refundable.0 < specified));
                }
                Err(e) => prop_assert!(refundable.is_empty() && e == BulkRefundError::NothingRefundable),
            }
        }

        #[test]
        fn half_is_the_floor_of_half_the_charge(charged in 2i64..=i64::MAX) {
            let plan = plan_bulk_refund(BulkMode::Half, &[row(1, charged, 1)]).unwrap();
            prop_assert_eq!(plan[0].amount.0, charged / 2);
            prop_assert!(plan[0].amount.0 * 2 <= charged && plan[0].amount.0 * 2 + 2 > charged);
        }
    }
}
