//! Who may call what: one table of every `/v1` route, walked with no token, the owner's token, another member's
//! token and an administrator's token. A route mounted without its line here fails
//! `every_mounted_route_has_a_line_in_the_access_table`, and a path of the specs that starts answering without
//! its line fails `paths_outside_the_table_answer_the_default_not_found`.

use std::collections::BTreeSet;

use reqwest::Method;
use serde_json::Value;

use adapters_http::sale_receipt_tokens::JwtReceiptTokens;
use domain::ids::SaleId;
use ports::receipts::ReceiptTokens;

use crate::helpers::{spawn_demo_app, spawn_demo_app_with, unique_email, TestApp};

const PASSWORD: &str = "demo-password-1";
const OWNER: &str = "demo-taro@example.jp";
const OTHER_MEMBER: &str = "demo-hanako@example.jp";
const ADMIN: &str = "demo-admin@example.jp";
/// The app's signing secret, so the table can make a receipt link as the paid mail would.
const SECRET: &[u8] = b"access-table-secret-of-at-least-32-bytes";

/// Who may call a route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Who {
    /// No token needed.
    Anyone,
    /// Any logged-in member (administrators included).
    Member,
    /// Only the member the object belongs to (not another member, not an administrator).
    Owner,
    /// Only the member the object belongs to; anyone else logged in gets the 404 of an unknown object, so that
    /// nothing tells whether it exists (receipts).
    OwnerElseNotFound,
    /// Only an administrator; everyone else gets 404, as for an unknown path.
    Admin,
}

/// One call of a route. The path's `{id}` and `{return_id}` are a demo project and one of its backed returns,
/// `{news_id}` one of its news items, `{sponsor_id}` an entry of its manual sponsor list, `{user_id}` the owner below,
/// `{sale_id}` the owner's paid sale and `{token}` that sale's receipt link token.
/// `query` and `body` may name `{project}` (a demo project's id), `{slug}` (its slug),
/// `{owner}` (the owner's user id), `{comment}` and `{displayname}` (ids of the owner's comment and display
/// name), `{email}` (a fresh address).
struct Row {
    method: &'static str,
    path: &'static str,
    query: &'static str,
    body: Option<&'static str>,
    who: Who,
}

const fn row(
    method: &'static str,
    path: &'static str,
    query: &'static str,
    body: Option<&'static str>,
    who: Who,
) -> Row {
    Row { method, path, query, body, who }
}

/// Every route of the API. Bodies are chosen so that a caller who passes the access check gets an answer about
/// the request itself (often a 400), never about who they are.
const TABLE: &[Row] = &[
    row("GET", "/v1/openapi.json", "", None, Who::Anyone),
    // Accounts.
    row("POST", "/v1/user/register", "", Some(r#"{"flag": 100, "email": "{email}"}"#), Who::Anyone),
    row("POST", "/v1/user/reRegister", "", Some(r#"{"flag": 100, "email": "{email}"}"#), Who::Anyone),
    row(
        "POST",
        "/v1/user/registPassword",
        "",
        Some(r#"{"flag": 1, "password": "x", "activatekey": "x"}"#),
        Who::Anyone,
    ),
    row(
        "POST",
        "/v1/user/login",
        "",
        Some(r#"{"email": "demo-jiro@example.jp", "password": "demo-password-1"}"#),
        Who::Anyone,
    ),
    row("GET", "/v1/user/loginCheck", "", None, Who::Member),
    row("GET", "/v1/user/get/authUser", "", None, Who::Member),
    row("POST", "/v1/user/forgotPassword", "", Some(r#"{"email": "{email}"}"#), Who::Anyone),
    row("POST", "/v1/user/resetPassword", "", Some(r#"{"secret": "x", "password": "x"}"#), Who::Anyone),
    row("POST", "/v1/user/set/updatePassword", "", Some("{}"), Who::Member),
    row("POST", "/v1/user/set/update", "", Some("{}"), Who::Member),
    row("POST", "/v1/user/set/uploadfile", "", Some("{}"), Who::Member),
    row("POST", "/v1/user/set/updateEmail", "", Some("{}"), Who::Member),
    row("POST", "/v1/user/set/updateLoginEmail", "", Some("{}"), Who::Member),
    row("POST", "/v1/user/set/updateCorporateData", "", Some(r#"{"corporatename": " "}"#), Who::Member),
    row("POST", "/v1/address/set/register", "", Some("{}"), Who::Member),
    row("POST", "/v1/address/set/updater", "", Some("{}"), Who::Member),
    row("GET", "/v1/address/get/zip", "zip=3710023", None, Who::Anyone),
    // Sales: one path, two lists.
    row("GET", "/v1/sales/get/list", "project_id={project}", None, Who::Anyone),
    row("GET", "/v1/sales/get/list", "user_id={owner}", None, Who::Owner),
    // The same path with refunds=1 is the admin refund table.
    row("GET", "/v1/sales/get/list", "project_id={project}&intent=1&refunds=1", None, Who::Admin),
    row(
        "POST",
        "/v1/displayname/set/update",
        "",
        Some(r#"{"id": {displayname}, "displayname": "表示名"}"#),
        Who::Owner,
    ),
    row("GET", "/v1/sales/get/sum", "project_id={project}", None, Who::Anyone),
    row("GET", "/v1/sales/get/allSum", "", None, Who::Anyone),
    // Public pages.
    row("GET", "/v1/helper/get/master", "", None, Who::Anyone),
    row("GET", "/v1/project/get/detail", "slug={slug}", None, Who::Anyone),
    row("GET", "/v1/project/get/areas", "", None, Who::Anyone),
    row("GET", "/v1/project/get/list", "q=%E3%83%90%E3%83%A9", None, Who::Anyone),
    row("GET", "/v1/sponsors/get/list", "project_id={project}", None, Who::Anyone),
    row("GET", "/v1/sponsors/get/footer", "slug={slug}", None, Who::Anyone),
    row("GET", "/v1/information/get/list", "project_id={project}", None, Who::Anyone),
    row("GET", "/v1/comment/get/list", "project_id={project}", None, Who::Anyone),
    row("POST", "/v1/comment/set/update", "", Some(r#"{"id": {comment}, "comment": "書き直しました"}"#), Who::Owner),
    // Backing: members and guests alike (the use case decides what a guest may use).
    row("GET", "/v1/payment/get/quote", "", None, Who::Anyone),
    row("POST", "/v1/payment/set/support", "", Some("{}"), Who::Anyone),
    row("GET", "/v1/payment/get/status", "", None, Who::Anyone),
    row("POST", "/v1/stripe/webhook", "", Some("{}"), Who::Anyone),
    // A card set-up: a guest's under nobody, a member's under their own customer.
    row("POST", "/v1/stripe/set/cardSetup", "", None, Who::Anyone),
    row("POST", "/v1/stripe/get/cardSetup", "", Some("{}"), Who::Anyone),
    // Saved cards: always the caller's own provider customer.
    row("GET", "/v1/stripe/customer/get/cards", "", None, Who::Member),
    row("POST", "/v1/stripe/customer/set/updater", "", Some("{}"), Who::Member),
    row("POST", "/v1/stripe/customer/set/changeDefaultCard", "", Some("{}"), Who::Member),
    row("POST", "/v1/stripe/customer/set/deleteCard", "", Some("{}"), Who::Member),
    row("GET", "/v1/stripe/subscription/get/list", "", None, Who::Member),
    row("POST", "/v1/stripe/subscription/set/cancel", "", Some("{}"), Who::Member),
    row("GET", "/v1/stripe/subscription/get/authentication", "", None, Who::Member),
    row("POST", "/v1/stripe/subscription/set/authenticated", "", Some("{}"), Who::Member),
    // Receipts: a member's own paid sale (404 for anyone else), or whoever holds the mailed link.
    row("GET", "/v1/user/receipts/{sale_id}", "", None, Who::OwnerElseNotFound),
    row("POST", "/v1/user/receipts/{sale_id}/issue", "", Some(r#"{"addressee": null}"#), Who::OwnerElseNotFound),
    row("GET", "/v1/receipts/{token}", "", None, Who::Anyone),
    row("POST", "/v1/receipts/{token}/issue", "", Some(r#"{"addressee": null}"#), Who::Anyone),
    // Following from my page: always the caller's own list (no member id is read).
    row("GET", "/v1/user/favourites", "", None, Who::Member),
    row("POST", "/v1/user/favourites/{id}", "", Some("{}"), Who::Member),
    row("POST", "/v1/user/favourites/{id}/delete", "", Some("{}"), Who::Member),
    row("GET", "/v1/user/favouriteMail", "", None, Who::Member),
    row("POST", "/v1/user/favouriteMail", "", Some(r#"{"enabled": false}"#), Who::Member),
    row("GET", "/v1/user/supports", "", None, Who::Member),
    // Administrators only; everyone else gets the 404 of an unknown path.
    row("GET", "/v1/admin/get/actions", "", None, Who::Admin),
    row("GET", "/v1/admin/get/dashboard", "", None, Who::Admin),
    row("POST", "/v1/user/resendRegisterMail", "", Some(r#"{"email":"nobody-resend@example.jp"}"#), Who::Admin),
    // Refunds.
    row("GET", "/v1/admin/get/refundProjects", "", None, Who::Admin),
    row("POST", "/v1/stripe/intent/set/refund", "", Some(r#"{"saleId": 0, "amount": 0}"#), Who::Admin),
    row("POST", "/v1/admin/set/bulkRefund", "", Some(r#"{"projectId": {project}, "mode": 0}"#), Who::Admin),
    row("GET", "/v1/admin/get/bulkRefund", "project_id={project}", None, Who::Admin),
    // Project authoring: empty or refused bodies, so the table changes nothing (the demo project is published and its
    // return backed).
    row("GET", "/v1/admin/payouts", "", None, Who::Admin),
    row("GET", "/v1/admin/payouts/export.csv", "", None, Who::Admin),
    row("GET", "/v1/admin/payouts/{id}", "", None, Who::Admin),
    row("POST", "/v1/admin/payouts/{id}/paid", "", Some("{}"), Who::Admin),
    row("GET", "/v1/admin/projects", "state=open", None, Who::Admin),
    row("POST", "/v1/admin/projects", "", Some("{}"), Who::Admin),
    row("GET", "/v1/admin/projects/{id}", "", None, Who::Admin),
    row("POST", "/v1/admin/projects/{id}", "", Some("{}"), Who::Admin),
    row("POST", "/v1/admin/projects/{id}/publish", "", Some(r#"{"publishAt": null}"#), Who::Admin),
    row("POST", "/v1/admin/projects/{id}/unschedule", "", None, Who::Admin),
    row("GET", "/v1/admin/projects/{id}/preview", "", None, Who::Admin),
    row("POST", "/v1/admin/projects/{id}/returns", "", Some("{}"), Who::Admin),
    row("POST", "/v1/admin/projects/{id}/returns/{return_id}", "", Some("{}"), Who::Admin),
    row("POST", "/v1/admin/projects/{id}/returns/{return_id}/delete", "", None, Who::Admin),
    row("POST", "/v1/admin/projects/{id}/return-order", "", Some("{}"), Who::Admin),
    row("GET", "/v1/admin/projects/{id}/comments", "", None, Who::Admin),
    row("GET", "/v1/admin/projects/{id}/supporters", "", None, Who::Admin),
    // A blank reason is refused (400) by the administrator: nothing is hidden.
    row("POST", "/v1/admin/projects/{id}/supporters/{user_id}/hide-name", "", Some(r#"{"reason": ""}"#), Who::Admin),
    row("POST", "/v1/admin/projects/{id}/supporters/{user_id}/show-name", "", None, Who::Admin),
    row("GET", "/v1/admin/projects/{id}/news", "", None, Who::Admin),
    row("POST", "/v1/admin/projects/{id}/news", "", Some("{}"), Who::Admin),
    row("POST", "/v1/admin/projects/{id}/news/{news_id}", "", Some("{}"), Who::Admin),
    row("POST", "/v1/admin/projects/{id}/news/{news_id}/delete", "", None, Who::Admin),
    // Deliveries: an empty selection is refused (400) by the administrator, so the table marks nothing.
    row("GET", "/v1/admin/projects/{id}/deliveries", "state=unshipped", None, Who::Admin),
    row("GET", "/v1/admin/projects/{id}/deliveries/export.csv", "", None, Who::Admin),
    row("POST", "/v1/admin/projects/{id}/deliveries", "", Some(r#"{"saleIds": [], "state": "shipped"}"#), Who::Admin),
    row("GET", "/v1/admin/projects/{id}/receipt-issuer", "", None, Who::Admin),
    row("PUT", "/v1/admin/projects/{id}/receipt-issuer", "", Some(r#"{"issuerName": ""}"#), Who::Admin),
    row("GET", "/v1/admin/projects/{id}/content", "", None, Who::Admin),
    row("POST", "/v1/admin/projects/{id}/content", "", Some("{}"), Who::Admin),
    row("POST", "/v1/admin/projects/{id}/images", "slot=main", Some("{}"), Who::Admin),
    row("POST", "/v1/admin/projects/{id}/images/remove", "", Some("{}"), Who::Admin),
    row("GET", "/v1/admin/projects/{id}/settings", "", None, Who::Admin),
    row("POST", "/v1/admin/projects/{id}/settings", "", Some("{}"), Who::Admin),
    // Manual sponsors: `{sponsor_id}` is the one entry of the project's list (its only supporter, so it cannot move),
    // deleted by the administrator's last call.
    row("GET", "/v1/admin/projects/{id}/manual-sponsors", "", None, Who::Admin),
    row("POST", "/v1/admin/projects/{id}/manual-sponsors", "", Some("{}"), Who::Admin),
    row("POST", "/v1/admin/projects/{id}/manual-sponsors/{sponsor_id}", "", Some("{}"), Who::Admin),
    row(
        "POST",
        "/v1/admin/projects/{id}/manual-sponsors/{sponsor_id}/move",
        "",
        Some(r#"{"direction": "up"}"#),
        Who::Admin,
    ),
    row("POST", "/v1/admin/projects/{id}/manual-sponsors/{sponsor_id}/delete", "", None, Who::Admin),
    // Moderation: the comment id is a placeholder no comment has (a 404 for everyone, the administrator included).
    row("POST", "/v1/admin/comments/{id}/hide", "", Some(r#"{"reason": ""}"#), Who::Admin),
    row("POST", "/v1/admin/comments/{id}/show", "", None, Who::Admin),
    // Mass mail: an empty form is refused (400) by the administrator, so the table sends nothing.
    row("POST", "/v1/mail/set/register", "", Some(r#"{"title": "", "content": ""}"#), Who::Admin),
    row("GET", "/v1/mail/get/preview", "projectId={project}", None, Who::Admin),
    row("GET", "/v1/mail/get/list", "", None, Who::Admin),
    row("GET", "/v1/mail/get/detail", "id=987654", None, Who::Admin),
    row("GET", "/v1/user/get/byId", "id={owner}", None, Who::Admin),
    // The opt-out link needs no login: the signed token decides (a wrong one is a 400).
    row("POST", "/v1/mail/set/optOut", "", Some(r#"{"token": "not-a-token"}"#), Who::Anyone),
];

/// Paths of the specs' client contract that are not mounted yet. Each must answer the default not-found until
/// its endpoint lands, and then its line moves into `TABLE`.
const NOT_YET_MOUNTED: &[&str] = &[
    "/v1/additionalreturndata/set/register",
    "/v1/comment/set/register",
    "/v1/connection/test",
    "/v1/displayname/set/register",
    "/v1/masterUser/get/list",
    "/v1/sales/set/register",
    "/v1/stripe/customer/get/byUser",
    "/v1/stripe/customer/get/stripeData",
    "/v1/stripe/customer/set/register",
    "/v1/stripe/get/tax",
    "/v1/stripe/intent/set/register",
    "/v1/stripe/subscription/get/detailLists",
    "/v1/stripe/subscription/set/register",
    "/v1/user/get/list",
    "/v1/user/set/updateUrl",
];

const METHODS: &[&str] = &["GET", "POST", "PUT", "PATCH", "DELETE"];

fn table_routes() -> BTreeSet<(String, String)> {
    TABLE.iter().map(|r| (r.method.to_string(), r.path.to_string())).collect()
}

#[test]
fn every_mounted_route_has_a_line_in_the_access_table() {
    let mounted: BTreeSet<(String, String)> =
        adapters_http::mounted_routes().into_iter().map(|r| (r.method.to_string(), r.path)).collect();
    let table = table_routes();

    let missing: Vec<_> = mounted.difference(&table).collect();
    let stale: Vec<_> = table.difference(&mounted).collect();
    assert!(missing.is_empty(), "mounted but missing from the access table: {missing:?}");
    assert!(stale.is_empty(), "in the access table but not mounted: {stale:?}");
}

#[test]
fn every_route_of_the_openapi_document_has_a_line_in_the_access_table() {
    let doc: Value = serde_json::from_str(adapters_http::document_json()).unwrap();
    let documented: BTreeSet<(String, String)> = doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(path, ops)| ops.as_object().unwrap().keys().map(|m| (m.to_uppercase(), path.clone())))
        .collect();

    assert_eq!(documented, table_routes());
}

/// The values the table's placeholders stand for, from the demo data.
struct Fixtures {
    project: i64,
    /// A return of `project` that supporters hold.
    ret: i64,
    slug: String,
    owner: i64,
    comment: i64,
    displayname: i64,
    /// A news item of `project`.
    news: i64,
    /// An entry of `project`'s manual sponsor list, made here (the demo project has none).
    sponsor: i64,
    /// The owner's paid sale and its receipt link token.
    sale: i64,
    token: String,
}

impl Fixtures {
    async fn load(app: &TestApp) -> Self {
        // Postal codes are loaded by a separate script, not by the migrations or the demo seed.
        app.execute("INSERT INTO postal_codes (zip, pref, city, town) VALUES ('3710023', '群馬県', '前橋市', '本町')");
        let slug = "maebashi-rose-garden".to_string();
        let owner_id = |table: &str| {
            format!(
                "SELECT min(t.id) AS value FROM {table} t JOIN users u ON u.id = t.user_id WHERE u.email = '{OWNER}'"
            )
        };
        let project = app.project_id(&slug).await;
        app.execute(&format!(
            "INSERT INTO project_manual_sponsors (project_id, course, name) VALUES ({project}, 'supporter', 'アクセス表')"
        ));
        let sale = app.query_i64(&format!(
            "SELECT min(s.id) AS value FROM sales s JOIN users u ON u.id = s.user_id \
              WHERE u.email = '{OWNER}' AND s.status = 'succeeded'"
        ));
        Self {
            project,
            ret: app.query_i64(&format!(
                "SELECT id AS value FROM returns WHERE project_id = {project} AND slug = 'thanks-mail'"
            )),
            owner: app.query_i64(&format!("SELECT id AS value FROM users WHERE email = '{OWNER}'")),
            news: app.query_i64(&format!("SELECT min(id) AS value FROM project_news WHERE project_id = {project}")),
            sponsor: app.query_i64(&format!(
                "SELECT min(id) AS value FROM project_manual_sponsors WHERE project_id = {project}"
            )),
            comment: app.query_i64(&owner_id("comments")),
            displayname: app.query_i64(&owner_id("display_names")),
            slug,
            sale,
            token: JwtReceiptTokens::new(SECRET).issue(SaleId(sale)).unwrap(),
        }
    }

    fn fill(&self, template: &str) -> String {
        template
            .replace("{project}", &self.project.to_string())
            .replace("{slug}", &self.slug)
            .replace("{owner}", &self.owner.to_string())
            .replace("{comment}", &self.comment.to_string())
            .replace("{displayname}", &self.displayname.to_string())
            .replace("{email}", &unique_email("access"))
    }
}

/// A caller, their token, and which statuses are right for them.
type Expectation<'a> = (&'static str, Option<&'a str>, fn(u16) -> bool);

/// Past the access check: neither refused nor failed.
fn allowed(status: u16) -> bool {
    status != 401 && status != 403 && status < 500
}

async fn call(app: &TestApp, fixtures: &Fixtures, row: &Row, token: Option<&str>) -> (u16, Value) {
    let path = row
        .path
        .replace("{id}", &fixtures.project.to_string())
        .replace("{return_id}", &fixtures.ret.to_string())
        .replace("{user_id}", &fixtures.owner.to_string())
        .replace("{news_id}", &fixtures.news.to_string())
        .replace("{sponsor_id}", &fixtures.sponsor.to_string())
        .replace("{sale_id}", &fixtures.sale.to_string())
        .replace("{token}", &fixtures.token);
    let mut url = format!("{}{path}", app.address);
    if !row.query.is_empty() {
        url = format!("{url}?{}", fixtures.fill(row.query));
    }
    let mut request = app.client.request(Method::from_bytes(row.method.as_bytes()).unwrap(), url);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    if let Some(body) = row.body {
        request = request.header("content-type", "application/json").body(fixtures.fill(body));
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let body = response.json().await.unwrap_or(Value::Null);
    (status, body)
}

#[tokio::test]
async fn each_route_answers_each_caller_as_its_line_in_the_access_table_says() {
    let app = spawn_demo_app_with(|s| s.jwt_secret = SECRET.to_vec()).await;
    let fixtures = Fixtures::load(&app).await;
    let owner = app.login(OWNER, PASSWORD).await;
    let other = app.login(OTHER_MEMBER, PASSWORD).await;
    let admin = app.login(ADMIN, PASSWORD).await;
    let mut wrong = Vec::new();

    for row in TABLE {
        // Callers whose answer must be a refusal come first, so the owner's successful edit changes nothing
        // they see.
        let expectations: Vec<Expectation> = match row.who {
            Who::Anyone => vec![("no token", None, allowed), ("a member", Some(&other), allowed)],
            Who::Member => vec![
                ("no token", None, |s| s == 401),
                ("a member", Some(&other), allowed),
                ("an administrator", Some(&admin), allowed),
            ],
            Who::Owner => vec![
                ("no token", None, |s| s == 401),
                ("another member", Some(&other), |s| s == 403),
                ("an administrator who is not the owner", Some(&admin), |s| s == 403),
                ("the owner", Some(&owner), |s| (200..300).contains(&s)),
            ],
            Who::OwnerElseNotFound => vec![
                ("no token", None, |s| s == 401),
                ("another member", Some(&other), |s| s == 404),
                ("an administrator who is not the owner", Some(&admin), |s| s == 404),
                ("the owner", Some(&owner), |s| (200..300).contains(&s)),
            ],
            // Admin endpoints hide themselves: the same 404 as an unknown path.
            Who::Admin => vec![
                ("no token", None, |s| s == 404),
                ("a member", Some(&other), |s| s == 404),
                ("an administrator", Some(&admin), allowed),
            ],
        };
        for (caller, token, expected) in expectations {
            let (status, body) = call(&app, &fixtures, row, token).await;
            // An admin endpoint answers everyone else exactly like an unknown path; the administrator's own
            // call is what shows that it is mounted.
            let hidden_from_caller = (row.who == Who::Admin && token != Some(&admin))
                || (row.who == Who::OwnerElseNotFound && token.is_some() && token != Some(&owner));
            let default_not_found = status == 404 && body["error"] == "not_found" && !hidden_from_caller;
            if !expected(status) || default_not_found {
                wrong.push(format!(
                    "{} {}?{} by {caller} ({:?}): {status} {body}",
                    row.method, row.path, row.query, row.who
                ));
            }
        }
    }

    assert!(wrong.is_empty(), "answers that contradict the access table:\n{}", wrong.join("\n"));
}

#[tokio::test]
async fn paths_outside_the_table_answer_the_default_not_found() {
    let app = spawn_demo_app().await;
    let token = app.login(ADMIN, PASSWORD).await;
    let table = table_routes();
    let doc: Value = serde_json::from_str(adapters_http::document_json()).unwrap();
    let mut paths: BTreeSet<String> = doc["paths"].as_object().unwrap().keys().cloned().collect();
    paths.extend(table.iter().map(|(_, path)| path.clone()));
    paths.extend(NOT_YET_MOUNTED.iter().map(|p| (*p).to_string()));
    let mut answering = Vec::new();

    for path in &paths {
        for method in METHODS {
            if table.contains(&((*method).to_string(), path.clone())) {
                continue;
            }
            let response = app
                .client
                .request(Method::from_bytes(method.as_bytes()).unwrap(), format!("{}{path}", app.address))
                .bearer_auth(&token)
                .header("content-type", "application/json")
                .body("{}")
                .send()
                .await
                .unwrap();
            let status = response.status().as_u16();
            let body: Value = response.json().await.unwrap_or(Value::Null);
            // A known path with another method answers 405; an unknown path the API's JSON 404.
            let not_mounted = status == 405 || (status == 404 && body["error"] == "not_found");
            if !not_mounted {
                answering.push(format!("{method} {path}: {status} {body}"));
            }
        }
    }

    assert!(answering.is_empty(), "answering routes missing from the access table:\n{}", answering.join("\n"));
}
