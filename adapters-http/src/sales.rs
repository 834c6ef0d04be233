//! `/v1/sales/get/...`: paid totals and the public supporter list.

use actix_web::web::{self, Json};
use chrono::SecondsFormat;
use domain::time::tokyo;
use ports::catalog::{Catalog, PublicSale, SumTarget};
use serde::{Deserialize, Serialize};

use crate::project::{catalog_error, SumDto};
use crate::ApiError;

pub(crate) fn config(cfg: &mut web::ServiceConfig) {
    cfg.route("/sales/get/sum", web::get().to(sum))
        .route("/sales/get/allSum", web::get().to(all_sum))
        .route("/sales/get/list", web::get().to(list));
}

#[derive(Debug, Deserialize)]
pub(crate) struct SumQuery {
    #[serde(rename = "type")]
    kind: String,
    id: i64,
}

#[derive(Debug, Serialize)]
struct SumResponse {
    result: SumDto,
}

const MSG_SUM_TYPE: &str = "typeにはprojectまたはreturnを指定してください。";

async fn sum(catalog: web::Data<dyn Catalog>, query: web::Query<SumQuery>) -> Result<Json<SumResponse>, ApiError> {
    let SumQuery { kind, id } = query.into_inner();
    let target = match kind.as_str() {
        "project" => SumTarget::Project(id),
        "return" => SumTarget::Return(id),
        _ => return Err(ApiError::validation(MSG_SUM_TYPE)),
    };
    let paid = catalog.paid_sum(target).await.map_err(catalog_error)?;
    Ok(Json(SumResponse { result: SumDto { amount: paid.amount.0, lot: paid.supports } }))
}

async fn all_sum(catalog: web::Data<dyn Catalog>) -> Result<Json<SumResponse>, ApiError> {
    let paid = catalog.paid_sum(SumTarget::All).await.map_err(catalog_error)?;
    Ok(Json(SumResponse { result: SumDto { amount: paid.amount.0, lot: paid.supports } }))
}

#[derive(Debug, Deserialize)]
pub(crate) struct ProjectQuery {
    pub(crate) project_id: i64,
}

#[derive(Debug, Serialize)]
struct DisplayNameDto {
    displayname: String,
}

#[derive(Debug, Serialize)]
struct UrlDto {
    url: String,
}

#[derive(Debug, Serialize)]
struct LogoUrlsDto {
    logo: Vec<UrlDto>,
}

#[derive(Debug, Serialize)]
struct SaleUserDto {
    corporatename: Option<String>,
    corporateurl: Option<String>,
    urls: LogoUrlsDto,
}

#[derive(Debug, Serialize)]
struct PublicSaleDto {
    created_at: String,
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

#[derive(Debug, Serialize)]
struct ListResponse {
    data: Vec<PublicSaleDto>,
}

/// Public fields only: no e-mail, user id or amount.
async fn list(
    catalog: web::Data<dyn Catalog>,
    query: web::Query<ProjectQuery>,
) -> Result<Json<ListResponse>, ApiError> {
    let sales = catalog.public_sales(query.project_id).await.map_err(catalog_error)?;
    Ok(Json(ListResponse { data: sales.into_iter().map(Into::into).collect() }))
}
