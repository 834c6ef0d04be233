//! The receipts' errors as API answers.

use ports::receipts::ReceiptError;

use super::ApiError;
use crate::constraint::constraint_error;

impl From<ReceiptError> for ApiError {
    fn from(error: ReceiptError) -> Self {
        match error {
            ReceiptError::NotFound => Self::NotFound,
            ReceiptError::Invalid(errors) => Self::fields(errors.into_iter().map(|e| (e.field.to_string(), e.message))),
            ReceiptError::Repo(e) => match e.violation() {
                // A storage bound the domain let through: the field's message, never a 500.
                Some(violation) => constraint_error(&violation),
                None => Self::internal(&e),
            },
        }
    }
}
