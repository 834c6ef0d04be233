//! The form rules the browser checks too, as one serialisable document. A
//! test writes it to `frontend/src/lib/validation-rules.json` (run it with
//! `UPDATE_VALIDATION_RULES=1`) and fails whenever the checked-in file
//! differs, so the client cannot drift from the server: limits and messages
//! are written once, here and in the modules this reads from.

use serde::Serialize;
use std::collections::BTreeMap;

use crate::account::{Email, MSG_EMAIL_FORMAT, MSG_EMAIL_REQUIRED};
use crate::extra_amount;
use crate::profile::{AddressError, TEL_MAX_DIGITS, TEL_MIN_DIGITS};
use crate::receipt;
use crate::text::{rules, TextRule, INVISIBLE_RANGES, MSG_FORBIDDEN_CHARACTER, MSG_REQUIRED, MSG_TOO_LONG};

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SharedRules {
    /// Message templates with `{label}` and `{max}` placeholders.
    pub text_messages: TextMessages,
    pub text: BTreeMap<&'static str, TextRule>,
    /// Inclusive code-point ranges that count as invisible (blank check).
    pub invisible_ranges: Vec<(u32, u32)>,
    pub email: EmailRules,
    pub tel: DigitsRule,
    pub zip: DigitsRule,
    pub extra_amount: ExtraAmountRules,
}

/// Step 1's 上乗せ支援 field (`crate::extra_amount`).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExtraAmountRules {
    pub max: i64,
    pub max_total: i64,
    pub range: &'static str,
    pub total: &'static str,
    pub monthly: &'static str,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TextMessages {
    pub required: &'static str,
    pub too_long: &'static str,
    pub forbidden_character: &'static str,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EmailRules {
    pub max_length: usize,
    pub required: &'static str,
    pub format: &'static str,
    /// Addresses both sides must accept and refuse (the vitest and the Rust
    /// test check them), so a change of rule on one side only is caught.
    pub accepted_examples: Vec<&'static str>,
    pub refused_examples: Vec<&'static str>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DigitsRule {
    pub min_digits: usize,
    pub max_digits: usize,
    pub required: String,
    pub format: String,
}

pub const EMAIL_ACCEPTED: [&str; 5] =
    ["taro@example.jp", "taro.yamada+cf@mail.example.co.jp", "o'neil@example.com", "a_b-c@x-y.example", "1@2.jp"];
pub const EMAIL_REFUSED: [&str; 16] = [
    "taro",
    "taro@",
    "@example.jp",
    "taro@example",
    "ta ro@example.jp",
    "taro@@example.jp",
    "taro@example.",
    "a,b@example.com",
    "a;b@example.com",
    "<a@example.com>",
    "a@example.com>",
    "a..b@example.com",
    ".a@example.com",
    "\"a\"@example.com",
    "a@[127.0.0.1]",
    "a@例え.jp",
];

pub fn shared_rules() -> SharedRules {
    SharedRules {
        text_messages: TextMessages {
            required: MSG_REQUIRED,
            too_long: MSG_TOO_LONG,
            forbidden_character: MSG_FORBIDDEN_CHARACTER,
        },
        text: rules::ALL
            .into_iter()
            .chain([("receiptAddressee", receipt::ADDRESSEE), ("receiptIssuerName", receipt::ISSUER_NAME)])
            .collect(),
        invisible_ranges: INVISIBLE_RANGES.iter().map(|&(lo, hi)| (u32::from(lo), u32::from(hi))).collect(),
        email: EmailRules {
            max_length: Email::MAX_LEN,
            required: MSG_EMAIL_REQUIRED,
            format: MSG_EMAIL_FORMAT,
            accepted_examples: EMAIL_ACCEPTED.to_vec(),
            refused_examples: EMAIL_REFUSED.to_vec(),
        },
        tel: DigitsRule {
            min_digits: TEL_MIN_DIGITS,
            max_digits: TEL_MAX_DIGITS,
            required: AddressError::TelRequired.to_string(),
            format: AddressError::TelFormat.to_string(),
        },
        zip: DigitsRule {
            min_digits: 7,
            max_digits: 7,
            required: AddressError::ZipRequired.to_string(),
            format: AddressError::ZipFormat.to_string(),
        },
        extra_amount: ExtraAmountRules {
            max: extra_amount::MAX_EXTRA_AMOUNT.value(),
            max_total: extra_amount::MAX_TOTAL_WITH_EXTRA.value(),
            range: extra_amount::MSG_EXTRA_AMOUNT_RANGE,
            total: extra_amount::MSG_EXTRA_AMOUNT_TOTAL,
            monthly: extra_amount::MSG_EXTRA_AMOUNT_MONTHLY,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULES_FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../frontend/src/lib/validation-rules.json");

    #[test]
    fn the_frontend_rules_file_equals_the_domain_rules() {
        let expected = serde_json::to_string_pretty(&shared_rules()).unwrap() + "\n";
        if std::env::var_os("UPDATE_VALIDATION_RULES").is_some() {
            std::fs::write(RULES_FILE, &expected).unwrap();
        }
        let actual = std::fs::read_to_string(RULES_FILE).unwrap_or_default();
        assert!(
            actual == expected,
            "{RULES_FILE} disagrees with the domain rules; regenerate it with \
             UPDATE_VALIDATION_RULES=1 cargo test -p domain shared_rules"
        );
    }

    /// The address form still has its own copy of these messages
    /// (`components/address/addressRules.ts`, shared by my page and the payment flow); until it imports the
    /// rules file, this keeps the copy equal to the domain's.
    #[test]
    fn the_address_form_shows_the_domains_phone_and_zip_messages() {
        let form = concat!(env!("CARGO_MANIFEST_DIR"), "/../frontend/src/components/address/addressRules.ts");
        let source = std::fs::read_to_string(form).unwrap();
        for error in
            [AddressError::TelRequired, AddressError::TelFormat, AddressError::ZipRequired, AddressError::ZipFormat]
        {
            assert!(source.contains(&format!("'{error}'")), "{form} lacks '{error}'");
        }
        assert!(source.contains("/^[0-9]{10,11}$/"), "{form}: the phone pattern is not 10-11 digits");
    }

    #[test]
    fn the_shared_email_examples_hold_in_the_domain() {
        for ok in EMAIL_ACCEPTED {
            assert!(Email::parse(ok).is_ok(), "{ok}");
        }
        for bad in EMAIL_REFUSED {
            assert!(Email::parse(bad).is_err(), "{bad}");
        }
    }
}
