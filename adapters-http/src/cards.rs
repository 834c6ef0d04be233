//! A member's saved cards (`/v1/stripe/customer/...`, the seed's paths). The
//! server always works on the caller's own provider customer: a
//! `customer_id` sent by a client is ignored.

use actix_web::web::{self, Json};
use actix_web::{get, post};
use ports::payments::cards::Cards;
use ports::payments::gateway::{CustomerCards, SavedCard};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::auth::AuthUser;
use crate::error::ErrorBody;
use crate::payment::{card_id, card_token};
use crate::ApiError;

pub(crate) fn config(cfg: &mut ServiceConfig) {
    cfg.service(list_cards).service(register_card).service(change_default_card).service(delete_card);
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CardDto {
    #[schema(example = "card_1Abc")]
    id: String,
    /// Visa, MasterCard, American Express, JCB, Diners Club, Discover.
    brand: String,
    last4: String,
    exp_month: u8,
    exp_year: u16,
}

impl From<SavedCard> for CardDto {
    fn from(card: SavedCard) -> Self {
        Self {
            id: card.id.as_str().to_string(),
            brand: card.brand,
            last4: card.last4,
            exp_month: card.exp_month,
            exp_year: card.exp_year,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct CardsDto {
    cards: Vec<CardDto>,
    /// The card charged unless another is chosen.
    #[schema(required = true)]
    default: Option<String>,
}

impl From<CustomerCards> for CardsDto {
    fn from(all: CustomerCards) -> Self {
        Self {
            cards: all.cards.into_iter().map(CardDto::from).collect(),
            default: all.default.map(|id| id.as_str().to_string()),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct CardsResponse {
    data: CardsDto,
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct RegisteredCardResponse {
    card: CardDto,
    data: CardsDto,
}

/// The member's saved cards and the default one.
#[utoipa::path(
    tag = "cards",
    responses(
        (status = 200, description = "The cards (none before the first)", body = CardsResponse),
        (status = 401, description = "`unauthorized`", body = ErrorBody),
        (status = 503, description = "`payment_unavailable`", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[get("/stripe/customer/get/cards")]
async fn list_cards(user: AuthUser, cards: web::Data<dyn Cards>) -> Result<Json<CardsResponse>, ApiError> {
    Ok(Json(CardsResponse { data: cards.list(user.0.id).await?.into() }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RegisterCardRequest {
    /// The token Stripe.js made from the card form (`tok_...`).
    #[schema(example = "tok_1Abc")]
    source: String,
    /// The seed's flag; registering is all this call does.
    #[serde(default)]
    #[allow(dead_code)]
    is_card_regist: Option<bool>,
}

/// Register a card (the first one also makes the member's provider customer
/// and becomes the default).
#[utoipa::path(
    tag = "cards",
    request_body = RegisterCardRequest,
    responses(
        (status = 200, description = "The card added, and all cards", body = RegisteredCardResponse),
        (status = 400, description = "`validation_failed` (`source`)", body = ErrorBody),
        (status = 401, description = "`unauthorized`", body = ErrorBody),
        (status = 402, description = "`card_declined`", body = ErrorBody),
        (status = 502, description = "`customer_failed`: 顧客情報登録に失敗しました。", body = ErrorBody),
        (status = 503, description = "`payment_unavailable`", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[post("/stripe/customer/set/updater")]
async fn register_card(
    user: AuthUser,
    cards: web::Data<dyn Cards>,
    body: Json<RegisterCardRequest>,
) -> Result<Json<RegisteredCardResponse>, ApiError> {
    let token = card_token(&body.source)?;
    let (card, all) = cards.register(user.0.id, token).await?;
    Ok(Json(RegisteredCardResponse { card: card.into(), data: all.into() }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub(crate) struct CardIdRequest {
    #[schema(example = "card_1Abc")]
    card_id: String,
}

/// Make one of the member's cards the default.
#[utoipa::path(
    tag = "cards",
    request_body = CardIdRequest,
    responses(
        (status = 200, description = "All cards, with the new default", body = CardsResponse),
        (status = 400, description = "`validation_failed` (`card_id`) or `malformed_request`", body = ErrorBody),
        (status = 401, description = "`unauthorized`", body = ErrorBody),
        (status = 404, description = "`not_found`: not one of the member's cards", body = ErrorBody),
        (status = 503, description = "`payment_unavailable`", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[post("/stripe/customer/set/changeDefaultCard")]
async fn change_default_card(
    user: AuthUser,
    cards: web::Data<dyn Cards>,
    body: Json<CardIdRequest>,
) -> Result<Json<CardsResponse>, ApiError> {
    let card = card_id(&body.card_id)?;
    Ok(Json(CardsResponse { data: cards.set_default(user.0.id, card).await?.into() }))
}

/// Delete one of the member's cards.
#[utoipa::path(
    tag = "cards",
    request_body = CardIdRequest,
    responses(
        (status = 200, description = "The cards left", body = CardsResponse),
        (status = 400, description = "`validation_failed` (`card_id`) or `malformed_request`", body = ErrorBody),
        (status = 401, description = "`unauthorized`", body = ErrorBody),
        (status = 404, description = "`not_found`: not one of the member's cards", body = ErrorBody),
        (status = 503, description = "`payment_unavailable`", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[post("/stripe/customer/set/deleteCard")]
async fn delete_card(
    user: AuthUser,
    cards: web::Data<dyn Cards>,
    body: Json<CardIdRequest>,
) -> Result<Json<CardsResponse>, ApiError> {
    let card = card_id(&body.card_id)?;
    Ok(Json(CardsResponse { data: cards.delete(user.0.id, card).await?.into() }))
}
