//! `/assets/...`: the frontend's content-hashed build output. The build writes
//! a Brotli (`.br`) and a gzip (`.gz`) copy beside each script and style at
//! maximum compression; a browser that accepts one gets it as is, so nothing
//! is compressed per request and the bytes are the smallest we can send.

use std::path::{Path, PathBuf};

use actix_files::NamedFile;
use actix_web::http::header::{self, ContentDisposition, ContentEncoding, DispositionType, HeaderValue};
use actix_web::{guard, web, HttpRequest, HttpResponse};

/// Hashed names never change content, so browsers may keep them a year.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// Precompressed variants, preferred in this order.
const VARIANTS: [(&str, &str, ContentEncoding); 2] =
    [("br", "br", ContentEncoding::Brotli), ("gzip", "gz", ContentEncoding::Gzip)];

#[derive(Debug, Clone)]
struct AssetDir(PathBuf);

/// Mounts `GET` and `HEAD /assets/{name}` over `{dir}/assets`.
pub fn config(dir: &Path) -> impl FnOnce(&mut web::ServiceConfig) {
    let dir = AssetDir(dir.join("assets"));
    move |cfg| {
        let get_or_head = guard::Any(guard::Get()).or(guard::Head());
        cfg.app_data(web::Data::new(dir)).route("/assets/{name:.*}", web::route().guard(get_or_head).to(asset));
    }
}

/// Whether `accept_encoding` (an Accept-Encoding value) allows `coding`.
fn accepts(accept_encoding: &str, coding: &str) -> bool {
    accept_encoding.split(',').any(|item| {
        let mut parts = item.split(';').map(str::trim);
        let name = parts.next().unwrap_or("");
        let refused = parts
            .any(|p| p.strip_prefix("q=").is_some_and(|q| q.trim().parse::<f32>().map(|q| q <= 0.0).unwrap_or(false)));
        name.eq_ignore_ascii_case(coding) && !refused
    })
}

/// A file name of the build output: plain segments, no way out of the directory.
fn safe_relative(name: &str) -> Option<PathBuf> {
    let ok = !name.is_empty()
        && name.split('/').all(|segment| {
            !segment.is_empty()
                && segment != "."
                && segment != ".."
                && segment.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_'))
        });
    ok.then(|| PathBuf::from(name))
}

async fn asset(req: HttpRequest, name: web::Path<String>, dir: web::Data<AssetDir>) -> HttpResponse {
    let Some(relative) = safe_relative(&name) else { return HttpResponse::NotFound().finish() };
    let path = dir.0.join(relative);
    let accept = req.headers().get(header::ACCEPT_ENCODING).and_then(|v| v.to_str().ok()).unwrap_or("");
    let mime = actix_files::file_extension_to_mime(path.extension().and_then(|e| e.to_str()).unwrap_or(""));

    let mut chosen = None;
    for (coding, extension, encoding) in VARIANTS {
        if !accepts(accept, coding) {
            continue;
        }
        let mut variant = path.clone().into_os_string();
        variant.push(".");
        variant.push(extension);
        if let Ok(file) = NamedFile::open_async(&variant).await {
            chosen = Some(file.set_content_encoding(encoding));
            break;
        }
    }
    let file = match chosen {
        Some(file) => file,
        None => match NamedFile::open_async(&path).await {
            Ok(file) => file,
            Err(_) => return HttpResponse::NotFound().finish(),
        },
    };
    // Named after the variant on disk, the file would otherwise be offered as a `.br` download.
    let inline = ContentDisposition { disposition: DispositionType::Inline, parameters: vec![] };
    let mut response = file.set_content_type(mime).set_content_disposition(inline).into_response(&req);
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(IMMUTABLE));
    headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accept_encoding_is_read_with_its_weights() {
        assert!(accepts("gzip, deflate, br", "br"));
        assert!(accepts("gzip, deflate, br, zstd", "gzip"));
        assert!(accepts("BR;q=0.5", "br"));
        assert!(!accepts("gzip, br;q=0", "br"));
        assert!(!accepts("gzip", "br"));
        assert!(!accepts("", "gzip"));
        assert!(!accepts("brotli", "br"));
    }

    #[test]
    fn only_plain_names_inside_the_directory_are_served() {
        assert_eq!(safe_relative("main.1a2b3c4d.js"), Some(PathBuf::from("main.1a2b3c4d.js")));
        assert_eq!(safe_relative("fonts/a-b_c.css"), Some(PathBuf::from("fonts/a-b_c.css")));
        for bad in ["", "../secret", "a/../../b", "/etc/passwd", "a//b", "a b.js", "%2e%2e/x", "a\\b"] {
            assert_eq!(safe_relative(bad), None, "{bad}");
        }
    }
}
