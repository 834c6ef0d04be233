//! The backing flow's storage (`PgSupportLedger`) against a fresh database per test: a support is written whole or
//! not at all, a key places one sale, stock is never oversold, provider reports only move a sale forward, and the
//! sweeps, customers, events and guest accounts keep their promises.
#![allow(clippy::unwrap_used, clippy::expect_used)]
use std::sync::Arc;

use adapters_postgres::testing::{exec, TestDatabase};
use adapters_postgres::PgSupportLedger;
use chrono::{DateTime, NaiveDate, TimeZone, Utc};
use diesel::{Connection, PgConnection, RunQueryDsl};
use domain::account::Email;
use domain::ids::{ProjectId, ReturnId, SaleId, UserId};
use domain::lot::Lot;
use domain::money::{FeeSchedule, PriceBreakdown, TaxMode, TaxRate, Yen};
use domain::payment::{BankAccountType, BankTransferInstructions, PayType, SaleStatus};
use domain::profile::Address;
use domain::returns::{PurchaseBlock, Remaining, ReturnType};
use ports::clock::Clock;
use ports::payments::gateway::{
    ConnectedAccountId, CustomerId, PaymentId, PaymentMethodId, ProviderSubscription, SubscriptionId, SubscriptionState,
};
use ports::payments::ledger::{
    AdditionalQuestion, CustomerStore, DeliveryAddress, EventStore, GuestLookup, NewSale, PaymentReport, PlaceError,
    Placed, SaleRecord, SaleStore, SubscriptionStore, SweepStore, MAX_EVENT_ATTEMPTS,
};
use ports::RepoError;

/// 2026-11-26 10:00 in Tokyo.
struct FixedClock;

impl Clock for FixedClock {
    fn now(&self) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 26, 1, 0, 0).unwrap()
    }
}

type Ledger = PgSupportLedger<FixedClock>;

fn number(url: &str, sql: &str) -> i64 {
    #[derive(diesel::QueryableByName)]
    struct Value {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        value: i64,
    }
    let mut conn = PgConnection::establish(url).unwrap();
    diesel::sql_query(sql).get_result::<Value>(&mut conn).unwrap().value
}

fn text(url: &str, sql: &str) -> Option<String> {
    #[derive(diesel::QueryableByName)]
    struct Value {
        #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::Text>)]
        value: Option<String>,
    }
    let mut conn = PgConnection::establish(url).unwrap();
    diesel::sql_query(sql).get_result::<Value>(&mut conn).unwrap().value
}

const MEMBER: UserId = UserId(1);
const OTHER_MEMBER: UserId = UserId(2);
const GUEST: UserId = UserId(3);
const OPEN: ProjectId = ProjectId(1);
const ENDED: ProjectId = ProjectId(2);
/// Company return of the open project: 3,000 yen tax included, 3 in stock, delivered.
const LIMITED: ReturnId = ReturnId(1);
/// Individual return of the open project, no limit, no address.
const UNLIMITED: ReturnId = ReturnId(2);
const HIDDEN: ReturnId = ReturnId(3);
const OF_ENDED: ReturnId = ReturnId(4);

/// Members 1 and 2 (member 1 with two logos, 11 older than 12; member 2 with saved address 20), guest 3;
/// project 1 open (both methods, connected account on the internal fee schedule, an extra question), project 2
/// ended; returns 1-4 as the constants say.
fn fixtures(url: &str) {
    exec(
        url,
        "INSERT INTO users (id, email, status, password_hash) VALUES \
           (1, 'member@example.jp', 'member', 'x'), (2, 'other@example.jp', 'member', 'x'), \
           (3, 'guest@example.jp', 'guest', NULL)",
    );
    // Accounts made by the ledger are numbered after the fixed ones.
    exec(url, "SELECT setval('users_id_seq', 1000)");
    exec(
        url,
        "INSERT INTO user_images (id, user_id, image_type, storage_key, url, content_type, byte_size, created_at) VALUES \
           (11, 1, 1, 'k11', '/media/old-logo.png', 'image/png', 10, '2026-01-01T00:00:00Z'), \
           (12, 1, 1, 'k12', '/media/new-logo.png', 'image/png', 10, '2026-02-01T00:00:00Z'), \
           (13, 2, 1, 'k13', '/media/other-logo.png', 'image/png', 10, '2026-02-01T00:00:00Z')",
    );
    exec(
        url,
        "INSERT INTO addresses (id, user_id, name, tel_number, zip, pref, city, address) VALUES \
           (20, 2, '別人', '0270000000', '3710023', '群馬県', '前橋市', '本町1-1')",
    );
    exec(
        url,
        "INSERT INTO projects (id, slug, title, target_amount, period_end, connected_account_id, fee_schedule, \
           additional_data_label, additional_data_alert, accepts_card, accepts_bank_transfer) VALUES \
           (1, 'open', '開いている', 100000, '2026-11-26', 'acct_1', 'internal', 'ご所属', NULL, TRUE, TRUE), \
           (2, 'ended', '終わった', 100000, '2026-11-25', NULL, 'standard', NULL, NULL, TRUE, FALSE)",
    );
    exec(url, "UPDATE project_publications SET published_at = '2026-01-01'");
    exec(
        url,
        "INSERT INTO returns (id, project_id, slug, return_type, title, price, stock_limit, flag, address_required, \
           address_label, lot_disable) VALUES \
           (1, 1, 'limited', 1, '企業協賛', 3000, 3, 0, TRUE, 'お届け先', FALSE), \
           (2, 1, 'open', 0, '個人応援', 1000, NULL, 0, FALSE, NULL, TRUE), \
           (3, 1, 'hidden', 0, '隠し', 1000, NULL, 900, FALSE, NULL, FALSE), \
           (4, 2, 'late', 0, '終了', 1000, NULL, 0, FALSE, NULL, FALSE)",
    );
}

fn setup() -> (TestDatabase, Arc<Ledger>) {
    let (db, pool) = TestDatabase::create().unwrap();
    fixtures(&db.url);
    (db, Arc::new(PgSupportLedger::with_clock(pool, FixedClock)))
}

fn address() -> Address {
    Address {
        name: "群馬 太郎".into(),
        tel_number: "0272000000".into(),
        zip: "3710023".into(),
        pref: "群馬県".into(),
        city: "前橋市".into(),
        address: "本町2-2".into(),
        building: Some("上毛ビル3F".into()),
    }
}

/// A card support of `lot` lots of return 1 (3,000 yen tax included) by `user`, with nothing optional.
fn order(user: UserId, lot: u8, key: &str) -> NewSale {
    let terms =
        PriceBreakdown::compute(Yen(3000), Lot::parse(i64::from(lot)).unwrap(), TaxRate::STANDARD, TaxMode::Inclusive)
            .unwrap();
    NewSale {
        user,
        project: OPEN,
        ret: LIMITED,
        pay_type: PayType::Card,
        terms,
        application_fee: Yen(terms.total.value() * 1060 / 10000),
        connected_account: Some(ConnectedAccountId::new("acct_1")),
        idempotency_key: key.to_string(),
        display_name: "上毛商事".into(),
        anonymous: false,
        corporate_url: None,
        logo_url_id: None,
        comment: None,
        additional: None,
        address: None,
        transfer_deadline: None,
    }
}

fn bank_order(user: UserId, key: &str, deadline: NaiveDate) -> NewSale {
    NewSale { pay_type: PayType::BankTransfer, transfer_deadline: Some(deadline), ..order(user, 1, key) }
}

async fn place_new(ledger: &Ledger, sale: NewSale) -> SaleRecord {
    match ledger.place(sale).await.unwrap() {
        Placed::New(sale) => sale,
        Placed::Existing(sale) => panic!("expected a new sale, got existing {}", sale.id),
    }
}

/// What the provider says about sale `id`'s payment `pi_{id}`.
fn report(id: SaleId, status: SaleStatus) -> PaymentReport {
    PaymentReport {
        payment: Some(PaymentId::new(format!("pi_{id}"))),
        status,
        amount_remaining: None,
        instructions: None,
        voucher: None,
        one_time_card: None,
        card: None,
    }
}

fn instructions(remaining: i64) -> BankTransferInstructions {
    BankTransferInstructions {
        amount_remaining: Yen(remaining),
        reference: Some("ABCD1234".into()),
        bank_name: "ローカル銀行".into(),
        bank_code: Some("0999".into()),
        branch_name: "テスト支店".into(),
        branch_code: Some("999".into()),
        account_type: BankAccountType::Ordinary,
        account_number: "1234567".into(),
        account_holder_name: "ﾛｰｶﾙｽﾄﾗｲﾌﾟ(ｶ".into(),
    }
}

fn lots_taken(url: &str, ret: ReturnId) -> i64 {
    number(url, &format!("SELECT lots_taken::bigint AS value FROM returns WHERE id = {}", ret.get()))
}

fn count(url: &str, table: &str) -> i64 {
    number(url, &format!("SELECT count(*) AS value FROM {table}"))
}

fn at(day: u32, hour: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, day, hour, 0, 0).unwrap()
}

fn day(d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 11, d).unwrap()
}

// ------------------------------------------------------------- checkout ----

#[tokio::test]
async fn checkout_reads_the_project_and_return_as_a_support_needs_them() {
    let (_db, ledger) = setup();

    let checkout = ledger.checkout(OPEN, LIMITED).await.unwrap().unwrap();

    assert_eq!((checkout.project_slug.as_str(), checkout.project_title.as_str()), ("open", "開いている"));
    assert_eq!((checkout.return_title.as_str(), checkout.return_type), ("企業協賛", ReturnType::Company));
    assert_eq!((checkout.price, checkout.is_donation, checkout.tax_includes), (Yen(3000), false, true));
    assert_eq!(checkout.tax_rate, TaxRate::STANDARD);
    assert_eq!(checkout.address_label.as_deref(), Some("お届け先"));
    assert_eq!(checkout.additional, Some(AdditionalQuestion { label: "ご所属".into(), alert: None }));
    assert!(checkout.accepts(PayType::Card) && checkout.accepts(PayType::BankTransfer));
    assert_eq!(checkout.connected_account, Some(ConnectedAccountId::new("acct_1")));
    assert_eq!(checkout.fee_schedule, FeeSchedule::Internal);
    assert!(checkout.project_open, "the end day is still open");
    assert!(!checkout.return_disabled && !checkout.lot_disable);
    assert_eq!(checkout.remaining, Remaining::Limited(3));

    let unlimited = ledger.checkout(OPEN, UNLIMITED).await.unwrap().unwrap();
    assert_eq!(
        (unlimited.remaining, unlimited.address_label, unlimited.lot_disable),
        (Remaining::Unlimited, None, true)
    );

    let ended = ledger.checkout(ENDED, OF_ENDED).await.unwrap().unwrap();
    assert!(!ended.project_open);
    assert!(ended.accepts(PayType::Card) && !ended.accepts(PayType::BankTransfer));
    assert_eq!((ended.connected_account, ended.fee_schedule, ended.additional), (None, FeeSchedule::Standard, None));
}

#[tokio::test]
async fn checkout_knows_no_hidden_return_nor_one_of_another_project() {
    let (_db, ledger) = setup();

    assert_eq!(ledger.checkout(OPEN, HIDDEN).await.unwrap(), None);
    assert_eq!(ledger.checkout(OPEN, OF_ENDED).await.unwrap(), None);
    assert_eq!(ledger.checkout(ProjectId(99), LIMITED).await.unwrap(), None);
    assert_eq!(ledger.checkout(OPEN, ReturnId(99)).await.unwrap(), None);
}

// ---------------------------------------------------------------- place ----

#[tokio::test]
async fn a_support_is_written_with_its_display_name_comment_answer_and_address_and_takes_its_lots() {
    let (db, ledger) = setup();
    let sale = NewSale {
        comment: Some("応援しています".into()),
        additional: Some(("ご所属".into(), "前橋支店".into())),
        address: Some(DeliveryAddress::New(address())),
        ..order(MEMBER, 2, "confirm-key-0001")
    };

    let placed = place_new(&ledger, sale.clone()).await;

    assert_eq!(placed.status, SaleStatus::Pending);
    assert_eq!((placed.user, placed.project_id, placed.return_id), (MEMBER, OPEN, LIMITED));
    assert_eq!(placed.email.as_str(), "member@example.jp");
    assert_eq!((placed.project_slug.as_str(), placed.return_title.as_str()), ("open", "企業協賛"));
    assert_eq!(placed.terms, sale.terms);
    assert_eq!((placed.terms.total, placed.terms.tax), (Yen(6000), Yen(545)));
    assert_eq!(placed.application_fee, sale.application_fee);
    assert_eq!(placed.connected_account, Some(ConnectedAccountId::new("acct_1")));
    assert_eq!((placed.pay_type, placed.display_name.as_str()), (PayType::Card, "上毛商事"));
    assert_eq!((placed.payment, placed.card, placed.refund_required), (None, None, false));
    assert_eq!(lots_taken(&db.url, LIMITED), 2);

    let id = placed.id.get();
    assert_eq!(number(&db.url, &format!("SELECT flag::bigint AS value FROM display_names WHERE sales_id = {id}")), 1);
    assert_eq!(
        text(&db.url, &format!("SELECT comment AS value FROM comments WHERE sales_id = {id} AND flag = 1")).as_deref(),
        Some("応援しています")
    );
    assert_eq!(
        text(
            &db.url,
            &format!("SELECT label || '=' || value AS value FROM sale_additional_data WHERE sales_id = {id}")
        )
        .as_deref(),
        Some("ご所属=前橋支店")
    );
    assert_eq!(
        text(
            &db.url,
            &format!(
                "SELECT a.building AS value FROM sales s JOIN addresses a ON a.id = s.address_id \
                 WHERE s.id = {id} AND a.user_id = 1 AND NOT a.is_primary AND a.flag = 1"
            )
        )
        .as_deref(),
        Some("上毛ビル3F")
    );
    assert_eq!(
        text(&db.url, &format!("SELECT tax_mode || ' ' || tax_rate_percent AS value FROM sales WHERE id = {id}"))
            .as_deref(),
        Some("inclusive 10")
    );
}

#[tokio::test]
async fn an_anonymous_bank_support_is_shown_as_anonymous_and_keeps_its_deadline() {
    let (db, ledger) = setup();
    let sale = NewSale { anonymous: true, ..bank_order(GUEST, "confirm-key-bank", day(30)) };

    let placed = place_new(&ledger, sale).await;

    assert_eq!((placed.pay_type, placed.transfer_deadline), (PayType::BankTransfer, Some(day(30))));
    let id = placed.id.get();
    assert_eq!(number(&db.url, &format!("SELECT flag::bigint AS value FROM display_names WHERE sales_id = {id}")), 0);
    assert_eq!(count(&db.url, "comments"), 0);
    assert_eq!(count(&db.url, "sale_additional_data"), 0);
}

#[tokio::test]
async fn a_company_link_and_an_older_logo_chosen_at_checkout_become_what_the_sponsor_wall_shows() {
    let (db, ledger) = setup();
    let sale = NewSale {
        corporate_url: Some("https://joumou.example.jp".into()),
        logo_url_id: Some(11),
        ..order(MEMBER, 1, "confirm-key-logo")
    };

    place_new(&ledger, sale).await;

    assert_eq!(
        text(&db.url, "SELECT corporateurl AS value FROM users WHERE id = 1").as_deref(),
        Some("https://joumou.example.jp")
    );
    // The wall takes the newest logo of the account.
    assert_eq!(
        text(
            &db.url,
            "SELECT url AS value FROM user_images WHERE user_id = 1 AND image_type = 1 \
             ORDER BY created_at DESC, id DESC LIMIT 1"
        )
        .as_deref(),
        Some("/media/old-logo.png")
    );
}

#[tokio::test]
async fn a_logo_of_another_account_is_not_found_and_nothing_is_written() {
    let (db, ledger) = setup();
    let sale = NewSale {
        logo_url_id: Some(13),
        corporate_url: Some("https://joumou.example.jp".into()),
        ..order(MEMBER, 1, "confirm-key-logo")
    };

    let refused = ledger.place(sale).await;

    assert!(matches!(refused, Err(PlaceError::Repo(RepoError::NotFound))), "{refused:?}");
    assert_eq!(count(&db.url, "sales"), 0);
    assert_eq!(text(&db.url, "SELECT corporateurl AS value FROM users WHERE id = 1"), None);
    assert_eq!(lots_taken(&db.url, LIMITED), 0);
}

#[tokio::test]
async fn a_saved_address_of_another_user_is_not_found_and_nothing_is_written() {
    let (db, ledger) = setup();
    let sale = NewSale {
        comment: Some("応援しています".into()),
        address: Some(DeliveryAddress::Saved(20)),
        ..order(MEMBER, 1, "confirm-key-0002")
    };

    let refused = ledger.place(sale).await;

    assert!(matches!(refused, Err(PlaceError::Repo(RepoError::NotFound))), "{refused:?}");
    for table in ["sales", "display_names", "comments"] {
        assert_eq!(count(&db.url, table), 0, "{table}");
    }
    assert_eq!(lots_taken(&db.url, LIMITED), 0);
}

#[tokio::test]
async fn a_saved_address_of_the_supporter_is_the_sales_address() {
    let (db, ledger) = setup();

    let placed = place_new(
        &ledger,
        NewSale { address: Some(DeliveryAddress::Saved(20)), ..order(OTHER_MEMBER, 1, "key-own-address") },
    )
    .await;

    assert_eq!(number(&db.url, &format!("SELECT address_id AS value FROM sales WHERE id = {}", placed.id.get())), 20);
    assert_eq!(count(&db.url, "addresses"), 1, "no copy of a saved address");
}

#[tokio::test]
async fn the_same_key_twice_is_one_sale() {
    let (db, ledger) = setup();
    let first = place_new(&ledger, order(MEMBER, 1, "double-click-key")).await;

    let again = ledger.place(NewSale { comment: Some("二度目".into()), ..order(MEMBER, 1, "double-click-key") }).await;

    match again.unwrap() {
        Placed::Existing(existing) => assert_eq!(existing, first),
        Placed::New(sale) => panic!("a second sale {} was written", sale.id),
    }
    assert_eq!(count(&db.url, "sales"), 1);
    assert_eq!(count(&db.url, "comments"), 0);
    assert_eq!(lots_taken(&db.url, LIMITED), 1);
    // Keys are per supporter: another member's same key is their own sale.
    place_new(&ledger, order(OTHER_MEMBER, 1, "double-click-key")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn five_places_of_one_key_at_once_make_one_sale() {
    let (db, ledger) = setup();

    let tasks: Vec<_> = (0..5)
        .map(|_| {
            let ledger = Arc::clone(&ledger);
            tokio::spawn(async move { ledger.place(order(MEMBER, 1, "racing-key-0001")).await })
        })
        .collect();
    let mut ids = Vec::new();
    let mut new = 0;
    for task in tasks {
        match task.await.unwrap().unwrap() {
            Placed::New(sale) => {
                new += 1;
                ids.push(sale.id);
            }
            Placed::Existing(sale) => ids.push(sale.id),
        }
    }

    assert_eq!(new, 1);
    assert!(ids.iter().all(|id| *id == ids[0]), "{ids:?}");
    assert_eq!(count(&db.url, "sales"), 1);
    assert_eq!(count(&db.url, "display_names"), 1);
    assert_eq!(lots_taken(&db.url, LIMITED), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn ten_single_lot_places_at_once_of_three_left_sell_exactly_three() {
    let (db, ledger) = setup();
    let others: Vec<String> = (100..110).map(|i| format!("({i}, 'racer{i}@example.jp', 'member', 'x')")).collect();
    exec(&db.url, &format!("INSERT INTO users (id, email, status, password_hash) VALUES {}", others.join(", ")));

    let tasks: Vec<_> = (100..110)
        .map(|user| {
            let ledger = Arc::clone(&ledger);
            tokio::spawn(async move {
                let sale = NewSale {
                    address: Some(DeliveryAddress::New(address())),
                    comment: Some("応援".into()),
                    ..order(UserId(user), 1, &format!("racer-key-{user}"))
                };
                ledger.place(sale).await
            })
        })
        .collect();
    let (mut sold, mut sold_out) = (0, 0);
    for task in tasks {
        match task.await.unwrap() {
            Ok(Placed::New(_)) => sold += 1,
            Err(PlaceError::Blocked(PurchaseBlock::SoldOut)) => sold_out += 1,
            other => panic!("unexpected outcome: {other:?}"),
        }
    }

    assert_eq!((sold, sold_out), (3, 7));
    assert_eq!(lots_taken(&db.url, LIMITED), 3);
    assert_eq!(count(&db.url, "sales"), 3);
    // The refused ones left nothing behind: no address, name or comment without its sale.
    assert_eq!(count(&db.url, "addresses"), 1 + 3);
    assert_eq!(count(&db.url, "display_names"), 3);
    assert_eq!(count(&db.url, "comments"), 3);
}

#[tokio::test]
async fn more_lots_than_are_left_is_not_enough_left_and_none_left_is_sold_out() {
    let (db, ledger) = setup();
    place_new(&ledger, order(OTHER_MEMBER, 2, "first-two-lots")).await;

    let too_many = ledger.place(order(MEMBER, 2, "two-more-lots")).await;
    assert!(matches!(too_many, Err(PlaceError::Blocked(PurchaseBlock::NotEnoughLeft))), "{too_many:?}");
    assert_eq!(lots_taken(&db.url, LIMITED), 2);

    place_new(&ledger, order(MEMBER, 1, "the-last-lot")).await;
    let none_left = ledger.place(order(MEMBER, 1, "one-lot-too-many")).await;
    assert!(matches!(none_left, Err(PlaceError::Blocked(PurchaseBlock::SoldOut))), "{none_left:?}");
    assert_eq!(count(&db.url, "sales"), 2);
}

// ------------------------------------------------------- record_payment ----

#[tokio::test]
async fn reports_move_a_transfer_forward_only_and_payment_sets_paid_at_and_the_refund_flag() {
    let (db, ledger) = setup();
    let sale = place_new(&ledger, bank_order(MEMBER, "bank-key-0001", day(30))).await;

    let awaiting = ledger
        .record_payment(
            sale.id,
            PaymentReport {
                amount_remaining: Some(Yen(3000)),
                instructions: Some(instructions(3000)),
                voucher: None,
                ..report(sale.id, SaleStatus::AwaitingBankTransfer)
            },
            at(26, 2),
        )
        .await
        .unwrap();
    assert_eq!((awaiting.previous, awaiting.refund_required), (Some(SaleStatus::Pending), false));
    assert_eq!(awaiting.sale.status, SaleStatus::AwaitingBankTransfer);
    assert_eq!(awaiting.sale.payment, Some(PaymentId::new(format!("pi_{}", sale.id))));
    assert_eq!(awaiting.sale.instructions, Some(instructions(3000)));
    assert_eq!(awaiting.sale.amount_remaining, Some(Yen(3000)));

    // Partly funded: same status, smaller remainder, nothing moved.
    let partial = ledger
        .record_payment(
            sale.id,
            PaymentReport {
                amount_remaining: Some(Yen(1000)),
                instructions: Some(instructions(1000)),
                voucher: None,
                ..report(sale.id, SaleStatus::AwaitingBankTransfer)
            },
            at(26, 3),
        )
        .await
        .unwrap();
    assert_eq!((partial.previous, partial.sale.amount_remaining), (None, Some(Yen(1000))));
    assert_eq!(partial.sale.instructions.map(|i| i.amount_remaining), Some(Yen(1000)));

    // The first "waiting" event delivered again, late: the amount still due does not grow back.
    let late = ledger
        .record_payment(
            sale.id,
            PaymentReport {
                amount_remaining: Some(Yen(3000)),
                instructions: Some(instructions(3000)),
                voucher: None,
                ..report(sale.id, SaleStatus::AwaitingBankTransfer)
            },
            at(26, 4),
        )
        .await
        .unwrap();
    assert_eq!(late.sale.amount_remaining, Some(Yen(1000)));
    assert_eq!(late.sale.instructions.map(|i| i.amount_remaining), Some(Yen(1000)));

    let paid = ledger
        .record_payment(
            sale.id,
            PaymentReport { amount_remaining: Some(Yen(0)), ..report(sale.id, SaleStatus::Succeeded) },
            at(27, 0),
        )
        .await
        .unwrap();
    assert_eq!((paid.previous, paid.sale.status), (Some(SaleStatus::AwaitingBankTransfer), SaleStatus::Succeeded));
    let id = sale.id.get();
    assert_eq!(number(&db.url, &format!("SELECT flag::bigint AS value FROM sales WHERE id = {id}")), 1);
    assert_eq!(
        text(&db.url, &format!("SELECT paid_at::text AS value FROM sales WHERE id = {id}")),
        text(&db.url, "SELECT '2026-11-27T00:00:00Z'::timestamptz::text AS value")
    );

    let stale = ledger.record_payment(sale.id, report(sale.id, SaleStatus::RequiresAction), at(27, 1)).await.unwrap();
    assert_eq!((stale.previous, stale.sale.status), (None, SaleStatus::Succeeded));
    let repeated = ledger.record_payment(sale.id, report(sale.id, SaleStatus::Succeeded), at(27, 2)).await.unwrap();
    assert_eq!((repeated.previous, repeated.refund_required), (None, false));
    assert_eq!(
        text(&db.url, &format!("SELECT paid_at::text AS value FROM sales WHERE id = {id}")),
        text(&db.url, "SELECT '2026-11-27T00:00:00Z'::timestamptz::text AS value"),
        "a repeated report does not move the payment time"
    );
    assert_eq!(lots_taken(&db.url, LIMITED), 1);
}

#[tokio::test]
async fn the_payment_id_and_the_card_are_set_once() {
    let (_db, ledger) = setup();
    let sale = place_new(&ledger, order(MEMBER, 1, "card-key-0001")).await;
    let card = PaymentMethodId::new("pm_first");
    let prepared = PaymentReport {
        payment: None,
        card: Some(card.clone()),
        one_time_card: Some(card.clone()),
        ..report(sale.id, SaleStatus::Pending)
    };
    let recorded = ledger.record_payment(sale.id, prepared, at(26, 2)).await.unwrap();
    assert_eq!((recorded.previous, recorded.sale.card.clone()), (None, Some(card.clone())));
    assert_eq!(recorded.sale.one_time_card, Some(card.clone()));

    ledger.record_payment(sale.id, report(sale.id, SaleStatus::RequiresAction), at(26, 3)).await.unwrap();
    let later = PaymentReport {
        payment: Some(PaymentId::new("pi_other")),
        card: Some(PaymentMethodId::new("pm_other")),
        ..report(sale.id, SaleStatus::Processing)
    };
    let recorded = ledger.record_payment(sale.id, later, at(26, 4)).await.unwrap();

    assert_eq!(recorded.previous, Some(SaleStatus::RequiresAction));
    let first_payment = PaymentId::new(format!("pi_{}", sale.id));
    assert_eq!((recorded.sale.payment, recorded.sale.card), (Some(first_payment.clone()), Some(card)));
    assert_eq!(ledger.sale_by_payment(&first_payment).await.unwrap().map(|s| s.id), Some(sale.id));
    assert_eq!(ledger.sale_by_payment(&PaymentId::new("pi_other")).await.unwrap(), None);
}

#[tokio::test]
async fn a_declined_card_releases_its_lots() {
    let (db, ledger) = setup();
    let sale = place_new(&ledger, order(MEMBER, 2, "declined-key")).await;

    let failed = ledger.record_payment(sale.id, report(sale.id, SaleStatus::Failed), at(26, 2)).await.unwrap();

    assert_eq!((failed.previous, failed.sale.status), (Some(SaleStatus::Pending), SaleStatus::Failed));
    assert_eq!(lots_taken(&db.url, LIMITED), 0);
}

#[tokio::test]
async fn a_transfer_paid_after_its_cancellation_takes_its_lots_again_when_stock_is_left() {
    let (db, ledger) = setup();
    let sale = place_new(&ledger, bank_order(MEMBER, "late-key-0001", day(20))).await;
    ledger.record_payment(sale.id, report(sale.id, SaleStatus::AwaitingBankTransfer), at(26, 2)).await.unwrap();
    ledger.record_payment(sale.id, report(sale.id, SaleStatus::Canceled), at(26, 3)).await.unwrap();
    assert_eq!(lots_taken(&db.url, LIMITED), 0);

    let paid = ledger.record_payment(sale.id, report(sale.id, SaleStatus::Succeeded), at(26, 4)).await.unwrap();

    assert_eq!(
        (paid.previous, paid.sale.status, paid.refund_required),
        (Some(SaleStatus::Canceled), SaleStatus::Succeeded, false)
    );
    assert_eq!(lots_taken(&db.url, LIMITED), 1);
}

#[tokio::test]
async fn a_transfer_paid_after_its_cancellation_with_no_stock_left_stays_cancelled_for_refund() {
    let (db, ledger) = setup();
    let late = place_new(&ledger, bank_order(MEMBER, "late-key-0002", day(20))).await;
    ledger.record_payment(late.id, report(late.id, SaleStatus::AwaitingBankTransfer), at(26, 2)).await.unwrap();
    ledger.record_payment(late.id, report(late.id, SaleStatus::Canceled), at(26, 3)).await.unwrap();
    place_new(&ledger, order(OTHER_MEMBER, 3, "took-the-rest")).await;

    let paid = ledger.record_payment(late.id, report(late.id, SaleStatus::Succeeded), at(26, 4)).await.unwrap();

    assert_eq!((paid.previous, paid.refund_required), (None, true));
    assert_eq!((paid.sale.status, paid.sale.refund_required), (SaleStatus::Canceled, true));
    assert_eq!(lots_taken(&db.url, LIMITED), 3);
    assert_eq!(number(&db.url, &format!("SELECT flag::bigint AS value FROM sales WHERE id = {}", late.id.get())), 0);

    // Stock freed later does not revive a sale already flagged for refund.
    exec(&db.url, "UPDATE sales SET status = 'canceled' WHERE idempotency_key = 'took-the-rest'");
    let again = ledger.record_payment(late.id, report(late.id, SaleStatus::Succeeded), at(26, 5)).await.unwrap();
    assert_eq!((again.previous, again.refund_required, again.sale.status), (None, true, SaleStatus::Canceled));
    assert_eq!(lots_taken(&db.url, LIMITED), 0);
}

#[tokio::test]
async fn an_ended_subscription_stays_ended_when_an_older_update_arrives_late() {
    let (_db, ledger) = setup();
    let sale = place_new(&ledger, order(MEMBER, 1, "monthly-key-0001")).await;
    ledger.save_customer(MEMBER, &CustomerId::new("cus_1")).await.unwrap();
    let row = ledger
        .open_subscription(sale.id, &CustomerId::new("cus_1"), &PaymentMethodId::new("card_1"), "plan_1", Yen(1100))
        .await
        .unwrap();
    let state = |status| ProviderSubscription {
        id: SubscriptionId::new("sub_1"),
        status,
        current_period_end: Some(at(26, 1)),
        cancel_at_period_end: false,
        card: Some(PaymentMethodId::new("card_1")),
        latest_invoice: None,
        row: Some(row.id),
    };
    ledger.record_subscription(row.id, &state(SubscriptionState::Active), at(26, 2)).await.unwrap();
    ledger.record_subscription(row.id, &state(SubscriptionState::Canceled), at(26, 3)).await.unwrap();

    let late = ledger.record_subscription(row.id, &state(SubscriptionState::Active), at(26, 4)).await.unwrap();

    assert_eq!(late.status, SubscriptionState::Canceled);
}

#[tokio::test]
async fn a_report_for_an_unknown_sale_is_not_found() {
    let (_db, ledger) = setup();
    let missing = ledger.record_payment(SaleId(999), report(SaleId(999), SaleStatus::Succeeded), at(26, 2)).await;
    assert!(matches!(missing, Err(RepoError::NotFound)), "{missing:?}");
    assert_eq!(ledger.sale(SaleId(999)).await.unwrap(), None);
}

// --------------------------------------------------------------- sweeps ----

#[tokio::test]
async fn the_deadline_sweep_finds_unpaid_transfers_past_their_deadline_only() {
    let (_db, ledger) = setup();
    // An unlimited return: unpaid transfers may hold only half of a limited one.
    let due = place_new(&ledger, NewSale { ret: UNLIMITED, ..bank_order(MEMBER, "overdue-pending", day(24)) }).await;
    let awaiting =
        place_new(&ledger, NewSale { ret: UNLIMITED, ..bank_order(OTHER_MEMBER, "overdue-awaiting", day(25)) }).await;
    ledger.record_payment(awaiting.id, report(awaiting.id, SaleStatus::AwaitingBankTransfer), at(24, 0)).await.unwrap();
    let today_is_the_deadline =
        place_new(&ledger, NewSale { ret: UNLIMITED, ..bank_order(GUEST, "deadline-today", day(26)) }).await;
    let paid = place_new(&ledger, NewSale { ret: UNLIMITED, ..bank_order(MEMBER, "overdue-but-paid", day(20)) }).await;
    ledger.record_payment(paid.id, report(paid.id, SaleStatus::Succeeded), at(21, 0)).await.unwrap();
    place_new(&ledger, NewSale { ret: UNLIMITED, ..order(MEMBER, 1, "a-card-sale") }).await;

    let overdue: Vec<SaleId> = ledger.overdue_transfers(day(26), 10).await.unwrap().into_iter().map(|s| s.id).collect();

    assert_eq!(overdue, vec![due.id, awaiting.id]);
    assert!(!overdue.contains(&today_is_the_deadline.id));
    assert_eq!(ledger.overdue_transfers(day(26), 1).await.unwrap().len(), 1);
}

#[tokio::test]
async fn the_reconciler_gets_sales_not_final_that_have_not_changed_lately_oldest_first() {
    let (db, ledger) = setup();
    let pending = place_new(&ledger, NewSale { ret: UNLIMITED, ..order(MEMBER, 1, "unsettled-pending") }).await;
    let waiting = place_new(&ledger, NewSale { ret: UNLIMITED, ..order(OTHER_MEMBER, 1, "unsettled-3ds") }).await;
    ledger.record_payment(waiting.id, report(waiting.id, SaleStatus::RequiresAction), at(26, 0)).await.unwrap();
    let failed = place_new(&ledger, NewSale { ret: UNLIMITED, ..order(GUEST, 1, "settled-failed") }).await;
    ledger.record_payment(failed.id, report(failed.id, SaleStatus::Failed), at(25, 0)).await.unwrap();
    exec(&db.url, &format!("UPDATE sales SET updated_at = '2026-11-25T00:00:00Z' WHERE id = {}", pending.id.get()));
    let fresh = place_new(&ledger, NewSale { ret: UNLIMITED, ..order(MEMBER, 1, "unsettled-fresh") }).await;
    exec(&db.url, &format!("UPDATE sales SET updated_at = '2026-11-26T05:00:00Z' WHERE id = {}", fresh.id.get()));

    let stale: Vec<SaleId> = ledger.unsettled(at(26, 1), 10).await.unwrap().into_iter().map(|s| s.id).collect();

    assert_eq!(stale, vec![pending.id, waiting.id]);
}

#[tokio::test]
async fn the_reconcile_report_reads_the_sales_with_a_payment_by_id_page_after_page() {
    let (_db, ledger) = setup();
    let mut paid = Vec::new();
    for key in ["report-1", "report-2", "report-3"] {
        let sale = place_new(&ledger, NewSale { ret: UNLIMITED, ..order(MEMBER, 1, key) }).await;
        ledger.record_payment(sale.id, report(sale.id, SaleStatus::Succeeded), at(26, 0)).await.unwrap();
        paid.push(sale.id);
    }
    // Never sent to the provider: no payment, not in the report.
    place_new(&ledger, NewSale { ret: UNLIMITED, ..order(MEMBER, 1, "report-unsent") }).await;

    let first: Vec<SaleId> = ledger.sales_with_payment(SaleId(0), 2).await.unwrap().into_iter().map(|s| s.id).collect();
    let rest = ledger.sales_with_payment(first[1], 2).await.unwrap();

    assert_eq!(first, paid[..2]);
    assert_eq!(rest.iter().map(|s| s.id).collect::<Vec<_>>(), paid[2..]);
    assert_eq!(rest[0].payment, Some(PaymentId::new(format!("pi_{}", paid[2]))));
    assert!(ledger.sales_with_payment(paid[2], 2).await.unwrap().is_empty());
}

/// A bank transfer of `user` with deadline `deadline`, awaiting its money and then cancelled at `cancelled_at` by
/// the deadline sweep (its payment `pi_{id}` left open at the provider).
async fn cancelled_transfer(
    ledger: &Ledger,
    user: UserId,
    key: &str,
    deadline: NaiveDate,
    cancelled_at: DateTime<Utc>,
) -> SaleRecord {
    let sale = place_new(ledger, NewSale { ret: UNLIMITED, ..bank_order(user, key, deadline) }).await;
    ledger.record_payment(sale.id, report(sale.id, SaleStatus::AwaitingBankTransfer), at(20, 0)).await.unwrap();
    let cancel = PaymentReport { status: SaleStatus::Canceled, ..PaymentReport::empty() };
    ledger.record_payment(sale.id, cancel, cancelled_at).await.unwrap().sale
}

fn ids(sales: Vec<SaleRecord>) -> Vec<SaleId> {
    sales.into_iter().map(|s| s.id).collect()
}

#[tokio::test]
async fn cancelled_transfers_whose_payment_is_still_open_are_listed_for_the_grace_sweep_and_the_reconciler() {
    let (_db, ledger) = setup();
    let older = cancelled_transfer(&ledger, MEMBER, "late-open-1", day(20), at(26, 3)).await;
    let newer = cancelled_transfer(&ledger, OTHER_MEMBER, "late-open-2", day(24), at(26, 2)).await;
    // Not listed: a transfer cancelled before the provider was asked (no payment), one paid after all, one
    // flagged for refund, a card sale cancelled, a transfer still awaited.
    let never_sent = place_new(&ledger, NewSale { ret: UNLIMITED, ..bank_order(GUEST, "late-unsent", day(20)) }).await;
    let cancel = PaymentReport { status: SaleStatus::Canceled, ..PaymentReport::empty() };
    ledger.record_payment(never_sent.id, cancel, at(26, 1)).await.unwrap();
    let revived = cancelled_transfer(&ledger, GUEST, "late-revived", day(20), at(26, 1)).await;
    ledger.record_payment(revived.id, report(revived.id, SaleStatus::Succeeded), at(26, 2)).await.unwrap();
    let flagged = cancelled_transfer(&ledger, MEMBER, "late-flagged", day(20), at(26, 1)).await;
    ledger.close_transfer(flagged.id, true, at(26, 1)).await.unwrap();
    let card = place_new(&ledger, NewSale { ret: UNLIMITED, ..order(MEMBER, 1, "late-card") }).await;
    ledger.record_payment(card.id, report(card.id, SaleStatus::Canceled), at(26, 1)).await.unwrap();
    let awaited = place_new(&ledger, NewSale { ret: UNLIMITED, ..bank_order(MEMBER, "late-awaited", day(20)) }).await;
    ledger.record_payment(awaited.id, report(awaited.id, SaleStatus::AwaitingBankTransfer), at(26, 1)).await.unwrap();

    // The grace sweep: by deadline, those before the cut only.
    assert_eq!(ids(ledger.transfers_to_close(day(26), 10).await.unwrap()), vec![older.id, newer.id]);
    assert_eq!(ids(ledger.transfers_to_close(day(21), 10).await.unwrap()), vec![older.id]);
    assert_eq!(ids(ledger.transfers_to_close(day(26), 1).await.unwrap()), vec![older.id]);
    // The reconciler: least recently changed first, not those changed since.
    assert_eq!(ids(ledger.late_transfers(at(26, 4), 10).await.unwrap()), vec![newer.id, older.id]);
    assert_eq!(ids(ledger.late_transfers(at(26, 3), 10).await.unwrap()), vec![newer.id]);
    // A check of the provider that changed nothing still moves the sale to the back of the queue.
    ledger.record_payment(newer.id, report(newer.id, SaleStatus::AwaitingBankTransfer), at(26, 5)).await.unwrap();
    assert_eq!(ids(ledger.late_transfers(at(26, 6), 10).await.unwrap()), vec![older.id, newer.id]);
    assert_eq!(
        ledger.sale(newer.id).await.unwrap().unwrap().status,
        SaleStatus::Canceled,
        "an open payment's report does not revive the sale"
    );
}

#[tokio::test]
async fn a_closed_payment_takes_the_transfer_off_both_lists_and_partial_money_flags_it_for_refund() {
    let (db, ledger) = setup();
    let unpaid = cancelled_transfer(&ledger, MEMBER, "close-unpaid", day(20), at(26, 1)).await;
    let partly = cancelled_transfer(&ledger, OTHER_MEMBER, "close-partly", day(20), at(26, 1)).await;

    let closed = ledger.close_transfer(unpaid.id, false, at(26, 6)).await.unwrap();
    let flagged = ledger.close_transfer(partly.id, true, at(26, 6)).await.unwrap();

    assert_eq!((closed.status, closed.refund_required), (SaleStatus::Canceled, false));
    assert_eq!((flagged.status, flagged.refund_required), (SaleStatus::Canceled, true));
    assert!(ledger.transfers_to_close(day(26), 10).await.unwrap().is_empty());
    assert!(ledger.late_transfers(at(27, 0), 10).await.unwrap().is_empty());
    assert_eq!(
        text(&db.url, &format!("SELECT intent_closed_at::text AS value FROM sales WHERE id = {}", unpaid.id.get())),
        Some("2026-11-26 06:00:00+00".into())
    );
    // Closing again keeps the first time.
    ledger.close_transfer(unpaid.id, false, at(26, 9)).await.unwrap();
    assert_eq!(
        number(
            &db.url,
            &format!(
                "SELECT extract(hour FROM intent_closed_at)::bigint AS value FROM sales WHERE id = {}",
                unpaid.id.get()
            )
        ),
        6
    );
    // The refund list counts a flagged sale as refundable (flag 1) until refunded.
    assert_eq!(
        number(
            &db.url,
            &format!(
                "SELECT (CASE WHEN refund_required AND flag = 0 THEN 1 ELSE flag END)::bigint AS value FROM sales WHERE id = {}",
                partly.id.get()
            )
        ),
        1
    );
}

#[tokio::test]
async fn closing_a_transfer_that_was_paid_meanwhile_never_flags_it_and_an_unknown_sale_is_not_found() {
    let (_db, ledger) = setup();
    let sale = cancelled_transfer(&ledger, MEMBER, "close-paid", day(20), at(26, 1)).await;
    ledger.record_payment(sale.id, report(sale.id, SaleStatus::Succeeded), at(26, 2)).await.unwrap();

    let closed = ledger.close_transfer(sale.id, true, at(26, 3)).await.unwrap();

    assert_eq!((closed.status, closed.refund_required), (SaleStatus::Succeeded, false));
    assert!(matches!(ledger.close_transfer(SaleId(999), true, at(26, 3)).await, Err(RepoError::NotFound)));
}

// ------------------------------------------------- customers and events ----

#[tokio::test]
async fn the_first_customer_stored_for_a_user_is_kept() {
    let (_db, ledger) = setup();
    assert_eq!(ledger.customer(MEMBER).await.unwrap(), None);

    let first = ledger.save_customer(MEMBER, &CustomerId::new("cus_first")).await.unwrap();
    let second = ledger.save_customer(MEMBER, &CustomerId::new("cus_second")).await.unwrap();

    assert_eq!((first.as_str(), second.as_str()), ("cus_first", "cus_first"));
    assert_eq!(ledger.customer(MEMBER).await.unwrap(), Some(CustomerId::new("cus_first")));
    assert_eq!(ledger.customer(OTHER_MEMBER).await.unwrap(), None);
}

#[tokio::test]
async fn an_event_is_recorded_once_and_unapplied_payments_are_listed_until_applied() {
    let (db, ledger) = setup();
    let payload = serde_json::json!({ "id": "evt_1", "type": "payment_intent.succeeded" });
    let deliver =
        |at| ledger.record_event("evt_1", "payment_intent.succeeded", Some("pi_1".into()), payload.clone(), at);

    let first = deliver(at(26, 1)).await.unwrap();
    // Not applied yet (failed, or the process died half way): a redelivery is another attempt.
    let redelivered = deliver(at(26, 2)).await.unwrap();
    ledger
        .record_event("evt_2", "customer.created", Some("cus_1".into()), serde_json::json!({}), at(26, 2))
        .await
        .unwrap();
    ledger
        .record_event("evt_3", "payment_intent.payment_failed", Some("pi_3".into()), serde_json::json!({}), at(26, 3))
        .await
        .unwrap();
    ledger.record_event("evt_4", "product.created", None, serde_json::json!({}), at(26, 3)).await.unwrap();
    // A LIKE wildcard must not let "pix..." pass for a payment.
    ledger.record_event("evt_5", "other", Some("pix_1".into()), serde_json::json!({}), at(26, 3)).await.unwrap();

    assert!(first && redelivered);
    assert_eq!(count(&db.url, "provider_events"), 5);
    assert_eq!(
        ledger.unapplied_event_payments(10).await.unwrap(),
        vec![("evt_1".to_string(), PaymentId::new("pi_1")), ("evt_3".to_string(), PaymentId::new("pi_3"))]
    );

    ledger.finish_event("evt_3", Some("sale locked".into()), at(26, 4)).await.unwrap();
    ledger.finish_event("evt_1", None, at(26, 4)).await.unwrap();

    assert_eq!(ledger.unapplied_event_payments(10).await.unwrap(), vec![("evt_3".to_string(), PaymentId::new("pi_3"))]);
    assert!(!deliver(at(26, 5)).await.unwrap(), "an applied event is not applied again");
    assert_eq!(
        text(&db.url, "SELECT attempts || ' ' || last_error AS value FROM provider_events WHERE event_id = 'evt_3'")
            .as_deref(),
        Some("1 sale locked")
    );
    assert!(matches!(ledger.finish_event("evt_unknown", None, at(26, 4)).await, Err(RepoError::NotFound)));

    // An event that keeps failing is left to an operator, with its last error.
    exec(&db.url, &format!("UPDATE provider_events SET attempts = {MAX_EVENT_ATTEMPTS} WHERE event_id = 'evt_3'"));
    assert_eq!(ledger.unapplied_event_payments(10).await.unwrap(), vec![]);
}

// --------------------------------------------------------------- guests ----

#[tokio::test]
async fn a_guest_account_is_made_once_and_found_again() {
    let (db, ledger) = setup();
    let email = Email::parse("new.guest@example.jp").unwrap();
    assert_eq!(ledger.lookup_guest(&email).await.unwrap(), GuestLookup::Unknown);

    let created = ledger.create_guest(&email).await.unwrap();
    let again = ledger.create_guest(&Email::parse("New.Guest@Example.jp").unwrap()).await.unwrap();

    assert_eq!(created, again);
    assert_eq!(ledger.lookup_guest(&email).await.unwrap(), GuestLookup::Guest(created));
    assert_eq!(
        text(&db.url, &format!("SELECT status AS value FROM users WHERE id = {}", created.get())).as_deref(),
        Some("guest")
    );
    assert_eq!(ledger.member_email(created).await.unwrap(), email);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn guest_accounts_made_at_once_for_one_address_are_one_account() {
    let (db, ledger) = setup();
    let tasks: Vec<_> = (0..5)
        .map(|_| {
            let ledger = Arc::clone(&ledger);
            tokio::spawn(async move { ledger.create_guest(&Email::parse("racing.guest@example.jp").unwrap()).await })
        })
        .collect();
    let mut ids = Vec::new();
    for task in tasks {
        ids.push(task.await.unwrap().unwrap());
    }
    assert!(ids.iter().all(|id| *id == ids[0]), "{ids:?}");
    assert_eq!(number(&db.url, "SELECT count(*) AS value FROM users WHERE email = 'racing.guest@example.jp'"), 1);
}

#[tokio::test]
async fn a_members_address_is_no_guest_and_cannot_become_one() {
    let (_db, ledger) = setup();
    let member = Email::parse("MEMBER@example.jp").unwrap();

    assert_eq!(ledger.lookup_guest(&member).await.unwrap(), GuestLookup::Member);
    assert!(matches!(ledger.create_guest(&member).await, Err(RepoError::Conflict(_))));
    assert_eq!(
        ledger.lookup_guest(&Email::parse("guest@example.jp").unwrap()).await.unwrap(),
        GuestLookup::Guest(GUEST)
    );
    assert!(matches!(ledger.member_email(UserId(999)).await, Err(RepoError::NotFound)));
}

/// The unpaid-transfer hold rule in the sale's transaction: of a 3-lot return, unpaid transfers hold at most 2, one
/// per supporter; a refused transfer writes nothing, and a card still buys the last lot.
#[tokio::test]
async fn unpaid_transfers_hold_at_most_half_a_limited_return_one_per_supporter() {
    let (_db, ledger) = setup();
    place_new(&ledger, bank_order(MEMBER, "hold-member-1", day(30))).await;

    let again = ledger.place(bank_order(MEMBER, "hold-member-2", day(30))).await;
    place_new(&ledger, bank_order(OTHER_MEMBER, "hold-other-1", day(30))).await;
    let over_share = ledger.place(bank_order(GUEST, "hold-guest-1", day(30))).await;
    let by_card = place_new(&ledger, order(GUEST, 1, "hold-guest-card")).await;

    assert!(matches!(again, Err(PlaceError::Blocked(PurchaseBlock::TransferAwaited))), "{again:?}");
    assert!(matches!(over_share, Err(PlaceError::Blocked(PurchaseBlock::TransferShareTaken))), "{over_share:?}");
    assert_eq!(by_card.status, SaleStatus::Pending);
    assert_eq!(ledger.checkout(OPEN, LIMITED).await.unwrap().unwrap().remaining, Remaining::Limited(0));
}

// ------------------------------------------------------- extra amount ----

/// 上乗せ支援: the sale keeps it in its own column, reads it back in its figures, and once paid the project's and
/// the sponsor's totals count the whole total, extra included.
#[tokio::test]
async fn an_extra_amount_is_stored_read_back_and_counted_in_the_totals_once_paid() {
    let (db, ledger) = setup();
    let plain = order(MEMBER, 1, "extra-key-0001");
    let terms = plain.terms.with_extra(domain::extra_amount::ExtraAmount::parse(1_500).unwrap()).unwrap();
    let sale = place_new(&ledger, NewSale { terms, application_fee: Yen(4_500 * 1060 / 10000), ..plain }).await;

    assert_eq!((sale.terms.tax, sale.terms.extra, sale.terms.total), (Yen(272), Yen(1_500), Yen(4_500)));
    let stored = format!("SELECT extra_amount AS value FROM sales WHERE id = {}", sale.id.get());
    assert_eq!(number(&db.url, &stored), 1_500);
    assert_eq!(ledger.sale(sale.id).await.unwrap().unwrap().terms, terms);

    ledger.record_payment(sale.id, report(sale.id, SaleStatus::Succeeded), at(26, 2)).await.unwrap();

    let raised = "SELECT paid_amount AS value FROM project_totals WHERE project_id = 1";
    assert_eq!(number(&db.url, raised), 4_500);
    let sponsor = "SELECT amount AS value FROM sponsor_totals WHERE project_id = 1 AND user_id = 1";
    assert_eq!(number(&db.url, sponsor), 4_500);
}
