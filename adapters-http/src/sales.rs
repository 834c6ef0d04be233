//! `/v1/sales/get/...`: paid totals and the public supporter list.

use actix_web::web::{self, Json};
use actix_web::{get, FromRequest, HttpRequest};
use chrono::SecondsFormat;
use domain::ids::{ProjectId, ReturnId};
use domain::time::tokyo;
use ports::accounts::Profiles;
use ports::catalog::{Catalog, PaidSum, PublicSale, SumTarget};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::auth::{AdminUser, AuthUser};
use crate::error::either_body;
use crate::profile;
use crate::profile::HistoryResponse;
use crate::project::SumDto;
use crate::refunds::RefundSalesResponse;
use crate::{ApiError, ErrorBody};
use ports::admin::refunds::Refunds;

pub(crate) fn config(cfg: &mut ServiceConfig) {
    cfg.service(paid_sum).service(all_paid_sum).service(sales_list);
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct SumQuery {
    /// `project` or `return`.
    #[serde(rename = "type")]
    #[param(rename = "type", example = "project")]
    kind: String,
    /// The project's or return's id.
    id: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct SumResponse {
    result: SumDto,
}

impl From<PaidSum> for SumResponse {
    fn from(paid: PaidSum) -> Self {
        Self { result: SumDto { amount: paid.amount.0, lot: paid.supports } }
    }
}

const MSG_SUM_TYPE: &str = "typeにはprojectまたはreturnを指定してください。";

/// Paid total of a project or a return.
///
/// Only sales with status `succeeded` count; `lot` is the number of paid supports.
#[utoipa::path(
    params(SumQuery),
    tag = "public",
    responses(
        (status = 200, description = "The paid total", body = SumResponse),
        (status = 400, description = "`malformed_request` or `validation_failed` (`type`)", body = ErrorBody),
        (status = 404, description = "`not_found`", body = ErrorBody),
    )
)]
#[get("/sales/get/sum")]
async fn paid_sum(catalog: web::Data<dyn Catalog>, query: web::Query<SumQuery>) -> Result<Json<SumResponse>, ApiError> {
    let SumQuery { kind, id } = query.into_inner();
    let target = match kind.as_str() {
        "project" => SumTarget::Project(ProjectId(id)),
        "return" => SumTarget::Return(ReturnId(id)),
        _ => return Err(ApiError::validation(MSG_SUM_TYPE)),
    };
    let paid = catalog.paid_sum(target).await?;
    Ok(Json(paid.into()))
}

/// Paid total of every project (may be a few seconds old).
#[utoipa::path(
    tag = "public",
    responses((status = 200, description = "The paid total", body = SumResponse))
)]
#[get("/sales/get/allSum")]
async fn all_paid_sum(catalog: web::Data<dyn Catalog>) -> Result<Json<SumResponse>, ApiError> {
    let paid = catalog.paid_sum(SumTarget::All).await?;
    Ok(Json(paid.into()))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct ProjectQuery {
    /// The project's id.
    pub(crate) project_id: i64,
}

#[derive(Debug, Serialize, ToSchema)]
struct DisplayNameDto {
    displayname: String,
}

#[derive(Debug, Serialize, ToSchema)]
struct UrlDto {
    url: String,
}

#[derive(Debug, Serialize, ToSchema)]
struct LogoUrlsDto {
    logo: Vec<UrlDto>,
}

#[derive(Debug, Serialize, ToSchema)]
struct SaleUserDto {
    #[schema(required = true)]
    corporatename: Option<String>,
    #[schema(required = true)]
    corporateurl: Option<String>,
    urls: LogoUrlsDto,
}

#[derive(Debug, Serialize, ToSchema)]
struct PublicSaleDto {
    /// ISO 8601, Tokyo time.
    created_at: String,
    /// 0 individual, 1 company, 2 organisation.
    return_type: i32,
    displayname: DisplayNameDto,
    users: SaleUserDto,
}

impl From<PublicSale> for PublicSaleDto {
    fn from(s: PublicSale) -> Self {
        Self {
            created_at: s.created_at.with_timezone(&tokyo()).to_rfc3339_opts(SecondsFormat::Secs, true),
            return_type: s.return_type.code(),
            displayname: DisplayNameDto { displayname: s.displayname },
            users: SaleUserDto {
                corporatename: s.corporatename,
                corporateurl: s.corporateurl,
                urls: LogoUrlsDto { logo: s.logo_url.into_iter().map(|url| UrlDto { url }).collect() },
            },
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
/// A project's public supporter list, newest first.
struct PublicSalesResponse {
    data: Vec<PublicSaleDto>,
}

/// The seed uses one path for two lists: `project_id` asks for a project's
/// public supporter list, `user_id` for the caller's own payment history.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct ListQuery {
    /// A project's public supporter list.
    project_id: Option<i64>,
    /// `me` or the caller's own id: the caller's payment history (token required).
    #[param(example = "me")]
    user_id: Option<String>,
    /// With `project_id` and `refunds=1`: the admin refund table (spec §7 sends `intent=1` too).
    #[param(minimum = 0, maximum = 1)]
    #[allow(dead_code)] // Accepted (and bounded) for the seed's call; the refund table always has the payment.
    intent: Option<u8>,
    /// `1` with `project_id`: the admin refund table (administrators only; others get 404).
    #[param(minimum = 0, maximum = 1)]
    refunds: Option<u8>,
}

/// A list of sales, one of two by the parameter.
///
/// `project_id`: the project's public supporter list (no token; public
/// fields only). `user_id=me`: the caller's own payment history (token
/// required; another user's id is 403). `project_id` with `refunds=1`: the
/// refund table of the admin screen (administrators only: 404 for anyone
/// else, as for an unknown path).
#[utoipa::path(
    params(ListQuery),
    tag = "public",
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "The supporter list (`project_id`), the payment history (`user_id`) or the \
            refund table (`project_id`, `refunds=1`)",
            body = SalesListBody),
        (status = 400, description = "`malformed_request` or `validation_failed` (neither parameter)", body = ErrorBody),
        (status = 401, description = "`unauthorized` (`user_id` without a valid token)", body = ErrorBody),
        (status = 403, description = "`forbidden`: another user's history", body = ErrorBody),
        (status = 404, description = "`not_found`: unknown project; the refund table for a non-administrator",
            body = ErrorBody),
    )
)]
#[get("/sales/get/list")]
async fn sales_list(
    req: HttpRequest,
    catalog: web::Data<dyn Catalog>,
    query: web::Query<ListQuery>,
) -> Result<Json<SalesList>, ApiError> {
    match query.into_inner() {
        ListQuery { project_id: Some(project_id), refunds: Some(1), .. } => {
            AdminUser::extract(&req).await?;
            let refunds = req.app_data::<web::Data<dyn Refunds>>().cloned().ok_or(ApiError::Internal)?;
            Ok(Json(SalesList::Refunds(crate::refunds::refund_table(refunds.as_ref(), ProjectId(project_id)).await?)))
        }
        ListQuery { project_id: Some(project_id), .. } => {
            // Public fields only: no e-mail, user id or amount.
            let sales = catalog.public_sales(ProjectId(project_id)).await?;
            let data: Vec<PublicSaleDto> = sales.into_iter().map(Into::into).collect();
            Ok(Json(SalesList::Public(PublicSalesResponse { data })))
        }
        ListQuery { user_id: Some(claimed), .. } => {
            let user = AuthUser::extract(&req).await?;
            let profiles = req.app_data::<web::Data<dyn Profiles>>().cloned().ok_or(ApiError::Internal)?;
            Ok(Json(SalesList::Own(profile::own_history(user, profiles, &claimed).await?)))
        }
        ListQuery { .. } => Err(ApiError::validation("project_id または user_id を指定してください。")),
    }
}

/// The two answers of `/sales/get/list`.
#[derive(Debug, Serialize)]
#[serde(untagged)]
enum SalesList {
    Public(PublicSalesResponse),
    Own(HistoryResponse),
    Refunds(RefundSalesResponse),
}

either_body!(
    /// The supporter list, the caller's history or the refund table.
    SalesListBody = PublicSalesResponse | HistoryResponse | RefundSalesResponse
);
