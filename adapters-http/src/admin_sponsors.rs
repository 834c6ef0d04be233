//! A project's manual sponsor list as operators edit it
//! (`/v1/admin/projects/{id}/manual-sponsors...`): list, add and edit (a
//! multipart form with the logo), delete and move. Administrators only
//! ([`AdminUser`] first: anyone else gets the 404 of an unknown path before
//! the body is read).

use actix_multipart::Multipart;
use actix_web::web::{self, Json};
use actix_web::{get, post, HttpRequest};
use domain::ids::ProjectId;
use domain::manual_sponsor::{
    Direction, ManualSponsorForm, LOGO_EDGE, MAX_MANUAL_SPONSORS, MSG_AMOUNT, MSG_COURSE, MSG_DATE_FORMAT,
    MSG_LINK_TOO_LONG,
};
use domain::profile::{UploadError, MAX_UPLOAD_BYTES};
use futures_util::StreamExt;
use ports::admin::sponsors::{ManualSponsorEntry, ManualSponsorList, ManualSponsors};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::admin_projects::ProjectPath;
use crate::auth::AdminUser;
use crate::rate::{self, Subject, UserRateSettings};
use crate::{ApiError, ErrorBody};

const MSG_NAME_TOO_LONG: &str = "スポンサー名は100文字以内で入力してください。";
const MSG_UNREADABLE: &str = "送信された内容を読み取れませんでした。もう一度お試しください。";

/// `A`, `B` and `C`: logo walls (largest first); `supporter`: the names of individual supporters.
#[derive(Debug, Clone, Copy, Serialize, ToSchema, PartialEq, Eq)]
pub(crate) enum ManualCourseDto {
    A,
    B,
    C,
    #[serde(rename = "supporter")]
    Supporter,
}

impl From<domain::sponsor::ManualCourse> for ManualCourseDto {
    fn from(course: domain::sponsor::ManualCourse) -> Self {
        use domain::sponsor::ManualCourse;
        match course {
            ManualCourse::A => Self::A,
            ManualCourse::B => Self::B,
            ManualCourse::C => Self::C,
            ManualCourse::Supporter => Self::Supporter,
        }
    }
}

/// One entry of the list.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ManualSponsorDto {
    id: i64,
    course: ManualCourseDto,
    name: String,
    /// The logo (courses A, B and C); null for supporters.
    #[schema(required = true)]
    logo_src: Option<String>,
    #[schema(required = true)]
    link: Option<String>,
    /// Whole yen; null = not disclosed (ranked last).
    #[schema(required = true)]
    amount: Option<i64>,
    /// `YYYY-MM-DD`; null = none.
    #[schema(required = true)]
    latest_date: Option<String>,
    /// The walls would show it one place higher after a move (the entry above has the same amount and date).
    can_move_up: bool,
    can_move_down: bool,
}

/// What the form may send, from the server's rules.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ManualSponsorLimitsDto {
    max_entries: usize,
    /// Upload limit in bytes (jpg, png or gif by content).
    max_upload_bytes: u64,
    /// Logos are scaled down to this many px a side.
    logo_edge: u32,
}

/// A project's manual sponsor list.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ManualSponsorsDto {
    project_id: i64,
    project_title: String,
    slug: String,
    /// Off: the walls show the sales' sponsors and this list is not shown publicly.
    uses_manual_sponsors: bool,
    /// Course A, B, C, then supporters, each in the order the walls show it.
    entries: Vec<ManualSponsorDto>,
    limits: ManualSponsorLimitsDto,
}

impl From<ManualSponsorList> for ManualSponsorsDto {
    fn from(list: ManualSponsorList) -> Self {
        let entry = |e: &ManualSponsorEntry| ManualSponsorDto {
            id: e.id,
            course: e.sponsor.course.into(),
            name: e.sponsor.name.clone(),
            logo_src: e.logo_src.clone(),
            link: e.sponsor.link.clone(),
            amount: e.sponsor.amount.map(|a| a.0),
            latest_date: e.sponsor.latest_date.map(|d| d.to_string()),
            can_move_up: list.can_move(e.id, Direction::Up),
            can_move_down: list.can_move(e.id, Direction::Down),
        };
        Self {
            project_id: list.project_id.get(),
            project_title: list.title.clone(),
            slug: list.slug.clone(),
            uses_manual_sponsors: list.uses_manual_sponsors,
            entries: list.entries.iter().map(entry).collect(),
            limits: ManualSponsorLimitsDto {
                max_entries: MAX_MANUAL_SPONSORS,
                max_upload_bytes: MAX_UPLOAD_BYTES,
                logo_edge: LOGO_EDGE,
            },
        }
    }
}

/// A multipart form: every text as typed (the server trims and checks), and for courses A, B and C the logo.
#[derive(Debug, ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code)]
pub(crate) struct ManualSponsorFormData {
    /// `A`, `B`, `C` or `supporter`.
    course: String,
    /// 1-100 characters, one line.
    #[schema(max_length = 100)]
    name: String,
    /// http or https; blank = no link.
    #[schema(max_length = 2048)]
    link: Option<String>,
    /// Whole yen 0-1,000,000,000 in ASCII digits; blank = not disclosed.
    #[schema(max_length = 10)]
    amount: Option<String>,
    /// The latest support, `YYYY-MM-DD` from 2000-01-01 to today; blank = none.
    #[schema(max_length = 10)]
    latest_date: Option<String>,
    /// jpg, png or gif by content; at most 2,097,152 bytes, 8000 px a side and 40 megapixels. Required for a new
    /// entry of course A, B or C; on an edit, without a file the logo stays.
    #[schema(value_type = Option<String>, format = Binary)]
    file: Option<Vec<u8>>,
}

#[derive(Debug, Deserialize, IntoParams)]
pub(crate) struct SponsorPath {
    /// The project.
    id: i64,
    /// The entry.
    sponsor_id: i64,
}

/// `up` or `down`: one place within the entry's course.
#[derive(Debug, Clone, Copy, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub(crate) enum MoveDirectionDto {
    Up,
    Down,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct MoveInput {
    direction: MoveDirectionDto,
}

fn field_error(field: &str, message: &str) -> ApiError {
    ApiError::fields([(field.to_string(), message.to_string())])
}

/// Reads the form. The file is refused past 2 MB without buffering more, and is counted against the
/// operator's upload limit as soon as it starts; each text field past a few times its longest value gets
/// that field's message.
async fn read_form(
    req: &HttpRequest,
    admin: i64,
    mut payload: Multipart,
) -> Result<(ManualSponsorForm, Option<Vec<u8>>), ApiError> {
    let mut form = ManualSponsorForm::default();
    let mut file: Option<Vec<u8>> = None;
    while let Some(field) = payload.next().await {
        let mut field = field.map_err(|_| field_error("form", MSG_UNREADABLE))?;
        let name = field.name().unwrap_or_default().to_string();
        let (limit, message) = match name.as_str() {
            "file" => (usize::try_from(MAX_UPLOAD_BYTES).unwrap_or(usize::MAX), ""),
            "course" => (64, MSG_COURSE),
            "name" => (1024, MSG_NAME_TOO_LONG),
            "link" => (4 * 2048, MSG_LINK_TOO_LONG),
            "amount" => (64, MSG_AMOUNT),
            "latestDate" => (64, MSG_DATE_FORMAT),
            _ => continue,
        };
        let mut bytes = Vec::new();
        while let Some(chunk) = field.next().await {
            let chunk = chunk.map_err(|_| field_error("form", MSG_UNREADABLE))?;
            if name == "file" && bytes.is_empty() && !chunk.is_empty() {
                // Counted before the image is buffered: past the limit nothing is stored or decoded.
                let rule = UserRateSettings::of(req).upload_rule();
                rate::enforce(req, &[(rule, Subject::User(admin))]).await?;
            }
            if bytes.len() + chunk.len() > limit {
                return Err(if name == "file" {
                    field_error("file", &UploadError::TooLarge.to_string())
                } else {
                    field_error(&name, message)
                });
            }
            bytes.extend_from_slice(&chunk);
        }
        if name == "file" {
            // A form sent without a chosen file carries an empty part.
            file = Some(bytes).filter(|b| !b.is_empty());
            continue;
        }
        let text = String::from_utf8(bytes).map_err(|_| field_error(&name, message))?;
        match name.as_str() {
            "course" => form.course = text,
            "name" => form.name = text,
            "link" => form.link = text,
            "amount" => form.amount = text,
            _ => form.latest_date = text,
        }
    }
    Ok((form, file))
}

type Answer = Result<Json<ManualSponsorsDto>, ApiError>;

/// The project's manual sponsor list, course by course in the walls' order.
#[utoipa::path(
    tag = "admin",
    params(ProjectPath),
    responses(
        (status = 200, description = "The list", body = ManualSponsorsDto),
        (status = 400, description = "`malformed_request`: an id that is not a number", body = ErrorBody),
        (status = 404, description = "`not_found`: unknown project, or not an administrator", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[get("/{id}/manual-sponsors")]
pub(crate) async fn list_manual_sponsors(
    _admin: AdminUser,
    sponsors: web::Data<dyn ManualSponsors>,
    path: web::Path<ProjectPath>,
) -> Answer {
    Ok(Json(sponsors.list(ProjectId(path.id)).await?.into()))
}

/// Adds an entry at the end of its course (audit log: `manual_sponsor_created`). The logo is re-encoded to at
/// most 800 px a side. The project's walls show it within a second while its manual list is switched on.
/// Rate limit for the file: `UPLOADS_PER_HOUR` per operator per hour (default 20).
#[utoipa::path(
    tag = "admin",
    params(ProjectPath),
    request_body(content = ManualSponsorFormData, content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "The list", body = ManualSponsorsDto),
        (status = 400, description = "`validation_failed` with every refused field (`errors`): `course`, `name` \
            ('スポンサー名を入力してください。'), `link`, `amount`, `latestDate`, `file` ('A・B・Cコースにはロゴ画像が\
            必要です。画像を選択してください。', 'jpg、jpeg、png、gif形式の画像を選択してください。', ...), `form` \
            ('スポンサーは1つのプロジェクトにつき200件までです。'); `malformed_request`", body = ErrorBody),
        (status = 404, description = "`not_found`: unknown project, or not an administrator", body = ErrorBody),
        (status = 429, description = "`rate_limited`", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[post("/{id}/manual-sponsors")]
pub(crate) async fn create_manual_sponsor(
    req: HttpRequest,
    admin: AdminUser,
    sponsors: web::Data<dyn ManualSponsors>,
    path: web::Path<ProjectPath>,
    payload: Multipart,
) -> Answer {
    let (form, file) = read_form(&req, admin.0.id.0, payload).await?;
    Ok(Json(sponsors.create(admin.0.id, ProjectId(path.id), form, file).await?.into()))
}

/// Saves an entry (audit log: `manual_sponsor_updated` with what changed). Without a file the logo stays; an
/// entry moved to the supporters loses its logo, and one moved to another course goes to that course's end.
#[utoipa::path(
    tag = "admin",
    params(SponsorPath),
    request_body(content = ManualSponsorFormData, content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "The list", body = ManualSponsorsDto),
        (status = 400, description = "`validation_failed` with every refused field (`errors`), as for adding; \
            `malformed_request`", body = ErrorBody),
        (status = 404, description = "`not_found`: unknown project or entry (an entry of another project too), \
            or not an administrator", body = ErrorBody),
        (status = 429, description = "`rate_limited`", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[post("/{id}/manual-sponsors/{sponsor_id}")]
pub(crate) async fn update_manual_sponsor(
    req: HttpRequest,
    admin: AdminUser,
    sponsors: web::Data<dyn ManualSponsors>,
    path: web::Path<SponsorPath>,
    payload: Multipart,
) -> Answer {
    let (form, file) = read_form(&req, admin.0.id.0, payload).await?;
    Ok(Json(sponsors.update(admin.0.id, ProjectId(path.id), path.sponsor_id, form, file).await?.into()))
}

/// Deletes an entry (audit log: `manual_sponsor_deleted`).
#[utoipa::path(
    tag = "admin",
    params(SponsorPath),
    responses(
        (status = 200, description = "The list", body = ManualSponsorsDto),
        (status = 400, description = "`malformed_request`: an id that is not a number", body = ErrorBody),
        (status = 404, description = "`not_found`: unknown project or entry (an entry of another project too), \
            or not an administrator", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[post("/{id}/manual-sponsors/{sponsor_id}/delete")]
pub(crate) async fn delete_manual_sponsor(
    admin: AdminUser,
    sponsors: web::Data<dyn ManualSponsors>,
    path: web::Path<SponsorPath>,
) -> Answer {
    Ok(Json(sponsors.delete(admin.0.id, ProjectId(path.id), path.sponsor_id).await?.into()))
}

/// Moves an entry one place up or down within its course (audit log: `manual_sponsors_reordered`). The walls
/// rank by amount and latest date first, so an entry moves only past one with the same amount and date
/// (`canMoveUp`, `canMoveDown`).
#[utoipa::path(
    tag = "admin",
    params(SponsorPath),
    request_body = MoveInput,
    responses(
        (status = 200, description = "The list", body = ManualSponsorsDto),
        (status = 400, description = "`validation_failed` on `direction` ('金額と最新の支援日の順に並ぶため、\
            この向きには移動できません。…') or `form` (the list changed meanwhile); `malformed_request`",
            body = ErrorBody),
        (status = 404, description = "`not_found`: unknown project or entry (an entry of another project too), \
            or not an administrator", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[post("/{id}/manual-sponsors/{sponsor_id}/move")]
pub(crate) async fn move_manual_sponsor(
    admin: AdminUser,
    sponsors: web::Data<dyn ManualSponsors>,
    path: web::Path<SponsorPath>,
    body: Result<Json<MoveInput>, actix_web::Error>,
) -> Result<Json<ManualSponsorsDto>, actix_web::Error> {
    let direction = match body?.into_inner().direction {
        MoveDirectionDto::Up => Direction::Up,
        MoveDirectionDto::Down => Direction::Down,
    };
    let list = sponsors
        .move_entry(admin.0.id, ProjectId(path.id), path.sponsor_id, direction)
        .await
        .map_err(ApiError::from)?;
    Ok(Json(list.into()))
}
