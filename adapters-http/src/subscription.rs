//! A member's monthly supports (`/v1/stripe/subscription/...`): always the
//! caller's own; another member's id is as unknown as a missing one.

use actix_web::web::{self, Json, Query};
use actix_web::{get, post};
use ports::payments::subscriptions::{DisplayStatus, SubscriptionView, Subscriptions};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::auth::AuthUser;
use crate::error::ErrorBody;
use crate::wire_names::SubscriptionStatusName;
use crate::ApiError;

pub(crate) fn config(cfg: &mut ServiceConfig) {
    cfg.service(list_subscriptions).service(cancel_subscription).service(pending_authentication).service(authenticated);
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SubscriptionDto {
    /// Our subscription id.
    id: i64,
    project_title: String,
    project_slug: String,
    return_title: String,
    /// Yen charged each month, tax included.
    amount: i64,
    /// `active`, `past_due` (a month failed; the provider retries), `canceling` (stops at `endsOn`), `ended`.
    #[schema(value_type = SubscriptionStatusName, example = "active")]
    status: &'static str,
    /// Another month will be charged, so the member may stop it (`active` and `past_due`).
    stoppable: bool,
    /// Next charge, `YYYY-MM-DD` (Asia/Tokyo); null when stopping or ended.
    #[schema(required = true)]
    next_charge_date: Option<String>,
    /// Last day of the paid period when stopping, or the end.
    #[schema(required = true)]
    ends_on: Option<String>,
    /// The saved card that pays it.
    #[schema(required = true)]
    card_id: Option<String>,
    #[schema(required = true)]
    card_brand: Option<String>,
    #[schema(required = true)]
    card_last4: Option<String>,
}

impl From<SubscriptionView> for SubscriptionDto {
    fn from(view: SubscriptionView) -> Self {
        let record = view.record;
        let status = DisplayStatus::of(&record);
        let period_end =
            record.current_period_end.map(|end| domain::time::tokyo_date(end).format("%Y-%m-%d").to_string());
        let (next_charge_date, ends_on) = if status.charges_again() { (period_end, None) } else { (None, period_end) };
        Self {
            id: record.id,
            project_title: record.project_title,
            project_slug: record.project_slug,
            return_title: record.return_title,
            amount: record.amount.value(),
            status: status.code(),
            stoppable: status.charges_again(),
            next_charge_date,
            ends_on,
            card_id: record.card.map(|c| c.as_str().to_string()),
            card_brand: view.card.as_ref().map(|c| c.brand.clone()),
            card_last4: view.card.map(|c| c.last4),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct SubscriptionsResponse {
    subscriptions: Vec<SubscriptionDto>,
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct SubscriptionResponse {
    subscription: SubscriptionDto,
}

#[derive(Debug, Deserialize, ToSchema, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct SubscriptionRef {
    /// Our subscription id (from the list).
    id: i64,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PendingAuthenticationResponse {
    subscription: SubscriptionDto,
    /// For `stripe.confirmCardPayment(clientSecret)`; `null` when no month waits for authentication.
    #[schema(required = true)]
    client_secret: Option<String>,
    /// The month's amount in yen (tax included); `null` with `clientSecret`.
    #[schema(required = true)]
    amount: Option<i64>,
}

/// The member's monthly supports, newest first.
#[utoipa::path(
    tag = "subscriptions",
    responses(
        (status = 200, description = "The monthly supports (none before the first)", body = SubscriptionsResponse),
        (status = 401, description = "`unauthorized`", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[get("/stripe/subscription/get/list")]
async fn list_subscriptions(
    user: AuthUser,
    subscriptions: web::Data<dyn Subscriptions>,
) -> Result<Json<SubscriptionsResponse>, ApiError> {
    let list = subscriptions.list(user.0.id).await?;
    Ok(Json(SubscriptionsResponse { subscriptions: list.into_iter().map(SubscriptionDto::from).collect() }))
}

/// Stop a monthly support at the end of the paid period (the supporter is
/// mailed). Repeating it changes nothing.
#[utoipa::path(
    tag = "subscriptions",
    request_body = SubscriptionRef,
    responses(
        (status = 200, description = "The subscription, now `canceling` (or as it was when already stopping or ended)", body = SubscriptionResponse),
        (status = 400, description = "`malformed_request`", body = ErrorBody),
        (status = 401, description = "`unauthorized`", body = ErrorBody),
        (status = 404, description = "`not_found`: not one of the member's subscriptions", body = ErrorBody),
        (status = 503, description = "`payment_unavailable`: nothing changed; try again", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[post("/stripe/subscription/set/cancel")]
async fn cancel_subscription(
    user: AuthUser,
    subscriptions: web::Data<dyn Subscriptions>,
    body: Json<SubscriptionRef>,
) -> Result<Json<SubscriptionResponse>, ApiError> {
    let view = subscriptions.cancel(user.0.id, body.id).await?;
    Ok(Json(SubscriptionResponse { subscription: view.into() }))
}

/// The month of a monthly support that waits for the member to authenticate
/// with the card (the bank asked for 3-D Secure when renewing; the mail links
/// the page that completes it).
#[utoipa::path(
    tag = "subscriptions",
    params(SubscriptionRef),
    responses(
        (status = 200, description = "The subscription, and the month's client secret and amount when one waits", body = PendingAuthenticationResponse),
        (status = 400, description = "`malformed_request`", body = ErrorBody),
        (status = 401, description = "`unauthorized`", body = ErrorBody),
        (status = 404, description = "`not_found`: not one of the member's subscriptions", body = ErrorBody),
        (status = 503, description = "`payment_unavailable`", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[get("/stripe/subscription/get/authentication")]
async fn pending_authentication(
    user: AuthUser,
    subscriptions: web::Data<dyn Subscriptions>,
    query: Query<SubscriptionRef>,
) -> Result<Json<PendingAuthenticationResponse>, ApiError> {
    let (view, pending) = subscriptions.pending_authentication(user.0.id, query.id).await?;
    Ok(Json(PendingAuthenticationResponse {
        subscription: view.into(),
        client_secret: pending.as_ref().map(|p| p.client_secret.clone()),
        amount: pending.map(|p| p.amount.value()),
    }))
}

/// After the browser authenticated the month: the server reads the
/// subscription back from the provider and records the paid month at once.
#[utoipa::path(
    tag = "subscriptions",
    request_body = SubscriptionRef,
    responses(
        (status = 200, description = "The subscription as it is now (`active` once the month is paid)", body = SubscriptionResponse),
        (status = 400, description = "`malformed_request`", body = ErrorBody),
        (status = 401, description = "`unauthorized`", body = ErrorBody),
        (status = 404, description = "`not_found`: not one of the member's subscriptions", body = ErrorBody),
        (status = 503, description = "`payment_unavailable`", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[post("/stripe/subscription/set/authenticated")]
async fn authenticated(
    user: AuthUser,
    subscriptions: web::Data<dyn Subscriptions>,
    body: Json<SubscriptionRef>,
) -> Result<Json<SubscriptionResponse>, ApiError> {
    let view = subscriptions.authenticated(user.0.id, body.id).await?;
    Ok(Json(SubscriptionResponse { subscription: view.into() }))
}
