//! The media storage adapter: uploaded images are normalised (large ones
//! scaled down, metadata dropped by re-encoding) and written through
//! `object_store` to local disk (served at `/media/`) or to an
//! S3-compatible bucket in production.

use std::io::Cursor;
use std::sync::Arc;

use bytes::Bytes;
use domain::profile::ImageKind;
use image::{imageops::FilterType, ImageFormat};
use object_store::aws::AmazonS3Builder;
use object_store::local::LocalFileSystem;
use object_store::path::Path as ObjectPath;
use object_store::{ObjectStore, PutOptions, PutPayload};
use ports::media::{MediaError, MediaStorage, StoredMedia};

/// Icons and logos are shown at 110 px; 440 px keeps them sharp on
/// high-density screens without storing camera-sized originals.
const MAX_EDGE: u32 = 440;

#[derive(Debug, Clone)]
pub enum MediaBackend {
    /// Files under the settings' `media_dir`, served by this app at `/media/`.
    Local,
    /// An S3-compatible bucket; `public_base_url` is where browsers fetch objects.
    S3 { bucket: String, region: String, endpoint: Option<String>, public_base_url: String },
}

#[derive(Clone)]
pub struct ObjectMediaStorage {
    store: Arc<dyn ObjectStore>,
    public_base_url: String,
}

impl ObjectMediaStorage {
    /// S3 credentials come from the standard `AWS_ACCESS_KEY_ID` /
    /// `AWS_SECRET_ACCESS_KEY` environment variables.
    pub fn new(backend: &MediaBackend, dir: &std::path::Path) -> anyhow::Result<Self> {
        match backend {
            MediaBackend::Local => {
                std::fs::create_dir_all(dir)?;
                Ok(Self {
                    store: Arc::new(LocalFileSystem::new_with_prefix(dir)?),
                    public_base_url: "/media".to_string(),
                })
            }
            MediaBackend::S3 { bucket, region, endpoint, public_base_url } => {
                let mut builder = AmazonS3Builder::from_env().with_bucket_name(bucket).with_region(region);
                if let Some(endpoint) = endpoint {
                    builder = builder.with_endpoint(endpoint).with_virtual_hosted_style_request(false);
                }
                Ok(Self {
                    store: Arc::new(builder.build()?),
                    public_base_url: public_base_url.trim_end_matches('/').to_string(),
                })
            }
        }
    }
}

fn format_of(kind: ImageKind) -> ImageFormat {
    match kind {
        ImageKind::Jpeg => ImageFormat::Jpeg,
        ImageKind::Png => ImageFormat::Png,
        ImageKind::Gif => ImageFormat::Gif,
    }
}

/// Decodes, scales down to `MAX_EDGE` when larger, and re-encodes in the
/// same format. An animated GIF keeps only its first frame.
fn normalise(kind: ImageKind, bytes: &[u8]) -> Result<Vec<u8>, MediaError> {
    let format = format_of(kind);
    let decoded = image::load_from_memory_with_format(bytes, format).map_err(|_| MediaError::Undecodable)?;
    let scaled = if decoded.width() > MAX_EDGE || decoded.height() > MAX_EDGE {
        decoded.resize(MAX_EDGE, MAX_EDGE, FilterType::Lanczos3)
    } else {
        decoded
    };
    let scaled = if kind == ImageKind::Jpeg { image::DynamicImage::ImageRgb8(scaled.to_rgb8()) } else { scaled };
    let mut out = Cursor::new(Vec::new());
    scaled.write_to(&mut out, format).map_err(|e| MediaError::Unexpected(e.into()))?;
    Ok(out.into_inner())
}

#[async_trait::async_trait]
impl MediaStorage for ObjectMediaStorage {
    async fn store_image(&self, prefix: &str, kind: ImageKind, bytes: Vec<u8>) -> Result<StoredMedia, MediaError> {
        let normalised = tokio::task::spawn_blocking(move || normalise(kind, &bytes))
            .await
            .map_err(|e| MediaError::Unexpected(e.into()))??;
        let key = format!("{prefix}/{}.{}", uuid::Uuid::new_v4().simple(), kind.extension());
        let byte_size = i64::try_from(normalised.len()).unwrap_or(i64::MAX);
        self.store
            .put_opts(&ObjectPath::from(key.as_str()), PutPayload::from(Bytes::from(normalised)), PutOptions::default())
            .await
            .map_err(|e| MediaError::Unexpected(e.into()))?;
        Ok(StoredMedia {
            url: format!("{}/{key}", self.public_base_url),
            key,
            content_type: kind.content_type().to_string(),
            byte_size,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(width: u32, height: u32) -> Vec<u8> {
        let img = image::RgbaImage::from_pixel(width, height, image::Rgba([200, 30, 30, 255]));
        let mut out = Cursor::new(Vec::new());
        img.write_to(&mut out, ImageFormat::Png).unwrap();
        out.into_inner()
    }

    #[test]
    fn a_large_image_is_scaled_down_keeping_its_aspect() {
        let out = normalise(ImageKind::Png, &png(1200, 600)).unwrap();
        let decoded = image::load_from_memory(&out).unwrap();
        assert_eq!((decoded.width(), decoded.height()), (440, 220));
    }

    #[test]
    fn a_small_image_keeps_its_size() {
        let out = normalise(ImageKind::Png, &png(110, 110)).unwrap();
        let decoded = image::load_from_memory(&out).unwrap();
        assert_eq!((decoded.width(), decoded.height()), (110, 110));
    }

    #[test]
    fn bytes_that_only_look_like_a_png_are_undecodable() {
        let mut fake = b"\x89PNG\r\n\x1a\n".to_vec();
        fake.extend_from_slice(&[0; 64]);
        assert!(matches!(normalise(ImageKind::Png, &fake), Err(MediaError::Undecodable)));
    }

    #[tokio::test]
    async fn an_image_is_written_to_disk_under_a_fresh_key_and_served_from_media() {
        let dir = std::env::temp_dir().join(format!("media-test-{}", uuid::Uuid::new_v4().simple()));
        let storage = ObjectMediaStorage::new(&MediaBackend::Local, &dir).unwrap();

        let stored = storage.store_image("users/1/icon", ImageKind::Png, png(64, 64)).await.unwrap();

        assert!(stored.url.starts_with("/media/users/1/icon/") && stored.url.ends_with(".png"));
        assert_eq!(stored.content_type, "image/png");
        assert!(dir.join(&stored.key).is_file());
        std::fs::remove_dir_all(dir).unwrap();
    }
}
