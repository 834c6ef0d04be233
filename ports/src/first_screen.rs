//! Server rendering of the app's first screen: the HTML a page arrives with,
//! so a phone paints it before any script has run (docs/architecture.md,
//! "First paint").

use std::sync::Arc;

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

/// A rendered first screen and the answers it was rendered from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderedScreen {
    /// The HTML inside the app's root element.
    pub html: Arc<str>,
    /// The `responses` this HTML was rendered from: the page must carry these,
    /// not its own, when they differ, so the app hydrates the same tree.
    pub responses: Arc<str>,
}

/// Renders the markup of the app's root element.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait FirstScreenRenderer: Send + Sync {
    /// The first screen of `screen.path`, rendered from `screen.responses` or
    /// from answers for the same path that were current less than
    /// `SUPPORT_SHOWS_WITHIN` ago (what the public catalog itself may serve),
    /// which `RenderedScreen::responses` then holds. `None` when the renderer
    /// is unavailable, fails or is too slow: the page is then sent with its own
    /// responses and no HTML, and the browser renders it, as it always can.
    /// MUST NOT panic, and MUST NOT make a page wait longer than its configured
    /// time limit, nor at all when it has a usable rendering.
    async fn render<'a>(&self, screen: FirstScreen<'a>) -> Option<RenderedScreen>;
}
