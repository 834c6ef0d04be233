//! Returns (rewards): stock, availability, visibility and who the supporter
//! is for each return type (spec 000 §3-4, spec 001 §3, §5).

use crate::lot::Lot;
use serde::{Deserialize, Serialize};

pub const MSG_DISPLAY_NAME_REQUIRED: &str = "表示名を入力してください。";
pub const MSG_COMPANY_NAME_REQUIRED: &str = "企業名を入力してください。";
pub const MSG_ORGANISATION_NAME_REQUIRED: &str = "団体名を入力してください。";

/// Returns whose `flag` is at or above this are hidden from everyone.
pub const HIDDEN_FLAG_THRESHOLD: i32 = 900;

/// Who backs through a return: decides which name the supporter must give
/// and whether a logo may be shown on the sponsor wall.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "i32", into = "i32")]
pub enum ReturnType {
    /// 0: an individual, shown by display name.
    Individual,
    /// 1: a company with name, logo and site URL.
    Company,
    /// 2: an organisation with name, logo and site URL.
    Organisation,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("unknown return type {0}")]
pub struct UnknownReturnType(pub i32);

impl ReturnType {
    /// Every return type; adapters derive their SQL filters from it.
    pub const ALL: [Self; 3] = [Self::Individual, Self::Company, Self::Organisation];

    pub const fn code(self) -> i32 {
        match self {
            Self::Individual => 0,
            Self::Company => 1,
            Self::Organisation => 2,
        }
    }

    pub const fn from_code(code: i32) -> Result<Self, UnknownReturnType> {
        match code {
            0 => Ok(Self::Individual),
            1 => Ok(Self::Company),
            2 => Ok(Self::Organisation),
            other => Err(UnknownReturnType(other)),
        }
    }

    /// Only company and organisation supporters get a logo on the sponsor wall.
    pub const fn allows_logo(self) -> bool {
        matches!(self, Self::Company | Self::Organisation)
    }

    /// The message shown when the name this type needs is missing.
    pub const fn name_required_message(self) -> &'static str {
        match self {
            Self::Individual => MSG_DISPLAY_NAME_REQUIRED,
            Self::Company => MSG_COMPANY_NAME_REQUIRED,
            Self::Organisation => MSG_ORGANISATION_NAME_REQUIRED,
        }
    }
}

impl TryFrom<i32> for ReturnType {
    type Error = UnknownReturnType;
    fn try_from(value: i32) -> Result<Self, Self::Error> {
        Self::from_code(value)
    }
}

impl From<ReturnType> for i32 {
    fn from(value: ReturnType) -> Self {
        value.code()
    }
}

/// The missing name for a return type; displays the spec's message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{}", .0.name_required_message())]
pub struct SupporterNameRequired(pub ReturnType);

/// The supporter name for a return of type `kind` (display name, company
/// name or organisation name), trimmed and required.
pub fn supporter_name(kind: ReturnType, raw: &str) -> Result<String, SupporterNameRequired> {
    let trimmed = raw.trim();
    if trimmed.is_empty() {
        return Err(SupporterNameRequired(kind));
    }
    Ok(trimmed.to_string())
}

/// How many more lots a return can sell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "count")]
pub enum Remaining {
    /// The return has no `limit`.
    Unlimited,
    Limited(u32),
}

impl Remaining {
    /// `limit − lots taken`, never negative. `taken` counts every sale that
    /// reserves stock (see `payment::SaleStatus::reserves_stock`).
    pub fn compute(limit: Option<u32>, taken: u64) -> Self {
        match limit {
            None => Self::Unlimited,
            Some(limit) => {
                let left = u64::from(limit).saturating_sub(taken);
                Self::Limited(u32::try_from(left).unwrap_or(limit))
            }
        }
    }

    pub const fn is_sold_out(self) -> bool {
        matches!(self, Self::Limited(0))
    }

    /// Whether `lot` more units fit.
    pub fn admits(self, lot: Lot) -> bool {
        match self {
            Self::Unlimited => true,
            Self::Limited(left) => u32::from(lot.get()) <= left,
        }
    }
}

/// Why a return cannot be bought right now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(rename_all = "snake_case")]
pub enum PurchaseBlock {
    /// The limit is reached (the seed's "support limit reached").
    #[error("支援上限に達しました")]
    SoldOut,
    /// Fewer units are left than the lot asked for.
    #[error("残りの口数が足りません")]
    NotEnoughLeft,
    /// The return is marked `disabled`; its `disabledComment` explains why.
    #[error("このリターンは現在お申し込みいただけません")]
    Disabled,
    /// The project's period is over.
    #[error("このプロジェクトは終了しました")]
    ProjectEnded,
    /// The supporter already waits to pay a bank transfer for this limited
    /// return ([`transfer_hold_block`]).
    #[error("このリターンには、お支払いをお待ちしているお申し込み（銀行振込・コンビニ決済）があります。お支払いが済んでから、または期限を過ぎてから改めてお申し込みください。")]
    TransferAwaited,
    /// Unpaid bank transfers hold their share of this limited return already.
    #[error(
        "このリターンは銀行振込・コンビニ決済でお申し込みいただける数に達しました。クレジットカードでのお支払いをご利用ください。"
    )]
    TransferShareTaken,
}

/// The share of a limited return's stock that unpaid bank transfers may hold
/// together, in halves: the rest stays for supporters who pay at once.
pub const UNPAID_TRANSFER_SHARE_HALVES: i64 = 1;

/// Whether a new bank transfer of `lots` may hold stock of a return: for a
/// limited return (`limit`), a supporter has at most one unpaid transfer
/// (`supporter_unpaid` counts theirs), and all unpaid transfers together
/// (`unpaid_lots`) hold at most half the stock, rounded up. Unlimited returns
/// hold nothing anyone else could miss. Decided in docs/decisions.md.
pub fn transfer_hold_block(
    limit: Option<i64>,
    unpaid_lots: i64,
    supporter_unpaid: i64,
    lots: i64,
) -> Option<PurchaseBlock> {
    let limit = limit?;
    if supporter_unpaid > 0 {
        return Some(PurchaseBlock::TransferAwaited);
    }
    let share = (limit * UNPAID_TRANSFER_SHARE_HALVES + 1) / 2;
    (unpaid_lots + lots > share).then_some(PurchaseBlock::TransferShareTaken)
}

/// Whether a return can be bought at all; `None` means it can. The ended
/// project wins over the other reasons because it is the most final.
pub fn purchase_block(remaining: Remaining, disabled: bool, project_open: bool) -> Option<PurchaseBlock> {
    if !project_open {
        Some(PurchaseBlock::ProjectEnded)
    } else if disabled {
        Some(PurchaseBlock::Disabled)
    } else if remaining.is_sold_out() {
        Some(PurchaseBlock::SoldOut)
    } else {
        None
    }
}

/// The server-side check at purchase time: the return can be bought and
/// the requested lot still fits in the remaining stock.
pub fn check_purchase(remaining: Remaining, disabled: bool, project_open: bool, lot: Lot) -> Result<(), PurchaseBlock> {
    if let Some(block) = purchase_block(remaining, disabled, project_open) {
        return Err(block);
    }
    if !remaining.admits(lot) {
        return Err(PurchaseBlock::NotEnoughLeft);
    }
    Ok(())
}

/// Returns flagged 900 or above are hidden.
pub const fn is_hidden(flag: i32) -> bool {
    flag >= HIDDEN_FLAG_THRESHOLD
}

/// Whether a viewer may see a return restricted by `displayValidity.showUser`.
/// No restriction (or an empty one) shows it to all; otherwise only the viewer
/// whose e-mail matches, compared trimmed and case-insensitively.
pub fn is_visible_to(show_user: Option<&str>, viewer_email: Option<&str>) -> bool {
    match show_user.map(str::trim).filter(|s| !s.is_empty()) {
        None => true,
        Some(only) => viewer_email.is_some_and(|viewer| viewer.trim().to_lowercase() == only.to_lowercase()),
    }
}

/// Whether a return appears in the list for this viewer.
pub fn is_listed(flag: i32, show_user: Option<&str>, viewer_email: Option<&str>) -> bool {
    !is_hidden(flag) && is_visible_to(show_user, viewer_email)
}

#[cfg(test)]
mod tests {
    #[test]
    fn unpaid_transfers_hold_at_most_half_a_limited_return_and_one_per_supporter() {
        // 30 lots: transfers may hold 15; a guest's 10 leave 5 for other transfers.
        assert_eq!(transfer_hold_block(Some(30), 0, 0, 10), None);
        assert_eq!(transfer_hold_block(Some(30), 10, 0, 5), None);
        assert_eq!(transfer_hold_block(Some(30), 10, 0, 6), Some(PurchaseBlock::TransferShareTaken));
        assert_eq!(transfer_hold_block(Some(30), 0, 1, 1), Some(PurchaseBlock::TransferAwaited));
        // A single-lot return can still be reserved by one transfer; an unlimited one is never held back.
        assert_eq!(transfer_hold_block(Some(1), 0, 0, 1), None);
        assert_eq!(transfer_hold_block(None, 1_000, 3, 10), None);
    }

    proptest! {
        /// However transfers arrive, those that pass never hold more than half the stock (rounded up).
        #[test]
        fn passing_transfers_never_exceed_the_share(limit in 1i64..500, lots in proptest::collection::vec(1i64..=10, 0..100)) {
            let mut held = 0;
            for lot in lots {
                if transfer_hold_block(Some(limit), held, 0, lot).is_none() {
                    held += lot;
                }
            }
            prop_assert!(held <= (limit + 1) / 2);
        }
    }

    use super::*;
    use proptest::prelude::*;

    #[test]
    fn remaining_is_limit_minus_lots_taken() {
        assert_eq!(Remaining::compute(Some(10), 3), Remaining::Limited(7));
    }

    #[test]
    fn remaining_never_goes_negative() {
        assert_eq!(Remaining::compute(Some(5), 8), Remaining::Limited(0));
    }

    #[test]
    fn return_without_limit_is_unlimited() {
        assert_eq!(Remaining::compute(None, 1_000_000), Remaining::Unlimited);
        assert!(Remaining::Unlimited.admits(Lot::parse(10).unwrap()));
    }

    #[test]
    fn sold_out_return_cannot_be_bought() {
        assert_eq!(purchase_block(Remaining::Limited(0), false, true), Some(PurchaseBlock::SoldOut));
        assert_eq!(PurchaseBlock::SoldOut.to_string(), "支援上限に達しました");
    }

    #[test]
    fn disabled_return_cannot_be_bought() {
        assert_eq!(purchase_block(Remaining::Limited(3), true, true), Some(PurchaseBlock::Disabled));
    }

    #[test]
    fn ended_project_blocks_every_return() {
        assert_eq!(purchase_block(Remaining::Unlimited, false, false), Some(PurchaseBlock::ProjectEnded));
        assert_eq!(purchase_block(Remaining::Limited(0), true, false), Some(PurchaseBlock::ProjectEnded));
    }

    #[test]
    fn available_return_has_no_block() {
        assert_eq!(purchase_block(Remaining::Limited(1), false, true), None);
    }

    #[test]
    fn lot_larger_than_the_remaining_stock_is_refused() {
        let three = Lot::parse(3).unwrap();
        assert_eq!(check_purchase(Remaining::Limited(2), false, true, three), Err(PurchaseBlock::NotEnoughLeft));
        assert_eq!(check_purchase(Remaining::Limited(3), false, true, three), Ok(()));
    }

    #[test]
    fn flag_900_and_above_hides_the_return() {
        assert!(!is_hidden(899));
        assert!(is_hidden(900));
        assert!(is_hidden(901));
    }

    #[test]
    fn restricted_return_is_visible_only_to_its_user_ignoring_case() {
        assert!(is_visible_to(Some("Taro@Example.jp"), Some("taro@example.JP")));
        assert!(!is_visible_to(Some("taro@example.jp"), Some("hanako@example.jp")));
        assert!(!is_visible_to(Some("taro@example.jp"), None));
    }

    #[test]
    fn unrestricted_return_is_visible_to_everyone() {
        assert!(is_visible_to(None, None));
        assert!(is_visible_to(Some("  "), None));
        assert!(is_listed(1, None, Some("a@b.jp")));
        assert!(!is_listed(900, None, Some("a@b.jp")));
    }

    #[test]
    fn each_return_type_asks_for_its_own_name() {
        assert_eq!(supporter_name(ReturnType::Individual, " ").unwrap_err().to_string(), "表示名を入力してください。");
        assert_eq!(supporter_name(ReturnType::Company, "").unwrap_err().to_string(), "企業名を入力してください。");
        assert_eq!(supporter_name(ReturnType::Organisation, "").unwrap_err().to_string(), "団体名を入力してください。");
        assert_eq!(supporter_name(ReturnType::Company, " 上毛商事 "), Ok("上毛商事".to_string()));
    }

    #[test]
    fn return_type_codes_round_trip_and_unknown_codes_are_refused() {
        for (i, kind) in ReturnType::ALL.into_iter().enumerate() {
            assert_eq!(ReturnType::from_code(kind.code()), Ok(kind));
            // Codes are dense from 0, so a new type is missing from ALL until added.
            assert_eq!(usize::try_from(kind.code()), Ok(i));
        }
        assert!(ReturnType::from_code(3).is_err(), "a new return type belongs in ReturnType::ALL");
        assert_eq!(ReturnType::from_code(3), Err(UnknownReturnType(3)));
    }

    #[test]
    fn only_company_and_organisation_returns_allow_logos() {
        assert!(!ReturnType::Individual.allows_logo());
        assert!(ReturnType::Company.allows_logo());
        assert!(ReturnType::Organisation.allows_logo());
    }

    proptest! {
        #[test]
        fn remaining_plus_taken_never_exceeds_limit(limit in any::<u32>(), taken in any::<u64>()) {
            match Remaining::compute(Some(limit), taken) {
                Remaining::Limited(left) => {
                    prop_assert!(left <= limit);
                    prop_assert_eq!(u64::from(left), u64::from(limit).saturating_sub(taken));
                }
                Remaining::Unlimited => prop_assert!(false, "a limit gave unlimited"),
            }
        }

        #[test]
        fn an_accepted_purchase_fits_in_the_stock(limit in 0u32..50, taken in 0u64..60, n in 1i64..=10) {
            let remaining = Remaining::compute(Some(limit), taken);
            let lot = Lot::parse(n).unwrap();
            if check_purchase(remaining, false, true, lot).is_ok() {
                prop_assert!(taken + u64::from(lot.get()) <= u64::from(limit));
            }
        }
    }
}
