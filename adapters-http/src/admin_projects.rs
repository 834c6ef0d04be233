//! The operators' project screens (`/v1/admin/projects...`): list, create and
//! edit projects and their returns, publish, preview a project not yet
//! public, and hide or show supporter comments (`/v1/admin/comments...`). Every handler takes [`AdminUser`] first, so anyone else gets the
//! 404 of an unknown path before the body is read.

use actix_web::web::{self, Json};
use actix_web::{get, post};
use chrono::{DateTime, NaiveDate, Utc};
use domain::authoring::{ProjectState, ProjectTerms, ReturnTerms, TaxHandling};
use domain::ids::{ProjectId, ReturnId};
use domain::money::Yen;
use domain::project::FundingModel;
use domain::returns::ReturnType;
use ports::admin::moderation::{ModeratedComment, Moderation};
use ports::admin::projects::{AuthoredReturn, ProjectSummary, ProjectView, Projects};
use ports::catalog::Catalog;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::admin::iso;
use crate::auth::AdminUser;
use crate::project::DetailResponse;
use crate::{ApiError, ErrorBody};

pub(crate) fn config(cfg: &mut ServiceConfig) {
    cfg.service(
        utoipa_actix_web::scope("/admin/projects")
            // A story with its markup is larger than the site's usual 64 KB body.
            .app_data(crate::error::json_config().limit(MAX_BODY_BYTES))
            .app_data(crate::error::path_config())
            // Inside this scope an unknown path or method answers as anywhere else under /v1.
            .default_service(web::to(crate::error::not_found))
            .service(list_projects)
            .service(create_project)
            .service(get_project)
            .service(update_project)
            .service(publish_project)
            .service(unschedule_project)
            .service(preview_project)
            .service(add_return)
            .service(update_return)
            .service(delete_return)
            .service(reorder_returns)
            .service(project_comments)
            .service(crate::supporter_names::list_supporters)
            .service(crate::supporter_names::hide_supporter_name)
            .service(crate::supporter_names::show_supporter_name)
            .service(crate::admin_news::list_news)
            .service(crate::admin_news::create_news)
            .service(crate::admin_news::update_news)
            .service(crate::admin_news::delete_news)
            .service(crate::admin_deliveries::list_deliveries)
            .service(crate::admin_deliveries::export_deliveries)
            .service(crate::admin_deliveries::mark_deliveries)
            .service(crate::sale_receipts::get_issuer)
            .service(crate::sale_receipts::set_issuer)
            .service(crate::admin_content::get_content)
            .service(crate::admin_content::save_content)
            .service(crate::admin_content::upload_image)
            .service(crate::admin_content::remove_image)
            .service(crate::admin_settings::get_settings)
            .service(crate::admin_settings::save_settings)
            .service(crate::admin_sponsors::list_manual_sponsors)
            .service(crate::admin_sponsors::create_manual_sponsor)
            .service(crate::admin_sponsors::update_manual_sponsor)
            .service(crate::admin_sponsors::delete_manual_sponsor)
            .service(crate::admin_sponsors::move_manual_sponsor),
    );
    cfg.service(
        utoipa_actix_web::scope("/admin/comments")
            .app_data(crate::error::path_config())
            .default_service(web::to(crate::error::not_found))
            .service(hide_comment)
            .service(show_comment),
    );
}

/// The largest request body of these screens (a story of 200,000 characters fits).
const MAX_BODY_BYTES: usize = 1024 * 1024;

/// `draft`, `scheduled` (publication set for later), `open`, `ended`.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub(crate) enum ProjectStateDto {
    Draft,
    Scheduled,
    Open,
    Ended,
}

impl From<ProjectState> for ProjectStateDto {
    fn from(state: ProjectState) -> Self {
        match state {
            ProjectState::Draft => Self::Draft,
            ProjectState::Scheduled => Self::Scheduled,
            ProjectState::Open => Self::Open,
            ProjectState::Ended => Self::Ended,
        }
    }
}

impl From<ProjectStateDto> for ProjectState {
    fn from(state: ProjectStateDto) -> Self {
        match state {
            ProjectStateDto::Draft => Self::Draft,
            ProjectStateDto::Scheduled => Self::Scheduled,
            ProjectStateDto::Open => Self::Open,
            ProjectStateDto::Ended => Self::Ended,
        }
    }
}

/// `all_in` (carried out whatever is raised) or `all_or_nothing` (only at the goal).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub(crate) enum FundingModelDto {
    AllIn,
    AllOrNothing,
}

/// `inclusive` (税込), `exclusive` (税別: tax added), `donation` (寄附: no tax).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub(crate) enum TaxHandlingDto {
    Inclusive,
    Exclusive,
    Donation,
}

impl From<FundingModel> for FundingModelDto {
    fn from(model: FundingModel) -> Self {
        match model {
            FundingModel::AllIn => Self::AllIn,
            FundingModel::AllOrNothing => Self::AllOrNothing,
        }
    }
}

impl From<FundingModelDto> for FundingModel {
    fn from(model: FundingModelDto) -> Self {
        match model {
            FundingModelDto::AllIn => Self::AllIn,
            FundingModelDto::AllOrNothing => Self::AllOrNothing,
        }
    }
}

impl From<TaxHandling> for TaxHandlingDto {
    fn from(tax: TaxHandling) -> Self {
        match tax {
            TaxHandling::Inclusive => Self::Inclusive,
            TaxHandling::Exclusive => Self::Exclusive,
            TaxHandling::Donation => Self::Donation,
        }
    }
}

impl From<TaxHandlingDto> for TaxHandling {
    fn from(tax: TaxHandlingDto) -> Self {
        match tax {
            TaxHandlingDto::Inclusive => Self::Inclusive,
            TaxHandlingDto::Exclusive => Self::Exclusive,
            TaxHandlingDto::Donation => Self::Donation,
        }
    }
}

/// One project as the list shows it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AdminProjectSummaryDto {
    id: i64,
    slug: String,
    title: String,
    state: ProjectStateDto,
    /// When it is or becomes public (ISO 8601, Tokyo); null for a draft.
    #[schema(required = true)]
    publish_at: Option<String>,
    /// Last day of supports, `YYYY-MM-DD` (until 23:59 Tokyo).
    period_end: String,
    goal: i64,
    /// Paid, tax included, less refunds.
    raised: i64,
    backers: i64,
    returns: i64,
    /// What needs the operator's attention, in Japanese (may be empty).
    attention: Vec<String>,
}

impl From<ProjectSummary> for AdminProjectSummaryDto {
    fn from(summary: ProjectSummary) -> Self {
        let r = summary.record;
        Self {
            id: r.id.get(),
            slug: r.slug,
            title: r.title,
            state: summary.state.into(),
            publish_at: r.published_at.map(iso),
            period_end: r.period_end.to_string(),
            goal: r.goal.0,
            raised: r.raised.amount.0,
            backers: r.raised.supports,
            returns: r.returns,
            attention: summary.attention,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct AdminProjectListResponse {
    projects: Vec<AdminProjectSummaryDto>,
}

/// A return as its operator edits it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AdminReturnDto {
    id: i64,
    slug: String,
    position: i32,
    title: String,
    description: String,
    price: i64,
    /// 0 individual, 1 company, 2 organisation.
    #[schema(minimum = 0, maximum = 2)]
    return_type: i32,
    /// Null: unlimited.
    #[schema(required = true)]
    stock_limit: Option<i32>,
    /// Lots held by supports.
    lots_taken: i32,
    lot_fixed: bool,
    address_required: bool,
    #[schema(required = true)]
    address_label: Option<String>,
    /// Paused: shown, cannot be chosen.
    disabled: bool,
    #[schema(required = true)]
    disabled_comment: Option<String>,
    /// Not shown at all.
    hidden: bool,
    /// `YYYY-MM`.
    #[schema(required = true)]
    delivery_month: Option<String>,
    /// Charged every month (a monthly support) instead of once.
    monthly: bool,
    /// The course it belongs to (shown as コース{course}).
    #[schema(required = true)]
    course: Option<String>,
    /// Offered to this one address only; null: to everyone.
    #[schema(required = true)]
    only_for: Option<String>,
    /// Someone holds or bought it: price, type and `monthly` are locked and it cannot be deleted.
    backed: bool,
}

impl From<&AuthoredReturn> for AdminReturnDto {
    fn from(r: &AuthoredReturn) -> Self {
        let t = &r.terms;
        Self {
            id: r.id.get(),
            slug: r.slug.clone(),
            position: r.position,
            title: t.title.clone(),
            description: t.description.clone(),
            price: t.price.0,
            return_type: t.return_type.code(),
            stock_limit: t.stock_limit,
            lots_taken: r.lots_taken,
            lot_fixed: t.lot_fixed,
            address_required: t.address_required,
            address_label: t.address_label.clone(),
            disabled: t.disabled,
            disabled_comment: t.disabled_comment.clone(),
            hidden: t.hidden,
            delivery_month: t.delivery_month.map(|d| d.format("%Y-%m").to_string()),
            monthly: t.monthly,
            course: t.course.clone(),
            only_for: t.only_for.clone(),
            backed: r.lots_taken > 0,
        }
    }
}

/// What publication locks (true once published).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct LockedDto {
    goal: bool,
    funding_model: bool,
    tax_handling: bool,
}

/// A project as its operator edits it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AdminProjectDto {
    id: i64,
    slug: String,
    title: String,
    lead: String,
    /// Sanitised HTML.
    story: String,
    goal: i64,
    period_end: String,
    funding_model: FundingModelDto,
    tax_handling: TaxHandlingDto,
    accepts_card: bool,
    accepts_bank_transfer: bool,
    /// Konbini (コンビニ決済, payment type 3).
    accepts_konbini: bool,
    /// The municipality (`GET /v1/project/get/areas`); null = not set.
    #[schema(required = true)]
    area_id: Option<i64>,
    /// The category; null = not set.
    #[schema(required = true)]
    category_id: Option<i64>,
    /// Where the owner is told the result and the payout; null = not set.
    #[schema(required = true)]
    owner_email: Option<String>,
    /// A donation project's payout date (`YYYY-MM-DD`); null = not set or not a donation project.
    #[schema(required = true, value_type = Option<String>, format = Date)]
    donation_payout_date: Option<NaiveDate>,
    state: ProjectStateDto,
    #[schema(required = true)]
    publish_at: Option<String>,
    raised: i64,
    backers: i64,
    locked: LockedDto,
    /// How many more times the end may be moved later.
    end_extensions_left: u8,
    returns: Vec<AdminReturnDto>,
    /// The public page's path.
    public_url: String,
}

impl From<ProjectView> for AdminProjectDto {
    fn from(view: ProjectView) -> Self {
        let p = view.project;
        let t = p.terms;
        let published = view.state.is_published();
        Self {
            id: p.id.get(),
            public_url: format!("/projects/{}/", t.slug),
            slug: t.slug,
            title: t.title,
            lead: t.lead,
            story: t.story,
            goal: t.goal.0,
            period_end: t.period_end.to_string(),
            funding_model: t.funding_model.into(),
            tax_handling: t.tax.into(),
            accepts_card: t.accepts_card,
            accepts_bank_transfer: t.accepts_bank_transfer,
            accepts_konbini: t.accepts_konbini,
            area_id: t.area_id,
            category_id: t.category_id,
            owner_email: t.owner_email,
            donation_payout_date: t.donation_payout_date,
            state: view.state.into(),
            publish_at: p.published_at.map(iso),
            raised: p.raised.amount.0,
            backers: p.raised.supports,
            locked: LockedDto { goal: published, funding_model: published, tax_handling: published },
            end_extensions_left: view.extensions_left,
            returns: p.returns.iter().map(AdminReturnDto::from).collect(),
        }
    }
}

/// A project's terms (create and update send every field).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct ProjectInput {
    /// `/projects/{slug}/`: 3-60 of a-z, 0-9 and inner hyphens; locked once published.
    #[schema(max_length = 60)]
    slug: String,
    #[schema(max_length = 100)]
    title: String,
    #[schema(max_length = 200)]
    lead: String,
    /// HTML from the rich-text editor; sanitised on the server.
    #[schema(max_length = 200000)]
    story: String,
    #[schema(minimum = 1, maximum = 1_000_000_000)]
    goal: i64,
    /// `YYYY-MM-DD`, Asia/Tokyo: the last day of supports.
    #[schema(value_type = String, format = Date)]
    period_end: NaiveDate,
    funding_model: FundingModelDto,
    tax_handling: TaxHandlingDto,
    accepts_card: bool,
    accepts_bank_transfer: bool,
    /// Konbini (コンビニ決済, payment type 3); left out = not accepted.
    #[serde(default)]
    accepts_konbini: bool,
    /// An id of `GET /v1/project/get/areas`' `areas`; null or left out = none.
    #[serde(default)]
    area_id: Option<i64>,
    /// An id of its `categories`; null or left out = none.
    #[serde(default)]
    category_id: Option<i64>,
    /// The owner's (プロジェクト実行者) address for the result and payout mails; null, blank or left out = none.
    #[serde(default)]
    #[schema(max_length = 254)]
    owner_email: Option<String>,
    /// `YYYY-MM-DD`: a donation project's payout date (terms §9), after the end and within a year of it;
    /// required to publish a donation project, ignored for other projects. Null or left out = not set.
    #[serde(default)]
    #[schema(value_type = Option<String>, format = Date)]
    donation_payout_date: Option<NaiveDate>,
}

impl ProjectInput {
    /// The domain bounds every field (`domain::authoring::check_terms`), the story after sanitising.
    fn into_terms(self) -> ProjectTerms {
        ProjectTerms {
            slug: self.slug,
            title: self.title,
            lead: self.lead,
            story: self.story,
            goal: Yen(self.goal),
            period_end: self.period_end,
            funding_model: self.funding_model.into(),
            tax: self.tax_handling.into(),
            accepts_card: self.accepts_card,
            accepts_bank_transfer: self.accepts_bank_transfer,
            accepts_konbini: self.accepts_konbini,
            area_id: self.area_id,
            category_id: self.category_id,
            owner_email: self.owner_email,
            donation_payout_date: self.donation_payout_date,
        }
    }
}

/// A return's terms.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct ReturnInput {
    #[schema(max_length = 100)]
    title: String,
    /// What is in it and how it is delivered.
    #[schema(max_length = 2000)]
    description: String,
    #[schema(minimum = 0, maximum = 1_000_000_000)]
    price: i64,
    /// 0 individual, 1 company, 2 organisation.
    #[schema(minimum = 0, maximum = 2)]
    return_type: i32,
    /// Null: unlimited.
    #[schema(minimum = 1, maximum = 1_000_000)]
    stock_limit: Option<i32>,
    lot_fixed: bool,
    address_required: bool,
    #[schema(max_length = 50)]
    address_label: Option<String>,
    disabled: bool,
    #[schema(max_length = 100)]
    disabled_comment: Option<String>,
    hidden: bool,
    /// `YYYY-MM`.
    #[schema(pattern = r"^\d{4}-\d{2}$")]
    delivery_month: Option<String>,
    /// Charged every month instead of once (then unlimited and at least 1 yen); left out: once.
    #[serde(default)]
    monthly: bool,
    /// Blank or left out: none.
    #[serde(default)]
    #[schema(max_length = 20)]
    course: Option<String>,
    /// Offer it to this one address only; blank or left out: to everyone.
    #[serde(default)]
    #[schema(max_length = 254)]
    only_for: Option<String>,
}

const MSG_RETURN_TYPE: &str = "リターンの種類を選んでください。";
const MSG_DELIVERY_MONTH: &str = "お届け予定月は年と月（例: 2027-03）で入力してください。";

impl ReturnInput {
    fn into_terms(self) -> Result<ReturnTerms, ApiError> {
        let field = |field: &str, message: &str| ApiError::fields([(field.to_string(), message.to_string())]);
        let return_type = ReturnType::from_code(self.return_type).map_err(|_| field("returnType", MSG_RETURN_TYPE))?;
        let delivery_month = match self.delivery_month.as_deref().map(str::trim).filter(|m| !m.is_empty()) {
            None => None,
            Some(month) => Some(
                NaiveDate::parse_from_str(&format!("{month}-01"), "%Y-%m-%d")
                    .ok()
                    .filter(|_| month.len() == 7)
                    .ok_or_else(|| field("deliveryMonth", MSG_DELIVERY_MONTH))?,
            ),
        };
        Ok(ReturnTerms {
            title: self.title,
            description: self.description,
            price: Yen(self.price),
            return_type,
            stock_limit: self.stock_limit,
            lot_fixed: self.lot_fixed,
            address_required: self.address_required,
            address_label: self.address_label,
            disabled: self.disabled,
            disabled_comment: self.disabled_comment,
            hidden: self.hidden,
            delivery_month,
            monthly: self.monthly,
            course: self.course,
            only_for: self.only_for,
        })
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct ListQuery {
    /// Only projects in this state.
    state: Option<ProjectStateDto>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct PublishInput {
    /// When to publish (ISO 8601 with offset); null or a past instant: now.
    #[schema(required = true, value_type = Option<String>, format = DateTime)]
    publish_at: Option<DateTime<Utc>>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct ReturnOrderInput {
    /// Every return of the project exactly once, in the new order.
    #[schema(max_items = 500)]
    return_ids: Vec<i64>,
}

#[derive(Debug, Deserialize, IntoParams)]
pub(crate) struct ProjectPath {
    /// The project.
    pub(crate) id: i64,
}

#[derive(Debug, Deserialize, IntoParams)]
pub(crate) struct ReturnPath {
    /// The project.
    id: i64,
    /// The return.
    return_id: i64,
}

type Answer = Result<Json<AdminProjectDto>, ApiError>;

fn answer(view: ProjectView) -> Answer {
    Ok(Json(view.into()))
}

/// Every project, newest first, with its state, totals and what needs attention.
#[utoipa::path(
    tag = "admin",
    params(ListQuery),
    responses(
        (status = 200, description = "The projects", body = AdminProjectListResponse),
        (status = 400, description = "`malformed_request`: an unknown state", body = ErrorBody),
        (status = 404, description = "`not_found`: not an administrator", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[get("")]
async fn list_projects(
    _admin: AdminUser,
    projects: web::Data<dyn Projects>,
    query: Result<web::Query<ListQuery>, actix_web::Error>,
) -> Result<Json<AdminProjectListResponse>, actix_web::Error> {
    let only = query?.into_inner().state.map(ProjectState::from);
    let list = projects.list(only).await.map_err(ApiError::from)?;
    Ok(Json(AdminProjectListResponse { projects: list.into_iter().map(Into::into).collect() }))
}

/// A new draft. Nothing is public until it is published.
#[utoipa::path(
    tag = "admin",
    request_body = ProjectInput,
    responses(
        (status = 200, description = "The new draft", body = AdminProjectDto),
        (status = 400, description = "`validation_failed` with every refused field (`errors`), e.g. \
            'タイトルを入力してください。', 'このURLは既に使われています。'; `malformed_request`", body = ErrorBody),
        (status = 404, description = "`not_found`: not an administrator", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[post("")]
async fn create_project(
    admin: AdminUser,
    projects: web::Data<dyn Projects>,
    body: Result<Json<ProjectInput>, actix_web::Error>,
) -> Result<Json<AdminProjectDto>, actix_web::Error> {
    let terms = body?.into_inner().into_terms();
    Ok(answer(projects.create(admin.0.id, terms).await.map_err(ApiError::from)?)?)
}

/// One project with its returns.
#[utoipa::path(
    tag = "admin",
    params(ProjectPath),
    responses(
        (status = 200, description = "The project", body = AdminProjectDto),
        (status = 400, description = "`malformed_request`: an id that is not a number", body = ErrorBody),
        (status = 404, description = "`not_found`: unknown project, or not an administrator", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[get("/{id}")]
async fn get_project(admin: AdminUser, projects: web::Data<dyn Projects>, path: web::Path<ProjectPath>) -> Answer {
    let _ = admin;
    answer(projects.get(ProjectId(path.id)).await?)
}

/// New terms. Once published, the address, goal, funding model and tax
/// handling are locked and the end may only move later (twice at most).
#[utoipa::path(
    tag = "admin",
    params(ProjectPath),
    request_body = ProjectInput,
    responses(
        (status = 200, description = "The project", body = AdminProjectDto),
        (status = 400, description = "`validation_failed` with every refused field, e.g. \
            '公開後は目標金額を変更できません。', '公開後の終了日は延長のみできます。'", body = ErrorBody),
        (status = 404, description = "`not_found`: unknown project, or not an administrator", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[post("/{id}")]
async fn update_project(
    admin: AdminUser,
    projects: web::Data<dyn Projects>,
    path: web::Path<ProjectPath>,
    body: Result<Json<ProjectInput>, actix_web::Error>,
) -> Result<Json<AdminProjectDto>, actix_web::Error> {
    let terms = body?.into_inner().into_terms();
    Ok(answer(projects.update(admin.0.id, ProjectId(path.id), terms).await.map_err(ApiError::from)?)?)
}

/// Publishes a draft now, or schedules it. Refused while it has no return,
/// no payment method, or an end in the past.
#[utoipa::path(
    tag = "admin",
    params(ProjectPath),
    request_body = PublishInput,
    responses(
        (status = 200, description = "The project", body = AdminProjectDto),
        (status = 400, description = "`validation_failed`: 'リターンを1つ以上登録してください。', \
            'このプロジェクトは既に公開されています。', ...", body = ErrorBody),
        (status = 404, description = "`not_found`: unknown project, or not an administrator", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[post("/{id}/publish")]
async fn publish_project(
    admin: AdminUser,
    projects: web::Data<dyn Projects>,
    path: web::Path<ProjectPath>,
    body: Result<Json<PublishInput>, actix_web::Error>,
) -> Result<Json<AdminProjectDto>, actix_web::Error> {
    let at = body?.into_inner().publish_at;
    Ok(answer(projects.publish(admin.0.id, ProjectId(path.id), at).await.map_err(ApiError::from)?)?)
}

/// Takes a scheduled publication back: the project is a draft again. A public project never is.
#[utoipa::path(
    tag = "admin",
    params(ProjectPath),
    responses(
        (status = 200, description = "The project, a draft", body = AdminProjectDto),
        (status = 400, description = "`validation_failed`: not scheduled ('公開予約中のプロジェクトではありません。…'); \
            `malformed_request`: an id that is not a number", body = ErrorBody),
        (status = 404, description = "`not_found`: unknown project, or not an administrator", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[post("/{id}/unschedule")]
async fn unschedule_project(
    admin: AdminUser,
    projects: web::Data<dyn Projects>,
    path: web::Path<ProjectPath>,
) -> Answer {
    answer(projects.unschedule(admin.0.id, ProjectId(path.id)).await?)
}

/// The project page as the public will see it, for a project public or not.
#[utoipa::path(
    tag = "admin",
    params(ProjectPath),
    responses(
        (status = 200, description = "The page's data, as `/v1/project/get/detail` answers it", body = DetailResponse),
        (status = 400, description = "`malformed_request`: an id that is not a number", body = ErrorBody),
        (status = 404, description = "`not_found`: unknown project, or not an administrator", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[get("/{id}/preview")]
async fn preview_project(
    _admin: AdminUser,
    catalog: web::Data<dyn Catalog>,
    path: web::Path<ProjectPath>,
) -> Result<Json<DetailResponse>, ApiError> {
    Ok(Json(catalog.project_preview(ProjectId(path.id)).await?.into()))
}

/// Adds a return at the end of the project's order.
#[utoipa::path(
    tag = "admin",
    params(ProjectPath),
    request_body = ReturnInput,
    responses(
        (status = 200, description = "The project", body = AdminProjectDto),
        (status = 400, description = "`validation_failed` with every refused field", body = ErrorBody),
        (status = 404, description = "`not_found`: unknown project, or not an administrator", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[post("/{id}/returns")]
async fn add_return(
    admin: AdminUser,
    projects: web::Data<dyn Projects>,
    path: web::Path<ProjectPath>,
    body: Result<Json<ReturnInput>, actix_web::Error>,
) -> Result<Json<AdminProjectDto>, actix_web::Error> {
    let terms = body?.into_inner().into_terms()?;
    Ok(answer(projects.add_return(admin.0.id, ProjectId(path.id), terms).await.map_err(ApiError::from)?)?)
}

/// New terms for a return. A backed one keeps its price and type, and its
/// stock never drops below what is taken.
#[utoipa::path(
    tag = "admin",
    params(ReturnPath),
    request_body = ReturnInput,
    responses(
        (status = 200, description = "The project", body = AdminProjectDto),
        (status = 400, description = "`validation_failed`: '支援のあるリターンの金額は変更できません。', ...", body = ErrorBody),
        (status = 404, description = "`not_found`: unknown project or return, or not an administrator", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[post("/{id}/returns/{return_id}")]
async fn update_return(
    admin: AdminUser,
    projects: web::Data<dyn Projects>,
    path: web::Path<ReturnPath>,
    body: Result<Json<ReturnInput>, actix_web::Error>,
) -> Result<Json<AdminProjectDto>, actix_web::Error> {
    let terms = body?.into_inner().into_terms()?;
    let view = projects
        .update_return(admin.0.id, ProjectId(path.id), ReturnId(path.return_id), terms)
        .await
        .map_err(ApiError::from)?;
    Ok(answer(view)?)
}

/// Deletes a return nobody holds or bought (pause or hide a backed one).
#[utoipa::path(
    tag = "admin",
    params(ReturnPath),
    responses(
        (status = 200, description = "The project", body = AdminProjectDto),
        (status = 400, description = "`validation_failed`: '支援のあるリターンは削除できません。…'; \
            `malformed_request`: an id that is not a number", body = ErrorBody),
        (status = 404, description = "`not_found`: unknown project or return, or not an administrator", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[post("/{id}/returns/{return_id}/delete")]
async fn delete_return(admin: AdminUser, projects: web::Data<dyn Projects>, path: web::Path<ReturnPath>) -> Answer {
    answer(projects.delete_return(admin.0.id, ProjectId(path.id), ReturnId(path.return_id)).await?)
}

/// Puts the project's returns in a new order.
#[utoipa::path(
    tag = "admin",
    params(ProjectPath),
    request_body = ReturnOrderInput,
    responses(
        (status = 200, description = "The project", body = AdminProjectDto),
        (status = 400, description = "`validation_failed`: not every return exactly once", body = ErrorBody),
        (status = 404, description = "`not_found`: unknown project, or not an administrator", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[post("/{id}/return-order")]
async fn reorder_returns(
    admin: AdminUser,
    projects: web::Data<dyn Projects>,
    path: web::Path<ProjectPath>,
    body: Result<Json<ReturnOrderInput>, actix_web::Error>,
) -> Result<Json<AdminProjectDto>, actix_web::Error> {
    let order = body?.into_inner().return_ids.into_iter().map(ReturnId).collect();
    Ok(answer(projects.reorder_returns(admin.0.id, ProjectId(path.id), order).await.map_err(ApiError::from)?)?)
}

/// A supporter comment as the operator sees it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AdminCommentDto {
    id: i64,
    /// The name the public page shows (匿名 for an anonymous supporter).
    author: String,
    author_email: String,
    /// Plain text as written.
    comment: String,
    /// False: hidden by an operator.
    shown: bool,
    #[schema(required = true)]
    hidden_reason: Option<String>,
    created_at: String,
    updated_at: String,
}

impl From<ModeratedComment> for AdminCommentDto {
    fn from(c: ModeratedComment) -> Self {
        Self {
            id: c.id,
            author: c.author,
            author_email: c.author_email,
            comment: c.comment,
            shown: c.shown,
            hidden_reason: c.hidden_reason,
            created_at: iso(c.created_at),
            updated_at: iso(c.updated_at),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct AdminCommentsResponse {
    comments: Vec<AdminCommentDto>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct HideCommentInput {
    /// Why (terms of use 第18条); one line, 1-200 characters.
    #[schema(max_length = 200)]
    pub(crate) reason: String,
}

#[derive(Debug, Deserialize, IntoParams)]
pub(crate) struct CommentPath {
    /// The comment.
    id: i64,
}

/// Every comment of a project, shown and hidden, newest first.
#[utoipa::path(
    tag = "admin",
    params(ProjectPath),
    responses(
        (status = 200, description = "The comments", body = AdminCommentsResponse),
        (status = 400, description = "`malformed_request`: an id that is not a number", body = ErrorBody),
        (status = 404, description = "`not_found`: unknown project, or not an administrator", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[get("/{id}/comments")]
async fn project_comments(
    _admin: AdminUser,
    moderation: web::Data<dyn Moderation>,
    path: web::Path<ProjectPath>,
) -> Result<Json<AdminCommentsResponse>, ApiError> {
    let comments = moderation.comments(ProjectId(path.id)).await?;
    Ok(Json(AdminCommentsResponse { comments: comments.into_iter().map(Into::into).collect() }))
}

/// Hides a comment from the public page, with a reason (audit log: `comment_hidden`).
#[utoipa::path(
    tag = "admin",
    params(CommentPath),
    request_body = HideCommentInput,
    responses(
        (status = 200, description = "The comment", body = AdminCommentDto),
        (status = 400, description = "`validation_failed` on `reason`: '非表示の理由を入力してください。'; \
            `malformed_request`", body = ErrorBody),
        (status = 404, description = "`not_found`: unknown comment, or not an administrator", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[post("/{id}/hide")]
async fn hide_comment(
    admin: AdminUser,
    moderation: web::Data<dyn Moderation>,
    path: web::Path<CommentPath>,
    body: Result<Json<HideCommentInput>, actix_web::Error>,
) -> Result<Json<AdminCommentDto>, actix_web::Error> {
    let reason = body?.into_inner().reason;
    let comment = moderation.hide(admin.0.id, path.id, &reason).await.map_err(ApiError::from)?;
    Ok(Json(comment.into()))
}

/// Shows a hidden comment again (audit log: `comment_shown`).
#[utoipa::path(
    tag = "admin",
    params(CommentPath),
    responses(
        (status = 200, description = "The comment", body = AdminCommentDto),
        (status = 400, description = "`malformed_request`: an id that is not a number", body = ErrorBody),
        (status = 404, description = "`not_found`: unknown comment, or not an administrator", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[post("/{id}/show")]
async fn show_comment(
    admin: AdminUser,
    moderation: web::Data<dyn Moderation>,
    path: web::Path<CommentPath>,
) -> Result<Json<AdminCommentDto>, ApiError> {
    Ok(Json(moderation.show(admin.0.id, path.id).await?.into()))
}
