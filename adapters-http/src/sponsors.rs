//! `/v1/sponsors/get/list` (a project's sponsor block) and
//! `/v1/sponsors/get/footer` (every project's corporate sponsors), computed
//! on the server. Amounts are never published, only tiers.

use actix_web::get;
use actix_web::web::{self, Json};
use domain::ids::ProjectId;
use domain::sponsor::SponsorTier;
use ports::catalog::{Catalog, FooterSponsors, ManualLogo, SponsorList, WallSponsor};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::sales::ProjectQuery;
use crate::{ApiError, ErrorBody};

pub(crate) fn config(cfg: &mut ServiceConfig) {
    cfg.service(sponsor_list).service(footer_sponsors);
}

#[derive(Debug, Serialize, ToSchema)]
/// A sponsor on a logo wall.
struct SponsorDto {
    name: String,
    #[schema(required = true)]
    link: Option<String>,
    #[schema(required = true)]
    img: Option<String>,
    tier: SponsorTierDto,
}

/// The logo size a sponsor is shown at.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = SponsorTier)]
enum SponsorTierDto {
    Largest,
    Large,
    Medium,
    Small,
}

fn tier_name(tier: SponsorTier) -> SponsorTierDto {
    match tier {
        SponsorTier::Largest => SponsorTierDto::Largest,
        SponsorTier::Large => SponsorTierDto::Large,
        SponsorTier::Medium => SponsorTierDto::Medium,
        SponsorTier::Small => SponsorTierDto::Small,
    }
}

impl From<WallSponsor> for SponsorDto {
    fn from(s: WallSponsor) -> Self {
        Self { name: s.name, link: s.link, img: s.img, tier: tier_name(s.tier) }
    }
}

#[derive(Debug, Serialize, Default, ToSchema)]
/// Corporate sponsors by logo size, largest first.
struct CorporateDto {
    size3: Vec<SponsorDto>,
    size2: Vec<SponsorDto>,
    size1: Vec<SponsorDto>,
}

#[derive(Debug, Serialize, ToSchema)]
struct SponsorNameDto {
    name: String,
}

#[derive(Debug, Serialize, ToSchema)]
struct ManualLogoDto {
    name: String,
    #[schema(required = true)]
    src: Option<String>,
    #[schema(required = true)]
    link: Option<String>,
}

impl From<ManualLogo> for ManualLogoDto {
    fn from(l: ManualLogo) -> Self {
        Self { name: l.name, src: l.src, link: l.link }
    }
}

#[derive(Debug, Serialize, ToSchema)]
/// The manual sponsor list of a project whose setting uses one.
struct CoursesDto {
    #[serde(rename = "A")]
    a: Vec<ManualLogoDto>,
    #[serde(rename = "B")]
    b: Vec<ManualLogoDto>,
    #[serde(rename = "C")]
    c: Vec<ManualLogoDto>,
    supporters: Vec<String>,
}

#[derive(Debug, Serialize, ToSchema)]
/// The project's sponsor block: automatic (`corporate`, `personal`) or manual (`courses`).
struct SponsorListResponse {
    manual: bool,
    corporate: CorporateDto,
    personal: Vec<SponsorNameDto>,
    #[schema(required = true)]
    courses: Option<CoursesDto>,
}

fn dtos(list: Vec<WallSponsor>) -> Vec<SponsorDto> {
    list.into_iter().map(Into::into).collect()
}

/// A project's sponsor block, computed on the server.
///
/// Corporate sponsors by logo size and personal names, or the manual
/// courses. Amounts are never published, only tiers.
#[utoipa::path(
    params(ProjectQuery),
    tag = "public",
    responses(
        (status = 200, description = "The sponsor block", body = SponsorListResponse),
        (status = 400, description = "`malformed_request`: no or a non-integer `project_id`", body = ErrorBody),
        (status = 404, description = "`not_found`", body = ErrorBody),
    )
)]
#[get("/sponsors/get/list")]
async fn sponsor_list(
    catalog: web::Data<dyn Catalog>,
    query: web::Query<ProjectQuery>,
) -> Result<Json<SponsorListResponse>, ApiError> {
    let response = match catalog.sponsors(ProjectId(query.project_id)).await? {
        SponsorList::Automatic { size3, size2, size1, personal } => SponsorListResponse {
            manual: false,
            corporate: CorporateDto { size3: dtos(size3), size2: dtos(size2), size1: dtos(size1) },
            personal: personal.into_iter().map(|name| SponsorNameDto { name }).collect(),
            courses: None,
        },
        SponsorList::Manual(courses) => SponsorListResponse {
            manual: true,
            corporate: CorporateDto::default(),
            personal: Vec::new(),
            courses: Some(CoursesDto {
                a: courses.a.into_iter().map(Into::into).collect(),
                b: courses.b.into_iter().map(Into::into).collect(),
                c: courses.c.into_iter().map(Into::into).collect(),
                supporters: courses.supporters,
            }),
        },
    };
    Ok(Json(response))
}

/// Always all four tiers, largest first.
#[derive(Debug, Serialize, Default, ToSchema)]
struct FooterTiers {
    #[serde(rename = "LL")]
    ll: Vec<SponsorDto>,
    #[serde(rename = "L")]
    l: Vec<SponsorDto>,
    #[serde(rename = "M")]
    m: Vec<SponsorDto>,
    #[serde(rename = "S")]
    s: Vec<SponsorDto>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct FooterQuery {
    /// The project page being shown, if any (its setting may hide the footer).
    slug: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
struct FooterResponse {
    /// The shown project hides the footer sponsors.
    hidden: bool,
    tiers: FooterTiers,
}

/// Corporate sponsors of every project by footer tier (LL, L, M, S).
#[utoipa::path(
    params(FooterQuery),
    tag = "public",
    responses(
        (status = 200, description = "The footer tiers", body = FooterResponse),
        (status = 400, description = "`malformed_request`", body = ErrorBody),
    )
)]
#[get("/sponsors/get/footer")]
async fn footer_sponsors(
    catalog: web::Data<dyn Catalog>,
    query: web::Query<FooterQuery>,
) -> Result<Json<FooterResponse>, ApiError> {
    let FooterSponsors { hidden, tiers } = catalog.footer_sponsors(query.into_inner().slug).await?;
    let mut out = FooterTiers::default();
    for (tier, sponsors) in tiers {
        let slot = match tier {
            SponsorTier::Largest => &mut out.ll,
            SponsorTier::Large => &mut out.l,
            SponsorTier::Medium => &mut out.m,
            SponsorTier::Small => &mut out.s,
        };
        slot.extend(dtos(sponsors));
    }
    Ok(Json(FooterResponse { hidden, tiers: out }))
}
