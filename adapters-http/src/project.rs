//! `/v1/helper/get/master` (project cards), `/v1/project/get/list` (the
//! filtered, searched and sorted list) and `/v1/project/get/detail` (one
//! project page).

use actix_web::get;
use actix_web::web::{self, Json};
use chrono::NaiveDate;
use domain::closing::CloseOutcome;
use domain::project::{FundingModel, Progress};
use domain::returns::PurchaseBlock;
use ports::catalog::{
    Catalog, ListQuery, ProjectCard, ProjectDetail, ProjectPage, RawListQuery, ReturnView, Taxon, Taxonomy,
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::auth::MaybeAuthUser;
use crate::wire_names::PaymentTypeCode;
use crate::{ApiError, ErrorBody};

pub(crate) fn config(cfg: &mut ServiceConfig) {
    cfg.service(master).service(project_list).service(project_detail).service(taxonomy);
}

/// The deployment's name as the seed's client reads it (`env`).
#[derive(Debug, Clone)]
pub struct SiteEnv {
    /// "local", "develop" or "production".
    pub name: String,
    /// What the browser needs to load the card provider's library.
    pub payment: PaymentClient,
}

/// The card provider's browser library: its publishable key (public by
/// design) and where the script is served from.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PaymentClient {
    #[schema(example = "pk_test_local")]
    pub publishable_key: String,
    #[schema(example = "https://js.stripe.com/v3/")]
    pub js_url: String,
}

impl PaymentClient {
    /// A client for tests: the local fake library's usual address.
    pub fn local() -> Self {
        Self { publishable_key: "pk_test_local".into(), js_url: "http://127.0.0.1:8420/js.stripe.com/v3/".into() }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Urls {
    #[schema(required = true)]
    main: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
/// Raised total (paid sales, tax included, less refunds) and number of paid supports.
pub(crate) struct SumDto {
    pub(crate) amount: i64,
    pub(crate) lot: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct ProgressDto {
    /// Percent with 2 decimals (project page ring).
    ring: f64,
    /// Percent with 1 decimal (home cards).
    card: f64,
    /// `ring` capped at 100, for drawing.
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

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ProjectCardDto {
    id: i64,
    slug: String,
    title: String,
    description: String,
    target: i64,
    /// The last open day.
    #[schema(value_type = String, format = Date)]
    period: NaiveDate,
    urls: Urls,
    is_donation: bool,
    tax_includes: bool,
    has_anonymous_bank: bool,
    days_left: u32,
    is_open: bool,
    sum: SumDto,
    progress: ProgressDto,
    /// The paid total reached the goal (the ended page's 達成 / 未達成).
    achieved: bool,
    /// The municipality; null = not set.
    #[schema(required = true)]
    area: Option<TaxonDto>,
    /// The category; null = not set.
    #[schema(required = true)]
    category: Option<TaxonDto>,
}

/// An area (a municipality of Gunma) or a category.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct TaxonDto {
    id: i64,
    /// The list's filter value (`?area=maebashi`).
    #[schema(example = "maebashi")]
    slug: String,
    #[schema(example = "前橋市")]
    name: String,
}

impl From<Taxon> for TaxonDto {
    fn from(t: Taxon) -> Self {
        Self { id: t.id, slug: t.slug, name: t.name }
    }
}

/// The areas and categories, each in the operators' order.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct TaxonomyResponse {
    areas: Vec<TaxonDto>,
    categories: Vec<TaxonDto>,
}

impl From<Taxonomy> for TaxonomyResponse {
    fn from(t: Taxonomy) -> Self {
        Self {
            areas: t.areas.into_iter().map(Into::into).collect(),
            categories: t.categories.into_iter().map(Into::into).collect(),
        }
    }
}

/// The areas (the 35 municipalities of Gunma) and the categories.
///
/// What the list's filters and the operators' edit screen offer.
#[utoipa::path(
    tag = "public",
    responses((status = 200, description = "Areas and categories", body = TaxonomyResponse))
)]
#[get("/project/get/areas")]
async fn taxonomy(catalog: web::Data<dyn Catalog>) -> Result<Json<TaxonomyResponse>, ApiError> {
    Ok(Json(catalog.taxonomy().await?.into()))
}

impl From<ProjectCard> for ProjectCardDto {
    fn from(c: ProjectCard) -> Self {
        Self {
            id: c.id.get(),
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
            achieved: c.achieved,
            area: c.area.map(Into::into),
            category: c.category.map(Into::into),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
struct EnvDto {
    /// `local`, `develop` or `production`.
    name: String,
    /// Production or not.
    flag: bool,
}

#[derive(Debug, Serialize, ToSchema)]
struct MasterDto {
    projects: Vec<ProjectCardDto>,
    env: EnvDto,
    payment: PaymentClient,
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct MasterResponse {
    master: MasterDto,
}

impl MasterResponse {
    pub(crate) fn new(cards: Vec<ProjectCard>, env: &SiteEnv) -> Self {
        Self {
            master: MasterDto {
                projects: cards.into_iter().map(Into::into).collect(),
                env: EnvDto { name: env.name.clone(), flag: env.name == "production" },
                payment: env.payment.clone(),
            },
        }
    }
}

/// Project cards and the environment.
///
/// Open projects first, then ended ones, each by end date descending. No
/// administrator e-mails: who is an administrator is decided on the server.
#[utoipa::path(
    tag = "public",
    responses((status = 200, description = "Every published project", body = MasterResponse))
)]
#[get("/helper/get/master")]
async fn master(catalog: web::Data<dyn Catalog>, env: web::Data<SiteEnv>) -> Result<Json<MasterResponse>, ApiError> {
    let cards = catalog.master().await?;
    Ok(Json(MasterResponse::new(cards, &env)))
}

/// The list's address (`/projects/?area=&category=&state=&sort=&q=&page=`); every parameter is optional.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct ListParams {
    /// An area's slug (`GET /v1/project/get/areas`); one no area has finds nothing.
    #[param(example = "maebashi", max_length = 60)]
    area: Option<String>,
    /// A category's slug; one no category has finds nothing.
    #[param(example = "culture-arts", max_length = 60)]
    category: Option<String>,
    /// `open` (募集中), `ended` (終了) or `all` (the default).
    #[param(example = "open")]
    state: Option<String>,
    /// `new` (新着, the default), `raised` (支援額), `backers` (支援者数) or `ending` (終了間近).
    #[param(example = "ending")]
    sort: Option<String>,
    /// Keywords (at most 100 characters), split on spaces, every one must be found; full- and half-width, hiragana
    /// and katakana, capitals and spaces do not matter.
    #[param(example = "バラ", max_length = 100)]
    q: Option<String>,
    /// 1 to 1000 (default 1).
    #[param(example = 1, minimum = 1, maximum = 1000)]
    page: Option<u32>,
}

/// One page of the list.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ListResponse {
    /// The page's cards (at most `pageSize`), the same shape as the home page's.
    projects: Vec<ProjectCardDto>,
    /// How many projects pass the filters in all.
    total: usize,
    page: u32,
    #[schema(example = 24)]
    page_size: usize,
}

impl From<ProjectPage> for ListResponse {
    fn from(page: ProjectPage) -> Self {
        Self {
            projects: page.cards.into_iter().map(Into::into).collect(),
            total: page.total,
            page: page.page,
            page_size: page.page_size,
        }
    }
}

/// The public project list: filters, keyword search, order and pages.
///
/// Public projects only (never a draft or a scheduled one). A parameter that
/// cannot be read is `400 validation_failed` with its name in `field` (a
/// keyword over 100 characters: 'キーワードは100文字以内で入力してください。'); a
/// well-formed area or category slug that names none answers an empty page,
/// as does a page past the last.
#[utoipa::path(
    params(ListParams),
    tag = "public",
    responses(
        (status = 200, description = "One page of the list", body = ListResponse),
        (status = 400, description = "`validation_failed` (a refused parameter, named in `field`) or `malformed_request` (a page that is not a number)", body = ErrorBody),
    )
)]
#[get("/project/get/list")]
async fn project_list(
    catalog: web::Data<dyn Catalog>,
    params: web::Query<ListParams>,
) -> Result<Json<ListResponse>, ApiError> {
    let params = params.into_inner();
    let query = ListQuery::parse(RawListQuery {
        area: params.area.as_deref(),
        category: params.category.as_deref(),
        state: params.state.as_deref(),
        sort: params.sort.as_deref(),
        q: params.q.as_deref(),
        page: params.page,
    })?;
    Ok(Json(catalog.list(query).await?.into()))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct DetailQuery {
    #[param(example = "sample-project")]
    slug: String,
}

#[derive(Debug, Serialize, ToSchema)]
struct SliderDto {
    src: String,
    alt: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct BankDto {
    bank_account: String,
    branch: String,
    kinds: String,
    number: String,
    nominee: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct SettingsDto {
    uses_manual_sponsors: bool,
    hide_footer_sponsors: bool,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct ReturnDto {
    id: i64,
    slug: String,
    /// 0 individual, 1 company, 2 organisation.
    #[serde(rename = "type")]
    kind: i32,
    title: String,
    description: String,
    price: i64,
    tax: i64,
    total: i64,
    tax_label: TaxLabel,
    #[schema(required = true)]
    limit: Option<u32>,
    #[schema(required = true)]
    remaining: Option<u32>,
    disabled: bool,
    #[schema(required = true)]
    disabled_comment: Option<String>,
    purchasable: bool,
    #[schema(required = true)]
    /// Why it cannot be bought, when it cannot.
    block_reason: Option<BlockReason>,
    #[schema(required = true)]
    block_message: Option<String>,
    #[schema(required = true)]
    course: Option<String>,
    #[schema(required = true)]
    image_src: Option<String>,
    #[schema(required = true)]
    description_image: Option<String>,
    #[schema(required = true)]
    description_comment: Option<String>,
    lot_disable: bool,
    /// `month`: a monthly return (shown as 1,100円/月, backed by a subscription); null: one-off.
    #[schema(required = true, example = "month")]
    interval: Option<&'static str>,
    address_required: bool,
    /// Name of the delivery address field, used in '{label}を入力してください'.
    #[schema(required = true)]
    address_label: Option<String>,
    /// The delivery month, `YYYY-MM`; null = not announced.
    #[schema(required = true, example = "2027-03")]
    delivery_month: Option<String>,
    /// Paid supports of this return.
    supporters: i64,
}

#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
enum BlockReason {
    Ended,
    Disabled,
    SoldOut,
}

fn block_reason(block: PurchaseBlock) -> BlockReason {
    match block {
        PurchaseBlock::ProjectEnded => BlockReason::Ended,
        PurchaseBlock::Disabled => BlockReason::Disabled,
        PurchaseBlock::SoldOut | PurchaseBlock::NotEnoughLeft => BlockReason::SoldOut,
        // Only placing a bank transfer is refused so; a return's card never carries these.
        PurchaseBlock::TransferAwaited | PurchaseBlock::TransferShareTaken => BlockReason::SoldOut,
    }
}

/// How the price is taxed, as the return card and the payment history label it.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
pub(crate) enum TaxLabel {
    #[serde(rename = "税込")]
    Inclusive,
    #[serde(rename = "税別")]
    Exclusive,
    #[serde(rename = "非課税")]
    Exempt,
}

impl From<domain::money::TaxMode> for TaxLabel {
    fn from(mode: domain::money::TaxMode) -> Self {
        match mode {
            domain::money::TaxMode::Inclusive => Self::Inclusive,
            domain::money::TaxMode::Exclusive => Self::Exclusive,
            domain::money::TaxMode::Exempt => Self::Exempt,
        }
    }
}

impl From<ReturnView> for ReturnDto {
    fn from(r: ReturnView) -> Self {
        let remaining = match r.remaining {
            domain::returns::Remaining::Unlimited => None,
            domain::returns::Remaining::Limited(left) => Some(left),
        };
        Self {
            id: r.id.get(),
            slug: r.slug,
            kind: r.return_type.code(),
            title: r.title,
            description: r.description,
            price: r.price.price.0,
            tax: r.price.tax.0,
            total: r.price.total.0,
            tax_label: r.price.mode.into(),
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
            interval: r.monthly.then_some("month"),
            address_required: r.address_required,
            address_label: r.address_label,
            delivery_month: r.delivery_month.map(|d| d.format("%Y-%m").to_string()),
            supporters: r.supporters,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct UnavailablePaymentTypeDto {
    #[schema(value_type = PaymentTypeCode)]
    payment_type: i32,
    message: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct ProjectDetailDto {
    #[serde(flatten)]
    card: ProjectCardDto,
    /// Sanitised HTML.
    content: String,
    slider: Vec<SliderDto>,
    #[schema(required = true)]
    honor_img_url: Option<String>,
    #[serde(rename = "ImgUrlLink")]
    #[schema(required = true)]
    img_url_link: Option<String>,
    #[schema(required = true)]
    anonymous_bank: Option<BankDto>,
    settings: SettingsDto,
    returns: Vec<ReturnDto>,
    /// Payment methods step 2 offers: 1 card, 2 bank transfer, 3 konbini.
    #[schema(value_type = Vec<PaymentTypeCode>)]
    payment_types: Vec<i32>,
    /// Methods the project accepts that step 2 does not offer today, with the reason step 2 shows (konbini
    /// while its voucher would expire after the project's last day).
    unavailable_payment_types: Vec<UnavailablePaymentTypeDto>,
    /// The question supporters answer at payment step 1.
    #[schema(required = true)]
    additional_data: Option<AdditionalDataDto>,
    /// `all_in` or `all_or_nothing`, as the terms of use define them.
    funding_model: FundingModelDto,
    /// The last minute supports are taken, Asia/Tokyo (`2026-12-31T23:59:00+09:00`).
    #[schema(example = "2026-12-31T23:59:00+09:00")]
    closes_at: String,
    /// Who runs the project; null = no profile box.
    #[schema(required = true)]
    owner: Option<OwnerDto>,
    /// Questions and answers in the operator's order; empty = no FAQ section.
    faqs: Vec<FaqDto>,
    /// How the campaign ended; null while it is open or not decided yet after its end (集計中).
    #[schema(required = true)]
    result: Option<CampaignResultDto>,
    /// Up to 3 open projects of the same area or category (関連するプロジェクト), closest first.
    related: Vec<ProjectCardDto>,
}

/// `succeeded` (成立), `failed` (不成立: every payment is refunded) or
/// `awaiting_funds` (集計中: bank transfers placed before the end are still within their deadline).
#[derive(Debug, Clone, Copy, Serialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub(crate) enum CampaignOutcomeDto {
    Succeeded,
    Failed,
    AwaitingFunds,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct CampaignResultDto {
    outcome: CampaignOutcomeDto,
    /// 成立, 不成立 or 集計中.
    label: String,
    /// Paid supports not refunded yet (a failed project refunds them all).
    refunds_left: i64,
}

#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
enum FundingModelDto {
    AllIn,
    AllOrNothing,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct OwnerDto {
    name: String,
    #[schema(required = true)]
    image_url: Option<String>,
    /// Plain text.
    #[schema(required = true)]
    profile: Option<String>,
    links: Vec<OwnerLinkDto>,
}

#[derive(Debug, Serialize, ToSchema)]
struct OwnerLinkDto {
    label: String,
    url: String,
}

#[derive(Debug, Serialize, ToSchema)]
struct FaqDto {
    /// Plain text.
    question: String,
    /// Plain text (line breaks kept).
    answer: String,
}

/// A project's extra question (the seed's `additionalData`).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AdditionalDataDto {
    label: String,
    /// Shown above the field.
    #[schema(required = true)]
    text: Option<String>,
    /// Shown below the field.
    #[schema(required = true)]
    description: Option<String>,
    /// The message when the answer is missing; none means '{label}を入力してください'.
    #[schema(required = true)]
    alert: Option<String>,
    /// Lines of the field (1 = one line).
    #[schema(required = true)]
    form_line: Option<i32>,
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
            payment_types: d.payment_types.into_iter().map(|t| t.code()).collect(),
            unavailable_payment_types: d
                .unavailable_payment_types
                .into_iter()
                .map(|(t, why)| UnavailablePaymentTypeDto { payment_type: t.code(), message: why.to_string() })
                .collect(),
            additional_data: d.additional_data.map(|a| AdditionalDataDto {
                label: a.label,
                text: a.text,
                description: a.description,
                alert: a.alert,
                form_line: a.form_line,
            }),
            funding_model: match d.funding_model {
                FundingModel::AllIn => FundingModelDto::AllIn,
                FundingModel::AllOrNothing => FundingModelDto::AllOrNothing,
            },
            closes_at: d.closes_at.format("%Y-%m-%dT%H:%M:00+09:00").to_string(),
            owner: d.owner.map(|o| OwnerDto {
                name: o.name,
                image_url: o.image_url,
                profile: o.profile,
                links: o.links.into_iter().map(|l| OwnerLinkDto { label: l.label, url: l.url }).collect(),
            }),
            faqs: d.faqs.into_iter().map(|f| FaqDto { question: f.question, answer: f.answer }).collect(),
            result: d.result.map(|r| CampaignResultDto {
                outcome: match r.outcome {
                    CloseOutcome::Succeeded => CampaignOutcomeDto::Succeeded,
                    CloseOutcome::Failed => CampaignOutcomeDto::Failed,
                    CloseOutcome::AwaitingFunds => CampaignOutcomeDto::AwaitingFunds,
                },
                label: r.outcome.label().to_string(),
                refunds_left: r.refunds_left,
            }),
            related: d.related.into_iter().map(Into::into).collect(),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct DetailResponse {
    project: ProjectDetailDto,
}

impl From<ProjectDetail> for DetailResponse {
    fn from(detail: ProjectDetail) -> Self {
        Self { project: detail.into() }
    }
}

/// One project page.
///
/// The token is optional: a logged-in viewer also sees the returns
/// restricted to their address, so the answer varies with the token
/// (`Vary: Authorization`). Hidden returns are never sent; an invalid token
/// reads as none.
#[utoipa::path(
    params(DetailQuery),
    tag = "public",
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "The project", body = DetailResponse),
        (status = 400, description = "`malformed_request`: no `slug`", body = ErrorBody),
        (status = 404, description = "`not_found`", body = ErrorBody),
    )
)]
#[get("/project/get/detail")]
async fn project_detail(
    catalog: web::Data<dyn Catalog>,
    viewer: MaybeAuthUser,
    query: web::Query<DetailQuery>,
) -> Result<impl actix_web::Responder, ApiError> {
    let viewer = viewer.0.map(|user| user.email);
    let project = catalog.project_detail(query.into_inner().slug, viewer).await?;
    Ok(actix_web::Responder::customize(Json(DetailResponse::from(project)))
        .insert_header((actix_web::http::header::VARY, "Authorization")))
}

#[cfg(test)]
mod tests {
    use domain::money::TaxMode;

    use super::TaxLabel;

    #[test]
    fn the_described_tax_labels_are_the_domains_labels() {
        for mode in [TaxMode::Inclusive, TaxMode::Exclusive, TaxMode::Exempt] {
            assert_eq!(serde_json::to_value(TaxLabel::from(mode)).unwrap(), mode.label());
        }
    }
}
