//! お気に入り and 支援したプロジェクト through the real wiring: a member keeps and un-keeps public projects, sees only
//! their own list, drafts and hidden projects are never kept or listed, and my page's supported projects are one
//! line per project from the member's paid sales.

use serde_json::{json, Value};

use crate::helpers::{spawn_demo_app, TestApp};

const ADMIN: &str = "demo-admin@example.jp";

const PASSWORD: &str = "demo-password-1";
const TARO: &str = "demo-taro@example.jp";
const HANAKO: &str = "demo-hanako@example.jp";

async fn get(app: &TestApp, token: &str, path: &str) -> (u16, Value) {
    let response = app.get_with_token(path, token).await;
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn post(app: &TestApp, token: &str, path: &str) -> (u16, Value) {
    let response = app.post_json_with_token(path, token, &json!({})).await;
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// The slugs of the caller's kept projects, in the list's order.
async fn kept(app: &TestApp, token: &str) -> Vec<String> {
    let (status, body) = get(app, token, "/v1/user/favourites").await;
    assert_eq!(status, 200, "{body}");
    body["favourites"].as_array().unwrap().iter().map(|f| f["project"]["slug"].as_str().unwrap().to_string()).collect()
}

#[tokio::test]
async fn a_member_keeps_projects_newest_first_and_a_second_keep_or_remove_changes_nothing() {
    let app = spawn_demo_app().await;
    let taro = app.login(TARO, PASSWORD).await;
    let (rose, daruma) = (app.project_id("maebashi-rose-garden").await, app.project_id("takasaki-daruma").await);

    assert_eq!(post(&app, &taro, &format!("/v1/user/favourites/{rose}")).await, (200, json!({"kept": true})));
    app.execute(&format!(
        "UPDATE favourites SET created_at = created_at - interval '1 minute' WHERE project_id = {rose}"
    ));
    assert_eq!(post(&app, &taro, &format!("/v1/user/favourites/{daruma}")).await.0, 200);
    assert_eq!(post(&app, &taro, &format!("/v1/user/favourites/{rose}")).await.0, 200, "idempotent");

    assert_eq!(kept(&app, &taro).await, ["takasaki-daruma", "maebashi-rose-garden"]);
    let (_, body) = get(&app, &taro, "/v1/user/favourites").await;
    let first = &body["favourites"][0];
    assert_eq!((&first["state"], &first["stateLabel"]), (&json!("open"), &json!("募集中")));
    let master: Value = app.get("/v1/helper/get/master").await.json().await.unwrap();
    let card = master["master"]["projects"].as_array().unwrap().iter().find(|p| p["id"] == daruma).unwrap().clone();
    assert_eq!(first["project"], card, "the same card as the home page's");
    assert_eq!(body["limit"], 500);

    let remove = format!("/v1/user/favourites/{rose}/delete");
    assert_eq!(post(&app, &taro, &remove).await, (200, json!({"kept": false})));
    assert_eq!(post(&app, &taro, &remove).await.0, 200, "idempotent");
    assert_eq!(kept(&app, &taro).await, ["takasaki-daruma"]);
}

#[tokio::test]
async fn an_ended_project_is_marked_ended_in_the_list() {
    let app = spawn_demo_app().await;
    let taro = app.login(TARO, PASSWORD).await;
    let kiryu = app.project_id("kiryu-textile").await;

    post(&app, &taro, &format!("/v1/user/favourites/{kiryu}")).await;

    let (_, body) = get(&app, &taro, "/v1/user/favourites").await;
    assert_eq!(body["favourites"][0]["project"]["isOpen"], false);
    assert_ne!(body["favourites"][0]["state"], "open", "{body}");
}

#[tokio::test]
async fn another_member_never_sees_or_changes_my_list() {
    let app = spawn_demo_app().await;
    let (taro, hanako) = (app.login(TARO, PASSWORD).await, app.login(HANAKO, PASSWORD).await);
    let rose = app.project_id("maebashi-rose-garden").await;
    post(&app, &taro, &format!("/v1/user/favourites/{rose}")).await;

    assert!(kept(&app, &hanako).await.is_empty());
    // Hanako removing the same project removes it from her own (empty) list only.
    assert_eq!(post(&app, &hanako, &format!("/v1/user/favourites/{rose}/delete")).await.0, 200);
    assert_eq!(kept(&app, &taro).await, ["maebashi-rose-garden"]);
}

#[tokio::test]
async fn guests_get_401_everywhere() {
    let app = spawn_demo_app().await;
    let rose = app.project_id("maebashi-rose-garden").await;

    for path in ["/v1/user/favourites", "/v1/user/supports"] {
        assert_eq!(app.get(path).await.status(), 401, "{path}");
    }
    for path in [format!("/v1/user/favourites/{rose}"), format!("/v1/user/favourites/{rose}/delete")] {
        assert_eq!(app.post_json(&path, &json!({})).await.status(), 401, "{path}");
    }
    assert_eq!(app.query_i64("SELECT count(*) AS value FROM favourites"), 0);
}

#[tokio::test]
async fn a_draft_a_scheduled_or_an_unknown_project_cannot_be_kept() {
    let app = spawn_demo_app().await;
    let taro = app.login(TARO, PASSWORD).await;
    let daruma = app.project_id("takasaki-daruma").await;
    app.execute(&format!("UPDATE project_publications SET published_at = NULL WHERE project_id = {daruma}"));
    let rose = app.project_id("maebashi-rose-garden").await;
    app.execute(&format!(
        "UPDATE project_publications SET published_at = now() + interval '1 day' WHERE project_id = {rose}"
    ));

    for id in [daruma, rose, 999_999, 0, -1] {
        let (status, body) = post(&app, &taro, &format!("/v1/user/favourites/{id}")).await;
        assert_eq!((status, body["error"].as_str()), (404, Some("not_found")), "{id}");
    }
    let (status, body) = post(&app, &taro, "/v1/user/favourites/abc").await;
    assert_eq!((status, body["error"].as_str()), (400, Some("malformed_request")));
    assert_eq!(app.query_i64("SELECT count(*) AS value FROM favourites"), 0);
}

#[tokio::test]
async fn a_kept_project_that_becomes_a_draft_again_drops_out_and_returns_when_published() {
    let app = spawn_demo_app().await;
    let taro = app.login(TARO, PASSWORD).await;
    let (rose, daruma) = (app.project_id("maebashi-rose-garden").await, app.project_id("takasaki-daruma").await);
    post(&app, &taro, &format!("/v1/user/favourites/{rose}")).await;
    post(&app, &taro, &format!("/v1/user/favourites/{daruma}")).await;

    app.execute(&format!("UPDATE project_publications SET published_at = NULL WHERE project_id = {daruma}"));
    assert_eq!(kept(&app, &taro).await, ["maebashi-rose-garden"]);

    app.execute(&format!("UPDATE project_publications SET published_at = now() WHERE project_id = {daruma}"));
    assert_eq!(kept(&app, &taro).await.len(), 2);
}

#[tokio::test]
async fn a_full_list_refuses_the_next_keep_with_a_japanese_message() {
    let app = spawn_demo_app().await;
    let taro = app.login(TARO, PASSWORD).await;
    let taro_id = app.query_i64(&format!("SELECT id AS value FROM users WHERE email = '{TARO}'"));
    // 500 kept projects: drafts made for the purpose (a draft still counts toward the limit).
    app.execute(
        "INSERT INTO projects (slug, title, target_amount, period_end) \
         SELECT 'filler-' || n, '下書き' || n, 100000, '2030-01-01' FROM generate_series(1, 500) AS n",
    );
    app.execute(&format!(
        "INSERT INTO favourites (user_id, project_id) SELECT {taro_id}, id FROM projects WHERE slug LIKE 'filler-%'"
    ));
    let rose = app.project_id("maebashi-rose-garden").await;

    let (status, body) = post(&app, &taro, &format!("/v1/user/favourites/{rose}")).await;

    assert_eq!((status, body["error"].as_str()), (409, Some("favourites_full")), "{body}");
    assert_eq!(body["message"], "お気に入りは500件まで登録できます。ほかのプロジェクトを外してから追加してください。");
    assert!(kept(&app, &taro).await.is_empty(), "drafts are not listed");
}

#[tokio::test]
async fn supported_projects_are_one_line_per_project_with_the_paid_sales() {
    let app = spawn_demo_app().await;
    let taro = app.login(TARO, PASSWORD).await;
    let taro_id = app.query_i64(&format!("SELECT id AS value FROM users WHERE email = '{TARO}'"));
    let projects = app.query_i64(&format!(
        "SELECT count(DISTINCT project_id) AS value FROM sales WHERE user_id = {taro_id} AND status = 'succeeded'"
    ));
    let paid_sales = app
        .query_i64(&format!("SELECT count(*) AS value FROM sales WHERE user_id = {taro_id} AND status = 'succeeded'"));
    assert!(projects > 0 && paid_sales >= projects, "the demo member supports something");

    let (status, body) = get(&app, &taro, "/v1/user/supports").await;

    assert_eq!(status, 200, "{body}");
    let lines = body["projects"].as_array().unwrap();
    assert_eq!(lines.len() as i64, projects, "{body}");
    assert_eq!((body["total"].as_i64(), &body["page"], &body["perPage"]), (Some(projects), &json!(1), &json!(20)));
    let sales: usize = lines.iter().map(|l| l["saleIds"].as_array().unwrap().len()).sum();
    assert_eq!(sales as i64, paid_sales);
    for line in lines {
        assert!(["募集中", "終了", "成立", "不成立"].contains(&line["stateLabel"].as_str().unwrap()), "{line}");
        assert!(line["saleIds"].as_array().is_some_and(|ids| !ids.is_empty()), "{line}");
    }
    // Another member's list is theirs: never Taro's sales.
    let hanako = app.login(HANAKO, PASSWORD).await;
    let (_, theirs) = get(&app, &hanako, "/v1/user/supports").await;
    let taro_sales: Vec<&Value> = lines.iter().flat_map(|l| l["saleIds"].as_array().unwrap()).collect();
    for line in theirs["projects"].as_array().unwrap() {
        for id in line["saleIds"].as_array().unwrap() {
            assert!(!taro_sales.contains(&id), "{id}");
        }
    }
}

fn user_id(app: &TestApp, email: &str) -> i64 {
    app.query_i64(&format!("SELECT id AS value FROM users WHERE email = '{email}'"))
}

/// Today in Tokyo, as the server checks the shipping day against it.
fn today() -> String {
    chrono::Utc::now().with_timezone(&domain::time::tokyo()).date_naive().to_string()
}

#[tokio::test]
async fn my_page_shows_a_shipped_return_and_only_news_the_member_may_read_and_never_another_members_data() {
    let app = spawn_demo_app().await;
    let (admin, taro, hanako) =
        (app.login(ADMIN, PASSWORD).await, app.login(TARO, PASSWORD).await, app.login(HANAKO, PASSWORD).await);
    let (taro_id, hanako_id) = (user_id(&app, TARO), user_id(&app, HANAKO));
    let rose = app.project_id("maebashi-rose-garden").await;
    let paid = app.query_i64("SELECT id AS value FROM sales WHERE idempotency_key = 'demo-maebashi-06'");
    assert_eq!(app.query_i64(&format!("SELECT user_id AS value FROM sales WHERE id = {paid}")), taro_id);
    let ship = json!({"saleIds": [paid], "state": "shipped", "shippedOn": today(), "note": "ヤマト 1234"});
    let response = app.post_json_with_token(&format!("/v1/admin/projects/{rose}/deliveries"), &admin, &ship).await;
    assert_eq!(response.status(), 200);
    // The newest news of the project: a public item, then (newer) one for a return Taro does not hold, and a
    // public one scheduled for tomorrow.
    let not_taros = app.query_i64(&format!(
        "SELECT min(id) AS value FROM returns WHERE project_id = {rose} AND id NOT IN \
           (SELECT return_id FROM sales WHERE user_id = {taro_id} AND status = 'succeeded')"
    ));
    app.execute(&format!(
        "INSERT INTO project_news (project_id, title, description, published_at, audience, return_ids) VALUES \
           ({rose}, 'ばら園だより 最新号', '', now() - interval '2 minutes', 'public', '{{}}'), \
           ({rose}, 'ほかのリターンの方へ', '', now() - interval '1 minute', 'supporters', '{{{not_taros}}}'), \
           ({rose}, '明日のお知らせ', '', now() + interval '1 day', 'public', '{{}}')"
    ));

    let (status, body) = get(&app, &taro, "/v1/user/supports").await;

    assert_eq!(status, 200, "{body}");
    let line = body["projects"].as_array().unwrap().iter().find(|l| l["slug"] == "maebashi-rose-garden").unwrap();
    assert_eq!(line["latestNews"]["title"], "ばら園だより 最新号", "{line}");
    let title = app.query_text(&format!(
        "SELECT r.title AS value FROM sales s JOIN returns r ON r.id = s.return_id WHERE s.id = {paid}"
    ));
    let held = line["returns"].as_array().unwrap().iter().find(|r| r["title"] == title.as_str()).unwrap();
    let shipped = held["deliveries"].as_array().unwrap().iter().find(|d| d["state"] == "shipped").unwrap();
    assert_eq!((&shipped["label"], &shipped["shippedOn"]), (&json!("発送済み"), &json!(today())), "{held}");
    let lots: i64 = held["deliveries"].as_array().unwrap().iter().map(|d| d["lots"].as_i64().unwrap()).sum();
    assert_eq!(held["lots"].as_i64(), Some(lots));

    // Hanako's list holds only her own sales, and no news she may not read.
    let (_, theirs) = get(&app, &hanako, "/v1/user/supports").await;
    for line in theirs["projects"].as_array().unwrap() {
        for id in line["saleIds"].as_array().unwrap() {
            let owner = app.query_i64(&format!("SELECT user_id AS value FROM sales WHERE id = {id}"));
            assert_eq!(owner, hanako_id, "{line}");
        }
        assert_ne!(line["latestNews"]["title"], "明日のお知らせ");
    }
}

#[tokio::test]
async fn the_supported_list_refuses_a_page_out_of_range_or_not_a_number() {
    let app = spawn_demo_app().await;
    let taro = app.login(TARO, PASSWORD).await;

    for page in ["0", "1001"] {
        let (status, body) = get(&app, &taro, &format!("/v1/user/supports?page={page}")).await;
        assert_eq!((status, body["error"].as_str()), (400, Some("validation_failed")), "{page}");
        assert_eq!(body["message"], "pageには1から1000までの数を指定してください。");
    }
    let (status, body) = get(&app, &taro, "/v1/user/supports?page=abc").await;
    assert_eq!((status, body["error"].as_str()), (400, Some("malformed_request")));
    // A page beyond the last answers the last.
    let (status, body) = get(&app, &taro, "/v1/user/supports?page=1000").await;
    assert_eq!((status, &body["page"]), (200, &json!(1)));
    assert!(!body["projects"].as_array().unwrap().is_empty());
}
