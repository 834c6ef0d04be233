//! The end of a campaign: succeeded, failed or still waiting for bank
//! transfers (terms §9).
//!
//! Amounts are the site's one totals basis ([`crate::payment::counted_amount`]):
//! what supporters paid, tax included, less refunds.

use crate::money::Yen;
use crate::project::FundingModel;

/// What the end of a campaign decided; `code` is the stored form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CloseOutcome {
    /// The supports are carried out and the owner is paid.
    Succeeded,
    /// All-or-nothing below its goal: every support is refunded.
    Failed,
    /// Unpaid bank transfers still within their deadline could change the
    /// result; decided again once they are paid or lapse.
    AwaitingFunds,
}

impl CloseOutcome {
    pub const ALL: [Self; 3] = [Self::Succeeded, Self::Failed, Self::AwaitingFunds];

    pub const fn code(self) -> &'static str {
        match self {
            Self::Succeeded => "succeeded",
            Self::Failed => "failed",
            Self::AwaitingFunds => "awaiting_funds",
        }
    }

    pub fn parse(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|o| o.code() == code)
    }

    /// What owners and operators read (成立 / 不成立 / 集計中).
    pub const fn label(self) -> &'static str {
        match self {
            Self::Succeeded => "成立",
            Self::Failed => "不成立",
            Self::AwaitingFunds => "集計中",
        }
    }
}

/// Where a project stands as a supporter reads it on my page: 募集中 while open, then
/// 成立 / 不成立 once the closing sweep decided it, and 終了 in between (not looked at yet, or
/// waiting for bank transfers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CampaignState {
    Open,
    Ended,
    Succeeded,
    Failed,
}

impl CampaignState {
    pub const fn of(open: bool, outcome: Option<CloseOutcome>) -> Self {
        match (open, outcome) {
            (true, _) => Self::Open,
            (false, Some(CloseOutcome::Succeeded)) => Self::Succeeded,
            (false, Some(CloseOutcome::Failed)) => Self::Failed,
            (false, Some(CloseOutcome::AwaitingFunds) | None) => Self::Ended,
        }
    }

    /// The stored form and the API's value.
    pub const fn code(self) -> &'static str {
        match self {
            Self::Open => "open",
            Self::Ended => "ended",
            Self::Succeeded => "succeeded",
            Self::Failed => "failed",
        }
    }

    /// 募集中 / 終了 / 成立 / 不成立.
    pub const fn label(self) -> &'static str {
        match self {
            Self::Open => "募集中",
            Self::Ended => "終了",
            Self::Succeeded => "成立",
            Self::Failed => "不成立",
        }
    }
}

/// Decides a campaign at its end. `counted` is what supporters paid less
/// refunds; `pending_transfers` the unpaid bank transfers placed before the
/// end and still within their payment deadline. Negative inputs count as zero.
///
/// The terms: all-in succeeds with its first support, all-or-nothing only at
/// its goal. A result that pending transfers could not change for the better
/// still waits for them: a supporter who placed a transfer before the end
/// may pay it within its deadline, and a project is decided once, with every
/// support it will have (a failed project never has money arrive after its
/// refunds were sent).
pub fn decide_close(model: FundingModel, goal: Yen, counted: Yen, pending_transfers: Yen) -> CloseOutcome {
    let counted = counted.0.max(0);
    let succeeded = match model {
        FundingModel::AllIn => counted > 0,
        FundingModel::AllOrNothing => counted >= goal.0.max(0),
    };
    if succeeded {
        CloseOutcome::Succeeded
    } else if pending_transfers.0 > 0 {
        CloseOutcome::AwaitingFunds
    } else {
        CloseOutcome::Failed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_open_project_reads_as_open_whatever_a_sweep_wrote_and_an_ended_one_by_its_outcome() {
        assert_eq!(CampaignState::of(true, Some(CloseOutcome::Failed)).label(), "募集中");
        assert_eq!(CampaignState::of(false, None).label(), "終了");
        assert_eq!(CampaignState::of(false, Some(CloseOutcome::AwaitingFunds)).label(), "終了");
        assert_eq!(CampaignState::of(false, Some(CloseOutcome::Succeeded)).label(), "成立");
        assert_eq!(CampaignState::of(false, Some(CloseOutcome::Failed)).label(), "不成立");
    }

    use proptest::prelude::*;
    use CloseOutcome::*;
    use FundingModel::*;

    #[test]
    fn codes_round_trip_and_unknown_codes_are_refused() {
        for outcome in CloseOutcome::ALL {
            assert_eq!(CloseOutcome::parse(outcome.code()), Some(outcome));
        }
        assert_eq!(CloseOutcome::parse("successful"), None);
        assert_eq!([Succeeded.label(), Failed.label(), AwaitingFunds.label()], ["成立", "不成立", "集計中"]);
    }

    #[test]
    fn all_in_succeeds_with_its_first_yen_and_waits_only_for_a_first_transfer() {
        assert_eq!(decide_close(AllIn, Yen(1_000_000), Yen(1), Yen(0)), Succeeded);
        assert_eq!(decide_close(AllIn, Yen(1_000_000), Yen(0), Yen(3_000)), AwaitingFunds);
        assert_eq!(decide_close(AllIn, Yen(1_000_000), Yen(0), Yen(0)), Failed);
    }

    #[test]
    fn all_or_nothing_succeeds_at_its_goal_and_otherwise_waits_for_every_pending_transfer() {
        assert_eq!(decide_close(AllOrNothing, Yen(100_000), Yen(100_000), Yen(0)), Succeeded);
        assert_eq!(decide_close(AllOrNothing, Yen(100_000), Yen(100_000), Yen(5_000)), Succeeded);
        assert_eq!(decide_close(AllOrNothing, Yen(100_000), Yen(90_000), Yen(10_000)), AwaitingFunds);
        assert_eq!(decide_close(AllOrNothing, Yen(100_000), Yen(90_000), Yen(9_999)), AwaitingFunds);
        assert_eq!(decide_close(AllOrNothing, Yen(100_000), Yen(0), Yen(0)), Failed);
    }

    #[test]
    fn negative_and_huge_inputs_neither_wrap_nor_panic() {
        assert_eq!(decide_close(AllIn, Yen(0), Yen(-5), Yen(-5)), Failed);
        assert_eq!(decide_close(AllOrNothing, Yen(i64::MAX), Yen(i64::MAX - 1), Yen(i64::MAX)), AwaitingFunds);
        assert_eq!(decide_close(AllOrNothing, Yen(10), Yen(-100), Yen(0)), Failed);
    }

    fn model() -> impl Strategy<Value = FundingModel> {
        prop_oneof![Just(AllIn), Just(AllOrNothing)]
    }

    fn yen() -> impl Strategy<Value = Yen> {
        prop_oneof![4 => 0i64..=10_000_000, 1 => any::<i64>()].prop_map(Yen)
    }

    proptest! {
        #[test]
        fn more_pending_never_undoes_success_nor_worsens_the_outcome(
            m in model(), goal in yen(), counted in yen(), pending in yen(), more in 0i64..=10_000_000
        ) {
            let rank = |o| match o { Failed => 0, AwaitingFunds => 1, Succeeded => 2 };
            let before = decide_close(m, goal, counted, pending);
            let after = decide_close(m, goal, counted, Yen(pending.0.max(0).saturating_add(more)));
            prop_assert!(rank(after) >= rank(before));
            prop_assert!(before != Succeeded || after == Succeeded);
        }

        #[test]
        fn awaiting_funds_only_while_a_transfer_is_pending(m in model(), goal in yen(), counted in yen(), pending in yen()) {
            let outcome = decide_close(m, goal, counted, pending);
            prop_assert!(outcome != AwaitingFunds || pending.0 > 0);
            prop_assert_eq!(decide_close(m, goal, counted, Yen::ZERO) == AwaitingFunds, false);
        }

        #[test]
        fn all_or_nothing_succeeds_exactly_at_its_goal(goal in yen(), counted in yen(), pending in yen()) {
            let outcome = decide_close(AllOrNothing, goal, counted, pending);
            prop_assert_eq!(outcome == Succeeded, counted.0.max(0) >= goal.0.max(0));
        }

        #[test]
        fn all_in_succeeds_exactly_with_some_support(goal in yen(), counted in yen(), pending in yen()) {
            prop_assert_eq!(decide_close(AllIn, goal, counted, pending) == Succeeded, counted.0 > 0);
        }

    }
}
