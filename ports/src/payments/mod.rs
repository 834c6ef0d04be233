//! Payments: the provider port, the ledger port, and the use cases that
//! place a support and apply the provider's reports.

pub mod cards;
pub mod gateway;
pub mod ledger;
pub mod mails;
pub mod report;
pub mod subscriptions;
pub mod support;
