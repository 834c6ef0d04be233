//! Supporter comments: the list, and edits by their author only.

use serde_json::{json, Value};

use crate::helpers::spawn_demo_app;

const PASSWORD: &str = "demo-password-1";

async fn comments(app: &crate::helpers::TestApp, project: i64) -> Vec<Value> {
    let body: Value = app.get(&format!("/v1/comment/get/list?project_id={project}")).await.json().await.unwrap();
    body["comments"].as_array().unwrap().clone()
}

/// The id of a demo comment written by `email`.
fn comment_of(app: &crate::helpers::TestApp, email: &str) -> i64 {
    app.query_i64(&format!(
        "SELECT min(c.id) AS value FROM comments c JOIN users u ON u.id = c.user_id WHERE u.email = '{email}'"
    ))
}

#[tokio::test]
async fn comments_are_listed_newest_first_with_anonymous_authors_masked() {
    let app = spawn_demo_app().await;
    let id = app.project_id("maebashi-rose-garden").await;

    let list = comments(&app, id).await;

    assert!(list.len() >= 4);
    let dates: Vec<&str> = list.iter().map(|c| c["updated_at"].as_str().unwrap()).collect();
    assert!(dates.windows(2).all(|w| w[0] >= w[1]));
    for key in ["id", "project_id", "user_id", "comment", "updated_at", "userDetail", "salesDetail"] {
        assert!(!list[0][key].is_null(), "{key}");
    }
    let anonymous = list.iter().find(|c| c["comment"] == "匿名で失礼します。応援しています。").unwrap();
    assert_eq!(anonymous["userDetail"]["displayname"], "匿名");
    assert_eq!(anonymous["salesDetail"]["displayname"]["displayname"], "匿名");
    assert!(anonymous["userDetail"]["urls"]["icon"].as_array().unwrap().is_empty());
}

#[tokio::test]
async fn the_author_edits_their_comment_and_the_list_shows_it() {
    let app = spawn_demo_app().await;
    let id = app.project_id("maebashi-rose-garden").await;
    let comment = comment_of(&app, "demo-taro@example.jp");
    let token = app.login("demo-taro@example.jp", PASSWORD).await;

    let resp = app
        .post_json_with_token(
            "/v1/comment/set/update",
            &token,
            &json!({"id": comment, "comment": "  書き直しました！ "}),
        )
        .await;

    assert_eq!(resp.status(), 200);
    assert_eq!(resp.json::<Value>().await.unwrap(), json!({"updated": true}));
    assert!(comments(&app, id).await.iter().any(|c| c["id"] == comment && c["comment"] == "書き直しました！"));
}

#[tokio::test]
async fn another_member_may_not_edit_the_comment() {
    let app = spawn_demo_app().await;
    let comment = comment_of(&app, "demo-taro@example.jp");
    let token = app.login("demo-hanako@example.jp", PASSWORD).await;

    let resp = app
        .post_json_with_token("/v1/comment/set/update", &token, &json!({"id": comment, "comment": "乗っ取り"}))
        .await;

    assert_eq!(resp.status(), 403);
    assert_eq!(resp.json::<Value>().await.unwrap()["error"], "forbidden");
    let unchanged =
        app.query_i64(&format!("SELECT count(*) AS value FROM comments WHERE id = {comment} AND comment = '乗っ取り'"));
    assert_eq!(unchanged, 0);
}

#[tokio::test]
async fn editing_without_a_token_is_unauthorized() {
    let app = spawn_demo_app().await;
    let comment = comment_of(&app, "demo-taro@example.jp");

    let none = app.post_json("/v1/comment/set/update", &json!({"id": comment, "comment": "x"})).await;
    let junk =
        app.post_json_with_token("/v1/comment/set/update", "junk", &json!({"id": comment, "comment": "x"})).await;

    assert_eq!(none.status(), 401);
    assert_eq!(none.json::<Value>().await.unwrap()["error"], "unauthorized");
    assert_eq!(junk.status(), 401);
}

#[tokio::test]
async fn empty_and_too_long_comments_get_the_messages() {
    let app = spawn_demo_app().await;
    let comment = comment_of(&app, "demo-taro@example.jp");
    let token = app.login("demo-taro@example.jp", PASSWORD).await;

    for (text, message) in [
        ("   ".to_string(), "コメントを入力してください。"),
        ("あ".repeat(1001), "コメントは1000文字以内で入力してください。"),
    ] {
        let resp =
            app.post_json_with_token("/v1/comment/set/update", &token, &json!({"id": comment, "comment": text})).await;
        assert_eq!(resp.status(), 400);
        let body: Value = resp.json().await.unwrap();
        assert_eq!((body["error"].as_str(), body["message"].as_str()), (Some("validation_failed"), Some(message)));
    }
    let at_limit = app
        .post_json_with_token("/v1/comment/set/update", &token, &json!({"id": comment, "comment": "あ".repeat(1000)}))
        .await;
    assert_eq!(at_limit.status(), 200);
}

#[tokio::test]
async fn editing_an_unknown_comment_or_a_malformed_body_is_a_json_error() {
    let app = spawn_demo_app().await;
    let token = app.login("demo-taro@example.jp", PASSWORD).await;

    let unknown =
        app.post_json_with_token("/v1/comment/set/update", &token, &json!({"id": 999999, "comment": "x"})).await;
    let malformed =
        app.post_json_with_token("/v1/comment/set/update", &token, &json!({"id": "abc", "comment": "x"})).await;

    assert_eq!(unknown.status(), 404);
    assert_eq!(malformed.status(), 400);
    assert_eq!(malformed.json::<Value>().await.unwrap()["error"], "malformed_request");
    assert_eq!(app.get("/v1/comment/get/list?project_id=abc").await.status(), 400);
}
