//! Shipping the returns (`/v1/admin/projects/{id}/deliveries...`): who must
//! receive what, its CSV for Excel, and the delivery state set for one sale or
//! a selection. Mounted in the admin projects scope; every handler takes
//! [`AdminUser`] first, so anyone else gets the 404 of an unknown path.

use actix_web::http::header;
use actix_web::web::{self, Json};
use actix_web::{get, post, HttpResponse};
use chrono::NaiveDate;
use domain::delivery::{DeliveryFilter, DeliveryState, MAX_SELECTION};
use domain::ids::{ProjectId, ReturnId, SaleId};
use ports::admin::deliveries::{
    Deliveries, DeliveryError, DeliveryPage, DeliveryQuery, DeliveryRow, MarkDeliveries, MarkOutcome,
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::admin::iso;
use crate::admin_projects::ProjectPath;
use crate::auth::AdminUser;
use crate::{ApiError, ErrorBody};

/// The highest page the list answers (50 rows a page: a million sales).
const MAX_PAGE: u32 = 20_000;

/// `unshipped` (未発送) or `shipped` (発送済み).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub(crate) enum DeliveryStateDto {
    Unshipped,
    Shipped,
}

/// The list's filter on the state: `all` (the default), `unshipped`, `shipped`.
#[derive(Debug, Clone, Copy, Deserialize, ToSchema, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
pub(crate) enum DeliveryFilterDto {
    #[default]
    All,
    Unshipped,
    Shipped,
}

impl From<DeliveryFilterDto> for DeliveryFilter {
    fn from(filter: DeliveryFilterDto) -> Self {
        match filter {
            DeliveryFilterDto::All => Self::All,
            DeliveryFilterDto::Unshipped => Self::Unshipped,
            DeliveryFilterDto::Shipped => Self::Shipped,
        }
    }
}

/// A sale's delivery, as the admin list and the supporter's payment history show it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DeliveryStatusDto {
    state: DeliveryStateDto,
    /// 未発送 or 発送済み.
    label: &'static str,
    /// The day it was shipped (Asia/Tokyo); null while 未発送.
    #[schema(value_type = Option<String>, format = Date)]
    shipped_on: Option<NaiveDate>,
    /// The operator's note (carrier, tracking number); null when none.
    note: Option<String>,
}

impl From<&DeliveryState> for DeliveryStatusDto {
    fn from(state: &DeliveryState) -> Self {
        let (kind, shipped_on, note) = match state {
            DeliveryState::Unshipped => (DeliveryStateDto::Unshipped, None, None),
            DeliveryState::Shipped { on, note } => (DeliveryStateDto::Shipped, Some(*on), note.clone()),
        };
        Self { state: kind, label: state.label(), shipped_on, note }
    }
}

/// The delivery address the sale was placed with.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DeliveryAddressDto {
    name: String,
    tel_number: String,
    zip: String,
    pref: String,
    city: String,
    address: String,
    building: Option<String>,
}

/// The project's additional question and the supporter's answer.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct AnswerDto {
    label: String,
    value: String,
}

/// One sale to deliver.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DeliveryDto {
    sale_id: i64,
    /// The supporter's account (a guest has one too).
    user_id: i64,
    return_id: i64,
    return_title: String,
    lot: i16,
    /// When the support was placed (ISO 8601, Tokyo time).
    created_at: String,
    /// The name given for the walls; null when none.
    displayname: Option<String>,
    email: String,
    /// Null for a return that asked for no address.
    address: Option<DeliveryAddressDto>,
    additional: Option<AnswerDto>,
    /// What was paid, tax included, and refunded of it (a partly refunded sale keeps its return).
    total: i64,
    refunded_amount: i64,
    /// 1 card, 2 bank transfer.
    payment_type: i32,
    /// 支払い済み, or 支払い済み（一部返金）.
    payment_label: &'static str,
    delivery: DeliveryStatusDto,
}

impl From<DeliveryRow> for DeliveryDto {
    fn from(row: DeliveryRow) -> Self {
        let payment_label = row.payment_label();
        Self {
            sale_id: row.sale.get(),
            user_id: row.supporter.get(),
            return_id: row.return_id.get(),
            return_title: row.return_title,
            lot: row.lot,
            created_at: iso(row.created_at),
            displayname: row.display_name,
            email: row.email,
            address: row.address.map(|a| DeliveryAddressDto {
                name: a.name,
                tel_number: a.tel_number,
                zip: a.zip,
                pref: a.pref,
                city: a.city,
                address: a.address,
                building: a.building,
            }),
            additional: row.answer.map(|(label, value)| AnswerDto { label, value }),
            total: row.total.0,
            refunded_amount: row.refunded.0,
            payment_type: row.pay_type.code(),
            payment_label,
            delivery: (&row.state).into(),
        }
    }
}

/// A return of the project, for the filter, with its counts.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DeliveryReturnDto {
    id: i64,
    title: String,
    /// Its sales to deliver (paid, not refunded in full), and how many of them are shipped.
    to_deliver: u64,
    shipped: u64,
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct DeliveryProjectDto {
    id: i64,
    title: String,
}

/// One page of a project's sales to deliver, oldest support first.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DeliveryListResponse {
    project: DeliveryProjectDto,
    /// Every return of the project, in its order.
    returns: Vec<DeliveryReturnDto>,
    deliveries: Vec<DeliveryDto>,
    /// Sales that match the filter, on every page.
    total: u64,
    page: u32,
    per_page: u32,
}

impl From<DeliveryPage> for DeliveryListResponse {
    fn from(page: DeliveryPage) -> Self {
        Self {
            project: DeliveryProjectDto { id: page.overview.project.get(), title: page.overview.title },
            returns: page
                .overview
                .returns
                .into_iter()
                .map(|r| DeliveryReturnDto {
                    id: r.id.get(),
                    title: r.title,
                    to_deliver: r.to_deliver,
                    shipped: r.shipped,
                })
                .collect(),
            deliveries: page.rows.into_iter().map(Into::into).collect(),
            total: page.matching,
            page: page.page,
            per_page: page.per_page,
        }
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DeliveryListQuery {
    /// Only this return's sales.
    return_id: Option<i64>,
    /// `all` (default), `unshipped` or `shipped`.
    #[param(inline)]
    state: Option<DeliveryFilterDto>,
    /// From 1 (default), at most 20,000; 50 sales a page.
    #[param(minimum = 1, maximum = 20000)]
    page: Option<u32>,
}

impl DeliveryListQuery {
    fn query(&self) -> DeliveryQuery {
        DeliveryQuery { return_id: self.return_id.map(ReturnId), state: self.state.unwrap_or_default().into() }
    }
}

const MSG_PAGE: &str = "pageには1から20000までの数を指定してください。";

/// A project's sales to deliver: paid and not refunded in full (an awaited
/// transfer appears once paid), with the address and answer they were placed with.
#[utoipa::path(
    tag = "admin",
    params(ProjectPath, DeliveryListQuery),
    responses(
        (status = 200, description = "One page of the list", body = DeliveryListResponse),
        (status = 400, description = "`malformed_request`: a parameter that does not parse; `validation_failed`: \
            `page` out of range", body = ErrorBody),
        (status = 404, description = "`not_found`: unknown project, or not an administrator", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[get("/{id}/deliveries")]
pub(crate) async fn list_deliveries(
    _admin: AdminUser,
    deliveries: web::Data<dyn Deliveries>,
    path: web::Path<ProjectPath>,
    query: Result<web::Query<DeliveryListQuery>, actix_web::Error>,
) -> Result<Json<DeliveryListResponse>, actix_web::Error> {
    let query = query?.into_inner();
    let page = query.page.unwrap_or(1);
    if !(1..=MAX_PAGE).contains(&page) {
        return Err(ApiError::validation(MSG_PAGE).into());
    }
    let list = deliveries.list(ProjectId(path.id), query.query(), page).await.map_err(ApiError::from)?;
    Ok(Json(list.into()))
}

/// The same list as CSV for Excel: UTF-8 with BOM, CRLF, ISO dates, every field quoted, no formula (at most
/// 20,000 sales; the filter's `page` is ignored).
#[utoipa::path(
    tag = "admin",
    params(ProjectPath, DeliveryListQuery),
    responses(
        (status = 200, description = "The CSV file (`deliveries-{id}.csv`)", content_type = "text/csv"),
        (status = 400, description = "`malformed_request`: a parameter that does not parse", body = ErrorBody),
        (status = 404, description = "`not_found`: unknown project, or not an administrator", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[get("/{id}/deliveries/export.csv")]
pub(crate) async fn export_deliveries(
    _admin: AdminUser,
    deliveries: web::Data<dyn Deliveries>,
    path: web::Path<ProjectPath>,
    query: Result<web::Query<DeliveryListQuery>, actix_web::Error>,
) -> Result<HttpResponse, actix_web::Error> {
    let query = query?.into_inner();
    let project = ProjectId(path.id);
    let csv = deliveries.export(project, query.query()).await.map_err(ApiError::from)?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "text/csv; charset=utf-8"))
        .insert_header((header::CONTENT_DISPOSITION, format!("attachment; filename=\"deliveries-{project}.csv\"")))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .body(csv))
}

/// What the operator sets.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct MarkDeliveriesInput {
    /// The sales, 1 to 500, all of this project and to deliver (else nothing changes).
    #[schema(max_items = 500)]
    sale_ids: Vec<i64>,
    state: DeliveryStateDto,
    /// Required for `shipped`: the day it was shipped, not after today (Asia/Tokyo).
    #[schema(value_type = Option<String>, format = Date)]
    shipped_on: Option<NaiveDate>,
    /// Carrier or tracking number for the supporter: one line, at most 200 characters.
    #[schema(max_length = 200)]
    note: Option<String>,
}

/// What the request did.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct MarkDeliveriesResponse {
    /// Sales whose state changed.
    changed: u32,
    /// Sales that were in that state already (marking again changes and mails nothing).
    unchanged: u32,
    /// Supporters mailed: each sale's step from 未発送 to 発送済み.
    mailed: u32,
}

impl From<MarkOutcome> for MarkDeliveriesResponse {
    fn from(o: MarkOutcome) -> Self {
        Self { changed: o.changed, unchanged: o.unchanged, mailed: o.mailed }
    }
}

/// Sets the delivery state of one sale or a selection (audit log: `deliveries_marked`); the step to 発送済み
/// mails the supporter once, through the mail queue.
#[utoipa::path(
    tag = "admin",
    params(ProjectPath),
    request_body = MarkDeliveriesInput,
    responses(
        (status = 200, description = "What changed", body = MarkDeliveriesResponse),
        (status = 400, description = "`validation_failed` on `saleIds` ('発送状況を変更する支援を選択してください。', \
            '一度に変更できるのは500件までです。', a sale not to deliver), `shippedOn` ('発送日を入力してください。', \
            '発送日に未来の日付は指定できません。') or `note`; `malformed_request`", body = ErrorBody),
        (status = 404, description = "`not_found`: unknown project, or not an administrator", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[post("/{id}/deliveries")]
pub(crate) async fn mark_deliveries(
    admin: AdminUser,
    deliveries: web::Data<dyn Deliveries>,
    path: web::Path<ProjectPath>,
    // Read after the administrator check: anyone else gets the 404 of an unknown path, whatever the body.
    body: Result<Json<MarkDeliveriesInput>, actix_web::Error>,
) -> Result<Json<MarkDeliveriesResponse>, actix_web::Error> {
    let input = body?.into_inner();
    if input.sale_ids.len() > MAX_SELECTION {
        return Err(ApiError::from(DeliveryError::Rule(domain::delivery::DeliveryRuleError::TooManySelected)).into());
    }
    let mark = MarkDeliveries {
        sales: input.sale_ids.into_iter().map(SaleId).collect(),
        shipped: input.state == DeliveryStateDto::Shipped,
        shipped_on: input.shipped_on,
        note: input.note,
    };
    let outcome = deliveries.mark(admin.0.id, ProjectId(path.id), mark).await.map_err(ApiError::from)?;
    Ok(Json(outcome.into()))
}
