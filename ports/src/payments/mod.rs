//! Payments: the provider port (and, later, the use cases that place a
//! support and apply the provider's reports).

pub mod gateway;
pub mod ledger;
