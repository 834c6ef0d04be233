//! Operators fill a project page around the campaign: the main image, the
//! slider (images in order with their alternative text), the honour banner
//! and its link, a return's picture, the owner's profile and the FAQ
//! (`domain::project_content`). Images go through the media pipeline
//! (checked by content, size and pixels, re-encoded to their place); every
//! change is written to the audit log with what changed from what to what.
//! The public page reads it through the catalog, whose cache holds a
//! project for at most a second (`SUPPORT_SHOWS_WITHIN`).

use chrono::{DateTime, Utc};
use domain::ids::{ProjectId, ReturnId, UserId};
use domain::manual_sponsor::{MSG_LIST_CHANGED, MSG_TOO_MANY};
use domain::profile::{detect_image, UploadError};
use domain::project_content::{
    check_alt, check_content, ContentFieldError, ContentTexts, FaqEntry, ImageSlot, OwnerLink, MAX_SLIDER_IMAGES,
    MSG_OWNER_FIRST, MSG_SLIDER_CHANGED, MSG_SLIDER_FULL, MSG_UNDECODABLE,
};
use serde_json::{json, Value};

use super::audit::{changes, logged_file, logged_text, AdminActionKind, AuditLog, NewAdminAction};
use crate::clock::Clock;
use crate::media::{MediaError, MediaStorage};
use crate::RepoError;

/// A slider image as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SliderImage {
    pub id: i64,
    pub src: String,
    pub alt: String,
}

/// The owner's profile as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnerProfile {
    pub name: String,
    pub image_url: Option<String>,
    /// Empty = none.
    pub profile: String,
    pub links: Vec<OwnerLink>,
}

/// A return with its picture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReturnImage {
    pub id: ReturnId,
    pub title: String,
    pub image_url: Option<String>,
}

/// A project page's content as its operator edits it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectContent {
    pub id: ProjectId,
    pub title: String,
    pub slug: String,
    pub main_image_url: Option<String>,
    pub honor_img_url: Option<String>,
    pub honor_img_link: Option<String>,
    /// In slider order.
    pub slider: Vec<SliderImage>,
    pub owner: Option<OwnerProfile>,
    /// In page order.
    pub faqs: Vec<FaqEntry>,
    /// In the project's return order.
    pub returns: Vec<ReturnImage>,
}

/// Where an uploaded or removed image belongs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImageTarget {
    Main,
    Honor,
    Owner,
    /// A new slider image at the end, with its alternative text (upload
    /// only; a slider image is removed by leaving it out of the content).
    Slider {
        alt: String,
    },
    Return(ReturnId),
}

impl ImageTarget {
    pub const fn slot(&self) -> ImageSlot {
        match self {
            Self::Main => ImageSlot::Main,
            Self::Honor => ImageSlot::Honor,
            Self::Owner => ImageSlot::Owner,
            Self::Slider { .. } => ImageSlot::Slider,
            Self::Return(_) => ImageSlot::Return,
        }
    }
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait ProjectContentRepository: Send + Sync {
    /// The project's page content. MUST return `NotFound` for an unknown id.
    async fn content(&self, id: ProjectId) -> Result<ProjectContent, RepoError>;

    /// Writes the texts in one transaction: the honour link, the slider's
    /// order and alternative texts (deleting the images left out), the
    /// owner's profile and links (`None` deletes them; the owner's image
    /// stays while there is an owner), the FAQ (replaced). MUST write
    /// nothing and return `Conflict("slider_changed")` when the slider's
    /// stored ids are no longer a superset of `texts.slider`'s (another
    /// write came between); `NotFound` for an unknown project.
    async fn save_texts(&self, id: ProjectId, texts: &ContentTexts, now: DateTime<Utc>) -> Result<(), RepoError>;

    /// Sets (`Some`) or clears (`None`) the image of `target`. For
    /// `Slider`, MUST append one image (a `None` url changes nothing) and
    /// return `Conflict("slider_full")` when the project already has
    /// `MAX_SLIDER_IMAGES`. MUST return `Conflict("owner_missing")` for
    /// `Owner` when the project has no owner profile, and `NotFound` for an
    /// unknown project or a return that is not the project's.
    async fn set_image(
        &self,
        id: ProjectId,
        target: &ImageTarget,
        url: Option<String>,
        now: DateTime<Utc>,
    ) -> Result<(), RepoError>;
}

/// What the operators' content screens (page content, images, the manual
/// sponsor list) refuse: their forms and uploads fail the same ways.
#[derive(Debug, thiserror::Error)]
pub enum ContentError {
    /// An unknown project, or nothing of this project with that id.
    #[error("not found")]
    NotFound,
    /// Refused fields, in form order.
    #[error("{}", .0.first().map_or("", |e| e.message.as_str()))]
    Invalid(Vec<ContentFieldError>),
    #[error(transparent)]
    Repo(RepoError),
    #[error(transparent)]
    Media(anyhow::Error),
}

impl ContentError {
    pub(crate) fn invalid(field: &str, message: &str) -> Self {
        Self::Invalid(vec![ContentFieldError::new(field, message)])
    }
}

impl From<RepoError> for ContentError {
    fn from(error: RepoError) -> Self {
        match error {
            RepoError::NotFound => Self::NotFound,
            RepoError::Conflict(name) if name == "slider_changed" => Self::invalid("slider", MSG_SLIDER_CHANGED),
            RepoError::Conflict(name) if name == "slider_full" => Self::invalid("file", MSG_SLIDER_FULL),
            RepoError::Conflict(name) if name == "owner_missing" => Self::invalid("file", MSG_OWNER_FIRST),
            RepoError::Conflict(name) if name == "manual_sponsors_full" => Self::invalid("form", MSG_TOO_MANY),
            RepoError::Conflict(name) if name == "manual_sponsors_changed" => Self::invalid("form", MSG_LIST_CHANGED),
            // The tables' own checks repeat the domain's; reaching one means the rule and the table disagree.
            other => Self::Repo(other),
        }
    }
}

impl From<UploadError> for ContentError {
    fn from(error: UploadError) -> Self {
        Self::invalid("file", &error.to_string())
    }
}

impl From<MediaError> for ContentError {
    fn from(error: MediaError) -> Self {
        match error {
            MediaError::Undecodable => Self::invalid("file", MSG_UNDECODABLE),
            MediaError::Rejected(e) => e.into(),
            MediaError::Unexpected(e) => Self::Media(e),
        }
    }
}

/// The operators' content screen, as the HTTP layer sees it.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait ProjectContents: Send + Sync {
    /// `NotFound` for an unknown project.
    async fn content(&self, id: ProjectId) -> Result<ProjectContent, ContentError>;
    /// Saves the texts (`domain::project_content::check_content`).
    async fn save(&self, admin: UserId, id: ProjectId, texts: ContentTexts) -> Result<ProjectContent, ContentError>;
    /// Checks, re-encodes, stores and attaches an uploaded image.
    async fn upload(
        &self,
        admin: UserId,
        id: ProjectId,
        target: ImageTarget,
        bytes: Vec<u8>,
    ) -> Result<ProjectContent, ContentError>;
    /// Removes the main, honour, owner or a return's image (a slider image
    /// is removed by saving the content without it).
    async fn remove_image(
        &self,
        admin: UserId,
        id: ProjectId,
        target: ImageTarget,
    ) -> Result<ProjectContent, ContentError>;
}

/// Shown when a slider image is to be removed one by one.
pub const MSG_SLIDER_REMOVE: &str = "スライダー画像は一覧から削除して保存してください。";

pub struct ContentService<R, M, A, C> {
    repo: R,
    media: M,
    audit: A,
    clock: C,
}

impl<R, M, A, C> ContentService<R, M, A, C> {
    pub fn new(repo: R, media: M, audit: A, clock: C) -> Self {
        Self { repo, media, audit, clock }
    }
}

fn content_fields(c: &ProjectContent) -> Vec<(&'static str, Value)> {
    let owner = c.owner.as_ref();
    vec![
        ("honorImgLink", json!(c.honor_img_link)),
        ("slider", Value::Array(c.slider.iter().map(|s| json!([logged_file(&s.src), logged_text(&s.alt)])).collect())),
        ("ownerName", json!(owner.map(|o| o.name.clone()))),
        ("ownerProfile", owner.map_or(Value::Null, |o| logged_text(&o.profile))),
        (
            "ownerLinks",
            Value::Array(
                owner.map_or(vec![], |o| o.links.iter().map(|l| json!([l.label, logged_text(&l.url)])).collect()),
            ),
        ),
        (
            "faqs",
            Value::Array(c.faqs.iter().map(|f| json!([logged_text(&f.question), logged_text(&f.answer)])).collect()),
        ),
    ]
}

fn image_of(content: &ProjectContent, target: &ImageTarget) -> Result<Option<String>, ContentError> {
    Ok(match target {
        ImageTarget::Main => content.main_image_url.clone(),
        ImageTarget::Honor => content.honor_img_url.clone(),
        ImageTarget::Owner => content.owner.as_ref().and_then(|o| o.image_url.clone()),
        ImageTarget::Slider { .. } => None,
        ImageTarget::Return(ret) => {
            content.returns.iter().find(|r| r.id == *ret).ok_or(ContentError::NotFound)?.image_url.clone()
        }
    })
}

impl<R: ProjectContentRepository, M: MediaStorage, A: AuditLog, C: Clock> ContentService<R, M, A, C> {
    async fn record(
        &self,
        admin: UserId,
        kind: AdminActionKind,
        content: &ProjectContent,
        mut detail: Value,
    ) -> Result<(), ContentError> {
        if let Value::Object(fields) = &mut detail {
            fields.insert("projectTitle".into(), json!(content.title));
        }
        let action = NewAdminAction { project_id: Some(content.id), detail, ..NewAdminAction::new(admin, kind) };
        self.audit.record(action).await?;
        Ok(())
    }

    async fn record_image(
        &self,
        admin: UserId,
        target: &ImageTarget,
        before: &ProjectContent,
        after_url: Option<&str>,
    ) -> Result<(), ContentError> {
        let mut detail = json!({
            "slot": target.slot().code(),
            "changes": { "image": [image_of(before, target)?.as_deref().map(logged_file), after_url.map(logged_file)] },
        });
        if let ImageTarget::Return(ret) = target {
            detail["returnId"] = json!(ret.0);
        }
        if let ImageTarget::Slider { alt } = target {
            detail["alt"] = logged_text(alt);
        }
        self.record(admin, AdminActionKind::ProjectImageChanged, before, detail).await
    }
}

#[async_trait::async_trait]
impl<R: ProjectContentRepository, M: MediaStorage, A: AuditLog, C: Clock> ProjectContents
    for ContentService<R, M, A, C>
{
    async fn content(&self, id: ProjectId) -> Result<ProjectContent, ContentError> {
        Ok(self.repo.content(id).await?)
    }

    async fn save(&self, admin: UserId, id: ProjectId, texts: ContentTexts) -> Result<ProjectContent, ContentError> {
        let before = self.repo.content(id).await?;
        let stored: Vec<i64> = before.slider.iter().map(|s| s.id).collect();
        let texts = check_content(texts, &stored).map_err(ContentError::Invalid)?;
        self.repo.save_texts(id, &texts, self.clock.now()).await?;
        let after = self.repo.content(id).await?;
        let detail = json!({ "changes": changes(Some(&content_fields(&before)), &content_fields(&after)) });
        self.record(admin, AdminActionKind::ProjectContentUpdated, &after, detail).await?;
        Ok(after)
    }

    async fn upload(
        &self,
        admin: UserId,
        id: ProjectId,
        target: ImageTarget,
        bytes: Vec<u8>,
    ) -> Result<ProjectContent, ContentError> {
        let before = self.repo.content(id).await?;
        // What the storage would refuse anyway is refused before the image is decoded and stored.
        let target = match target {
            ImageTarget::Slider { alt } => {
                let alt = check_alt(&alt).map_err(|e| ContentError::Invalid(vec![e]))?;
                if before.slider.len() >= MAX_SLIDER_IMAGES {
                    return Err(ContentError::invalid("file", MSG_SLIDER_FULL));
                }
                ImageTarget::Slider { alt }
            }
            ImageTarget::Owner if before.owner.is_none() => return Err(ContentError::invalid("file", MSG_OWNER_FIRST)),
            other => other,
        };
        image_of(&before, &target)?;
        let kind = detect_image(&bytes, u64::try_from(bytes.len()).unwrap_or(u64::MAX))?;
        let prefix = format!("projects/{}/{}", id.0, target.slot().code());
        let stored = self.media.store_image_fit(&prefix, kind, bytes, target.slot().fit()).await?;
        self.repo.set_image(id, &target, Some(stored.url.clone()), self.clock.now()).await?;
        self.record_image(admin, &target, &before, Some(&stored.url)).await?;
        Ok(self.repo.content(id).await?)
    }

    async fn remove_image(
        &self,
        admin: UserId,
        id: ProjectId,
        target: ImageTarget,
    ) -> Result<ProjectContent, ContentError> {
        let before = self.repo.content(id).await?;
        if matches!(target, ImageTarget::Slider { .. }) {
            return Err(ContentError::invalid("slot", MSG_SLIDER_REMOVE));
        }
        if image_of(&before, &target)?.is_none() {
            return Ok(before);
        }
        self.repo.set_image(id, &target, None, self.clock.now()).await?;
        self.record_image(admin, &target, &before, None).await?;
        Ok(self.repo.content(id).await?)
    }
}

#[cfg(test)]
#[path = "content_tests.rs"]
mod tests;
