//! The Content-Security-Policy of the HTML pages.
//!
//! Scripts come only from this origin and the payment provider's (Stripe.js
//! for the card form: `https://js.stripe.com`, or locally the fake Stripe.js
//! localstripe serves at `STRIPE_API_BASE/js.stripe.com/v3/`). No inline
//! script runs: the page data the server embeds is a
//! `<script type="application/json">` data block, which browsers never
//! execute, so it needs no nonce. Styles are the built CSS files (React's
//! `style` props go through the CSSOM, which CSP does not restrict). Images
//! may come from any https origin because project descriptions embed them
//! (the sanitiser allows http/https `<img>`), plus `data:` (small images the
//! bundler inlines) and `blob:` (upload previews).

use crate::media::MediaBackend;

/// Stripe's documented origins for Stripe.js, its frames and its API.
const STRIPE_SCRIPT: &str = "https://js.stripe.com https://*.js.stripe.com";
const STRIPE_FRAME: &str = "https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com";
const STRIPE_CONNECT: &str = "https://api.stripe.com";

/// `scheme://host[:port]` of an absolute URL, if it is one.
fn origin(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let host = rest.split(['/', '?', '#']).next().filter(|h| !h.is_empty())?;
    Some(format!("{scheme}://{host}"))
}

/// The policy for a site whose payment API is at `stripe_api_base` (None:
/// Stripe itself) and whose uploads are served from `media`.
pub fn policy(stripe_api_base: Option<&str>, media: &MediaBackend) -> String {
    let local_stripe = stripe_api_base.and_then(origin).filter(|o| o != "https://api.stripe.com");
    let extra = |base: &str| match &local_stripe {
        Some(o) => format!("{base} {o}"),
        None => base.to_string(),
    };
    let media_origin = match media {
        MediaBackend::S3 { public_base_url, .. } => origin(public_base_url),
        MediaBackend::Local => None,
    };
    let mut connect = format!("'self' {STRIPE_CONNECT}");
    if let Some(o) = &local_stripe {
        connect.push_str(&format!(" {o}"));
    }
    let directives = [
        "default-src 'self'".to_string(),
        format!("script-src 'self' {}", extra(STRIPE_SCRIPT)),
        "style-src 'self'".to_string(),
        // https: covers the S3 media origin as well; named for clarity.
        match media_origin {
            Some(o) => format!("img-src 'self' data: blob: https: {o}"),
            None => "img-src 'self' data: blob: https:".to_string(),
        },
        "font-src 'self' data:".to_string(),
        format!("connect-src {connect}"),
        format!("frame-src {}", extra(STRIPE_FRAME)),
        "object-src 'none'".to_string(),
        "base-uri 'none'".to_string(),
        "form-action 'self'".to_string(),
        "frame-ancestors 'none'".to_string(),
    ];
    directives.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn directive<'a>(policy: &'a str, name: &str) -> &'a str {
        policy.split("; ").find(|d| d.split(' ').next() == Some(name)).unwrap_or_else(|| panic!("{name} in {policy}"))
    }

    #[test]
    fn production_allows_stripe_and_forbids_plugins_base_and_framing() {
        let p = policy(None, &MediaBackend::Local);
        assert_eq!(directive(&p, "script-src"), "script-src 'self' https://js.stripe.com https://*.js.stripe.com");
        assert!(directive(&p, "frame-src").contains("https://js.stripe.com"));
        assert_eq!(directive(&p, "object-src"), "object-src 'none'");
        assert_eq!(directive(&p, "base-uri"), "base-uri 'none'");
        assert_eq!(directive(&p, "frame-ancestors"), "frame-ancestors 'none'");
        assert!(!p.contains("unsafe-inline") && !p.contains("unsafe-eval"), "{p}");
    }

    #[test]
    fn a_local_payment_server_is_allowed_for_scripts_frames_and_calls() {
        let p = policy(Some("http://127.0.0.1:8420/"), &MediaBackend::Local);
        for name in ["script-src", "frame-src", "connect-src"] {
            assert!(directive(&p, name).ends_with(" http://127.0.0.1:8420"), "{name}: {p}");
        }
        assert_eq!(policy(Some("https://api.stripe.com/"), &MediaBackend::Local), policy(None, &MediaBackend::Local));
    }

    #[test]
    fn an_s3_media_origin_is_named_for_images() {
        let media = MediaBackend::S3 {
            bucket: "b".into(),
            region: "r".into(),
            endpoint: None,
            public_base_url: "https://media.example.jp/uploads".into(),
        };
        assert!(directive(&policy(None, &media), "img-src").ends_with(" https://media.example.jp"));
    }
}
