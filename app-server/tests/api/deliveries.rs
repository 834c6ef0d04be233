//! Shipping the returns through the real wiring: the operator's list of the demo rose garden's paid sales, the
//! CSV for Excel, a sale marked 発送済み with a tracking note (audit log, one mail, seen in the member's payment
//! history), marking it again, and what others and unpaid sales get.

use serde_json::{json, Value};

use crate::helpers::{spawn_demo_app, TestApp};

const MEMBER: &str = "demo-taro@example.jp";
const OTHER: &str = "demo-hanako@example.jp";
const ADMIN: &str = "demo-admin@example.jp";
const PASSWORD: &str = "demo-password-1";
const ROSE: &str = "maebashi-rose-garden";

fn sale(app: &TestApp, key: &str) -> i64 {
    app.query_i64(&format!("SELECT id AS value FROM sales WHERE idempotency_key = 'demo-{key}'"))
}

async fn answer(response: reqwest::Response) -> (u16, Value) {
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// Today in Tokyo, as the server checks the shipping day against it.
fn today() -> String {
    chrono::Utc::now().with_timezone(&domain::time::tokyo()).date_naive().to_string()
}

fn history_entry(history: &Value, sale: i64) -> Value {
    history["data"].as_array().unwrap().iter().find(|s| s["id"] == sale).cloned().unwrap_or(Value::Null)
}

/// The mails to the member whose text holds `note`, waiting up to 20 s for one (others may be there already).
async fn shipping_mails(app: &TestApp, note: &str) -> Vec<Value> {
    let mut found = Vec::new();
    for _ in 0..200 {
        found = app
            .mails_to(MEMBER, 1)
            .await
            .into_iter()
            .filter(|m| m["text"].as_str().is_some_and(|t| t.contains(note)))
            .collect();
        if !found.is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    found
}

#[tokio::test]
async fn the_operator_marks_a_paid_sale_shipped_once_and_the_member_sees_it_with_the_tracking_note() {
    let app = spawn_demo_app().await;
    let admin = app.login(ADMIN, PASSWORD).await;
    let member = app.login(MEMBER, PASSWORD).await;
    let project = app.project_id(ROSE).await;
    let paid = sale(&app, "maebashi-06");
    let awaiting = sale(&app, "maebashi-13");
    let base = format!("/v1/admin/projects/{project}/deliveries");

    // The list: paid sales only, 未発送 at first; the transfer not yet received is not there.
    let (status, list) = answer(app.get_with_token(&base, &admin).await).await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(list["project"]["title"], "前橋ばら園 花壇よみがえりプロジェクト");
    let ids: Vec<i64> = list["deliveries"].as_array().unwrap().iter().map(|d| d["saleId"].as_i64().unwrap()).collect();
    assert!(ids.contains(&paid) && !ids.contains(&awaiting), "{ids:?}");
    let row = list["deliveries"].as_array().unwrap().iter().find(|d| d["saleId"] == paid).unwrap().clone();
    assert_eq!((row["email"].as_str(), row["lot"].as_i64()), (Some(MEMBER), Some(2)));
    assert_eq!(row["displayname"], "群馬 太郎");
    assert_eq!(row["paymentLabel"], "支払い済み");
    assert_eq!(row["delivery"], json!({"state": "unshipped", "label": "未発送", "shippedOn": null, "note": null}));
    assert_eq!(
        history_entry(&app.get_with_token("/v1/sales/get/list?user_id=me", &member).await.json().await.unwrap(), paid)
            ["delivery"]["label"],
        "未発送"
    );

    // An unpaid transfer cannot be marked; nothing changes.
    let note = format!("ヤマト運輸 {}", uuid::Uuid::new_v4().simple());
    let ship = |sales: Vec<i64>| json!({"saleIds": sales, "state": "shipped", "shippedOn": today(), "note": note});
    let (status, refused) = answer(app.post_json_with_token(&base, &admin, &ship(vec![paid, awaiting])).await).await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(refused["field"], "saleIds");
    assert_eq!(app.query_i64("SELECT count(*) AS value FROM sale_deliveries"), 0);

    // Another member cannot mark it: the 404 of an unknown path.
    let other = app.login(OTHER, PASSWORD).await;
    let (status, _) = answer(app.post_json_with_token(&base, &other, &ship(vec![paid])).await).await;
    assert_eq!(status, 404);
    let (status, _) = answer(app.post_json_with_token(&base, &member, &ship(vec![paid])).await).await;
    assert_eq!(status, 404);

    let (status, marked) = answer(app.post_json_with_token(&base, &admin, &ship(vec![paid])).await).await;
    assert_eq!(status, 200, "{marked}");
    assert_eq!(marked, json!({"changed": 1, "unchanged": 0, "mailed": 1}));

    // Marking it again (a double click) changes and mails nothing.
    let (status, again) = answer(app.post_json_with_token(&base, &admin, &ship(vec![paid])).await).await;
    assert_eq!(status, 200);
    assert_eq!(again, json!({"changed": 0, "unchanged": 1, "mailed": 0}));
    let queued = app.query_i64(&format!(
        "SELECT count(*) AS value FROM background_jobs WHERE kind = 'send_mail' AND payload::text LIKE '%{}%'",
        note.split(' ').next_back().unwrap()
    ));
    assert_eq!(queued, 1, "one shipping mail");
    let mails = shipping_mails(&app, &note).await;
    assert_eq!(mails.len(), 1, "the mail arrives once");
    assert!(mails[0]["subject"].as_str().unwrap().ends_with("リターンを発送しました"));

    // The member's payment history says 発送済み with the day and the note; another member's does not list it.
    let history: Value = app.get_with_token("/v1/sales/get/list?user_id=me", &member).await.json().await.unwrap();
    assert_eq!(
        history_entry(&history, paid)["delivery"],
        json!({"state": "shipped", "label": "発送済み", "shippedOn": today(), "note": note})
    );
    let others: Value = app.get_with_token("/v1/sales/get/list?user_id=me", &other).await.json().await.unwrap();
    assert_eq!(history_entry(&others, paid), Value::Null);

    // The audit log names it.
    let actions: Value = app.get_with_token("/v1/admin/get/actions", &admin).await.json().await.unwrap();
    let entry = &actions["actions"][0];
    assert_eq!(entry["action"], "deliveries_marked", "{actions}");
    assert_eq!(entry["detail"]["changes"]["state"], json!(["未発送", "発送済み"]));

    // Filters: shipped finds it, unshipped does not.
    let (_, shipped) = answer(app.get_with_token(&format!("{base}?state=shipped"), &admin).await).await;
    assert_eq!(shipped["total"], 1);
    assert_eq!(shipped["deliveries"][0]["saleId"], paid);
    let (_, unshipped) = answer(app.get_with_token(&format!("{base}?state=unshipped"), &admin).await).await;
    assert!(unshipped["deliveries"].as_array().unwrap().iter().all(|d| d["saleId"] != paid));

    // Back to 未発送 (a mistake): written, not mailed.
    let (status, undone) =
        answer(app.post_json_with_token(&base, &admin, &json!({"saleIds": [paid], "state": "unshipped"})).await).await;
    assert_eq!(status, 200);
    assert_eq!(undone, json!({"changed": 1, "unchanged": 0, "mailed": 0}));
}

#[tokio::test]
async fn the_csv_opens_in_excel_with_a_bom_crlf_and_the_delivery_columns() {
    let app = spawn_demo_app().await;
    let admin = app.login(ADMIN, PASSWORD).await;
    let project = app.project_id(ROSE).await;
    let path = format!("/v1/admin/projects/{project}/deliveries/export.csv?state=all");

    let response = app.get_with_token(&path, &admin).await;

    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "text/csv; charset=utf-8");
    assert_eq!(
        response.headers()["content-disposition"],
        format!("attachment; filename=\"deliveries-{project}.csv\"").as_str()
    );
    let bytes = response.bytes().await.unwrap();
    assert_eq!(&bytes[..3], [0xef, 0xbb, 0xbf], "Excel reads UTF-8 by its byte-order mark");
    let text = String::from_utf8(bytes[3..].to_vec()).unwrap();
    let header = text.split("\r\n").next().unwrap();
    assert_eq!(
        header,
        "\"支援ID\",\"支援日\",\"会員ID\",\"リターンID\",\"リターン\",\"口数\",\"表示名\",\"メールアドレス\",\
         \"お届け先氏名\",\"電話番号\",\"郵便番号\",\"都道府県\",\"市区町村\",\"番地\",\"建物名\",\"追加質問\",\
         \"追加質問の回答\",\"支払い状況\",\"発送状況\",\"発送日・発送メモ\""
    );
    assert!(!text.replace("\r\n", "").contains('\n'), "every line ends with CRLF");
    assert!(text.contains(&format!("\"{}\"", sale(&app, "maebashi-06"))));
    assert!(!text.contains(&format!("\"{}\",", sale(&app, "maebashi-13"))), "an unpaid transfer is not listed");

    // Members get the 404 of an unknown path.
    let member = app.login(MEMBER, PASSWORD).await;
    assert_eq!(app.get_with_token(&path, &member).await.status(), 404);
    assert_eq!(app.get(&path).await.status(), 404);
}

#[tokio::test]
async fn a_bad_selection_day_or_note_is_refused_with_its_field_message() {
    let app = spawn_demo_app().await;
    let admin = app.login(ADMIN, PASSWORD).await;
    let project = app.project_id(ROSE).await;
    let base = format!("/v1/admin/projects/{project}/deliveries");
    let paid = sale(&app, "maebashi-06");

    let cases = [
        (
            json!({"saleIds": [], "state": "shipped", "shippedOn": today()}),
            "saleIds",
            "発送状況を変更する支援を選択してください。",
        ),
        (
            json!({"saleIds": (1..=501).collect::<Vec<i64>>(), "state": "shipped", "shippedOn": today()}),
            "saleIds",
            "一度に変更できるのは500件までです。",
        ),
        (json!({"saleIds": [paid], "state": "shipped"}), "shippedOn", "発送日を入力してください。"),
        (
            json!({"saleIds": [paid], "state": "shipped", "shippedOn": "2999-01-01"}),
            "shippedOn",
            "発送日に未来の日付は指定できません。",
        ),
        (
            json!({"saleIds": [paid], "state": "shipped", "shippedOn": today(), "note": "a".repeat(201)}),
            "note",
            "発送メモ・追跡番号は200文字以内で入力してください。",
        ),
    ];
    for (body, field, message) in cases {
        let (status, refused) = answer(app.post_json_with_token(&base, &admin, &body).await).await;
        assert_eq!(status, 400, "{body}");
        assert_eq!((refused["field"].as_str(), refused["message"].as_str()), (Some(field), Some(message)), "{refused}");
    }
    let (status, _) =
        answer(app.post_json_with_token(&base, &admin, &json!({"saleIds": [paid], "state": "lost"})).await).await;
    assert_eq!(status, 400);
    let (status, _) = answer(app.get_with_token("/v1/admin/projects/999999/deliveries", &admin).await).await;
    assert_eq!(status, 404);
    let (status, _) = answer(app.get_with_token(&format!("{base}?page=0"), &admin).await).await;
    assert_eq!(status, 400);
    assert_eq!(app.query_i64("SELECT count(*) AS value FROM sale_deliveries"), 0);
}
