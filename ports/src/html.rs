/// Cleans HTML written by project owners (project bodies, return and news
/// descriptions) down to harmless formatting. Applied before storage and
/// again on output, so a row written by another path cannot reach a page
/// with scripts in it.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
pub trait HtmlSanitizer: Send + Sync {
    /// MUST drop scripts, event handlers, styles, iframes and `javascript:`
    /// URLs, and MUST be idempotent (`sanitize(sanitize(x)) == sanitize(x)`).
    fn sanitize(&self, html: &str) -> String;
}
