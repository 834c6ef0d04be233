//! My page: `/v1/user/get/authUser`, profile, images, company data,
//! delivery address, postal-code look-up, payment history and display names.
//! Every call acts on the token's user only.

use actix_multipart::Multipart;
use actix_web::http::StatusCode;
use actix_web::web::{self, Json, Query};
use actix_web::HttpRequest;
use domain::profile::{
    company_name, display_name, parse_optional_url, AddressInput, ProfileInput, UploadError, MAX_UPLOAD_BYTES,
};
use futures_util::StreamExt;
use ports::accounts::{
    HistoryEntry, ImageRole, ProfileError, ProfileUpdate, Profiles, SessionUser, StoredAddress, UserProfile,
};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::auth::AuthUser;
use crate::constraint::constraint_error;
use crate::error::malformed_request;
use crate::ids::{parse_id, Id, UserRef};
use crate::rate::{self, Subject, UserRateSettings};
use crate::routes::Routes;
use crate::ApiError;

pub(crate) fn config(routes: &mut Routes) {
    routes
        .get("/user/get/authUser", auth_user)
        .post("/user/set/update", update_profile)
        .post("/user/set/uploadfile", upload_file)
        .post("/user/set/updateCorporateData", update_corporate)
        .post("/address/set/register", save_address)
        .post("/address/set/updater", save_address)
        .get("/address/get/zip", lookup_zip)
        .post("/displayname/set/update", update_display_name);
}

fn profile_error(error: ProfileError) -> ApiError {
    match error {
        ProfileError::Forbidden => ApiError::Forbidden,
        ProfileError::NotFound => ApiError::NotFound,
        ProfileError::Upload(UploadError::TooLarge) => ApiError::Detailed {
            status: StatusCode::PAYLOAD_TOO_LARGE,
            body: json!({"error": "too_large", "message": UploadError::TooLarge.to_string()}),
        },
        ProfileError::Upload(e) => ApiError::BadRequest { code: "invalid_upload", message: e.to_string() },
        ProfileError::Constraint(violation) => constraint_error(&violation),
        ProfileError::Unexpected(e) => ApiError::internal(e.as_ref()),
    }
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

fn address_json(stored: &StoredAddress) -> Value {
    let a = &stored.address;
    json!({
        "id": stored.id, "name": a.name, "telNumber": a.tel_number, "zip": a.zip, "pref": a.pref,
        "city": a.city, "address": a.address, "building": a.building,
    })
}

fn user_json(p: &UserProfile) -> Value {
    let images =
        |list: &[ports::accounts::Image]| -> Value { list.iter().map(|i| json!({"id": i.id, "url": i.url})).collect() };
    json!({
        "id": p.id.0,
        "email": p.email.as_str(),
        "updateEmail": p.update_email,
        "username": p.username,
        "displayname": p.displayname,
        "profile": p.profile,
        "ageGroup": p.age_group,
        "corporatename": p.corporatename,
        "corporateurl": p.corporateurl,
        "urls": {"icon": images(&p.icons), "logo": images(&p.logos)},
        "addresses": {"main": p.addresses.iter().map(address_json).collect::<Vec<_>>()},
        "language": p.language,
    })
}

async fn auth_user(user: AuthUser, profiles: web::Data<dyn Profiles>) -> Result<Json<Value>, ApiError> {
    let profile = profiles.profile(user.0.id).await.map_err(profile_error)?;
    Ok(Json(json!({"user": user_json(&profile)})))
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ProfileRequest {
    id: Option<Value>,
    username: Option<String>,
    displayname: Option<String>,
    profile: Option<String>,
    age_group: Option<String>,
}

async fn update_profile(
    user: AuthUser,
    profiles: web::Data<dyn Profiles>,
    body: Json<ProfileRequest>,
) -> Result<Json<Value>, ApiError> {
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
    let profile = profiles.update_profile(user.0.id, update).await.map_err(profile_error)?;
    Ok(Json(json!({"user": user_json(&profile), "updated": true})))
}

#[derive(Debug, Deserialize)]
pub(crate) struct UploadQuery {
    #[serde(rename = "type")]
    kind: Option<String>,
}

/// Reads the `file` field, refusing past the 2 MB limit without buffering more.
async fn read_file_field(mut payload: Multipart) -> Result<Vec<u8>, ApiError> {
    let too_large = || profile_error(ProfileError::Upload(UploadError::TooLarge));
    let malformed = || ApiError::BadRequest { code: "invalid_upload", message: UploadError::Empty.to_string() };
    while let Some(field) = payload.next().await {
        let mut field = field.map_err(|_| malformed())?;
        if field.name() != Some("file") {
            continue;
        }
        let mut bytes = Vec::new();
        while let Some(chunk) = field.next().await {
            let chunk = chunk.map_err(|_| malformed())?;
            if (bytes.len() + chunk.len()) as u64 > MAX_UPLOAD_BYTES {
                return Err(too_large());
            }
            bytes.extend_from_slice(&chunk);
        }
        return Ok(bytes);
    }
    Err(malformed())
}

async fn upload_file(
    req: HttpRequest,
    user: AuthUser,
    profiles: web::Data<dyn Profiles>,
    query: Query<UploadQuery>,
    payload: Multipart,
) -> Result<Json<Value>, ApiError> {
    let role = match query.kind.as_deref() {
        None | Some("icon" | "2") => ImageRole::Icon,
        Some("logo" | "1") => ImageRole::Logo,
        Some(_) => return Err(ApiError::validation("画像の種類が正しくありません。")),
    };
    // Counted before the body is read: past the limit nothing is buffered or decoded.
    let rule = UserRateSettings::of(&req).upload_rule();
    rate::enforce(&req, &[(rule, Subject::User(user.0.id.0))]).await?;
    let bytes = read_file_field(payload).await?;
    let image = profiles.upload_image(user.0.id, role, bytes).await.map_err(profile_error)?;
    Ok(Json(json!({"data": {"uploaded": {"id": image.id, "url": image.url, "s3Path": image.url}}})))
}

#[derive(Debug, Deserialize)]
pub(crate) struct CorporateRequest {
    id: Option<Value>,
    corporatename: Option<String>,
    corporateurl: Option<String>,
}

async fn update_corporate(
    user: AuthUser,
    profiles: web::Data<dyn Profiles>,
    body: Json<CorporateRequest>,
) -> Result<Json<Value>, ApiError> {
    let body = body.into_inner();
    same_user(body.id.as_ref(), &user.0)?;
    let name = company_name(body.corporatename.as_deref().unwrap_or_default())
        .map_err(|e| ApiError::validation(e.to_string()))?;
    let url = parse_optional_url(body.corporateurl.as_deref().unwrap_or_default())
        .map_err(|e| ApiError::validation(e.to_string()))?;
    profiles.update_corporate(user.0.id, name, url.map(|u| u.as_str().to_string())).await.map_err(profile_error)?;
    Ok(Json(json!({"updated": true})))
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AddressRequest {
    name: Option<String>,
    tel_number: Option<String>,
    zip: Option<String>,
    pref: Option<String>,
    city: Option<String>,
    address: Option<String>,
    building: Option<String>,
}

async fn save_address(
    user: AuthUser,
    profiles: web::Data<dyn Profiles>,
    body: Json<AddressRequest>,
) -> Result<Json<Value>, ApiError> {
    let b = body.into_inner();
    let input = AddressInput {
        name: b.name.unwrap_or_default(),
        tel_number: b.tel_number.unwrap_or_default(),
        zip: b.zip.unwrap_or_default(),
        pref: b.pref.unwrap_or_default(),
        city: b.city.unwrap_or_default(),
        address: b.address.unwrap_or_default(),
        building: b.building,
    };
    let address = input.validate().map_err(|errors| ApiError::Detailed {
        status: StatusCode::BAD_REQUEST,
        body: json!({
            "error": "validation_failed",
            "message": errors.first().map(ToString::to_string).unwrap_or_default(),
            "errors": errors.iter().map(|e| json!({"field": e.field(), "message": e.to_string()})).collect::<Vec<_>>(),
        }),
    })?;
    let stored = profiles.save_address(user.0.id, address).await.map_err(profile_error)?;
    Ok(Json(json!({"address": address_json(&stored)})))
}

#[derive(Debug, Deserialize)]
pub(crate) struct ZipQuery {
    zip: String,
}

async fn lookup_zip(profiles: web::Data<dyn Profiles>, query: Query<ZipQuery>) -> Result<Json<Value>, ApiError> {
    let found = profiles.lookup_zip(query.zip.trim()).await.map_err(profile_error)?.ok_or(ApiError::NotFound)?;
    Ok(Json(json!({"zip": found.zip, "pref": found.pref, "city": found.city, "address": found.address})))
}

fn history_json(entry: &HistoryEntry) -> Value {
    json!({
        "id": entry.id,
        "created_at": entry.created_at.with_timezone(&domain::time::tokyo()).to_rfc3339(),
        "project": {"title": entry.project_title, "slug": entry.project_slug},
        "return": {"title": entry.return_title},
        "lot": entry.lot,
        "amount": entry.amount,
        "total": entry.total,
        "payment_type": entry.payment_type.code(),
        "status": entry.status.as_str(),
        "statusLabel": entry.status.history_label(entry.payment_type),
        "displayname": entry.display_name.as_ref().map(|(id, name)| json!({"id": id, "displayname": name})),
    })
}

/// `GET /v1/sales/get/list?user_id=...` (routed by `sales::list`): the
/// caller's payment history. `claimed` is `me` or the caller's own id;
/// another user's id is refused.
pub(crate) async fn own_history(
    user: AuthUser,
    profiles: web::Data<dyn Profiles>,
    claimed: &str,
) -> Result<Value, ApiError> {
    if let UserRef::Id(id) = UserRef::parse(claimed)? {
        same_user(Some(&Value::from(id)), &user.0)?;
    }
    let history = profiles.history(user.0.id).await.map_err(profile_error)?;
    Ok(json!({"data": history.iter().map(history_json).collect::<Vec<_>>()}))
}

#[derive(Debug, Deserialize)]
pub(crate) struct DisplayNameRequest {
    id: Id,
    displayname: String,
}

async fn update_display_name(
    user: AuthUser,
    profiles: web::Data<dyn Profiles>,
    body: Json<DisplayNameRequest>,
) -> Result<Json<Value>, ApiError> {
    let DisplayNameRequest { id, displayname } = body.into_inner();
    let name = display_name(&displayname).map_err(|e| ApiError::validation(e.to_string()))?;
    profiles.rename_display_name(user.0.id, id.0, name).await.map_err(profile_error)?;
    Ok(Json(json!({"updated": true})))
}
