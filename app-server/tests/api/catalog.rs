//! Project lists and pages, paid totals, the public supporter list and news.

use serde_json::Value;

use crate::helpers::spawn_demo_app;

const PASSWORD: &str = "demo-password-1";

async fn json(resp: reqwest::Response) -> Value {
    resp.json().await.expect("json body")
}

#[tokio::test]
async fn the_home_lists_open_projects_first_and_publishes_no_email_address() {
    let app = spawn_demo_app().await;

    let resp = app.get("/v1/helper/get/master").await;

    assert_eq!(resp.status(), 200);
    let text = resp.text().await.unwrap();
    assert!(!text.contains('@'), "an e-mail address leaked: {text}");
    let body: Value = serde_json::from_str(&text).unwrap();
    let projects = body["master"]["projects"].as_array().unwrap();
    assert!(projects.len() >= 6);
    let open: Vec<bool> = projects.iter().map(|p| p["isOpen"].as_bool().unwrap()).collect();
    let first_ended = open.iter().position(|o| !o).unwrap();
    assert!(open[first_ended..].iter().all(|o| !o), "{open:?}");
    assert!(open[..first_ended].iter().all(|o| *o));
    assert_eq!(body["master"]["env"]["name"], "local");
    let card = &projects[0];
    for key in
        ["id", "slug", "title", "target", "period", "urls", "isDonation", "taxIncludes", "daysLeft", "sum", "progress"]
    {
        assert!(!card[key].is_null(), "{key} missing in {card}");
    }
}

#[tokio::test]
async fn totals_count_only_paid_sales() {
    let app = spawn_demo_app().await;
    let id = app.project_id("maebashi-rose-garden").await;
    let paid = app.query_i64(&format!(
        "SELECT sum(total - refunded_amount)::bigint AS value FROM sales WHERE project_id = {id} AND status = 'succeeded'"
    ));
    let all_sales = app
        .query_i64(&format!("SELECT sum(total - refunded_amount)::bigint AS value FROM sales WHERE project_id = {id}"));
    assert!(all_sales > paid, "the demo has an unpaid bank transfer");

    let project: Value = json(app.get(&format!("/v1/sales/get/sum?type=project&id={id}")).await).await;
    let all: Value = json(app.get("/v1/sales/get/allSum").await).await;

    assert_eq!(project["result"]["amount"], paid);
    assert_eq!(
        all["result"]["amount"],
        app.query_i64("SELECT sum(total - refunded_amount)::bigint AS value FROM sales WHERE status = 'succeeded'")
    );
    assert_eq!(
        all["result"]["lot"],
        app.query_i64("SELECT count(*) AS value FROM sales WHERE status = 'succeeded' AND total > refunded_amount")
    );
    let ret =
        app.query_i64(&format!("SELECT id AS value FROM returns WHERE project_id = {id} AND slug = 'rose-seedling'"));
    let by_return: Value = json(app.get(&format!("/v1/sales/get/sum?type=return&id={ret}")).await).await;
    assert_eq!(by_return["result"], serde_json::json!({"amount": 30000, "lot": 2}));
}

#[tokio::test]
async fn bad_sum_queries_get_json_errors() {
    let app = spawn_demo_app().await;

    let non_numeric = app.get("/v1/sales/get/sum?type=project&id=abc").await;
    assert_eq!(non_numeric.status(), 400);
    assert_eq!(json(non_numeric).await["error"], "malformed_request");

    let bad_type = app.get("/v1/sales/get/sum?type=user&id=1").await;
    assert_eq!(bad_type.status(), 400);
    assert_eq!(json(bad_type).await["error"], "validation_failed");

    let unknown = app.get("/v1/sales/get/sum?type=project&id=999999").await;
    assert_eq!(unknown.status(), 404);
    assert_eq!(json(unknown).await["error"], "not_found");

    let missing = app.get("/v1/sales/get/list").await;
    assert_eq!(missing.status(), 400);
}

#[tokio::test]
async fn an_unknown_slug_is_a_json_404() {
    let app = spawn_demo_app().await;

    let resp = app.get("/v1/project/get/detail?slug=no-such-project").await;

    assert_eq!(resp.status(), 404);
    assert_eq!(json(resp).await["error"], "not_found");
}

#[tokio::test]
async fn a_project_page_shows_availability_and_never_the_hidden_or_someone_elses_return() {
    let app = spawn_demo_app().await;

    let body = json(app.get("/v1/project/get/detail?slug=maebashi-rose-garden").await).await;

    let project = &body["project"];
    assert_eq!(project["slider"].as_array().unwrap().len(), 4);
    assert!(!project["content"].as_str().unwrap().contains("target="));
    let returns = project["returns"].as_array().unwrap();
    let by_slug = |slug: &str| returns.iter().find(|r| r["slug"] == slug).cloned();
    assert!(by_slug("staff-only").is_none(), "flag 900 return was sent");
    assert!(by_slug("vip-dinner").is_none(), "restricted return was sent to an anonymous visitor");
    let sold_out = by_slug("garden-name-plate").unwrap();
    assert_eq!((sold_out["remaining"].as_i64(), sold_out["blockReason"].as_str()), (Some(0), Some("sold_out")));
    assert_eq!(sold_out["blockMessage"], "支援上限に達しました");
    // 30 seedlings: 1 + 2 paid and 2 awaiting a bank transfer hold stock.
    let seedling = by_slug("rose-seedling").unwrap();
    assert_eq!((seedling["limit"].as_i64(), seedling["remaining"].as_i64()), (Some(30), Some(25)));
    assert_eq!(seedling["addressRequired"], true);
    let disabled = by_slug("guided-tour").unwrap();
    assert_eq!((disabled["blockReason"].as_str(), disabled["disabledComment"].is_string()), (Some("disabled"), true));
    let unlimited = by_slug("thanks-mail").unwrap();
    assert_eq!((unlimited["limit"].is_null(), unlimited["purchasable"].as_bool()), (true, Some(true)));
    assert_eq!(
        (unlimited["price"].as_i64(), unlimited["tax"].as_i64(), unlimited["taxLabel"].as_str()),
        (Some(3000), Some(272), Some("税込"))
    );
    assert_eq!(by_slug("one-time-workshop").unwrap()["lotDisable"], true);
    assert_eq!(by_slug("company-gold").unwrap()["type"], 1);
}

#[tokio::test]
async fn the_invited_member_sees_the_return_restricted_to_their_address() {
    let app = spawn_demo_app().await;
    let vip = app.login("demo-vip@example.jp", PASSWORD).await;
    let other = app.login("demo-taro@example.jp", PASSWORD).await;

    let for_vip = json(app.get_with_token("/v1/project/get/detail?slug=maebashi-rose-garden", &vip).await).await;
    let for_other = json(app.get_with_token("/v1/project/get/detail?slug=maebashi-rose-garden", &other).await).await;
    let with_junk = app.get_with_token("/v1/project/get/detail?slug=maebashi-rose-garden", "junk").await;

    let has_vip =
        |body: &Value| body["project"]["returns"].as_array().unwrap().iter().any(|r| r["slug"] == "vip-dinner");
    assert!(has_vip(&for_vip));
    assert!(!has_vip(&for_other));
    assert_eq!(with_junk.status(), 200, "an invalid token still shows the public page");
}

#[tokio::test]
async fn ended_donation_and_bank_projects_say_so() {
    let app = spawn_demo_app().await;

    let kiryu = json(app.get("/v1/project/get/detail?slug=kiryu-textile").await).await;
    let isesaki = json(app.get("/v1/project/get/detail?slug=isesaki-kodomo-shokudo").await).await;
    let takasaki = json(app.get("/v1/project/get/detail?slug=takasaki-daruma").await).await;

    assert_eq!((kiryu["project"]["isOpen"].as_bool(), kiryu["project"]["daysLeft"].as_i64()), (Some(false), Some(0)));
    assert!(kiryu["project"]["returns"].as_array().unwrap().iter().all(|r| r["blockReason"] == "ended"));
    assert_eq!(isesaki["project"]["isDonation"], true);
    assert_eq!(isesaki["project"]["anonymousBank"]["bankAccount"], "群馬中央銀行");
    assert!(isesaki["project"]["returns"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["tax"] == 0 && r["taxLabel"] == "非課税"));
    assert!(takasaki["project"]["honorImgUrl"].is_string() && takasaki["project"]["ImgUrlLink"].is_string());
    assert!(takasaki["project"]["slider"].as_array().unwrap().is_empty());
    let mini = &takasaki["project"]["returns"][0];
    assert_eq!(
        (mini["price"].as_i64(), mini["tax"].as_i64(), mini["total"].as_i64(), mini["taxLabel"].as_str()),
        (Some(3000), Some(300), Some(3300), Some("税別"))
    );
}

#[tokio::test]
async fn the_supporter_list_publishes_no_email_user_id_or_amount_and_masks_anonymous_supporters() {
    let app = spawn_demo_app().await;
    let id = app.project_id("maebashi-rose-garden").await;

    let text = app.get(&format!("/v1/sales/get/list?project_id={id}")).await.text().await.unwrap();

    assert!(!text.contains('@'));
    for forbidden in ["user_id", "amount", "email", "total", "price"] {
        assert!(!text.contains(forbidden), "{forbidden} in {text}");
    }
    let body: Value = serde_json::from_str(&text).unwrap();
    let data = body["data"].as_array().unwrap();
    assert_eq!(
        data.len() as i64,
        app.query_i64(&format!("SELECT count(*) AS value FROM sales WHERE project_id = {id} AND status = 'succeeded'"))
    );
    let anonymous: Vec<&Value> = data.iter().filter(|s| s["displayname"]["displayname"] == "匿名").collect();
    assert!(!anonymous.is_empty());
    assert!(anonymous
        .iter()
        .all(|s| s["users"]["corporatename"].is_null() && s["users"]["urls"]["logo"].as_array().unwrap().is_empty()));
    assert!(data.iter().any(|s| s["users"]["urls"]["logo"][0]["url"].is_string()));
    assert!(!text.contains("株式会社しののめ"), "the anonymous company was unmasked");
}

#[tokio::test]
async fn news_come_newest_first_with_tokyo_timestamps() {
    let app = spawn_demo_app().await;
    let id = app.project_id("maebashi-rose-garden").await;

    let body = json(app.get(&format!("/v1/information/get/list?project_id={id}")).await).await;

    let items = body["resInformation"].as_array().unwrap();
    assert_eq!(items.len(), 3);
    assert_eq!(items[0]["title"], "植え替えボランティアを募集します");
    assert!(items[1]["description"].is_null());
    let dates: Vec<&str> = items.iter().map(|i| i["updated_at"].as_str().unwrap()).collect();
    assert!(dates.iter().all(|d| d.ends_with("+09:00")));
    assert!(dates.windows(2).all(|w| w[0] >= w[1]));
    assert_eq!(app.get("/v1/information/get/list?project_id=x").await.status(), 400);
    assert_eq!(app.get("/v1/information/get/list?project_id=999999").await.status(), 404);
}

#[tokio::test]
async fn demo_images_are_served_from_the_media_directory() {
    let app = spawn_demo_app().await;

    let svg = app.get("/media/demo/maebashi-main.svg").await;
    let png = app.get("/media/demo/logo-jomo-denki.png").await;

    assert_eq!(svg.status(), 200);
    assert!(svg.headers()["cache-control"].to_str().unwrap().contains("max-age"));
    assert!(svg.text().await.unwrap().starts_with("<svg"));
    assert_eq!(png.headers()["content-type"], "image/png");
}

/// The tax rule end to end: each return card's tax-included figure comes from the domain's price function, and
/// every demo sale of that return stored exactly what that function gives for its lots (so the supporter was
/// charged the figure the screen showed), with the tax the total contains and its project's mode.
#[tokio::test]
async fn every_demo_sale_stored_the_tax_included_total_its_return_card_shows() {
    use domain::lot::Lot;
    use domain::money::{PriceBreakdown, TaxMode, TaxRate, Yen};
    let app = spawn_demo_app().await;
    let slugs = [
        "maebashi-rose-garden",
        "takasaki-daruma",
        "kiryu-textile",
        "isesaki-kodomo-shokudo",
        "ota-monozukuri",
        "numata-apple",
        "tomioka-silk-walk",
    ];
    let mut checked = 0;

    for slug in slugs {
        let body = json(app.get(&format!("/v1/project/get/detail?slug={slug}")).await).await;
        for card in body["project"]["returns"].as_array().unwrap() {
            let mode = match card["taxLabel"].as_str().unwrap() {
                "税込" => TaxMode::Inclusive,
                "税別" => TaxMode::Exclusive,
                _ => TaxMode::Exempt,
            };
            let price = card["price"].as_i64().unwrap();
            let priced = |lot: i64| {
                PriceBreakdown::compute(Yen(price), Lot::parse(lot).unwrap(), TaxRate::STANDARD, mode).unwrap()
            };
            assert_eq!(
                (card["tax"].as_i64(), card["total"].as_i64()),
                (Some(priced(1).tax.0), Some(priced(1).total.0))
            );
            let expected = (1..=10)
                .map(|lot| {
                    let b = priced(lot);
                    format!(
                        "({lot}, {}, {}, {}, '{}', {})",
                        b.amount.0,
                        b.tax.0,
                        b.total.0,
                        mode.code(),
                        b.rate.percent()
                    )
                })
                .collect::<Vec<_>>()
                .join(", ");
            let id = card["id"].as_i64().unwrap();
            let of_return = app.query_i64(&format!("SELECT count(*) AS value FROM sales WHERE return_id = {id}"));
            let matching = app.query_i64(&format!(
                "SELECT count(*) AS value FROM sales s JOIN (VALUES {expected}) AS v(lot, amount, tax, total, mode, rate) \
                   ON v.lot = s.lot \
                 WHERE s.return_id = {id} AND s.price = {price} \
                   AND (s.amount, s.tax, s.total, s.tax_mode, s.tax_rate_percent::int) = (v.amount, v.tax, v.total, v.mode, v.rate)"
            ));
            assert_eq!(matching, of_return, "return {slug}/{}: a sale differs from the domain's price", card["slug"]);
            checked += of_return;
        }
    }
    assert!(checked > 20, "only {checked} demo sales were checked");
    assert!(app.query_i64("SELECT count(*) AS value FROM sales WHERE tax_mode = 'inclusive' AND tax > 0") > 0);
}
