//! The single-page app's `index.html`, read once at start, and the
//! server-side meta tags of `/projects/{slug}/` so shared links preview with
//! the project's title, description and image (BRIEF decision 8).

use std::path::Path;

/// What a page's `<head>` says about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageMeta {
    /// The whole `<title>` text, e.g. "{project} | {site}".
    pub document_title: String,
    /// `og:title`.
    pub title: String,
    pub description: String,
    /// Absolute URL.
    pub image: Option<String>,
    /// Absolute URL of the page.
    pub url: String,
}

#[derive(Debug, Clone)]
pub struct SpaIndex {
    html: String,
}

impl SpaIndex {
    /// `index.html` of the built frontend, if there is one.
    pub fn load(dir: &Path) -> Option<Self> {
        std::fs::read_to_string(dir.join("index.html")).ok().map(|html| Self { html })
    }

    pub fn from_html(html: impl Into<String>) -> Self {
        Self { html: html.into() }
    }

    pub fn html(&self) -> &str {
        &self.html
    }

    /// The page with its title and description tags replaced and the OGP
    /// tags for an article inserted (values HTML-escaped).
    pub fn with_meta(&self, meta: &PageMeta) -> String {
        let replaced = ["description", "og:title", "og:description", "og:image", "og:url", "og:type", "twitter:card"];
        let mut html = remove_meta_tags(&self.html, &replaced);
        html = replace_title(&html, &escape(&meta.document_title));
        let mut tags = String::new();
        let mut push = |attr: &str, key: &str, value: &str| {
            tags.push_str(&format!(r#"<meta {attr}="{key}" content="{}">"#, escape(value)));
        };
        push("name", "description", &meta.description);
        push("property", "og:type", "article");
        push("property", "og:title", &meta.title);
        push("property", "og:description", &meta.description);
        push("property", "og:url", &meta.url);
        if let Some(image) = &meta.image {
            push("property", "og:image", image);
            push("name", "twitter:card", "summary_large_image");
        }
        match find_ci(&html, "</head>") {
            Some(at) => html.insert_str(at, &tags),
            None => html.insert_str(0, &tags),
        }
        html
    }
}

/// `&`, `<`, `>`, `"` and `'` as entities.
pub fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            other => out.push(other),
        }
    }
    out
}

fn find_ci(haystack: &str, needle: &str) -> Option<usize> {
    haystack.to_ascii_lowercase().find(&needle.to_ascii_lowercase())
}

fn replace_title(html: &str, title: &str) -> String {
    let lower = html.to_ascii_lowercase();
    match (lower.find("<title>"), lower.find("</title>")) {
        (Some(start), Some(end)) if start < end => {
            format!("{}<title>{title}</title>{}", &html[..start], &html[end + "</title>".len()..])
        }
        _ => match lower.find("</head>") {
            Some(at) => format!("{}<title>{title}</title>{}", &html[..at], &html[at..]),
            None => format!("<title>{title}</title>{html}"),
        },
    }
}

/// The value of `name=` or `property=` in a `<meta ...>` tag, quoted or not
/// (the built index.html is minified and drops quotes).
fn meta_key(tag: &str) -> Option<String> {
    let lower = tag.to_ascii_lowercase();
    for attr in ["property=", "name="] {
        let mut from = 0;
        while let Some(pos) = lower[from..].find(attr) {
            let at = from + pos;
            let preceded_by_space = lower[..at].ends_with(|c: char| c.is_ascii_whitespace());
            from = at + attr.len();
            if !preceded_by_space {
                continue;
            }
            let rest = &lower[from..];
            let value = match rest.chars().next() {
                Some(q @ ('"' | '\'')) => rest[1..].split(q).next().unwrap_or(""),
                _ => rest.split(|c: char| c.is_ascii_whitespace() || c == '>').next().unwrap_or(""),
            };
            return Some(value.trim_end_matches('/').to_string());
        }
    }
    None
}

fn remove_meta_tags(html: &str, keys: &[&str]) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(start) = find_ci(rest, "<meta") {
        let Some(len) = rest[start..].find('>') else { break };
        let tag = &rest[start..start + len + 1];
        out.push_str(&rest[..start]);
        if !meta_key(tag).is_some_and(|k| keys.contains(&k.as_str())) {
            out.push_str(tag);
        }
        rest = &rest[start + len + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta() -> PageMeta {
        PageMeta {
            document_title: "前橋の \"夢\" | サイト".into(),
            title: "前橋の \"夢\"".into(),
            description: "<b>説明</b> & more".into(),
            image: Some("https://cf.example/media/a.svg".into()),
            url: "https://cf.example/projects/maebashi/".into(),
        }
    }

    #[test]
    fn minified_tags_are_replaced_and_ogp_tags_inserted_escaped() {
        let index = SpaIndex::from_html(
            "<!doctype html><html><head><meta charset=utf-8><title>サイト</title><meta name=description content=既定><meta property=og:site_name content=サイト></head><body></body></html>",
        );

        let html = index.with_meta(&meta());

        assert!(html.contains("<title>前橋の &quot;夢&quot; | サイト</title>"), "{html}");
        assert!(!html.contains("既定"));
        assert!(html.contains("<meta property=og:site_name content=サイト>"));
        assert!(html.contains(r#"<meta property="og:title" content="前橋の &quot;夢&quot;">"#));
        assert!(html.contains(r#"<meta name="description" content="&lt;b&gt;説明&lt;/b&gt; &amp; more">"#));
        assert!(html.contains(r#"<meta property="og:image" content="https://cf.example/media/a.svg">"#));
        assert!(html.contains(r#"<meta property="og:type" content="article">"#));
        assert!(html.find("og:url").unwrap() < html.find("</head>").unwrap());
    }

    #[test]
    fn quoted_tags_are_replaced_too_and_nothing_is_duplicated() {
        let index = SpaIndex::from_html(
            r#"<html><head><title>x</title><meta name="description" content="old"><meta property='og:title' content='old'></head></html>"#,
        );

        let html = index.with_meta(&meta());

        assert!(!html.contains("old"));
        assert_eq!(html.matches("og:title").count(), 1);
        assert_eq!(html.matches("<title>").count(), 1);
    }
}
