//! What a project page says beyond the campaign (issue #13): returns in the
//! operator's order with their supporters and delivery month, the owner, the
//! FAQ, the funding model, the closing minute, the result of an ended
//! project, and the comments a page at a time.

use serde_json::{json, Value};

use crate::helpers::spawn_demo_app;

async fn detail(app: &crate::helpers::TestApp, slug: &str) -> Value {
    let body: Value = app.get(&format!("/v1/project/get/detail?slug={slug}")).await.json().await.unwrap();
    body["project"].clone()
}

#[tokio::test]
async fn returns_come_in_the_operators_order_not_by_price() {
    let app = spawn_demo_app().await;
    let id = app.project_id("maebashi-rose-garden").await;
    // The operator moves the cheapest return to the end.
    app.execute(&format!("UPDATE returns SET position = 99 WHERE project_id = {id} AND slug = 'thanks-mail'"));

    let project = detail(&app, "maebashi-rose-garden").await;

    let slugs: Vec<&str> = project["returns"].as_array().unwrap().iter().map(|r| r["slug"].as_str().unwrap()).collect();
    assert_eq!(slugs.first(), Some(&"rose-seedling"));
    assert_eq!(slugs.last(), Some(&"thanks-mail"));
    let prices: Vec<i64> =
        project["returns"].as_array().unwrap().iter().map(|r| r["price"].as_i64().unwrap()).collect();
    let mut sorted = prices.clone();
    sorted.sort_unstable();
    assert_ne!(prices, sorted, "the demo lists returns in an order of its own");
}

#[tokio::test]
async fn each_return_carries_its_paid_supporters_and_delivery_month() {
    let app = spawn_demo_app().await;
    let id = app.project_id("maebashi-rose-garden").await;

    let project = detail(&app, "maebashi-rose-garden").await;

    let returns = project["returns"].as_array().unwrap();
    let by_slug = |slug: &str| returns.iter().find(|r| r["slug"] == slug).unwrap();
    for r in returns {
        let paid = app.query_i64(&format!(
            "SELECT count(*) AS value FROM sales s JOIN returns r ON r.id = s.return_id \
             WHERE r.project_id = {id} AND r.slug = '{}' AND s.status = 'succeeded'",
            r["slug"].as_str().unwrap()
        ));
        assert_eq!(r["supporters"].as_i64(), Some(paid), "{}", r["slug"]);
    }
    // 2 paid seedling sales; the transfer still awaited does not count.
    assert_eq!(by_slug("rose-seedling")["supporters"], 2);
    let month = by_slug("rose-seedling")["deliveryMonth"].as_str().unwrap();
    assert!(month.len() == 7 && month.as_bytes()[4] == b'-', "{month}");
    assert!(by_slug("guided-tour")["deliveryMonth"].is_null());
}

#[tokio::test]
async fn the_page_carries_the_owner_the_faq_the_funding_model_and_the_closing_minute() {
    let app = spawn_demo_app().await;

    let maebashi = detail(&app, "maebashi-rose-garden").await;
    let takasaki = detail(&app, "takasaki-daruma").await;

    assert_eq!(maebashi["owner"]["name"], "前橋ばら園 花壇再生の会");
    assert!(maebashi["owner"]["imageUrl"].as_str().unwrap().starts_with("/media/demo/"));
    assert_eq!(maebashi["owner"]["links"][0]["label"], "会の公式サイト");
    assert!(maebashi["owner"]["links"][0]["url"].as_str().unwrap().starts_with("https://"));
    assert_eq!(maebashi["faqs"].as_array().unwrap().len(), 3);
    assert_eq!(maebashi["faqs"][0]["question"], "苗木はいつ届きますか？");
    assert_eq!(maebashi["fundingModel"], "all_in");
    assert_eq!(takasaki["fundingModel"], "all_or_nothing");
    assert!(takasaki["faqs"].as_array().unwrap().is_empty(), "a project without FAQ sends none");
    let closes = maebashi["closesAt"].as_str().unwrap();
    assert_eq!(closes, format!("{}T23:59:00+09:00", maebashi["period"].as_str().unwrap()));
}

#[tokio::test]
async fn the_owner_box_and_faq_disappear_when_the_operator_removes_them() {
    let app = spawn_demo_app().await;
    let id = app.project_id("maebashi-rose-garden").await;
    app.execute(&format!("DELETE FROM project_owners WHERE project_id = {id}"));
    app.execute(&format!("DELETE FROM project_faqs WHERE project_id = {id}"));

    let project = detail(&app, "maebashi-rose-garden").await;

    assert!(project["owner"].is_null());
    assert_eq!(project["faqs"], json!([]));
}

#[tokio::test]
async fn an_ended_project_says_whether_it_reached_its_goal() {
    let app = spawn_demo_app().await;

    let kiryu = detail(&app, "kiryu-textile").await;
    let numata = detail(&app, "numata-apple").await;

    assert_eq!((kiryu["isOpen"].as_bool(), kiryu["achieved"].as_bool()), (Some(false), Some(true)));
    assert!(kiryu["sum"]["amount"].as_i64() >= kiryu["target"].as_i64());
    assert_eq!((numata["isOpen"].as_bool(), numata["achieved"].as_bool()), (Some(false), Some(false)));
    assert!(numata["sum"]["amount"].as_i64() < numata["target"].as_i64());
}

#[tokio::test]
async fn comments_come_ten_to_a_page_newest_first_with_the_pagination_bar() {
    let app = spawn_demo_app().await;
    let id = app.project_id("maebashi-rose-garden").await;
    let user = app.query_i64("SELECT id AS value FROM users WHERE email = 'demo-taro@example.jp'");
    // 21 more comments, one minute apart, so the newest is known.
    app.execute(&format!(
        "INSERT INTO comments (project_id, user_id, comment, flag, created_at, updated_at) \
         SELECT {id}, {user}, 'コメント' || n, 1, now() + n * interval '1 minute', now() + n * interval '1 minute' \
         FROM generate_series(1, 21) AS n"
    ));
    let all: Value = app.get(&format!("/v1/comment/get/list?project_id={id}")).await.json().await.unwrap();
    let total = all["comments"].as_array().unwrap().len();

    let first: Value = app.get(&format!("/v1/comment/get/list?project_id={id}&page=1")).await.json().await.unwrap();
    let last: Value = app.get(&format!("/v1/comment/get/list?project_id={id}&page=99")).await.json().await.unwrap();

    let pages = total.div_ceil(10);
    assert_eq!(first["total"].as_u64(), Some(total as u64));
    assert_eq!(first["comments"].as_array().unwrap().len(), 10);
    assert_eq!(first["comments"][0]["comment"], "コメント21");
    assert_eq!(first["comments"][0], all["comments"][0]);
    assert_eq!(first["pagination"]["page"], 1);
    assert_eq!(first["pagination"]["pages"].as_u64(), Some(pages as u64));
    assert_eq!(first["pagination"]["items"][0], 1);
    assert_eq!(last["pagination"]["page"].as_u64(), Some(pages as u64), "a page past the end is clamped");
    assert_eq!(last["comments"].as_array().unwrap().len(), total - (pages - 1) * 10);
    assert!(all.get("pagination").is_none(), "without page the seed's whole list is answered");
    for bad in ["0", "-1", "x", "100001"] {
        let resp = app.get(&format!("/v1/comment/get/list?project_id={id}&page={bad}")).await;
        assert_eq!(resp.status(), 400, "page={bad}");
    }
}

#[tokio::test]
async fn sign_up_refuses_a_call_that_did_not_agree_to_the_terms() {
    let app = spawn_demo_app().await;

    let refused = app
        .post_json("/v1/user/register", &json!({"email": "agree-no@example.jp", "flag": 100, "agreeTerms": false}))
        .await;
    let accepted = app
        .post_json("/v1/user/register", &json!({"email": "agree-yes@example.jp", "flag": 100, "agreeTerms": true}))
        .await;

    assert_eq!(refused.status(), 400);
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["message"], "利用規約とプライバシーポリシーに同意してください。");
    assert_eq!(accepted.status(), 200);
    assert_eq!(app.query_i64("SELECT count(*) AS value FROM users WHERE email = 'agree-no@example.jp'"), 0);
}
