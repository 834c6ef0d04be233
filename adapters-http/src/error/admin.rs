//! The admin screens' errors as API answers: refunds, mass mail, project authoring, content and settings,
//! moderation and payouts.

use actix_web::http::StatusCode;
use ports::admin::content::ContentError;
use ports::admin::deliveries::DeliveryError;
use ports::admin::mass_mail::MassMailError;
use ports::admin::moderation::ModerationError;
use ports::admin::projects::AuthoringError;
use ports::admin::refunds::RefundError;
use ports::admin::settings::SettingsError;

use super::ApiError;
use crate::mass_mail::{MSG_NO_RECIPIENTS, MSG_UNKNOWN_PROJECT};

impl From<RefundError> for ApiError {
    fn from(error: RefundError) -> Self {
        match error {
            RefundError::Rule(e) => Self::validation(e.to_string()),
            RefundError::Bulk(e) => Self::validation(e.to_string()),
            RefundError::NotFound => Self::NotFound,
            RefundError::BulkRunning => Self::refused(StatusCode::CONFLICT, "bulk_refund_running", error.to_string()),
            RefundError::Repo(e) => Self::internal(&e),
        }
    }
}

impl From<SettingsError> for ApiError {
    fn from(error: SettingsError) -> Self {
        match error {
            SettingsError::NotFound => Self::NotFound,
            SettingsError::Invalid(errors) => Self::fields(errors.into_iter().map(|e| (e.field, e.message))),
            SettingsError::Repo(e) => Self::internal(&e),
        }
    }
}

impl From<MassMailError> for ApiError {
    fn from(error: MassMailError) -> Self {
        match error {
            MassMailError::Invalid(errors) => {
                Self::fields(errors.iter().map(|e| (e.field().to_string(), e.to_string())))
            }
            MassMailError::UnknownProject => {
                Self::BadRequest { code: "unknown_project", message: MSG_UNKNOWN_PROJECT.into() }
            }
            MassMailError::NoRecipients => {
                Self::BadRequest { code: "no_recipients", message: MSG_NO_RECIPIENTS.into() }
            }
            MassMailError::Repo(e) => Self::internal(&e),
        }
    }
}

impl From<AuthoringError> for ApiError {
    fn from(error: AuthoringError) -> Self {
        match error {
            AuthoringError::NotFound => Self::NotFound,
            AuthoringError::Invalid(errors) => {
                Self::fields(errors.into_iter().map(|e| (e.field.to_string(), e.message)))
            }
            AuthoringError::Repo(e) => Self::internal(&e),
        }
    }
}

impl From<ModerationError> for ApiError {
    fn from(error: ModerationError) -> Self {
        match error {
            ModerationError::NotFound => Self::NotFound,
            ModerationError::Reason(e) => Self::fields([("reason".to_string(), e.to_string())]),
            ModerationError::Repo(e) => Self::internal(&e),
        }
    }
}

impl From<ports::campaign::payouts::PayoutError> for ApiError {
    fn from(error: ports::campaign::payouts::PayoutError) -> Self {
        use ports::campaign::payouts::PayoutError;
        match error {
            PayoutError::NotFound => Self::refused(StatusCode::NOT_FOUND, "no_statement", error.to_string()),
            PayoutError::Invalid(field, message) => Self::fields([(field.to_string(), message)]),
            PayoutError::Changed => Self::refused(StatusCode::CONFLICT, "payout_changed", error.to_string()),
            PayoutError::Repo(e) => Self::internal(&e),
        }
    }
}

impl From<DeliveryError> for ApiError {
    fn from(error: DeliveryError) -> Self {
        match error {
            DeliveryError::NotFound => Self::NotFound,
            DeliveryError::Rule(e) => Self::fields([(e.field().to_string(), e.to_string())]),
            DeliveryError::NotDeliverable => Self::fields([("saleIds".to_string(), error.to_string())]),
            DeliveryError::Repo(e) => Self::internal(&e),
        }
    }
}

impl From<ContentError> for ApiError {
    fn from(error: ContentError) -> Self {
        match error {
            ContentError::NotFound => Self::NotFound,
            ContentError::Invalid(errors) => Self::fields(errors.into_iter().map(|e| (e.field, e.message))),
            ContentError::Repo(e) => Self::internal(&e),
            ContentError::Media(e) => Self::internal(e.as_ref()),
        }
    }
}
