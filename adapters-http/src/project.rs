//! `/v1/helper/get/master` (project cards) and `/v1/project/get/detail`
//! (one project page).

use actix_web::web::{self, Json};
use chrono::NaiveDate;
use domain::project::Progress;
use domain::returns::PurchaseBlock;
use ports::catalog::{Catalog, CatalogError, ProjectCard, ProjectDetail, ReturnView};
use serde::{Deserialize, Serialize};

use crate::auth::MaybeAuthUser;
use crate::routes::Routes;
use crate::ApiError;

pub(crate) fn config(routes: &mut Routes) {
    routes.get("/helper/get/master", master).get("/project/get/detail", detail);
}

/// The deployment's name as the seed's client reads it (`env`).
#[derive(Debug, Clone)]
pub struct SiteEnv {
    /// "local", "develop" or "production".
    pub name: String,
}

pub(crate) fn catalog_error(error: CatalogError) -> ApiError {
    match error {
        CatalogError::NotFound => ApiError::NotFound,
        CatalogError::Unexpected(e) => ApiError::internal(e.as_ref()),
    }
}

#[derive(Debug, Serialize)]
pub(crate) struct Urls {
    main: Option<String>,
}

#[derive(Debug, Serialize)]
pub(crate) struct SumDto {
    pub(crate) amount: i64,
    pub(crate) lot: i64,
}

#[derive(Debug, Serialize)]
pub(crate) struct ProgressDto {
    ring: f64,
    card: f64,
    capped: f64,
}

impl From<Progress> for ProgressDto {
    fn from(p: Progress) -> Self {
        // Integer hundredths and tenths from the domain; floats only here, at the edge.
        Self {
            ring: p.hundredths() as f64 / 100.0,
            card: p.tenths() as f64 / 10.0,
            capped: p.capped_hundredths() as f64 / 100.0,
        }
    }
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ProjectCardDto {
    id: i64,
    slug: String,
    title: String,
    description: String,
    target: i64,
    period: NaiveDate,
    urls: Urls,
    is_donation: bool,
    tax_includes: bool,
    has_anonymous_bank: bool,
    days_left: u32,
    is_open: bool,
    sum: SumDto,
    progress: ProgressDto,
}

impl From<ProjectCard> for ProjectCardDto {
    fn from(c: ProjectCard) -> Self {
        Self {
            id: c.id,
            slug: c.slug,
            title: c.title,
            description: c.description,
            target: c.target.0,
            period: c.period_end,
            urls: Urls { main: c.main_image_url },
            is_donation: c.is_donation,
            tax_includes: c.tax_includes,
            has_anonymous_bank: c.has_anonymous_bank,
            days_left: c.days_left,
            is_open: c.is_open,
            sum: SumDto { amount: c.paid.amount.0, lot: c.paid.supports },
            progress: c.progress.into(),
        }
    }
}

#[derive(Debug, Serialize)]
struct EnvDto {
    name: String,
    flag: bool,
}

#[derive(Debug, Serialize)]
struct MasterDto {
    projects: Vec<ProjectCardDto>,
    env: EnvDto,
}

#[derive(Debug, Serialize)]
pub(crate) struct MasterResponse {
    master: MasterDto,
}

impl MasterResponse {
    pub(crate) fn new(cards: Vec<ProjectCard>, env: &SiteEnv) -> Self {
        Self {
            master: MasterDto {
                projects: cards.into_iter().map(Into::into).collect(),
                env: EnvDto { name: env.name.clone(), flag: env.name == "production" },
            },
        }
    }
}

/// No administrator e-mails: who is an administrator is decided on the server.
async fn master(catalog: web::Data<dyn Catalog>, env: web::Data<SiteEnv>) -> Result<Json<MasterResponse>, ApiError> {
    let cards = catalog.master().await.map_err(catalog_error)?;
    Ok(Json(MasterResponse::new(cards, &env)))
}

#[derive(Debug, Deserialize)]
pub(crate) struct DetailQuery {
    slug: String,
}

#[derive(Debug, Serialize)]
struct SliderDto {
    src: String,
    alt: String,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct BankDto {
    bank_account: String,
    branch: String,
    kinds: String,
    number: String,
    nominee: String,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct SettingsDto {
    uses_manual_sponsors: bool,
    hide_footer_sponsors: bool,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ReturnDto {
    id: i64,
    slug: String,
    #[serde(rename = "type")]
    kind: i32,
    title: String,
    description: String,
    price: i64,
    tax: i64,
    total: i64,
    tax_label: &'static str,
    limit: Option<u32>,
    remaining: Option<u32>,
    disabled: bool,
    disabled_comment: Option<String>,
    purchasable: bool,
    block_reason: Option<&'static str>,
    block_message: Option<String>,
    course: Option<String>,
    image_src: Option<String>,
    description_image: Option<String>,
    description_comment: Option<String>,
    lot_disable: bool,
    address_required: bool,
}

fn block_reason(block: PurchaseBlock) -> &'static str {
    match block {
        PurchaseBlock::ProjectEnded => "ended",
        PurchaseBlock::Disabled => "disabled",
        PurchaseBlock::SoldOut | PurchaseBlock::NotEnoughLeft => "sold_out",
    }
}

impl From<ReturnView> for ReturnDto {
    fn from(r: ReturnView) -> Self {
        let remaining = match r.remaining {
            domain::returns::Remaining::Unlimited => None,
            domain::returns::Remaining::Limited(left) => Some(left),
        };
        Self {
            id: r.id,
            slug: r.slug,
            kind: r.return_type.code(),
            title: r.title,
            description: r.description,
            price: r.price.price.0,
            tax: r.price.tax.0,
            total: r.price.total.0,
            tax_label: r.price.mode.label(),
            limit: r.limit,
            remaining,
            disabled: r.disabled,
            disabled_comment: r.disabled_comment,
            purchasable: r.block.is_none(),
            block_reason: r.block.map(block_reason),
            block_message: r.block.map(|b| b.to_string()),
            course: r.course,
            image_src: r.image_src,
            description_image: r.description_image,
            description_comment: r.description_comment,
            lot_disable: r.lot_disable,
            address_required: r.address_required,
        }
    }
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ProjectDetailDto {
    #[serde(flatten)]
    card: ProjectCardDto,
    content: String,
    slider: Vec<SliderDto>,
    honor_img_url: Option<String>,
    #[serde(rename = "ImgUrlLink")]
    img_url_link: Option<String>,
    anonymous_bank: Option<BankDto>,
    settings: SettingsDto,
    returns: Vec<ReturnDto>,
}

impl From<ProjectDetail> for ProjectDetailDto {
    fn from(d: ProjectDetail) -> Self {
        Self {
            card: d.card.into(),
            content: d.content,
            slider: d.slider.into_iter().map(|s| SliderDto { src: s.src, alt: s.alt }).collect(),
            honor_img_url: d.honor_img_url,
            img_url_link: d.honor_img_link,
            anonymous_bank: d.anonymous_bank.map(|b| BankDto {
                bank_account: b.bank,
                branch: b.branch,
                kinds: b.kinds,
                number: b.number,
                nominee: b.nominee,
            }),
            settings: SettingsDto {
                uses_manual_sponsors: d.uses_manual_sponsors,
                hide_footer_sponsors: d.hide_footer_sponsors,
            },
            returns: d.returns.into_iter().map(Into::into).collect(),
        }
    }
}

#[derive(Debug, Serialize)]
pub(crate) struct DetailResponse {
    project: ProjectDetailDto,
}

impl From<ProjectDetail> for DetailResponse {
    fn from(detail: ProjectDetail) -> Self {
        Self { project: detail.into() }
    }
}

/// A logged-in viewer also sees the returns restricted to their address, so
/// the answer varies with the token (a cache must not hand one viewer's
/// answer to another).
async fn detail(
    catalog: web::Data<dyn Catalog>,
    viewer: MaybeAuthUser,
    query: web::Query<DetailQuery>,
) -> Result<impl actix_web::Responder, ApiError> {
    let viewer = viewer.0.map(|user| user.email);
    let project = catalog.project_detail(query.into_inner().slug, viewer).await.map_err(catalog_error)?;
    Ok(actix_web::Responder::customize(Json(DetailResponse::from(project)))
        .insert_header((actix_web::http::header::VARY, "Authorization")))
}
