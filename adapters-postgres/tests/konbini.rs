//! Konbini sales in `PgSupportLedger` against a fresh database per test: the project's choice is read at
//! checkout, the voucher is kept and read back, vouchers share the unpaid-hold rules with bank transfers, the
//! deadline sweep finds them, a cancelled voucher gives its lots back, and the payment type is checked.
#![allow(clippy::unwrap_used, clippy::expect_used)]
use std::sync::Arc;

use adapters_postgres::testing::{exec, TestDatabase};
use adapters_postgres::PgSupportLedger;
use chrono::{DateTime, NaiveDate, TimeZone, Utc};
use diesel::{Connection, PgConnection, RunQueryDsl};
use domain::ids::{ProjectId, ReturnId, SaleId, UserId};
use domain::lot::Lot;
use domain::money::{PriceBreakdown, TaxMode, TaxRate, Yen};
use domain::payment::{KonbiniChain, KonbiniStore, KonbiniVoucher, PayType, SaleStatus};
use domain::returns::PurchaseBlock;
use ports::clock::Clock;
use ports::payments::gateway::PaymentId;
use ports::payments::ledger::{NewSale, PaymentReport, PlaceError, Placed, SaleRecord, SaleStore, SweepStore};

/// 2026-11-26 10:00 in Tokyo.
struct FixedClock;

impl Clock for FixedClock {
    fn now(&self) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 26, 1, 0, 0).unwrap()
    }
}

type Ledger = PgSupportLedger<FixedClock>;

const PROJECT: ProjectId = ProjectId(1);
const CARD_ONLY: ProjectId = ProjectId(2);
const LIMITED: ReturnId = ReturnId(1);
const UNLIMITED: ReturnId = ReturnId(2);
const OF_CARD_ONLY: ReturnId = ReturnId(3);
const MEMBER: UserId = UserId(1);
const OTHER: UserId = UserId(2);
const GUEST: UserId = UserId(3);

fn setup() -> (TestDatabase, Arc<Ledger>) {
    let (db, pool) = TestDatabase::create().unwrap();
    exec(
        &db.url,
        "INSERT INTO users (id, email, status, password_hash) VALUES \
           (1, 'member@example.jp', 'member', 'x'), (2, 'other@example.jp', 'member', 'x'), \
           (3, 'guest@example.jp', 'guest', NULL)",
    );
    exec(
        &db.url,
        "INSERT INTO projects (id, slug, title, target_amount, period_end, accepts_card, accepts_bank_transfer, \
           accepts_konbini) VALUES \
           (1, 'konbini', 'コンビニも', 100000, '2026-12-31', TRUE, TRUE, TRUE), \
           (2, 'cards', 'カードだけ', 100000, '2026-12-31', TRUE, FALSE, FALSE)",
    );
    exec(&db.url, "UPDATE project_publications SET published_at = '2026-01-01'");
    exec(
        &db.url,
        "INSERT INTO returns (id, project_id, slug, return_type, title, price, stock_limit, flag) VALUES \
           (1, 1, 'limited', 0, '限定', 3000, 4, 0), (2, 1, 'open', 0, '応援', 1000, NULL, 0), \
           (3, 2, 'card', 0, 'カード', 1000, NULL, 0)",
    );
    (db, Arc::new(PgSupportLedger::with_clock(pool, FixedClock)))
}

fn day(d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 11, d).unwrap()
}

fn sale(user: UserId, ret: ReturnId, pay_type: PayType, key: &str, deadline: Option<NaiveDate>) -> NewSale {
    let terms =
        PriceBreakdown::compute(Yen(3000), Lot::parse(1).unwrap(), TaxRate::STANDARD, TaxMode::Inclusive).unwrap();
    NewSale {
        user,
        project: PROJECT,
        ret,
        pay_type,
        terms,
        application_fee: Yen::ZERO,
        connected_account: None,
        idempotency_key: key.to_string(),
        display_name: "山田 花子".into(),
        anonymous: false,
        corporate_url: None,
        logo_url_id: None,
        comment: None,
        additional: None,
        address: None,
        transfer_deadline: deadline,
    }
}

fn konbini(user: UserId, ret: ReturnId, key: &str) -> NewSale {
    sale(user, ret, PayType::Konbini, key, Some(day(29)))
}

async fn place_new(ledger: &Ledger, sale: NewSale) -> SaleRecord {
    match ledger.place(sale).await.unwrap() {
        Placed::New(sale) => sale,
        Placed::Existing(sale) => panic!("expected a new sale, got existing {}", sale.id),
    }
}

fn voucher() -> KonbiniVoucher {
    KonbiniVoucher {
        expires_at: Utc.with_ymd_and_hms(2026, 11, 29, 14, 59, 59).unwrap(),
        hosted_voucher_url: Some("https://payments.example/voucher/1".into()),
        stores: vec![
            KonbiniStore {
                chain: KonbiniChain::Lawson,
                payment_code: "123456789012".into(),
                confirmation_number: Some("09012345678".into()),
            },
            KonbiniStore {
                chain: KonbiniChain::Seicomart,
                payment_code: "210987654321".into(),
                confirmation_number: None,
            },
        ],
    }
}

fn report(id: SaleId, status: SaleStatus, voucher: Option<KonbiniVoucher>) -> PaymentReport {
    PaymentReport {
        payment: Some(PaymentId::new(format!("pi_{id}"))),
        status,
        amount_remaining: None,
        instructions: None,
        voucher,
        one_time_card: None,
        card: None,
    }
}

fn lots_taken(url: &str, ret: ReturnId) -> i64 {
    #[derive(diesel::QueryableByName)]
    struct Value {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        value: i64,
    }
    let mut conn = PgConnection::establish(url).unwrap();
    let row: Value =
        diesel::sql_query(format!("SELECT lots_taken::bigint AS value FROM returns WHERE id = {}", ret.get()))
            .get_result(&mut conn)
            .unwrap();
    row.value
}

#[tokio::test]
async fn checkout_knows_which_projects_take_konbini_and_when_they_end() {
    let (_db, ledger) = setup();
    let takes = ledger.checkout(PROJECT, UNLIMITED).await.unwrap().unwrap();
    assert!(takes.accepts(PayType::Konbini));
    assert_eq!(takes.period_end, NaiveDate::from_ymd_opt(2026, 12, 31).unwrap());
    let cards = ledger.checkout(CARD_ONLY, OF_CARD_ONLY).await.unwrap().unwrap();
    assert!(!cards.accepts(PayType::Konbini) && !cards.accepts(PayType::BankTransfer));
}

#[tokio::test]
async fn a_konbini_sale_keeps_its_deadline_and_voucher_and_a_cancelled_one_gives_its_lots_back() {
    let (db, ledger) = setup();
    let placed = place_new(&ledger, konbini(MEMBER, LIMITED, "konbini-1")).await;
    assert_eq!((placed.pay_type, placed.transfer_deadline), (PayType::Konbini, Some(day(29))));
    assert_eq!(lots_taken(&db.url, LIMITED), 1, "held while it waits for the store");

    let waiting = ledger
        .record_payment(placed.id, report(placed.id, SaleStatus::RequiresAction, Some(voucher())), Utc::now())
        .await
        .unwrap();
    assert_eq!(waiting.previous, Some(SaleStatus::Pending));
    assert_eq!(waiting.sale.voucher, Some(voucher()));
    assert_eq!(ledger.sale(placed.id).await.unwrap().unwrap().voucher, Some(voucher()), "read back as written");

    // A report without a voucher (the provider's expiry) keeps what was issued; the lots return.
    let cancelled =
        ledger.record_payment(placed.id, report(placed.id, SaleStatus::Canceled, None), Utc::now()).await.unwrap();
    assert_eq!(cancelled.sale.status, SaleStatus::Canceled);
    assert_eq!(cancelled.sale.voucher, Some(voucher()));
    assert_eq!(lots_taken(&db.url, LIMITED), 0);
}

#[tokio::test]
async fn vouchers_and_transfers_together_hold_at_most_half_a_limited_return_one_per_supporter() {
    let (_db, ledger) = setup();
    place_new(&ledger, konbini(MEMBER, LIMITED, "hold-konbini")).await;
    // The same supporter waits to pay already, whichever way they chose.
    let again = ledger.place(sale(MEMBER, LIMITED, PayType::BankTransfer, "hold-bank", Some(day(30)))).await;
    assert!(matches!(again, Err(PlaceError::Blocked(PurchaseBlock::TransferAwaited))), "{again:?}");
    place_new(&ledger, sale(OTHER, LIMITED, PayType::BankTransfer, "hold-other", Some(day(30)))).await;
    // Two of four lots wait for money: a third voucher is refused, a card still buys.
    let over = ledger.place(konbini(GUEST, LIMITED, "hold-guest")).await;
    assert!(matches!(over, Err(PlaceError::Blocked(PurchaseBlock::TransferShareTaken))), "{over:?}");
    assert_eq!(
        place_new(&ledger, sale(GUEST, LIMITED, PayType::Card, "hold-card", None)).await.status,
        SaleStatus::Pending
    );
}

#[tokio::test]
async fn the_deadline_sweep_finds_vouchers_past_their_last_day_beside_transfers() {
    let (_db, ledger) = setup();
    let overdue = place_new(&ledger, sale(MEMBER, UNLIMITED, PayType::Konbini, "konbini-overdue", Some(day(25)))).await;
    ledger
        .record_payment(overdue.id, report(overdue.id, SaleStatus::RequiresAction, Some(voucher())), Utc::now())
        .await
        .unwrap();
    let bank = place_new(&ledger, sale(OTHER, UNLIMITED, PayType::BankTransfer, "bank-overdue", Some(day(24)))).await;
    let last_day_today =
        place_new(&ledger, sale(GUEST, UNLIMITED, PayType::Konbini, "konbini-today", Some(day(26)))).await;
    let paid = place_new(&ledger, sale(GUEST, UNLIMITED, PayType::Konbini, "konbini-paid", Some(day(20)))).await;
    ledger.record_payment(paid.id, report(paid.id, SaleStatus::Succeeded, None), Utc::now()).await.unwrap();

    let found: Vec<SaleId> = ledger.overdue_transfers(day(26), 10).await.unwrap().into_iter().map(|s| s.id).collect();

    assert_eq!(found, vec![bank.id, overdue.id]);
    assert!(!found.contains(&last_day_today.id));
}

#[tokio::test]
async fn the_database_refuses_a_deadline_or_voucher_on_a_card_sale_and_a_project_without_any_method() {
    let (db, ledger) = setup();
    let card = place_new(&ledger, sale(MEMBER, UNLIMITED, PayType::Card, "card-sale-1", None)).await;
    let mut conn = PgConnection::establish(&db.url).unwrap();
    for sql in [
        format!("UPDATE sales SET transfer_deadline = '2026-11-29' WHERE id = {}", card.id),
        format!("UPDATE sales SET konbini_voucher = '{{}}' WHERE id = {}", card.id),
        "UPDATE projects SET accepts_card = FALSE WHERE id = 2".to_string(),
    ] {
        assert!(diesel::sql_query(&sql).execute(&mut conn).is_err(), "{sql}");
    }
}
