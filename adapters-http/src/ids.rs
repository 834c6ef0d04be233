//! Record ids in requests. The seed's client sends them as JSON numbers or as
//! strings (query parameters are always strings); either is accepted when it
//! is a whole number within i64. Anything else (`abc`, `3.0`, `[2]`, a
//! 20-digit number) is refused with `400 malformed_request` instead of being
//! ignored, so a typo can never silently act on the caller's own record.

use std::fmt;

use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;
use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, OneOfBuilder, SchemaFormat, Type};
use utoipa::openapi::{RefOr, Schema};

use crate::error::malformed_request;
use crate::ApiError;

/// A record id from a request body or query.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Id(pub(crate) i64);

/// Digits with an optional leading minus; no plus sign, spaces or exponent.
pub(crate) fn parse_id(s: &str) -> Option<i64> {
    let digits = s.strip_prefix('-').unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

struct IdVisitor;

impl Visitor<'_> for IdVisitor {
    type Value = Id;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an integer id (a number or a string of digits)")
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Id, E> {
        Ok(Id(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Id, E> {
        i64::try_from(v).map(Id).map_err(|_| E::custom("id out of range"))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Id, E> {
        parse_id(v).map(Id).ok_or_else(|| E::custom("not an integer id"))
    }
}

/// In the description: an integer, or a string of digits (at most 19, with
/// an optional minus), as the deserialiser accepts.
impl utoipa::PartialSchema for Id {
    fn schema() -> RefOr<Schema> {
        let number =
            ObjectBuilder::new().schema_type(Type::Integer).format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)));
        let digits = ObjectBuilder::new().schema_type(Type::String).pattern(Some("^-?[0-9]{1,19}$"));
        OneOfBuilder::new()
            .item(number)
            .item(digits)
            .description(Some("A record id: a JSON integer or a string of digits within the signed 64-bit range."))
            .into()
    }
}

impl utoipa::ToSchema for Id {}

impl<'de> Deserialize<'de> for Id {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(IdVisitor)
    }
}

/// Which user a request names: the seed's `me`, or an id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum UserRef {
    Me,
    Id(i64),
}

impl UserRef {
    /// `me` or an integer id; anything else is a malformed request.
    pub(crate) fn parse(raw: &str) -> Result<Self, ApiError> {
        if raw == "me" {
            return Ok(Self::Me);
        }
        parse_id(raw).map(Self::Id).ok_or_else(malformed_request)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn from_json(value: serde_json::Value) -> Option<i64> {
        serde_json::from_value::<Id>(value).ok().map(|id| id.0)
    }

    #[test]
    fn numbers_and_numeric_strings_within_i64_are_ids() {
        assert_eq!(from_json(json!(7)), Some(7));
        assert_eq!(from_json(json!("7")), Some(7));
        assert_eq!(from_json(json!(i64::MAX)), Some(i64::MAX));
        assert_eq!(from_json(json!("-1")), Some(-1));
    }

    #[test]
    fn anything_else_is_not_an_id() {
        for bad in [
            json!("abc"),
            json!(3.0),
            json!("3.0"),
            json!([2]),
            json!({"id": 2}),
            json!(true),
            json!(""),
            json!(" 7"),
            json!("+7"),
            json!("1e3"),
            json!(u64::MAX),
            json!("12345678901234567890"),
            json!(null),
        ] {
            assert_eq!(from_json(bad.clone()), None, "{bad}");
        }
    }

    #[test]
    fn a_user_reference_is_me_or_an_id() {
        assert_eq!(UserRef::parse("me").unwrap(), UserRef::Me);
        assert_eq!(UserRef::parse("42").unwrap(), UserRef::Id(42));
        for bad in ["abc", "3.0", "[2]", "12345678901234567890", "", "Me"] {
            assert!(UserRef::parse(bad).is_err(), "{bad}");
        }
    }
}
