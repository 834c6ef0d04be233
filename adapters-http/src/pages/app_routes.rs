//! The frontend's routes, so the server can answer a path no screen handles
//! with `404` (the same `index.html`: the app then shows its not-found
//! screen) instead of `200`. Mirrors `frontend/src/config/paths.ts`; a test
//! reads that file and fails when the two drift apart.
//!
//! A path that matches a route pattern is `200` whatever its parameters
//! hold, except `/projects/{slug}/` whose slug the server checks (see
//! `pages::project_page`). Admin and payment screens need the visitor's
//! session (kept in the browser) to decide what to show, so `/admin/mail/{id}/`
//! or `/payment/info/{project}/{return}/` get the app with `200` and the app
//! decides (log-in, forbidden, or its own not-found view).

/// Route patterns as React Router reads them: `:name` is one non-empty
/// segment; a trailing slash is optional; letter case is ignored.
pub const PATTERNS: &[&str] = &[
    "/",
    "/projects/",
    "/projects/:slug/",
    "/policy/",
    "/terms/",
    "/commercial/",
    "/login/",
    "/signup/",
    "/signup/password/",
    "/forgot-password/",
    "/reset-password/",
    "/account/",
    "/edit/profile",
    "/edit/email",
    "/edit/email/updated",
    "/edit/password",
    "/edit/corporate",
    "/edit/addresses",
    "/edit/payment",
    "/edit/payment-list",
    "/account/receipts/:saleId",
    "/receipt/:token",
    "/account/monthly/:id/authenticate",
    "/payment/info/:project/:return/",
    "/payment/method/:project/:return/",
    "/payment/card/:project/:return/",
    "/payment/bank/:project/:return/",
    "/payment/confirm/:project/:return/",
    "/payment/complete/:project/:return/",
    "/admin/",
    "/admin/resendRegisterMail/",
    "/admin/mail/",
    "/admin/mail/register/",
    "/admin/mail/:id/",
    "/admin/refund/",
    "/admin/refund/:slug",
    "/admin/projects/",
    "/admin/projects/new",
    "/admin/projects/:id/",
    "/admin/projects/:id/preview",
    "/admin/projects/:id/deliveries",
    "/admin/payouts/",
    "/admin/payouts/:id/",
    "/mail/optout/",
];

fn segments(path: &str) -> impl Iterator<Item = &str> {
    path.split('/').filter(|s| !s.is_empty())
}

fn matches(pattern: &str, path: &str) -> bool {
    let mut want = segments(pattern);
    let mut have = segments(path);
    loop {
        match (want.next(), have.next()) {
            (None, None) => return true,
            (Some(w), Some(h)) if w.starts_with(':') || w.eq_ignore_ascii_case(h) => {}
            _ => return false,
        }
    }
}

/// Whether some screen of the app handles `path` (no query string).
pub fn is_app_route(path: &str) -> bool {
    PATTERNS.iter().any(|p| matches(p, path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_screen_of_the_app_is_a_route_with_or_without_its_trailing_slash() {
        for path in [
            "/",
            "/projects/",
            "/projects",
            "/login/",
            "/login",
            "/edit/profile",
            "/edit/profile/",
            "/signup/password/",
            "/payment/info/maebashi/rose/",
            "/admin/mail/12/",
            "/admin/refund/maebashi",
            "/admin/payouts/12",
            "/Policy/",
        ] {
            assert!(is_app_route(path), "{path}");
        }
    }

    #[test]
    fn paths_no_screen_handles_are_not_routes() {
        for path in [
            "/no-such-page/",
            "/projects/a/b/",
            "/edit/",
            "/edit/nothing",
            "/payment/info/maebashi/",
            "/payment/refund/a/b/",
            "/admin/nothing/",
            "/favicon.ico",
            "/login/extra",
        ] {
            assert!(!is_app_route(path), "{path}");
        }
    }

    /// The patterns of `paths.ts`: its `path: '...'` literals and one
    /// `/payment/{step}/:project/:return/` per `paymentStep('step')`.
    fn frontend_patterns() -> Vec<String> {
        let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../frontend/src/config/paths.ts");
        let source = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let quoted_after = |marker: &str| -> Vec<String> {
            source
                .match_indices(marker)
                .filter_map(|(at, _)| source[at + marker.len()..].split('\'').next().map(str::to_string))
                .collect()
        };
        let mut patterns = quoted_after("path: '");
        let template = "path: `/payment/${step}/:project/:return/`";
        assert!(source.contains(template), "paths.ts changed how payment steps are written");
        for step in quoted_after("paymentStep('") {
            patterns.push(format!("/payment/{step}/:project/:return/"));
        }
        patterns
    }

    #[test]
    fn the_patterns_are_exactly_the_frontends_routes() {
        let mut frontend = frontend_patterns();
        // `confirm` is written out in full in paths.ts (it takes a query); the others come from paymentStep.
        frontend.sort();
        frontend.dedup();
        let mut ours: Vec<String> = PATTERNS.iter().map(|p| p.to_string()).collect();
        ours.sort();
        assert_eq!(ours, frontend, "update app_routes::PATTERNS to match frontend/src/config/paths.ts");
    }
}
