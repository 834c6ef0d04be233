//! Record ids as distinct types, so a return's id can never be passed where a
//! project's is expected. They live in `domain` (not in `ports`) because
//! domain rules group and key by them too (sponsors by supporter, refunds by
//! sale).
//!
//! The inner value is public: a request may name any number, and a number
//! that names no record is answered by the lookup ("not found"), not here.
//! `TryFrom<i64>` is for values read back from storage, where every id comes
//! from a sequence and is positive: anything else is corruption.

use std::fmt;

use serde::{Deserialize, Serialize};

/// An id read back from storage that no sequence could have handed out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{kind} id {raw} is not positive")]
pub struct NotAnId {
    pub kind: &'static str,
    pub raw: i64,
}

macro_rules! record_id {
    ($(#[$doc:meta])* $name:ident, $kind:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub i64);

        impl $name {
            pub const fn get(self) -> i64 {
                self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.0, f)
            }
        }

        impl TryFrom<i64> for $name {
            type Error = NotAnId;

            /// A stored id: positive, as sequences hand them out.
            fn try_from(raw: i64) -> Result<Self, NotAnId> {
                if raw > 0 {
                    Ok(Self(raw))
                } else {
                    Err(NotAnId { kind: $kind, raw })
                }
            }
        }

        impl From<$name> for i64 {
            fn from(id: $name) -> i64 {
                id.0
            }
        }
    };
}

record_id!(
    /// An account (`users.id`).
    UserId,
    "user"
);
record_id!(
    /// A project (`projects.id`).
    ProjectId,
    "project"
);
record_id!(
    /// A return of a project (`returns.id`).
    ReturnId,
    "return"
);
record_id!(
    /// A sale: one purchase of a return (`sales.id`).
    SaleId,
    "sale"
);

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn an_id_prints_as_its_number() {
        assert_eq!(ProjectId(12).to_string(), "12");
        assert_eq!(format!("sale-{}", SaleId(7)), "sale-7");
    }

    #[test]
    fn an_id_crosses_json_as_a_plain_number() {
        assert_eq!(serde_json::to_string(&ReturnId(3)).unwrap(), "3");
        assert_eq!(serde_json::from_str::<UserId>("42").unwrap(), UserId(42));
    }

    #[test]
    fn a_stored_id_of_zero_or_below_is_refused() {
        assert_eq!(ProjectId::try_from(0), Err(NotAnId { kind: "project", raw: 0 }));
        assert_eq!(SaleId::try_from(-5).unwrap_err().to_string(), "sale id -5 is not positive");
        assert_eq!(ReturnId::try_from(1), Ok(ReturnId(1)));
    }

    proptest! {
        #[test]
        fn every_positive_stored_id_round_trips(raw in 1i64..=i64::MAX) {
            prop_assert_eq!(i64::from(UserId::try_from(raw).unwrap()), raw);
            prop_assert_eq!(ProjectId::try_from(raw).unwrap().get(), raw);
        }

        #[test]
        fn ids_order_as_their_numbers(a in any::<i64>(), b in any::<i64>()) {
            prop_assert_eq!(SaleId(a).cmp(&SaleId(b)), a.cmp(&b));
        }
    }
}
