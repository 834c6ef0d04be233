//! A project's settings as operators edit them (`/v1/admin/projects/{id}/settings`): the additional question of
//! payment step 1, the bank account shown to anonymous transfers, the connected account and the sponsor walls'
//! switches. Administrators only ([`AdminUser`] first).

use actix_web::web::{self, Json};
use actix_web::{get, post};
use domain::ids::ProjectId;
use domain::money::FeeSchedule;
use domain::project_settings::{AdditionalQuestion, BankDetails, ProjectSettings};
use ports::admin::settings::{ProjectSettingsUseCases, StoredSettings};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::admin_projects::ProjectPath;
use crate::auth::AdminUser;
use crate::{ApiError, ErrorBody};

/// The question supporters answer at payment step 1 (an answer is always required).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct AdditionalQuestionDto {
    /// The field's name, e.g. 'Tシャツのサイズ'.
    #[schema(max_length = 50)]
    label: String,
    /// Shown above the field.
    #[schema(max_length = 500)]
    text: Option<String>,
    /// Shown under the field.
    #[schema(max_length = 500)]
    description: Option<String>,
    /// The message when left empty; null = '{label}を入力してください'.
    #[schema(max_length = 100)]
    alert: Option<String>,
    /// 1 = one line; up to 10 lines.
    #[schema(minimum = 1, maximum = 10)]
    form_line: i32,
}

/// The project's own account for anonymous transfers: all five, or null.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct BankDetailsDto {
    /// Bank name.
    #[schema(max_length = 50)]
    bank: String,
    #[schema(max_length = 50)]
    branch: String,
    /// Account kind, e.g. 普通.
    #[schema(max_length = 20)]
    kinds: String,
    #[schema(max_length = 20)]
    number: String,
    /// Account holder.
    #[schema(max_length = 100)]
    nominee: String,
}

/// The application fee's rates on sales paid to the connected account: `standard` 13.6 % card and konbini,
/// 11.5 % bank transfer; `internal` 10.6 % / 8.5 %.
#[derive(Debug, Clone, Copy, Default, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum FeeScheduleDto {
    #[default]
    Standard,
    Internal,
}

impl From<FeeScheduleDto> for FeeSchedule {
    fn from(dto: FeeScheduleDto) -> Self {
        match dto {
            FeeScheduleDto::Standard => Self::Standard,
            FeeScheduleDto::Internal => Self::Internal,
        }
    }
}

impl From<FeeSchedule> for FeeScheduleDto {
    fn from(schedule: FeeSchedule) -> Self {
        match schedule {
            FeeSchedule::Standard => Self::Standard,
            FeeSchedule::Internal => Self::Internal,
        }
    }
}

/// The settings (sent whole).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct ProjectSettingsInput {
    /// Null (or a blank label and texts): no question.
    additional: Option<AdditionalQuestionDto>,
    /// Null (or all five blank): none shown.
    bank: Option<BankDetailsDto>,
    /// `acct_` and letters and digits; null or blank: the platform's account. Locked once published.
    #[schema(max_length = 64)]
    connected_account_id: Option<String>,
    /// Left out: `standard`. Locked once published.
    #[serde(default)]
    fee_schedule: FeeScheduleDto,
    uses_manual_sponsors: bool,
    hide_footer_sponsors: bool,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ProjectSettingsDto {
    project_id: i64,
    project_title: String,
    #[schema(required = true)]
    additional: Option<AdditionalQuestionDto>,
    #[schema(required = true)]
    bank: Option<BankDetailsDto>,
    #[schema(required = true)]
    connected_account_id: Option<String>,
    fee_schedule: FeeScheduleDto,
    /// True once published: the connected account and the fee schedule can no longer change.
    connected_account_locked: bool,
    uses_manual_sponsors: bool,
    hide_footer_sponsors: bool,
}

impl From<StoredSettings> for ProjectSettingsDto {
    fn from(s: StoredSettings) -> Self {
        let settings = s.settings;
        Self {
            project_id: s.id.get(),
            project_title: s.title,
            additional: settings.additional.map(|q| AdditionalQuestionDto {
                label: q.label,
                text: q.text,
                description: q.description,
                alert: q.alert,
                form_line: q.form_line,
            }),
            bank: settings.bank.map(|b| BankDetailsDto {
                bank: b.bank,
                branch: b.branch,
                kinds: b.kinds,
                number: b.number,
                nominee: b.nominee,
            }),
            connected_account_id: settings.connected_account_id,
            fee_schedule: settings.fee_schedule.into(),
            connected_account_locked: s.published_at.is_some(),
            uses_manual_sponsors: settings.uses_manual_sponsors,
            hide_footer_sponsors: settings.hide_footer_sponsors,
        }
    }
}

impl From<ProjectSettingsInput> for ProjectSettings {
    fn from(input: ProjectSettingsInput) -> Self {
        Self {
            additional: input.additional.map(|q| AdditionalQuestion {
                label: q.label,
                text: q.text,
                description: q.description,
                alert: q.alert,
                form_line: q.form_line,
            }),
            bank: input.bank.map(|b| BankDetails {
                bank: b.bank,
                branch: b.branch,
                kinds: b.kinds,
                number: b.number,
                nominee: b.nominee,
            }),
            connected_account_id: input.connected_account_id,
            fee_schedule: input.fee_schedule.into(),
            uses_manual_sponsors: input.uses_manual_sponsors,
            hide_footer_sponsors: input.hide_footer_sponsors,
        }
    }
}

/// The project's settings.
#[utoipa::path(
    tag = "admin",
    params(ProjectPath),
    responses(
        (status = 200, description = "The settings", body = ProjectSettingsDto),
        (status = 400, description = "`malformed_request`: an id that is not a number", body = ErrorBody),
        (status = 404, description = "`not_found`: unknown project, or not an administrator", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[get("/{id}/settings")]
pub(crate) async fn get_settings(
    _admin: AdminUser,
    settings: web::Data<dyn ProjectSettingsUseCases>,
    path: web::Path<ProjectPath>,
) -> Result<Json<ProjectSettingsDto>, ApiError> {
    Ok(Json(settings.settings(ProjectId(path.id)).await?.into()))
}

/// Saves the settings (audit log: `project_settings_updated` with before and after). The public page and payment
/// step 1 follow within a second.
#[utoipa::path(
    tag = "admin",
    params(ProjectPath),
    request_body = ProjectSettingsInput,
    responses(
        (status = 200, description = "The settings", body = ProjectSettingsDto),
        (status = 400, description = "`validation_failed` with every refused field (`bank`: '振込先の口座は5項目すべてを\
            入力するか、すべて空欄にしてください。', `connectedAccountId`, `additional.label`, ...); `malformed_request`",
            body = ErrorBody),
        (status = 404, description = "`not_found`: unknown project, or not an administrator", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[post("/{id}/settings")]
pub(crate) async fn save_settings(
    admin: AdminUser,
    settings: web::Data<dyn ProjectSettingsUseCases>,
    path: web::Path<ProjectPath>,
    body: Result<Json<ProjectSettingsInput>, actix_web::Error>,
) -> Result<Json<ProjectSettingsDto>, actix_web::Error> {
    let next = ProjectSettings::from(body?.into_inner());
    let saved = settings.save(admin.0.id, ProjectId(path.id), next).await.map_err(ApiError::from)?;
    Ok(Json(saved.into()))
}
