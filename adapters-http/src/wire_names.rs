//! String fields whose values form a closed list, described as enums: the
//! frontend's generated types are then unions (`'pending' | ...`), not
//! `string`. Each list is taken from the code that writes the field (the
//! domain's or port's enum where there is one). DTO fields keep their string
//! type and point here with `#[schema(value_type = ...)]`.

use std::borrow::Cow;

use domain::payment::{PayType, SaleStatus};
use ports::admin::mass_mail::{MailStatus, RecipientStatus};
use ports::payments::subscriptions::DisplayStatus;
use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
use utoipa::openapi::{RefOr, Schema};
use utoipa::{PartialSchema, ToSchema};

fn string_enum(description: &str, values: impl IntoIterator<Item = &'static str>) -> RefOr<Schema> {
    ObjectBuilder::new().schema_type(Type::String).description(Some(description)).enum_values(Some(values)).into()
}

/// How a supporter pays: `PayType::code`.
pub(crate) struct PaymentTypeCode;

impl PartialSchema for PaymentTypeCode {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::Integer)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int32)))
            .description(Some("1 card, 2 bank transfer, 3 konbini (convenience-store payment)."))
            .enum_values(Some(PayType::ALL.map(PayType::code)))
            .into()
    }
}

impl ToSchema for PaymentTypeCode {}

/// A sale's status: `SaleStatus::as_str` of every `SaleStatus::ALL`.
pub(crate) struct SaleStatusName;

impl PartialSchema for SaleStatusName {
    fn schema() -> RefOr<Schema> {
        string_enum("Where a sale stands (`sales.status`).", SaleStatus::ALL.map(SaleStatus::as_str))
    }
}

impl ToSchema for SaleStatusName {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("SaleStatus")
    }
}

/// A monthly support's status as the member sees it.
pub(crate) struct SubscriptionStatusName;

impl PartialSchema for SubscriptionStatusName {
    fn schema() -> RefOr<Schema> {
        string_enum(
            "`active`, `past_due` (a month failed; the provider retries), `canceling` (stops at `endsOn`), `ended`.",
            DisplayStatus::ALL.map(DisplayStatus::code),
        )
    }
}

impl ToSchema for SubscriptionStatusName {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("SubscriptionStatus")
    }
}

/// What the supporter must do before a sale can go on (`NextActionDto.type`).
pub(crate) struct NextActionKind;

/// The one next action there is.
pub(crate) const AUTHENTICATE: &str = "authenticate";

impl PartialSchema for NextActionKind {
    fn schema() -> RefOr<Schema> {
        string_enum(
            "`authenticate`: finish 3-D Secure with `stripe.confirmCardPayment(clientSecret)`, then read the status.",
            [AUTHENTICATE],
        )
    }
}

impl ToSchema for NextActionKind {}

/// A mass mail's sending job: `MailStatus::code`.
pub(crate) struct MailStatusName;

impl PartialSchema for MailStatusName {
    fn schema() -> RefOr<Schema> {
        let all = [MailStatus::Queued, MailStatus::Sending, MailStatus::Sent, MailStatus::Failed];
        string_enum("`queued`, `sending`, `sent` (finished) or `failed` (given up).", all.map(MailStatus::code))
    }
}

impl ToSchema for MailStatusName {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("MailStatus")
    }
}

/// One recipient of a mass mail: `RecipientStatus::code`.
pub(crate) struct RecipientStatusName;

impl PartialSchema for RecipientStatusName {
    fn schema() -> RefOr<Schema> {
        let all = [RecipientStatus::Pending, RecipientStatus::Sent, RecipientStatus::Failed];
        string_enum("`pending`, `sent` or `failed`.", all.map(RecipientStatus::code))
    }
}

impl ToSchema for RecipientStatusName {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("RecipientStatus")
    }
}
