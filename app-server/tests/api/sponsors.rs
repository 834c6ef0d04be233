//! The sponsor block of a project page and the footer sponsors.

use serde_json::Value;

use crate::helpers::spawn_demo_app;

#[tokio::test]
async fn the_sponsor_wall_tiers_companies_by_amount_and_lists_personal_names() {
    let app = spawn_demo_app().await;
    let id = app.project_id("maebashi-rose-garden").await;

    let resp = app.get(&format!("/v1/sponsors/get/list?project_id={id}")).await;

    assert_eq!(resp.status(), 200);
    let text = resp.text().await.unwrap();
    assert!(!text.contains("amount") && !text.contains('@'));
    let body: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(body["manual"], false);
    let names = |key: &str| -> Vec<(String, String)> {
        body["corporate"][key]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| (s["name"].as_str().unwrap().to_string(), s["tier"].as_str().unwrap().to_string()))
            .collect()
    };
    assert_eq!(
        names("size3"),
        vec![
            ("上毛電機株式会社".to_string(), "largest".to_string()),
            ("赤城食品株式会社".to_string(), "large".to_string())
        ]
    );
    assert_eq!(names("size2"), vec![("NPO法人はるなの森".to_string(), "medium".to_string())]);
    assert_eq!(names("size1"), vec![("有限会社榛名印刷".to_string(), "small".to_string())]);
    assert!(body["corporate"]["size3"][0]["img"].as_str().unwrap().ends_with(".png"));
    let personal: Vec<&str> =
        body["personal"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert!(personal.contains(&"匿名") && personal.contains(&"群馬 太郎"));
    assert!(!text.contains("株式会社しののめ"), "the anonymous company was unmasked");
    assert!(body["courses"].is_null());
}

#[tokio::test]
async fn a_project_with_a_manual_list_answers_its_courses() {
    let app = spawn_demo_app().await;
    let id = app.project_id("kiryu-textile").await;

    let body: Value = app.get(&format!("/v1/sponsors/get/list?project_id={id}")).await.json().await.unwrap();

    assert_eq!(body["manual"], true);
    assert_eq!(body["courses"]["A"].as_array().unwrap().len(), 2);
    assert_eq!(body["courses"]["B"].as_array().unwrap().len(), 3);
    assert_eq!(body["courses"]["C"].as_array().unwrap().len(), 4);
    assert!(body["courses"]["A"][0]["src"].is_string());
    assert_eq!(body["courses"]["supporters"].as_array().unwrap().len(), 4);
}

#[tokio::test]
async fn the_footer_lists_company_sponsors_by_tier_and_hides_on_the_project_that_asks() {
    let app = spawn_demo_app().await;

    let all: Value = app.get("/v1/sponsors/get/footer").await.json().await.unwrap();
    let hidden: Value = app.get("/v1/sponsors/get/footer?slug=ota-monozukuri").await.json().await.unwrap();
    let elsewhere: Value = app.get("/v1/sponsors/get/footer?slug=maebashi-rose-garden").await.json().await.unwrap();

    assert_eq!(all["hidden"], false);
    // 上毛電機: 600,000 (前橋) + 60,000 (太田).
    assert_eq!(all["tiers"]["LL"][0]["name"], "上毛電機株式会社");
    assert_eq!(all["tiers"]["L"][0]["name"], "赤城食品株式会社");
    for tier in ["LL", "L", "M", "S"] {
        assert!(all["tiers"][tier].is_array());
    }
    assert_eq!(hidden["hidden"], true);
    assert!(hidden["tiers"]["LL"].as_array().unwrap().is_empty());
    assert_eq!(elsewhere["hidden"], false);
}

#[tokio::test]
async fn sponsors_of_an_unknown_or_non_numeric_project_are_json_errors() {
    let app = spawn_demo_app().await;

    assert_eq!(app.get("/v1/sponsors/get/list?project_id=999999").await.status(), 404);
    let bad = app.get("/v1/sponsors/get/list?project_id=abc").await;
    assert_eq!(bad.status(), 400);
    assert_eq!(bad.json::<Value>().await.unwrap()["error"], "malformed_request");
}
