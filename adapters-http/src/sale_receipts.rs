//! Receipts (領収書) of paid sales, to open and print: a member's own
//! (`/v1/user/receipts/{sale_id}`), anyone holding the link of the paid mail
//! (`/v1/receipts/{token}`), and the issuer an operator sets on a project
//! (`/v1/admin/projects/{id}/receipt-issuer`, mounted in that scope by
//! `admin_projects`). Not [`crate::receipt`], the order token of the
//! complete page.

use actix_web::http::header::{self, HeaderValue};
use actix_web::web::{self, Json};
use actix_web::{get, post, put, HttpRequest, HttpResponse};
use domain::ids::{ProjectId, SaleId};
use domain::receipt::{rate_label, receipt_number, receipt_title, ReceiptKind};
use ports::rate_limit::RateRule;
use ports::receipts::{ProjectIssuer, ReceiptAccess, SaleReceipt, SaleReceipts};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::admin::iso;
use crate::admin_projects::ProjectPath;
use crate::auth::{AdminUser, AuthUser};
use crate::rate::{self, Subject};
use crate::{ApiError, ErrorBody};

/// Issues per member per hour: printing a receipt a few times is normal; a loop is not.
const ISSUE_PER_USER: RateRule = RateRule::new("receipt_issue:user", 30, 60);
/// Issues through mailed links per client address per hour.
const ISSUE_PER_IP: RateRule = RateRule::new("receipt_issue:ip", 30, 60);

pub(crate) fn config(cfg: &mut ServiceConfig) {
    cfg.service(
        utoipa_actix_web::scope("/user/receipts")
            .app_data(crate::error::path_config())
            .default_service(web::to(crate::error::not_found))
            .service(member_receipt)
            .service(member_issue),
    );
    cfg.service(
        utoipa_actix_web::scope("/receipts")
            .app_data(crate::error::path_config())
            .default_service(web::to(crate::error::not_found))
            .service(link_receipt)
            .service(link_issue),
    );
}

/// `sale` (領収書) or `donation` (寄附金受領証明書: no consumption tax).
#[derive(Debug, Clone, Copy, Serialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub(crate) enum ReceiptKindDto {
    Sale,
    Donation,
}

/// One line of what was bought.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ReceiptLineDto {
    /// The project and the return: `前橋ばら園（お礼のメール）`.
    description: String,
    /// 0 for the 上乗せ支援 line, which is not sold in lots.
    lots: i64,
    /// Tax included, after refunds.
    amount: i64,
    /// `10%対象`, `8%対象（軽減税率）` or `対象外`.
    rate_label: String,
}

/// The total and the consumption tax of one rate, the tax taken once from the total.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ReceiptRateDto {
    /// `10%対象`, `8%対象（軽減税率）` or `対象外`.
    label: String,
    /// Null: not taxable.
    #[schema(required = true)]
    rate_percent: Option<u32>,
    /// Tax included.
    total: i64,
    tax: i64,
}

/// Who receives the money, as the receipt names them.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ReceiptIssuerDto {
    name: String,
    /// `T` and 13 digits; null when the issuer is not a registered issuer of qualified invoices (the receipt then
    /// prints no registration number line).
    #[schema(required = true)]
    registration_number: Option<String>,
    /// Set when the site's operator receives the money on the project owner's behalf (no issuer set on the
    /// project): the owner's name.
    #[schema(required = true)]
    on_behalf_of: Option<String>,
}

/// A paid sale's receipt, as the printable page shows it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SaleReceiptDto {
    sale_id: i64,
    /// `R00000041`; from the second issue on `R00000041-2`, ....
    receipt_number: String,
    kind: ReceiptKindDto,
    /// 領収書, 領収書（再発行）, 寄附金受領証明書 or 寄附金受領証明書（再発行）: the latest issue's (the original's
    /// before any issue).
    title: String,
    /// The title the next issue prints (a reissue once the receipt was issued).
    next_title: String,
    /// 0 while never issued; 1 the original; more: reissued.
    issued_count: u32,
    /// The latest issue's addressee (宛名), else the default.
    addressee: String,
    /// What an empty addressee prints: the supporter's name (may be empty).
    default_addressee: String,
    /// The day it was paid, Tokyo (`YYYY-MM-DD`).
    paid_on: String,
    /// The latest issue's day, Tokyo; null while never issued.
    #[schema(required = true)]
    issued_on: Option<String>,
    /// 但し書き: `「前橋ばら園」へのご支援として`.
    purpose: String,
    /// Received and kept, tax included: the total less refunds paid out.
    amount: i64,
    /// What was paid, before refunds.
    paid_total: i64,
    /// Refunds paid out.
    refunded: i64,
    /// '全額返金済みです。' or '一部返金済みです。返金後の金額を記載しています。' after a refund.
    #[schema(required = true)]
    refund_note: Option<String>,
    lines: Vec<ReceiptLineDto>,
    /// Highest rate first, not taxable last.
    rates: Vec<ReceiptRateDto>,
    issuer: ReceiptIssuerDto,
    /// True when the receipt is a qualified invoice (適格請求書): the issuer's registration number is printed.
    qualified_invoice: bool,
}

impl From<SaleReceipt> for SaleReceiptDto {
    fn from(r: SaleReceipt) -> Self {
        let registration_number = r.issuer.registration_number.map(|n| n.as_str().to_owned());
        Self {
            sale_id: r.sale.get(),
            receipt_number: receipt_number(r.sale.get(), r.issued_count),
            kind: match r.kind {
                ReceiptKind::Sale => ReceiptKindDto::Sale,
                ReceiptKind::Donation => ReceiptKindDto::Donation,
            },
            title: r.title.to_owned(),
            next_title: receipt_title(r.kind, r.issued_count > 0).to_owned(),
            issued_count: r.issued_count,
            addressee: r.addressee,
            default_addressee: r.default_addressee,
            paid_on: r.paid_on.to_string(),
            issued_on: r.issued_on.map(|d| d.to_string()),
            purpose: r.purpose,
            amount: r.amount.0,
            paid_total: r.paid_total.0,
            refunded: r.refunded.0,
            refund_note: r.refund_note.map(str::to_owned),
            lines: r
                .lines
                .into_iter()
                .map(|l| ReceiptLineDto {
                    description: l.description,
                    lots: l.lots,
                    amount: l.amount.0,
                    rate_label: rate_label(l.rate),
                })
                .collect(),
            rates: r
                .rates
                .into_iter()
                .map(|t| ReceiptRateDto {
                    label: rate_label(t.rate),
                    rate_percent: t.rate.map(|rate| rate.percent()),
                    total: t.total.0,
                    tax: t.tax.0,
                })
                .collect(),
            qualified_invoice: registration_number.is_some(),
            issuer: ReceiptIssuerDto { name: r.issuer.name, registration_number, on_behalf_of: r.issuer.on_behalf_of },
        }
    }
}

/// An issue of the receipt.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct IssueReceiptInput {
    /// 宛名; empty or null: the supporter's name. One line, at most 60 characters.
    #[serde(default)]
    #[schema(required = true, max_length = 60)]
    addressee: Option<String>,
}

#[derive(Debug, Deserialize, IntoParams)]
pub(crate) struct SalePath {
    /// The sale (a number from the payment history).
    sale_id: i64,
}

#[derive(Debug, Deserialize, IntoParams)]
pub(crate) struct TokenPath {
    /// The token of the paid mail's link.
    token: String,
}

type Answer = Result<HttpResponse, ApiError>;

/// A receipt names a person: never kept by a shared cache or the browser's disk (the link's answer has no
/// Authorization header to say so).
fn answer(receipt: SaleReceipt) -> Answer {
    let mut response = HttpResponse::Ok().json(SaleReceiptDto::from(receipt));
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

/// The caller's own paid sale's receipt.
///
/// Another member's sale, an unknown sale and a sale not paid are all `404 not_found`, alike.
#[utoipa::path(
    tag = "my page",
    params(SalePath),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The receipt", body = SaleReceiptDto),
        (status = 400, description = "`malformed_request`: a sale id that is not a number", body = ErrorBody),
        (status = 401, description = "`unauthorized`", body = ErrorBody),
        (status = 404, description = "`not_found`: not the caller's paid sale", body = ErrorBody),
    )
)]
#[get("/{sale_id}")]
async fn member_receipt(user: AuthUser, receipts: web::Data<dyn SaleReceipts>, path: web::Path<SalePath>) -> Answer {
    answer(receipts.receipt(ReceiptAccess::Member(user.0.id, SaleId(path.sale_id))).await?)
}

/// Issues the caller's receipt: the first issue is the original (領収書), every later one is printed 再発行.
///
/// The addressee may be set or changed at any issue. Rate limit: 30 issues per member per hour.
#[utoipa::path(
    tag = "my page",
    params(SalePath),
    request_body = IssueReceiptInput,
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The receipt as issued", body = SaleReceiptDto),
        (status = 400, description = "`validation_failed` on `addressee`: '宛名は60文字以内で入力してください。', \
            '宛名に使用できない文字が含まれています。'; `malformed_request`", body = ErrorBody),
        (status = 401, description = "`unauthorized`", body = ErrorBody),
        (status = 404, description = "`not_found`: not the caller's paid sale", body = ErrorBody),
        (status = 429, description = "`rate_limited`", body = ErrorBody),
    )
)]
#[post("/{sale_id}/issue")]
async fn member_issue(
    req: HttpRequest,
    user: AuthUser,
    receipts: web::Data<dyn SaleReceipts>,
    path: web::Path<SalePath>,
    body: Json<IssueReceiptInput>,
) -> Answer {
    rate::enforce(&req, &[(ISSUE_PER_USER, Subject::User(user.0.id.get()))]).await?;
    let access = ReceiptAccess::Member(user.0.id, SaleId(path.sale_id));
    answer(receipts.issue(access, body.into_inner().addressee).await?)
}

/// The receipt the paid mail's link opens, without logging in (the link lasts 400 days).
///
/// A token that is not genuine, expired, or names a sale not paid is `404 not_found`.
#[utoipa::path(
    tag = "payment",
    params(TokenPath),
    responses(
        (status = 200, description = "The receipt", body = SaleReceiptDto),
        (status = 400, description = "`malformed_request`", body = ErrorBody),
        (status = 404, description = "`not_found`", body = ErrorBody),
    )
)]
#[get("/{token}")]
async fn link_receipt(receipts: web::Data<dyn SaleReceipts>, path: web::Path<TokenPath>) -> Answer {
    answer(receipts.receipt(ReceiptAccess::Token(path.into_inner().token)).await?)
}

/// Issues the receipt the paid mail's link names, as the member's issue does.
///
/// Rate limit: 30 issues per client address per hour.
#[utoipa::path(
    tag = "payment",
    params(TokenPath),
    request_body = IssueReceiptInput,
    responses(
        (status = 200, description = "The receipt as issued", body = SaleReceiptDto),
        (status = 400, description = "`validation_failed` on `addressee`; `malformed_request`", body = ErrorBody),
        (status = 404, description = "`not_found`", body = ErrorBody),
        (status = 429, description = "`rate_limited`", body = ErrorBody),
    )
)]
#[post("/{token}/issue")]
async fn link_issue(
    req: HttpRequest,
    receipts: web::Data<dyn SaleReceipts>,
    path: web::Path<TokenPath>,
    body: Json<IssueReceiptInput>,
) -> Answer {
    rate::enforce(&req, &[(ISSUE_PER_IP, Subject::Ip)]).await?;
    answer(receipts.issue(ReceiptAccess::Token(path.into_inner().token), body.into_inner().addressee).await?)
}

/// A project's receipt issuer, as the operator's screen edits it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ReceiptIssuerSettingsDto {
    project_id: i64,
    project_title: String,
    /// Null: none set; receipts then name the site's operator as receiving on the owner's behalf.
    #[schema(required = true)]
    issuer_name: Option<String>,
    /// `T` and 13 digits; null when not registered.
    #[schema(required = true)]
    registration_number: Option<String>,
    /// When it was last set (ISO 8601, Tokyo); null: never.
    #[schema(required = true)]
    updated_at: Option<String>,
}

impl From<ProjectIssuer> for ReceiptIssuerSettingsDto {
    fn from(p: ProjectIssuer) -> Self {
        Self {
            project_id: p.project.get(),
            project_title: p.project_title,
            registration_number: p
                .issuer
                .as_ref()
                .and_then(|i| i.registration_number.as_ref())
                .map(|n| n.as_str().to_owned()),
            issuer_name: p.issuer.map(|i| i.name),
            updated_at: p.updated_at.map(iso),
        }
    }
}

/// Who issues the project's receipts.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct ReceiptIssuerInput {
    /// The owner's name as the receipt prints it: required, at most 100 characters.
    #[schema(max_length = 100)]
    issuer_name: String,
    /// 登録番号: `T` and 13 digits (full-width accepted); empty or null: not registered.
    #[schema(required = true, max_length = 40)]
    registration_number: Option<String>,
}

/// A project's receipt issuer.
#[utoipa::path(
    tag = "admin",
    params(ProjectPath),
    responses(
        (status = 200, description = "The issuer (fields null when none is set)", body = ReceiptIssuerSettingsDto),
        (status = 400, description = "`malformed_request`: an id that is not a number", body = ErrorBody),
        (status = 404, description = "`not_found`: unknown project, or not an administrator", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[get("/{id}/receipt-issuer")]
pub(crate) async fn get_issuer(
    _admin: AdminUser,
    receipts: web::Data<dyn SaleReceipts>,
    path: web::Path<ProjectPath>,
) -> Result<Json<ReceiptIssuerSettingsDto>, ApiError> {
    Ok(Json(receipts.project_issuer(ProjectId(path.id)).await?.into()))
}

/// Sets who issues the project's receipts (audit log: `receipt_issuer_updated`).
///
/// Receipts already printed are not changed; every receipt opened afterwards names this issuer.
#[utoipa::path(
    tag = "admin",
    params(ProjectPath),
    request_body = ReceiptIssuerInput,
    responses(
        (status = 200, description = "The issuer", body = ReceiptIssuerSettingsDto),
        (status = 400, description = "`validation_failed` with every refused field: '発行者名を入力してください。', \
            '登録番号はTと13桁の数字で入力してください。'; `malformed_request`", body = ErrorBody),
        (status = 404, description = "`not_found`: unknown project, or not an administrator", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[put("/{id}/receipt-issuer")]
pub(crate) async fn set_issuer(
    admin: AdminUser,
    receipts: web::Data<dyn SaleReceipts>,
    path: web::Path<ProjectPath>,
    body: Result<Json<ReceiptIssuerInput>, actix_web::Error>,
) -> Result<Json<ReceiptIssuerSettingsDto>, actix_web::Error> {
    let ReceiptIssuerInput { issuer_name, registration_number } = body?.into_inner();
    let issuer = receipts
        .set_issuer(admin.0.id, ProjectId(path.id), issuer_name, registration_number)
        .await
        .map_err(ApiError::from)?;
    Ok(Json(issuer.into()))
}
