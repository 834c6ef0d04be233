//! What the payment use cases answer: the outcome of a support, the errors
//! with the texts the supporter reads, and what a sweep did.

use domain::money::MoneyError;
use domain::payment::{MethodUnavailable, PaymentMismatch};
use domain::returns::PurchaseBlock;

use super::gateway::{GatewayError, WebhookError};
use super::ledger::SaleRecord;
use crate::RepoError;

/// A sale and what the supporter must still do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SupportOutcome {
    pub sale: SaleRecord,
    /// 3-D Secure to finish in the browser (the client secret).
    pub authenticate: Option<String>,
    /// The monthly support this sale started (our subscription id).
    pub subscription: Option<i64>,
}

/// One refused field of the support form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldProblem {
    pub field: &'static str,
    pub message: String,
}

/// Shown when the card was refused; the provider's own text is English.
pub const MSG_CARD_DECLINED: &str = "カードが承認されませんでした。別のカードをお試しください。";
/// The spec's failure of the payment call (001 §8).
pub const MSG_PAYMENT_FAILED: &str = "決済の登録に失敗しました";
/// A member's address used for a guest support.
pub const MSG_MEMBER_EXISTS: &str = "このメールアドレスは会員登録済みです。ログインしてからご支援ください。";
pub const MSG_PAYMENT_TYPE_NOT_ACCEPTED: &str = "このプロジェクトではご指定のお支払い方法をご利用いただけません。";
pub const MSG_CARD_UNUSABLE: &str = "カード情報を確認できませんでした。もう一度カード情報を入力してください。";
pub const MSG_CARD_REQUIRED: &str = "お支払いに使うクレジットカードを選択してください。";
pub const MSG_IDEMPOTENCY_KEY: &str = "リクエストの形式が正しくありません。";
/// A key sent again with another order (the page was reused for a new one).
pub const MSG_KEY_REUSED: &str =
    "この申し込みは別の内容で受け付け済みです。ページを再読み込みしてからお申し込みください。";
/// Saved cards and addresses belong to members.
pub const MSG_LOGIN_REQUIRED: &str = "ログインが必要です。";

#[derive(Debug, thiserror::Error)]
pub enum SupportError {
    /// Step 1's rules refused these fields; nothing was written.
    #[error("invalid support")]
    Invalid(Vec<FieldProblem>),
    /// Unknown project or return, or the return is not the project's.
    #[error("not found")]
    NotFound,
    #[error("{}", MSG_PAYMENT_TYPE_NOT_ACCEPTED)]
    PaymentTypeNotAccepted,
    /// The project accepts the method, but not any more today (a konbini
    /// voucher would outlive the project); nothing was written.
    #[error(transparent)]
    MethodUnavailable(#[from] MethodUnavailable),
    /// Sold out, not enough left, disabled, ended: no sale, no provider call.
    #[error(transparent)]
    Blocked(#[from] PurchaseBlock),
    #[error("{}", MSG_MEMBER_EXISTS)]
    MemberExists,
    /// A saved card or address without a member session.
    #[error("{}", MSG_LOGIN_REQUIRED)]
    LoginRequired,
    /// A monthly return backed by a guest or by bank transfer (409).
    #[error("{0}")]
    MonthlyRefused(&'static str),
    /// The member already supports this return monthly (our subscription id).
    #[error("{}", MSG_MONTHLY_RUNNING)]
    MonthlyRunning(i64),
    /// The card was refused; the sale failed and released its lots.
    #[error("{}", MSG_CARD_DECLINED)]
    Declined,
    /// The provider did not answer; the sale holds its lots and a retry with
    /// the same key continues it.
    #[error("{}", MSG_PAYMENT_FAILED)]
    Unavailable,
    /// A storage rule refused the write (the HTTP layer maps the constraint
    /// to the field's message); nothing was written.
    #[error("refused by the storage rule {}", .0.name)]
    Refused(crate::ConstraintViolation),
    /// The idempotency key was used before for another order (project,
    /// return, lots or method): nothing written, as the provider answers a
    /// key reused with other parameters.
    #[error("{}", MSG_KEY_REUSED)]
    KeyReused,
    /// The provider's payment does not match the sale (amount, money
    /// received): not applied, logged for a person to look at.
    #[error("provider report does not match the sale: {0}")]
    Mismatch(PaymentMismatch),
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}

impl From<RepoError> for SupportError {
    fn from(error: RepoError) -> Self {
        match (error.violation(), error) {
            (_, RepoError::NotFound) => Self::NotFound,
            (Some(violation), _) => Self::Refused(violation),
            (None, other) => Self::Unexpected(other.into()),
        }
    }
}

impl From<MoneyError> for SupportError {
    fn from(error: MoneyError) -> Self {
        Self::Unexpected(error.into())
    }
}

/// Why a webhook was not applied.
#[derive(Debug, thiserror::Error)]
pub enum WebhookApplyError {
    /// 400: not from the provider, or unreadable.
    #[error(transparent)]
    Refused(#[from] WebhookError),
    /// 500: recorded but not applied; the provider sends it again and the
    /// reconciler retries it.
    #[error(transparent)]
    Failed(#[from] anyhow::Error),
}

/// What one sweep did, for the logs and the reconcile command.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SweepReport {
    pub checked: usize,
    pub changed: usize,
    pub failed: usize,
}

/// Guests have no saved card and no my page to stop a subscription from.
pub const MSG_MONTHLY_MEMBERS_ONLY: &str =
    "毎月のご支援は会員の方のみお申し込みいただけます。ログインしてからお申し込みください。";
/// A bank transfer cannot be charged every month.
pub const MSG_MONTHLY_CARD_ONLY: &str = "毎月のご支援はクレジットカードでのお支払いのみご利用いただけます。";
/// A monthly support is paid by a saved card (step 3 registers one first).
pub const MSG_MONTHLY_SAVED_CARD: &str = "毎月のご支援には登録済みのクレジットカードを選択してください。";
/// One unit a month.
pub const MSG_MONTHLY_ONE_LOT: &str = "毎月のご支援は1口ずつのお申し込みです。";

/// A second monthly support of a return the member already supports monthly.
pub const MSG_MONTHLY_RUNNING: &str =
    "このリターンはすでに毎月のご支援をいただいています。ご支援の内容は「毎月のご支援」からご確認いただけます。";

/// What a provider error means to the supporter: not answered (retry), unknown, or unexpected.
pub fn provider_error(error: GatewayError) -> SupportError {
    match error {
        GatewayError::Unavailable(_) | GatewayError::Unexpected(_) => SupportError::Unavailable,
        GatewayError::NotFound(_) => SupportError::NotFound,
        other => SupportError::Unexpected(other.into()),
    }
}
