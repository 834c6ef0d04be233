//! A project page's content as operators edit it (`/v1/admin/projects/{id}/content`
//! and `/images`): main, slider, honour, owner and return images uploaded
//! through the media pipeline, the honour link, the owner's profile and the
//! FAQ. Administrators only ([`AdminUser`] first: anyone else gets the 404 of
//! an unknown path before the body is read).

use actix_multipart::Multipart;
use actix_web::web::{self, Json};
use actix_web::{get, post, HttpRequest};
use domain::ids::{ProjectId, ReturnId};
use domain::profile::{UploadError, MAX_UPLOAD_BYTES};
use domain::project_content::{
    ContentTexts, FaqEntry, OwnerLink, OwnerTexts, SliderEdit, MAX_FAQS, MAX_OWNER_LINKS, MAX_SLIDER_IMAGES,
    OWNER_IMAGE_SIDE, PROJECT_IMAGE_EDGE,
};
use futures_util::StreamExt;
use ports::admin::content::{ImageTarget, ProjectContent, ProjectContents};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::admin_projects::ProjectPath;
use crate::auth::AdminUser;
use crate::rate::{self, Subject, UserRateSettings};
use crate::{ApiError, ErrorBody};

const MSG_RETURN_REQUIRED: &str = "画像を登録するリターンを選んでください。";
const MSG_ALT_TOO_LONG: &str = "代替テキストは120文字以内で入力してください。";
const MSG_NO_FILE: &str = "画像ファイルを選択してください。";

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct AdminSliderImageDto {
    id: i64,
    src: String,
    /// Alternative text; empty = decorative.
    alt: String,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub(crate) struct AdminOwnerLinkDto {
    /// 1-60 characters, one line.
    #[schema(max_length = 60)]
    label: String,
    /// An absolute http or https URL.
    #[schema(max_length = 2048)]
    url: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AdminOwnerDto {
    name: String,
    /// A square image (a logo is contained with padding); null = the default icon.
    #[schema(required = true)]
    image_url: Option<String>,
    /// Plain text; empty = none.
    profile: String,
    links: Vec<AdminOwnerLinkDto>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub(crate) struct AdminFaqDto {
    #[schema(max_length = 200)]
    question: String,
    #[schema(max_length = 2000)]
    answer: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AdminReturnImageDto {
    id: i64,
    title: String,
    #[schema(required = true)]
    image_url: Option<String>,
}

/// What the screen may add, from the server's rules.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ContentLimitsDto {
    max_slider_images: usize,
    max_owner_links: usize,
    max_faqs: usize,
    /// Upload limit in bytes (jpg, png or gif by content).
    max_upload_bytes: u64,
    /// Project images are scaled down to this many px a side.
    project_image_edge: u32,
    /// The owner's image is stored in a square of this side.
    owner_image_side: u32,
}

/// A project page's content as its operator edits it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ProjectContentDto {
    id: i64,
    slug: String,
    title: String,
    /// Also the OGP image; null = none.
    #[schema(required = true)]
    main_image_url: Option<String>,
    #[schema(required = true)]
    honor_img_url: Option<String>,
    #[schema(required = true)]
    honor_img_link: Option<String>,
    /// In slider order.
    slider: Vec<AdminSliderImageDto>,
    /// Null: the page shows no owner box.
    #[schema(required = true)]
    owner: Option<AdminOwnerDto>,
    faqs: Vec<AdminFaqDto>,
    /// In the project's return order.
    returns: Vec<AdminReturnImageDto>,
    limits: ContentLimitsDto,
}

impl From<ProjectContent> for ProjectContentDto {
    fn from(c: ProjectContent) -> Self {
        Self {
            id: c.id.get(),
            slug: c.slug,
            title: c.title,
            main_image_url: c.main_image_url,
            honor_img_url: c.honor_img_url,
            honor_img_link: c.honor_img_link,
            slider: c.slider.into_iter().map(|s| AdminSliderImageDto { id: s.id, src: s.src, alt: s.alt }).collect(),
            owner: c.owner.map(|o| AdminOwnerDto {
                name: o.name,
                image_url: o.image_url,
                profile: o.profile,
                links: o.links.into_iter().map(|l| AdminOwnerLinkDto { label: l.label, url: l.url }).collect(),
            }),
            faqs: c.faqs.into_iter().map(|f| AdminFaqDto { question: f.question, answer: f.answer }).collect(),
            returns: c
                .returns
                .into_iter()
                .map(|r| AdminReturnImageDto { id: r.id.get(), title: r.title, image_url: r.image_url })
                .collect(),
            limits: ContentLimitsDto {
                max_slider_images: MAX_SLIDER_IMAGES,
                max_owner_links: MAX_OWNER_LINKS,
                max_faqs: MAX_FAQS,
                max_upload_bytes: MAX_UPLOAD_BYTES,
                project_image_edge: PROJECT_IMAGE_EDGE,
                owner_image_side: OWNER_IMAGE_SIDE,
            },
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SliderEditInput {
    /// An image of this project's slider.
    id: i64,
    #[schema(max_length = 120)]
    alt: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct AdminOwnerInput {
    /// Required unless every owner field is blank (then there is no owner).
    #[schema(max_length = 100)]
    name: String,
    #[schema(max_length = 1000)]
    profile: String,
    #[schema(max_items = 5)]
    links: Vec<AdminOwnerLinkDto>,
}

/// The content form (images are uploaded on their own).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct ContentInput {
    /// http or https; null or blank = no link.
    #[schema(max_length = 2048)]
    honor_img_link: Option<String>,
    /// Every slider image to keep, in order; the ones left out are removed.
    #[schema(max_items = 10)]
    slider: Vec<SliderEditInput>,
    /// Null or all blank: no owner box.
    owner: Option<AdminOwnerInput>,
    #[schema(max_items = 20)]
    faqs: Vec<AdminFaqDto>,
}

impl From<ContentInput> for ContentTexts {
    fn from(input: ContentInput) -> Self {
        Self {
            honor_img_link: input.honor_img_link,
            slider: input.slider.into_iter().map(|s| SliderEdit { id: s.id, alt: s.alt }).collect(),
            owner: input.owner.map(|o| OwnerTexts {
                name: o.name,
                profile: o.profile,
                links: o.links.into_iter().map(|l| OwnerLink { label: l.label, url: l.url }).collect(),
            }),
            faqs: input.faqs.into_iter().map(|f| FaqEntry { question: f.question, answer: f.answer }).collect(),
        }
    }
}

/// Where an image goes.
#[derive(Debug, Clone, Copy, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub(crate) enum AdminImageSlotDto {
    Main,
    Slider,
    Honor,
    Owner,
    Return,
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub(crate) struct ImageUploadQuery {
    /// `main`, `slider` (added at the end), `honor`, `owner` or `return`.
    slot: AdminImageSlotDto,
    /// The return, for `slot=return`.
    return_id: Option<i64>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct RemoveImageInput {
    /// `main`, `honor`, `owner` or `return` (a slider image is removed by saving the content without it).
    slot: AdminImageSlotDto,
    /// The return, for `slot=return`.
    #[serde(default)]
    return_id: Option<i64>,
}

/// A multipart form: the image in `file`, and for a slider image its alternative text in `alt`.
#[derive(Debug, ToSchema)]
#[allow(dead_code)]
pub(crate) struct ImageUploadForm {
    /// jpg, png or gif by content; at most 2,097,152 bytes, 8000 px a side and 40 megapixels.
    #[schema(value_type = String, format = Binary)]
    file: Vec<u8>,
    /// Slider only: the alternative text (at most 120 characters).
    #[schema(max_length = 120)]
    alt: Option<String>,
}

fn target(slot: AdminImageSlotDto, return_id: Option<i64>, alt: String) -> Result<ImageTarget, ApiError> {
    Ok(match slot {
        AdminImageSlotDto::Main => ImageTarget::Main,
        AdminImageSlotDto::Honor => ImageTarget::Honor,
        AdminImageSlotDto::Owner => ImageTarget::Owner,
        AdminImageSlotDto::Slider => ImageTarget::Slider { alt },
        AdminImageSlotDto::Return => match return_id {
            Some(id) => ImageTarget::Return(ReturnId(id)),
            None => return Err(ApiError::fields([("returnId".to_string(), MSG_RETURN_REQUIRED.to_string())])),
        },
    })
}

fn file_error(message: impl Into<String>) -> ApiError {
    ApiError::fields([("file".to_string(), message.into())])
}

/// Reads `file` (refused past 2 MB without buffering more) and `alt` (past 480 bytes).
async fn read_form(mut payload: Multipart) -> Result<(Vec<u8>, String), ApiError> {
    const MAX_ALT_BYTES: usize = 480;
    let mut file = None;
    let mut alt = Vec::new();
    while let Some(field) = payload.next().await {
        let mut field = field.map_err(|_| file_error(MSG_NO_FILE))?;
        let (limit, is_file) = match field.name() {
            Some("file") => (usize::try_from(MAX_UPLOAD_BYTES).unwrap_or(usize::MAX), true),
            Some("alt") => (MAX_ALT_BYTES, false),
            _ => continue,
        };
        let mut bytes = Vec::new();
        while let Some(chunk) = field.next().await {
            let chunk = chunk.map_err(|_| file_error(MSG_NO_FILE))?;
            if bytes.len() + chunk.len() > limit {
                return Err(if is_file {
                    file_error(UploadError::TooLarge.to_string())
                } else {
                    ApiError::fields([("alt".to_string(), MSG_ALT_TOO_LONG.to_string())])
                });
            }
            bytes.extend_from_slice(&chunk);
        }
        if is_file {
            file = Some(bytes);
        } else {
            alt = bytes;
        }
    }
    let file = file.ok_or_else(|| file_error(MSG_NO_FILE))?;
    let alt =
        String::from_utf8(alt).map_err(|_| ApiError::fields([("alt".to_string(), MSG_ALT_TOO_LONG.to_string())]))?;
    Ok((file, alt))
}

type Answer = Result<Json<ProjectContentDto>, ApiError>;

/// The project page's content: images, honour link, owner profile, FAQ.
#[utoipa::path(
    tag = "admin",
    params(ProjectPath),
    responses(
        (status = 200, description = "The content", body = ProjectContentDto),
        (status = 400, description = "`malformed_request`: an id that is not a number", body = ErrorBody),
        (status = 404, description = "`not_found`: unknown project, or not an administrator", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[get("/{id}/content")]
pub(crate) async fn get_content(
    _admin: AdminUser,
    contents: web::Data<dyn ProjectContents>,
    path: web::Path<ProjectPath>,
) -> Answer {
    Ok(Json(contents.content(ProjectId(path.id)).await?.into()))
}

/// Saves the honour link, the slider's order and alternative texts (images
/// left out are removed), the owner's profile and the FAQ. Editable before
/// and after publication; the public page shows it within a second.
#[utoipa::path(
    tag = "admin",
    params(ProjectPath),
    request_body = ContentInput,
    responses(
        (status = 200, description = "The content", body = ProjectContentDto),
        (status = 400, description = "`validation_failed` with every refused field (`errors`, e.g. `faqs.0.answer`: \
            '回答を入力してください。', `owner.links.0.url`: 'リンク先はhttp://またはhttps://で始まるURLを入力してください。'); \
            `malformed_request`", body = ErrorBody),
        (status = 404, description = "`not_found`: unknown project, or not an administrator", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[post("/{id}/content")]
pub(crate) async fn save_content(
    admin: AdminUser,
    contents: web::Data<dyn ProjectContents>,
    path: web::Path<ProjectPath>,
    body: Result<Json<ContentInput>, actix_web::Error>,
) -> Result<Json<ProjectContentDto>, actix_web::Error> {
    let texts = ContentTexts::from(body?.into_inner());
    let content = contents.save(admin.0.id, ProjectId(path.id), texts).await.map_err(ApiError::from)?;
    Ok(Json(content.into()))
}

/// Uploads an image into its place: main (scaled to 1600 px a side), a new
/// slider image at the end (with `alt`; at most 10), honour banner, the
/// owner's image (contained in a 400 px square with padding; the owner's
/// name must be saved first) or a return's picture. Replaces what was there.
/// Rate limit: `UPLOADS_PER_HOUR` per operator per hour (default 20).
#[utoipa::path(
    tag = "admin",
    params(ProjectPath, ImageUploadQuery),
    request_body(content = ImageUploadForm, content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "The content", body = ProjectContentDto),
        (status = 400, description = "`validation_failed` on `file` ('jpg、jpeg、png、gif形式の画像を選択してください。', \
            'ファイルサイズは2MB以内にしてください。', '画像の縦横が大きすぎます。…', 'スライダー画像は10枚までです。'), \
            `alt` or `returnId`; `malformed_request`: an unknown slot", body = ErrorBody),
        (status = 404, description = "`not_found`: unknown project or return, or not an administrator", body = ErrorBody),
        (status = 429, description = "`rate_limited`", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[post("/{id}/images")]
pub(crate) async fn upload_image(
    req: HttpRequest,
    admin: AdminUser,
    contents: web::Data<dyn ProjectContents>,
    path: web::Path<ProjectPath>,
    query: Result<web::Query<ImageUploadQuery>, actix_web::Error>,
    payload: Multipart,
) -> Result<Json<ProjectContentDto>, actix_web::Error> {
    let query = query?.into_inner();
    // Counted before the body is read: past the limit nothing is buffered or decoded.
    let rule = UserRateSettings::of(&req).upload_rule();
    rate::enforce(&req, &[(rule, Subject::User(admin.0.id.0))]).await?;
    let (bytes, alt) = read_form(payload).await?;
    let target = target(query.slot, query.return_id, alt)?;
    let content = contents.upload(admin.0.id, ProjectId(path.id), target, bytes).await.map_err(ApiError::from)?;
    Ok(Json(content.into()))
}

/// Removes the main, honour, owner or a return's image.
#[utoipa::path(
    tag = "admin",
    params(ProjectPath),
    request_body = RemoveImageInput,
    responses(
        (status = 200, description = "The content", body = ProjectContentDto),
        (status = 400, description = "`validation_failed` on `slot` (a slider image) or `returnId`; \
            `malformed_request`", body = ErrorBody),
        (status = 404, description = "`not_found`: unknown project or return, or not an administrator", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[post("/{id}/images/remove")]
pub(crate) async fn remove_image(
    admin: AdminUser,
    contents: web::Data<dyn ProjectContents>,
    path: web::Path<ProjectPath>,
    body: Result<Json<RemoveImageInput>, actix_web::Error>,
) -> Result<Json<ProjectContentDto>, actix_web::Error> {
    let input = body?.into_inner();
    let target = target(input.slot, input.return_id, String::new())?;
    let content = contents.remove_image(admin.0.id, ProjectId(path.id), target).await.map_err(ApiError::from)?;
    Ok(Json(content.into()))
}
