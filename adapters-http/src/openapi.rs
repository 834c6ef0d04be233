//! The OpenAPI description of `/v1`, generated from the code: every route is
//! mounted through `utoipa_actix_web`'s `service`, which only takes a handler
//! carrying `#[utoipa::path]`, so mounting a route also describes it. DTOs
//! derive `ToSchema`. The same document is served at `/v1/openapi.json` and
//! committed at `frontend/src/lib/api/openapi.json` (the frontend's types
//! are generated from that copy; a test below keeps it current).

use std::sync::OnceLock;

use actix_web::{get, App, HttpResponse};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::OpenApi as Document;
use utoipa::{Modify, OpenApi};
use utoipa_actix_web::service_config::ServiceConfig;
use utoipa_actix_web::AppExt;

/// What the handlers cannot say themselves: title, the bearer scheme, tags.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Regional crowdfunding API",
        version = "0.1.0",
        description = "The /v1 API of the crowdfunding site. Amounts are integer yen. Errors are JSON \
            `{\"error\": \"snake_code\", \"message\": \"...\"}` (ErrorBody), with the extra fields named per \
            response. Operations that need a session list the `bearer` security requirement. Answers to a request \
            with an Authorization header, and to any write, carry `Cache-Control: no-store`. A described path \
            asked with another method answers 405 with `Allow`; an unknown path 404.",
        license(name = "UNLICENSED")
    ),
    modifiers(&BearerScheme),
    tags(
        (name = "accounts", description = "Sign-up, log-in, passwords and e-mail"),
        (name = "my page", description = "The logged-in user's own data"),
        (name = "public", description = "Projects, totals, sponsors, news and comments"),
        (name = "payment", description = "Backing a project: figures, the one support call, its status, the provider's webhook"),
        (name = "cards", description = "A member's saved cards"),
        (name = "subscriptions", description = "A member's monthly supports"),
        (name = "admin", description = "Administrators only; anyone else gets 404 as for an unknown path"),
        (name = "meta", description = "This description")
    )
)]
struct ApiDoc;

struct BearerScheme;

impl Modify for BearerScheme {
    fn modify(&self, openapi: &mut Document) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).bearer_format("JWT").build()),
        );
    }
}

/// Every `/v1` handler, by area. The one list of routes.
pub(crate) fn routes(cfg: &mut ServiceConfig) {
    crate::user::config(cfg);
    crate::session::config(cfg);
    crate::password::config(cfg);
    crate::profile::config(cfg);
    crate::email_change::config(cfg);
    crate::project::config(cfg);
    crate::sales::config(cfg);
    crate::sponsors::config(cfg);
    crate::information::config(cfg);
    crate::comment::config(cfg);
    crate::payment::config(cfg);
    crate::cards::config(cfg);
    crate::subscription::config(cfg);
    crate::admin::config(cfg);
    crate::admin_projects::config(cfg);
    crate::admin_payouts::config(cfg);
    crate::refunds::config(cfg);
    crate::mass_mail::config(cfg);
    crate::sale_receipts::config(cfg);
    crate::favourites::config(cfg);
    crate::follow_mail::config(cfg);
    cfg.service(openapi_document);
}

/// The description of every route [`routes`] mounts.
pub fn document() -> &'static Document {
    static DOCUMENT: OnceLock<Document> = OnceLock::new();
    DOCUMENT.get_or_init(|| {
        let (_, document) = App::new()
            .into_utoipa_app()
            .openapi(ApiDoc::openapi())
            .service(utoipa_actix_web::scope("/v1").configure(routes))
            .split_for_parts();
        document
    })
}

/// The document as served and committed: pretty JSON with a final newline.
pub fn document_json() -> &'static str {
    static JSON: OnceLock<String> = OnceLock::new();
    JSON.get_or_init(|| match document().to_pretty_json() {
        Ok(json) => json + "\n",
        Err(e) => {
            tracing::error!(error = %e, "the OpenAPI document did not serialise");
            String::from("{}")
        }
    })
}

/// The methods a described path answers (`"GET, POST"`), or `None` when no
/// route has that path.
pub(crate) fn methods_of(path: &str) -> Option<String> {
    let methods: Vec<&str> =
        mounted_routes().into_iter().filter(|route| route.path == path).map(|route| route.method).collect();
    (!methods.is_empty()).then(|| methods.join(", "))
}

/// One mounted route: `GET` or `POST` and its full path (`/v1/...`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct MountedRoute {
    pub method: &'static str,
    pub path: String,
}

/// Every route [`routes`] mounts, sorted, from the document (a route can only
/// be mounted with its description; see the tests below).
pub(crate) fn mounted_routes() -> Vec<MountedRoute> {
    let mut mounted: Vec<MountedRoute> = document()
        .paths
        .paths
        .iter()
        .flat_map(|(path, item)| {
            [
                (item.get.is_some(), "GET"),
                (item.post.is_some(), "POST"),
                (item.put.is_some(), "PUT"),
                (item.patch.is_some(), "PATCH"),
                (item.delete.is_some(), "DELETE"),
            ]
            .into_iter()
            .filter(|(has, _)| *has)
            .map(move |(_, method)| MountedRoute { method, path: path.clone() })
        })
        .collect();
    mounted.sort();
    mounted
}

/// This description (OpenAPI 3.1), generated from the handlers.
#[utoipa::path(
    tag = "meta",
    responses((status = 200, description = "The OpenAPI document", content_type = "application/json", body = Object))
)]
#[get("/openapi.json")]
async fn openapi_document() -> HttpResponse {
    HttpResponse::Ok().content_type("application/json").body(document_json())
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use actix_web::test as web_test;

    use domain::account::Email;
    use domain::ids::UserId;
    use ports::accounts::SessionUser;
    use ports::admin::mass_mail::MassMailError;
    use ports::admin::projects::AuthoringError;
    use ports::catalog::CatalogError;
    use ports::receipts::ReceiptError;
    use ports::RepoError;

    use super::*;
    use crate::test_support::Mocks;

    fn committed_path() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../frontend/src/lib/api/openapi.json")
    }

    /// Docs that call a mounted API route or a routed page 準備中 or "not yet" there are out of date: a
    /// newcomer would believe them.
    #[test]
    fn no_doc_calls_a_mounted_route_unfinished() {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
        let paths_ts = std::fs::read_to_string(root.join("frontend/src/config/paths.ts")).unwrap();
        let pages = paths_ts.split("path: '").skip(1).filter_map(|rest| rest.split('\'').next());
        let mut mounted: Vec<String> = mounted_routes().into_iter().map(|r| r.path).collect();
        mounted.extend(pages.filter(|p| p.len() > 1).map(|p| p.trim_end_matches('/').to_string()));
        let mut docs = vec![root.join("README.md"), root.join("frontend/README.md")];
        docs.extend(std::fs::read_dir(root.join("docs")).unwrap().map(|entry| entry.unwrap().path()));
        for doc in docs.iter().filter(|d| d.extension().is_some_and(|e| e == "md")) {
            let text = std::fs::read_to_string(doc).unwrap();
            for line in text.lines().filter(|l| l.contains("準備中") || l.contains("not yet called")) {
                let named = mounted.iter().find(|path| line.contains(&format!("`{path}")));
                assert!(named.is_none(), "{} calls {named:?} unfinished: {line}", doc.display());
            }
        }
    }

    /// `UPDATE_OPENAPI=1 cargo test -p adapters-http openapi` rewrites the
    /// committed copy; then `npm --prefix frontend run generate:api`.
    #[test]
    fn the_committed_document_is_the_one_the_code_generates() {
        let generated = document_json();
        if std::env::var_os("UPDATE_OPENAPI").is_some() {
            std::fs::write(committed_path(), generated).unwrap();
        }
        let committed = std::fs::read_to_string(committed_path()).unwrap_or_default();
        assert!(
            committed == generated,
            "frontend/src/lib/api/openapi.json is stale: run `UPDATE_OPENAPI=1 cargo test -p adapters-http openapi` \
             and `npm --prefix frontend run generate:api`"
        );
    }

    #[actix_web::test]
    async fn the_served_document_is_the_generated_one() {
        let app =
            web_test::init_service(actix_web::App::new().configure(crate::configure(Mocks::default().into_services())))
                .await;
        let resp =
            web_test::call_service(&app, web_test::TestRequest::get().uri("/v1/openapi.json").to_request()).await;
        assert_eq!(resp.status(), 200);
        let body = web_test::read_body(resp).await;
        assert_eq!(std::str::from_utf8(&body).unwrap(), document_json());
    }

    /// Every described operation reaches a handler of the mounted app: none
    /// falls through to the 404/405 of unknown routes. (Requests carry no
    /// token and no valid body; the few that reach a use case get an error.)
    #[actix_web::test]
    async fn every_described_operation_is_mounted() {
        let mut mocks = Mocks::default();
        mocks.catalog.expect_master().returning(|| Err(CatalogError::Unexpected(anyhow::anyhow!("test"))));
        mocks.catalog.expect_paid_sum().returning(|_| Err(CatalogError::Unexpected(anyhow::anyhow!("test"))));
        mocks.catalog.expect_footer_sponsors().returning(|_| Err(CatalogError::Unexpected(anyhow::anyhow!("test"))));
        mocks.catalog.expect_taxonomy().returning(|| Err(CatalogError::Unexpected(anyhow::anyhow!("test"))));
        mocks.catalog.expect_list().returning(|_| Err(CatalogError::Unexpected(anyhow::anyhow!("test"))));
        // Admin operations answer anyone else like an unknown path, so they are called as an administrator.
        mocks.sessions.expect_authenticate().returning(|_| {
            Ok(SessionUser { id: UserId(1), email: Email::parse("admin@example.jp").unwrap(), is_admin: true })
        });
        mocks.audit.expect_recent().returning(|_| Err(RepoError::Unexpected(anyhow::anyhow!("test"))));
        mocks.dashboard.expect_dashboard().returning(|| Err(RepoError::Unexpected(anyhow::anyhow!("test"))));
        mocks.refunds.expect_projects().returning(|| {
            Err(ports::admin::refunds::RefundError::Repo(RepoError::Unexpected(anyhow::anyhow!("test"))))
        });
        mocks
            .projects
            .expect_list()
            .returning(|_| Err(AuthoringError::Repo(RepoError::Unexpected(anyhow::anyhow!("test")))));
        mocks.payouts.expect_list().returning(|| {
            Err(ports::campaign::payouts::PayoutError::Repo(RepoError::Unexpected(anyhow::anyhow!("test"))))
        });
        mocks.cards.expect_setup().returning(|_| Err(ports::payments::cards::CardError::Unavailable));
        mocks.cards.expect_set_up_card().returning(|_| Err(ports::payments::cards::CardError::NotFound));
        mocks.mass_mails.expect_preview().returning(|_| Ok(0));
        mocks.mass_mails.expect_register().returning(|_, _| Err(MassMailError::NoRecipients));
        mocks.mass_mails.expect_list().returning(|_| Err(RepoError::Unexpected(anyhow::anyhow!("test"))));
        mocks.mass_mails.expect_detail().returning(|_| Ok(None));
        mocks.mass_mails.expect_username().returning(|_| Ok(None));
        mocks.mass_mails.expect_opt_out().returning(|_| Ok(false));
        mocks
            .sale_receipts
            .expect_receipt()
            .returning(|_| Err(ReceiptError::Repo(RepoError::Unexpected(anyhow::anyhow!("test")))));
        let app =
            web_test::init_service(actix_web::App::new().configure(crate::configure(mocks.into_services()))).await;
        let mut count = 0;
        for (path, item) in &document().paths.paths {
            for (method, op) in [("GET", &item.get), ("POST", &item.post), ("PUT", &item.put)] {
                let Some(op) = op else { continue };
                count += 1;
                let mut req = web_test::TestRequest::default()
                    .method(method.parse().unwrap())
                    .uri(path)
                    .insert_header(("content-type", "text/plain"));
                if is_admin(op) {
                    req = req.insert_header(("authorization", "Bearer admin"));
                }
                let req = req.to_request();
                let resp = web_test::call_service(&app, req).await;
                let bytes = web_test::read_body(resp).await;
                let body: serde_json::Value = serde_json::from_slice(&bytes).unwrap_or_default();
                assert!(
                    !matches!(body["error"].as_str(), Some("not_found" | "method_not_allowed")),
                    "{method} {path} is described but not mounted"
                );
            }
        }
        assert_eq!(count, 109, "the number of operations changed: update this count and docs/api.md");
    }

    /// Routes are mounted only through `service(handler)`: a route added by
    /// path and method would serve something the description does not know.
    /// `pages/` is the HTML side (`/`, project pages, probes), outside `/v1`
    /// and the API document.
    #[test]
    fn no_route_is_mounted_without_a_description() {
        let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
        let pages = src.join("pages");
        let mut stack = vec![src];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path == pages {
                    continue;
                }
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let source = std::fs::read_to_string(&path).unwrap();
                    let needle = [".rou", "te("].concat();
                    assert!(!source.contains(&needle), "{} mounts a route by hand", path.display());
                }
            }
        }
    }

    #[test]
    fn every_operation_that_needs_a_session_says_so_and_answers_401_or_404_for_admin() {
        for (path, item) in &document().paths.paths {
            for op in [&item.get, &item.post, &item.put].into_iter().flatten() {
                let needs_token =
                    op.security.as_ref().is_some_and(|list| !list.is_empty() && list.iter().all(|s| !is_anonymous(s)));
                if is_admin(op) {
                    assert!(op.responses.responses.contains_key("404"), "{path} is for administrators but has no 404");
                } else if needs_token {
                    assert!(op.responses.responses.contains_key("401"), "{path} needs a token but has no 401");
                }
            }
        }
    }

    /// Operations of the `admin` tag: everyone but an administrator gets 404.
    fn is_admin(op: &utoipa::openapi::path::Operation) -> bool {
        op.tags.as_ref().is_some_and(|tags| tags.iter().any(|t| t == "admin"))
    }

    fn is_anonymous(requirement: &utoipa::openapi::security::SecurityRequirement) -> bool {
        serde_json::to_value(requirement).unwrap() == serde_json::json!({})
    }

    #[test]
    fn every_operation_describes_its_success_and_a_400_when_it_reads_input() {
        for (path, item) in &document().paths.paths {
            for op in [&item.get, &item.post, &item.put].into_iter().flatten() {
                assert!(op.responses.responses.contains_key("200"), "{path} has no 200");
                let reads_input = op.request_body.is_some() || op.parameters.as_ref().is_some_and(|p| !p.is_empty());
                if reads_input {
                    assert!(op.responses.responses.contains_key("400"), "{path} reads input but has no 400");
                }
            }
        }
    }

    /// The length limits the document announces are the domain's rules, so a
    /// client (or a fuzzer) that respects them is not refused for length.
    #[test]
    fn described_length_limits_are_the_domains() {
        use domain::text::rules;
        let schemas = &document().components.as_ref().unwrap().schemas;
        let max_length = |schema: &str, field: &str| {
            let value = serde_json::to_value(&schemas[schema]).unwrap();
            value["properties"][field]["maxLength"].as_u64()
        };
        for (schema, rule) in [
            ("ProfileRequest", rules::USERNAME),
            ("ProfileRequest", rules::PROFILE_DISPLAY_NAME),
            ("ProfileRequest", rules::PROFILE),
            ("ProfileRequest", rules::AGE_GROUP),
            ("CorporateRequest", rules::COMPANY_NAME),
            ("DisplayNameRequest", rules::SALE_DISPLAY_NAME),
            ("UpdateRequest", rules::COMMENT),
            ("AddressRequest", rules::ADDRESS_NAME),
            ("AddressRequest", rules::ADDRESS_CITY),
            ("AddressRequest", rules::ADDRESS_STREET),
            ("AddressRequest", rules::ADDRESS_BUILDING),
            ("IssueReceiptInput", domain::receipt::ADDRESSEE),
            ("ReceiptIssuerInput", domain::receipt::ISSUER_NAME),
            ("SliderEditInput", domain::project_content::SLIDER_ALT),
            ("AdminOwnerInput", domain::project_content::OWNER_NAME),
            ("AdminOwnerInput", domain::project_content::OWNER_PROFILE),
            ("AdminOwnerLinkDto", domain::project_content::LINK_LABEL),
            ("AdminFaqDto", domain::project_content::FAQ_QUESTION),
            ("AdminFaqDto", domain::project_content::FAQ_ANSWER),
            ("AdditionalQuestionDto", domain::project_settings::QUESTION_LABEL),
            ("AdditionalQuestionDto", domain::project_settings::QUESTION_TEXT),
            ("AdditionalQuestionDto", domain::project_settings::QUESTION_DESCRIPTION),
            ("AdditionalQuestionDto", domain::project_settings::QUESTION_ALERT),
            ("BankDetailsDto", domain::project_settings::BANK_NAME),
            ("BankDetailsDto", domain::project_settings::BANK_BRANCH),
            ("BankDetailsDto", domain::project_settings::BANK_KINDS),
            ("BankDetailsDto", domain::project_settings::BANK_NUMBER),
            ("BankDetailsDto", domain::project_settings::BANK_NOMINEE),
        ] {
            assert_eq!(max_length(schema, rule.field), Some(rule.max_chars as u64), "{schema}.{}", rule.field);
        }
    }

    #[test]
    fn operation_ids_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for item in document().paths.paths.values() {
            for op in [&item.get, &item.post, &item.put].into_iter().flatten() {
                let id = op.operation_id.clone().unwrap_or_default();
                assert!(seen.insert(id.clone()), "operationId {id} is used twice");
            }
        }
    }
}
