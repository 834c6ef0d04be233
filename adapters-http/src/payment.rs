//! Backing a project (`/v1/payment/...`), the provider's webhook, and the
//! figures of step 4. The server prices every support itself; see
//! docs/api.md, "Backing a project".

use actix_web::web::{self, Json};
use actix_web::{get, post, FromRequest, HttpRequest};
use chrono::SecondsFormat;
use domain::account::Email;
use domain::ids::{ProjectId, ReturnId};
use domain::payment::{BankTransferInstructions, KonbiniVoucher, PayType, SaleStatus, BANK_TRANSFER_DEADLINE_TEXT};
use ports::payments::gateway::PaymentMethodId;
use ports::payments::ledger::SaleRecord;
use ports::payments::outcome::{SupportOutcome, WebhookApplyError};
use ports::payments::support::{AddressChoice, CardChoice, SupportOrder, Supporter, Supports};
use ports::payments::webhooks::Webhooks;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::auth::AuthUser;
use crate::error::ErrorBody;
use crate::profile::AddressRequest;
use crate::project::TaxLabel;
use crate::rate::{self, Subject};
use crate::receipt::Receipts;
use crate::wire_names::{NextActionKind, PaymentTypeCode, SaleStatusName, AUTHENTICATE};
use crate::ApiError;

pub(crate) fn config(cfg: &mut ServiceConfig) {
    cfg.service(place_support).service(support_status).service(quote).service(webhook);
}

/// Longest provider id (card, token) a request may carry.
const PROVIDER_ID_MAX_LEN: usize = 255;

/// The card to pay with: a saved card (`cardId`) or one just set up by
/// Stripe.js's `confirmCardSetup` (`paymentMethod`, optionally saved for members).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CardChoiceRequest {
    #[schema(example = "pm_1Abc")]
    card_id: Option<String>,
    /// The PaymentMethod of a confirmed card set-up (`POST /v1/stripe/set/cardSetup`).
    #[schema(example = "pm_1Abc")]
    payment_method: Option<String>,
    #[serde(default)]
    save: bool,
}

/// Everything step 1 to 3 collected; the server prices it.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SupportRequest {
    project_id: i64,
    return_id: i64,
    /// 1 to 10.
    lot: i64,
    /// 1 card, 2 bank transfer.
    #[schema(value_type = PaymentTypeCode)]
    payment_type: i32,
    /// Made once per confirm by the client (8-200 printable ASCII); the same key again continues the same sale.
    #[schema(example = "6f1c2a3e-1b2c-4d5e-8f90-a1b2c3d4e5f6")]
    idempotency_key: String,
    /// Display, company or organisation name, by the return's type.
    #[serde(default)]
    displayname: String,
    corporateurl: Option<String>,
    /// One of the member's uploaded logos.
    logo_url_id: Option<i64>,
    /// Sponsor lists show 匿名 instead of the name.
    #[serde(default)]
    anonymous: bool,
    comment: Option<String>,
    /// The answer to the project's additional question.
    additional_data: Option<String>,
    /// A delivery address typed at step 1 ...
    address: Option<AddressRequest>,
    /// ... or one of the member's saved addresses.
    address_id: Option<i64>,
    #[serde(default)]
    agree_terms: bool,
    #[serde(default)]
    not_antisocial: bool,
    card: Option<CardChoiceRequest>,
    /// Guests only (no Authorization header).
    guest_email: Option<String>,
    /// 上乗せ支援: whole yen added on top of the return, untaxed; absent or 0 for none. Not for monthly returns.
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 1000000, example = 1000)]
    extra_amount: Option<serde_json::Number>,
}

/// A JSON number as whole yen; a fraction or a number beyond `i64` is refused with the field's range message.
fn whole_yen(raw: Option<&serde_json::Number>) -> Result<Option<i64>, ApiError> {
    raw.map(|n| {
        n.as_i64().ok_or_else(|| {
            ApiError::fields([("extraAmount".to_string(), domain::extra_amount::MSG_EXTRA_AMOUNT_RANGE.to_string())])
        })
    })
    .transpose()
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SaleDto {
    id: i64,
    /// `pending`, `requires_action`, `awaiting_bank_transfer`, `processing`, `succeeded`, `canceled`, `failed`.
    #[schema(value_type = SaleStatusName)]
    status: &'static str,
    /// The status as the history shows it.
    status_label: &'static str,
    /// 1 card, 2 bank transfer.
    #[schema(value_type = PaymentTypeCode)]
    payment_type: i32,
    price: i64,
    lot: u8,
    amount: i64,
    tax: i64,
    /// 上乗せ支援 included in `total` (untaxed); 0 when none.
    extra_amount: i64,
    /// What the supporter pays, tax included, the extra included.
    total: i64,
    tax_label: TaxLabel,
    /// ISO 8601, Tokyo time.
    created_at: String,
    project_title: String,
    project_slug: String,
    return_title: String,
    displayname: String,
}

/// Where and until when to transfer.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct BankTransferDto {
    amount_remaining: i64,
    #[schema(required = true)]
    reference: Option<String>,
    bank_name: String,
    branch_name: String,
    /// The provider's code (`futsu`).
    account_type: String,
    /// 普通
    account_type_label: String,
    account_number: String,
    account_holder_name: String,
    /// Last day to transfer, `YYYY-MM-DD` (Asia/Tokyo).
    #[schema(required = true)]
    deadline: Option<String>,
    deadline_text: &'static str,
}

/// Where to pay a konbini voucher, and until when.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct KonbiniVoucherDto {
    /// The voucher expires then (ISO 8601, Tokyo time): 23:59:59 of the last day.
    expires_at: String,
    /// The same, as the screens write it: `2026年11月29日（日）23:59`.
    expires_at_text: String,
    /// The provider's printable voucher page.
    #[schema(required = true)]
    hosted_voucher_url: Option<String>,
    /// The chains where it can be paid, in the provider's order.
    stores: Vec<KonbiniStoreDto>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct KonbiniStoreDto {
    /// `familymart`, `lawson`, `ministop` or `seicomart`.
    chain: String,
    /// ファミリーマート, ローソン, ミニストップ, セイコーマート.
    chain_name: &'static str,
    /// お客様番号 / 受付番号.
    payment_code: String,
    /// 確認番号, when the chain asks for one.
    #[schema(required = true)]
    confirmation_number: Option<String>,
}

impl KonbiniVoucherDto {
    pub(crate) fn new(voucher: &KonbiniVoucher) -> Self {
        Self {
            expires_at: voucher
                .expires_at
                .with_timezone(&domain::time::tokyo())
                .to_rfc3339_opts(SecondsFormat::Secs, true),
            expires_at_text: ports::payments::mails::japanese_date_time(voucher.expires_at),
            hosted_voucher_url: voucher.hosted_voucher_url.clone(),
            stores: voucher
                .stores
                .iter()
                .map(|s| KonbiniStoreDto {
                    chain: serde_json::to_value(s.chain)
                        .ok()
                        .and_then(|v| v.as_str().map(str::to_string))
                        .unwrap_or_default(),
                    chain_name: s.chain.label(),
                    payment_code: s.payment_code.clone(),
                    confirmation_number: s.confirmation_number.clone(),
                })
                .collect(),
        }
    }
}

/// The voucher of a konbini sale still waiting for the store.
pub(crate) fn konbini_dto(
    pay_type: PayType,
    status: SaleStatus,
    voucher: Option<&KonbiniVoucher>,
) -> Option<KonbiniVoucherDto> {
    let waiting = pay_type == PayType::Konbini && status == SaleStatus::RequiresAction;
    voucher.filter(|_| waiting).map(KonbiniVoucherDto::new)
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct NextActionDto {
    /// `authenticate`: finish 3-D Secure with `stripe.confirmCardPayment(clientSecret)`, then read the status.
    #[serde(rename = "type")]
    #[schema(value_type = NextActionKind)]
    kind: &'static str,
    client_secret: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SupportResult {
    sale: SaleDto,
    /// Opaque proof of this sale for `GET /v1/payment/get/status` (guests have no session).
    receipt: String,
    #[schema(required = true)]
    next_action: Option<NextActionDto>,
    #[schema(required = true)]
    bank_transfer: Option<BankTransferDto>,
    /// A konbini sale waiting for the store: the voucher.
    #[schema(required = true)]
    konbini: Option<KonbiniVoucherDto>,
    /// The monthly support this support started (our subscription id); absent for a one-off support.
    #[serde(skip_serializing_if = "Option::is_none")]
    subscription_id: Option<i64>,
}

fn bank_transfer_dto(sale: &SaleRecord) -> Option<BankTransferDto> {
    let waiting = matches!(sale.status, SaleStatus::AwaitingBankTransfer | SaleStatus::RequiresAction);
    let instructions = sale.instructions.as_ref().filter(|_| waiting && sale.pay_type == PayType::BankTransfer)?;
    Some(BankTransferDto::new(
        instructions,
        sale.amount_remaining.unwrap_or(instructions.amount_remaining),
        sale.transfer_deadline,
    ))
}

impl BankTransferDto {
    pub(crate) fn new(
        instructions: &BankTransferInstructions,
        amount_remaining: domain::money::Yen,
        deadline: Option<chrono::NaiveDate>,
    ) -> Self {
        Self {
            amount_remaining: amount_remaining.value(),
            reference: instructions.reference.clone(),
            bank_name: instructions.bank_name.clone(),
            branch_name: instructions.branch_name.clone(),
            account_type: instructions.account_type.code().to_string(),
            account_type_label: instructions.account_type.label().to_string(),
            account_number: instructions.account_number.clone(),
            account_holder_name: instructions.account_holder_name.clone(),
            deadline: deadline.map(|d| d.format("%Y-%m-%d").to_string()),
            deadline_text: BANK_TRANSFER_DEADLINE_TEXT,
        }
    }
}

fn sale_dto(sale: &SaleRecord) -> SaleDto {
    SaleDto {
        id: sale.id.get(),
        status: sale.status.as_str(),
        status_label: sale.status.history_label(sale.pay_type),
        payment_type: sale.pay_type.code(),
        price: sale.terms.price.value(),
        lot: sale.terms.lot.get(),
        amount: sale.terms.amount.value(),
        tax: sale.terms.tax.value(),
        extra_amount: sale.terms.extra.value(),
        total: sale.terms.total.value(),
        tax_label: sale.terms.mode.into(),
        created_at: sale.created_at.with_timezone(&domain::time::tokyo()).to_rfc3339_opts(SecondsFormat::Secs, true),
        project_title: sale.project_title.clone(),
        project_slug: sale.project_slug.clone(),
        return_title: sale.return_title.clone(),
        displayname: sale.display_name.clone(),
    }
}

fn result(outcome: SupportOutcome, receipts: &Receipts) -> Result<SupportResult, ApiError> {
    let receipt = receipts.issue(outcome.sale.id).map_err(|e| ApiError::internal(e.as_ref()))?;
    Ok(SupportResult {
        sale: sale_dto(&outcome.sale),
        receipt,
        next_action: outcome.authenticate.map(|client_secret| NextActionDto { kind: AUTHENTICATE, client_secret }),
        bank_transfer: bank_transfer_dto(&outcome.sale),
        konbini: konbini_dto(outcome.sale.pay_type, outcome.sale.status, outcome.sale.voucher.as_ref()),
        subscription_id: outcome.subscription,
    })
}

fn provider_id(raw: &str, prefixes: &[&str], field: &str) -> Result<String, ApiError> {
    let valid = raw.len() <= PROVIDER_ID_MAX_LEN
        && prefixes.iter().any(|p| raw.starts_with(p))
        && raw.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    if valid {
        Ok(raw.to_string())
    } else {
        Err(ApiError::validation(format!("{field}の形式が正しくありません。")))
    }
}

/// A saved card id: Stripe's `card_...` (sources) or `pm_...` (payment methods).
pub(crate) fn card_id(raw: &str) -> Result<PaymentMethodId, ApiError> {
    provider_id(raw, &["card_", "pm_", "src_"], "カード").map(PaymentMethodId::new)
}

/// A card the browser just set up: always a PaymentMethod.
pub(crate) fn new_card_id(raw: &str) -> Result<PaymentMethodId, ApiError> {
    provider_id(raw, &["pm_"], "カード").map(PaymentMethodId::new)
}

impl SupportRequest {
    fn into_order(self, supporter: Supporter) -> Result<SupportOrder, ApiError> {
        let pay_type = PayType::from_code(self.payment_type)
            .map_err(|_| ApiError::validation("お支払い方法を選択してください。"))?;
        let card = match self.card {
            None => None,
            Some(CardChoiceRequest { card_id: Some(id), payment_method: None, .. }) => {
                Some(CardChoice::Saved(card_id(&id)?))
            }
            Some(CardChoiceRequest { card_id: None, payment_method: Some(card), save }) => {
                Some(CardChoice::New { card: new_card_id(&card)?, save })
            }
            Some(_) => {
                return Err(ApiError::validation("カードはcardIdかpaymentMethodのどちらか一方で指定してください。"))
            }
        };
        let extra_amount = whole_yen(self.extra_amount.as_ref())?;
        let address = match (self.address, self.address_id) {
            (Some(_), Some(_)) => {
                return Err(ApiError::validation("お届け先は入力か選択のどちらか一方にしてください。"))
            }
            (Some(typed), None) => Some(AddressChoice::New(typed.into_input())),
            (None, Some(id)) => Some(AddressChoice::Saved(id)),
            (None, None) => None,
        };
        Ok(SupportOrder {
            supporter,
            project: ProjectId(self.project_id),
            ret: ReturnId(self.return_id),
            lot: self.lot,
            pay_type,
            idempotency_key: self.idempotency_key,
            supporter_name: self.displayname,
            corporate_url: self.corporateurl.filter(|u| !u.trim().is_empty()),
            logo_url_id: self.logo_url_id,
            anonymous: self.anonymous,
            comment: self.comment,
            additional_value: self.additional_data,
            address,
            agreed_to_terms: self.agree_terms,
            not_antisocial: self.not_antisocial,
            card,
            extra_amount,
        })
    }
}

/// Place a support (step 4's confirm): one call that validates step 1,
/// prices the return, writes the sale and takes the stock in one
/// transaction, then charges the card or opens the bank transfer.
///
/// Members send their login token; guests send none and give `guestEmail`. The
/// same `idempotencyKey` again answers with the same sale and never
/// charges twice. Client-sent amounts do not exist: the server prices.
#[utoipa::path(
    tag = "payment",
    request_body = SupportRequest,
    responses(
        (status = 200, description = "The sale: paid, waiting for 3-D Secure (`nextAction`), for the transfer (`bankTransfer`) or for the konbini payment (`konbini`: the voucher)", body = SupportResult),
        (status = 400, description = "`validation_failed` (every refused field in `errors`), `payment_type_not_accepted`, `malformed_request`", body = ErrorBody),
        (status = 401, description = "A token that is not valid, or a saved card or address without one", body = ErrorBody),
        (status = 402, description = "`card_declined`: the sale failed and released its lots; try another card with a new key", body = ErrorBody),
        (status = 404, description = "`not_found`: project, return, card or address", body = ErrorBody),
        (status = 409, description = "`sold_out`, `not_enough_left`, `disabled`, `project_ended`, `transfer_awaited` (the supporter already waits to pay a transfer for this limited return), `transfer_share_taken` (unpaid transfers hold half the limited stock already), `member_exists`, `monthly_refused` (a monthly return backed by a guest or by bank transfer, `monthly_running` (the member already supports this return monthly: see 毎月のご支援 on my page), `idempotency_key_reused` (the key of an earlier order sent with another project, return, lots or method; nothing written), `payment_type_unavailable` (konbini near the project's end: its voucher would expire after it)", body = ErrorBody),
        (status = 429, description = "`rate_limited`", body = ErrorBody),
        (status = 503, description = "`payment_unavailable`: the sale waits; retry with the same key", body = ErrorBody),
    ),
    security((), ("bearer" = []))
)]
#[post("/payment/set/support")]
async fn place_support(
    req: HttpRequest,
    supports: web::Data<dyn Supports>,
    receipts: web::Data<Receipts>,
    body: Json<SupportRequest>,
) -> Result<Json<SupportResult>, ApiError> {
    rate::enforce(&req, &[(rate::SUPPORT_PER_IP, Subject::Ip)]).await?;
    let body = body.into_inner();
    let supporter = if req.headers().contains_key(actix_web::http::header::AUTHORIZATION) {
        let user = AuthUser::extract(&req).await?;
        Supporter::Member(user.0.id)
    } else {
        let raw = body.guest_email.as_deref().unwrap_or_default();
        let email = Email::parse(raw).map_err(|e| ApiError::validation(e.to_string()))?;
        Supporter::Guest(email)
    };
    let outcome = supports.place(body.into_order(supporter)?).await?;
    Ok(Json(result(outcome, &receipts)?))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct StatusQuery {
    /// The `receipt` of the support's answer.
    #[param(max_length = 1000)]
    receipt: String,
}

/// The support now: the complete page after a reload, and after 3-D Secure
/// (the server asks the provider when the sale is not final).
#[utoipa::path(
    tag = "payment",
    params(StatusQuery),
    responses(
        (status = 200, description = "The sale", body = SupportResult),
        (status = 400, description = "`malformed_request`: no receipt", body = ErrorBody),
        (status = 404, description = "`not_found`: unknown or forged receipt", body = ErrorBody),
    )
)]
#[get("/payment/get/status")]
async fn support_status(
    supports: web::Data<dyn Supports>,
    receipts: web::Data<Receipts>,
    query: web::Query<StatusQuery>,
) -> Result<Json<SupportResult>, ApiError> {
    let sale = receipts.verify(&query.receipt).ok_or(ApiError::NotFound)?;
    let outcome = supports.status(sale).await?;
    Ok(Json(result(outcome, &receipts)?))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub(crate) struct QuoteQuery {
    project_id: i64,
    return_id: i64,
    /// 1 to 10.
    lot: i64,
    /// 上乗せ支援 in whole yen, 0 to 1,000,000; absent for none.
    #[param(minimum = 0, maximum = 1000000)]
    extra_amount: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct QuoteResponse {
    price: i64,
    lot: u8,
    amount: i64,
    tax: i64,
    /// 上乗せ支援, untaxed; 0 when none.
    extra_amount: i64,
    /// What the support call charges: the return's tax-included total plus the extra.
    total: i64,
    tax_label: TaxLabel,
    /// Percent applied (0 for donations).
    tax_rate: u32,
}

/// The figures of `lot` units of a return, as the support call charges them.
#[utoipa::path(
    tag = "payment",
    params(QuoteQuery),
    responses(
        (status = 200, description = "Price, tax, extra amount and total", body = QuoteResponse),
        (status = 400, description = "`validation_failed` (`lot`, `extraAmount`)", body = ErrorBody),
        (status = 404, description = "`not_found`", body = ErrorBody),
    )
)]
#[get("/payment/get/quote")]
async fn quote(
    supports: web::Data<dyn Supports>,
    viewer: crate::auth::MaybeAuthUser,
    query: web::Query<QuoteQuery>,
) -> Result<Json<QuoteResponse>, ApiError> {
    let viewer = viewer.0.map(|user| user.email);
    let terms = supports
        .quote(ProjectId(query.project_id), ReturnId(query.return_id), query.lot, query.extra_amount, viewer)
        .await?;
    Ok(Json(QuoteResponse {
        price: terms.price.value(),
        lot: terms.lot.get(),
        amount: terms.amount.value(),
        tax: terms.tax.value(),
        extra_amount: terms.extra.value(),
        total: terms.total.value(),
        tax_label: terms.mode.into(),
        tax_rate: terms.rate.percent(),
    }))
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct WebhookResponse {
    received: bool,
}

/// Largest webhook body accepted (Stripe's events are a few kilobytes).
const WEBHOOK_MAX_BYTES: usize = 256 * 1024;

/// The payment provider's signed events. Each event id is applied once, in
/// any order; types we do not use are acknowledged and ignored.
#[utoipa::path(
    tag = "payment",
    request_body(content = String, content_type = "application/json"),
    params(("Stripe-Signature" = String, Header, description = "`t=...,v1=...`")),
    responses(
        (status = 200, description = "Received", body = WebhookResponse),
        (status = 400, description = "`bad_signature`: not signed with our secret, too old, or unreadable", body = ErrorBody),
        (status = 413, description = "Too large", body = ErrorBody),
    )
)]
#[post("/stripe/webhook")]
async fn webhook(
    req: HttpRequest,
    webhooks: web::Data<dyn Webhooks>,
    refunds: web::Data<dyn ports::admin::refunds::Refunds>,
    payload: web::Payload,
) -> Result<Json<WebhookResponse>, ApiError> {
    // Read here, not by the `Bytes` extractor, whose own limit answers in plain text.
    let body = match payload.to_bytes_limited(WEBHOOK_MAX_BYTES).await {
        Ok(Ok(body)) => body,
        Ok(Err(_)) => return Err(crate::error::malformed_request()),
        Err(_) => return Err(ApiError::TooLarge),
    };
    let refused =
        || ApiError::BadRequest { code: "bad_signature", message: "署名を確認できませんでした。".into() };
    let payload = std::str::from_utf8(&body).map_err(|_| refused())?;
    let signature = req.headers().get("Stripe-Signature").and_then(|v| v.to_str().ok()).ok_or_else(refused)?;
    match webhooks.apply_webhook(payload, signature).await {
        Ok(()) => {
            // Signed and recorded: a refund that changed (a supporter named a bank account, say) is read back
            // from the provider now, as the open-refund sweep would in a while.
            if is_refund_event(payload) {
                if let Err(error) = refunds.sweep_open_refunds().await {
                    tracing::warn!(%error, "open refunds not updated on a refund event; the sweep retries");
                }
            }
            Ok(Json(WebhookResponse { received: true }))
        }
        Err(WebhookApplyError::Refused(error)) => {
            tracing::warn!(%error, "webhook refused");
            Err(refused())
        }
        Err(WebhookApplyError::Failed(error)) => Err(ApiError::internal(error.as_ref())),
    }
}

/// `refund.created`, `refund.updated`, `refund.failed` or `charge.refunded`.
fn is_refund_event(payload: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(payload)
        .ok()
        .and_then(|event| event.get("type")?.as_str().map(|t| t.starts_with("refund.") || t == "charge.refunded"))
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use actix_web::http::StatusCode;
    use actix_web::{test, App};
    use ports::admin::refunds::MockRefunds;
    use ports::payments::outcome::{FieldProblem, SupportError};
    use ports::payments::support::MockSupports;
    use ports::payments::webhooks::MockWebhooks;
    use serde_json::json;

    use super::*;
    use crate::configure;
    use crate::test_support::Mocks;

    async fn call(supports: MockSupports, req: test::TestRequest) -> (StatusCode, serde_json::Value) {
        let services = Mocks { supports, ..Mocks::default() }.into_services();
        let app = test::init_service(App::new().configure(configure(services))).await;
        let resp = test::call_service(&app, req.to_request()).await;
        let status = resp.status();
        let body = serde_json::from_slice(&test::read_body(resp).await).unwrap_or_default();
        (status, body)
    }

    fn guest_support() -> serde_json::Value {
        json!({
            "projectId": 1, "returnId": 3, "lot": 1, "paymentType": 2, "idempotencyKey": "key-00000001",
            "displayname": "山田", "agreeTerms": true, "notAntisocial": true, "guestEmail": "guest@example.jp"
        })
    }

    #[actix_web::test]
    async fn a_guest_support_goes_to_the_use_case_with_the_guests_address_and_no_amounts() {
        let mut supports = MockSupports::new();
        supports
            .expect_place()
            .withf(|order| {
                order.supporter == Supporter::Guest(Email::parse("guest@example.jp").unwrap())
                    && order.pay_type == PayType::BankTransfer
                    && order.card.is_none()
            })
            .returning(|_| Err(SupportError::Blocked(domain::returns::PurchaseBlock::SoldOut)));
        let req = test::TestRequest::post().uri("/v1/payment/set/support").set_json(guest_support());

        let (status, body) = call(supports, req).await;

        assert_eq!(status, StatusCode::CONFLICT);
        assert_eq!(body["error"], "sold_out");
        assert_eq!(body["message"], "支援上限に達しました");
    }

    #[actix_web::test]
    async fn a_forged_token_is_refused_rather_than_treated_as_a_guest() {
        let mut supports = MockSupports::new();
        supports.expect_place().never();
        let mut sessions = ports::accounts::MockSessions::new();
        sessions.expect_authenticate().returning(|_| Err(ports::accounts::AuthError::Unauthenticated));
        let services = Mocks { supports, sessions, ..Mocks::default() }.into_services();
        let app = test::init_service(App::new().configure(configure(services))).await;
        let req = test::TestRequest::post()
            .uri("/v1/payment/set/support")
            .insert_header(("Authorization", "Bearer forged"))
            .set_json(guest_support())
            .to_request();

        assert_eq!(test::call_service(&app, req).await.status(), StatusCode::UNAUTHORIZED);
    }

    #[actix_web::test]
    async fn every_refused_field_comes_back_with_its_message() {
        let mut supports = MockSupports::new();
        supports.expect_place().returning(|_| {
            Err(SupportError::Invalid(vec![
                FieldProblem { field: "displayname", message: "表示名を入力してください。".into() },
                FieldProblem { field: "agreeTerms", message: "利用規約に同意してください。".into() },
            ]))
        });
        let req = test::TestRequest::post().uri("/v1/payment/set/support").set_json(guest_support());

        let (status, body) = call(supports, req).await;

        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(body["message"], "表示名を入力してください。");
        assert_eq!(body["errors"][1]["field"], "agreeTerms");
    }

    #[actix_web::test]
    async fn a_declined_card_is_402_and_an_absent_provider_503_with_the_specs_text() {
        for (error, status, code, message) in [
            (
                SupportError::Declined,
                StatusCode::PAYMENT_REQUIRED,
                "card_declined",
                ports::payments::outcome::MSG_CARD_DECLINED,
            ),
            (
                SupportError::Unavailable,
                StatusCode::SERVICE_UNAVAILABLE,
                "payment_unavailable",
                "決済の登録に失敗しました",
            ),
        ] {
            let mut supports = MockSupports::new();
            let mut error = Some(error);
            supports.expect_place().returning(move |_| Err(error.take().unwrap()));
            let mut body = guest_support();
            body["paymentType"] = json!(1);
            body["card"] = json!({"paymentMethod": "pm_abc"});
            let req = test::TestRequest::post().uri("/v1/payment/set/support").set_json(body);

            let (got, body) = call(supports, req).await;

            assert_eq!(got, status);
            assert_eq!(body["error"], code);
            assert_eq!(body["message"], message);
        }
    }

    #[actix_web::test]
    async fn malformed_card_ids_and_guest_addresses_never_reach_the_use_case() {
        for (field, value) in [
            ("card", json!({"token": "4242424242424242"})),
            ("card", json!({"cardId": "card_1", "paymentMethod": "pm_1"})),
            ("guestEmail", json!("not-an-address")),
            ("paymentType", json!(4)),
        ] {
            let mut supports = MockSupports::new();
            supports.expect_place().never();
            let mut body = guest_support();
            body[field] = value;
            let req = test::TestRequest::post().uri("/v1/payment/set/support").set_json(body);
            let (status, _) = call(supports, req).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{field}");
        }
    }

    #[actix_web::test]
    async fn an_extra_amount_reaches_the_use_case_as_whole_yen_and_a_fraction_never_does() {
        let mut supports = MockSupports::new();
        supports
            .expect_place()
            .withf(|order| order.extra_amount == Some(1_500))
            .times(1)
            .returning(|_| Err(SupportError::Blocked(domain::returns::PurchaseBlock::SoldOut)));
        let mut body = guest_support();
        body["extraAmount"] = json!(1_500);
        // A client total means nothing: the server prices.
        body["total"] = json!(1);
        let (status, _) = call(supports, test::TestRequest::post().uri("/v1/payment/set/support").set_json(body)).await;
        assert_eq!(status, StatusCode::CONFLICT);

        for fraction in [json!(100.5), json!(1e30)] {
            let mut supports = MockSupports::new();
            supports.expect_place().never();
            let mut body = guest_support();
            body["extraAmount"] = fraction;
            let req = test::TestRequest::post().uri("/v1/payment/set/support").set_json(body);
            let (status, body) = call(supports, req).await;
            assert_eq!(status, StatusCode::BAD_REQUEST);
            assert_eq!(body["errors"][0]["field"], "extraAmount");
            assert_eq!(body["message"], domain::extra_amount::MSG_EXTRA_AMOUNT_RANGE);
        }
    }

    #[actix_web::test]
    async fn a_status_needs_a_genuine_receipt() {
        let mut supports = MockSupports::new();
        supports.expect_status().never();
        let req = test::TestRequest::get().uri("/v1/payment/get/status?receipt=41");
        let (status, _) = call(supports, req).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
    }

    #[actix_web::test]
    async fn a_refund_event_updates_the_open_refunds_and_a_payment_event_does_not() {
        for (event_type, sweeps) in [("refund.updated", 1), ("charge.refunded", 1), ("payment_intent.succeeded", 0)] {
            let mut webhooks = MockWebhooks::new();
            webhooks.expect_apply_webhook().times(1).returning(|_, _| Ok(()));
            let mut refunds = MockRefunds::new();
            refunds.expect_sweep_open_refunds().times(sweeps).returning(|| Ok(1));
            let services = Mocks { webhooks, refunds, ..Mocks::default() }.into_services();
            let app = test::init_service(App::new().configure(configure(services))).await;
            let req = test::TestRequest::post()
                .uri("/v1/stripe/webhook")
                .insert_header(("Stripe-Signature", "t=1,v1=checked-by-the-use-case"))
                .set_payload(json!({"id": "evt_1", "type": event_type}).to_string())
                .to_request();
            let resp = test::call_service(&app, req).await;
            assert_eq!(resp.status(), StatusCode::OK, "{event_type}");
        }
    }

    #[actix_web::test]
    async fn a_webhook_without_a_signature_is_refused_before_the_use_case() {
        let mut webhooks = MockWebhooks::new();
        webhooks.expect_apply_webhook().never();
        let services = Mocks { webhooks, ..Mocks::default() }.into_services();
        let app = test::init_service(App::new().configure(configure(services))).await;
        let req = test::TestRequest::post().uri("/v1/stripe/webhook").set_payload("{}").to_request();
        let resp = test::call_service(&app, req).await;
        let status = resp.status();
        let body: serde_json::Value = test::read_body_json(resp).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(body["error"], "bad_signature");
    }
}
