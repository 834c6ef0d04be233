//! The media storage adapter: uploaded images are normalised (large ones
//! scaled down, metadata dropped by re-encoding) and written through
//! `object_store` to local disk (served at `/media/`) or to an
//! S3-compatible bucket in production.

use std::io::Cursor;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use domain::profile::{check_dimensions, ImageKind, UploadError, MAX_IMAGE_SIDE};
use image::{imageops::FilterType, ImageError, ImageFormat, ImageReader, Limits};
use object_store::aws::AmazonS3Builder;
use object_store::local::LocalFileSystem;
use object_store::path::Path as ObjectPath;
use object_store::{ObjectStore, PutOptions, PutPayload};
use ports::media::{ImageFit, MediaError, MediaStorage, StoredMedia};

/// Icons and logos are shown at 110 px; 440 px keeps them sharp on
/// high-density screens without storing camera-sized originals.
const MAX_EDGE: u32 = 440;
/// What one decode may allocate: an image at the pixel budget in 8-bit RGBA
/// (160 MB) with room to spare; a 16-bit one that size is refused.
const DECODE_MAX_ALLOC: u64 = 256 * 1024 * 1024;
/// Decodes running at once (each may hold `DECODE_MAX_ALLOC`): bounds the
/// memory many simultaneous uploads can take.
const CONCURRENT_DECODES: usize = 2;
/// Waiting for a decode slot and decoding together; a 40 MP image takes a
/// few seconds, so only a pathological file (or a flood) reaches this.
const DECODE_TIMEOUT: Duration = Duration::from_secs(20);

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
    decodes: Arc<tokio::sync::Semaphore>,
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
                    decodes: decode_slots(),
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
                    decodes: decode_slots(),
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

fn decode_slots() -> Arc<tokio::sync::Semaphore> {
    Arc::new(tokio::sync::Semaphore::new(CONCURRENT_DECODES))
}

fn decode_limits() -> Limits {
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_IMAGE_SIDE);
    limits.max_image_height = Some(MAX_IMAGE_SIDE);
    limits.max_alloc = Some(DECODE_MAX_ALLOC);
    limits
}

/// The dimensions the file's header declares, read without decoding pixels.
fn declared_dimensions(kind: ImageKind, bytes: &[u8]) -> Result<(u32, u32), MediaError> {
    ImageReader::with_format(Cursor::new(bytes), format_of(kind)).into_dimensions().map_err(|e| match e {
        ImageError::Limits(_) => MediaError::Rejected(UploadError::TooManyPixels),
        _ => MediaError::Undecodable,
    })
}

/// Checks the declared size against the pixel budget (before decoding
/// anything), decodes within memory limits, fits it (`fit`) and re-encodes
/// in the same format. An animated GIF keeps only its first frame.
#[cfg(test)]
fn normalise(kind: ImageKind, bytes: &[u8]) -> Result<Vec<u8>, MediaError> {
    normalise_to(kind, bytes, ImageFit::Within(MAX_EDGE))
}

/// Centres `image` on a transparent square canvas as large as its longer side.
fn pad_to_square(image: image::DynamicImage) -> image::DynamicImage {
    let side = image.width().max(image.height());
    let mut canvas = image::RgbaImage::from_pixel(side, side, image::Rgba([255, 255, 255, 0]));
    let x = i64::from((side - image.width()) / 2);
    let y = i64::from((side - image.height()) / 2);
    image::imageops::overlay(&mut canvas, &image.to_rgba8(), x, y);
    image::DynamicImage::ImageRgba8(canvas)
}

/// JPEG has no transparency: what is transparent (the padding) becomes white.
fn flatten_on_white(image: &image::DynamicImage) -> image::DynamicImage {
    let rgba = image.to_rgba8();
    let rgb = image::RgbImage::from_fn(rgba.width(), rgba.height(), |x, y| {
        let image::Rgba([r, g, b, a]) = *rgba.get_pixel(x, y);
        let over =
            |c: u8| u8::try_from((u16::from(c) * u16::from(a) + 255 * (255 - u16::from(a))) / 255).unwrap_or(u8::MAX);
        image::Rgb([over(r), over(g), over(b)])
    });
    image::DynamicImage::ImageRgb8(rgb)
}

fn normalise_to(kind: ImageKind, bytes: &[u8], fit: ImageFit) -> Result<Vec<u8>, MediaError> {
    let (width, height) = declared_dimensions(kind, bytes)?;
    check_dimensions(width, height).map_err(MediaError::Rejected)?;
    let format = format_of(kind);
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    reader.limits(decode_limits());
    let decoded = reader.decode().map_err(|e| match e {
        ImageError::Limits(_) => MediaError::Rejected(UploadError::TooManyPixels),
        _ => MediaError::Undecodable,
    })?;
    let edge = match fit {
        ImageFit::Within(edge) | ImageFit::PaddedSquare(edge) => edge,
    };
    let scaled = if decoded.width() > edge || decoded.height() > edge {
        decoded.resize(edge, edge, FilterType::Lanczos3)
    } else {
        decoded
    };
    let scaled = match fit {
        ImageFit::PaddedSquare(_) => pad_to_square(scaled),
        ImageFit::Within(_) => scaled,
    };
    let scaled = if kind == ImageKind::Jpeg { flatten_on_white(&scaled) } else { scaled };
    let mut out = Cursor::new(Vec::new());
    scaled.write_to(&mut out, format).map_err(|e| MediaError::Unexpected(e.into()))?;
    Ok(out.into_inner())
}

#[async_trait::async_trait]
impl MediaStorage for ObjectMediaStorage {
    async fn store_image(&self, prefix: &str, kind: ImageKind, bytes: Vec<u8>) -> Result<StoredMedia, MediaError> {
        self.store_image_fit(prefix, kind, bytes, ImageFit::Within(MAX_EDGE)).await
    }

    async fn store_image_fit(
        &self,
        prefix: &str,
        kind: ImageKind,
        bytes: Vec<u8>,
        fit: ImageFit,
    ) -> Result<StoredMedia, MediaError> {
        // Off the request workers, one of a few at a time, within a time limit. A decode past the
        // limit cannot be interrupted; it finishes in the background still holding its slot.
        let slots = Arc::clone(&self.decodes);
        let work = async move {
            let slot = slots.acquire_owned().await.map_err(|e| MediaError::Unexpected(e.into()))?;
            tokio::task::spawn_blocking(move || {
                let _slot = slot;
                normalise_to(kind, &bytes, fit)
            })
            .await
            .map_err(|e| MediaError::Unexpected(e.into()))?
        };
        let normalised = tokio::time::timeout(DECODE_TIMEOUT, work).await.map_err(|_| {
            tracing::warn!(?kind, "image decode timed out");
            MediaError::Rejected(UploadError::Unprocessable)
        })??;
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

/// A valid PNG header declaring `width` x `height` 8-bit grayscale pixels,
/// followed by a tiny IDAT (one stored zlib block holding the first row),
/// like the decompression bomb of the security review but without the 400 MB
/// of compressed zeros. For tests.
#[doc(hidden)]
pub fn crafted_png(width: u32, height: u32) -> Vec<u8> {
    fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
        out.extend_from_slice(&u32::try_from(data.len()).unwrap_or(u32::MAX).to_be_bytes());
        let start = out.len();
        out.extend_from_slice(kind);
        out.extend_from_slice(data);
        let crc = crc32(&out[start..]);
        out.extend_from_slice(&crc.to_be_bytes());
    }
    fn crc32(bytes: &[u8]) -> u32 {
        let mut crc = 0xFFFF_FFFFu32;
        for &b in bytes {
            crc ^= u32::from(b);
            for _ in 0..8 {
                crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
            }
        }
        !crc
    }
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&width.to_be_bytes());
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[8, 0, 0, 0, 0]); // depth 8, grayscale, deflate, no filter, no interlace
                                              // First row: filter byte 0 and `width` zeros (capped to one stored block).
    let row = vec![0u8; usize::try_from(width).unwrap_or(0).saturating_add(1).min(65_535)];
    let len = u16::try_from(row.len()).unwrap_or(u16::MAX);
    let mut zlib = vec![0x78, 0x01, 0x01];
    zlib.extend_from_slice(&len.to_le_bytes());
    zlib.extend_from_slice(&(!len).to_le_bytes());
    zlib.extend_from_slice(&row);
    let (mut a, mut b) = (1u32, 0u32);
    for &byte in &row {
        a = (a + u32::from(byte)) % 65_521;
        b = (b + a) % 65_521;
    }
    zlib.extend_from_slice(&((b << 16) | a).to_be_bytes());
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    chunk(&mut png, b"IHDR", &ihdr);
    chunk(&mut png, b"IDAT", &zlib);
    chunk(&mut png, b"IEND", &[]);
    png
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
    fn a_project_image_fits_within_1600_px_keeping_its_aspect() {
        let out = normalise_to(ImageKind::Png, &png(2400, 1200), ImageFit::Within(1600)).unwrap();
        let decoded = image::load_from_memory(&out).unwrap();
        assert_eq!((decoded.width(), decoded.height()), (1600, 800));
    }

    #[test]
    fn a_wide_logo_is_contained_in_a_square_with_transparent_padding_above_and_below() {
        let out = normalise_to(ImageKind::Png, &png(800, 200), ImageFit::PaddedSquare(400)).unwrap();
        let decoded = image::load_from_memory(&out).unwrap().to_rgba8();
        assert_eq!((decoded.width(), decoded.height()), (400, 400));
        assert_eq!(decoded.get_pixel(200, 10)[3], 0, "padding is transparent");
        assert_eq!(*decoded.get_pixel(200, 200), image::Rgba([200, 30, 30, 255]), "the logo is centred, uncropped");
        assert_eq!(*decoded.get_pixel(0, 200), image::Rgba([200, 30, 30, 255]), "its full width is kept");
    }

    #[test]
    fn a_jpeg_logo_is_padded_with_white() {
        let img = image::RgbImage::from_pixel(300, 100, image::Rgb([20, 20, 200]));
        let mut jpeg = Cursor::new(Vec::new());
        img.write_to(&mut jpeg, ImageFormat::Jpeg).unwrap();
        let out = normalise_to(ImageKind::Jpeg, &jpeg.into_inner(), ImageFit::PaddedSquare(400)).unwrap();
        let decoded = image::load_from_memory(&out).unwrap().to_rgb8();
        assert_eq!((decoded.width(), decoded.height()), (300, 300));
        assert!(decoded.get_pixel(150, 5).0.iter().all(|c| *c > 245), "{:?}", decoded.get_pixel(150, 5));
    }

    #[test]
    fn a_small_image_keeps_its_size() {
        let out = normalise(ImageKind::Png, &png(110, 110)).unwrap();
        let decoded = image::load_from_memory(&out).unwrap();
        assert_eq!((decoded.width(), decoded.height()), (110, 110));
    }

    #[test]
    fn a_png_declaring_20000_by_20000_pixels_is_refused_without_decoding() {
        let bomb = crafted_png(20_000, 20_000);
        let started = std::time::Instant::now();

        let result = normalise(ImageKind::Png, &bomb);

        let elapsed = started.elapsed();
        println!("refused a {} byte PNG declaring 20000x20000 in {elapsed:?}", bomb.len());
        assert!(matches!(result, Err(MediaError::Rejected(UploadError::TooManyPixels))), "{result:?}");
        // Decoding 400 MB of pixels takes seconds even in release builds; reading a header takes microseconds.
        assert!(elapsed < std::time::Duration::from_millis(100), "{elapsed:?}");
    }

    #[test]
    fn the_decoder_refuses_by_its_own_limits_too() {
        // Within the header check (8000 px a side) but a decode past the allocation limit still fails cleanly.
        let mut reader = ImageReader::with_format(Cursor::new(crafted_png(8000, 8000)), ImageFormat::Png);
        let mut limits = decode_limits();
        limits.max_alloc = Some(1024 * 1024);
        reader.limits(limits);
        assert!(matches!(reader.decode(), Err(ImageError::Limits(_))));
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
