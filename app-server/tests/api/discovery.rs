//! Finding projects through the real wiring: areas and categories set by operators and seeded for the demo.

use serde_json::{json, Value};

use crate::helpers::{spawn_demo_app, TestApp};

const ADMIN: &str = "demo-admin@example.jp";
const PASSWORD: &str = "demo-password-1";

async fn get(app: &TestApp, path: &str) -> (u16, Value) {
    let response = app.get(path).await;
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn post(app: &TestApp, token: &str, path: &str, body: &Value) -> (u16, Value) {
    let response = app.post_json_with_token(path, token, body).await;
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

fn end_day(days: i64) -> String {
    (chrono::Utc::now() + chrono::Duration::days(days)).format("%Y-%m-%d").to_string()
}

fn project_input(slug: &str, title: &str, area_id: Option<i64>, category_id: Option<i64>) -> Value {
    json!({
        "slug": slug, "title": title, "lead": "群馬のまちで始めます。", "story": "<p>物語</p>",
        "goal": 300000, "periodEnd": end_day(30), "fundingModel": "all_in", "taxHandling": "inclusive",
        "acceptsCard": true, "acceptsBankTransfer": true, "areaId": area_id, "categoryId": category_id
    })
}

/// The id of the area or category with `slug` in `GET /v1/project/get/areas`.
fn id_of(list: &Value, slug: &str) -> i64 {
    list.as_array().unwrap().iter().find(|t| t["slug"] == slug).unwrap_or_else(|| panic!("{slug}"))["id"]
        .as_i64()
        .unwrap()
}

fn unique_slug(prefix: &str) -> String {
    format!("{prefix}-{}", &uuid::Uuid::new_v4().simple().to_string()[..8])
}

#[tokio::test]
async fn the_areas_are_gunmas_35_municipalities_and_the_categories_the_seven_seeded_ones() {
    let app = spawn_demo_app().await;

    let (status, body) = get(&app, "/v1/project/get/areas").await;

    assert_eq!(status, 200, "{body}");
    let areas = body["areas"].as_array().unwrap();
    assert_eq!(areas.len(), 35);
    assert_eq!(areas[0], json!({"id": areas[0]["id"], "slug": "maebashi", "name": "前橋市"}));
    assert_eq!(areas[34]["name"], "邑楽町");
    let names: Vec<&str> = body["categories"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["食・農業", "文化・芸術", "子ども・教育", "自然・環境", "スポーツ", "まちづくり", "福祉・医療"]);
}

#[tokio::test]
async fn every_demo_project_has_an_area_and_a_category_on_its_card() {
    let app = spawn_demo_app().await;

    let (_, master) = get(&app, "/v1/helper/get/master").await;

    let projects = master["master"]["projects"].as_array().unwrap();
    assert_eq!(projects.len(), 7);
    for project in projects {
        assert!(project["area"]["slug"].is_string() && project["category"]["name"].is_string(), "{project}");
    }
    let takasaki = projects.iter().find(|p| p["slug"] == "takasaki-daruma").unwrap();
    assert_eq!((&takasaki["area"]["name"], &takasaki["category"]["name"]), (&json!("高崎市"), &json!("文化・芸術")));
}

#[tokio::test]
async fn an_operator_sets_changes_and_clears_a_projects_area_and_category() {
    let app = spawn_demo_app().await;
    let admin = app.login(ADMIN, PASSWORD).await;
    let (_, taxonomy) = get(&app, "/v1/project/get/areas").await;
    let (shibukawa, sports) = (id_of(&taxonomy["areas"], "shibukawa"), id_of(&taxonomy["categories"], "sports"));
    let kusatsu = id_of(&taxonomy["areas"], "kusatsu");
    let slug = unique_slug("heso");

    let (status, created) =
        post(&app, &admin, "/v1/admin/projects", &project_input(&slug, "へそ祭り", Some(shibukawa), Some(sports)))
            .await;
    assert_eq!(status, 200, "{created}");
    assert_eq!((created["areaId"].as_i64(), created["categoryId"].as_i64()), (Some(shibukawa), Some(sports)));
    let id = created["id"].as_i64().unwrap();

    let (status, moved) =
        post(&app, &admin, &format!("/v1/admin/projects/{id}"), &project_input(&slug, "へそ祭り", Some(kusatsu), None))
            .await;
    assert_eq!(status, 200, "{moved}");
    assert_eq!((moved["areaId"].as_i64(), &moved["categoryId"]), (Some(kusatsu), &Value::Null));

    // Left out, as an older client sends it: none.
    let mut without = project_input(&slug, "へそ祭り", None, None);
    without.as_object_mut().unwrap().retain(|key, _| key != "areaId" && key != "categoryId");
    let (status, cleared) = post(&app, &admin, &format!("/v1/admin/projects/{id}"), &without).await;
    assert_eq!(status, 200, "{cleared}");
    assert_eq!((&cleared["areaId"], &cleared["categoryId"]), (&Value::Null, &Value::Null));
}

#[tokio::test]
async fn an_area_or_category_not_on_the_list_is_refused_with_its_field() {
    let app = spawn_demo_app().await;
    let admin = app.login(ADMIN, PASSWORD).await;

    let (status, body) = post(
        &app,
        &admin,
        "/v1/admin/projects",
        &project_input(&unique_slug("nowhere"), "どこか", Some(999_999), None),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!((&body["field"], &body["message"]), (&json!("areaId"), &json!("地域を選び直してください。")));

    let (status, body) = post(
        &app,
        &admin,
        "/v1/admin/projects",
        &project_input(&unique_slug("nothing"), "なにか", None, Some(999_999)),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["field"], "categoryId");
}
