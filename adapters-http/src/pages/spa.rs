//! The single-page app's `index.html` (read once at start by app-server) and
//! what the server adds to it per page: the meta tags of `/projects/{slug}/` so shared
//! links preview with the project's title, description and image (BRIEF
//! decision 8), a preload hint for the first screen's largest image, and the
//! API responses the first screen needs (docs/architecture.md, "First paint").

use crate::page_data::PageData;

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
    /// Absolute URL of the page: also its canonical address (`<link rel="canonical">`).
    pub url: String,
    /// schema.org data of what the page is about (`<script type="application/ld+json">`), see `pages::seo`.
    pub structured_data: Option<serde_json::Value>,
}

/// What the server adds to `index.html` for one page.
#[derive(Debug, Clone, Default)]
pub struct Page {
    pub meta: Option<PageMeta>,
    /// Fetched at high priority before the app asks for it.
    pub preload_image: Option<String>,
    /// `{"<api path and query>": <response body>}`, read by the app's API client.
    /// Serialized once: the same text goes into the page and to the renderer.
    pub responses: Option<String>,
    /// The server-rendered markup of the app's root element, which the app
    /// hydrates (rendered from `responses`).
    pub first_screen: Option<String>,
}

impl Page {
    /// A page with the first-screen data of `adapters_http::page_data`.
    pub fn with_data(meta: Option<PageMeta>, data: PageData) -> Self {
        Self {
            meta,
            preload_image: data.lcp_image,
            responses: Some(serde_json::Value::Object(data.responses).to_string()),
            first_screen: None,
        }
    }
}

/// The id of the `<script type="application/json">` that carries `Page::responses`.
pub const RESPONSES_ELEMENT_ID: &str = "prefetched-responses";

/// The id of the `<script type="application/json">` with the operator's
/// details (`{"operator": {...}}`), on every page (frontend `config/site.ts`).
pub const SITE_CONFIG_ELEMENT_ID: &str = "site-config";

#[derive(Debug, Clone)]
pub struct SpaIndex {
    html: String,
    /// The site configuration block's JSON (`{}` until `with_site_config`).
    site_config: String,
}

impl SpaIndex {
    pub fn from_html(html: impl Into<String>) -> Self {
        Self { html: html.into(), site_config: "{}".into() }
    }

    /// The JSON of the site configuration every page carries.
    pub fn site_config(&self) -> &str {
        &self.site_config
    }

    pub fn html(&self) -> &str {
        &self.html
    }

    /// Every page carries the operator's details and the site's public
    /// address as a data block (never executed, so the CSP needs no nonce),
    /// read synchronously by the app: the footer and the legal pages paint
    /// with them at once, and share links point to the public address.
    #[must_use]
    pub fn with_site_config(mut self, operator: &ports::accounts::Operator, public_url: &str) -> Self {
        let config = serde_json::json!({ "operator": operator, "publicUrl": public_url });
        self.site_config = config.to_string();
        let tag = format!(
            r#"<script id="{SITE_CONFIG_ELEMENT_ID}" type="application/json">{}</script>"#,
            script_safe(&self.site_config)
        );
        insert_before(&mut self.html, "</head>", &tag);
        self
    }

    /// `index.html` with what `page` adds (see [`Page`]).
    pub fn render(&self, page: &Page) -> String {
        let mut html = match &page.meta {
            Some(meta) => with_meta(&self.html, meta),
            None => self.html.clone(),
        };
        if let Some(href) = &page.preload_image {
            let tag = format!(r#"<link rel="preload" as="image" href="{}" fetchpriority="high">"#, escape(href));
            insert_before(&mut html, "</head>", &tag);
        }
        if let Some(markup) = &page.first_screen {
            insert_into_root(&mut html, markup);
        }
        if let Some(responses) = &page.responses {
            let tag = format!(
                r#"<script id="{RESPONSES_ELEMENT_ID}" type="application/json">{}</script>"#,
                script_safe(responses)
            );
            insert_before(&mut html, "</body>", &tag);
        }
        html
    }
}

/// `html` with its title and description tags replaced and the OGP tags for
/// an article inserted (values HTML-escaped).
fn with_meta(html: &str, meta: &PageMeta) -> String {
    let replaced = ["description", "og:title", "og:description", "og:image", "og:url", "og:type", "twitter:card"];
    let mut html = remove_meta_tags(html, &replaced);
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
    tags.push_str(&format!(r#"<link rel="canonical" href="{}">"#, escape(&meta.url)));
    if let Some(data) = &meta.structured_data {
        // Never executed; `script_safe` keeps a title holding `</script>` inside the element.
        tags.push_str(&format!(r#"<script type="application/ld+json">{}</script>"#, script_safe(&data.to_string())));
    }
    insert_before(&mut html, "</head>", &tags);
    html
}

/// Inserts `fragment` before the closing tag `end` (or at the start when
/// there is none: the browser still reads it).
fn insert_before(html: &mut String, end: &str, fragment: &str) {
    match find_ci(html, end) {
        Some(at) => html.insert_str(at, fragment),
        None => html.insert_str(0, fragment),
    }
}

/// Puts `markup` inside the app's root element (`<div id="root">`, quoted
/// or not); an index without one is left as it is.
fn insert_into_root(html: &mut String, markup: &str) {
    let lower = html.to_ascii_lowercase();
    let open = ["<div id=root>", "<div id=\"root\">", "<div id='root'>"]
        .iter()
        .find_map(|tag| lower.find(tag).map(|at| at + tag.len()));
    if let Some(at) = open {
        html.insert_str(at, markup);
    }
}

/// JSON text that cannot end its `<script>` element or open a comment: `<`,
/// `>` and `&` as `\u` escapes, which JSON.parse reads back unchanged (they
/// can only occur inside strings).
fn script_safe(json: &str) -> String {
    json.replace('<', "\\u003c").replace('>', "\\u003e").replace('&', "\\u0026")
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
            structured_data: None,
        }
    }

    #[test]
    fn the_canonical_address_and_the_structured_data_go_in_the_head_and_cannot_break_out() {
        let index = SpaIndex::from_html("<html><head><title>x</title></head><body></body></html>");
        let data = serde_json::json!({ "@type": "Product", "name": "前橋</script><script>alert(1)</script> & \"夢\"" });

        let html = index.render(&Page {
            meta: Some(PageMeta { structured_data: Some(data.clone()), ..meta() }),
            ..Page::default()
        });

        let head_end = html.find("</head>").unwrap();
        let canonical = html.find(r#"<link rel="canonical" href="https://cf.example/projects/maebashi/">"#);
        assert!(canonical.is_some_and(|at| at < head_end), "{html}");
        let open = r#"<script type="application/ld+json">"#;
        let start = html.find(open).unwrap() + open.len();
        let end = start + html[start..].find("</script>").unwrap();
        assert!(end < head_end);
        let parsed: serde_json::Value = serde_json::from_str(&html[start..end]).unwrap();
        assert_eq!(parsed, data, "the escapes read back as the same JSON");
        assert_eq!(html.matches("</script>").count(), 1, "the title cannot close the element");
        assert!(!html.contains("<script>alert"));
    }

    #[test]
    fn minified_tags_are_replaced_and_ogp_tags_inserted_escaped() {
        let index = SpaIndex::from_html(
            "<!doctype html><html><head><meta charset=utf-8><title>サイト</title><meta name=description content=既定><meta property=og:site_name content=サイト></head><body></body></html>",
        );

        let html = index.render(&Page { meta: Some(meta()), ..Page::default() });

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

        let html = index.render(&Page { meta: Some(meta()), ..Page::default() });

        assert!(!html.contains("old"));
        assert_eq!(html.matches("og:title").count(), 1);
        assert_eq!(html.matches("<title>").count(), 1);
    }

    #[test]
    fn every_page_carries_the_operators_details_as_an_inert_data_block() {
        let operator = ports::accounts::Operator { name: "上州新報</script>".into(), ..Default::default() };
        let index = SpaIndex::from_html("<html><head><title>x</title></head><body></body></html>")
            .with_site_config(&operator, "https://cf.example");

        for html in [index.html().to_string(), index.render(&Page::default())] {
            let open = format!(r#"<script id="{SITE_CONFIG_ELEMENT_ID}" type="application/json">"#);
            let start = html.find(&open).unwrap() + open.len();
            let end = start + html[start..].find("</script>").unwrap();
            assert!(end < html.find("</head>").unwrap(), "{html}");
            let parsed: serde_json::Value = serde_json::from_str(&html[start..end]).unwrap();
            assert_eq!(parsed["operator"]["name"], "上州新報</script>");
            assert_eq!(parsed["operator"]["email"], "support@example.jp");
            assert_eq!(parsed["publicUrl"], "https://cf.example");
        }
    }

    #[test]
    fn the_preload_hint_goes_in_the_head_and_the_responses_at_the_end_of_the_body() {
        let index = SpaIndex::from_html("<html><head><title>x</title></head><body><div id=root></div></body></html>");
        let responses = serde_json::json!({ "/helper/get/master": { "title": "</script><!-- & \"前橋\"" } });

        let html = index.render(&Page {
            preload_image: Some("/media/a b\".svg".into()),
            responses: Some(responses.to_string()),
            ..Page::default()
        });

        let preload = html.find(r#"<link rel="preload" as="image" href="/media/a b&quot;.svg" fetchpriority="high">"#);
        assert!(preload.is_some_and(|at| at < html.find("</head>").unwrap()), "{html}");
        let open = format!(r#"<script id="{RESPONSES_ELEMENT_ID}" type="application/json">"#);
        let start = html.find(&open).unwrap() + open.len();
        let end = start + html[start..].find("</script>").unwrap();
        assert!(end < html.find("</body>").unwrap());
        let embedded: serde_json::Value = serde_json::from_str(&html[start..end]).unwrap();
        assert_eq!(embedded, responses, "the escapes read back as the same JSON");
        assert_eq!(html.matches("</script>").count(), 1, "the payload cannot close the element");
    }

    #[test]
    fn the_first_screen_goes_inside_the_root_element_quoted_or_not() {
        for root in [r#"<div id="root"></div>"#, "<div id=root></div>"] {
            let index =
                SpaIndex::from_html(format!("<html><head></head><body>{root}<script src=a.js></script></body></html>"));

            let html = index.render(&Page { first_screen: Some("<main>前橋</main>".into()), ..Page::default() });

            let root_at = html.find("root").unwrap();
            let main_at = html.find("<main>前橋</main>").unwrap();
            assert!(root_at < main_at && main_at < html.find("</div>").unwrap(), "{html}");
        }
    }

    #[test]
    fn the_site_configuration_is_kept_as_json_for_the_renderer() {
        let operator = ports::accounts::Operator { name: "上州新報".into(), ..Default::default() };
        let index = SpaIndex::from_html("<html><head></head><body></body></html>")
            .with_site_config(&operator, "https://cf.example");

        let parsed: serde_json::Value = serde_json::from_str(index.site_config()).unwrap();

        assert_eq!(parsed["operator"]["name"], "上州新報");
    }

    #[test]
    fn a_plain_page_is_the_index_unchanged() {
        let index = SpaIndex::from_html("<html><head></head><body></body></html>");
        assert_eq!(index.render(&Page::default()), index.html());
    }
}
