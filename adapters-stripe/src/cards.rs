//! Cards at Stripe. New cards are set up in the browser with a SetupIntent
//! (3-D Secure when the card asks) and kept as PaymentMethods attached to the
//! member's customer. Cards saved before that as customer sources (`card_...`)
//! are still listed, charged, made default and removed until their members
//! replace them. The answers are read as JSON, as in `billing.rs`.

use ports::payments::gateway::{
    CardSetup, CustomerCards, CustomerId, GatewayError, PaymentMethodId, ProviderCard, SavedCard,
};
use serde::Serialize;
use serde_json::Value;
use stripe::Client;
use stripe_client_core::{RequestBuilder, StripeMethod};

use crate::billing::send;
use crate::{convert, path_segment, MAX_LISTED};

/// The id prefix of a PaymentMethod; anything else is a legacy source.
const PAYMENT_METHOD_PREFIX: &str = "pm_";

#[derive(Serialize)]
struct SetupForm<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    customer: Option<&'a str>,
    /// Renewals of a monthly support charge the card with nobody present.
    usage: &'static str,
    #[serde(rename = "payment_method_types[0]")]
    card_only: &'static str,
}

#[derive(Serialize)]
struct AttachForm<'a> {
    customer: &'a str,
}

#[derive(Serialize)]
struct DefaultForm<'a> {
    #[serde(rename = "invoice_settings[default_payment_method]")]
    payment_method: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    default_source: Option<&'a str>,
}

#[derive(Serialize)]
struct ListQuery<'a> {
    customer: &'a str,
    #[serde(rename = "type")]
    kind: &'static str,
    limit: i64,
}

#[derive(Serialize)]
struct SourcesQuery {
    object: &'static str,
    limit: i64,
}

pub(crate) async fn start_setup(client: &Client, customer: Option<&CustomerId>) -> Result<CardSetup, GatewayError> {
    let form = SetupForm { customer: customer.map(CustomerId::as_str), usage: "off_session", card_only: "card" };
    let answer = send(client, RequestBuilder::new(StripeMethod::Post, "/setup_intents").form(&form), None).await?;
    let client_secret = text(&answer, "client_secret")?.to_owned();
    Ok(CardSetup { client_secret })
}

pub(crate) async fn set_up_card(client: &Client, client_secret: &str) -> Result<PaymentMethodId, GatewayError> {
    let unknown = || GatewayError::NotFound("no such card set-up".to_owned());
    let (id, _) = client_secret.split_once("_secret_").ok_or_else(unknown)?;
    let id = path_segment(id).ok().filter(|id| id.starts_with("seti_")).ok_or_else(unknown)?;
    let setup = send(client, RequestBuilder::new(StripeMethod::Get, format!("/setup_intents/{id}")), None).await?;
    let own_secret = setup.get("client_secret").and_then(Value::as_str) == Some(client_secret);
    let succeeded = setup.get("status").and_then(Value::as_str) == Some("succeeded");
    let method = setup.get("payment_method").and_then(|m| m.as_str().or_else(|| m.get("id").and_then(Value::as_str)));
    match method {
        Some(method) if own_secret && succeeded => Ok(PaymentMethodId::new(method)),
        _ => Err(unknown()),
    }
}

pub(crate) async fn card(client: &Client, id: &PaymentMethodId) -> Result<ProviderCard, GatewayError> {
    let method = payment_method(client, id).await?;
    let customer = method.get("customer").and_then(Value::as_str).map(CustomerId::new);
    Ok(ProviderCard { card: saved_card(&method)?, customer })
}

pub(crate) async fn attach(
    client: &Client,
    customer: &CustomerId,
    id: &PaymentMethodId,
) -> Result<SavedCard, GatewayError> {
    let path = format!("/payment_methods/{}/attach", pm_segment(id)?);
    let form = AttachForm { customer: customer.as_str() };
    let method = send(client, RequestBuilder::new(StripeMethod::Post, path).form(&form), None).await?;
    saved_card(&method)
}

pub(crate) async fn list(client: &Client, customer: &CustomerId) -> Result<CustomerCards, GatewayError> {
    let found = retrieve_customer(client, customer).await?;
    let sources_path = format!("/customers/{}/sources", path_segment(customer.as_str())?);
    let sources_query = SourcesQuery { object: "card", limit: MAX_LISTED };
    let sources =
        send(client, RequestBuilder::new(StripeMethod::Get, sources_path).query(&sources_query), None).await?;
    let methods_query = ListQuery { customer: customer.as_str(), kind: "card", limit: MAX_LISTED };
    let methods =
        send(client, RequestBuilder::new(StripeMethod::Get, "/payment_methods").query(&methods_query), None).await?;
    let mut cards = Vec::new();
    for item in listed(&sources).chain(listed(&methods)) {
        cards.push(saved_card(item)?);
    }
    Ok(CustomerCards { cards, default: default_of(&found) })
}

/// A PaymentMethod becomes the invoices' default; a legacy source becomes the
/// default source, and the PaymentMethod default is cleared so it rules.
pub(crate) async fn set_default(
    client: &Client,
    customer: &CustomerId,
    card: &PaymentMethodId,
) -> Result<(), GatewayError> {
    let form = if is_payment_method(card) {
        DefaultForm { payment_method: card.as_str(), default_source: None }
    } else {
        DefaultForm { payment_method: "", default_source: Some(card.as_str()) }
    };
    update_default(client, customer, &form).await
}

async fn clear_default(client: &Client, customer: &CustomerId) -> Result<(), GatewayError> {
    update_default(client, customer, &DefaultForm { payment_method: "", default_source: None }).await
}

async fn update_default(client: &Client, customer: &CustomerId, form: &DefaultForm<'_>) -> Result<(), GatewayError> {
    let path = format!("/customers/{}", path_segment(customer.as_str())?);
    send(client, RequestBuilder::new(StripeMethod::Post, path).form(form), None).await.map(|_| ())
}

/// Detaches a PaymentMethod or deletes a legacy source; when it was the
/// default, the first card left (if any) becomes the default.
pub(crate) async fn remove(client: &Client, customer: &CustomerId, card: &PaymentMethodId) -> Result<(), GatewayError> {
    let was_default = default_of(&retrieve_customer(client, customer).await?).as_ref() == Some(card);
    if is_payment_method(card) {
        let method = payment_method(client, card).await?;
        if method.get("customer").and_then(Value::as_str) != Some(customer.as_str()) {
            return Err(GatewayError::NotFound(format!("card {card} is not {customer}'s")));
        }
        let path = format!("/payment_methods/{}/detach", pm_segment(card)?);
        send(client, RequestBuilder::new(StripeMethod::Post, path), None).await?;
    } else {
        // Stripe answers with the removed card or a `deleted` stub: nothing in it is needed.
        let path = format!("/customers/{}/sources/{}", path_segment(customer.as_str())?, path_segment(card.as_str())?);
        send(client, RequestBuilder::new(StripeMethod::Delete, path), None).await?;
    }
    if !was_default {
        return Ok(());
    }
    let left = list(client, customer).await?;
    let default_left = left.default.as_ref().is_some_and(|default| left.cards.iter().any(|c| &c.id == default));
    match left.cards.first() {
        Some(next) if !default_left => set_default(client, customer, &next.id).await,
        None if left.default.is_some() => clear_default(client, customer).await,
        _ => Ok(()),
    }
}

fn is_payment_method(card: &PaymentMethodId) -> bool {
    card.as_str().starts_with(PAYMENT_METHOD_PREFIX)
}

fn pm_segment(id: &PaymentMethodId) -> Result<&str, GatewayError> {
    let segment = path_segment(id.as_str())?;
    if segment.starts_with(PAYMENT_METHOD_PREFIX) {
        Ok(segment)
    } else {
        Err(GatewayError::NotFound(format!("{id} is not a PaymentMethod")))
    }
}

async fn payment_method(client: &Client, id: &PaymentMethodId) -> Result<Value, GatewayError> {
    let path = format!("/payment_methods/{}", pm_segment(id)?);
    let method = send(client, RequestBuilder::new(StripeMethod::Get, path), None).await?;
    if method.get("type").and_then(Value::as_str) != Some("card") {
        return Err(GatewayError::NotFound(format!("{id} is not a card")));
    }
    Ok(method)
}

async fn retrieve_customer(client: &Client, customer: &CustomerId) -> Result<Value, GatewayError> {
    let path = format!("/customers/{}", path_segment(customer.as_str())?);
    let found = send(client, RequestBuilder::new(StripeMethod::Get, path), None).await?;
    if found.get("deleted").and_then(Value::as_bool) == Some(true) {
        return Err(GatewayError::NotFound(format!("customer {customer} was deleted")));
    }
    Ok(found)
}

/// The invoices' default PaymentMethod, else the default source.
fn default_of(customer: &Value) -> Option<PaymentMethodId> {
    let method = customer.pointer("/invoice_settings/default_payment_method");
    let source = customer.get("default_source");
    [method, source]
        .into_iter()
        .flatten()
        .find_map(|value| value.as_str().or_else(|| value.get("id").and_then(Value::as_str)))
        .filter(|id| !id.is_empty())
        .map(PaymentMethodId::new)
}

fn listed(answer: &Value) -> impl Iterator<Item = &Value> {
    answer.get("data").and_then(Value::as_array).into_iter().flatten()
}

/// A PaymentMethod (`card` inside) or a legacy card source (fields at the top).
fn saved_card(object: &Value) -> Result<SavedCard, GatewayError> {
    let id = text(object, "id")?;
    let card = object.get("card").unwrap_or(object);
    let number = |field: &str| card.get(field).and_then(Value::as_i64);
    let bad = |what: &str| GatewayError::Unexpected(format!("card {id}: {what}"));
    Ok(SavedCard {
        id: PaymentMethodId::new(id),
        brand: convert::brand(card.get("brand").and_then(Value::as_str).unwrap_or_default()).to_owned(),
        last4: card.get("last4").and_then(Value::as_str).ok_or_else(|| bad("no last4"))?.to_owned(),
        exp_month: number("exp_month")
            .and_then(|m| u8::try_from(m).ok())
            .filter(|m| (1..=12).contains(m))
            .ok_or_else(|| bad("no expiry month"))?,
        exp_year: number("exp_year").and_then(|y| u16::try_from(y).ok()).ok_or_else(|| bad("no expiry year"))?,
    })
}

fn text<'a>(object: &'a Value, field: &str) -> Result<&'a str, GatewayError> {
    object
        .get(field)
        .and_then(Value::as_str)
        .ok_or_else(|| GatewayError::Unexpected(format!("the provider's answer has no {field}")))
}
