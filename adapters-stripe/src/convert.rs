//! Stripe's objects in the port's terms. Every function refuses (with a reason) what the
//! application must not misread: another currency than yen, a status it does not know, a
//! bank transfer without an account to pay into.

use chrono::DateTime;
use domain::ids::SaleId;
use domain::money::Yen;
use domain::payment::{
    BankAccountType, BankTransferInstructions, IntentStatus, KonbiniChain, KonbiniStore, KonbiniVoucher,
};
use ports::payments::gateway::{
    ConnectedAccountId, Destination, EventId, NextAction, Payment, PaymentEvent, PaymentEventKind, PaymentFailure,
    PaymentId, Refund, RefundId, RefundStatus,
};
use stripe_shared::{
    FundingInstructionsBankTransferZenginRecord, PaymentIntent, PaymentIntentNextActionDisplayBankTransferInstructions,
    PaymentIntentNextActionKonbini, PaymentIntentStatus,
};
use stripe_types::Currency;
use stripe_webhook::{Event, EventObject};

use crate::{Origin, NAMESPACE_METADATA, SALE_ID_METADATA};

pub(crate) fn payment(pi: &PaymentIntent, origin: &Origin) -> Result<Payment, String> {
    if pi.currency != Currency::JPY {
        return Err(format!("payment {} is in {}, not yen", pi.id.as_str(), pi.currency));
    }
    let status = intent_status(&pi.status)?;
    let amount = Yen(pi.amount);
    let amount_received = Yen(pi.amount_received);
    let instructions = pi.next_action.as_ref().and_then(|a| a.display_bank_transfer_instructions.as_ref());
    let voucher = pi.next_action.as_ref().and_then(|a| a.konbini_display_details.as_ref());
    let next_action = match (status, instructions, voucher) {
        (IntentStatus::RequiresAction, Some(instructions), _) => {
            Some(NextAction::BankTransfer(bank_transfer(pi, instructions)?))
        }
        (IntentStatus::RequiresAction, None, Some(voucher)) => Some(NextAction::Konbini(konbini(pi, voucher)?)),
        (IntentStatus::RequiresAction, None, None) => Some(NextAction::Authenticate {
            client_secret: pi
                .client_secret
                .clone()
                .ok_or_else(|| format!("payment {} requires action but has no client secret", pi.id.as_str()))?,
        }),
        _ => None,
    };
    let amount_remaining = match (&next_action, status) {
        (_, IntentStatus::Succeeded) => Yen::ZERO,
        (Some(NextAction::BankTransfer(instructions)), _) => instructions.amount_remaining,
        _ => Yen(pi.amount - pi.amount_received),
    };
    Ok(Payment {
        id: PaymentId::new(pi.id.as_str()),
        status,
        amount,
        amount_received,
        amount_remaining,
        sale_id: pi
            .metadata
            .get(SALE_ID_METADATA)
            .filter(|_| origin.owns(pi.metadata.get(NAMESPACE_METADATA).map(String::as_str)))
            .and_then(|id| id.parse().ok())
            .map(SaleId),
        destination: pi.transfer_data.as_ref().map(|t| Destination {
            account: ConnectedAccountId::new(t.destination.id().as_str()),
            application_fee: Yen(pi.application_fee_amount.unwrap_or(0)),
        }),
        next_action,
        last_failure: pi.last_payment_error.as_ref().map(|e| PaymentFailure {
            code: e.code.as_ref().map(|c| c.as_str().to_owned()),
            message: e.message.clone().unwrap_or_default(),
        }),
    })
}

fn intent_status(status: &PaymentIntentStatus) -> Result<IntentStatus, String> {
    Ok(match status {
        PaymentIntentStatus::RequiresPaymentMethod => IntentStatus::RequiresPaymentMethod,
        PaymentIntentStatus::RequiresConfirmation => IntentStatus::RequiresConfirmation,
        PaymentIntentStatus::RequiresAction => IntentStatus::RequiresAction,
        PaymentIntentStatus::Processing => IntentStatus::Processing,
        PaymentIntentStatus::RequiresCapture => IntentStatus::RequiresCapture,
        PaymentIntentStatus::Canceled => IntentStatus::Canceled,
        PaymentIntentStatus::Succeeded => IntentStatus::Succeeded,
        other => return Err(format!("unknown payment status {}", other.as_str())),
    })
}

fn bank_transfer(
    pi: &PaymentIntent,
    instructions: &PaymentIntentNextActionDisplayBankTransferInstructions,
) -> Result<BankTransferInstructions, String> {
    let missing = |what: &str| format!("bank transfer instructions of {} without {what}", pi.id.as_str());
    let zengin: &FundingInstructionsBankTransferZenginRecord = instructions
        .financial_addresses
        .iter()
        .flatten()
        .find_map(|address| address.zengin.as_ref())
        .ok_or_else(|| missing("a zengin account"))?;
    let field = |value: &Option<String>, what: &str| value.clone().ok_or_else(|| missing(what));
    Ok(BankTransferInstructions {
        // Absent only before the first confirmation; then the whole amount is due.
        amount_remaining: Yen(instructions.amount_remaining.unwrap_or(pi.amount - pi.amount_received)),
        reference: instructions.reference.clone(),
        bank_name: field(&zengin.bank_name, "a bank name")?,
        bank_code: zengin.bank_code.clone(),
        branch_name: field(&zengin.branch_name, "a branch name")?,
        branch_code: zengin.branch_code.clone(),
        account_type: BankAccountType::from_code(&field(&zengin.account_type, "an account type")?),
        account_number: field(&zengin.account_number, "an account number")?,
        account_holder_name: field(&zengin.account_holder_name, "an account holder")?,
    })
}

/// The voucher of a konbini payment: every chain Stripe lists, in its order. A voucher without any chain
/// or without an expiry would send the supporter to the store for nothing.
fn konbini(pi: &PaymentIntent, details: &PaymentIntentNextActionKonbini) -> Result<KonbiniVoucher, String> {
    let stores = &details.stores;
    let store = |chain: KonbiniChain, code: Option<(&String, &Option<String>)>| {
        code.map(|(payment_code, confirmation)| KonbiniStore {
            chain,
            payment_code: payment_code.clone(),
            confirmation_number: confirmation.clone(),
        })
    };
    let stores: Vec<KonbiniStore> = [
        store(KonbiniChain::Familymart, stores.familymart.as_ref().map(|s| (&s.payment_code, &s.confirmation_number))),
        store(KonbiniChain::Lawson, stores.lawson.as_ref().map(|s| (&s.payment_code, &s.confirmation_number))),
        store(KonbiniChain::Ministop, stores.ministop.as_ref().map(|s| (&s.payment_code, &s.confirmation_number))),
        store(KonbiniChain::Seicomart, stores.seicomart.as_ref().map(|s| (&s.payment_code, &s.confirmation_number))),
    ]
    .into_iter()
    .flatten()
    .collect();
    if stores.is_empty() {
        return Err(format!("konbini voucher of {} names no store", pi.id.as_str()));
    }
    let expires_at = DateTime::from_timestamp(details.expires_at, 0)
        .ok_or_else(|| format!("konbini voucher of {} expires at an impossible time", pi.id.as_str()))?;
    Ok(KonbiniVoucher { expires_at, hosted_voucher_url: details.hosted_voucher_url.clone(), stores })
}

/// The spec's brand names, from a card source's brand ("American Express") or a
/// PaymentMethod's brand code ("amex").
pub(crate) fn brand(stripe_brand: &str) -> &'static str {
    match stripe_brand.to_ascii_lowercase().as_str() {
        "visa" => "Visa",
        "mastercard" => "MasterCard",
        "american express" | "amex" => "American Express",
        "jcb" => "JCB",
        "diners club" | "diners" => "Diners Club",
        "discover" => "Discover",
        _ => "Unknown",
    }
}

pub(crate) fn refund(refund: &stripe_shared::Refund, payment: &PaymentId) -> Result<Refund, String> {
    if refund.currency != Currency::JPY {
        return Err(format!("refund {} is in {}, not yen", refund.id.as_str(), refund.currency));
    }
    let status = match refund.status.as_deref() {
        Some("pending") => RefundStatus::Pending,
        Some("requires_action") => RefundStatus::RequiresAction,
        Some("succeeded") => RefundStatus::Succeeded,
        Some("failed") => RefundStatus::Failed,
        Some("canceled") => RefundStatus::Canceled,
        other => return Err(format!("refund {} has unknown status {other:?}", refund.id.as_str())),
    };
    Ok(Refund {
        id: RefundId::new(refund.id.as_str()),
        payment: refund.payment_intent.as_ref().map(|p| PaymentId::new(p.id().as_str())).unwrap_or(payment.clone()),
        amount: Yen(refund.amount),
        status,
        failure_reason: refund.failure_reason.clone(),
    })
}

pub(crate) fn event(event: &Event, origin: &Origin) -> Result<PaymentEvent, String> {
    let event_type = event.type_.as_str().to_owned();
    let kind = match event_type.as_str() {
        "payment_intent.succeeded" => PaymentEventKind::Succeeded,
        "payment_intent.partially_funded" => PaymentEventKind::PartiallyFunded,
        "payment_intent.payment_failed" => PaymentEventKind::Failed,
        "payment_intent.requires_action" => PaymentEventKind::RequiresAction,
        "payment_intent.processing" => PaymentEventKind::Processing,
        "payment_intent.canceled" => PaymentEventKind::Canceled,
        "invoice.paid" | "invoice.payment_succeeded" => PaymentEventKind::InvoicePaid,
        "invoice.payment_failed" => PaymentEventKind::InvoicePaymentFailed,
        "customer.subscription.created" | "customer.subscription.updated" => PaymentEventKind::SubscriptionUpdated,
        "customer.subscription.deleted" => PaymentEventKind::SubscriptionDeleted,
        _ => PaymentEventKind::Other,
    };
    let payment = match &event.data.object {
        EventObject::PaymentIntentAmountCapturableUpdated(pi)
        | EventObject::PaymentIntentCanceled(pi)
        | EventObject::PaymentIntentCreated(pi)
        | EventObject::PaymentIntentPartiallyFunded(pi)
        | EventObject::PaymentIntentPaymentFailed(pi)
        | EventObject::PaymentIntentProcessing(pi)
        | EventObject::PaymentIntentRequiresAction(pi)
        | EventObject::PaymentIntentSucceeded(pi) => Some(payment(pi, origin)?),
        _ => None,
    };
    let created_at = DateTime::from_timestamp(event.created, 0)
        .ok_or_else(|| format!("event {} has an impossible time {}", event.id.as_str(), event.created))?;
    Ok(PaymentEvent {
        id: EventId::new(event.id.as_str()),
        event_type,
        kind,
        created_at,
        payment,
        invoice: None,
        subscription: None,
    })
}
