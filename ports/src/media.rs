//! Where uploaded images go: local disk in development, S3-compatible
//! object storage in production. The adapter also normalises the image
//! (resizes large ones) before storing it.

use domain::profile::{ImageKind, UploadError};
pub use domain::project_content::ImageFit;

/// A stored object and the URL pages render it from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredMedia {
    pub key: String,
    pub url: String,
    pub content_type: String,
    pub byte_size: i64,
}

#[derive(Debug, thiserror::Error)]
pub enum MediaError {
    /// The bytes are not a decodable image of the detected kind.
    #[error("undecodable image")]
    Undecodable,
    /// The image breaks an upload rule only decoding can check (its pixel
    /// budget), or could not be processed within the adapter's limits.
    #[error(transparent)]
    Rejected(UploadError),
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait MediaStorage: Send + Sync {
    /// Stores an image already checked by content (`kind`) and size, under a
    /// new unique key beginning with `prefix`. MUST return `Rejected` without
    /// decoding when the header declares more than the pixel budget
    /// (`domain::profile::check_dimensions`), and `Undecodable` for bytes that
    /// are not an image of `kind`. Not idempotent: each call stores a new
    /// object under a new key, never overwriting one.
    async fn store_image(&self, prefix: &str, kind: ImageKind, bytes: Vec<u8>) -> Result<StoredMedia, MediaError>;

    /// Like [`MediaStorage::store_image`], re-encoded to `fit` instead of the
    /// member images' size: the same checks, errors and fresh key.
    async fn store_image_fit(
        &self,
        prefix: &str,
        kind: ImageKind,
        bytes: Vec<u8>,
        fit: ImageFit,
    ) -> Result<StoredMedia, MediaError>;
}
