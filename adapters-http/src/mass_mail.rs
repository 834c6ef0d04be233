//! Mass mail: the seed's `/mail/set/register`, `/mail/get/list`,
//! `/mail/get/detail` and `/user/get/byId` (administrators only), a recipient
//! preview, and the members' opt-out from a signed link (no login).

use actix_web::http::StatusCode;
use actix_web::web::{self, Json};
use actix_web::{get, post};
use chrono::SecondsFormat;
use domain::ids::{ProjectId, UserId};
use domain::mail::MailSegment;
use domain::pagination::{self, Item};
use domain::time::tokyo;
use jsonwebtoken::{decode, encode, Algorithm, DecodingKey, EncodingKey, Header, Validation};
use ports::admin::mass_mail::{excerpt_of, MailDetail, MailForm, MailSummary, MassMails, OptOutTokens, MAILS_PER_PAGE};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::auth::AdminUser;
use crate::error::malformed_request;
use crate::wire_names::{MailStatusName, RecipientStatusName};
use crate::{ApiError, ErrorBody};

pub(crate) fn config(cfg: &mut ServiceConfig) {
    cfg.service(register_mail)
        .service(preview_recipients)
        .service(list_mails)
        .service(mail_detail)
        .service(user_by_id)
        .service(opt_out_of_mail);
}

pub const MSG_NO_RECIPIENTS: &str = "送信先がいません。";
pub const MSG_UNKNOWN_PROJECT: &str = "プロジェクトが見つかりません。";
pub const MSG_BAD_OPT_OUT_LINK: &str =
    "配信停止のリンクが正しくありません。メールに記載のリンクをそのまま開いてください。";
/// The most pages of the list one may ask for (10,000 mails at 20 a page is 500 pages).
const MAX_PAGE: u32 = 100_000;

/// Opt-out tokens: HS256 JWTs with their own audience, signed with the session secret.
#[derive(Clone)]
pub struct JwtOptOutTokens {
    encoding: EncodingKey,
    decoding: DecodingKey,
}

/// Tells opt-out tokens apart from session tokens and receipts signed with the same secret.
const OPT_OUT_AUDIENCE: &str = "mail_opt_out";

#[derive(Debug, Serialize, Deserialize)]
struct OptOutClaims {
    /// The member's id, as text (the JWT `sub` claim is a string).
    sub: String,
    aud: String,
}

impl JwtOptOutTokens {
    pub fn new(secret: &[u8]) -> Self {
        Self { encoding: EncodingKey::from_secret(secret), decoding: DecodingKey::from_secret(secret) }
    }
}

impl OptOutTokens for JwtOptOutTokens {
    fn issue(&self, user: UserId) -> String {
        let claims = OptOutClaims { sub: user.get().to_string(), aud: OPT_OUT_AUDIENCE.into() };
        // Encoding a two-field struct with an HMAC key cannot fail.
        encode(&Header::new(Algorithm::HS256), &claims, &self.encoding).unwrap_or_default()
    }

    fn verify(&self, token: &str) -> Option<UserId> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.set_audience(&[OPT_OUT_AUDIENCE]);
        // The link must keep working (特定電子メール法): no expiry.
        validation.validate_exp = false;
        validation.set_required_spec_claims(&["aud", "sub"]);
        decode::<OptOutClaims>(token, &self.decoding, &validation).ok()?.claims.sub.parse().ok().map(UserId)
    }
}

/// The form: a project (its paid supporters) or everyone (all members).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RegisterMailRequest {
    /// The project the mail is about; absent or null for a mail to every member.
    #[schema(nullable = true)]
    project_id: Option<i64>,
    /// With a project: `true` mails every member about it instead of its supporters.
    #[serde(default)]
    to_all_members: Option<bool>,
    /// Required ('タイトルを入力してください。'), at most 200 characters.
    title: String,
    /// HTML from the editor; sanitised on the server. Required ('内容を入力してください。'), at most 200,000 bytes.
    content: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RegisterMailResponse {
    /// The sent mail's id (its detail page shows the progress).
    id: i64,
    /// The addresses it is being sent to.
    emails: Vec<String>,
}

/// Queues a mass mail: checked, sanitised, stored with its recipients, sent by a background job.
#[utoipa::path(
    tag = "admin",
    request_body = RegisterMailRequest,
    responses(
        (status = 200, description = "Queued; the job sends it", body = RegisterMailResponse),
        (status = 400, description = "`validation_failed` with `errors` (title and content messages), \
            `unknown_project`, `no_recipients` or `malformed_request`", body = ErrorBody),
        (status = 404, description = "`not_found`: not an administrator (as for an unknown path)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[post("/mail/set/register")]
async fn register_mail(
    admin: AdminUser,
    mails: web::Data<dyn MassMails>,
    body: Result<Json<RegisterMailRequest>, actix_web::Error>,
) -> Result<Json<RegisterMailResponse>, ApiError> {
    // Input is read only after the administrator check (see admin.rs): anyone else gets 404, not a 400.
    let body = body.map_err(|_| malformed_request())?.into_inner();
    let form = MailForm {
        project_id: body.project_id.map(ProjectId),
        to_all_members: body.to_all_members,
        title: body.title,
        content: body.content,
    };
    let created = mails.register(admin.0.id, form).await.map_err(ApiError::from)?;
    Ok(Json(RegisterMailResponse { id: created.id, emails: created.emails }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PreviewQuery {
    /// The project whose paid supporters would receive it; absent for every member.
    project_id: Option<i64>,
    /// With a project: count every member instead.
    to_all_members: Option<bool>,
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct PreviewResponse {
    /// How many would receive the mail now (opted-out members not counted).
    recipients: u32,
}

/// How many a mail to this choice would reach (shown before sending).
#[utoipa::path(
    tag = "admin",
    params(PreviewQuery),
    responses(
        (status = 200, description = "The count", body = PreviewResponse),
        (status = 400, description = "`unknown_project` or `malformed_request`", body = ErrorBody),
        (status = 404, description = "`not_found`: not an administrator (as for an unknown path)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[get("/mail/get/preview")]
async fn preview_recipients(
    _admin: AdminUser,
    mails: web::Data<dyn MassMails>,
    query: Result<web::Query<PreviewQuery>, actix_web::Error>,
) -> Result<Json<PreviewResponse>, ApiError> {
    let query = query.map_err(|_| malformed_request())?;
    let form = MailForm {
        project_id: query.project_id.map(ProjectId),
        to_all_members: query.to_all_members,
        title: String::new(),
        content: String::new(),
    };
    let segment: MailSegment = form.segment();
    let recipients = mails.preview(segment).await.map_err(ApiError::from)?;
    Ok(Json(PreviewResponse { recipients }))
}

/// Sent / failed / total of the sending job.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct MailProgressDto {
    /// `queued`, `sending`, `sent` (finished) or `failed` (given up).
    #[schema(value_type = MailStatusName)]
    status: String,
    total: u32,
    sent: u32,
    failed: u32,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct MailSummaryDto {
    id: i64,
    title: String,
    /// The first 95 characters of the body's text, '…' when cut.
    excerpt: String,
    #[schema(required = true)]
    project_id: Option<i64>,
    #[schema(required = true)]
    project_title: Option<String>,
    sender_email: String,
    /// The sender's user name (the seed reads it through `/user/get/byId`).
    #[schema(required = true)]
    sender_name: Option<String>,
    progress: MailProgressDto,
    /// ISO 8601, Tokyo time.
    created_at: String,
}

fn summary_dto(summary: &MailSummary) -> MailSummaryDto {
    MailSummaryDto {
        id: summary.id,
        title: summary.title.clone(),
        excerpt: excerpt_of(summary),
        project_id: summary.project_id.map(ProjectId::get),
        project_title: summary.project_title.clone(),
        sender_email: summary.sender_email.clone(),
        sender_name: summary.sender_name.clone(),
        progress: MailProgressDto {
            status: summary.progress.status.code().into(),
            total: summary.progress.total,
            sent: summary.progress.sent,
            failed: summary.progress.failed,
        },
        created_at: summary.created_at.with_timezone(&tokyo()).to_rfc3339_opts(SecondsFormat::Secs, true),
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct ListQuery {
    /// From 1; 1 when absent.
    #[param(minimum = 1)]
    page: Option<u32>,
}

/// One slot of the pagination bar: a page number or dots.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct PageItemDto {
    /// `page` or `dots`.
    kind: String,
    #[schema(required = true)]
    page: Option<u32>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct MailListPage {
    /// Newest first.
    data: Vec<MailSummaryDto>,
    page: u32,
    per_page: u32,
    total: u64,
    total_pages: u32,
    /// The domain's pagination bar for this page.
    pages: Vec<PageItemDto>,
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct MailListResponse {
    mails: MailListPage,
}

/// Sent mails, newest first, 20 a page.
#[utoipa::path(
    tag = "admin",
    params(ListQuery),
    responses(
        (status = 200, description = "One page", body = MailListResponse),
        (status = 400, description = "`malformed_request`: `page` is not a positive integer", body = ErrorBody),
        (status = 404, description = "`not_found`: not an administrator (as for an unknown path)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[get("/mail/get/list")]
async fn list_mails(
    _admin: AdminUser,
    mails: web::Data<dyn MassMails>,
    query: Result<web::Query<ListQuery>, actix_web::Error>,
) -> Result<Json<MailListResponse>, ApiError> {
    let query = query.map_err(|_| malformed_request())?;
    let page = query.page.unwrap_or(1);
    if !(1..=MAX_PAGE).contains(&page) {
        return Err(ApiError::BadRequest {
            code: "malformed_request",
            message: "page は 1 以上の整数で指定してください。".into(),
        });
    }
    let found = mails.list(page).await.map_err(|e| ApiError::internal(&e))?;
    let total_pages = u32::try_from(found.total.div_ceil(u64::from(MAILS_PER_PAGE))).unwrap_or(u32::MAX);
    let pages = pagination::items(page, total_pages)
        .into_iter()
        .map(|item| match item {
            Item::Page(n) => PageItemDto { kind: "page".into(), page: Some(n) },
            Item::Dots => PageItemDto { kind: "dots".into(), page: None },
        })
        .collect();
    Ok(Json(MailListResponse {
        mails: MailListPage {
            data: found.mails.iter().map(summary_dto).collect(),
            page,
            per_page: MAILS_PER_PAGE,
            total: found.total,
            total_pages,
            pages,
        },
    }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct IdQuery {
    #[param(minimum = 1)]
    id: i64,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RecipientDto {
    email: String,
    /// `pending`, `sent` or `failed`.
    #[schema(value_type = RecipientStatusName)]
    status: String,
    attempts: u32,
    /// Why it failed, or the last relay error while pending.
    #[schema(required = true)]
    error: Option<String>,
    /// ISO 8601, Tokyo time.
    #[schema(required = true)]
    sent_at: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct MailDetailDto {
    #[serde(flatten)]
    summary: MailSummaryDto,
    /// The body as sanitised HTML.
    content: String,
    recipients: Vec<RecipientDto>,
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct MailDetailResponse {
    mail: MailDetailDto,
}

fn detail_dto(detail: MailDetail) -> MailDetailDto {
    MailDetailDto {
        summary: summary_dto(&detail.summary),
        content: detail.summary.content,
        recipients: detail
            .recipients
            .into_iter()
            .map(|r| RecipientDto {
                email: r.email,
                status: r.status.code().into(),
                attempts: r.attempts,
                error: r.error,
                sent_at: r.sent_at.map(|t| t.with_timezone(&tokyo()).to_rfc3339_opts(SecondsFormat::Secs, true)),
            })
            .collect(),
    }
}

/// One sent mail: sender, project, title, body, progress and every recipient's status.
#[utoipa::path(
    tag = "admin",
    params(IdQuery),
    responses(
        (status = 200, description = "The mail", body = MailDetailResponse),
        (status = 400, description = "`malformed_request`: no numeric `id`", body = ErrorBody),
        (status = 404, description = "`mail_not_found`: no such mail; `not_found`: not an administrator", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[get("/mail/get/detail")]
async fn mail_detail(
    _admin: AdminUser,
    mails: web::Data<dyn MassMails>,
    query: Result<web::Query<IdQuery>, actix_web::Error>,
) -> Result<Json<MailDetailResponse>, ApiError> {
    let query = query.map_err(|_| malformed_request())?;
    let found = mails.detail(query.id).await.map_err(|e| ApiError::internal(&e))?;
    // Its own code, so an unknown mail is told apart from an unknown path (and from a caller who may not look).
    let mail = found.ok_or_else(|| ApiError::Field {
        status: StatusCode::NOT_FOUND,
        body: ErrorBody {
            error: "mail_not_found".into(),
            message: "メールが見つかりません。".into(),
            field: None,
            errors: None,
        },
    })?;
    Ok(Json(MailDetailResponse { mail: detail_dto(mail) }))
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct UserNameDto {
    id: i64,
    #[schema(required = true)]
    username: Option<String>,
    email: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct UserByIdResponse {
    user: UserNameDto,
}

/// An account's user name and address (the seed shows the mail's sender with it).
#[utoipa::path(
    tag = "admin",
    params(IdQuery),
    responses(
        (status = 200, description = "The account", body = UserByIdResponse),
        (status = 400, description = "`malformed_request`: no numeric `id`", body = ErrorBody),
        (status = 404, description = "`not_found`: no such account, or not an administrator", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[get("/user/get/byId")]
async fn user_by_id(
    _admin: AdminUser,
    mails: web::Data<dyn MassMails>,
    query: Result<web::Query<IdQuery>, actix_web::Error>,
) -> Result<Json<UserByIdResponse>, ApiError> {
    let query = query.map_err(|_| malformed_request())?;
    let found = mails.username(UserId(query.id)).await.map_err(|e| ApiError::internal(&e))?;
    let (id, username, email) = found.ok_or(ApiError::NotFound)?;
    Ok(Json(UserByIdResponse { user: UserNameDto { id: id.get(), username, email } }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub(crate) struct OptOutRequest {
    /// The token of the link in the mail.
    #[schema(max_length = 2000)]
    token: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct OptOutResponse {
    opted_out: bool,
}

/// Stops mass mail to all members for the member of a signed link (no login; a repeat is fine).
#[utoipa::path(
    tag = "accounts",
    request_body = OptOutRequest,
    responses(
        (status = 200, description = "Opted out", body = OptOutResponse),
        (status = 400, description = "`invalid_link`: the token is not genuine, or `malformed_request`", body = ErrorBody),
    )
)]
#[post("/mail/set/optOut")]
async fn opt_out_of_mail(
    mails: web::Data<dyn MassMails>,
    body: Json<OptOutRequest>,
) -> Result<Json<OptOutResponse>, ApiError> {
    if body.token.len() > 2000 || !mails.opt_out(&body.token).await.map_err(|e| ApiError::internal(&e))? {
        return Err(ApiError::BadRequest { code: "invalid_link", message: MSG_BAD_OPT_OUT_LINK.into() });
    }
    Ok(Json(OptOutResponse { opted_out: true }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_opt_out_token_names_its_member_and_nothing_else_passes() {
        let tokens = JwtOptOutTokens::new(b"secret");
        let token = tokens.issue(UserId(7));
        assert_eq!(tokens.verify(&token), Some(UserId(7)));
        assert_eq!(JwtOptOutTokens::new(b"other").verify(&token), None);
        assert_eq!(tokens.verify("7"), None);
        let receipt = crate::receipt::Receipts::new(b"secret").issue(domain::ids::SaleId(7)).unwrap();
        assert_eq!(tokens.verify(&receipt), None, "a receipt is not an opt-out link");
    }
}
