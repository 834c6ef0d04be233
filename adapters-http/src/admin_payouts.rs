//! Payouts to owners of successful projects (`/v1/admin/payouts...`): the
//! list of statements due, one statement (精算書) to read and print, marking
//! it paid, and the export for the bank. Every handler takes [`AdminUser`]
//! first, so anyone else gets the 404 of an unknown path.

use actix_web::http::header;
use actix_web::web::{self, Json};
use actix_web::{get, post, HttpResponse};
use chrono::NaiveDate;
use domain::ids::ProjectId;
use domain::money::Yen;
use ports::campaign::payouts::{payouts_csv, MarkPaid, PaidStatement, Payouts, StatementView};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::admin::iso;
use crate::admin_projects::ProjectPath;
use crate::auth::AdminUser;
use crate::{ApiError, ErrorBody};

pub(crate) fn config(cfg: &mut ServiceConfig) {
    cfg.service(
        utoipa_actix_web::scope("/admin/payouts")
            .app_data(crate::error::json_config())
            .app_data(crate::error::path_config())
            .default_service(web::to(crate::error::not_found))
            .service(list_payouts)
            .service(export_payouts)
            .service(get_statement)
            .service(mark_paid),
    );
}

/// The figures of a statement, in yen; every one reconciles:
/// `confirmed + owedByOwner = platformFee + applicationFees + receivedDirectly + transferFee + carriedOver + payout`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct FiguresDto {
    /// Paid less refunds, tax included.
    confirmed: i64,
    /// The terms' 20 %, tax included, and the consumption tax in it.
    platform_fee: i64,
    platform_fee_tax: i64,
    /// Taken per payment by a connected account, and what reached it directly.
    application_fees: i64,
    received_directly: i64,
    /// The bank charge of this transfer.
    transfer_fee: i64,
    /// Paid out by earlier statements (bank charges included).
    carried_over: i64,
    /// To transfer to the owner now.
    payout: i64,
    /// What the owner owes back (refunds after a payout).
    owed_by_owner: i64,
}

impl From<domain::payout::PayoutStatement> for FiguresDto {
    fn from(f: domain::payout::PayoutStatement) -> Self {
        Self {
            confirmed: f.confirmed.0,
            platform_fee: f.platform_fee.0,
            platform_fee_tax: f.platform_fee_tax.0,
            application_fees: f.application_fees.0,
            received_directly: f.received_directly.0,
            transfer_fee: f.transfer_fee.0,
            carried_over: f.carried_over.0,
            payout: f.payout.0,
            owed_by_owner: f.owed_by_owner.0,
        }
    }
}

/// A statement already paid.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PaidStatementDto {
    seq: i32,
    figures: FiguresDto,
    #[schema(value_type = String, format = Date)]
    payout_date: NaiveDate,
    #[schema(value_type = String, format = Date)]
    paid_on: NaiveDate,
    reference: String,
    /// When it was marked paid (Asia/Tokyo, ISO 8601).
    marked_at: String,
}

impl From<PaidStatement> for PaidStatementDto {
    fn from(p: PaidStatement) -> Self {
        Self {
            seq: p.seq,
            figures: p.figures.into(),
            payout_date: p.payout_date,
            paid_on: p.paid_on,
            reference: p.reference,
            marked_at: iso(p.created_at),
        }
    }
}

/// `due`: something no statement covers yet; `settled`: the last statement covers everything.
#[derive(Debug, Clone, Copy, Serialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub(crate) enum PayoutStatusDto {
    Due,
    Settled,
}

/// A project's current statement.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct StatementDto {
    project_id: i64,
    title: String,
    slug: String,
    /// The campaign's last day.
    #[schema(value_type = String, format = Date)]
    period_end: NaiveDate,
    /// The number this statement gets when marked paid.
    seq: i32,
    /// Paid less refunds by card and by bank transfer.
    card: i64,
    bank: i64,
    figures: FiguresDto,
    /// The terms' payout day: the 3rd bank business day of the second month after the end month.
    #[schema(value_type = String, format = Date)]
    payout_date: NaiveDate,
    status: PayoutStatusDto,
    /// 未精算 or 精算済み.
    status_label: String,
    paid: Vec<PaidStatementDto>,
}

impl From<StatementView> for StatementDto {
    fn from(v: StatementView) -> Self {
        Self {
            project_id: v.project.get(),
            title: v.title,
            slug: v.slug,
            period_end: v.period_end,
            seq: v.seq,
            card: v.card.0,
            bank: v.bank.0,
            figures: v.figures.into(),
            payout_date: v.payout_date,
            status: match v.status {
                ports::campaign::payouts::PayoutStatus::Due => PayoutStatusDto::Due,
                ports::campaign::payouts::PayoutStatus::Settled => PayoutStatusDto::Settled,
            },
            status_label: v.status.label().to_string(),
            paid: v.paid.into_iter().map(Into::into).collect(),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct PayoutListResponse {
    /// Due first, then by payout date.
    payouts: Vec<StatementDto>,
}

/// What the operator saw and did.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct MarkPaidInput {
    /// The payout on the statement the operator read; refused (409) when it changed meanwhile.
    expected_payout: i64,
    expected_owed: i64,
    /// The day the transfer was made (not in the future).
    #[schema(value_type = String, format = Date)]
    paid_on: NaiveDate,
    /// The bank's reference or a note, 1 to 100 characters.
    reference: String,
}

/// Every successful project's current statement.
#[utoipa::path(
    tag = "admin",
    responses(
        (status = 200, description = "The statements", body = PayoutListResponse),
        (status = 404, description = "`not_found`: not an administrator", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[get("")]
async fn list_payouts(
    _admin: AdminUser,
    payouts: web::Data<dyn Payouts>,
) -> Result<Json<PayoutListResponse>, ApiError> {
    let list = payouts.list().await?;
    Ok(Json(PayoutListResponse { payouts: list.into_iter().map(Into::into).collect() }))
}

/// The statements as CSV for the bank and Excel (UTF-8 with BOM, every field quoted).
#[utoipa::path(
    tag = "admin",
    responses(
        (status = 200, description = "The CSV file", content_type = "text/csv"),
        (status = 404, description = "`not_found`: not an administrator", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[get("/export.csv")]
async fn export_payouts(_admin: AdminUser, payouts: web::Data<dyn Payouts>) -> Result<HttpResponse, ApiError> {
    let list = payouts.list().await?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "text/csv; charset=utf-8"))
        .insert_header((header::CONTENT_DISPOSITION, "attachment; filename=\"payouts.csv\""))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .body(payouts_csv(&list)))
}

/// One project's statement (精算書) and its paid ones.
#[utoipa::path(
    tag = "admin",
    params(ProjectPath),
    responses(
        (status = 200, description = "The statement", body = StatementDto),
        (status = 400, description = "`malformed_request`: the id is not a number", body = ErrorBody),
        (status = 404, description = "`no_statement`: not a successful project; `not_found`: not an administrator", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[get("/{id}")]
async fn get_statement(
    _admin: AdminUser,
    payouts: web::Data<dyn Payouts>,
    path: web::Path<ProjectPath>,
) -> Result<Json<StatementDto>, ApiError> {
    let project = ProjectId::try_from(path.id).map_err(|_| ApiError::NotFound)?;
    Ok(Json(payouts.statement(project).await?.into()))
}

/// Marks the statement read as paid; answers the project's next statement.
#[utoipa::path(
    tag = "admin",
    params(ProjectPath),
    request_body = MarkPaidInput,
    responses(
        (status = 200, description = "The statement after it", body = StatementDto),
        (status = 400, description = "`validation_failed`: `reference` or `paidOn` refused; `malformed_request`", body = ErrorBody),
        (status = 404, description = "`no_statement`: not a successful project; `not_found`: not an administrator", body = ErrorBody),
        (status = 409, description = "`payout_changed`: the figures changed since they were read", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[post("/{id}/paid")]
async fn mark_paid(
    admin: AdminUser,
    payouts: web::Data<dyn Payouts>,
    path: web::Path<ProjectPath>,
    // Read after the administrator check: anyone else gets the 404 of an unknown path, whatever the body.
    input: Result<Json<MarkPaidInput>, actix_web::Error>,
) -> Result<Json<StatementDto>, actix_web::Error> {
    let project = ProjectId::try_from(path.id).map_err(|_| ApiError::NotFound)?;
    let input = input?.into_inner();
    let mark = MarkPaid {
        expected_payout: Yen(input.expected_payout),
        expected_owed: Yen(input.expected_owed),
        paid_on: input.paid_on,
        reference: input.reference,
    };
    Ok(Json(payouts.mark_paid(admin.0.id, project, mark).await.map_err(ApiError::from)?.into()))
}
