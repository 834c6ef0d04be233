//! The HTML policy for what project owners write (project bodies, return
//! and news descriptions): basic formatting, headings, lists, links (always
//! `rel="noopener noreferrer"`) and images from http(s) or relative URLs.
//! Everything else (scripts, styles, event handlers, iframes, forms,
//! `javascript:` / `data:` URLs) is removed.

use std::collections::{HashMap, HashSet};
use std::sync::{Mutex, PoisonError};

use ammonia::{Builder, UrlRelative};
use ports::html::HtmlSanitizer;

/// Distinct inputs remembered before the memo starts over: every project
/// body and return and news description of a site fits many times.
const MEMO_ENTRIES: usize = 1024;

pub struct AmmoniaSanitizer {
    builder: Builder<'static>,
    /// The same few bodies are sanitised on every page view (the use case
    /// sanitises on output); parsing them once per process keeps that free.
    memo: Mutex<HashMap<String, String>>,
}

impl Default for AmmoniaSanitizer {
    fn default() -> Self {
        let mut builder = Builder::empty();
        builder
            .tags(HashSet::from([
                "p",
                "br",
                "hr",
                "div",
                "span",
                "strong",
                "b",
                "em",
                "i",
                "u",
                "s",
                "small",
                "sub",
                "sup",
                "mark",
                "blockquote",
                "h1",
                "h2",
                "h3",
                "h4",
                "h5",
                "h6",
                "ul",
                "ol",
                "li",
                "dl",
                "dt",
                "dd",
                "a",
                "img",
                "figure",
                "figcaption",
                "table",
                "thead",
                "tbody",
                "tr",
                "th",
                "td",
                "caption",
            ]))
            .add_tag_attributes("a", ["href", "title"])
            .add_tag_attributes("img", ["src", "alt", "title", "width", "height"])
            .add_tag_attributes("td", ["colspan", "rowspan"])
            .add_tag_attributes("th", ["colspan", "rowspan"])
            .link_rel(Some("noopener noreferrer"))
            .url_schemes(HashSet::from(["http", "https"]))
            .url_relative(UrlRelative::PassThrough);
        Self { builder, memo: Mutex::new(HashMap::new()) }
    }
}

impl HtmlSanitizer for AmmoniaSanitizer {
    fn sanitize(&self, html: &str) -> String {
        if let Some(clean) = self.memo.lock().unwrap_or_else(PoisonError::into_inner).get(html) {
            return clean.clone();
        }
        let clean = self.builder.clean(html).to_string();
        let mut memo = self.memo.lock().unwrap_or_else(PoisonError::into_inner);
        if memo.len() >= MEMO_ENTRIES {
            memo.clear();
        }
        memo.insert(html.to_string(), clean.clone());
        clean
    }
}

/// Sanitises with the site's policy (for writers outside the use cases, e.g. the demo seed).
pub fn sanitize(html: &str) -> String {
    AmmoniaSanitizer::default().sanitize(html)
}

#[cfg(test)]
mod tests {
    use super::sanitize;

    #[test]
    fn scripts_handlers_and_styles_are_removed() {
        let dirty = r#"<p onclick="steal()">こんにちは<script>alert(1)</script><style>p{}</style></p><iframe src="https://x"></iframe>"#;
        assert_eq!(sanitize(dirty), "<p>こんにちは</p>");
    }

    #[test]
    fn formatting_headings_and_lists_are_kept() {
        let html = "<h2>見出し</h2><p><strong>太字</strong>と<em>斜体</em></p><ul><li>一</li></ul><ol><li>二</li></ol>";
        assert_eq!(sanitize(html), html);
    }

    #[test]
    fn links_get_noopener_and_javascript_urls_are_dropped() {
        assert_eq!(
            sanitize(r#"<a href="https://example.jp" target="_blank">公式</a>"#),
            r#"<a href="https://example.jp" rel="noopener noreferrer">公式</a>"#
        );
        assert_eq!(sanitize(r#"<a href="javascript:alert(1)">x</a>"#), r#"<a rel="noopener noreferrer">x</a>"#);
    }

    #[test]
    fn images_keep_http_https_and_relative_sources_only() {
        assert_eq!(sanitize(r#"<img src="/media/a.svg" alt="a">"#), r#"<img src="/media/a.svg" alt="a">"#);
        assert_eq!(sanitize(r#"<img src="https://cdn.example/a.png">"#), r#"<img src="https://cdn.example/a.png">"#);
        assert_eq!(sanitize(r#"<img src="data:image/png;base64,AAAA" onerror="x()">"#), "<img>");
    }

    #[test]
    fn a_remembered_body_is_cleaned_the_same_way_again() {
        use super::{AmmoniaSanitizer, HtmlSanitizer};
        let sanitizer = AmmoniaSanitizer::default();
        for _ in 0..2 {
            assert_eq!(sanitizer.sanitize("<p>本文<script>x()</script></p>"), "<p>本文</p>");
        }
        assert_eq!(sanitizer.sanitize("<b>別</b>"), "<b>別</b>");
    }

    #[test]
    fn sanitising_twice_changes_nothing() {
        let once = sanitize(r#"<p>本文<a href="/projects/x/">リンク</a><img src="x.png" onerror="y"></p>"#);
        assert_eq!(sanitize(&once), once);
    }
}
