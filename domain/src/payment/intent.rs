//! What the payment provider reports about a payment, in our words: its
//! status (and the sale status it means), and the bank transfer
//! instructions it issues. Provider-agnostic: the Stripe adapter maps its
//! own types onto these.

use super::{PayType, SaleStatus};
use crate::money::Yen;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// Where a payment stands at the provider (a Stripe PaymentIntent's status).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IntentStatus {
    /// No usable payment method: after a confirmation, the attempt was
    /// refused (card declined, 3-D Secure failed).
    RequiresPaymentMethod,
    /// Created but not confirmed yet.
    RequiresConfirmation,
    /// The supporter must act: 3-D Secure for a card, the transfer itself
    /// for a bank transfer.
    RequiresAction,
    /// The provider is settling the payment.
    Processing,
    /// Authorised, waiting to be captured.
    RequiresCapture,
    Canceled,
    Succeeded,
}

impl IntentStatus {
    /// The sale status a payment in this state means.
    ///
    /// We create and confirm a payment in one call, so a payment back at
    /// `requires_payment_method` has had its attempt refused: the sale has
    /// failed. A bank transfer waiting for action is waiting for the money.
    /// We capture automatically, so an authorised payment waiting for its
    /// capture is still being settled. A konbini payment waiting for action
    /// waits for the store; one back at `requires_payment_method` is a voucher
    /// that expired unpaid (nothing was refused): the sale is cancelled.
    pub const fn sale_status(self, pay_type: PayType) -> SaleStatus {
        match (self, pay_type) {
            (Self::RequiresPaymentMethod, PayType::Konbini) => SaleStatus::Canceled,
            (Self::RequiresPaymentMethod, _) => SaleStatus::Failed,
            (Self::RequiresConfirmation, _) => SaleStatus::Pending,
            (Self::RequiresAction, PayType::Card | PayType::Konbini) => SaleStatus::RequiresAction,
            (Self::RequiresAction, PayType::BankTransfer) => SaleStatus::AwaitingBankTransfer,
            (Self::Processing | Self::RequiresCapture, _) => SaleStatus::Processing,
            (Self::Canceled, _) => SaleStatus::Canceled,
            (Self::Succeeded, _) => SaleStatus::Succeeded,
        }
    }
}

/// Why a provider's report about a payment is not applied to a sale: the
/// signature of an event proves who sent it, not that it is about our money.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PaymentMismatch {
    #[error("the payment is for {actual}, the sale for {expected}")]
    Amount { expected: Yen, actual: Yen },
    #[error("the payment reports {actual} received, the sale is for {expected}")]
    Received { expected: Yen, actual: Yen },
}

/// Whether a payment the provider reports may be applied to a sale of
/// `sale_total`: the payment is for exactly that amount, and one reported
/// paid has received all of it (a transfer still being funded may have
/// received part, never more).
pub fn check_payment_amounts(
    sale_total: Yen,
    status: IntentStatus,
    amount: Yen,
    amount_received: Yen,
) -> Result<(), PaymentMismatch> {
    if amount != sale_total {
        return Err(PaymentMismatch::Amount { expected: sale_total, actual: amount });
    }
    let received_ok = match status {
        IntentStatus::Succeeded => amount_received == sale_total,
        _ => amount_received <= sale_total,
    };
    if !received_ok {
        return Err(PaymentMismatch::Received { expected: sale_total, actual: amount_received });
    }
    Ok(())
}

impl SaleStatus {
    /// The status a sale takes when the provider reports `reported`, or
    /// `None` when the report changes nothing. Webhooks arrive late, twice
    /// and out of order, and the reconciler reads the provider at any time,
    /// so a report only ever moves a sale forward:
    ///
    /// * money received wins: `Succeeded` is taken from any status, also
    ///   from `Canceled` (a transfer arriving after its deadline; the caller
    ///   then takes the lots again or flags the sale for refund);
    /// * a paid sale stays paid (refunds are recorded beside it);
    /// * `Failed` and `Canceled` are final for every other report;
    /// * otherwise `Pending` < waiting for the supporter (`RequiresAction`,
    ///   `AwaitingBankTransfer`) < `Processing` < `Failed` / `Canceled`, and
    ///   an earlier step never overwrites a later one.
    pub const fn after_provider_report(self, reported: SaleStatus) -> Option<SaleStatus> {
        use SaleStatus::*;
        match (self, reported) {
            (Succeeded, _) => None,
            (_, Succeeded) => Some(Succeeded),
            (Failed | Canceled, _) => None,
            _ if progress(reported) > progress(self) => Some(reported),
            _ => None,
        }
    }
}

/// How far a sale has come; see [`SaleStatus::after_provider_report`].
const fn progress(status: SaleStatus) -> u8 {
    match status {
        SaleStatus::Pending => 0,
        SaleStatus::RequiresAction | SaleStatus::AwaitingBankTransfer => 1,
        SaleStatus::Processing => 2,
        SaleStatus::Failed | SaleStatus::Canceled => 3,
        SaleStatus::Succeeded => 4,
    }
}

/// The kind of a Japanese bank account (zengin `account_type`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
pub enum BankAccountType {
    /// `futsu`: 普通預金, the only kind the spec maps.
    Ordinary,
    /// Any other code, shown as the provider sent it.
    Other(String),
}

impl BankAccountType {
    /// Reads the provider's code (`futsu`, ...).
    pub fn from_code(code: &str) -> Self {
        match code {
            "futsu" => Self::Ordinary,
            other => Self::Other(other.to_string()),
        }
    }

    pub fn code(&self) -> &str {
        match self {
            Self::Ordinary => "futsu",
            Self::Other(code) => code,
        }
    }

    /// What the supporter reads on screen and in the mail.
    pub fn label(&self) -> &str {
        match self {
            Self::Ordinary => "普通",
            Self::Other(code) => code,
        }
    }
}

impl From<String> for BankAccountType {
    fn from(code: String) -> Self {
        Self::from_code(&code)
    }
}

impl From<BankAccountType> for String {
    fn from(kind: BankAccountType) -> Self {
        kind.code().to_string()
    }
}

/// Where and how much to transfer for one bank-transfer sale (spec 001 §3
/// "Bank transfer info"), as the provider issued it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BankTransferInstructions {
    /// What is still to be paid; smaller than the total after a partial
    /// transfer.
    pub amount_remaining: Yen,
    /// What the supporter should quote with the transfer, when the provider
    /// gives one.
    pub reference: Option<String>,
    pub bank_name: String,
    pub bank_code: Option<String>,
    pub branch_name: String,
    pub branch_code: Option<String>,
    pub account_type: BankAccountType,
    pub account_number: String,
    /// The account holder as the bank shows it (usually half-width kana).
    pub account_holder_name: String,
}

/// A convenience-store chain where a konbini voucher can be paid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KonbiniChain {
    Familymart,
    Lawson,
    Ministop,
    Seicomart,
}

impl KonbiniChain {
    /// In the order the provider lists them.
    pub const ALL: [Self; 4] = [Self::Familymart, Self::Lawson, Self::Ministop, Self::Seicomart];

    /// What the supporter reads on screen and in the mail.
    pub const fn label(self) -> &'static str {
        match self {
            Self::Familymart => "ファミリーマート",
            Self::Lawson => "ローソン",
            Self::Ministop => "ミニストップ",
            Self::Seicomart => "セイコーマート",
        }
    }
}

/// What to give at the register of one chain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KonbiniStore {
    pub chain: KonbiniChain,
    /// お客様番号 / 受付番号: what the store's terminal or clerk asks for.
    pub payment_code: String,
    /// 確認番号, when the chain asks for one.
    pub confirmation_number: Option<String>,
}

/// How to pay one konbini sale, as the provider issued it: the chains with
/// their numbers, the moment the voucher expires, and the provider's
/// printable voucher page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KonbiniVoucher {
    pub expires_at: DateTime<Utc>,
    pub hosted_voucher_url: Option<String>,
    pub stores: Vec<KonbiniStore>,
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    #[test]
    fn a_paid_payment_of_one_yen_does_not_pay_a_6000_yen_sale() {
        let paid = check_payment_amounts(Yen(6000), IntentStatus::Succeeded, Yen(6000), Yen(1));
        assert_eq!(paid, Err(PaymentMismatch::Received { expected: Yen(6000), actual: Yen(1) }));
        let other_amount = check_payment_amounts(Yen(6000), IntentStatus::Succeeded, Yen(1), Yen(1));
        assert_eq!(other_amount, Err(PaymentMismatch::Amount { expected: Yen(6000), actual: Yen(1) }));
        assert_eq!(check_payment_amounts(Yen(6000), IntentStatus::Succeeded, Yen(6000), Yen(6000)), Ok(()));
    }

    #[test]
    fn a_transfer_being_funded_may_have_received_part() {
        assert_eq!(check_payment_amounts(Yen(6000), IntentStatus::RequiresAction, Yen(6000), Yen(2000)), Ok(()));
        assert!(check_payment_amounts(Yen(6000), IntentStatus::RequiresAction, Yen(6000), Yen(6001)).is_err());
    }

    proptest! {
        /// Only a payment for the sale's own total, fully received, may ever pay a sale.
        #[test]
        fn only_the_exact_amount_pays(total in 1i64..10_000_000, amount in 0i64..10_000_000, received in 0i64..10_000_000) {
            let ok = check_payment_amounts(Yen(total), IntentStatus::Succeeded, Yen(amount), Yen(received)).is_ok();
            prop_assert_eq!(ok, amount == total && received == total);
        }
    }

    use super::*;
    use SaleStatus::*;

    const ALL_SALE: [SaleStatus; 7] =
        [Pending, Processing, Succeeded, RequiresAction, AwaitingBankTransfer, Canceled, Failed];

    #[test]
    fn a_card_waiting_for_3d_secure_waits_for_action_and_a_transfer_waits_for_money() {
        assert_eq!(IntentStatus::RequiresAction.sale_status(PayType::Card), RequiresAction);
        assert_eq!(IntentStatus::RequiresAction.sale_status(PayType::BankTransfer), AwaitingBankTransfer);
    }

    #[test]
    fn a_konbini_voucher_waits_for_the_store_and_one_back_without_a_method_has_expired() {
        assert_eq!(IntentStatus::RequiresAction.sale_status(PayType::Konbini), RequiresAction);
        assert_eq!(IntentStatus::RequiresPaymentMethod.sale_status(PayType::Konbini), Canceled);
        assert_eq!(IntentStatus::Canceled.sale_status(PayType::Konbini), Canceled);
        assert_eq!(IntentStatus::Succeeded.sale_status(PayType::Konbini), Succeeded);
        // A payment that arrives after the sale was cancelled at its deadline still wins, as a late transfer does.
        assert_eq!(
            Canceled.after_provider_report(IntentStatus::Succeeded.sale_status(PayType::Konbini)),
            Some(Succeeded)
        );
        // An expiry reported after the payment changes nothing.
        assert_eq!(
            Succeeded.after_provider_report(IntentStatus::RequiresPaymentMethod.sale_status(PayType::Konbini)),
            None
        );
    }

    #[test]
    fn chains_are_named_in_japanese() {
        let labels: Vec<&str> = KonbiniChain::ALL.iter().map(|c| c.label()).collect();
        assert_eq!(labels, ["ファミリーマート", "ローソン", "ミニストップ", "セイコーマート"]);
    }

    #[test]
    fn provider_statuses_map_to_sale_statuses() {
        for pay in [PayType::Card, PayType::BankTransfer] {
            assert_eq!(IntentStatus::Succeeded.sale_status(pay), Succeeded);
            assert_eq!(IntentStatus::RequiresPaymentMethod.sale_status(pay), Failed);
            assert_eq!(IntentStatus::Canceled.sale_status(pay), Canceled);
            assert_eq!(IntentStatus::Processing.sale_status(pay), Processing);
            assert_eq!(IntentStatus::RequiresCapture.sale_status(pay), Processing);
            assert_eq!(IntentStatus::RequiresConfirmation.sale_status(pay), Pending);
        }
    }

    #[test]
    fn money_received_wins_over_every_other_status() {
        for current in ALL_SALE.into_iter().filter(|s| *s != Succeeded) {
            assert_eq!(current.after_provider_report(Succeeded), Some(Succeeded), "from {current:?}");
        }
    }

    #[test]
    fn a_paid_sale_never_goes_back_whatever_arrives_late() {
        for reported in ALL_SALE {
            assert_eq!(Succeeded.after_provider_report(reported), None, "{reported:?}");
        }
    }

    #[test]
    fn a_late_requires_action_does_not_reopen_a_failed_or_cancelled_sale() {
        for done in [Failed, Canceled] {
            for reported in [Pending, RequiresAction, AwaitingBankTransfer, Processing, Failed, Canceled] {
                assert_eq!(done.after_provider_report(reported), None, "{done:?} <- {reported:?}");
            }
        }
    }

    #[test]
    fn reports_move_a_live_sale_forward_only() {
        assert_eq!(Pending.after_provider_report(AwaitingBankTransfer), Some(AwaitingBankTransfer));
        assert_eq!(Pending.after_provider_report(RequiresAction), Some(RequiresAction));
        assert_eq!(RequiresAction.after_provider_report(Failed), Some(Failed));
        assert_eq!(AwaitingBankTransfer.after_provider_report(Canceled), Some(Canceled));
        assert_eq!(RequiresAction.after_provider_report(Processing), Some(Processing));
        assert_eq!(Processing.after_provider_report(RequiresAction), None);
        assert_eq!(AwaitingBankTransfer.after_provider_report(Pending), None);
        assert_eq!(AwaitingBankTransfer.after_provider_report(AwaitingBankTransfer), None);
        assert_eq!(RequiresAction.after_provider_report(AwaitingBankTransfer), None);
    }

    #[test]
    fn replaying_any_report_twice_changes_nothing_the_second_time() {
        for current in ALL_SALE {
            for reported in ALL_SALE {
                let once = current.after_provider_report(reported).unwrap_or(current);
                assert_eq!(once.after_provider_report(reported), None, "{current:?} <- {reported:?} twice");
            }
        }
    }

    #[test]
    fn only_the_ordinary_account_type_is_translated() {
        assert_eq!(BankAccountType::from_code("futsu").label(), "普通");
        assert_eq!(BankAccountType::from_code("toza"), BankAccountType::Other("toza".into()));
        assert_eq!(BankAccountType::from_code("toza").label(), "toza");
        let json = serde_json::to_string(&BankAccountType::Ordinary).unwrap();
        assert_eq!(json, r#""futsu""#);
        assert_eq!(serde_json::from_str::<BankAccountType>(&json).unwrap(), BankAccountType::Ordinary);
    }
}
