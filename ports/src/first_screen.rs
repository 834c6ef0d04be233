//! Server rendering of the app's first screen: the HTML a page arrives with,
//! so a phone paints it before any script has run (docs/architecture.md,
//! "First paint").

/// What the renderer draws: a public page as a logged-out visitor sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FirstScreen<'a> {
    /// The page's path, e.g. `/projects/maebashi-rose-garden/`.
    pub path: &'a str,
    /// The API answers the page carries (`{"<path?query>": <body>}`, JSON):
    /// the same data the app hydrates with, so both render the same tree.
    pub responses: &'a str,
    /// The page's site configuration block (JSON, `{"operator": {...}}`).
    pub site: &'a str,
}

/// Renders the markup of the app's root element.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait FirstScreenRenderer: Send + Sync {
    /// The HTML inside the app's root element, or `None` when the renderer is
    /// unavailable, fails or is too slow: the page is then sent without it and
    /// the browser renders it, as it always can. MUST NOT panic or block for
    /// longer than its configured time limit.
    async fn render<'a>(&self, screen: FirstScreen<'a>) -> Option<String>;
}
