//! The one table from storage constraint names to what the client sees. The
//! domain refuses bad input before it reaches the database; a constraint that
//! still fires (a rule the domain missed, a race) becomes a 4xx with the
//! field's message, never a 500. An unknown name gets a generic message and
//! is logged so that the table can be completed.

use actix_web::http::StatusCode;
use domain::profile::AddressError;
use domain::text::{rules, TextError, TextRule};
use ports::{ConstraintKind, ConstraintViolation};

use crate::{ApiError, ErrorBody};

/// What one constraint means to the client; every message comes from the
/// domain rule the constraint repeats.
#[derive(Debug, Clone, Copy)]
enum Meaning {
    /// A text over its limit: the rule's "at most" message.
    TooLong(TextRule),
    /// A required text left blank: the rule's "required" message.
    Blank(TextRule),
    /// An address rule: its field and message.
    Address(AddressError),
    /// Another field with a fixed message.
    Field(&'static str, &'static str),
}

const MSG_EMAIL_TAKEN: &str = "このメールアドレスはすでに登録されています。";
const MSG_INVALID_GENERIC: &str = "入力内容を確認してください。";
const MSG_CONFLICT_GENERIC: &str = "他の操作と重なったため保存できませんでした。お手数ですが再度お試しください。";

/// Constraint name -> meaning. Names are those of the migrations.
const TABLE: &[(&str, Meaning)] = &[
    ("users_username_length", Meaning::TooLong(rules::USERNAME)),
    ("users_displayname_length", Meaning::TooLong(rules::PROFILE_DISPLAY_NAME)),
    ("users_profile_length", Meaning::TooLong(rules::PROFILE)),
    ("users_age_group_length", Meaning::TooLong(rules::AGE_GROUP)),
    ("users_corporatename_length", Meaning::TooLong(rules::COMPANY_NAME)),
    ("users_corporateurl_length", Meaning::Field("corporateurl", domain::profile::MSG_URL_FORMAT)),
    ("users_email_check", Meaning::Field("email", domain::account::MSG_EMAIL_FORMAT)),
    ("users_email_lower_key", Meaning::Field("email", MSG_EMAIL_TAKEN)),
    ("user_keys_new_email_length", Meaning::Field("email", domain::account::MSG_EMAIL_FORMAT)),
    ("addresses_name_check", Meaning::Blank(rules::ADDRESS_NAME)),
    ("addresses_name_length", Meaning::TooLong(rules::ADDRESS_NAME)),
    ("addresses_tel_number_check", Meaning::Address(AddressError::TelFormat)),
    ("addresses_zip_check", Meaning::Address(AddressError::ZipFormat)),
    ("addresses_pref_check", Meaning::Address(AddressError::PrefInvalid)),
    ("addresses_pref_length", Meaning::Address(AddressError::PrefInvalid)),
    ("addresses_city_check", Meaning::Blank(rules::ADDRESS_CITY)),
    ("addresses_city_length", Meaning::TooLong(rules::ADDRESS_CITY)),
    ("addresses_address_check", Meaning::Blank(rules::ADDRESS_STREET)),
    ("addresses_address_length", Meaning::TooLong(rules::ADDRESS_STREET)),
    ("addresses_building_length", Meaning::TooLong(rules::ADDRESS_BUILDING)),
    ("display_names_displayname_check", Meaning::Blank(rules::SALE_DISPLAY_NAME)),
    ("display_names_displayname_length", Meaning::TooLong(rules::SALE_DISPLAY_NAME)),
    ("comments_comment_check", Meaning::Blank(rules::COMMENT)),
    ("comments_comment_length", Meaning::TooLong(rules::COMMENT)),
    ("sale_additional_data_value_length", Meaning::TooLong(rules::ADDITIONAL_DATA)),
    ("sale_receipts_addressee_length", Meaning::TooLong(domain::receipt::ADDRESSEE)),
    ("project_receipt_issuers_issuer_name_length", Meaning::TooLong(domain::receipt::ISSUER_NAME)),
    (
        "project_receipt_issuers_registration_number_check",
        Meaning::Field("registrationNumber", domain::receipt::MSG_REGISTRATION_NUMBER),
    ),
    ("sales_extra_amount_check", Meaning::Field("extraAmount", domain::extra_amount::MSG_EXTRA_AMOUNT_RANGE)),
];

fn status(kind: ConstraintKind) -> StatusCode {
    match kind {
        ConstraintKind::Check => StatusCode::BAD_REQUEST,
        ConstraintKind::Unique | ConstraintKind::ForeignKey => StatusCode::CONFLICT,
    }
}

/// The response for a write a storage constraint refused.
pub(crate) fn constraint_error(violation: &ConstraintViolation) -> ApiError {
    let status = status(violation.kind);
    let code = if status == StatusCode::CONFLICT { "conflict" } else { "validation_failed" };
    match TABLE.iter().find(|(name, _)| *name == violation.name).map(|(_, meaning)| *meaning) {
        Some(Meaning::TooLong(rule)) => {
            let message = TextError::TooLong { label: rule.label, max: rule.max_chars }.to_string();
            body(status, code, Some(rule.field), &message)
        }
        Some(Meaning::Blank(rule)) => {
            body(status, code, Some(rule.field), &TextError::Required { label: rule.label }.to_string())
        }
        Some(Meaning::Address(error)) => body(status, code, Some(error.field()), &error.to_string()),
        Some(Meaning::Field(field, message)) => body(status, code, Some(field), message),
        None => {
            tracing::warn!(constraint = %violation.name, kind = ?violation.kind, "unmapped constraint refused a write");
            let message = if status == StatusCode::CONFLICT { MSG_CONFLICT_GENERIC } else { MSG_INVALID_GENERIC };
            body(status, code, None, message)
        }
    }
}

fn body(status: StatusCode, code: &str, field: Option<&str>, message: &str) -> ApiError {
    let body = ErrorBody {
        error: code.to_string(),
        message: message.to_string(),
        field: field.map(str::to_string),
        errors: None,
    };
    ApiError::Field { status, body }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::body::MessageBody;
    use actix_web::ResponseError;

    fn respond(kind: ConstraintKind, name: &str) -> (u16, serde_json::Value) {
        let response = constraint_error(&ConstraintViolation { kind, name: name.into() }).error_response();
        let status = response.status().as_u16();
        let bytes = response.into_body().try_into_bytes().unwrap();
        (status, serde_json::from_slice(&bytes).unwrap())
    }

    #[test]
    fn a_violated_phone_check_is_a_400_with_the_phone_message() {
        let (status, body) = respond(ConstraintKind::Check, "addresses_tel_number_check");
        assert_eq!(status, 400);
        assert_eq!(body["error"], "validation_failed");
        assert_eq!(body["field"], "telNumber");
        assert_eq!(body["message"], "電話番号は半角数字10〜11桁（ハイフンなし）で入力してください。");
    }

    #[test]
    fn a_violated_length_check_gives_the_fields_limit() {
        let (status, body) = respond(ConstraintKind::Check, "addresses_city_length");
        assert_eq!((status, body["message"].as_str()), (400, Some("市区町村は50文字以内で入力してください。")));
    }

    #[test]
    fn an_unknown_constraint_is_a_generic_4xx_never_a_500() {
        assert_eq!(respond(ConstraintKind::Check, "something_new_check").0, 400);
        assert_eq!(respond(ConstraintKind::Unique, "something_new_key").0, 409);
        let (status, body) = respond(ConstraintKind::ForeignKey, "something_fkey");
        assert_eq!(status, 409);
        assert_eq!(body["error"], "conflict");
    }

    #[test]
    fn a_blank_comment_that_reached_the_database_gets_the_required_message() {
        let (status, body) = respond(ConstraintKind::Check, "comments_comment_check");
        assert_eq!((status, body["message"].as_str()), (400, Some("コメントを入力してください。")));
    }

    #[test]
    fn every_named_constraint_of_the_migrations_that_guards_a_typed_field_is_in_the_table() {
        for migration in ["2026-11-26-100000_text_limits", "2026-12-03-000000_sale_receipts"] {
            let path = format!("{}/../migrations/{migration}/up.sql", env!("CARGO_MANIFEST_DIR"));
            let sql = std::fs::read_to_string(path).unwrap();
            for name in sql.split_whitespace().skip_while(|w| *w != "CONSTRAINT").filter(|w| w.ends_with("_length")) {
                assert!(TABLE.iter().any(|(n, _)| n == &name), "{name} is not mapped");
            }
        }
    }
}
