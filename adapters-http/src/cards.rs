//! Cards: the set-up a browser confirms with Stripe.js (`/v1/stripe/set/cardSetup`)
//! and a member's saved cards (`/v1/stripe/customer/...`, the seed's paths). The
//! server always works on the caller's own provider customer: a
//! `customer_id` sent by a client is ignored.

use actix_web::web::{self, Json};
use actix_web::{get, post, FromRequest, HttpRequest};
use ports::payments::cards::Cards;
use ports::payments::gateway::{CustomerCards, SavedCard};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::auth::AuthUser;
use crate::error::ErrorBody;
use crate::payment::{card_id, new_card_id};
use crate::rate::{self, Subject};
use crate::ApiError;

pub(crate) fn config(cfg: &mut ServiceConfig) {
    cfg.service(start_card_setup)
        .service(set_up_card)
        .service(list_cards)
        .service(register_card)
        .service(change_default_card)
        .service(delete_card);
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CardSetupResponse {
    /// For `stripe.confirmCardSetup(clientSecret, {payment_method: {card}})`.
    #[schema(example = "seti_1Abc_secret_xyz")]
    client_secret: String,
}

/// Start setting up a card: the browser confirms it with Stripe.js (the card
/// goes to the provider, never here; 3-D Secure when the card asks) and sends
/// the resulting PaymentMethod to register it or to pay with it. With a login
/// token the card is set up under the member's customer (made on the first
/// card); a guest's is set up under nobody until the support.
#[utoipa::path(
    tag = "cards",
    responses(
        (status = 200, description = "The set-up's client secret", body = CardSetupResponse),
        (status = 401, description = "A login token that is not valid", body = ErrorBody),
        (status = 429, description = "`rate_limited`", body = ErrorBody),
        (status = 502, description = "`customer_failed`: 顧客情報登録に失敗しました。", body = ErrorBody),
        (status = 503, description = "`payment_unavailable`", body = ErrorBody),
    ),
    security((), ("bearer" = []))
)]
#[post("/stripe/set/cardSetup")]
async fn start_card_setup(req: HttpRequest, cards: web::Data<dyn Cards>) -> Result<Json<CardSetupResponse>, ApiError> {
    rate::enforce(&req, &[(rate::CARD_SETUP_PER_IP, Subject::Ip)]).await?;
    let user = if req.headers().contains_key(actix_web::http::header::AUTHORIZATION) {
        Some(AuthUser::extract(&req).await?.0.id)
    } else {
        None
    };
    let setup = cards.setup(user).await?;
    Ok(Json(CardSetupResponse { client_secret: setup.client_secret }))
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CardDto {
    #[schema(example = "pm_1Abc")]
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

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CardSetupRequest {
    /// The client secret of the set-up Stripe.js confirmed (in the body, so no URL or log keeps it).
    #[schema(max_length = 200)]
    client_secret: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct SetUpCardResponse {
    card: CardDto,
}

/// The card a confirmed set-up made (its id is the `paymentMethod` to pay
/// with), so that the confirm step can show its brand and last digits.
#[utoipa::path(
    tag = "cards",
    request_body = CardSetupRequest,
    responses(
        (status = 200, description = "The card", body = SetUpCardResponse),
        (status = 400, description = "`malformed_request`: no client secret", body = ErrorBody),
        (status = 429, description = "`rate_limited`", body = ErrorBody),
        (status = 404, description = "`not_found`: no set-up with that secret, or not confirmed", body = ErrorBody),
        (status = 503, description = "`payment_unavailable`", body = ErrorBody),
    )
)]
#[post("/stripe/get/cardSetup")]
async fn set_up_card(
    req: HttpRequest,
    cards: web::Data<dyn Cards>,
    body: Json<CardSetupRequest>,
) -> Result<Json<SetUpCardResponse>, ApiError> {
    rate::enforce(&req, &[(rate::CARD_SETUP_PER_IP, Subject::Ip)]).await?;
    if body.client_secret.len() > 200 {
        return Err(ApiError::NotFound);
    }
    Ok(Json(SetUpCardResponse { card: cards.set_up_card(&body.client_secret).await?.into() }))
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
    /// The PaymentMethod of the set-up Stripe.js confirmed (`pm_...`).
    #[schema(example = "pm_1Abc")]
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
        (status = 404, description = "`not_found`: no such card, or another customer's", body = ErrorBody),
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
    let card = new_card_id(&body.source)?;
    let (card, all) = cards.register(user.0.id, card).await?;
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
