//! Payments: the provider port, the stores, and the use cases, one job
//! each: placing a support ([`support`]), applying a provider's report
//! ([`apply`], which every other use case goes through), the webhooks
//! ([`webhooks`]), the timed sweeps ([`sweeps`]), monthly support after its
//! first month ([`subscriptions`]) and saved cards ([`cards`]).

pub mod apply;
pub mod cards;
mod customer;
pub mod gateway;
pub mod ledger;
pub mod mails;
#[cfg(test)]
mod mock_stores;
pub mod outcome;
pub mod report;
pub mod subscriptions;
pub mod support;
pub mod sweeps;
pub mod webhooks;

use std::sync::Arc;

use apply::{ProviderReports, ReportStores};
use gateway::PaymentGateway;
use ledger::{EventStore, SweepStore};
use mails::PaymentMails;
use subscriptions::MonthlySupport;
use support::{SupportConfig, SupportService};
use sweeps::SweepService;
use webhooks::WebhookService;

use crate::clock::Clock;
use crate::mailer::Mailer;

/// The payment use cases over one set of stores, wired to share what they
/// share (the provider, the mail queue, the clock and the settings).
pub struct PaymentUseCases<S, G, M, C> {
    pub supports: Arc<SupportService<S, G, M, C>>,
    pub webhooks: Arc<WebhookService<S, G, M, C>>,
    pub sweeps: Arc<SweepService<S, G, M, C>>,
    pub subscriptions: Arc<MonthlySupport<S, G, M, C>>,
}

impl<S, G, M, C> PaymentUseCases<S, G, M, C>
where
    S: ReportStores + SweepStore + EventStore,
    G: PaymentGateway,
    M: Mailer,
    C: Clock,
{
    pub fn new(store: Arc<S>, gateway: G, mailer: M, clock: C, mails: PaymentMails, config: SupportConfig) -> Self {
        let core = Arc::new(ProviderReports::new(store, gateway, mailer, clock, mails, config));
        let supports = Arc::new(SupportService::new(Arc::clone(&core)));
        let subscriptions = Arc::new(MonthlySupport::new(Arc::clone(&core)));
        let webhooks = Arc::new(WebhookService::new(Arc::clone(&core)));
        let sweeps = Arc::new(SweepService::new(core, Arc::clone(&supports), Arc::clone(&subscriptions)));
        Self { supports, webhooks, sweeps, subscriptions }
    }
}
