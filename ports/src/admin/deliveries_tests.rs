#![allow(clippy::unwrap_used, clippy::expect_used)]

use chrono::TimeZone;
use domain::delivery::MSG_NOT_DELIVERABLE;

use super::*;
use crate::admin::audit::MockAuditLog;
use crate::clock::MockClock;

const PROJECT: ProjectId = ProjectId(3);
const ADMIN: UserId = UserId(1);

fn site() -> SiteInfo {
    SiteInfo {
        site_name: "上毛クラウドファンディング".into(),
        public_url: "http://localhost".into(),
        operator: Default::default(),
    }
}

fn day(d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 11, d).unwrap()
}

fn clock() -> MockClock {
    let mut clock = MockClock::new();
    // 2026-11-28 09:00 in Tokyo.
    clock.expect_now().returning(|| Utc.with_ymd_and_hms(2026, 11, 28, 0, 0, 0).unwrap());
    clock
}

fn row(sale: i64, state: DeliveryState) -> DeliveryRow {
    DeliveryRow {
        sale: SaleId(sale),
        supporter: UserId(40 + sale),
        return_id: ReturnId(7),
        return_title: "ばらの苗セット".into(),
        lot: 2,
        created_at: Utc.with_ymd_and_hms(2026, 11, 1, 15, 30, 0).unwrap(),
        display_name: Some("たろう".into()),
        email: format!("supporter{sale}@example.jp"),
        address: Some(Address {
            name: "上毛 太郎".into(),
            tel_number: "0272000000".into(),
            zip: "3710023".into(),
            pref: "群馬県".into(),
            city: "前橋市".into(),
            address: "本町1-2-3".into(),
            building: None,
        }),
        answer: Some(("Tシャツのサイズ".into(), "=cmd|' /C calc'!A0".into())),
        total: Yen(6000),
        refunded: Yen::ZERO,
        pay_type: PayType::Card,
        state,
    }
}

fn overview() -> DeliveryOverview {
    DeliveryOverview { project: PROJECT, title: "前橋ばら園".into(), returns: vec![] }
}

fn shipping(sales: &[i64], note: Option<&str>) -> MarkDeliveries {
    MarkDeliveries {
        sales: sales.iter().map(|s| SaleId(*s)).collect(),
        shipped: true,
        shipped_on: Some(day(27)),
        note: note.map(str::to_string),
    }
}

fn store_with(rows: Vec<DeliveryRow>) -> MockDeliveryStore {
    let mut store = MockDeliveryStore::new();
    store.expect_overview().returning(|_| Ok(overview()));
    store
        .expect_selected()
        .returning(move |_, ids| Ok(rows.iter().filter(|r| ids.contains(&r.sale)).cloned().collect()));
    store
}

#[tokio::test]
async fn shipping_an_unshipped_sale_logs_it_and_queues_one_mail_with_the_tracking_note() {
    let mut store = store_with(vec![row(10, DeliveryState::Unshipped)]);
    store
        .expect_write()
        .withf(|_, writes| {
            let [w] = writes.as_slice() else { return false };
            let mail = w.mail.as_ref().expect("a mail");
            w.sale == SaleId(10)
                && w.before == DeliveryState::Unshipped
                && mail["to"] == "supporter10@example.jp"
                && mail["subject"] == "【上毛クラウドファンディング】リターンを発送しました"
                && mail["text_body"].as_str().unwrap().contains("発送メモ・追跡番号：ヤマト 1234")
                && mail["text_body"].as_str().unwrap().contains("発送日：2026年11月27日")
        })
        .times(1)
        .returning(|_, _| Ok((1, 1)));
    let mut audit = MockAuditLog::new();
    audit
        .expect_record()
        .withf(|a| {
            a.kind == AdminActionKind::DeliveriesMarked
                && a.sale_id == Some(SaleId(10))
                && a.detail["projectTitle"] == "前橋ばら園"
                && a.detail["changes"]["state"] == json!(["未発送", "発送済み"])
                && a.detail["changes"]["note"][1] == "ヤマト 1234"
        })
        .times(1)
        .returning(|_| Ok(1));
    let service = DeliveryService::new(store, audit, clock(), site());

    let outcome = service.mark(ADMIN, PROJECT, shipping(&[10], Some(" ヤマト 1234 "))).await.unwrap();

    assert_eq!(outcome, MarkOutcome { changed: 1, unchanged: 0, mailed: 1 });
}

#[tokio::test]
async fn marking_an_already_shipped_sale_again_writes_logs_and_mails_nothing() {
    let already = DeliveryState::Shipped { on: day(27), note: Some("ヤマト 1234".into()) };
    let mut store = store_with(vec![row(10, already)]);
    store.expect_write().never();
    let mut audit = MockAuditLog::new();
    audit.expect_record().never();
    let service = DeliveryService::new(store, audit, clock(), site());

    let outcome = service.mark(ADMIN, PROJECT, shipping(&[10, 10], Some("ヤマト 1234"))).await.unwrap();

    assert_eq!(outcome, MarkOutcome { changed: 0, unchanged: 1, mailed: 0 });
}

#[tokio::test]
async fn a_corrected_tracking_number_is_written_without_a_second_mail() {
    let mut store = store_with(vec![row(10, DeliveryState::Shipped { on: day(27), note: None })]);
    store
        .expect_write()
        .withf(|_, writes| writes.len() == 1 && writes[0].mail.is_none())
        .times(1)
        .returning(|_, _| Ok((1, 0)));
    let mut audit = MockAuditLog::new();
    audit.expect_record().times(1).returning(|_| Ok(1));
    let service = DeliveryService::new(store, audit, clock(), site());

    let outcome = service.mark(ADMIN, PROJECT, shipping(&[10], Some("佐川 999"))).await.unwrap();

    assert_eq!(outcome.mailed, 0);
    assert_eq!(outcome.changed, 1);
}

#[tokio::test]
async fn a_selection_with_a_sale_not_to_deliver_changes_nothing() {
    let mut store = store_with(vec![row(10, DeliveryState::Unshipped)]);
    store.expect_write().never();
    let mut audit = MockAuditLog::new();
    audit.expect_record().never();
    let service = DeliveryService::new(store, audit, clock(), site());

    let error = service.mark(ADMIN, PROJECT, shipping(&[10, 11], None)).await.unwrap_err();

    assert_eq!(error.to_string(), MSG_NOT_DELIVERABLE);
}

#[tokio::test]
async fn a_future_day_or_an_empty_selection_is_refused_before_anything_is_read() {
    let mut store = MockDeliveryStore::new();
    store.expect_overview().never();
    store.expect_selected().never();
    let service = DeliveryService::new(store, MockAuditLog::new(), clock(), site());

    let future = MarkDeliveries { shipped_on: Some(day(29)), ..shipping(&[10], None) };
    let error = service.mark(ADMIN, PROJECT, future).await.unwrap_err();
    assert_eq!(error.to_string(), "発送日に未来の日付は指定できません。");
    let error = service.mark(ADMIN, PROJECT, shipping(&[], None)).await.unwrap_err();
    assert_eq!(error.to_string(), "発送状況を変更する支援を選択してください。");
    let many: Vec<i64> = (1..=501).collect();
    let error = service.mark(ADMIN, PROJECT, shipping(&many, None)).await.unwrap_err();
    assert_eq!(error.to_string(), "一度に変更できるのは500件までです。");
}

#[tokio::test]
async fn an_unknown_project_is_not_found() {
    let mut store = MockDeliveryStore::new();
    store.expect_overview().returning(|_| Err(RepoError::NotFound));
    let service = DeliveryService::new(store, MockAuditLog::new(), clock(), site());

    assert!(matches!(service.list(PROJECT, DeliveryQuery::default(), 1).await, Err(DeliveryError::NotFound)));
    assert!(matches!(service.mark(ADMIN, PROJECT, shipping(&[1], None)).await, Err(DeliveryError::NotFound)));
}

#[tokio::test]
async fn the_list_asks_for_the_page_it_shows() {
    let mut store = MockDeliveryStore::new();
    store.expect_overview().returning(|_| Ok(overview()));
    store
        .expect_rows()
        .withf(|_, query, offset, limit| query.state == DeliveryFilter::Unshipped && *offset == 50 && *limit == 50)
        .returning(|_, _, _, _| Ok((vec![row(10, DeliveryState::Unshipped)], 51)));
    let service = DeliveryService::new(store, MockAuditLog::new(), clock(), site());

    let query = DeliveryQuery { return_id: None, state: DeliveryFilter::Unshipped };
    let page = service.list(PROJECT, query, 2).await.unwrap();

    assert_eq!((page.page, page.matching, page.rows.len()), (2, 51, 1));
}

#[test]
fn the_csv_opens_in_excel_with_its_header_iso_dates_and_no_formula() {
    let shipped = DeliveryState::Shipped { on: day(27), note: Some("ヤマト 1234".into()) };
    let csv = deliveries_csv(&[row(10, DeliveryState::Unshipped), row(11, shipped)]);

    assert!(csv.starts_with('\u{feff}'));
    let lines: Vec<&str> = csv.trim_start_matches('\u{feff}').split("\r\n").collect();
    assert_eq!(lines.len(), 4, "header, two rows and the last CRLF: {csv}");
    assert!(lines[0].starts_with("\"支援ID\",\"支援日\",\"会員ID\",\"リターンID\",\"リターン\",\"口数\""));
    // 15:30 UTC on the 1st is the 2nd in Tokyo.
    assert!(lines[1].starts_with("\"10\",\"2026-11-02\",\"50\",\"7\",\"ばらの苗セット\",\"2\",\"たろう\""));
    assert!(lines[1].contains("\"'=cmd|' /C calc'!A0\""), "{}", lines[1]);
    assert!(lines[1].contains("\"未発送\",\"\""));
    assert!(lines[2].ends_with("\"発送済み\",\"2026-11-27 ヤマト 1234\""));
}
