//! Operators author projects through the real wiring: a draft is nowhere public until published, the public page
//! follows edits, locked terms and backed returns are refused with their messages, and each change is logged.

use serde_json::{json, Value};

use crate::helpers::{spawn_app_with, spawn_demo_app, spawn_demo_app_with, unique_email, TestApp};

const ADMIN: &str = "demo-admin@example.jp";
const MEMBER: &str = "demo-taro@example.jp";
const PASSWORD: &str = "demo-password-1";

/// Sixty days from now: within the year a project may run.
fn end_day() -> String {
    (chrono::Utc::now() + chrono::Duration::days(60)).format("%Y-%m-%d").to_string()
}

fn project_input(slug: &str) -> Value {
    json!({
        "slug": slug, "title": "渋川のへそ祭り", "lead": "日本のまん中で踊る夏。",
        "story": "<h2>はじめに</h2><p>祭りを続けたい。</p><script>alert(1)</script>",
        "goal": 300000, "periodEnd": end_day(), "fundingModel": "all_in", "taxHandling": "inclusive",
        "acceptsCard": true, "acceptsBankTransfer": true
    })
}

fn return_input(title: &str, price: i64) -> Value {
    json!({
        "title": title, "description": "祭りの手ぬぐいを8月にお送りします。", "price": price, "returnType": 0,
        "stockLimit": 20, "lotFixed": false, "addressRequired": false, "addressLabel": null, "disabled": false,
        "disabledComment": null, "hidden": false, "deliveryMonth": "2099-08"
    })
}

/// A new draft at a fresh address with one return (手ぬぐい, 3,000円): its slug, id and the project as answered.
async fn draft_with_a_return(app: &TestApp, admin: &str) -> (String, i64, Value) {
    let slug = format!("heso-{}", &uuid::Uuid::new_v4().simple().to_string()[..8]);
    let (status, draft) = post(app, admin, "/v1/admin/projects", &project_input(&slug)).await;
    assert_eq!(status, 200, "{draft}");
    let id = draft["id"].as_i64().unwrap();
    let (status, project) =
        post(app, admin, &format!("/v1/admin/projects/{id}/returns"), &return_input("手ぬぐい", 3000)).await;
    assert_eq!(status, 200, "{project}");
    (slug, id, project)
}

async fn post(app: &TestApp, token: &str, path: &str, body: &Value) -> (u16, Value) {
    let response = app.post_json_with_token(path, token, body).await;
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn get(app: &TestApp, path: &str) -> (u16, Value) {
    let response = app.get(path).await;
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// Polls the public detail until `check` holds (public reads may be served from memory for a moment).
async fn eventually_public(app: &TestApp, slug: &str, check: impl Fn(u16, &Value) -> bool) -> (u16, Value) {
    let mut last = (0, Value::Null);
    for _ in 0..50 {
        last = get(app, &format!("/v1/project/get/detail?slug={slug}")).await;
        if check(last.0, &last.1) {
            return last;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("the public page never matched: {} {}", last.0, last.1);
}

#[tokio::test]
async fn an_operator_drafts_previews_publishes_and_edits_a_project_that_the_public_then_sees() {
    let app = spawn_demo_app().await;
    let admin = app.login(ADMIN, PASSWORD).await;
    let slug = format!("heso-{}", &uuid::Uuid::new_v4().simple().to_string()[..8]);

    let (status, draft) = post(&app, &admin, "/v1/admin/projects", &project_input(&slug)).await;
    assert_eq!(status, 200, "{draft}");
    assert_eq!(draft["state"], "draft");
    assert!(!draft["story"].as_str().unwrap().contains("script"), "the story is sanitised: {draft}");
    let id = draft["id"].as_i64().unwrap();

    // A draft is nowhere public: its page, the list, its returns' payment flow.
    assert_eq!(get(&app, &format!("/v1/project/get/detail?slug={slug}")).await.0, 404);
    let (_, master) = get(&app, "/v1/helper/get/master").await;
    assert!(!master.to_string().contains(&slug), "a draft is not listed");
    let (status, _) =
        post(&app, &admin, &format!("/v1/admin/projects/{id}/publish"), &json!({"publishAt": null})).await;
    assert_eq!(status, 400, "no return yet");

    let (status, with_returns) =
        post(&app, &admin, &format!("/v1/admin/projects/{id}/returns"), &return_input("手ぬぐい", 3000)).await;
    assert_eq!(status, 200, "{with_returns}");
    post(&app, &admin, &format!("/v1/admin/projects/{id}/returns"), &return_input("うちわ", 1000)).await;
    let preview: Value =
        app.get_with_token(&format!("/v1/admin/projects/{id}/preview"), &admin).await.json().await.unwrap();
    assert_eq!(preview["project"]["returns"].as_array().unwrap().len(), 2, "{preview}");

    let (status, published) =
        post(&app, &admin, &format!("/v1/admin/projects/{id}/publish"), &json!({"publishAt": null})).await;
    assert_eq!((status, published["state"].as_str()), (200, Some("open")), "{published}");
    assert_eq!(published["locked"]["goal"], true);
    let (_, page) = eventually_public(&app, &slug, |status, _| status == 200).await;
    assert!(page["project"]["content"].as_str().unwrap().contains("祭りを続けたい"));

    // The story is edited: the public page shows it; the goal is locked.
    let mut edited = project_input(&slug);
    edited["story"] = json!("<p>今年も開催します。</p>");
    let (status, _) = post(&app, &admin, &format!("/v1/admin/projects/{id}"), &edited).await;
    assert_eq!(status, 200);
    eventually_public(&app, &slug, |_, body| body.to_string().contains("今年も開催します")).await;
    edited["goal"] = json!(500000);
    let (status, refused) = post(&app, &admin, &format!("/v1/admin/projects/{id}"), &edited).await;
    assert_eq!((status, refused["field"].as_str()), (400, Some("goal")), "{refused}");
    assert_eq!(refused["message"], "公開後は目標金額を変更できません。");

    // The operator's changes are in the log, by action.
    let actions: Value = app.get_with_token("/v1/admin/get/actions?limit=20", &admin).await.json().await.unwrap();
    let codes: Vec<&str> = actions["actions"].as_array().unwrap().iter().filter_map(|a| a["action"].as_str()).collect();
    for code in ["project_created", "return_created", "project_published", "project_updated"] {
        assert!(codes.contains(&code), "{code} in {codes:?}");
    }
    let update = actions["actions"].as_array().unwrap().iter().find(|a| a["action"] == "project_updated").unwrap();
    assert!(update["detail"]["changes"]["storyLength"].is_array(), "{update}");
}

#[tokio::test]
async fn a_backed_return_keeps_its_price_and_cannot_be_deleted_but_can_be_paused() {
    let app = spawn_demo_app().await;
    let admin = app.login(ADMIN, PASSWORD).await;
    let (slug, id, project) = draft_with_a_return(&app, &admin).await;
    let ret = project["returns"][0]["id"].as_i64().unwrap();
    post(&app, &admin, &format!("/v1/admin/projects/{id}/publish"), &json!({"publishAt": null})).await;

    // A guest's bank transfer holds a lot.
    let guest = unique_email("heso");
    app.post_json("/v1/user/register", &json!({"email": guest, "isGuest": true})).await;
    let support = json!({
        "projectId": id, "returnId": ret, "lot": 1, "paymentType": 2, "guestEmail": guest,
        "idempotencyKey": uuid::Uuid::new_v4().to_string(), "displayname": "渋川 一郎",
        "agreeTerms": true, "notAntisocial": true
    });
    let response = app.post_json("/v1/payment/set/support", &support).await;
    assert_eq!(response.status(), 200, "{}", response.text().await.unwrap());

    let mut dearer = return_input("手ぬぐい", 5000);
    let (status, refused) = post(&app, &admin, &format!("/v1/admin/projects/{id}/returns/{ret}"), &dearer).await;
    assert_eq!((status, refused["message"].as_str()), (400, Some("支援のあるリターンの金額は変更できません。")));
    let (status, refused) =
        post(&app, &admin, &format!("/v1/admin/projects/{id}/returns/{ret}/delete"), &json!({})).await;
    assert_eq!(status, 400, "{refused}");
    assert!(refused["message"].as_str().unwrap().starts_with("支援のあるリターンは削除できません"));

    dearer["price"] = json!(3000);
    dearer["disabled"] = json!(true);
    dearer["disabledComment"] = json!("準備中です");
    let (status, paused) = post(&app, &admin, &format!("/v1/admin/projects/{id}/returns/{ret}"), &dearer).await;
    assert_eq!((status, paused["returns"][0]["backed"].as_bool()), (200, Some(true)), "{paused}");
    let (_, page) = eventually_public(&app, &slug, |_, body| body["project"]["returns"][0]["disabled"] == true).await;
    assert_eq!(page["project"]["returns"][0]["disabledComment"], "準備中です", "{page}");
}

#[tokio::test]
async fn a_monthly_return_in_a_course_offered_to_one_address_is_shown_to_that_member_only() {
    let app = spawn_demo_app().await;
    let admin = app.login(ADMIN, PASSWORD).await;
    let (slug, id, _) = draft_with_a_return(&app, &admin).await;
    let mut monthly = return_input("毎月の祭り通信", 1000);
    monthly["monthly"] = json!(true);
    let (status, refused) = post(&app, &admin, &format!("/v1/admin/projects/{id}/returns"), &monthly).await;
    assert_eq!((status, refused["field"].as_str()), (400, Some("stockLimit")), "{refused}");
    assert_eq!(refused["message"], "月額リターンの在庫数は無制限にしてください。");
    monthly["stockLimit"] = json!(null);
    monthly["course"] = json!("A");
    monthly["onlyFor"] = json!("nope");
    let (status, refused) = post(&app, &admin, &format!("/v1/admin/projects/{id}/returns"), &monthly).await;
    assert_eq!((status, refused["field"].as_str()), (400, Some("onlyFor")), "{refused}");
    monthly["onlyFor"] = json!("Demo-Taro@example.jp");
    let (status, project) = post(&app, &admin, &format!("/v1/admin/projects/{id}/returns"), &monthly).await;
    assert_eq!(status, 200, "{project}");
    let stored = &project["returns"][1];
    assert_eq!((stored["monthly"].as_bool(), stored["course"].as_str()), (Some(true), Some("A")), "{project}");
    assert_eq!(stored["onlyFor"], "demo-taro@example.jp");
    post(&app, &admin, &format!("/v1/admin/projects/{id}/publish"), &json!({"publishAt": null})).await;

    let (_, page) = eventually_public(&app, &slug, |status, _| status == 200).await;
    assert_eq!(page["project"]["returns"].as_array().unwrap().len(), 1, "hidden from everyone else: {page}");
    let member = app.login(MEMBER, PASSWORD).await;
    let mine: Value =
        app.get_with_token(&format!("/v1/project/get/detail?slug={slug}"), &member).await.json().await.unwrap();
    let offered = &mine["project"]["returns"][1];
    assert_eq!((offered["interval"].as_str(), offered["course"].as_str()), (Some("month"), Some("A")), "{mine}");
}

#[tokio::test]
async fn members_get_the_unknown_path_answer_and_bad_input_gets_field_messages() {
    let app = spawn_demo_app().await;
    let member = app.login(MEMBER, PASSWORD).await;
    let admin = app.login(ADMIN, PASSWORD).await;

    let (status, _) = post(&app, &member, "/v1/admin/projects", &project_input("member-made")).await;
    assert_eq!(status, 404);
    assert_eq!(app.get_with_token("/v1/admin/projects", &member).await.status(), 404);

    let mut bad = project_input("Bad Slug!");
    bad["title"] = json!("　");
    bad["acceptsCard"] = json!(false);
    bad["acceptsBankTransfer"] = json!(false);
    let (status, refused) = post(&app, &admin, "/v1/admin/projects", &bad).await;
    assert_eq!(status, 400);
    let fields: Vec<&str> = refused["errors"].as_array().unwrap().iter().filter_map(|e| e["field"].as_str()).collect();
    assert_eq!(fields, ["title", "slug", "acceptsCard"], "{refused}");
    let (status, taken) = post(&app, &admin, "/v1/admin/projects", &project_input("maebashi-rose-garden")).await;
    assert_eq!((status, taken["message"].as_str()), (400, Some("このURLは既に使われています。")));
    let malformed = app.get_with_token("/v1/admin/projects/not-a-number", &admin).await;
    assert_eq!(malformed.status(), 400);
    assert_eq!(malformed.json::<Value>().await.unwrap()["error"], "malformed_request");
    assert_eq!(app.get_with_token("/v1/admin/projects/987654", &admin).await.status(), 404);
    let (_, list) = {
        let response = app.get_with_token("/v1/admin/projects?state=open", &admin).await;
        (response.status().as_u16(), response.json::<Value>().await.unwrap())
    };
    assert!(list["projects"].as_array().unwrap().iter().all(|p| p["state"] == "open"), "{list}");
}

#[tokio::test]
async fn an_operator_hides_a_comment_with_a_reason_and_shows_it_again() {
    let app = spawn_demo_app().await;
    let admin = app.login(ADMIN, PASSWORD).await;
    let project = app.project_id("maebashi-rose-garden").await;
    let public_path = format!("/v1/comment/get/list?project_id={project}&page=1");
    let listed: Value =
        app.get_with_token(&format!("/v1/admin/projects/{project}/comments"), &admin).await.json().await.unwrap();
    let first = &listed["comments"][0];
    let (id, text) = (first["id"].as_i64().unwrap(), first["comment"].as_str().unwrap().to_string());
    assert_eq!(first["shown"], true);
    assert!(get(&app, &public_path).await.1.to_string().contains(&text));

    let (status, refused) = post(&app, &admin, &format!("/v1/admin/comments/{id}/hide"), &json!({"reason": " "})).await;
    assert_eq!((status, refused["field"].as_str()), (400, Some("reason")), "{refused}");
    assert_eq!(refused["message"], "非表示の理由を入力してください。");
    let (status, hidden) =
        post(&app, &admin, &format!("/v1/admin/comments/{id}/hide"), &json!({"reason": "個人情報が含まれるため"}))
            .await;
    assert_eq!((status, hidden["shown"].as_bool()), (200, Some(false)), "{hidden}");
    assert_eq!(hidden["hiddenReason"], "個人情報が含まれるため");
    let mut gone = false;
    for _ in 0..30 {
        if !get(&app, &public_path).await.1.to_string().contains(&text) {
            gone = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(gone, "the public list no longer shows the hidden comment");

    let (status, shown) = post(&app, &admin, &format!("/v1/admin/comments/{id}/show"), &json!({})).await;
    assert_eq!((status, shown["shown"].as_bool(), &shown["hiddenReason"]), (200, Some(true), &Value::Null));
    let actions: Value = app.get_with_token("/v1/admin/get/actions?limit=5", &admin).await.json().await.unwrap();
    let codes: Vec<&str> = actions["actions"].as_array().unwrap().iter().filter_map(|a| a["action"].as_str()).collect();
    assert_eq!(&codes[..2], ["comment_shown", "comment_hidden"]);
    let member = app.login(MEMBER, PASSWORD).await;
    let (status, _) = post(&app, &member, &format!("/v1/admin/comments/{id}/hide"), &json!({"reason": "x"})).await;
    assert_eq!(status, 404, "a member gets the unknown-path answer");
}

#[tokio::test]
async fn a_scheduled_project_stays_private_until_its_time_and_can_be_taken_back() {
    let app = spawn_demo_app().await;
    let admin = app.login(ADMIN, PASSWORD).await;
    let (slug, id, _) = draft_with_a_return(&app, &admin).await;
    let tomorrow = (chrono::Utc::now() + chrono::Duration::days(1)).to_rfc3339();

    let (status, scheduled) =
        post(&app, &admin, &format!("/v1/admin/projects/{id}/publish"), &json!({"publishAt": tomorrow})).await;
    assert_eq!((status, scheduled["state"].as_str()), (200, Some("scheduled")), "{scheduled}");
    assert_eq!(get(&app, &format!("/v1/project/get/detail?slug={slug}")).await.0, 404, "not public before its time");

    let (status, back) = post(&app, &admin, &format!("/v1/admin/projects/{id}/unschedule"), &json!({})).await;
    assert_eq!((status, back["state"].as_str(), &back["publishAt"]), (200, Some("draft"), &Value::Null));
    let (status, refused) = post(&app, &admin, &format!("/v1/admin/projects/{id}/unschedule"), &json!({})).await;
    assert_eq!((status, refused["field"].as_str()), (400, Some("state")), "{refused}");
}

#[tokio::test]
async fn a_donation_project_is_published_only_with_its_payout_date_and_its_statement_pays_on_that_day() {
    let app = spawn_demo_app().await;
    let admin = app.login(ADMIN, PASSWORD).await;
    let slug = format!("kifu-{}", &uuid::Uuid::new_v4().simple().to_string()[..8]);
    let mut input = project_input(&slug);
    input["taxHandling"] = json!("donation");
    let (status, draft) = post(&app, &admin, "/v1/admin/projects", &input).await;
    assert_eq!((status, &draft["donationPayoutDate"]), (200, &Value::Null), "{draft}");
    let id = draft["id"].as_i64().unwrap();
    post(&app, &admin, &format!("/v1/admin/projects/{id}/returns"), &return_input("お礼状", 3000)).await;

    let (status, refused) =
        post(&app, &admin, &format!("/v1/admin/projects/{id}/publish"), &json!({"publishAt": null})).await;
    assert_eq!(status, 400, "{refused}");
    assert!(refused.to_string().contains("寄附の支払日を入力してください。"), "{refused}");

    // A payout date on or before the end is refused on its field.
    input["donationPayoutDate"] = json!(end_day());
    let (status, refused) = post(&app, &admin, &format!("/v1/admin/projects/{id}"), &input).await;
    assert_eq!(status, 400, "{refused}");
    assert!(refused.to_string().contains("donationPayoutDate"), "{refused}");

    let payout_day = (chrono::Utc::now() + chrono::Duration::days(75)).format("%Y-%m-%d").to_string();
    input["donationPayoutDate"] = json!(payout_day);
    let (status, saved) = post(&app, &admin, &format!("/v1/admin/projects/{id}"), &input).await;
    assert_eq!((status, &saved["donationPayoutDate"]), (200, &json!(payout_day)), "{saved}");
    let (status, published) =
        post(&app, &admin, &format!("/v1/admin/projects/{id}/publish"), &json!({"publishAt": null})).await;
    assert_eq!(status, 200, "{published}");

    // Once it has succeeded, its statement pays out on the project's own date, not the terms' day.
    app.execute(&format!(
        "INSERT INTO project_closings (project_id, outcome, goal, counted, pending, checked_at, decided_at) \
         VALUES ({id}, 'succeeded', 300000, 0, 0, now(), now())"
    ));
    let statement: Value = app.get_with_token(&format!("/v1/admin/payouts/{id}"), &admin).await.json().await.unwrap();
    assert_eq!(statement["payoutDate"], json!(payout_day), "{statement}");
}

#[tokio::test]
async fn a_published_project_may_change_its_address_and_the_old_one_redirects_to_it_and_stays_its_own() {
    let frontend = crate::pages::frontend_dir();
    let app = spawn_demo_app_with(|s| s.frontend_dir = frontend.clone()).await;
    let admin = app.login(ADMIN, PASSWORD).await;
    let (slug, id, _) = draft_with_a_return(&app, &admin).await;
    post(&app, &admin, &format!("/v1/admin/projects/{id}/publish"), &json!({"publishAt": null})).await;

    let renamed = format!("{slug}-matsuri");
    let mut input = project_input(&renamed);
    let (status, saved) = post(&app, &admin, &format!("/v1/admin/projects/{id}"), &input).await;
    assert_eq!((status, saved["slug"].as_str()), (200, Some(renamed.as_str())), "{saved}");
    eventually_public(&app, &renamed, |status, _| status == 200).await;

    // The old page answers a permanent redirect to the new one (once the public read has the change).
    let plain = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let mut answer = None;
    for _ in 0..50 {
        let response = plain.get(format!("{}/projects/{slug}/", app.address)).send().await.unwrap();
        if response.status() == 301 {
            answer = response.headers().get("location").and_then(|l| l.to_str().ok()).map(str::to_string);
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(answer, Some(format!("/projects/{renamed}/")));
    let unknown = plain.get(format!("{}/projects/{slug}-nothing/", app.address)).send().await.unwrap();
    assert_eq!(unknown.status(), 404);

    // Another project cannot take the old address while it redirects.
    let (status, refused) = post(&app, &admin, "/v1/admin/projects", &project_input(&slug)).await;
    assert_eq!((status, refused["field"].as_str()), (400, Some("slug")), "{refused}");
    assert_eq!(refused["message"], "このURLは既に使われています。");

    // The project itself may take it back; the redirect then ends.
    input["slug"] = json!(slug);
    let (status, back) = post(&app, &admin, &format!("/v1/admin/projects/{id}"), &input).await;
    assert_eq!(status, 200, "{back}");
    assert_eq!(
        app.query_i64(&format!("SELECT count(*) AS value FROM project_slug_redirects WHERE project_id = {id}")),
        1,
        "only the address it left last"
    );
}

/// The personal names of the project's sponsor wall.
async fn personal_sponsors(app: &TestApp, project: i64) -> Vec<String> {
    let body: Value = app.get(&format!("/v1/sponsors/get/list?project_id={project}")).await.json().await.unwrap();
    body["personal"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap().to_string()).collect()
}

async fn until_sponsors(app: &TestApp, project: i64, check: impl Fn(&[String]) -> bool) -> Vec<String> {
    let mut names = vec![];
    for _ in 0..50 {
        names = personal_sponsors(app, project).await;
        if check(&names) {
            return names;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("the sponsor wall never matched: {names:?}");
}

#[tokio::test]
async fn an_operator_hides_a_supporters_name_with_a_reason_and_the_walls_show_anonymous_until_shown_again() {
    let app = spawn_demo_app().await;
    let admin = app.login(ADMIN, PASSWORD).await;
    let project = app.project_id("maebashi-rose-garden").await;
    let anonymous_before = personal_sponsors(&app, project).await.iter().filter(|n| *n == "匿名").count();

    let list: Value =
        app.get_with_token(&format!("/v1/admin/projects/{project}/supporters"), &admin).await.json().await.unwrap();
    let taro = list["supporters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "群馬 太郎")
        .unwrap_or_else(|| panic!("the named supporter in {list}"))
        .clone();
    assert_eq!(taro["hiddenReason"], Value::Null);
    let user = taro["userId"].as_i64().unwrap();
    let hide = format!("/v1/admin/projects/{project}/supporters/{user}/hide-name");

    // A reason is required; a member is nobody here.
    let (status, refused) = post(&app, &admin, &hide, &json!({"reason": " "})).await;
    assert_eq!((status, refused["field"].as_str()), (400, Some("reason")), "{refused}");
    let member = app.login(MEMBER, PASSWORD).await;
    assert_eq!(post(&app, &member, &hide, &json!({"reason": "不適切な表示名"})).await.0, 404);
    let stranger = format!("/v1/admin/projects/{project}/supporters/999999999/hide-name");
    assert_eq!(post(&app, &admin, &stranger, &json!({"reason": "不適切な表示名"})).await.0, 404);

    let (status, hidden) = post(&app, &admin, &hide, &json!({"reason": "不適切な表示名のため"})).await;
    assert_eq!((status, hidden["hiddenReason"].as_str()), (200, Some("不適切な表示名のため")), "{hidden}");
    let names = until_sponsors(&app, project, |names| !names.iter().any(|n| n == "群馬 太郎")).await;
    assert_eq!(names.iter().filter(|n| *n == "匿名").count(), anonymous_before + 1, "{names:?}");

    let (status, shown) =
        post(&app, &admin, &format!("/v1/admin/projects/{project}/supporters/{user}/show-name"), &json!({})).await;
    assert_eq!((status, &shown["hiddenReason"]), (200, &Value::Null), "{shown}");
    until_sponsors(&app, project, |names| names.iter().any(|n| n == "群馬 太郎")).await;

    let actions: Value = app.get_with_token("/v1/admin/get/actions?limit=5", &admin).await.json().await.unwrap();
    let codes: Vec<&str> = actions["actions"].as_array().unwrap().iter().filter_map(|a| a["action"].as_str()).collect();
    assert_eq!(&codes[..2], ["supporter_name_shown", "supporter_name_hidden"]);
}

#[tokio::test]
async fn an_empty_site_serves_an_empty_home_and_its_first_administrator_from_admin_emails_creates_the_first_project() {
    let email = unique_email("first-admin");
    let configured = email.clone();
    let frontend = crate::pages::frontend_dir();
    let app = spawn_app_with(move |s| {
        s.admin_emails = vec![configured];
        s.frontend_dir = frontend.clone();
    })
    .await;

    // Nothing is public yet: the home page and its list answer, empty, not an error.
    assert_eq!(app.get("/").await.status(), 200);
    let (status, master) = get(&app, "/v1/helper/get/master").await;
    assert_eq!((status, master["master"]["projects"].as_array().map(Vec::len)), (200, Some(0)), "{master}");
    let (status, list) = get(&app, "/v1/project/get/list").await;
    assert_eq!(status, 200, "{list}");

    // The configured address is the first operator as soon as it registers.
    app.register_member(&email, PASSWORD).await;
    let admin = app.login(&email, PASSWORD).await;
    let slug = format!("first-{}", &uuid::Uuid::new_v4().simple().to_string()[..8]);
    let (status, draft) = post(&app, &admin, "/v1/admin/projects", &project_input(&slug)).await;
    assert_eq!(status, 200, "{draft}");
    let id = draft["id"].as_i64().unwrap();
    post(&app, &admin, &format!("/v1/admin/projects/{id}/returns"), &return_input("手ぬぐい", 3000)).await;
    let (status, published) =
        post(&app, &admin, &format!("/v1/admin/projects/{id}/publish"), &json!({"publishAt": null})).await;
    assert_eq!(status, 200, "{published}");
    eventually_public(&app, &slug, |status, _| status == 200).await;
}
