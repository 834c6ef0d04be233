//! `make bench`'s write path: guest bank-transfer supports placed through the
//! real `SupportService` and `PgSupportLedger`, with the payment provider
//! answering at once and mails dropped, so what is measured is our code and
//! its SQL up to the provider call. Built only with the `write-bench` feature.
//!
//! Reads DATABASE_URL, DATABASE_POOL_SIZE (16), BENCH_PROJECT_ID and
//! BENCH_RETURN_ID (an open project taking bank transfers, a return without
//! stock limit, address or question), BENCH_CLIENTS (64), BENCH_DURATION
//! (seconds, 10) and BENCH_GUESTS (distinct guest e-mails, 1000). Prints one
//! line: `supports/s p50_ms p90_ms p99_ms errors`.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use adapters_postgres::PgSupportLedger;
use anyhow::Context;
use domain::account::Email;
use domain::ids::{ProjectId, ReturnId};
use domain::money::Yen;
use domain::payment::{BankAccountType, BankTransferInstructions, IntentStatus, PayType};
use ports::accounts::SiteInfo;
use ports::clock::SystemClock;
use ports::mailer::{MailError, Mailer, OutgoingMail};
use ports::payments::gateway::{
    BankTransferRequest, CardCharge, CardSetup, CustomerCards, CustomerId, GatewayError, IdempotencyKey, InvoiceId,
    MonthlyPlan, NewCustomer, NewSubscription, NextAction, Payment, PaymentEvent, PaymentGateway, PaymentId,
    PaymentMethodId, ProviderCard, ProviderInvoice, ProviderSubscription, Refund, RefundId, RefundRequest, SavedCard,
    SubscriptionId, WebhookError,
};
use ports::payments::mails::PaymentMails;
use ports::payments::support::{SupportConfig, SupportOrder, Supporter, Supports};
use ports::payments::PaymentUseCases;

/// A provider that answers at once: customers get an id from their user, a
/// transfer opens with instructions. Nothing else is asked on this path.
struct InstantProvider;

fn not_on_this_path<T>() -> Result<T, GatewayError> {
    Err(GatewayError::Rejected("not used by the write benchmark".into()))
}

#[async_trait::async_trait]
impl PaymentGateway for InstantProvider {
    async fn create_customer(&self, customer: NewCustomer, _key: IdempotencyKey) -> Result<CustomerId, GatewayError> {
        Ok(CustomerId::new(format!("cus_bench_{}", customer.user_id)))
    }

    async fn charge_card(&self, _charge: CardCharge, _key: IdempotencyKey) -> Result<Payment, GatewayError> {
        not_on_this_path()
    }

    async fn start_bank_transfer(
        &self,
        transfer: BankTransferRequest,
        _key: IdempotencyKey,
    ) -> Result<Payment, GatewayError> {
        let instructions = BankTransferInstructions {
            amount_remaining: transfer.amount,
            reference: Some(format!("REF{}", transfer.sale_id)),
            bank_name: "テスト銀行".into(),
            bank_code: Some("0001".into()),
            branch_name: "ベンチ支店".into(),
            branch_code: Some("001".into()),
            account_type: BankAccountType::Ordinary,
            account_number: "1234567".into(),
            account_holder_name: "ｸﾗｳﾄﾞﾌｱﾝﾃﾞｲﾝｸﾞ".into(),
        };
        Ok(Payment {
            id: PaymentId::new(format!("pi_bench_{}", transfer.sale_id)),
            status: IntentStatus::RequiresAction,
            amount: transfer.amount,
            amount_received: Yen(0),
            amount_remaining: transfer.amount,
            sale_id: Some(transfer.sale_id),
            destination: transfer.destination,
            next_action: Some(NextAction::BankTransfer(instructions)),
            last_failure: None,
        })
    }

    async fn start_konbini(
        &self,
        _konbini: ports::payments::gateway::KonbiniRequest,
        _key: IdempotencyKey,
    ) -> Result<Payment, GatewayError> {
        not_on_this_path()
    }

    async fn start_card_setup(&self, _customer: Option<CustomerId>) -> Result<CardSetup, GatewayError> {
        not_on_this_path()
    }

    async fn set_up_card(&self, _client_secret: &str) -> Result<PaymentMethodId, GatewayError> {
        not_on_this_path()
    }

    async fn card(&self, _card: &PaymentMethodId) -> Result<ProviderCard, GatewayError> {
        not_on_this_path()
    }

    async fn attach_card(&self, _customer: &CustomerId, _card: &PaymentMethodId) -> Result<SavedCard, GatewayError> {
        not_on_this_path()
    }

    async fn cards(&self, _customer: &CustomerId) -> Result<CustomerCards, GatewayError> {
        not_on_this_path()
    }

    async fn set_default_card(&self, _customer: &CustomerId, _card: &PaymentMethodId) -> Result<(), GatewayError> {
        not_on_this_path()
    }

    async fn delete_card(&self, _customer: &CustomerId, _card: &PaymentMethodId) -> Result<(), GatewayError> {
        not_on_this_path()
    }

    async fn cancel_payment(&self, _id: &PaymentId) -> Result<Payment, GatewayError> {
        not_on_this_path()
    }

    async fn payment(&self, _id: &PaymentId) -> Result<Payment, GatewayError> {
        not_on_this_path()
    }

    async fn refund(&self, _refund: RefundRequest, _key: IdempotencyKey) -> Result<Refund, GatewayError> {
        not_on_this_path()
    }

    async fn refund_status(&self, _id: &RefundId) -> Result<Refund, GatewayError> {
        not_on_this_path()
    }

    async fn cancel_refund(&self, _id: &RefundId) -> Result<Refund, GatewayError> {
        not_on_this_path()
    }

    async fn refunded(&self, _payment: &PaymentId) -> Result<Yen, GatewayError> {
        not_on_this_path()
    }

    fn verify_webhook(&self, _payload: &str, _signature_header: &str) -> Result<PaymentEvent, WebhookError> {
        Err(WebhookError::BadSignature("not used by the write benchmark".into()))
    }

    async fn ensure_plan(&self, _plan: &MonthlyPlan, _key: IdempotencyKey) -> Result<(), GatewayError> {
        not_on_this_path()
    }

    async fn create_subscription(
        &self,
        _subscription: NewSubscription,
        _key: IdempotencyKey,
    ) -> Result<ProviderSubscription, GatewayError> {
        not_on_this_path()
    }

    async fn subscription(&self, _id: &SubscriptionId) -> Result<ProviderSubscription, GatewayError> {
        not_on_this_path()
    }

    async fn update_subscription(
        &self,
        _id: &SubscriptionId,
        _card: Option<PaymentMethodId>,
        _cancel_at_period_end: Option<bool>,
    ) -> Result<ProviderSubscription, GatewayError> {
        not_on_this_path()
    }

    async fn invoice(&self, _id: &InvoiceId) -> Result<ProviderInvoice, GatewayError> {
        not_on_this_path()
    }

    async fn invoices(&self, _subscription: &SubscriptionId) -> Result<Vec<ProviderInvoice>, GatewayError> {
        not_on_this_path()
    }
}

struct DroppedMail;

#[async_trait::async_trait]
impl Mailer for DroppedMail {
    async fn send(&self, _mail: OutgoingMail) -> Result<(), MailError> {
        Ok(())
    }
}

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> anyhow::Result<T> {
    match std::env::var(name) {
        Ok(raw) => raw.parse().map_err(|_| anyhow::anyhow!("{name}={raw} is not a valid value")),
        Err(_) => Ok(default),
    }
}

fn required_id(name: &str) -> anyhow::Result<i64> {
    std::env::var(name)
        .with_context(|| format!("{name} is not set"))?
        .parse()
        .with_context(|| format!("{name} is not an id"))
}

fn order(project: ProjectId, ret: ReturnId, guest: Email, key: String) -> SupportOrder {
    SupportOrder {
        supporter: Supporter::Guest(guest),
        project,
        ret,
        lot: 1,
        pay_type: PayType::BankTransfer,
        idempotency_key: key,
        supporter_name: "ベンチ 太郎".into(),
        corporate_url: None,
        logo_url_id: None,
        anonymous: false,
        comment: Some("応援しています。がんばってください！".into()),
        additional_value: None,
        address: None,
        agreed_to_terms: true,
        not_antisocial: true,
        card: None,
        extra_amount: None,
    }
}

/// The latency below which `share` of the sorted samples fall, in ms.
fn percentile(sorted: &[Duration], share: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((sorted.len() as f64 * share).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1].as_secs_f64() * 1000.0
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let url = std::env::var("DATABASE_URL").context("DATABASE_URL is not set")?;
    let pool_size: u32 = env_or("DATABASE_POOL_SIZE", 16)?;
    let clients: usize = env_or("BENCH_CLIENTS", 64)?;
    let duration = Duration::from_secs(env_or("BENCH_DURATION", 10)?);
    let guests: u64 = env_or("BENCH_GUESTS", 1000)?;
    let project = ProjectId::try_from(required_id("BENCH_PROJECT_ID")?)?;
    let ret = ReturnId::try_from(required_id("BENCH_RETURN_ID")?)?;

    let pool = adapters_postgres::connect(&url, pool_size)?;
    let site =
        SiteInfo { site_name: "bench".into(), public_url: "http://127.0.0.1".into(), operator: Default::default() };
    let service = PaymentUseCases::new(
        Arc::new(PgSupportLedger::new(pool)),
        InstantProvider,
        DroppedMail,
        SystemClock,
        PaymentMails { site, receipt_links: ports::receipts::ReceiptLinks::none() },
        SupportConfig::default(),
    )
    .supports;
    // One support first: a wrong project or return fails here, loudly, not 64 times a millisecond.
    service
        .place(order(
            project,
            ret,
            Email::parse("bench-guest-0@example.jp")?,
            format!("bench-{}-warmup", std::process::id()),
        ))
        .await
        .map_err(|e| anyhow::anyhow!("the first support failed: {e:?}"))?;

    let run = std::process::id();
    let next = Arc::new(AtomicU64::new(1));
    let errors = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let deadline = started + duration;
    let tasks: Vec<_> = (0..clients)
        .map(|_| {
            let (service, next, errors) = (Arc::clone(&service), Arc::clone(&next), Arc::clone(&errors));
            tokio::spawn(async move {
                let mut latencies = Vec::new();
                while Instant::now() < deadline {
                    let n = next.fetch_add(1, Ordering::Relaxed);
                    let Ok(guest) = Email::parse(&format!("bench-guest-{}@example.jp", n % guests)) else {
                        errors.fetch_add(1, Ordering::Relaxed);
                        continue;
                    };
                    let begun = Instant::now();
                    match service.place(order(project, ret, guest, format!("bench-{run}-{n:08}"))).await {
                        Ok(_) => latencies.push(begun.elapsed()),
                        Err(error) => {
                            if errors.fetch_add(1, Ordering::Relaxed) == 0 {
                                eprintln!("support_write: first error: {error:?}");
                            }
                        }
                    }
                }
                latencies
            })
        })
        .collect();
    let mut latencies = Vec::new();
    for task in tasks {
        latencies.extend(task.await?);
    }
    let elapsed = started.elapsed().as_secs_f64();
    latencies.sort_unstable();
    println!(
        "{:.0} {:.2} {:.2} {:.2} {}",
        latencies.len() as f64 / elapsed,
        percentile(&latencies, 0.50),
        percentile(&latencies, 0.90),
        percentile(&latencies, 0.99),
        errors.load(Ordering::Relaxed)
    );
    Ok(())
}
