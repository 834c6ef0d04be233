//! The payment use cases' errors as API answers: supports, saved cards and monthly supports.

use actix_web::http::StatusCode;
use domain::returns::PurchaseBlock;
use ports::payments::cards::CardError;
use ports::payments::outcome::{SupportError, MSG_PAYMENT_FAILED};
use ports::payments::subscriptions::SubscriptionError;

use super::ApiError;
use crate::constraint::constraint_error;

/// The spec's failure of a card registration (001 §8).
const MSG_CARD_REGISTRATION_FAILED: &str = "お支払い情報の登録に失敗しました";
/// A monthly support's card could not be changed or stopped at the provider.
const MSG_SUBSCRIPTION_UPDATE_FAILED: &str = "お支払い情報の更新に失敗しました。お手数ですが、再度やり直してください。";

impl From<SupportError> for ApiError {
    fn from(error: SupportError) -> Self {
        match error {
            SupportError::Invalid(problems) => {
                Self::fields(problems.into_iter().map(|p| (p.field.to_string(), p.message)))
            }
            SupportError::NotFound => Self::NotFound,
            SupportError::PaymentTypeNotAccepted => {
                Self::refused(StatusCode::BAD_REQUEST, "payment_type_not_accepted", error.to_string())
            }
            SupportError::MethodUnavailable(why) => {
                Self::refused(StatusCode::CONFLICT, "payment_type_unavailable", why.to_string())
            }
            SupportError::Blocked(block) => {
                let code = match block {
                    PurchaseBlock::SoldOut => "sold_out",
                    PurchaseBlock::NotEnoughLeft => "not_enough_left",
                    PurchaseBlock::Disabled => "disabled",
                    PurchaseBlock::ProjectEnded => "project_ended",
                    PurchaseBlock::TransferAwaited => "transfer_awaited",
                    PurchaseBlock::TransferShareTaken => "transfer_share_taken",
                };
                Self::refused(StatusCode::CONFLICT, code, block.to_string())
            }
            SupportError::MemberExists => Self::refused(StatusCode::CONFLICT, "member_exists", error.to_string()),
            SupportError::MonthlyRefused(message) => Self::refused(StatusCode::CONFLICT, "monthly_refused", message),
            SupportError::LoginRequired => Self::Unauthorized,
            SupportError::Declined => Self::refused(StatusCode::PAYMENT_REQUIRED, "card_declined", error.to_string()),
            SupportError::MonthlyRunning(_) => {
                Self::refused(StatusCode::CONFLICT, "monthly_running", error.to_string())
            }
            SupportError::KeyReused => Self::refused(StatusCode::CONFLICT, "idempotency_key_reused", error.to_string()),
            SupportError::Unavailable | SupportError::Mismatch(_) => {
                Self::refused(StatusCode::SERVICE_UNAVAILABLE, "payment_unavailable", MSG_PAYMENT_FAILED)
            }
            SupportError::Refused(violation) => constraint_error(&violation),
            SupportError::Unexpected(cause) => Self::internal(cause.as_ref()),
        }
    }
}

impl From<CardError> for ApiError {
    fn from(error: CardError) -> Self {
        match error {
            CardError::NotFound => Self::NotFound,
            CardError::Declined => Self::refused(StatusCode::PAYMENT_REQUIRED, "card_declined", error.to_string()),
            CardError::CustomerFailed => Self::refused(StatusCode::BAD_GATEWAY, "customer_failed", error.to_string()),
            CardError::Unavailable => {
                Self::refused(StatusCode::SERVICE_UNAVAILABLE, "payment_unavailable", MSG_CARD_REGISTRATION_FAILED)
            }
            CardError::Unexpected(cause) => Self::internal(cause.as_ref()),
        }
    }
}

impl From<SubscriptionError> for ApiError {
    fn from(error: SubscriptionError) -> Self {
        match error {
            SubscriptionError::NotFound => Self::NotFound,
            SubscriptionError::Unavailable => {
                Self::refused(StatusCode::SERVICE_UNAVAILABLE, "payment_unavailable", MSG_SUBSCRIPTION_UPDATE_FAILED)
            }
            SubscriptionError::Unexpected(cause) => Self::internal(cause.as_ref()),
        }
    }
}
