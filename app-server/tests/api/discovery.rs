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

/// The slugs of a list answer, in order.
fn slugs_of(body: &Value) -> Vec<String> {
    body["projects"].as_array().unwrap().iter().map(|p| p["slug"].as_str().unwrap().to_string()).collect()
}

#[tokio::test]
async fn the_list_filters_by_area_category_and_state_and_answers_cards_with_the_total() {
    let app = spawn_demo_app().await;

    let (status, all) = get(&app, "/v1/project/get/list").await;
    assert_eq!(status, 200, "{all}");
    assert_eq!((all["total"].as_u64(), all["page"].as_u64(), all["pageSize"].as_u64()), (Some(7), Some(1), Some(24)));
    let card = &all["projects"][0];
    assert!(card["sum"]["amount"].is_i64() && card["progress"]["card"].is_number() && card["area"]["slug"].is_string());

    let (_, culture) = get(&app, "/v1/project/get/list?category=culture-arts").await;
    let mut found = slugs_of(&culture);
    found.sort();
    assert_eq!(found, ["kiryu-textile", "takasaki-daruma", "tomioka-silk-walk"]);

    let (_, open_culture) = get(&app, "/v1/project/get/list?category=culture-arts&state=open").await;
    assert!(!slugs_of(&open_culture).contains(&"kiryu-textile".to_string()), "kiryu has ended: {open_culture}");
    assert_eq!(open_culture["total"], 2);

    let (_, takasaki) = get(&app, "/v1/project/get/list?area=takasaki").await;
    assert_eq!(slugs_of(&takasaki), ["takasaki-daruma"]);

    let (_, ended) = get(&app, "/v1/project/get/list?state=ended").await;
    let mut found = slugs_of(&ended);
    found.sort();
    assert_eq!(found, ["kiryu-textile", "numata-apple"]);

    let (status, nowhere) = get(&app, "/v1/project/get/list?area=atlantis").await;
    assert_eq!((status, &nowhere["total"], slugs_of(&nowhere).len()), (200, &json!(0), 0), "{nowhere}");
}

#[tokio::test]
async fn ending_soon_puts_the_ota_project_first_and_ended_ones_last() {
    let app = spawn_demo_app().await;

    let (_, list) = get(&app, "/v1/project/get/list?sort=ending").await;

    let slugs = slugs_of(&list);
    assert_eq!(slugs[0], "ota-monozukuri", "{slugs:?}");
    assert_eq!(&slugs[5..], ["kiryu-textile", "numata-apple"], "the most recently ended first");
    let (_, raised) = get(&app, "/v1/project/get/list?sort=raised").await;
    let amounts: Vec<i64> =
        raised["projects"].as_array().unwrap().iter().map(|p| p["sum"]["amount"].as_i64().unwrap()).collect();
    assert!(amounts.windows(2).all(|w| w[0] >= w[1]), "{amounts:?}");
}

#[tokio::test]
async fn a_katakana_or_half_width_keyword_finds_a_title_written_in_hiragana() {
    let app = spawn_demo_app().await;

    for query in
        ["%E3%83%90%E3%83%A9", "%EF%BE%8A%EF%BE%9E%EF%BE%97", "%E3%82%B3%E3%83%89%E3%83%A2%20%E9%A3%9F%E5%A0%82"]
    {
        let (status, body) = get(&app, &format!("/v1/project/get/list?q={query}")).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["total"], 1, "{query}: {body}");
    }
    let (_, bara) = get(&app, "/v1/project/get/list?q=%E3%83%90%E3%83%A9").await; // バラ
    assert_eq!(slugs_of(&bara), ["maebashi-rose-garden"]);
    let (_, nothing) = get(&app, "/v1/project/get/list?q=%E3%81%B6%E3%81%A9%E3%81%86%E7%8B%A9%E3%82%8A").await; // ぶどう狩り
    assert_eq!(nothing["total"], 0);
}

#[tokio::test]
async fn a_long_keyword_or_a_bad_parameter_is_refused_with_its_name() {
    let app = spawn_demo_app().await;
    let long = "%E3%81%82".repeat(101);

    let (status, body) = get(&app, &format!("/v1/project/get/list?q={long}")).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(
        (&body["message"], &body["field"]),
        (&json!("キーワードは100文字以内で入力してください。"), &json!("q"))
    );
    for (query, field) in [
        ("sort=amount", "sort"),
        ("state=closed", "state"),
        ("page=0", "page"),
        ("page=1001", "page"),
        ("area=%E5%89%8D", "area"),
    ] {
        let (status, body) = get(&app, &format!("/v1/project/get/list?{query}")).await;
        assert_eq!((status, &body["field"]), (400, &json!(field)), "{query}: {body}");
    }
    let (status, body) = get(&app, "/v1/project/get/list?page=two").await;
    assert_eq!((status, &body["error"]), (400, &json!("malformed_request")), "{body}");
}

#[tokio::test]
async fn a_draft_is_never_listed_found_or_related() {
    let app = spawn_demo_app().await;
    let admin = app.login(ADMIN, PASSWORD).await;
    let (_, taxonomy) = get(&app, "/v1/project/get/areas").await;
    let (maebashi, community) = (id_of(&taxonomy["areas"], "maebashi"), id_of(&taxonomy["categories"], "community"));
    let slug = unique_slug("himitsu");
    let (status, created) = post(
        &app,
        &admin,
        "/v1/admin/projects",
        &project_input(&slug, "ひみつのばら園計画", Some(maebashi), Some(community)),
    )
    .await;
    assert_eq!(status, 200, "{created}");

    let (_, found) = get(&app, "/v1/project/get/list?q=%E3%81%B2%E3%81%BF%E3%81%A4").await; // ひみつ
    assert_eq!(found["total"], 0, "{found}");
    let (_, listed) = get(&app, "/v1/project/get/list?area=maebashi").await;
    assert_eq!(slugs_of(&listed), ["maebashi-rose-garden"]);
    let (_, detail) = get(&app, "/v1/project/get/detail?slug=maebashi-rose-garden").await;
    assert!(detail["project"]["related"].as_array().unwrap().iter().all(|p| p["slug"] != slug.as_str()));
}

#[tokio::test]
async fn a_project_page_ends_with_open_projects_of_its_area_or_category() {
    let app = spawn_demo_app().await;

    let (_, detail) = get(&app, "/v1/project/get/detail?slug=takasaki-daruma").await;

    let related = detail["project"]["related"].as_array().unwrap();
    let slugs: Vec<&str> = related.iter().map(|p| p["slug"].as_str().unwrap()).collect();
    // The other culture projects: Tomioka is open, Kiryu has ended.
    assert_eq!(slugs, ["tomioka-silk-walk"]);
    assert_eq!(related[0]["category"]["slug"], "culture-arts");
}
