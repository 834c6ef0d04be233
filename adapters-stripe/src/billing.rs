//! Monthly support at Stripe: products and plans, subscriptions and their
//! invoices. The calls go through the generic request path and the answers
//! are read as JSON: the object crates for billing are not compiled in, and
//! an invoice names its PaymentIntent differently by API version
//! (`payment_intent`, or `payments.data[].payment.payment_intent`).

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use domain::money::Yen;
use ports::payments::gateway::{
    GatewayError, IdempotencyKey, InvoiceId, MonthlyPlan, NewSubscription, PaymentId, PaymentMethodId, ProviderInvoice,
    ProviderSubscription, SubscriptionId, SubscriptionState,
};
use serde::Serialize;
use serde_json::Value;
use stripe::Client;
use stripe_client_core::{RequestBuilder, StripeMethod};

use crate::{gateway_error, idempotent, path_segment, Origin, NAMESPACE_METADATA, SALE_ID_METADATA};

/// The metadata key that ties a subscription to our subscription row.
pub const SUBSCRIPTION_ROW_METADATA: &str = "subscription_row";

#[derive(Serialize)]
struct ProductForm<'a> {
    id: &'a str,
    name: &'a str,
}

#[derive(Serialize)]
struct PlanForm<'a> {
    id: &'a str,
    product: &'a str,
    amount: i64,
    currency: &'static str,
    interval: &'static str,
}

#[derive(Serialize)]
struct Item<'a> {
    plan: &'a str,
}

#[derive(Serialize)]
struct SubscriptionForm<'a> {
    customer: &'a str,
    items: Vec<Item<'a>>,
    default_payment_method: &'a str,
    /// A refused first charge is an error, and no subscription stays behind.
    payment_behavior: &'static str,
    /// Sorted: a repeat with the same idempotency key sends the very same body.
    metadata: BTreeMap<String, String>,
}

#[derive(Serialize)]
struct UpdateForm<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    default_payment_method: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cancel_at_period_end: Option<bool>,
}

#[derive(Serialize)]
struct InvoiceQuery<'a> {
    subscription: &'a str,
    limit: i64,
}

pub(crate) async fn send(
    client: &Client,
    request: RequestBuilder,
    key: Option<&IdempotencyKey>,
) -> Result<Value, GatewayError> {
    let mut request = request.customize::<miniserde::json::Value>();
    if let Some(key) = key {
        request = request.request_strategy(idempotent(key)?);
    }
    let answer = request.send(client).await.map_err(gateway_error)?;
    serde_json::from_str(&miniserde::json::to_string(&answer)).map_err(|e| GatewayError::Unexpected(e.to_string()))
}

pub(crate) async fn ensure_plan(client: &Client, plan: &MonthlyPlan, key: &IdempotencyKey) -> Result<(), GatewayError> {
    let plan_path = format!("/plans/{}", path_segment(&plan.plan_id)?);
    if send(client, RequestBuilder::new(StripeMethod::Get, plan_path.clone()), None).await.is_ok() {
        return Ok(());
    }
    let product_path = format!("/products/{}", path_segment(&plan.product_id)?);
    if send(client, RequestBuilder::new(StripeMethod::Get, product_path), None).await.is_err() {
        let form = ProductForm { id: &plan.product_id, name: &plan.name };
        let product_key =
            IdempotencyKey::parse(&format!("{key}-product")).map_err(|e| GatewayError::Rejected(e.to_string()))?;
        let created =
            send(client, RequestBuilder::new(StripeMethod::Post, "/products").form(&form), Some(&product_key)).await;
        if let Err(error) = created {
            // Made meanwhile by a concurrent first support of the same return.
            exists_or(client, &format!("/products/{}", plan.product_id), error).await?;
        }
    }
    let form = PlanForm {
        id: &plan.plan_id,
        product: &plan.product_id,
        amount: plan.amount.value(),
        currency: "jpy",
        interval: "month",
    };
    match send(client, RequestBuilder::new(StripeMethod::Post, "/plans").form(&form), Some(key)).await {
        Ok(_) => Ok(()),
        Err(error) => exists_or(client, &plan_path, error).await,
    }
}

/// After a failed creation: fine when the object exists now, else the error.
async fn exists_or(client: &Client, path: &str, error: GatewayError) -> Result<(), GatewayError> {
    match send(client, RequestBuilder::new(StripeMethod::Get, path.to_owned()), None).await {
        Ok(_) => Ok(()),
        Err(_) => Err(error),
    }
}

pub(crate) async fn create_subscription(
    client: &Client,
    origin: &Origin,
    request: &NewSubscription,
    key: &IdempotencyKey,
) -> Result<ProviderSubscription, GatewayError> {
    let form = SubscriptionForm {
        customer: request.customer.as_str(),
        items: vec![Item { plan: &request.plan_id }],
        default_payment_method: request.card.as_str(),
        payment_behavior: "error_if_incomplete",
        metadata: origin
            .metadata(&[
                (SALE_ID_METADATA, request.sale_id.to_string()),
                (SUBSCRIPTION_ROW_METADATA, request.subscription_row.to_string()),
            ])
            .into_iter()
            .collect(),
    };
    let answer = send(client, RequestBuilder::new(StripeMethod::Post, "/subscriptions").form(&form), Some(key)).await?;
    subscription(&answer, origin).map_err(GatewayError::Unexpected)
}

pub(crate) async fn retrieve_subscription(
    client: &Client,
    origin: &Origin,
    id: &SubscriptionId,
) -> Result<ProviderSubscription, GatewayError> {
    let path = format!("/subscriptions/{}", path_segment(id.as_str())?);
    let answer = send(client, RequestBuilder::new(StripeMethod::Get, path), None).await?;
    subscription(&answer, origin).map_err(GatewayError::Unexpected)
}

pub(crate) async fn update_subscription(
    client: &Client,
    origin: &Origin,
    id: &SubscriptionId,
    card: Option<&PaymentMethodId>,
    cancel_at_period_end: Option<bool>,
) -> Result<ProviderSubscription, GatewayError> {
    let path = format!("/subscriptions/{}", path_segment(id.as_str())?);
    let form = UpdateForm { default_payment_method: card.map(PaymentMethodId::as_str), cancel_at_period_end };
    let answer = send(client, RequestBuilder::new(StripeMethod::Post, path).form(&form), None).await?;
    subscription(&answer, origin).map_err(GatewayError::Unexpected)
}

pub(crate) async fn retrieve_invoice(client: &Client, id: &InvoiceId) -> Result<ProviderInvoice, GatewayError> {
    let path = format!("/invoices/{}", path_segment(id.as_str())?);
    let answer = send(client, RequestBuilder::new(StripeMethod::Get, path), None).await?;
    invoice(&answer).map_err(GatewayError::Unexpected)
}

pub(crate) async fn list_invoices(
    client: &Client,
    subscription: &SubscriptionId,
) -> Result<Vec<ProviderInvoice>, GatewayError> {
    let query = InvoiceQuery { subscription: subscription.as_str(), limit: 100 };
    let answer = send(client, RequestBuilder::new(StripeMethod::Get, "/invoices").query(&query), None).await?;
    answer
        .get("data")
        .and_then(Value::as_array)
        .ok_or_else(|| GatewayError::Unexpected("invoice list without data".to_owned()))?
        .iter()
        .map(|i| invoice(i).map_err(GatewayError::Unexpected))
        .collect()
}

fn id_of(value: Option<&Value>) -> Option<String> {
    match value? {
        Value::String(id) if !id.is_empty() => Some(id.clone()),
        Value::Object(object) => object.get("id").and_then(Value::as_str).map(str::to_owned),
        _ => None,
    }
}

fn time(value: Option<&Value>) -> Option<DateTime<Utc>> {
    value.and_then(Value::as_i64).and_then(|t| DateTime::from_timestamp(t, 0))
}

/// A subscription object (an API answer or an event's `data.object`).
pub(crate) fn subscription(value: &Value, origin: &Origin) -> Result<ProviderSubscription, String> {
    let id = id_of(value.get("id")).ok_or("subscription without an id")?;
    let raw_status = value.get("status").and_then(Value::as_str).unwrap_or_default();
    let status =
        SubscriptionState::parse(raw_status).ok_or_else(|| format!("subscription {id} has status {raw_status:?}"))?;
    // Newer API versions keep the period on the items.
    let period_end =
        time(value.get("current_period_end")).or_else(|| time(value.pointer("/items/data/0/current_period_end")));
    let ours = origin.owns(value.pointer(&format!("/metadata/{NAMESPACE_METADATA}")).and_then(Value::as_str));
    let row = value
        .pointer(&format!("/metadata/{SUBSCRIPTION_ROW_METADATA}"))
        .filter(|_| ours)
        .and_then(Value::as_str)
        .and_then(|r| r.parse().ok());
    Ok(ProviderSubscription {
        id: SubscriptionId::new(id),
        status,
        current_period_end: period_end,
        cancel_at_period_end: value.get("cancel_at_period_end").and_then(Value::as_bool).unwrap_or(false),
        card: id_of(value.get("default_payment_method"))
            .or_else(|| id_of(value.get("default_source")))
            .map(PaymentMethodId::new),
        latest_invoice: id_of(value.get("latest_invoice")).map(InvoiceId::new),
        row,
    })
}

/// An invoice object.
pub(crate) fn invoice(value: &Value) -> Result<ProviderInvoice, String> {
    let id = id_of(value.get("id")).ok_or("invoice without an id")?;
    let currency = value.get("currency").and_then(Value::as_str).unwrap_or("jpy");
    if currency != "jpy" {
        return Err(format!("invoice {id} is in {currency}, not yen"));
    }
    let subscription = id_of(value.get("subscription"))
        .or_else(|| id_of(value.pointer("/parent/subscription_details/subscription")))
        .map(SubscriptionId::new);
    let payment = id_of(value.get("payment_intent"))
        .or_else(|| id_of(value.pointer("/payments/data/0/payment/payment_intent")))
        .map(PaymentId::new);
    let amount = |key: &str| value.get(key).and_then(Value::as_i64).unwrap_or(0);
    Ok(ProviderInvoice {
        id: InvoiceId::new(id),
        subscription,
        paid: value.get("status").and_then(Value::as_str) == Some("paid"),
        amount_paid: Yen(amount("amount_paid")),
        amount_due: Yen(amount("amount_due")),
        payment,
        attempt_count: u32::try_from(amount("attempt_count")).unwrap_or(0),
        next_payment_attempt: time(value.get("next_payment_attempt")),
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn an_invoice_names_its_payment_and_subscription_in_either_api_version() {
        let old = serde_json::json!({"id": "in_1", "currency": "jpy", "status": "paid", "amount_paid": 1100,
            "amount_due": 1100, "subscription": "sub_1", "payment_intent": "pi_1", "attempt_count": 1});
        let new = serde_json::json!({"id": "in_1", "currency": "jpy", "status": "open", "amount_paid": 0,
            "amount_due": 1100, "parent": {"subscription_details": {"subscription": "sub_1"}},
            "payments": {"data": [{"payment": {"payment_intent": "pi_1"}}]}, "attempt_count": 2,
            "next_payment_attempt": 1_800_000_000});
        let (a, b) = (invoice(&old).unwrap(), invoice(&new).unwrap());
        assert!(a.paid && !b.paid);
        assert_eq!(a.subscription, b.subscription);
        assert_eq!(a.payment, Some(PaymentId::new("pi_1")));
        assert_eq!(b.payment, a.payment);
        assert_eq!(b.attempt_count, 2);
        assert!(b.next_payment_attempt.is_some());
        assert!(invoice(&serde_json::json!({"id": "in_2", "currency": "usd"})).is_err());
    }

    #[test]
    fn a_subscription_carries_our_row_its_card_and_period() {
        let value = serde_json::json!({"id": "sub_1", "status": "past_due", "cancel_at_period_end": true,
            "default_payment_method": "card_9", "latest_invoice": "in_3",
            "items": {"data": [{"current_period_end": 1_800_000_000}]},
            "metadata": {"subscription_row": "12", "sale_id": "4"}});
        let sub = subscription(&value, &Origin::default()).unwrap();
        assert_eq!(sub.status, SubscriptionState::PastDue);
        assert_eq!(sub.row, Some(12));
        assert_eq!(sub.card, Some(PaymentMethodId::new("card_9")));
        assert!(sub.cancel_at_period_end && sub.current_period_end.is_some());
        assert!(subscription(&serde_json::json!({"id": "sub_1", "status": "weird"}), &Origin::default()).is_err());
    }

    #[test]
    fn a_subscription_names_our_row_only_when_it_carries_our_namespace() {
        let tagged = |tag: Option<&str>| {
            let mut value = serde_json::json!({"id": "sub_1", "status": "active",
                "metadata": {"subscription_row": "12", "sale_id": "4"}});
            if let Some(tag) = tag {
                value["metadata"]["key_namespace"] = tag.into();
            }
            value
        };
        let ours = Origin(Some("test_db_1".into()));
        assert_eq!(subscription(&tagged(Some("test_db_1")), &ours).unwrap().row, Some(12));
        assert_eq!(subscription(&tagged(Some("test_db_2")), &ours).unwrap().row, None);
        assert_eq!(subscription(&tagged(None), &ours).unwrap().row, None);
        assert_eq!(subscription(&tagged(Some("test_db_1")), &Origin::default()).unwrap().row, None);
    }
}
