//! The provider's signed webhooks: verified, recorded once per event id,
//! and applied from the provider's own record (read back, never from the
//! event's body), so that a forged or stale body moves nothing.

use std::sync::Arc;

use super::apply::{ProviderReports, ReportStores};
use super::gateway::{PaymentGateway, WebhookError};
use super::ledger::EventStore;
use super::outcome::{provider_error, SupportError, WebhookApplyError};
use crate::clock::Clock;
use crate::mailer::Mailer;

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait Webhooks: Send + Sync {
    /// Verifies and applies a provider webhook, once per event id. A signed
    /// event of a shape we do not read is kept and acknowledged; one that
    /// does not match our records is kept with its reason and acknowledged.
    async fn apply_webhook(&self, payload: &str, signature: &str) -> Result<(), WebhookApplyError>;
}

pub struct WebhookService<S, G, M, C> {
    core: Arc<ProviderReports<S, G, M, C>>,
}

impl<S, G, M, C> WebhookService<S, G, M, C> {
    pub fn new(core: Arc<ProviderReports<S, G, M, C>>) -> Self {
        Self { core }
    }
}

#[async_trait::async_trait]
impl<S: ReportStores + EventStore, G: PaymentGateway, M: Mailer, C: Clock> Webhooks for WebhookService<S, G, M, C> {
    async fn apply_webhook(&self, payload: &str, signature: &str) -> Result<(), WebhookApplyError> {
        let body: serde_json::Value =
            serde_json::from_str(payload).map_err(|e| WebhookError::BadPayload(e.to_string()))?;
        let event = match self.core.gateway.verify_webhook(payload, signature) {
            Ok(event) => event,
            // Signed by the provider but of a shape we do not read: acknowledged and kept, as the provider expects.
            Err(WebhookError::BadPayload(reason)) => return self.keep_unreadable_event(body, &reason).await,
            Err(refused) => return Err(refused.into()),
        };
        let object_id = event
            .payment
            .as_ref()
            .map(|p| p.id.as_str().to_string())
            .or_else(|| event.invoice.as_ref().map(|i| i.id.as_str().to_string()))
            .or_else(|| event.subscription.as_ref().map(|s| s.id.as_str().to_string()));
        let now = self.core.now();
        let fresh = self
            .core
            .store
            .record_event(event.id.as_str(), &event.event_type, object_id, body, now)
            .await
            .map_err(anyhow::Error::from)?;
        if !fresh {
            return Ok(());
        }
        // The signature proves who sent the event, not that its object is current or ours: payments and invoices
        // are read back from the provider and checked against the sale before anything moves.
        let result = match (&event.payment, &event.invoice, &event.subscription) {
            (Some(reported), _, _) => self.core.read_and_apply_payment(&reported.id).await,
            (None, Some(reported), _) => match self.core.gateway.invoice(&reported.id).await {
                Ok(invoice) => self.core.apply_invoice(&invoice, event.kind).await,
                Err(error) => Err(provider_error(error)),
            },
            (None, None, Some(subscription)) => self.core.apply_subscription(subscription).await,
            (None, None, None) => Ok(()),
        };
        let error = result.as_ref().err().map(ToString::to_string);
        self.core.store.finish_event(event.id.as_str(), error, now).await.map_err(anyhow::Error::from)?;
        match result {
            // Kept with its reason for a person to look at; sending it again would not change the answer.
            Err(SupportError::Mismatch(_) | SupportError::NotFound) => Ok(()),
            other => other.map_err(|e| WebhookApplyError::Failed(e.into())),
        }
    }
}

impl<S: ReportStores + EventStore, G: PaymentGateway, M: Mailer, C: Clock> WebhookService<S, G, M, C> {
    /// Records a signed event this adapter cannot read (a type or shape it
    /// does not know) as finished with the reason, so it is acknowledged once
    /// and visible later; nothing else moves.
    async fn keep_unreadable_event(&self, body: serde_json::Value, reason: &str) -> Result<(), WebhookApplyError> {
        let text = |key: &str| body.get(key).and_then(serde_json::Value::as_str).map(str::to_string);
        let (Some(id), event_type) = (text("id"), text("type").unwrap_or_default()) else {
            tracing::warn!(%reason, "signed webhook without an event id; acknowledged, nothing recorded");
            return Ok(());
        };
        tracing::info!(event = %id, %event_type, %reason, "signed webhook of a shape we do not read; kept");
        let now = self.core.now();
        let fresh =
            self.core.store.record_event(&id, &event_type, None, body, now).await.map_err(anyhow::Error::from)?;
        if fresh {
            let note = Some(format!("not read: {reason}"));
            self.core.store.finish_event(&id, note, now).await.map_err(anyhow::Error::from)?;
        }
        Ok(())
    }
}
