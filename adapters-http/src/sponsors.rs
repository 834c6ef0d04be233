//! `/v1/sponsors/get/list` (a project's sponsor block) and
//! `/v1/sponsors/get/footer` (every project's corporate sponsors), computed
//! on the server. Amounts are never published, only tiers.

use std::collections::BTreeMap;

use actix_web::web::{self, Json};
use domain::sponsor::LogoTier;
use ports::catalog::{Catalog, FooterSponsors, ManualLogo, SponsorList, WallSponsor};
use serde::{Deserialize, Serialize};

use crate::project::catalog_error;
use crate::routes::Routes;
use crate::sales::ProjectQuery;
use crate::ApiError;

pub(crate) fn config(routes: &mut Routes) {
    routes.get("/sponsors/get/list", list).get("/sponsors/get/footer", footer);
}

#[derive(Debug, Serialize)]
struct SponsorDto {
    name: String,
    link: Option<String>,
    img: Option<String>,
    tier: &'static str,
}

fn tier_name(tier: LogoTier) -> &'static str {
    match tier {
        LogoTier::Largest => "largest",
        LogoTier::Large => "large",
        LogoTier::Medium => "medium",
        LogoTier::Small => "small",
    }
}

impl From<WallSponsor> for SponsorDto {
    fn from(s: WallSponsor) -> Self {
        Self { name: s.name, link: s.link, img: s.img, tier: tier_name(s.tier) }
    }
}

#[derive(Debug, Serialize, Default)]
struct CorporateDto {
    size3: Vec<SponsorDto>,
    size2: Vec<SponsorDto>,
    size1: Vec<SponsorDto>,
}

#[derive(Debug, Serialize)]
struct NameDto {
    name: String,
}

#[derive(Debug, Serialize)]
struct ManualLogoDto {
    name: String,
    src: Option<String>,
    link: Option<String>,
}

impl From<ManualLogo> for ManualLogoDto {
    fn from(l: ManualLogo) -> Self {
        Self { name: l.name, src: l.src, link: l.link }
    }
}

#[derive(Debug, Serialize)]
struct CoursesDto {
    #[serde(rename = "A")]
    a: Vec<ManualLogoDto>,
    #[serde(rename = "B")]
    b: Vec<ManualLogoDto>,
    #[serde(rename = "C")]
    c: Vec<ManualLogoDto>,
    supporters: Vec<String>,
}

#[derive(Debug, Serialize)]
struct ListResponse {
    manual: bool,
    corporate: CorporateDto,
    personal: Vec<NameDto>,
    courses: Option<CoursesDto>,
}

fn dtos(list: Vec<WallSponsor>) -> Vec<SponsorDto> {
    list.into_iter().map(Into::into).collect()
}

async fn list(
    catalog: web::Data<dyn Catalog>,
    query: web::Query<ProjectQuery>,
) -> Result<Json<ListResponse>, ApiError> {
    let response = match catalog.sponsors(query.project_id).await.map_err(catalog_error)? {
        SponsorList::Automatic { size3, size2, size1, personal } => ListResponse {
            manual: false,
            corporate: CorporateDto { size3: dtos(size3), size2: dtos(size2), size1: dtos(size1) },
            personal: personal.into_iter().map(|name| NameDto { name }).collect(),
            courses: None,
        },
        SponsorList::Manual(courses) => ListResponse {
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

#[derive(Debug, Deserialize)]
pub(crate) struct FooterQuery {
    slug: Option<String>,
}

#[derive(Debug, Serialize)]
struct FooterResponse {
    hidden: bool,
    /// LL, L, M, S; always all four keys.
    tiers: BTreeMap<&'static str, Vec<SponsorDto>>,
}

async fn footer(
    catalog: web::Data<dyn Catalog>,
    query: web::Query<FooterQuery>,
) -> Result<Json<FooterResponse>, ApiError> {
    let FooterSponsors { hidden, tiers } =
        catalog.footer_sponsors(query.into_inner().slug).await.map_err(catalog_error)?;
    let mut out: BTreeMap<&'static str, Vec<SponsorDto>> =
        ["LL", "L", "M", "S"].into_iter().map(|label| (label, Vec::new())).collect();
    for (tier, sponsors) in tiers {
        out.insert(tier.label(), dtos(sponsors));
    }
    Ok(Json(FooterResponse { hidden, tiers: out }))
}
