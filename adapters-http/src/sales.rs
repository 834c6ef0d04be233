//! `/v1/sales/get/...`: paid totals and the public supporter list.

use actix_web::web::{self, Json};
use actix_web::{FromRequest, HttpRequest, HttpResponse};
use chrono::SecondsFormat;
use domain::time::tokyo;
use ports::accounts::Profiles;
use ports::catalog::{Catalog, PaidSum, PublicSale, SumTarget};
use serde::{Deserialize, Serialize};

use crate::auth::AuthUser;
use crate::profile;
use crate::project::{catalog_error, SumDto};
use crate::routes::Routes;
use crate::ApiError;

pub(crate) fn config(routes: &mut Routes) {
    routes.get("/sales/get/sum", sum).get("/sales/get/allSum", all_sum).get("/sales/get/list", list);
}

#[derive(Debug, Deserialize)]
pub(crate) struct SumQuery {
    #[serde(rename = "type")]
    kind: String,
    id: i64,
}

#[derive(Debug, Serialize)]
pub(crate) struct SumResponse {
    result: SumDto,
}

impl From<PaidSum> for SumResponse {
    fn from(paid: PaidSum) -> Self {
        Self { result: SumDto { amount: paid.amount.0, lot: paid.supports } }
    }
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
    Ok(Json(paid.into()))
}

async fn all_sum(catalog: web::Data<dyn Catalog>) -> Result<Json<SumResponse>, ApiError> {
    let paid = catalog.paid_sum(SumTarget::All).await.map_err(catalog_error)?;
    Ok(Json(paid.into()))
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

/// The seed uses one path for two lists: `project_id` asks for a project's
/// public supporter list, `user_id` for the caller's own payment history.
#[derive(Debug, Deserialize)]
pub(crate) struct ListQuery {
    project_id: Option<i64>,
    user_id: Option<String>,
}

async fn list(
    req: HttpRequest,
    catalog: web::Data<dyn Catalog>,
    query: web::Query<ListQuery>,
) -> Result<HttpResponse, ApiError> {
    match query.into_inner() {
        ListQuery { project_id: Some(project_id), .. } => {
            // Public fields only: no e-mail, user id or amount.
            let sales = catalog.public_sales(project_id).await.map_err(catalog_error)?;
            let data: Vec<PublicSaleDto> = sales.into_iter().map(Into::into).collect();
            Ok(HttpResponse::Ok().json(ListResponse { data }))
        }
        ListQuery { user_id: Some(claimed), .. } => {
            let user = AuthUser::extract(&req).await?;
            let profiles = req.app_data::<web::Data<dyn Profiles>>().cloned().ok_or(ApiError::Internal)?;
            Ok(HttpResponse::Ok().json(profile::own_history(user, profiles, &claimed).await?))
        }
        ListQuery { .. } => Err(ApiError::validation("project_id または user_id を指定してください。")),
    }
}
