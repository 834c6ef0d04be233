//! My page: `/v1/user/get/authUser`, profile, images, company data,
//! delivery address, postal-code look-up, payment history and display names.
//! Every call acts on the token's user only.

use actix_multipart::Multipart;
use actix_web::web::{self, Json, Query};
use actix_web::{get, post, HttpRequest};
use domain::money::Yen;
use domain::profile::{
    company_name, display_name, parse_optional_url, AddressInput, ProfileInput, UploadError, MAX_UPLOAD_BYTES,
};
use futures_util::StreamExt;
use ports::accounts::{
    HistoryEntry, Image, ImageRole, ProfileUpdate, Profiles, SessionUser, StoredAddress, UserProfile,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::auth::AuthUser;
use crate::error::malformed_request;
use crate::ids::{parse_id, Id, UserRef};
use crate::password::UpdatedResponse;
use crate::project::TaxLabel;
use crate::rate::{self, Subject, UserRateSettings};
use crate::wire_names::{PaymentTypeCode, SaleStatusName};
use crate::{ApiError, ErrorBody};

pub(crate) fn config(cfg: &mut ServiceConfig) {
    cfg.service(auth_user)
        .service(update_profile)
        .service(upload_file)
        .service(update_corporate)
        .service(register_address)
        .service(update_address)
        .service(lookup_zip)
        .service(update_display_name);
}

/// The seed's client sends its own user id; the token decides. No id means
/// "me"; an integer (number or numeric string) must be the caller's own
/// (another user's is 403); anything else is a malformed request.
pub(crate) fn same_user(claimed: Option<&Value>, user: &SessionUser) -> Result<(), ApiError> {
    let id = match claimed {
        None | Some(Value::Null) => return Ok(()),
        Some(Value::Number(n)) => n.as_i64(),
        Some(Value::String(s)) => parse_id(s),
        Some(_) => None,
    };
    match id {
        None => Err(malformed_request()),
        Some(id) if id != user.id.0 => Err(ApiError::Forbidden),
        Some(_) => Ok(()),
    }
}

/// The delivery address as stored.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AddressDto {
    id: i64,
    name: String,
    tel_number: String,
    zip: String,
    pref: String,
    city: String,
    address: String,
    #[schema(required = true)]
    building: Option<String>,
}

impl From<StoredAddress> for AddressDto {
    fn from(stored: StoredAddress) -> Self {
        let a = stored.address;
        Self {
            id: stored.id,
            name: a.name,
            tel_number: a.tel_number,
            zip: a.zip,
            pref: a.pref,
            city: a.city,
            address: a.address,
            building: a.building,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct ImageDto {
    id: i64,
    url: String,
}

/// Newest first; the first is the current one.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct UserImagesDto {
    icon: Vec<ImageDto>,
    logo: Vec<ImageDto>,
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct UserAddressesDto {
    /// The primary address, when there is one.
    main: Vec<AddressDto>,
}

/// The logged-in user's own data; unset strings are `null`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct UserDto {
    id: i64,
    email: String,
    /// The pending new address of an e-mail change, if any.
    #[schema(required = true)]
    update_email: Option<String>,
    #[schema(required = true)]
    username: Option<String>,
    #[schema(required = true)]
    displayname: Option<String>,
    #[schema(required = true)]
    profile: Option<String>,
    #[schema(required = true)]
    age_group: Option<String>,
    #[schema(required = true)]
    corporatename: Option<String>,
    #[schema(required = true)]
    corporateurl: Option<String>,
    urls: UserImagesDto,
    addresses: UserAddressesDto,
    language: String,
}

fn images(list: Vec<Image>) -> Vec<ImageDto> {
    list.into_iter().map(|i| ImageDto { id: i.id, url: i.url }).collect()
}

impl From<UserProfile> for UserDto {
    fn from(p: UserProfile) -> Self {
        Self {
            id: p.id.0,
            email: p.email.as_str().to_string(),
            update_email: p.update_email,
            username: p.username,
            displayname: p.displayname,
            profile: p.profile,
            age_group: p.age_group,
            corporatename: p.corporatename,
            corporateurl: p.corporateurl,
            urls: UserImagesDto { icon: images(p.icons), logo: images(p.logos) },
            addresses: UserAddressesDto { main: p.addresses.into_iter().map(Into::into).collect() },
            language: p.language,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct AuthUserResponse {
    user: UserDto,
}

/// The logged-in user's own data.
#[utoipa::path(
    tag = "my page",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The caller", body = AuthUserResponse),
        (status = 401, description = "`unauthorized`", body = ErrorBody),
    )
)]
#[get("/user/get/authUser")]
async fn auth_user(user: AuthUser, profiles: web::Data<dyn Profiles>) -> Result<Json<AuthUserResponse>, ApiError> {
    let profile = profiles.profile(user.0.id).await?;
    Ok(Json(AuthUserResponse { user: profile.into() }))
}

/// Profile fields; empty or invisible-only strings clear a field.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ProfileRequest {
    /// The caller's own id when sent.
    #[schema(value_type = Option<Id>)]
    id: Option<Value>,
    #[schema(max_length = 50)]
    username: Option<String>,
    #[schema(max_length = 50)]
    displayname: Option<String>,
    #[schema(max_length = 1000)]
    profile: Option<String>,
    #[schema(max_length = 20)]
    age_group: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct UpdateProfileResponse {
    user: UserDto,
    updated: bool,
}

/// Update username, display name, profile and age group.
#[utoipa::path(
    tag = "my page",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The updated user", body = UpdateProfileResponse),
        (status = 400, description = "`malformed_request` or `validation_failed` (with `field` when a database \
            rule refused it)", body = ErrorBody),
        (status = 401, description = "`unauthorized`", body = ErrorBody),
        (status = 403, description = "`forbidden`: `id` is another user's", body = ErrorBody),
        (status = 409, description = "`conflict`", body = ErrorBody),
    )
)]
#[post("/user/set/update")]
async fn update_profile(
    user: AuthUser,
    profiles: web::Data<dyn Profiles>,
    body: Json<ProfileRequest>,
) -> Result<Json<UpdateProfileResponse>, ApiError> {
    let body = body.into_inner();
    same_user(body.id.as_ref(), &user.0)?;
    let input = ProfileInput {
        username: body.username,
        displayname: body.displayname,
        profile: body.profile,
        age_group: body.age_group,
    };
    let fields = input.validate().map_err(|e| ApiError::validation(e.to_string()))?;
    let update = ProfileUpdate {
        username: fields.username,
        displayname: fields.displayname,
        profile: fields.profile,
        age_group: fields.age_group,
    };
    let profile = profiles.update_profile(user.0.id, update).await?;
    Ok(Json(UpdateProfileResponse { user: profile.into(), updated: true }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct UploadQuery {
    /// `icon` (or the seed's `2`, the default) or `logo` (`1`).
    #[serde(rename = "type")]
    #[param(rename = "type", example = "icon")]
    kind: Option<String>,
}

/// A multipart form with the image in `file`.
#[derive(Debug, ToSchema)]
#[allow(dead_code)]
pub(crate) struct UploadForm {
    /// jpg, png or gif by content; at most 2,097,152 bytes, 8000 px a side and 40 megapixels.
    #[schema(value_type = String, format = Binary)]
    file: Vec<u8>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct UploadedDto {
    id: i64,
    url: String,
    /// The same URL (the seed's name).
    s3_path: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct UploadedData {
    uploaded: UploadedDto,
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct UploadResponse {
    data: UploadedData,
}

/// Reads the `file` field, refusing past the 2 MB limit without buffering more.
async fn read_file_field(mut payload: Multipart) -> Result<Vec<u8>, ApiError> {
    let malformed = || ApiError::from(UploadError::Empty);
    while let Some(field) = payload.next().await {
        let mut field = field.map_err(|_| malformed())?;
        if field.name() != Some("file") {
            continue;
        }
        let mut bytes = Vec::new();
        while let Some(chunk) = field.next().await {
            let chunk = chunk.map_err(|_| malformed())?;
            if (bytes.len() + chunk.len()) as u64 > MAX_UPLOAD_BYTES {
                return Err(UploadError::TooLarge.into());
            }
            bytes.extend_from_slice(&chunk);
        }
        return Ok(bytes);
    }
    Err(malformed())
}

/// Upload an icon or logo; it becomes the current one at once.
///
/// Images larger than 440 px are scaled down and re-encoded. Rate limit:
/// `UPLOADS_PER_HOUR` per user per hour (default 20).
#[utoipa::path(
    params(UploadQuery),
    tag = "my page",
    security(("bearer" = [])),
    request_body(content = UploadForm, content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "The stored image", body = UploadResponse),
        (status = 400, description = "`validation_failed` (type) or `invalid_upload` (no file, not an image, \
            too many pixels, unprocessable)", body = ErrorBody),
        (status = 401, description = "`unauthorized`", body = ErrorBody),
        (status = 413, description = "`too_large`: over 2,097,152 bytes", body = ErrorBody),
        (status = 429, description = "`rate_limited`", body = ErrorBody),
    )
)]
#[post("/user/set/uploadfile")]
async fn upload_file(
    req: HttpRequest,
    user: AuthUser,
    profiles: web::Data<dyn Profiles>,
    query: Query<UploadQuery>,
    payload: Multipart,
) -> Result<Json<UploadResponse>, ApiError> {
    let role = match query.kind.as_deref() {
        None | Some("icon" | "2") => ImageRole::Icon,
        Some("logo" | "1") => ImageRole::Logo,
        Some(_) => return Err(ApiError::validation("画像の種類が正しくありません。")),
    };
    // Counted before the body is read: past the limit nothing is buffered or decoded.
    let rule = UserRateSettings::of(&req).upload_rule();
    rate::enforce(&req, &[(rule, Subject::User(user.0.id.0))]).await?;
    let bytes = read_file_field(payload).await?;
    let image = profiles.upload_image(user.0.id, role, bytes).await?;
    let uploaded = UploadedDto { id: image.id, s3_path: image.url.clone(), url: image.url };
    Ok(Json(UploadResponse { data: UploadedData { uploaded } }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub(crate) struct CorporateRequest {
    /// The caller's own id when sent.
    #[schema(value_type = Option<Id>)]
    id: Option<Value>,
    #[schema(max_length = 100)]
    corporatename: Option<String>,
    /// http or https; empty clears it.
    corporateurl: Option<String>,
}

/// Update company name and site URL.
#[utoipa::path(
    tag = "my page",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Saved", body = UpdatedResponse),
        (status = 400, description = "`malformed_request` or `validation_failed`", body = ErrorBody),
        (status = 401, description = "`unauthorized`", body = ErrorBody),
        (status = 403, description = "`forbidden`: `id` is another user's", body = ErrorBody),
        (status = 409, description = "`conflict`", body = ErrorBody),
    )
)]
#[post("/user/set/updateCorporateData")]
async fn update_corporate(
    user: AuthUser,
    profiles: web::Data<dyn Profiles>,
    body: Json<CorporateRequest>,
) -> Result<Json<UpdatedResponse>, ApiError> {
    let body = body.into_inner();
    same_user(body.id.as_ref(), &user.0)?;
    let name = company_name(body.corporatename.as_deref().unwrap_or_default())
        .map_err(|e| ApiError::validation(e.to_string()))?;
    let url = parse_optional_url(body.corporateurl.as_deref().unwrap_or_default())
        .map_err(|e| ApiError::validation(e.to_string()))?;
    profiles.update_corporate(user.0.id, name, url.map(|u| u.as_str().to_string())).await?;
    Ok(Json(UpdatedResponse { updated: true }))
}

/// The delivery address form.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AddressRequest {
    #[schema(max_length = 50)]
    name: Option<String>,
    /// 10 or 11 half-width digits, no hyphen.
    #[schema(example = "0272345678")]
    tel_number: Option<String>,
    /// 7 half-width digits, no hyphen.
    #[schema(example = "3710023")]
    zip: Option<String>,
    #[schema(example = "群馬県")]
    pref: Option<String>,
    #[schema(max_length = 50)]
    city: Option<String>,
    #[schema(max_length = 100)]
    address: Option<String>,
    #[schema(max_length = 100)]
    building: Option<String>,
}

impl AddressRequest {
    /// The form as typed; the domain's `AddressInput::validate` checks it.
    pub(crate) fn into_input(self) -> AddressInput {
        AddressInput {
            name: self.name.unwrap_or_default(),
            tel_number: self.tel_number.unwrap_or_default(),
            zip: self.zip.unwrap_or_default(),
            pref: self.pref.unwrap_or_default(),
            city: self.city.unwrap_or_default(),
            address: self.address.unwrap_or_default(),
            building: self.building,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct AddressResponse {
    address: AddressDto,
}

async fn save_address(
    user: AuthUser,
    profiles: web::Data<dyn Profiles>,
    body: AddressRequest,
) -> Result<Json<AddressResponse>, ApiError> {
    let address = body
        .into_input()
        .validate()
        .map_err(|errors| ApiError::fields(errors.iter().map(|e| (e.field().to_string(), e.to_string()))))?;
    let stored = profiles.save_address(user.0.id, address).await?;
    Ok(Json(AddressResponse { address: stored.into() }))
}

/// Register the delivery address (saves the single primary address).
#[utoipa::path(
    tag = "my page",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The saved address", body = AddressResponse),
        (status = 400, description = "`malformed_request`, or `validation_failed` with every refused field in \
            `errors` (or `field` when a database rule refused it)", body = ErrorBody),
        (status = 401, description = "`unauthorized`", body = ErrorBody),
        (status = 409, description = "`conflict`", body = ErrorBody),
    )
)]
#[post("/address/set/register")]
async fn register_address(
    user: AuthUser,
    profiles: web::Data<dyn Profiles>,
    body: Json<AddressRequest>,
) -> Result<Json<AddressResponse>, ApiError> {
    save_address(user, profiles, body.into_inner()).await
}

/// Replace the delivery address (the same as `register`: one primary address).
#[utoipa::path(
    tag = "my page",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The saved address", body = AddressResponse),
        (status = 400, description = "`malformed_request`, or `validation_failed` with every refused field in \
            `errors` (or `field` when a database rule refused it)", body = ErrorBody),
        (status = 401, description = "`unauthorized`", body = ErrorBody),
        (status = 409, description = "`conflict`", body = ErrorBody),
    )
)]
#[post("/address/set/updater")]
async fn update_address(
    user: AuthUser,
    profiles: web::Data<dyn Profiles>,
    body: Json<AddressRequest>,
) -> Result<Json<AddressResponse>, ApiError> {
    save_address(user, profiles, body.into_inner()).await
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct ZipQuery {
    /// 7 digits.
    #[param(example = "3710023")]
    zip: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct ZipResponse {
    zip: String,
    pref: String,
    city: String,
    address: String,
}

/// The address of a 7-digit postal code (offline table).
#[utoipa::path(
    params(ZipQuery),
    tag = "my page",
    responses(
        (status = 200, description = "The address", body = ZipResponse),
        (status = 400, description = "`malformed_request`: no `zip`", body = ErrorBody),
        (status = 404, description = "`not_found`: unknown code", body = ErrorBody),
    )
)]
#[get("/address/get/zip")]
async fn lookup_zip(profiles: web::Data<dyn Profiles>, query: Query<ZipQuery>) -> Result<Json<ZipResponse>, ApiError> {
    let found = profiles.lookup_zip(query.zip.trim()).await?.ok_or(ApiError::NotFound)?;
    Ok(Json(ZipResponse { zip: found.zip, pref: found.pref, city: found.city, address: found.address }))
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct TitleSlugDto {
    title: String,
    slug: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct TitleDto {
    title: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct OwnDisplayNameDto {
    /// The display-name record's id (for `/displayname/set/update`).
    id: i64,
    displayname: String,
}

/// The history's label of a sale the provider has refunded (in part or in full).
const REFUNDED_LABEL: &str = "返金済み";
/// A refund started and not paid out yet: the same state the admin's refund table shows.
const REFUNDING_LABEL: &str = "返金手続き中";

/// One sale of the caller's payment history.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct HistoryEntryDto {
    id: i64,
    /// ISO 8601, Tokyo time.
    #[serde(rename = "created_at")]
    created_at: String,
    project: TitleSlugDto,
    #[serde(rename = "return")]
    return_: TitleDto,
    lot: i16,
    amount: i64,
    /// Consumption tax `total` contains (0 for donations).
    tax: i64,
    /// 上乗せ支援 included in `total` (untaxed); 0 when none.
    extra_amount: i64,
    /// What the supporter paid, tax included, the extra included.
    total: i64,
    /// How the sale was priced: 税込, 税別 (tax added to `amount`) or 非課税 (a donation).
    tax_label: TaxLabel,
    /// 1 card, 2 bank transfer, 3 konbini.
    #[serde(rename = "payment_type")]
    #[schema(value_type = PaymentTypeCode)]
    payment_type: i32,
    /// `succeeded`, `awaiting_bank_transfer`, `requires_action`, `pending`, `processing`, `canceled`, `failed`.
    #[schema(value_type = SaleStatusName)]
    status: &'static str,
    /// The status as the history shows it (支払い済み, 入金待ち（銀行振込）, ..., 返金手続き中 while a refund is
    /// on its way, 返金済み once the provider has paid it out).
    status_label: &'static str,
    /// Yen the provider has paid back to the supporter so far; 0 when nothing.
    refunded_amount: i64,
    /// Yen of refunds started and not paid out yet (waiting for the supporter's bank account, say).
    refunding_amount: i64,
    #[schema(required = true)]
    displayname: Option<OwnDisplayNameDto>,
    /// A bank transfer still awaited: where to pay, how much, until when.
    #[serde(rename = "bankTransfer")]
    #[schema(required = true)]
    bank_transfer: Option<crate::payment::BankTransferDto>,
    /// A konbini sale waiting for the store (支払い待ち（コンビニ）): the voucher.
    #[schema(required = true)]
    konbini: Option<crate::payment::KonbiniVoucherDto>,
    /// The return's delivery (未発送 / 発送済み with its day and note); null for a sale not paid, or refunded
    /// in full.
    #[schema(required = true)]
    delivery: Option<crate::admin_deliveries::DeliveryStatusDto>,
}

impl From<HistoryEntry> for HistoryEntryDto {
    fn from(entry: HistoryEntry) -> Self {
        Self {
            id: entry.id.get(),
            created_at: entry.created_at.with_timezone(&domain::time::tokyo()).to_rfc3339(),
            project: TitleSlugDto { title: entry.project_title, slug: entry.project_slug },
            return_: TitleDto { title: entry.return_title },
            lot: entry.lot,
            amount: entry.amount,
            tax: entry.tax,
            extra_amount: entry.extra_amount,
            total: entry.total,
            tax_label: entry.tax_mode.into(),
            payment_type: entry.payment_type.code(),
            status: entry.status.as_str(),
            status_label: if entry.refunding > Yen::ZERO {
                REFUNDING_LABEL
            } else if entry.refunded > Yen::ZERO {
                REFUNDED_LABEL
            } else {
                entry.status.history_label(entry.payment_type)
            },
            refunded_amount: entry.refunded.value(),
            refunding_amount: entry.refunding.value(),
            displayname: entry.display_name.map(|(id, displayname)| OwnDisplayNameDto { id, displayname }),
            bank_transfer: entry
                .pending_transfer
                .map(|t| crate::payment::BankTransferDto::new(&t.instructions, t.amount_remaining, t.deadline)),
            konbini: crate::payment::konbini_dto(entry.payment_type, entry.status, entry.voucher.as_ref()),
            delivery: entry.delivery.as_ref().map(Into::into),
        }
    }
}

/// The caller's payment history, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct HistoryResponse {
    data: Vec<HistoryEntryDto>,
}

/// `GET /v1/sales/get/list?user_id=...` (routed by `sales::list`): the
/// caller's payment history. `claimed` is `me` or the caller's own id;
/// another user's id is refused.
pub(crate) async fn own_history(
    user: AuthUser,
    profiles: web::Data<dyn Profiles>,
    claimed: &str,
) -> Result<HistoryResponse, ApiError> {
    if let UserRef::Id(id) = UserRef::parse(claimed)? {
        same_user(Some(&Value::from(id)), &user.0)?;
    }
    let history = profiles.history(user.0.id).await?;
    Ok(HistoryResponse { data: history.into_iter().map(Into::into).collect() })
}

#[derive(Debug, Deserialize, ToSchema)]
pub(crate) struct DisplayNameRequest {
    /// The display-name record's id.
    id: Id,
    #[schema(max_length = 50)]
    displayname: String,
}

/// Rename a sale's display name (its owner only).
#[utoipa::path(
    tag = "my page",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Renamed", body = UpdatedResponse),
        (status = 400, description = "`malformed_request` or `validation_failed`", body = ErrorBody),
        (status = 401, description = "`unauthorized`", body = ErrorBody),
        (status = 403, description = "`forbidden`: someone else's", body = ErrorBody),
        (status = 404, description = "`not_found`", body = ErrorBody),
        (status = 409, description = "`conflict`", body = ErrorBody),
    )
)]
#[post("/displayname/set/update")]
async fn update_display_name(
    user: AuthUser,
    profiles: web::Data<dyn Profiles>,
    body: Json<DisplayNameRequest>,
) -> Result<Json<UpdatedResponse>, ApiError> {
    let DisplayNameRequest { id, displayname } = body.into_inner();
    let name = display_name(&displayname).map_err(|e| ApiError::validation(e.to_string()))?;
    profiles.rename_display_name(user.0.id, id.0, name).await?;
    Ok(Json(UpdatedResponse { updated: true }))
}
