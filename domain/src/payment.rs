//! The payment flow's rules: pay types, sale statuses, what a sale counts toward totals and the bank
//! transfer deadline (spec 001 §2, §4, §5, §9).

use crate::account::{Email, EmailError};
use crate::lot::{Lot, LotError};
use crate::money::Yen;
use crate::profile::{parse_optional_url, UrlError, WebUrl};
use crate::returns::{supporter_name, ReturnType, SupporterNameRequired};
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

pub mod intent;
pub use intent::{
    check_payment_amounts, BankAccountType, BankTransferInstructions, IntentStatus, KonbiniChain, KonbiniStore,
    KonbiniVoucher, PaymentMismatch,
};

/// Shown when a step is reached without the data earlier steps store.
pub const MSG_INVALID_OPERATION: &str = "無効なURLまたは操作です。お手数ですが最初からやりなおしてください。";
pub const MSG_TERMS_NOT_ACCEPTED: &str = "利用規約に同意してください。";
pub const MSG_ANTISOCIAL_NOT_CONFIRMED: &str = "反社会的勢力に該当しないことを確認してください。";

/// How a supporter pays (`payment_type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "i32", into = "i32")]
pub enum PayType {
    /// 1: credit card.
    Card,
    /// 2: Japanese domestic bank transfer.
    BankTransfer,
    /// 3: convenience-store payment (コンビニ決済): a voucher paid in cash at
    /// the store, in full, before its deadline.
    Konbini,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("unknown payment type {0}")]
pub struct UnknownPayType(pub i32);

impl PayType {
    pub const fn code(self) -> i32 {
        match self {
            Self::Card => 1,
            Self::BankTransfer => 2,
            Self::Konbini => 3,
        }
    }

    /// Every pay type, by code.
    pub const ALL: [Self; 3] = [Self::Card, Self::BankTransfer, Self::Konbini];

    /// The supporter pays later, outside the site (a transfer, a voucher at
    /// the store): the sale waits for the money until its deadline, holding
    /// its lots under the unpaid-hold rules (`returns::transfer_hold_block`).
    pub const fn waits_for_money(self) -> bool {
        matches!(self, Self::BankTransfer | Self::Konbini)
    }

    pub const fn from_code(code: i32) -> Result<Self, UnknownPayType> {
        match code {
            1 => Ok(Self::Card),
            2 => Ok(Self::BankTransfer),
            3 => Ok(Self::Konbini),
            other => Err(UnknownPayType(other)),
        }
    }
}

impl TryFrom<i32> for PayType {
    type Error = UnknownPayType;
    fn try_from(value: i32) -> Result<Self, Self::Error> {
        Self::from_code(value)
    }
}

impl From<PayType> for i32 {
    fn from(value: PayType) -> Self {
        value.code()
    }
}

/// A project's extra question for supporters (`additionalData`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AdditionalField<'a> {
    pub label: &'a str,
    /// The project's own alert text when the answer is missing.
    pub alert: Option<&'a str>,
}

/// What step 1 has collected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InfoStepInput<'a> {
    /// The member's or guest's e-mail; `None` when not known yet.
    pub email: Option<&'a str>,
    pub agreed_to_terms: bool,
    pub not_antisocial: bool,
    pub return_type: ReturnType,
    /// Display, company or organisation name depending on `return_type`.
    pub supporter_name: &'a str,
    /// Company or organisation site URL (optional).
    pub corporate_url: Option<&'a str>,
    pub lot: i64,
    pub lot_disable: bool,
    /// `Some(label)` when the return requires a delivery address.
    pub address_label: Option<&'a str>,
    pub has_address: bool,
    pub additional: Option<AdditionalField<'a>>,
    pub additional_value: Option<&'a str>,
}

/// Step 1's data once every rule holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InfoStep {
    pub email: Email,
    pub supporter_name: String,
    pub corporate_url: Option<WebUrl>,
    pub lot: Lot,
    pub additional_value: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InfoStepError {
    #[error(transparent)]
    Email(#[from] EmailError),
    #[error("{}", MSG_TERMS_NOT_ACCEPTED)]
    TermsNotAccepted,
    #[error("{}", MSG_ANTISOCIAL_NOT_CONFIRMED)]
    AntisocialNotConfirmed,
    #[error(transparent)]
    SupporterName(#[from] SupporterNameRequired),
    #[error(transparent)]
    Url(#[from] UrlError),
    #[error(transparent)]
    Lot(#[from] LotError),
    /// '{label}を入力してください'
    #[error("{label}を入力してください")]
    AddressRequired { label: String },
    /// The project's alert, or '{label}を入力してください' when it has none.
    #[error("{message}")]
    AdditionalRequired { message: String },
}

/// Checks everything step 1 needs before step 2. All problems are returned
/// at once so the form can mark every field.
pub fn validate_info_step(input: &InfoStepInput<'_>) -> Result<InfoStep, Vec<InfoStepError>> {
    let mut errors = Vec::new();
    let email = collect(Email::parse(input.email.unwrap_or("")), &mut errors);
    if !input.agreed_to_terms {
        errors.push(InfoStepError::TermsNotAccepted);
    }
    if !input.not_antisocial {
        errors.push(InfoStepError::AntisocialNotConfirmed);
    }
    let name = collect(supporter_name(input.return_type, input.supporter_name), &mut errors);
    let url = collect(parse_optional_url(input.corporate_url.unwrap_or("")), &mut errors);
    let lot = collect(Lot::for_return(input.lot, input.lot_disable), &mut errors);
    if let Some(label) = input.address_label.filter(|_| !input.has_address) {
        errors.push(InfoStepError::AddressRequired { label: label.to_string() });
    }
    let additional_value = input.additional_value.map(str::trim).filter(|v| !v.is_empty());
    if let Some(field) = input.additional.filter(|_| additional_value.is_none()) {
        errors.push(InfoStepError::AdditionalRequired { message: additional_alert(field) });
    }
    match (email, name, url, lot) {
        (Some(email), Some(supporter_name), Some(corporate_url), Some(lot)) if errors.is_empty() => Ok(InfoStep {
            email,
            supporter_name,
            corporate_url,
            lot,
            additional_value: additional_value.map(str::to_string),
        }),
        _ => Err(errors),
    }
}

fn collect<T, E: Into<InfoStepError>>(result: Result<T, E>, errors: &mut Vec<InfoStepError>) -> Option<T> {
    result.map_err(|e| errors.push(e.into())).ok()
}

fn additional_alert(field: AdditionalField<'_>) -> String {
    match field.alert.map(str::trim).filter(|a| !a.is_empty()) {
        Some(alert) => alert.to_string(),
        None => format!("{}を入力してください", field.label),
    }
}

/// What a sale adds to raised totals and sponsor amounts: what the supporter
/// paid, tax included, less every refund requested and not failed, while the
/// sale is paid; nothing otherwise. Decision (docs/decisions.md, "Totals"):
/// one basis for every total, as Makuake and CAMPFIRE show it; a refund on
/// its way back no longer counts as raised, and a failed one counts again.
pub fn counted_amount(status: SaleStatus, total: Yen, refunded: Yen) -> Yen {
    if status.counts_toward_totals() && total.0 > refunded.0 {
        Yen(total.0 - refunded.0)
    } else {
        Yen::ZERO
    }
}

/// Whether a sale counts as one support (backer counts, sponsor walls): while
/// it adds something to the totals. A partly refunded sale stays one support
/// with what it kept; a fully refunded one leaves.
pub fn counts_toward_totals(status: SaleStatus, total: Yen, refunded: Yen) -> bool {
    counted_amount(status, total, refunded).0 > 0
}

/// Where a sale stands with the payment provider. The provider decides it
/// (webhook or server-side check), never the client.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SaleStatus {
    /// Written and holding its lots; the provider has not been asked yet.
    Pending,
    /// The provider is settling the payment.
    Processing,
    /// Paid.
    Succeeded,
    /// The provider waits for the supporter (3-D Secure for a card). Legacy
    /// bank sales of the seed also carry this value.
    RequiresAction,
    /// Bank transfer instructions issued, money not yet received.
    AwaitingBankTransfer,
    /// Given up (transfer deadline passed, or abandoned).
    Canceled,
    /// The provider refused the payment.
    Failed,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown sale status {0:?}")]
pub struct UnknownSaleStatus(pub String);

impl SaleStatus {
    /// Every status, in declaration order: adapters derive their SQL filters
    /// from this list and `counts_toward_totals` / `reserves_stock`, so the
    /// rule is written once.
    pub const ALL: [Self; 7] = [
        Self::Pending,
        Self::Processing,
        Self::Succeeded,
        Self::RequiresAction,
        Self::AwaitingBankTransfer,
        Self::Canceled,
        Self::Failed,
    ];

    /// The stored and wire text of the status (`sales.status`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Processing => "processing",
            Self::Succeeded => "succeeded",
            Self::RequiresAction => "requires_action",
            Self::AwaitingBankTransfer => "awaiting_bank_transfer",
            Self::Canceled => "canceled",
            Self::Failed => "failed",
        }
    }

    pub fn parse(raw: &str) -> Result<Self, UnknownSaleStatus> {
        match raw {
            "pending" => Ok(Self::Pending),
            "processing" => Ok(Self::Processing),
            "succeeded" => Ok(Self::Succeeded),
            "requires_action" => Ok(Self::RequiresAction),
            "awaiting_bank_transfer" => Ok(Self::AwaitingBankTransfer),
            "canceled" => Ok(Self::Canceled),
            "failed" => Ok(Self::Failed),
            other => Err(UnknownSaleStatus(other.to_string())),
        }
    }

    /// The label in the payment history. A bank sale waiting for action is
    /// waiting for the transfer, as in the seed.
    pub const fn history_label(self, pay_type: PayType) -> &'static str {
        match (self, pay_type) {
            (Self::Succeeded, _) => "支払い済み",
            (Self::AwaitingBankTransfer, _) | (Self::RequiresAction, PayType::BankTransfer) => "入金待ち（銀行振込）",
            (Self::RequiresAction, PayType::Card) => "カード認証待ち",
            (Self::RequiresAction, PayType::Konbini) => "支払い待ち（コンビニ）",
            (Self::Pending | Self::Processing, _) => "決済処理中",
            (Self::Canceled, _) => "キャンセル",
            (Self::Failed, _) => "決済失敗",
        }
    }

    /// Only money actually received counts toward raised totals, backer
    /// counts and sponsor amounts (a refund takes a paid sale out again:
    /// `counts_toward_totals`, the function).
    pub const fn counts_toward_totals(self) -> bool {
        matches!(self, Self::Succeeded)
    }

    /// The sale's outcome is known: paid, refused or given up. A payment
    /// still under way (or waiting for the supporter) is not settled.
    pub const fn is_settled(self) -> bool {
        matches!(self, Self::Succeeded | Self::Canceled | Self::Failed)
    }

    /// Decision: every sale that may still be paid holds its lots, so a
    /// limited return is never oversold by transfers arriving later; a
    /// cancelled sale gives them back.
    pub const fn reserves_stock(self) -> bool {
        !matches!(self, Self::Canceled | Self::Failed)
    }
}

impl std::str::FromStr for SaleStatus {
    type Err = UnknownSaleStatus;
    fn from_str(raw: &str) -> Result<Self, Self::Err> {
        Self::parse(raw)
    }
}

/// What the complete screen shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CompleteView {
    Thanks,
    BankInstructions,
    KonbiniVoucher,
}

/// A card payment or a sale already paid shows thanks; an unpaid bank sale
/// shows the transfer instructions, an unpaid konbini sale its voucher.
pub const fn complete_view(pay_type: PayType, status: SaleStatus) -> CompleteView {
    match (pay_type, status) {
        (PayType::BankTransfer, SaleStatus::RequiresAction | SaleStatus::AwaitingBankTransfer) => {
            CompleteView::BankInstructions
        }
        (PayType::Konbini, SaleStatus::RequiresAction) => CompleteView::KonbiniVoucher,
        _ => CompleteView::Thanks,
    }
}

/// Business days a supporter has to make a bank transfer.
pub const BANK_TRANSFER_BUSINESS_DAYS: u32 = 3;

/// The one wording of the bank-transfer deadline: the terms of use, the
/// commercial-transactions page, the payment screens and the mails say
/// exactly this (a test reads the frontend's copy), and the completion screen
/// and mail add the concrete date from [`bank_transfer_deadline`].
pub const BANK_TRANSFER_DEADLINE_TEXT: &str = "お申込日の翌日から3営業日以内（土日・祝日・年末年始を除く）";

/// The last day (Asia/Tokyo) on which a bank transfer for an order placed on
/// `ordered_on` is accepted: the third business day after the order.
///
/// Decision (docs/decisions.md, "The tax rule"): 3 business days, as spec 001
/// §9 says, counted from the day after the order, so an order placed late in
/// the evening does not lose a day. The seed's terms said "3 days"; the terms
/// now say [`BANK_TRANSFER_DEADLINE_TEXT`]. Business days are the days banks
/// transfer money ([`crate::calendar::is_bank_business_day`]).
pub fn bank_transfer_deadline(ordered_on: NaiveDate) -> NaiveDate {
    crate::calendar::nth_bank_business_day_after(ordered_on, BANK_TRANSFER_BUSINESS_DAYS)
}

/// Whether an unpaid transfer ordered on `ordered_on` is past its deadline.
pub fn is_bank_transfer_overdue(ordered_on: NaiveDate, today: NaiveDate) -> bool {
    today > bank_transfer_deadline(ordered_on)
}

/// Calendar days a konbini voucher stays payable after the order day: the
/// provider's default. The voucher expires at 23:59:59 (Asia/Tokyo) of the
/// last day, which [`konbini_deadline`] gives.
pub const KONBINI_PAYMENT_DAYS: u64 = 3;

/// The last day (Asia/Tokyo) on which the voucher of an order placed on
/// `ordered_on` can be paid at the store: convenience stores open every day,
/// so calendar days count, not bank business days.
pub fn konbini_deadline(ordered_on: NaiveDate) -> NaiveDate {
    ordered_on.checked_add_days(chrono::Days::new(KONBINI_PAYMENT_DAYS)).unwrap_or(NaiveDate::MAX)
}

/// The last day a sale of `pay_type` ordered on `ordered_on` may be paid,
/// for the methods that wait for the money; `None` for a card.
pub fn payment_deadline(pay_type: PayType, ordered_on: NaiveDate) -> Option<NaiveDate> {
    match pay_type {
        PayType::Card => None,
        PayType::BankTransfer => Some(bank_transfer_deadline(ordered_on)),
        PayType::Konbini => Some(konbini_deadline(ordered_on)),
    }
}

/// Why step 2 does not offer a method the project accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum MethodUnavailable {
    /// A voucher could not be paid before the project ends.
    #[error("{}", MSG_KONBINI_TOO_LATE)]
    KonbiniTooLate,
}

/// Step 2's explanation when konbini is not offered near the end.
pub const MSG_KONBINI_TOO_LATE: &str =
    "コンビニ決済は、お支払い期限（お申し込みの3日後の23:59）がプロジェクトの終了日を過ぎるため、ご利用いただけません。";

/// Whether a method the project accepts may be chosen today.
///
/// Decision (docs/decisions.md, "Konbini payment"): a konbini voucher must
/// be payable before the project ends, so konbini is offered only while its
/// deadline falls on or before the project's last day (a voucher ordered on
/// the last day would be paid, or expire, after the result is decided). A
/// bank transfer stays offered until the end: the closing waits for
/// transfers placed before it (`closing::decide_close`).
pub fn method_unavailable(pay_type: PayType, today: NaiveDate, period_end: NaiveDate) -> Option<MethodUnavailable> {
    match pay_type {
        PayType::Konbini if konbini_deadline(today) > period_end => Some(MethodUnavailable::KonbiniTooLate),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_transfer_ordered_before_golden_week_skips_its_holidays() {
        let ordered = NaiveDate::from_ymd_opt(2026, 4, 30).unwrap();
        // 5/1 (Fri) counts; 5/2-5/6 are weekend and holidays; then 5/7, 5/8.
        assert_eq!(bank_transfer_deadline(ordered), NaiveDate::from_ymd_opt(2026, 5, 8).unwrap());
    }

    #[test]
    fn a_transfer_ordered_in_2030_skips_that_years_holidays() {
        // Fri 2030-09-20: Mon 9/23 is 秋分の日 (computed, never listed), so Tue 9/24, Wed 9/25, Thu 9/26.
        let ordered = NaiveDate::from_ymd_opt(2030, 9, 20).unwrap();
        assert_eq!(bank_transfer_deadline(ordered), NaiveDate::from_ymd_opt(2030, 9, 26).unwrap());
    }

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    fn valid_input() -> InfoStepInput<'static> {
        InfoStepInput {
            email: Some("taro@example.jp"),
            agreed_to_terms: true,
            not_antisocial: true,
            return_type: ReturnType::Individual,
            supporter_name: "たろう",
            corporate_url: None,
            lot: 2,
            lot_disable: false,
            address_label: None,
            has_address: false,
            additional: None,
            additional_value: None,
        }
    }

    #[test]
    fn pay_type_codes_are_one_two_and_three() {
        assert_eq!(PayType::from_code(1), Ok(PayType::Card));
        assert_eq!(PayType::from_code(2), Ok(PayType::BankTransfer));
        assert_eq!(PayType::from_code(3), Ok(PayType::Konbini));
        assert_eq!(PayType::from_code(4), Err(UnknownPayType(4)));
        for pay in PayType::ALL {
            assert_eq!(PayType::from_code(pay.code()), Ok(pay));
        }
    }

    #[test]
    fn transfers_and_vouchers_wait_for_money_and_cards_do_not() {
        assert!(!PayType::Card.waits_for_money());
        assert!(PayType::BankTransfer.waits_for_money());
        assert!(PayType::Konbini.waits_for_money());
        for pay in PayType::ALL {
            assert_eq!(payment_deadline(pay, d(2026, 6, 1)).is_some(), pay.waits_for_money(), "{pay:?}");
        }
    }

    #[test]
    fn a_voucher_is_payable_for_three_calendar_days_weekends_included() {
        // Friday 2026-12-25: Sat, Sun and Mon count; the year-end holidays too (stores open every day).
        assert_eq!(konbini_deadline(d(2026, 12, 25)), d(2026, 12, 28));
        assert_eq!(konbini_deadline(d(2026, 12, 30)), d(2027, 1, 2));
    }

    #[test]
    fn an_unpaid_konbini_sale_waits_for_the_store_and_shows_its_voucher() {
        assert_eq!(SaleStatus::RequiresAction.history_label(PayType::Konbini), "支払い待ち（コンビニ）");
        assert_eq!(complete_view(PayType::Konbini, SaleStatus::RequiresAction), CompleteView::KonbiniVoucher);
        assert_eq!(complete_view(PayType::Konbini, SaleStatus::Succeeded), CompleteView::Thanks);
        assert_eq!(SaleStatus::Succeeded.history_label(PayType::Konbini), "支払い済み");
        assert_eq!(SaleStatus::Canceled.history_label(PayType::Konbini), "キャンセル");
    }

    #[test]
    fn konbini_is_offered_only_while_its_voucher_expires_by_the_projects_last_day() {
        let end = d(2026, 12, 20);
        assert_eq!(method_unavailable(PayType::Konbini, d(2026, 12, 17), end), None);
        assert_eq!(method_unavailable(PayType::Konbini, d(2026, 12, 18), end), Some(MethodUnavailable::KonbiniTooLate));
        assert_eq!(method_unavailable(PayType::Konbini, end, end), Some(MethodUnavailable::KonbiniTooLate));
        for pay in [PayType::Card, PayType::BankTransfer] {
            assert_eq!(method_unavailable(pay, end, end), None, "{pay:?}");
        }
    }

    proptest::proptest! {
        /// Whenever konbini is offered, its voucher expires on or before the project's last day, and it is
        /// offered on every day that allows that.
        #[test]
        fn an_offered_voucher_never_outlives_the_project(today_offset in 0u64..20_000, days_left in 0u64..100) {
            let today = d(2000, 1, 1).checked_add_days(chrono::Days::new(today_offset)).unwrap();
            let end = today.checked_add_days(chrono::Days::new(days_left)).unwrap();
            let offered = method_unavailable(PayType::Konbini, today, end).is_none();
            proptest::prop_assert_eq!(offered, konbini_deadline(today) <= end);
            proptest::prop_assert_eq!(offered, days_left >= KONBINI_PAYMENT_DAYS);
        }
    }

    #[test]
    fn complete_info_step_passes() {
        let step = validate_info_step(&valid_input()).unwrap();
        assert_eq!((step.supporter_name.as_str(), step.lot.get()), ("たろう", 2));
    }

    #[test]
    fn info_step_reports_every_missing_piece_at_once() {
        let input = InfoStepInput {
            email: None,
            agreed_to_terms: false,
            not_antisocial: false,
            return_type: ReturnType::Organisation,
            supporter_name: "",
            lot: 2,
            lot_disable: true,
            address_label: Some("お届け先"),
            additional: Some(AdditionalField { label: "Tシャツのサイズ", alert: None }),
            ..valid_input()
        };
        let messages: Vec<String> = validate_info_step(&input).unwrap_err().iter().map(ToString::to_string).collect();
        assert_eq!(
            messages,
            vec![
                "メールアドレスを入力してください",
                MSG_TERMS_NOT_ACCEPTED,
                MSG_ANTISOCIAL_NOT_CONFIRMED,
                "団体名を入力してください。",
                "このリターンは口数を選択できません。",
                "お届け先を入力してください",
                "Tシャツのサイズを入力してください",
            ]
        );
    }

    #[test]
    fn additional_data_uses_the_projects_own_alert() {
        let input = InfoStepInput {
            additional: Some(AdditionalField {
                label: "サイズ", alert: Some("サイズを選んでください。")
            }),
            additional_value: Some("  "),
            ..valid_input()
        };
        let errors = validate_info_step(&input).unwrap_err();
        assert_eq!(errors[0].to_string(), "サイズを選んでください。");
    }

    #[test]
    fn given_address_satisfies_an_address_requirement() {
        let input = InfoStepInput { address_label: Some("お届け先"), has_address: true, ..valid_input() };
        assert!(validate_info_step(&input).is_ok());
    }

    #[test]
    fn history_labels_follow_status_and_pay_type() {
        assert_eq!(SaleStatus::Succeeded.history_label(PayType::Card), "支払い済み");
        assert_eq!(SaleStatus::AwaitingBankTransfer.history_label(PayType::BankTransfer), "入金待ち（銀行振込）");
        assert_eq!(SaleStatus::RequiresAction.history_label(PayType::BankTransfer), "入金待ち（銀行振込）");
    }

    #[test]
    fn only_paid_sales_count_toward_totals() {
        assert!(SaleStatus::Succeeded.counts_toward_totals());
        assert!(!SaleStatus::AwaitingBankTransfer.counts_toward_totals());
        assert!(!SaleStatus::RequiresAction.counts_toward_totals());
        assert!(!SaleStatus::Canceled.counts_toward_totals());
    }

    #[test]
    fn a_paid_sale_counts_what_was_paid_less_refunds_and_an_unpaid_one_never_counts() {
        assert_eq!(counted_amount(SaleStatus::Succeeded, Yen(88_000), Yen::ZERO), Yen(88_000));
        assert_eq!(counted_amount(SaleStatus::Succeeded, Yen(88_000), Yen(35_000)), Yen(53_000), "partly refunded");
        assert_eq!(counted_amount(SaleStatus::Succeeded, Yen(88_000), Yen(88_000)), Yen::ZERO, "fully refunded");
        assert!(counts_toward_totals(SaleStatus::Succeeded, Yen(1), Yen::ZERO));
        assert!(counts_toward_totals(SaleStatus::Succeeded, Yen(2), Yen(1)), "a partly refunded sale stays a support");
        assert!(!counts_toward_totals(SaleStatus::Succeeded, Yen(2), Yen(2)));
        for status in SaleStatus::ALL.into_iter().filter(|s| *s != SaleStatus::Succeeded) {
            assert_eq!(counted_amount(status, Yen(1000), Yen::ZERO), Yen::ZERO, "{status:?}");
            assert!(!counts_toward_totals(status, Yen(1000), Yen::ZERO), "{status:?}");
        }
    }

    proptest::proptest! {
        /// Summing what each sale counts never makes or loses a yen: paid sales
        /// give exactly what was paid less what was refunded.
        #[test]
        fn counted_amounts_add_up_to_paid_less_refunded(
            sales in proptest::collection::vec((0i64..200_000, 0i64..=100, proptest::bool::ANY), 0..40)
        ) {
            let mut counted = 0i64;
            let mut paid_less_refunded = 0i64;
            for (total, refunded_percent, paid) in sales {
                let refunded = total * refunded_percent / 100;
                let status = if paid { SaleStatus::Succeeded } else { SaleStatus::AwaitingBankTransfer };
                counted += counted_amount(status, Yen(total), Yen(refunded)).0;
                if paid {
                    paid_less_refunded += total - refunded;
                }
            }
            proptest::prop_assert_eq!(counted, paid_less_refunded);
        }
    }

    #[test]
    fn pending_sales_reserve_stock_and_cancelled_ones_release_it() {
        assert!(SaleStatus::AwaitingBankTransfer.reserves_stock());
        assert!(SaleStatus::RequiresAction.reserves_stock());
        assert!(SaleStatus::Succeeded.reserves_stock());
        assert!(!SaleStatus::Canceled.reserves_stock());
        assert!(!SaleStatus::Failed.reserves_stock());
        assert!(SaleStatus::Pending.reserves_stock());
    }

    #[test]
    fn sale_status_strings_round_trip() {
        for s in SaleStatus::ALL {
            assert_eq!(SaleStatus::parse(s.as_str()), Ok(s));
            assert_eq!(s.as_str().parse::<SaleStatus>(), Ok(s));
        }
        assert!(SaleStatus::parse("paid").is_err());
        assert!(SaleStatus::parse("Succeeded").is_err());
    }

    /// Position in `ALL`; the exhaustive match stops compiling when a status
    /// is added, and the test below then demands it in `ALL`.
    const fn position(status: SaleStatus) -> usize {
        match status {
            SaleStatus::Pending => 0,
            SaleStatus::Processing => 1,
            SaleStatus::Succeeded => 2,
            SaleStatus::RequiresAction => 3,
            SaleStatus::AwaitingBankTransfer => 4,
            SaleStatus::Canceled => 5,
            SaleStatus::Failed => 6,
        }
    }

    #[test]
    fn every_sale_status_is_listed_once_in_all() {
        for (i, s) in SaleStatus::ALL.into_iter().enumerate() {
            assert_eq!(position(s), i, "{s:?}");
        }
    }

    #[test]
    fn unpaid_bank_sale_completes_with_instructions() {
        assert_eq!(
            complete_view(PayType::BankTransfer, SaleStatus::AwaitingBankTransfer),
            CompleteView::BankInstructions
        );
        assert_eq!(complete_view(PayType::BankTransfer, SaleStatus::Succeeded), CompleteView::Thanks);
        assert_eq!(complete_view(PayType::Card, SaleStatus::Succeeded), CompleteView::Thanks);
    }

    #[test]
    fn transfer_ordered_on_monday_is_due_on_thursday() {
        assert_eq!(bank_transfer_deadline(d(2026, 6, 1)), d(2026, 6, 4));
    }

    #[test]
    fn transfer_deadline_skips_weekends_and_holidays() {
        // Thursday 2026-04-30 -> Fri 5/1, (weekend, 5/4-5/6 holidays), Thu 5/7, Fri 5/8
        assert_eq!(bank_transfer_deadline(d(2026, 4, 30)), d(2026, 5, 8));
    }

    #[test]
    fn transfer_deadline_skips_the_bank_year_end_holidays() {
        // Tuesday 2026-12-29 -> Wed 12/30, (12/31-1/3 closed), Mon 1/4, Tue 1/5.
        assert_eq!(bank_transfer_deadline(d(2026, 12, 29)), d(2027, 1, 5));
    }

    #[test]
    fn the_deadline_wording_says_three_business_days() {
        assert!(BANK_TRANSFER_DEADLINE_TEXT.contains(&format!("{BANK_TRANSFER_BUSINESS_DAYS}営業日以内")));
    }

    /// The legal pages and payment screens take the deadline wording from one frontend module; it must be the
    /// domain's, and no page may still say the seed's "3日以内" (calendar days).
    #[test]
    fn the_frontend_states_the_same_bank_transfer_deadline() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../frontend/src/features/public/legal");
        let shared = std::fs::read_to_string(root.join("bankTransfer.ts")).unwrap();
        assert!(
            shared.contains(&format!("'{BANK_TRANSFER_DEADLINE_TEXT}'")),
            "bankTransfer.ts differs from the domain"
        );
        for page in ["terms.ts", "../routes/Legal.tsx"] {
            let text = std::fs::read_to_string(root.join(page)).unwrap();
            assert!(text.contains("BANK_TRANSFER_DEADLINE_TEXT"), "{page} does not use the shared wording");
            assert!(!text.contains("3日以内"), "{page} still says 3 calendar days");
        }
    }

    #[test]
    fn transfer_is_overdue_only_after_the_deadline_day() {
        assert!(!is_bank_transfer_overdue(d(2026, 6, 1), d(2026, 6, 4)));
        assert!(is_bank_transfer_overdue(d(2026, 6, 1), d(2026, 6, 5)));
    }

    /// Every order day of a century, not a sample: the calendar has no gaps.
    #[test]
    fn deadline_is_a_business_day_three_to_thirteen_calendar_days_later() {
        for ordered in d(2000, 1, 1).iter_days().take_while(|day| *day < d(2100, 1, 1)) {
            let deadline = bank_transfer_deadline(ordered);
            let gap = deadline.signed_duration_since(ordered).num_days();
            // Weekends add two days; the year-end closing (12/31-1/3) next to a weekend up to six more
            // (ordered on Friday 2030-12-27: Mon 30, then Mon 2031-01-06 and Tue 01-07, 11 days); the ten days
            // off around the 2019 accession, two more (ordered Wed 2019-04-24: Thu 25, Fri 26, Tue 05-07).
            assert!((3..=13).contains(&gap), "ordered {ordered}, deadline {deadline}");
            assert!(crate::calendar::is_bank_business_day(deadline));
        }
    }
}
