//! Refunds by administrators (spec 001 §2, §5, §7): the refund table of a
//! project (`GET /v1/sales/get/list?project_id=&intent=1&refunds=1`, answered
//! from `sales.rs`), a single refund (`POST /v1/stripe/intent/set/refund`),
//! and bulk refunds run as a job (`/v1/admin/set/bulkRefund`,
//! `/v1/admin/get/bulkRefund`). Every handler takes [`AdminUser`].

use actix_web::web::{self, Json};
use actix_web::{get, post, HttpResponse};
use chrono::SecondsFormat;
use domain::ids::{ProjectId, SaleId};
use domain::money::Yen;
use domain::refund::{bulk_refund_message, half_refund_amount, refund_failure_text, BulkMode, RefundFlag};
use domain::time::tokyo;
use ports::admin::refunds::{
    BulkJob, OpenRefundStatus, RefundOutcome, RefundProject, RefundSale, RefundSheet, Refunds, MSG_NEEDS_BANK_DETAILS,
    MSG_REFUND_DONE, MSG_REFUND_FAILED, MSG_REFUND_PENDING,
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::auth::AdminUser;
use crate::wire_names::PaymentTypeCode;
use crate::{ApiError, ErrorBody};

pub(crate) fn config(cfg: &mut ServiceConfig) {
    cfg.service(refund_projects).service(refund_sale).service(start_bulk_refund).service(bulk_refund_status);
}

/// A project on the refund index.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RefundProjectDto {
    id: i64,
    slug: String,
    title: String,
    /// Sales refundable now (flag 1, late transfers included).
    refundable: u32,
    /// Sales refunded (flag 11).
    refunded: u32,
    /// Late bank transfers waiting for their refund.
    refund_required: u32,
}

impl From<RefundProject> for RefundProjectDto {
    fn from(p: RefundProject) -> Self {
        Self {
            id: p.id.0,
            slug: p.slug,
            title: p.title,
            refundable: p.refundable,
            refunded: p.refunded,
            refund_required: p.refund_required,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct RefundProjectsResponse {
    projects: Vec<RefundProjectDto>,
}

/// The projects of the refund index (`/admin/refund/`), by id.
#[utoipa::path(
    tag = "admin",
    responses(
        (status = 200, description = "Every project with its refund counts", body = RefundProjectsResponse),
        (status = 404, description = "`not_found`: not an administrator (as for an unknown path)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[get("/admin/get/refundProjects")]
async fn refund_projects(
    _admin: AdminUser,
    refunds: web::Data<dyn Refunds>,
) -> Result<Json<RefundProjectsResponse>, ApiError> {
    let projects = refunds.projects().await?;
    Ok(Json(RefundProjectsResponse { projects: projects.into_iter().map(Into::into).collect() }))
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct SaleUsersDto {
    #[schema(required = true)]
    username: Option<String>,
    #[schema(required = true)]
    displayname: Option<String>,
    #[schema(required = true)]
    corporatename: Option<String>,
}

/// Where a sale stands for refunds.
#[derive(Debug, Serialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub(crate) enum RefundState {
    /// Flag 1: may be refunded.
    Refundable,
    /// Flag 11.
    Refunded,
    /// Any other flag.
    NotRefundable,
    /// Asked of the provider, answer not applied yet.
    Pending,
    /// The provider waits for the supporter's bank account.
    NeedsBankDetails,
    /// A bank-transfer refund unanswered for 6 months, cancelled: the amount passed to the company (未請求（期限切れ）).
    Unclaimed,
}

/// One row of the refund table.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RefundSaleDto {
    id: i64,
    /// ISO 8601, Tokyo time.
    created_at: String,
    /// The first of username, displayname, corporatename.
    sponsor_name: String,
    users: SaleUsersDto,
    /// price x lot.
    amount: i64,
    /// What the supporter paid, tax included: the most that can be refunded.
    total: i64,
    #[schema(required = true)]
    course: Option<String>,
    return_title: String,
    /// Units (口数).
    lot: i32,
    /// 1 card, 2 bank transfer.
    #[schema(value_type = PaymentTypeCode)]
    payment_type: i32,
    /// 1 refundable, 11 refunded, other not refundable (a late transfer counts as 1).
    flag: i32,
    /// A bank transfer that arrived after its sale was cancelled: it must be refunded.
    refund_required: bool,
    /// Yen refunded (succeeded refunds).
    refunded_amount: i64,
    /// Yen that may still be refunded: the ceiling of a single refund and what a full bulk refund gives;
    /// 0 while a refund is under way or once the sale is not refundable.
    refundable_amount: i64,
    /// What a half bulk refund gives this sale (half the refundable amount, rounded down); null when that is
    /// 0 yen or the sale is not refundable: the run skips it.
    #[schema(required = true)]
    half_refund_amount: Option<i64>,
    state: RefundState,
    /// Yen of the refund under way (pending or waiting for bank details).
    #[schema(required = true)]
    open_refund_amount: Option<i64>,
    /// Why the provider refused the last attempt, in Japanese (the sale stays refundable).
    #[schema(required = true)]
    last_failure: Option<String>,
    /// The provider's own words for it (English at Stripe), for diagnosis.
    #[schema(required = true)]
    last_failure_detail: Option<String>,
}

impl From<RefundSale> for RefundSaleDto {
    fn from(s: RefundSale) -> Self {
        let state = match (&s.open_refund, s.flag) {
            (Some(open), _) if open.status == OpenRefundStatus::RequiresAction => RefundState::NeedsBankDetails,
            (Some(_), _) => RefundState::Pending,
            (None, _) if s.unclaimed.is_positive() && s.refundable_amount().0 == 0 => RefundState::Unclaimed,
            (None, RefundFlag::Refundable) => RefundState::Refundable,
            (None, RefundFlag::Refunded) => RefundState::Refunded,
            (None, RefundFlag::NotRefundable(_)) => RefundState::NotRefundable,
        };
        Self {
            id: s.id.0,
            created_at: s.created_at.with_timezone(&tokyo()).to_rfc3339_opts(SecondsFormat::Secs, true),
            sponsor_name: s.sponsor_name(),
            users: SaleUsersDto {
                username: s.username.clone(),
                displayname: s.displayname.clone(),
                corporatename: s.corporatename.clone(),
            },
            amount: s.amount.0,
            total: s.total.0,
            course: s.course.clone(),
            return_title: s.return_title.clone(),
            lot: s.lot,
            payment_type: s.pay_type.code(),
            flag: s.flag.code(),
            refund_required: s.refund_required,
            refunded_amount: s.refunded.0,
            refundable_amount: s.refundable_amount().0,
            half_refund_amount: half_refund_amount(s.refundable_amount()).map(|half| half.0),
            state,
            open_refund_amount: s.open_refund.as_ref().map(|o| o.amount.0),
            last_failure: s.last_failure.as_deref().map(refund_failure_text),
            last_failure_detail: s.last_failure.clone(),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct RefundSalesData {
    data: Vec<RefundSaleDto>,
}

/// The refund table: `data.data` is the sales list (spec §7).
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct RefundSalesResponse {
    data: RefundSalesData,
}

impl From<RefundSheet> for RefundSalesResponse {
    fn from(sheet: RefundSheet) -> Self {
        Self { data: RefundSalesData { data: sheet.sales.into_iter().map(Into::into).collect() } }
    }
}

/// `GET /v1/sales/get/list?project_id=&intent=1&refunds=1` (called from `sales.rs`).
pub(crate) async fn refund_table(refunds: &dyn Refunds, project: ProjectId) -> Result<RefundSalesResponse, ApiError> {
    Ok(refunds.sheet(project).await?.into())
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct RefundRequestBody {
    /// The sale to refund.
    sale_id: i64,
    /// Yen to refund; empty, zero or negative is refused with the spec's message.
    #[schema(required = true)]
    amount: Option<i64>,
}

/// How a refund ended.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum RefundOutcomeDto {
    Succeeded,
    NeedsBankDetails,
    Pending,
    Failed,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RefundResponse {
    outcome: RefundOutcomeDto,
    /// What the screen says: '返金が完了しました。', '返金に失敗しました', ...
    message: String,
    /// Why the provider refused, in Japanese.
    #[schema(required = true)]
    reason: Option<String>,
    /// The provider's own words for it (English at Stripe), for diagnosis.
    #[schema(required = true)]
    reason_detail: Option<String>,
}

/// Refunds one sale (spec §5: single refund).
///
/// The request is written to the audit log and the amount reserved before the
/// provider is asked (idempotency key `sale-{id}-refund-{refund id}`); the
/// flag becomes 11 only on the provider's confirmation. A refusal by the
/// provider is `200` with `outcome: failed` and its reason: the sale stays
/// refundable.
#[utoipa::path(
    tag = "admin",
    request_body = RefundRequestBody,
    responses(
        (status = 200, description = "The provider's answer", body = RefundResponse),
        (status = 400, description = "`validation_failed`: '返金額を入力してください', \
            '返金額が協賛金額の合計を超えています', or the sale is not refundable; `malformed_request`", body = ErrorBody),
        (status = 404, description = "`not_found`: unknown sale, or not an administrator", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[post("/stripe/intent/set/refund")]
async fn refund_sale(
    admin: AdminUser,
    refunds: web::Data<dyn Refunds>,
    body: Result<Json<RefundRequestBody>, actix_web::Error>,
) -> Result<Json<RefundResponse>, actix_web::Error> {
    // The body is read only after the administrator check (see admin.rs): anyone else gets 404, not a 400.
    let body = body?.into_inner();
    let outcome =
        refunds.refund_one(admin.0.id, SaleId(body.sale_id), body.amount.map(Yen)).await.map_err(ApiError::from)?;
    let (outcome, message, reason) = match outcome {
        RefundOutcome::Succeeded => (RefundOutcomeDto::Succeeded, MSG_REFUND_DONE, None),
        RefundOutcome::NeedsBankDetails => (RefundOutcomeDto::NeedsBankDetails, MSG_NEEDS_BANK_DETAILS, None),
        RefundOutcome::Pending => (RefundOutcomeDto::Pending, MSG_REFUND_PENDING, None),
        RefundOutcome::Failed { reason } => (RefundOutcomeDto::Failed, MSG_REFUND_FAILED, Some(reason)),
    };
    let reason_detail = reason.clone();
    let reason = reason.as_deref().map(refund_failure_text);
    Ok(Json(RefundResponse { outcome, message: message.to_string(), reason, reason_detail }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct BulkRefundBody {
    project_id: i64,
    /// 0 none, 1 full, 2 half, 3 specified amount.
    #[schema(minimum = 0, maximum = 3)]
    mode: i32,
    /// Yen for every refundable sale (mode 3 only).
    #[schema(required = true)]
    amount: Option<i64>,
}

/// One sale of a bulk run.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct BulkRowDto {
    sale_id: i64,
    amount: i64,
    /// `succeeded`, `failed`, `pending`, `requires_action` (waiting for bank details), `skipped`, `waiting`.
    status: String,
    /// Why it failed, in Japanese.
    #[schema(required = true)]
    reason: Option<String>,
    /// The provider's own words for it (English at Stripe), for diagnosis.
    #[schema(required = true)]
    reason_detail: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct BulkJobDto {
    id: i64,
    /// `queued`, `running`, `succeeded`, `failed`.
    status: String,
    /// 1 full, 2 half, 3 specified.
    mode: i32,
    total: u32,
    done: u32,
    succeeded: usize,
    failed: usize,
    /// Sales no longer refundable when the run reached them, left alone.
    skipped: usize,
    /// Once the job has finished: '一括返金が完了しました' when no refund failed, otherwise how many were
    /// refunded and how many failed.
    #[schema(required = true)]
    message: Option<String>,
    /// ISO 8601, Tokyo time.
    created_at: String,
    #[schema(required = true)]
    finished_at: Option<String>,
    rows: Vec<BulkRowDto>,
}

impl From<BulkJob> for BulkJobDto {
    fn from(job: BulkJob) -> Self {
        let fmt =
            |t: chrono::DateTime<chrono::Utc>| t.with_timezone(&tokyo()).to_rfc3339_opts(SecondsFormat::Secs, true);
        let succeeded = job.count("succeeded");
        let failed = job.count("failed");
        let skipped = job.count("skipped");
        Self {
            id: job.id,
            message: (job.status == "succeeded").then(|| bulk_refund_message(succeeded, failed)),
            status: job.status,
            mode: job.mode,
            total: job.total,
            done: job.done,
            succeeded,
            failed,
            skipped,
            created_at: fmt(job.created_at),
            finished_at: job.finished_at.map(fmt),
            rows: job
                .rows
                .into_iter()
                .map(|r| BulkRowDto {
                    sale_id: r.sale.0,
                    amount: r.amount.0,
                    status: r.status,
                    reason: r.reason.as_deref().map(refund_failure_text),
                    reason_detail: r.reason,
                })
                .collect(),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct BulkRefundResponse {
    #[schema(required = true)]
    job: Option<BulkJobDto>,
}

/// Starts a bulk refund of a project's refundable sales (spec §4, §5).
///
/// Full refunds each sale's total, half half of it (floored), specified the
/// same amount for each. The run is planned here (all or nothing) and then
/// carried out by a background job; `GET /v1/admin/get/bulkRefund` shows its
/// progress and per-sale results. A second run of the same project while one
/// runs is `409`.
#[utoipa::path(
    tag = "admin",
    request_body = BulkRefundBody,
    responses(
        (status = 200, description = "Queued", body = BulkRefundResponse),
        (status = 400, description = "`validation_failed`: no mode, no amount, an amount above a sale \
            ('返金額が協賛金額を超えています。'), nothing refundable; `malformed_request`", body = ErrorBody),
        (status = 404, description = "`not_found`: unknown project, or not an administrator", body = ErrorBody),
        (status = 409, description = "`bulk_refund_running`: a bulk refund of the project is running", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[post("/admin/set/bulkRefund")]
async fn start_bulk_refund(
    admin: AdminUser,
    refunds: web::Data<dyn Refunds>,
    body: Result<Json<BulkRefundBody>, actix_web::Error>,
) -> Result<HttpResponse, actix_web::Error> {
    let body = body?.into_inner();
    let mode = BulkMode::from_select(body.mode, body.amount.map(Yen));
    let job = refunds.start_bulk(admin.0.id, ProjectId(body.project_id), mode).await.map_err(ApiError::from)?;
    Ok(HttpResponse::Ok().json(BulkRefundResponse { job: Some(job.into()) }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct BulkStatusQuery {
    project_id: i64,
}

/// The project's newest bulk refund with its progress and per-sale results
/// (`job: null` when none ever ran). The page polls it, so closing and
/// reopening the page shows the same run.
#[utoipa::path(
    tag = "admin",
    params(BulkStatusQuery),
    responses(
        (status = 200, description = "The newest run", body = BulkRefundResponse),
        (status = 400, description = "`malformed_request`", body = ErrorBody),
        (status = 404, description = "`not_found`: not an administrator", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[get("/admin/get/bulkRefund")]
async fn bulk_refund_status(
    _admin: AdminUser,
    refunds: web::Data<dyn Refunds>,
    query: Result<web::Query<BulkStatusQuery>, actix_web::Error>,
) -> Result<Json<BulkRefundResponse>, actix_web::Error> {
    let job = refunds.bulk_status(ProjectId(query?.project_id)).await.map_err(ApiError::from)?;
    Ok(Json(BulkRefundResponse { job: job.map(Into::into) }))
}
